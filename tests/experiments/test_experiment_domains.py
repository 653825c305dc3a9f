"""The experiments' domains: outcomes, exact chances from the engines, and every refusal of a bad result."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from treegames.aspens.odds import gain_distribution
from treegames.experiments import (
    MAX_BATCH,
    BadCount,
    BadOutcome,
    BadSettings,
    BatchTooLarge,
    ExperimentError,
    NotYourBlock,
    domain_for,
    kinds,
    student_rng,
)
from treegames.experiments.pseudonyms import is_pseudonym, new_pseudonym
from treegames.lab import TournamentSpec, play_games
from treegames.mighty_trees import odds


def test_sun_die_exact_is_the_engines_gain_distribution():
    domain = domain_for("sun-die", {"stacks": [4, 3, 2]})
    assert domain.exact == gain_distribution([4, 3, 2])
    assert domain.outcomes == (0, 1, 2, 3)
    assert sum(domain.exact.values()) == 1


def test_a_result_that_cannot_happen_is_refused():
    domain = domain_for("sun-die", {"stacks": [4, 3, 2]})
    with pytest.raises(BadOutcome, match="not a possible result"):
        domain.check_counts({4: 1})  # three stacks cannot produce four trees
    with pytest.raises(BadOutcome):
        domain.check_counts({"-1": 1})
    with pytest.raises(BadOutcome):
        domain.check_counts({"1.0": 1})


@pytest.mark.parametrize("count", [-1, 1.5, "3", True, None])
def test_a_count_that_is_not_a_whole_number_of_0_or_more_is_refused(count):
    domain = domain_for("sun-die", {"stacks": [4, 3, 2]})
    with pytest.raises(BadCount):
        domain.check_counts({1: count})


def test_a_batch_over_the_limit_is_refused_and_one_at_the_limit_accepted():
    domain = domain_for("sun-die", {"stacks": [4, 3, 2]})
    assert domain.check_counts({0: MAX_BATCH}) == {0: MAX_BATCH}
    with pytest.raises(BatchTooLarge, match=str(MAX_BATCH)):
        domain.check_counts({0: MAX_BATCH, 1: 1})


def test_json_keys_are_read_as_outcomes():
    domain = domain_for("sun-die", {"stacks": [4, 3, 2]})
    assert domain.check_counts({"0": 2, "3": 1, 1: 0}) == {0: 2, 3: 1}


def test_every_refusal_is_a_value_error():
    assert issubclass(ExperimentError, ValueError)


@pytest.mark.parametrize("settings", [{"stacks": []}, {"stacks": [13]}, {"stacks": [-1]}, {"stacks": "4,3"},
                                      {"stacks": [1.5]}])
def test_bad_stacks_are_refused_naming_the_setting(settings):
    with pytest.raises(BadSettings, match="stacks"):
        domain_for("sun-die", settings)


def test_an_unknown_experiment_is_refused():
    with pytest.raises(BadSettings, match="not an experiment"):
        domain_for("coin", {})


def test_physical_sun_faces_are_read_as_sun_values():
    domain = domain_for("sun-die", {"stacks": [4, 3, 2]})
    # Sun 2 -> 3 trees, 3 -> 2, 4 -> 1, 7 -> 0
    assert domain.from_physical("sun", [2, 3, 4, 7, 7]) == {0: 2, 1: 1, 2: 1, 3: 1}


def test_a_six_sided_die_face_f_is_read_as_sun_f_plus_1():
    domain = domain_for("sun-die", {"stacks": [4, 3, 2]})
    assert domain.from_physical("d6", [1, 2, 3, 6]) == domain.from_physical("sun", [2, 3, 4, 7])


@pytest.mark.parametrize(("die", "face"), [("sun", 1), ("sun", 8), ("d6", 0), ("d6", 7), ("sun", "3"),
                                           ("sun", 2.0)])
def test_a_face_the_die_does_not_have_is_refused(die, face):
    domain = domain_for("sun-die", {"stacks": [4, 3, 2]})
    with pytest.raises(BadOutcome, match="faces"):
        domain.from_physical(die, [2, face])


def test_an_unknown_die_is_refused():
    with pytest.raises(BadOutcome, match="die"):
        domain_for("sun-die", {}).from_physical("d20", [3])


def test_regroup_exact_is_the_hypergeometric_distribution_of_the_position():
    domain = domain_for("regroup", {"seed": 1, "players": 3, "draws": 2})
    state = domain.position()
    pool = odds.pool_for(state)
    wanted = odds.fits_habitat(*state.conditions())
    assert domain.exact == odds.hits_distribution(pool, wanted, 2)
    assert domain.at_least_one == odds.chance_of_hit(pool, wanted, 2)
    assert sum(domain.exact.values()) == 1


def test_regroup_simulation_is_the_engines_own_deal():
    domain = domain_for("regroup", {"seed": 1, "players": 3, "draws": 2})
    counts = domain.simulate(random.Random(5), 3000)
    assert set(counts) <= set(domain.outcomes)
    share = (3000 - counts[0]) / 3000
    assert abs(share - float(domain.at_least_one)) < 0.04


def test_regroup_refuses_a_bad_draw_count():
    with pytest.raises(BadSettings, match="draws"):
        domain_for("regroup", {"draws": 4})


SPEC = {"game": "aspens", "bots": ["greedy", "random"], "games": 12, "seed": 4, "block": 4}


def test_a_tournament_block_is_played_by_the_lab_game_for_game():
    domain = domain_for("tournament", SPEC)
    assert domain.blocks == 3
    spec = TournamentSpec("aspens", ("greedy", "random"), games=12, seed=4)
    mine = [r for b in range(3) for r in domain.play_block(b)]
    lab = play_games(spec, 0, 12)
    assert [(r["index"], tuple(r["winners"]), tuple(r["scores"])) for r in mine] == \
        [(r.index, r.winners, r.scores) for r in lab]


def test_a_game_outside_the_block_is_refused():
    domain = domain_for("tournament", SPEC)
    records = domain.play_block(0)
    with pytest.raises(NotYourBlock, match="block"):
        domain.check_records(records, 1)


def test_a_forged_seating_or_winner_is_refused():
    domain = domain_for("tournament", SPEC)
    record = dict(domain.play_block(0)[0])
    with pytest.raises(BadOutcome, match="seats"):
        domain.check_records([{**record, "seats": record["seats"][::-1]}], 0)
    with pytest.raises(BadOutcome, match="winners"):
        domain.check_records([{**record, "winners": [5]}], 0)


def test_a_block_must_hold_whole_rotations():
    with pytest.raises(BadSettings, match="multiple of 2"):
        domain_for("tournament", {**SPEC, "block": 3})
    with pytest.raises(BadSettings, match="bots"):
        domain_for("tournament", {**SPEC, "bots": ["nobody", "random"]})


def test_kinds_come_from_the_games_plug_ins_then_the_tournament_each_with_its_name_and_page():
    found = kinds()
    assert [k.name for k in found.values()][:2] == ["The Sun die", "Mighty Trees Regroup"]
    assert list(found)[-1] == "tournament" and found["tournament"].name == "A class tournament"
    assert found["sun-die"].__module__ == "treegames.aspens.experiment", "the game's own package holds it"
    assert found["regroup"].__module__ == "treegames.mighty_trees.experiment"
    assert {k.page for k in found.values()} >= {"aspens/sun-die-probability.ipynb", "mighty_trees/card-odds.ipynb",
                                                "lab/tournaments.ipynb"}
    assert found["sun-die"].physical_dice and not found["regroup"].physical_dice
    with pytest.raises(BadSettings, match="sun-die, regroup"):
        domain_for("coin-toss", {})


def test_pseudonyms_are_generated_and_unique_in_a_class():
    taken: set[str] = set()
    for _ in range(300):
        name = new_pseudonym(taken)
        assert is_pseudonym(name)
        assert name not in taken
        taken.add(name)


def test_student_rng_is_seeded_from_the_os_unless_a_test_seed_is_given(monkeypatch):
    monkeypatch.delenv("TREEGAMES_TEST_RNG_SEED", raising=False)
    a, b = student_rng("Red Fox"), student_rng("Red Fox")
    assert [a.random() for _ in range(4)] != [b.random() for _ in range(4)]
    assert student_rng(seed=3).random() == random.Random(3).random()
    monkeypatch.setenv("TREEGAMES_TEST_RNG_SEED", "class-7")
    assert student_rng("Red Fox").random() == student_rng("Red Fox").random()
    assert student_rng("Red Fox").random() != student_rng("Blue Owl").random()


@given(st.lists(st.integers(4, 12), min_size=1, max_size=5), st.integers(0, 10**6))
def test_simulated_sun_rolls_stay_in_the_domain(stacks, seed):
    domain = domain_for("sun-die", {"stacks": stacks})
    counts = domain.simulate(random.Random(seed), 50)
    assert sum(counts.values()) == 50
    assert domain.check_counts(dict(counts)) == {k: v for k, v in sorted(counts.items())}
    assert all(domain.exact[k] > Fraction(0) for k in counts)
