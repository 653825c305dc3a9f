"""Card-draw odds (treegames.mighty_trees.odds): the hypergeometric numbers checked against direct counting."""

from __future__ import annotations

import itertools
import math
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mt_positions import play_until

from treegames import core
from treegames import mighty_trees as mt
from treegames.mighty_trees import odds

DECK = mt.draw_pile_cards()




def first_battle(seed: int = 3, players: int = 3):
    """The first Battle Phase of a seeded game."""
    return play_until(seed, players, lambda s: s.phase is mt.Phase.BATTLE)


def reshuffle_regroup():
    """A Regroup where the draw pile holds fewer cards than the mover must draw (seed found by search)."""
    return play_until(
        1,
        2,
        lambda s: s.phase is mt.Phase.REGROUP and s.draw_size < odds.draws_at_regroup(s, s.mover),
    )


def count_hits_directly(population: int, successes: int, draws: int) -> dict[int, Fraction]:
    """Every draws-subset of a numbered population counted by hand (cards 0..K-1 are wanted)."""
    tally: dict[int, int] = {}
    subsets = list(itertools.combinations(range(population), draws))
    for subset in subsets:
        hits = sum(1 for c in subset if c < successes)
        tally[hits] = tally.get(hits, 0) + 1
    return {h: Fraction(n, len(subsets)) for h, n in sorted(tally.items())}


@pytest.mark.parametrize("population,successes,draws", [(5, 2, 2), (7, 3, 3), (8, 0, 3), (8, 8, 2), (9, 4, 0),
                                                        (10, 3, 4)])
def test_hypergeometric_equals_counting_every_subset(population, successes, draws):
    assert odds.hypergeometric_distribution(population, successes, draws) == count_hits_directly(
        population, successes, draws
    )


def test_worked_example_ten_disasters_in_72_cards():
    # 10 disasters among 72 cards, 3 draws: P(none) = C(62,3)/C(72,3) = 37820/59640
    assert odds.at_least_one(72, 10, 3) == 1 - Fraction(37820, 59640)
    assert odds.hypergeometric(72, 10, 3, 0) == Fraction(37820, 59640)
    # with replacement the chance of at least one is 1 - (62/72)^3
    assert odds.at_least_one_with_replacement(72, 10, 3) == 1 - Fraction(62, 72) ** 3


def test_with_replacement_equals_counting_every_sequence():
    population, successes, draws = 5, 2, 3
    seqs = list(itertools.product(range(population), repeat=draws))
    tally: dict[int, int] = {}
    for seq in seqs:
        hits = sum(1 for c in seq if c < successes)
        tally[hits] = tally.get(hits, 0) + 1
    expected = {h: Fraction(n, len(seqs)) for h, n in sorted(tally.items())}
    assert odds.binomial_distribution(population, successes, draws) == expected


@given(st.integers(1, 40).flatmap(lambda n: st.tuples(st.just(n), st.integers(0, n), st.integers(0, n))))
@settings(max_examples=60, deadline=None)
def test_without_replacement_at_least_as_likely_to_hit(args):
    population, successes, draws = args
    dist = odds.hypergeometric_distribution(population, successes, draws)
    assert sum(dist.values()) == 1
    assert odds.at_least_one(population, successes, draws) >= odds.at_least_one_with_replacement(
        population, successes, draws
    )


def test_impossible_counts_raise_value_errors_naming_the_limit():
    with pytest.raises(ValueError, match="wanted cards must be 0 to 5"):
        odds.hypergeometric_distribution(5, 6, 1)
    with pytest.raises(ValueError, match="draws must be 0 to 5"):
        odds.at_least_one(5, 1, 9)
    with pytest.raises(ValueError, match="at least one card"):
        odds.at_least_one_with_replacement(0, 0, 1)


def test_teacher_pool_is_the_draw_pile_exactly():
    state = play_until(2, 2, lambda s: s.phase is mt.Phase.REGROUP)
    pool = odds.pool_for(state)
    outcomes = {a.card for a, _p in state.chance_outcomes()}
    assert {c.id for c in pool.unknown} == outcomes
    assert pool.pile_size == state.draw_size == len(outcomes)
    assert pool.viewer is None


def test_player_pool_counts_other_commands_as_unknown_but_not_their_own():
    state = first_battle()
    me = state.mover
    pool = odds.pool_for(state, me)
    ids = {c.id for c in pool.unknown}
    assert not ids & {c.id for c in state.hand(me)}
    for other in range(state.num_players):
        if other != me:
            assert {c.id for c in state.hand(other)} <= ids
    assert len(ids) == state.draw_size + 3 * (state.num_players - 1)
    assert pool.pile_size == state.draw_size


def test_litter_and_trees_in_play_are_never_unknown():
    state = play_until(4, 2, lambda s: s.turn >= 12 and s.litter_cards and s.tree_count(0) + s.tree_count(1) > 0)
    pool = odds.pool_for(state, 0)
    ids = {c.id for c in pool.unknown}
    assert not ids & {c.id for c in state.litter_cards}
    for p in range(2):
        for tree in state.understory(p) + state.canopy(p):
            if tree is not None:
                assert tree.id not in ids


def test_without_quercus_marilandica_the_card_is_never_unknown():
    rng = random.Random(5)
    state = mt.new_game(2, without_quercus_marilandica=True).new_initial_state()
    while state.current_player == core.CHANCE:
        state = state.apply(state.sample_chance(rng))
    pool = odds.pool_for(state, 0)
    assert "Quercus marilandica" not in {c.name for c in pool.unknown}
    assert len(pool.unknown) == 71 - 3


def brute_force_with_reshuffle(pool: odds.DrawPool, wanted, draws: int) -> dict[int, Fraction]:
    """Enumerate every possible draw pile, then every way the draws can go (litter reshuffle included)."""
    tally: dict[int, Fraction] = {}
    piles = list(itertools.combinations(pool.unknown, pool.pile_size))
    for pile in piles:
        first = min(draws, len(pile))
        takes = list(itertools.combinations(pile, first))
        later = list(itertools.combinations(pool.litter, draws - first))
        for take in takes:
            for extra in later:
                hits = sum(1 for c in take + extra if wanted(c))
                weight = Fraction(1, len(piles) * len(takes) * len(later))
                tally[hits] = tally.get(hits, Fraction(0)) + weight
    return dict(sorted(tally.items()))


@pytest.mark.parametrize("draws", [1, 2, 3, 4, 5])
def test_reshuffle_odds_equal_enumerating_every_pile_and_draw(draws):
    trees = [c for c in DECK if c.kind is mt.Kind.TREE][:3]
    disasters = [c for c in DECK if c.kind is mt.Kind.DISASTER][:3]
    pool = odds.DrawPool(unknown=tuple(trees[:2] + disasters[:2] + trees[2:]), pile_size=2,
                         litter=tuple(disasters[2:] + trees[:1] * 0 + [DECK[55], DECK[56]]), viewer=0)
    assert odds.hits_distribution(pool, odds.is_disaster, draws) == brute_force_with_reshuffle(
        pool, odds.is_disaster, draws
    )


def test_a_real_reshuffle_position_takes_the_last_draws_from_the_litter():
    state = reshuffle_regroup()
    need = odds.draws_at_regroup(state, state.mover)
    pool = odds.pool_for(state)
    assert pool.pile_size < need <= pool.most_draws
    litter_disasters = pool.count(odds.is_disaster, pool.litter)
    pile_disasters = pool.count(odds.is_disaster)
    # Teacher view: the pile is drawn whole, then (need - pile) cards from the litter.
    p_none = odds.hypergeometric(len(pool.litter), litter_disasters, need - pool.pile_size, 0)
    if pile_disasters:
        p_none = Fraction(0)
    assert odds.chance_of_hit(pool, odds.is_disaster, need) == 1 - p_none


def test_the_engines_own_draws_match_the_exact_odds():
    state = play_until(2, 2, lambda s: s.phase is mt.Phase.REGROUP)
    need = odds.draws_at_regroup(state, state.mover)
    pool = odds.pool_for(state)
    exact = odds.hits_distribution(pool, odds.is_tree, need)
    rng = random.Random(11)
    trials = 1500
    counts = odds.sample_counts([odds.engine_regroup_draws(state, rng) for _ in range(trials)], odds.is_tree)
    for hits, p in exact.items():
        assert abs(counts[hits] / trials - float(p)) < 0.05, (hits, counts, exact)
    assert set(counts) <= set(exact)


def test_simulator_converges_to_the_exact_distribution():
    state = first_battle()
    pool = odds.pool_for(state, state.mover)
    t, w = state.conditions()
    wanted = odds.fits_habitat(t, w)
    exact = odds.hits_distribution(pool, wanted, 3)
    counts = odds.simulate_hits(pool, wanted, 3, random.Random(7), 20000)
    assert sum(counts.values()) == 20000
    for hits, p in exact.items():
        assert abs(counts[hits] / 20000 - float(p)) < 0.015


def test_fits_habitat_is_the_engines_planting_test():
    state = first_battle()
    t, w = state.conditions()
    wanted = odds.fits_habitat(t, w)
    for card in DECK:
        assert wanted(card) == (card.kind is mt.Kind.TREE and card.fits(t, w))


def test_regroup_odds_from_the_movers_view_use_only_what_the_mover_sees():
    state = first_battle()
    me = state.mover
    lines = odds.regroup_odds(state)
    assert {line.draws for line in lines} == {1, 2, 3}
    pool = odds.pool_for(state, me)
    for line in lines:
        assert 0 <= line.chance <= 1 and line.unknown == len(pool.unknown)
    disaster3 = next(li for li in lines if "disaster" in li.question and li.draws == 3)
    assert disaster3.chance == odds.at_least_one(len(pool.unknown), pool.count(odds.is_disaster), 3)
    assert disaster3.with_replacement == odds.at_least_one_with_replacement(
        len(pool.unknown), pool.count(odds.is_disaster), 3)


def test_regroup_odds_mention_the_reshuffle_when_the_pile_is_short():
    state = reshuffle_regroup()
    lines = odds.regroup_odds(state)
    short = [li for li in lines if li.draws > state.draw_size]
    assert short and all("litter pile" in li.note for li in short)


def test_engine_regroup_sample_refuses_outside_the_regroup_phase():
    with pytest.raises(ValueError, match="Regroup Phase"):
        odds.engine_regroup_draws(first_battle(), random.Random(1))


@given(st.integers(0, 200), st.integers(2, 6), st.integers(0, 120))
@settings(max_examples=25, deadline=None)
def test_every_players_pool_is_consistent_in_random_positions(seed, players, steps):
    rng = random.Random(seed)
    bot = core.RandomBot(rng)
    state = mt.new_game(players).new_initial_state()
    for _ in range(steps):
        if state.is_terminal():
            break
        state = state.apply(state.sample_chance(rng) if state.current_player == core.CHANCE else bot.choose(state))
    for p in range(players):
        pool = odds.pool_for(state, p)  # raises on any card-count mismatch
        for draws in range(0, min(3, pool.most_draws) + 1):
            assert sum(odds.hits_distribution(pool, odds.is_disaster, draws).values()) == 1


# ---------------------------------------------------------------- the card-odds lesson's sentences (issue 18)


def lesson_position():
    """The card-odds lesson's section 1 position: the table's view, fitting trees, the Regroup size."""
    from treegames.ui.mighty_trees.lesson import first_regroup

    state = first_regroup(seed=1, players=3, draws=2)
    t, w = state.conditions()
    return state, odds.pool_for(state), odds.fits_habitat(t, w)


def test_the_lesson_gap_is_zero_at_one_card_peaks_at_three_then_shrinks():
    _state, pool, fits = lesson_position()
    n, k = len(pool.unknown), pool.count(fits)
    gaps = odds.replacement_gaps(n, k, 6)
    assert [round(float(g * 100), 2) for g in gaps] == [0.0, 0.41, 0.59, 0.57, 0.45, 0.32]
    sentence = odds.gap_sentence(n, k, 6)
    assert "With 1 card the two chances are exactly equal" in sentence
    assert "largest, 0.59 points, at 3 cards, then shrinks to 0.32 points at 6 cards" in sentence
    assert "grows as you draw a larger share" not in sentence


@pytest.mark.parametrize("population,successes,most", [(10, 3, 8), (62, 32, 6), (30, 1, 10), (12, 12, 5)])
def test_the_gap_sentence_names_the_largest_gap_it_computes(population, successes, most):
    gaps = odds.replacement_gaps(population, successes, most)
    sentence = odds.gap_sentence(population, successes, most)
    assert gaps[0] == 0, "one draw is the same with or without replacement"
    if max(gaps) > 0:
        peak = max(range(most), key=lambda i: gaps[i]) + 1
        assert f"{float(gaps[peak - 1] * 100):.2f} points, at {peak} cards" in sentence
    else:
        assert "exactly equal" in sentence and "higher" not in sentence


def test_the_band_of_200_regroups_holds_95_percent_and_the_old_seeded_run_falls_outside():
    _state, pool, fits = lesson_position()
    p = odds.chance_of_hit(pool, fits, 2)
    band = odds.simulation_band(p, 200)
    assert band.coverage >= Fraction(95, 100)
    assert band.low <= p * 200 <= band.high
    assert not band.holds(139), "the old fixed seed showed 139 of 200 (69.5%) against an exact 77.0%"
    # quantile definition: at most 2.5% below the band, at most 2.5% above it, and the band cannot shrink
    pmf = [Fraction(math.comb(200, i)) * p**i * (1 - p) ** (200 - i) for i in range(201)]
    assert sum(pmf[: band.low]) <= Fraction(1, 40) < sum(pmf[: band.low + 1])
    assert sum(pmf[band.high + 1:]) <= Fraction(1, 40) < sum(pmf[band.high:])
    assert band.coverage == sum(pmf[band.low: band.high + 1])


def test_about_95_percent_of_simulated_runs_of_200_land_in_the_band():
    _state, pool, fits = lesson_position()
    p = odds.chance_of_hit(pool, fits, 2)
    band = odds.simulation_band(p, 200)
    rng = random.Random(18)
    runs = 300
    inside = sum(band.holds(200 - odds.simulate_hits(pool, fits, 2, rng, 200).get(0, 0)) for _ in range(runs))
    assert 0.91 * runs <= inside <= 0.99 * runs


def test_band_edges_for_certain_and_impossible_chances_and_bad_levels():
    assert odds.simulation_band(Fraction(0), 50) == odds.Band(50, 0, 0, Fraction(1), Fraction(95, 100))
    assert (odds.simulation_band(Fraction(1), 50).low, odds.simulation_band(Fraction(1), 50).high) == (50, 50)
    with pytest.raises(ValueError, match="level"):
        odds.simulation_band(Fraction(1, 2), 10, Fraction(1))
    with pytest.raises(ValueError, match="chance"):
        odds.simulation_band(Fraction(3, 2), 10)


def test_the_simulator_says_whether_its_run_is_inside_the_band():
    from treegames.ui.mighty_trees.lesson import DrawSimulator

    state, pool, fits = lesson_position()
    sim = DrawSimulator(state, fits, "fitting trees drawn", rng=random.Random(2024))
    sim.run(200)
    got = 200 - sim.counts.get(0, 0)
    band = odds.simulation_band(odds.chance_of_hit(pool, fits, 2), 200)
    word = "inside" if band.holds(got) else "outside"
    assert f"between <b>{band.low}</b> and <b>{band.high}</b>" in sim.status.value
    assert f"This run is <b>{word}</b>" in sim.status.value


def test_the_card_odds_lesson_drops_the_false_sentences():
    import json

    lesson = json.load(open("notebooks/mighty_trees/card-odds.ipynb"))
    text = "".join("".join(c["source"]) for c in lesson["cells"])
    assert "grows as you draw a larger share of the pile" not in text and "odds.gap_sentence(" in text
    assert "always a little **higher**" not in text
    assert "until you are likely to hold one" not in text and "next *k* cards of the draw pile" in text
    assert "random.Random(2024)" not in text and "band_text(" in text
    assert "ratio_text(comb(N - K, k), comb(N, k))" in text


def test_a_ratio_is_written_once_when_it_is_already_in_lowest_terms():
    from treegames.ui.mighty_trees.lesson import ratio_text

    assert ratio_text(435, 1891) == "435/1891"
    assert ratio_text(10, 20) == "10/20 = 1/2"
