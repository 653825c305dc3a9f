"""Root-parallel search: trees summed at the root, the same numbers wherever they grow, and no worker left behind."""

from __future__ import annotations

import os
import random
import threading

import pytest

from treegames import core
from treegames.lab import slots
from treegames.search import (
    Budget,
    CoachBot,
    CoachMedium,
    ParallelSearch,
    Search,
    SearchError,
    parallel,
    rollout_for,
)

pytestmark = pytest.mark.slow  # seconds of search or processes per test: not in make test-quick


def decision(name: str, seed: int = 3, moves: int = 12):
    """A position with a choice to make, a few random moves into a game."""
    game_type = core.games()[name]
    state = game_type.new_game().new_initial_state()
    rng = random.Random(seed)
    played = 0
    while True:
        if state.current_player == core.CHANCE:
            state = state.apply(core.sample_chance(state, rng))
            continue
        if played >= moves and len(state.legal_actions()) > 1:
            return state
        state = state.apply(rng.choice(state.legal_actions()))
        played += 1


@pytest.fixture
def own_slots(tmp_path, monkeypatch):
    """Worker slots of this test's own (other tests' tournaments cannot take them) and workers started at once."""
    monkeypatch.setattr(slots, "SLOT_DIR", tmp_path / "slots")
    monkeypatch.setattr(parallel, "PARALLEL_AFTER", 0.0)


def children() -> set[int]:
    """The process ids of this process's living children."""
    found = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as handle:
                    fields = handle.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == os.getpid() and fields[0] != "Z":
                found.add(int(entry))
    return found


def counts(search) -> list[tuple[str, int, int]]:
    """Each root move's notation, playouts and wins."""
    return [(s.notation, s.visits, s.wins) for s in search.statistics()]


@pytest.mark.parametrize("name", ["aspens", "bosk", "mighty_trees"])
def test_the_moves_statistics_are_the_sums_of_the_trees(name):
    state = decision(name)
    search = ParallelSearch(state, random.Random(1), rollout=rollout_for(name), trees=3, processes=False)
    assert search.think(Budget(iterations=31)) == 31 == search.iterations
    per_tree = [{s.action: s for s in tree.statistics()} for tree in search.trees]
    assert [t.iterations for t in search.trees] == [11, 10, 10]  # the budget shared, the first trees one more
    for stats in search.statistics():
        assert stats.visits == sum(t[stats.action].visits for t in per_tree)
        assert stats.wins == sum(t[stats.action].wins for t in per_tree)
    assert search.best() == search.statistics()[0].action


@pytest.mark.parametrize("name", ["aspens", "bosk", "mighty_trees"])
def test_trees_grown_in_worker_processes_give_the_same_numbers_as_trees_grown_here(name, own_slots):
    state = decision(name)
    budget = Budget(iterations=60)
    here = ParallelSearch(state, random.Random(7), rollout=rollout_for(name), trees=2, processes=False)
    here.think(budget)
    there = ParallelSearch(state, random.Random(7), rollout=rollout_for(name), trees=2)
    there.think(budget)
    assert here.used_processes == 0 and there.used_processes == 1
    assert counts(there) == counts(here)
    there.think(budget)  # thinking longer continues the trees the worker sent back
    here.think(budget)
    assert counts(there) == counts(here) and there.iterations == 120


def test_a_worker_starts_only_when_the_rest_would_take_longer_than_a_second_here(tmp_path, monkeypatch):
    monkeypatch.setattr(slots, "SLOT_DIR", tmp_path / "slots")
    search = ParallelSearch(decision("bosk"), random.Random(1), trees=2)
    search.think(Budget(iterations=8))  # a few playouts: well under a second
    assert search.used_processes == 0


def test_with_every_slot_taken_all_the_trees_grow_here(own_slots):
    held = slots.acquire(slots.slot_count())
    try:
        search = ParallelSearch(decision("bosk"), random.Random(1), trees=2)
        search.think(Budget(iterations=40))
        assert search.used_processes == 0 and search.iterations == 40
    finally:
        slots.release(held)


def test_a_finished_or_cancelled_search_leaves_no_worker_behind(own_slots):
    before = children()
    search = ParallelSearch(decision("aspens"), random.Random(2), trees=2)
    search.think(Budget(iterations=40))
    assert search.used_processes == 1
    assert children() == before
    cancel = threading.Event()
    seen = []

    def progress(report):
        seen.append(report)
        cancel.set()  # stop after the first report

    done = search.think(Budget(iterations=100_000), cancel=cancel, progress=progress)
    assert done < 100_000 and seen[-1].finished
    assert children() == before


def test_a_worker_that_dies_costs_only_its_trees_playouts_so_far_and_the_tree_grows_on_here(own_slots):
    before = children()  # other tests' servers may be children of this process too: never touch those
    search = ParallelSearch(decision("aspens"), random.Random(2), trees=2)
    killed = []

    def progress(report):
        for pid in children() - before:
            if not killed:
                os.kill(pid, 9)
                killed.append(pid)

    done = search.think(Budget(iterations=300), progress=progress)
    assert killed and done == 300  # the playouts the worker ran are counted, though its copy of the tree is lost
    assert search.trees[0].iterations == 150 and 0 < search.trees[1].iterations <= 150
    assert search.best() in search.state.legal_actions()
    assert children() == before


def test_a_time_budget_ends_the_parallel_search_by_itself():
    search = ParallelSearch(decision("bosk"), random.Random(1), trees=2, processes=False)
    done = search.think(Budget(seconds=0.3))
    assert done > 0 and search.iterations == done


def test_bad_parallel_searches_are_refused():
    state = decision("bosk")
    for trees in (0, 9, 1.5, True):
        with pytest.raises(SearchError, match="trees"):
            ParallelSearch(state, random.Random(1), trees=trees)
    with pytest.raises(SearchError, match="rng"):
        ParallelSearch(state, 1)
    with pytest.raises(SearchError, match="budget"):
        ParallelSearch(state, random.Random(1)).think(10)


def test_the_coach_above_easy_searches_two_trees_and_one_tree_is_the_plain_search():
    state = decision("bosk")
    medium = CoachMedium(random.Random(4), iterations=20)
    medium.choose(state)
    assert isinstance(medium.last_search, ParallelSearch) and len(medium.last_search.trees) == 2
    single = CoachBot(random.Random(4), iterations=20, trees=1)
    single.choose(state)
    assert isinstance(single.last_search, Search)
