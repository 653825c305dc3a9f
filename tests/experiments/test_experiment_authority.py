"""The authority: rounds, members, validated idempotent batches, exclusion, CSV, retention, tournaments."""

from __future__ import annotations

import csv
import io
import threading

import pytest
from exp_helpers import TEACHER
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import harness
from treegames.experiments import (
    BadMember,
    BadOutcome,
    BatchConflict,
    BatchTooLarge,
    ClassFull,
    ExperimentAuthority,
    Limits,
    NoSuchRound,
    NotTeacher,
    NotYourBlock,
    RoundNotOpen,
    Source,
    domain_for,
    student_rng,
)
from treegames.experiments.pseudonyms import is_pseudonym
from treegames.lab import Results, TournamentSpec, play_games


def open_sun(authority, stacks=(4, 3, 2)):
    return authority.open_experiment(TEACHER, "sun-die", {"stacks": list(stacks)})["code"]


def test_only_the_teacher_opens_an_experiment(authority):
    with pytest.raises(NotTeacher):
        authority.open_experiment("guess", "sun-die", {})
    assert authority.classes(TEACHER) == []


def test_a_student_joins_with_a_generated_pseudonym_and_rejoins_as_the_same_one(authority):
    code = open_sun(authority)
    me = authority.join(code.lower())
    assert is_pseudonym(me["pseudonym"]) and not me["rejoined"]
    again = authority.join(code, token=me["token"])
    assert again["pseudonym"] == me["pseudonym"] and again["rejoined"]
    with pytest.raises(NoSuchRound):
        authority.join("ZZZZZ")


def test_students_joining_at_once_get_distinct_pseudonyms_and_never_overfill_the_class(store, clock):
    """Joins are serialised on the class row: twelve at once into a class of four seat exactly four, all named apart."""
    authority = ExperimentAuthority(store, TEACHER, limits=Limits(members_per_class=4), clock=clock)
    code = open_sun(authority)
    gate = threading.Barrier(12)
    joined, full = [], []

    def student():
        gate.wait(harness.DEADLINE)
        try:
            me = authority.join(code)
            authority.contribute(me["token"], "b0", {0: 1})
            joined.append(me["pseudonym"])
        except ClassFull:
            full.append(1)

    threads = [threading.Thread(target=student) for _ in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(harness.DEADLINE)
    assert len(joined) == 4 and len(set(joined)) == 4 and len(full) == 8
    assert sorted(m["pseudonym"] for m in authority.snapshot(code)["members"]) == sorted(joined)


def test_pooled_counts_are_exactly_the_sum_of_seeded_students(authority):
    code = open_sun(authority)
    domain = domain_for("sun-die", {"stacks": [4, 3, 2]})
    expected = [0, 0, 0, 0]
    for i in range(3):
        me = authority.join(code)
        rng = student_rng(seed=f"test/{i}")
        for b in range(5):
            counts = domain.simulate(rng, 10)
            ack = authority.contribute(me["token"], f"b{b}", dict(counts))
            assert ack["accepted"] == 10 and not ack["duplicate"]
            for k, v in counts.items():
                expected[k] += v
    snap = authority.snapshot(code)
    assert snap["counts"] == expected
    assert snap["n"] == 150 and snap["students"] == 3
    assert len(snap["members"]) == 3 and all(m["n"] == 50 for m in snap["members"])
    assert snap["exact_text"] == ["1/2", "1/6", "1/6", "1/6"]
    assert 0 <= snap["tv"] <= 1 and snap["trace"][-1][0] == 150
    assert 0 <= snap["chi_square"]["p_value"] <= 1


def test_a_refused_batch_counts_nothing(authority):
    code = open_sun(authority)
    me = authority.join(code)
    for bad, error in [({7: 1}, BadOutcome), ({0: -2}, ValueError), ({0: 5000}, BatchTooLarge)]:
        with pytest.raises(error):
            authority.contribute(me["token"], "x1", bad)
    snap = authority.snapshot(code)
    assert snap["n"] == 0
    assert authority.contribute(me["token"], "x1", {0: 1})["accepted"] == 1  # the id was never used


def test_a_batch_sent_twice_counts_once(authority):
    code = open_sun(authority)
    me = authority.join(code)
    first = authority.contribute(me["token"], "batch-1", {0: 3, 2: 1})
    again = authority.contribute(me["token"], "batch-1", {"0": 3, "2": 1})
    assert again["duplicate"] and again["seq"] == first["seq"] and again["accepted"] == 4
    assert authority.snapshot(code)["n"] == 4
    with pytest.raises(BatchConflict):
        authority.contribute(me["token"], "batch-1", {0: 4})


def test_a_wrong_token_is_refused(authority):
    open_sun(authority)
    with pytest.raises(BadMember):
        authority.contribute("not-a-real-token-at-all", "b", {0: 1})


def test_freeze_stops_results_and_reopen_takes_them_again(authority):
    code = open_sun(authority)
    me = authority.join(code)
    authority.contribute(me["token"], "a", {0: 1})
    authority.freeze(TEACHER, code)
    with pytest.raises(RoundNotOpen, match="frozen"):
        authority.contribute(me["token"], "b", {0: 1})
    assert authority.snapshot(code)["status"] == "frozen"
    authority.reopen(TEACHER, code)
    authority.contribute(me["token"], "b", {0: 1})
    assert authority.snapshot(code)["n"] == 2


def test_reset_empties_the_round_and_new_round_keeps_pseudonyms(authority):
    code = open_sun(authority)
    me = authority.join(code)
    authority.contribute(me["token"], "a", {0: 5})
    authority.reset(TEACHER, code)
    assert authority.snapshot(code)["n"] == 0
    authority.contribute(me["token"], "b", {1: 2})
    authority.new_round(TEACHER, code, settings={"stacks": [5, 1, 1]})
    snap = authority.snapshot(code)
    assert snap["round_no"] == 2 and snap["n"] == 0 and snap["settings"] == {"stacks": [5, 1, 1]}
    with pytest.raises(RoundNotOpen, match="round 1 has ended"):
        authority.contribute(me["token"], "c", {0: 1}, round_no=1)
    authority.contribute(me["token"], "c", {0: 1}, round_no=2)
    assert authority.me(me["token"])["pseudonym"] == me["pseudonym"]
    assert authority.me(me["token"])["n"] == 1


def test_delete_round_removes_its_data(authority):
    code = open_sun(authority)
    me = authority.join(code)
    authority.contribute(me["token"], "a", {0: 5})
    authority.new_round(TEACHER, code)
    authority.delete_round(TEACHER, code, 1)
    with pytest.raises(NoSuchRound):
        authority.export_csv(TEACHER, code, 1)
    with authority.store.transaction() as cur:
        cur.execute("SELECT COUNT(*) FROM exp_batches")
        assert cur.fetchone()[0] == 0


def test_the_teacher_excludes_and_shows_a_pseudonym(authority):
    code = open_sun(authority)
    a, b = authority.join(code), authority.join(code)
    authority.contribute(a["token"], "1", {0: 4})
    authority.contribute(b["token"], "1", {3: 6})
    authority.set_shown(TEACHER, code, b["pseudonym"], False)
    snap = authority.snapshot(code)
    assert snap["counts"] == [4, 0, 0, 0] and snap["students"] == 1
    assert [m["pseudonym"] for m in snap["members"]] == [a["pseudonym"]]
    teacher = authority.teacher_view(TEACHER, code)
    assert {m["pseudonym"]: m["shown"] for m in teacher["members"]} == {a["pseudonym"]: True, b["pseudonym"]: False}
    assert teacher["members"][0]["sources"] == [Source.CLASS_KERNEL.value]
    authority.set_shown(TEACHER, code, b["pseudonym"], True)
    assert authority.snapshot(code)["counts"] == [4, 0, 0, 6]


def test_physical_dice_are_kept_apart_from_simulated_rolls(authority):
    code = open_sun(authority)
    me = authority.join(code)
    authority.contribute(me["token"], "sim", {0: 2})
    authority.contribute_physical(me["token"], "phys", "d6", [1, 1, 6])
    snap = authority.snapshot(code)
    assert snap["counts"] == [2, 0, 0, 0]
    assert snap["physical"] == {"counts": [1, 0, 0, 2], "n": 3, "students": 1}
    with pytest.raises(BadOutcome):
        authority.contribute_physical(me["token"], "phys2", "sun", [2, 9])
    assert authority.teacher_view(TEACHER, code)["members"][0]["sources"] == ["class-kernel", "physical"]


def test_csv_export_has_pseudonyms_and_no_tokens(authority):
    code = open_sun(authority)
    me = authority.join(code)
    authority.contribute(me["token"], "a", {0: 1, 3: 2})
    text = authority.export_csv(TEACHER, code)
    assert me["token"] not in text
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[1] == ["order", "pseudonym", "excluded", "client", "results", "0 trees", "1 tree", "2 trees",
                       "3 trees"]
    assert rows[2][1:] == [me["pseudonym"], "", "class-kernel", "3", "1", "0", "0", "2"]
    with pytest.raises(NotTeacher):
        authority.export_csv("nope", code)


def test_text_fields_with_sql_metacharacters_are_only_data(authority):
    code = open_sun(authority)
    with pytest.raises(NoSuchRound):
        authority.join("'; DROP TABLE exp_classes; --")
    with pytest.raises(ValueError):
        authority.contribute("x' OR '1'='1' --", "a", {0: 1})
    assert authority.snapshot(code)["n"] == 0


def test_data_is_kept_only_as_long_as_configured(store, clock):
    authority = ExperimentAuthority(store, TEACHER, clock=clock)
    code = open_sun(authority)
    clock.now += 13 * 86400
    assert authority.purge_expired() == []
    clock.now += 2 * 86400
    assert authority.purge_expired() == [code]
    with pytest.raises(NoSuchRound):
        authority.snapshot(code)


def test_a_new_authority_on_the_same_store_sees_the_round_intact(store, clock, authority):
    code = open_sun(authority)
    me = authority.join(code)
    authority.contribute(me["token"], "a", {0: 1, 1: 1})
    later = ExperimentAuthority(store, TEACHER, clock=clock, source=Source.CLASS_KERNEL)
    assert later.snapshot(code)["counts"] == [1, 1, 0, 0]
    assert later.contribute(me["token"], "a", {0: 1, 1: 1})["duplicate"]


def test_regroup_snapshot_has_the_at_least_one_headline(authority):
    code = authority.open_experiment(TEACHER, "regroup", {"seed": 1, "players": 3, "draws": 2})["code"]
    me = authority.join(code)
    domain = domain_for("regroup", {"seed": 1, "players": 3, "draws": 2})
    counts = domain.simulate(student_rng(seed=1), 40)
    authority.contribute(me["token"], "r", dict(counts))
    head = authority.snapshot(code)["headline"]
    assert head["exact_text"] == "1456/1891" and head["of"] == 40 and head["observed"] == 40 - counts[0]


TOURNEY = {"game": "aspens", "bots": ["greedy", "random"], "games": 12, "seed": 4, "block": 4}


def test_a_class_tournament_split_over_three_students_equals_the_lab_run(authority):
    code = authority.open_experiment(TEACHER, "tournament", TOURNEY)["code"]
    domain = domain_for("tournament", TOURNEY)
    students = [authority.join(code) for _ in range(3)]
    for i, me in enumerate(students):
        block = authority.claim_block(me["token"])
        assert block["block"] == i
        ack = authority.contribute_games(me["token"], f"g{i}", block["block"], domain.play_block(block["block"]))
        assert ack["accepted"] == 4
    assert authority.claim_block(students[0]["token"]) is None
    spec = TournamentSpec("aspens", ("greedy", "random"), games=12, seed=4)
    lab = [r.__dict__ | {} for r in play_games(spec, 0, 12)]
    pooled = authority.records(code)
    assert [(r["index"], r["scores"], r["winners"], r["first"]) for r in pooled] == \
        [(r["index"], list(r["scores"]), list(r["winners"]), r["first"]) for r in lab]
    snap = authority.snapshot(code)
    greedy = Results(spec, play_games(spec, 0, 12)).by_bot["greedy"].win
    assert snap["games_done"] == 12 and snap["students"] == 3
    assert (snap["bots"][0]["wins"], snap["bots"][0]["low"], snap["bots"][0]["high"]) == \
        (greedy.k, greedy.low, greedy.high)


def test_tournament_games_are_counted_once_and_only_from_your_own_block(authority):
    code = authority.open_experiment(TEACHER, "tournament", TOURNEY)["code"]
    domain = domain_for("tournament", TOURNEY)
    a, b = authority.join(code), authority.join(code)
    block = authority.claim_block(a["token"])["block"]
    records = domain.play_block(block)
    authority.contribute_games(a["token"], "first-half", block, records[:2])
    with pytest.raises(NotYourBlock):
        authority.contribute_games(b["token"], "steal", block, records)
    # a killed kernel rejoins: it gets its own block back and re-sends it whole
    again = authority.claim_block(a["token"])
    assert again["block"] == block and again["done"] == [r["index"] for r in records[:2]]
    ack = authority.contribute_games(a["token"], "whole", block, records)
    assert ack["accepted"] == 2
    assert authority.snapshot(code)["games_done"] == 4
    forged = [dict(records[0], scores=[999, 0])]
    with pytest.raises(BatchConflict):
        authority.contribute_games(a["token"], "forged", block, forged)

BATCHES = st.lists(st.tuples(st.integers(0, 2), st.integers(0, 5),
                             st.dictionaries(st.sampled_from(["0", "1", "2", "3", "4", "-1"]),
                                             st.integers(-2, 400), min_size=1, max_size=4)), max_size=25)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(BATCHES)
def test_pooled_counts_are_the_sum_of_distinct_acknowledged_batches(authority, batches):
    """Any mix of good, bad and repeated batches: the pool is exactly the first accepted copy of each batch id."""
    code = open_sun(authority)
    tokens = [authority.join(code)["token"] for _ in range(3)]
    counted: dict[tuple, dict] = {}
    for student, batch_no, counts in batches:
        key = (student, batch_no)
        try:
            ack = authority.contribute(tokens[student], f"b{batch_no}", counts)
        except ValueError:
            continue
        tally = {int(k): v for k, v in counts.items() if v}
        if ack["duplicate"]:
            assert counted[key] == tally
        else:
            assert key not in counted
            counted[key] = tally
    expected = [0, 0, 0, 0]
    for tally in counted.values():
        for k, v in tally.items():
            expected[k] += v
    snap = authority.snapshot(code)
    assert snap["counts"] == expected and snap["n"] == sum(expected)


def test_snapshots_from_many_threads_never_count_a_batch_twice(authority):
    import threading

    code = open_sun(authority)
    me = authority.join(code)
    for b in range(50):
        authority.contribute(me["token"], f"b{b}", {0: 1})
    seen = []
    threads = [threading.Thread(target=lambda: seen.append(authority.snapshot(code)["n"])) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(harness.DEADLINE)
    assert seen == [50] * 8
    assert authority.me(me["token"])["n"] == 50
