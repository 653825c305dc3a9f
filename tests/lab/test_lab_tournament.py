"""Tournaments: seeded and reproducible whatever the worker count, cancel stops every worker, results add up."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import psutil
import pytest

import harness
from treegames import core
from treegames.lab import (
    Outcome,
    Results,
    RunState,
    SpecError,
    TournamentRun,
    TournamentSpec,
    play_game,
    play_games,
    records_csv,
    saved_game,
    slots,
    summary_csv,
)
from treegames.lab.tournament import _game_module, outcome_of


def live_children() -> list[psutil.Process]:
    """This process's children that are still running (zombies count: nobody reaped them)."""
    return [c for c in psutil.Process().children(recursive=True) if c.is_running()]


def alive(pids: list[int]) -> list[int]:
    """Those of ``pids`` that are still running (a zombie has exited: it only waits to be reaped)."""
    found = []
    for pid in pids:
        try:
            if psutil.Process(pid).status() != psutil.STATUS_ZOMBIE:
                found.append(pid)
        except psutil.NoSuchProcess:
            continue
    return found


@pytest.fixture
def own_slots(tmp_path, monkeypatch):
    """Worker slots of this test's own: other tests' tournaments and searches on the machine cannot take them.

    Slots are machine-wide lock files (treegames.lab.slots); on a shared machine another test may hold some
    at any moment, and a run then honestly uses fewer workers. Here every slot of this machine is free.
    """
    monkeypatch.setattr(slots, "SLOT_DIR", tmp_path / "slots")
    return tmp_path / "slots"


def test_same_seed_same_tournament_other_seed_other_games():
    spec = TournamentSpec("aspens", ("random", "random"), games=6, seed=11)
    assert play_games(spec, 0, 6) == play_games(TournamentSpec("aspens", ("random", "random"), 6, seed=11), 0, 6)
    other = play_games(TournamentSpec("aspens", ("random", "random"), 6, seed=12), 0, 6)
    assert [r.scores for r in other] != [r.scores for r in play_games(spec, 0, 6)]


def test_a_game_depends_only_on_its_number():
    spec = TournamentSpec("bosk", ("greedy", "random", "random"), games=9, seed=5)
    assert play_game(spec, 7) == play_games(spec, 0, 9)[7]


def test_records_are_identical_with_one_or_two_worker_processes(own_slots):
    spec = TournamentSpec("bosk", ("random", "random"), games=240, seed=4)
    here = TournamentRun(spec, workers=1)
    there = TournamentRun(spec, workers=2)
    assert not here.uses_processes and there.uses_processes and there.workers == 2
    assert here.run().records == there.run().records
    assert there.state is RunState.FINISHED and there.done == 240
    assert there.uses_processes and len(there.process_ids()) == there.workers, "played by the workers it reports"
    assert not any(psutil.pid_exists(pid) and psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
                   for pid in there.process_ids())


def test_cancel_stops_the_worker_processes_and_keeps_partial_results(own_slots):
    seen = []
    spec = TournamentSpec("aspens", ("random", "random"), games=3000, seed=2)
    run = TournamentRun(spec, workers=2, progress=lambda done, total: seen.append(done))
    before = {c.pid for c in live_children()}
    run.start()
    harness.wait_until(lambda: run.done, what="the first games played")
    workers = [psutil.Process(pid) for pid in run.process_ids()]
    assert run.uses_processes and len(workers) == run.workers >= 1, "the run plays in the worker processes it reports"
    assert all(w.is_running() for w in workers), "its worker processes were playing"
    run.cancel()
    assert run.state is RunState.CANCELLED
    assert 0 < run.done < 3000
    for pid in run.process_ids():
        assert not psutil.pid_exists(pid), f"worker {pid} is still there after cancel"
    assert {c.pid for c in live_children()} <= before
    partial = run.results()
    assert partial.games == run.done and partial.first_mover.games == run.done
    assert seen == sorted(seen) and seen[-1] == run.done
    assert all(r == play_game(spec, r.index) for r in partial.records[:3]), "partial records are the real games"


def test_rotated_pairs_swap_seats_with_the_same_dice():
    spec = TournamentSpec("aspens", ("greedy", "random"), games=4, seed=3)
    one, two, three, _four = play_games(spec, 0, 4)
    assert one.seats == ("greedy", "random") and two.seats == ("random", "greedy")
    assert one.first == two.first, "the same first-player draw in both games of a pair"
    assert spec.seeds(0) == spec.seeds(1) != spec.seeds(2)
    fixed = TournamentSpec("aspens", ("greedy", "random"), games=3, seed=3, rotate=False)
    assert {r.seats for r in play_games(fixed, 0, 3)} == {("greedy", "random")}


def test_results_add_up_per_bot_per_seat_and_first_mover():
    spec = TournamentSpec("mighty_trees", ("random", "random", "random"), games=60, seed=8)
    results = Results(spec, play_games(spec, 0, 60))
    for tally in (*results.by_seat, results.first_mover):
        assert tally.games == 60 and tally.wins + tally.ties + tally.losses == 60
        assert tally.win.low <= tally.win.value <= tally.win.high
    assert results.by_bot["random"].games == 60 and results.by_bot["random"].every_seat, "one outcome per game"
    assert sum(t.wins for t in results.by_seat) == sum(len(r.winners) == 1 for r in results.records)
    assert len(results.lengths()) == 60 and min(results.lengths()) > 0


def test_paired_comparison_counts_greedy_ahead():
    spec = TournamentSpec("bosk", ("greedy", "random"), games=20, seed=1)
    paired = Results(spec, play_games(spec, 0, 20)).paired()
    assert paired.pairs == 10
    assert paired.first_better + paired.second_better + paired.even == 10
    assert paired.first_better >= 8 and paired.p_value() < 0.05
    assert Results(TournamentSpec("bosk", ("random", "random"), 4), []).paired() is None


def test_outcomes_of_winners():
    assert outcome_of((1,), 1) is Outcome.WIN and outcome_of((1,), 0) is Outcome.LOSS
    assert outcome_of((0, 1), 0) is Outcome.TIE and outcome_of((), 0) is Outcome.TIE
    assert outcome_of((0, 2), 1) is Outcome.LOSS


def test_saved_game_of_a_row_replays_to_the_same_end():
    spec = TournamentSpec("aspens", ("greedy", "random"), games=5, seed=9)
    record = play_game(spec, 3)
    text = saved_game(spec, 3)
    data = json.loads(text)
    assert data["game"] == "aspens" and data["format"] == core.SAVE_FORMAT
    state = _game_module("aspens").new_game(**data["options"]).state_from_json(text)
    assert state.is_terminal() and tuple(state.scores()) == record.scores
    assert tuple(state.winners()) == record.winners and len(state.history) == record.actions


def test_csv_exports_one_row_per_game_and_one_per_tally():
    spec = TournamentSpec("aspens", ("random", "random"), games=8, seed=0)
    records = play_games(spec, 0, 8)
    rows = list(csv.DictReader(io.StringIO(records_csv(spec, records))))
    assert len(rows) == 8 and rows[0]["game"] == "1" and rows[0]["bot Aspen"] == "random"
    assert {rows[0]["outcome Aspen"], rows[0]["outcome Pine"]} <= {"win", "tie", "loss"}
    summary = list(csv.DictReader(io.StringIO(summary_csv(Results(spec, records)))))
    assert [r["name"] for r in summary] == ["random", "Aspen", "Pine", "first mover"]
    assert float(summary[1]["win low"]) <= float(summary[1]["win share"]) <= float(summary[1]["win high"])


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"game": "chess"}, "game"),
        ({"bots": ("random",)}, "bots"),
        ({"bots": ("random", "genius")}, "bots"),
        ({"games": 0}, "games"),
        ({"games": 10**6}, "games"),
        ({"bots": ("coach-hard", "greedy"), "games": 201}, "a coach plays at most 200"),
        ({"seed": "x"}, "seed"),
        ({"options": {"setup": 99}}, "options"),
        ({"game": "bosk", "bots": ("random", "random"), "options": {"players": 3}}, "players"),
    ],
)
def test_a_bad_spec_names_the_field(kwargs, field):
    with pytest.raises(SpecError, match=field):
        TournamentSpec(**kwargs)


def test_a_failing_progress_callback_does_not_stop_the_tournament():
    def broken(done, total):
        raise RuntimeError("view went away")

    run = TournamentRun(TournamentSpec("bosk", ("random", "random"), games=12), workers=1, progress=broken)
    assert run.run().games == 12 and run.state is RunState.FINISHED


def test_the_lab_imports_no_ui():
    import subprocess
    import sys

    code = ("import sys, treegames.lab, treegames.lab.worker; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('ipywidgets', 'ipycanvas', 'IPython')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


PARENT = """
import sys
sys.path.insert(0, sys.argv[1])  # tests/: harness
import harness
from pathlib import Path
from treegames.lab import TournamentRun, TournamentSpec, slots
slots.SLOT_DIR = Path(sys.argv[2])  # the test's own slots: other tests' runs cannot take them
run = TournamentRun(TournamentSpec("aspens", ("random", "random"), games=5000, seed=1), workers=2).start()
harness.wait_until(lambda: run.done, what="the first games played")
print(int(run.uses_processes), run.workers, *run.process_ids(), flush=True)
sys.stdin.read()  # a kernel that stays until it is killed (or its test ends and closes this pipe)
"""


@pytest.mark.slow  # a second or more of CPU: make test runs it, test-quick does not
def test_workers_leave_when_their_parent_is_killed(own_slots):
    import signal
    import subprocess
    import sys

    tests = Path(harness.__file__).resolve().parent
    parent = subprocess.Popen([sys.executable, "-c", PARENT, str(tests), str(own_slots)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    try:
        line = parent.stdout.readline()
        assert line, "the parent started its run and named its workers"
        uses_processes, workers, *pids = (int(p) for p in line.split())
        assert uses_processes and len(pids) == workers >= 1, "the parent's run plays in the workers it reports"
        parent.send_signal(signal.SIGKILL)  # a kernel killed outright: no cancel, no clean-up code runs
        parent.wait(timeout=harness.DEADLINE)
        harness.wait_until(lambda: not alive(pids), what="the workers gone (they notice the closed pipe and exit)")
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()
        parent.stdin.close()
        parent.stdout.close()


def test_a_worker_that_cannot_start_fails_the_run_and_stops_the_other(monkeypatch, own_slots):
    from treegames.lab import runner

    started = []
    real = runner.start_worker

    def second_fails():
        if started:
            raise OSError("no more processes")
        started.append(real())
        return started[-1]

    monkeypatch.setattr(runner, "start_worker", second_fails)
    run = TournamentRun(TournamentSpec("aspens", ("random", "random"), games=400), workers=2).start()
    assert run.wait(harness.DEADLINE) and run.state is RunState.FAILED
    assert "no more processes" in run.error
    assert started[0].poll() is not None, "the first worker was stopped"


def test_worker_slots_are_shared_machine_wide(own_slots):
    taken = slots.acquire(slots.slot_count())  # as if other visitors' tournaments held every core
    try:
        assert len(taken) == slots.slot_count()
        assert slots.acquire(1) == [], "no slot is left"
        run = TournamentRun(TournamentSpec("bosk", ("random", "random"), games=300), workers=2)
        assert run.start().wait(harness.DEADLINE)
        assert not run.uses_processes and run.workers == 1 and run.process_ids() == []
        assert run.state is RunState.FINISHED and run.done == 300
    finally:
        slots.release(taken)
    again = slots.acquire(2)
    assert len(again) == min(2, slots.slot_count()), "released slots can be taken again"
    slots.release(again)
