"""Card-draw odds (treegames.mighty_trees.odds): the hypergeometric numbers checked against direct counting."""

from __future__ import annotations

import itertools
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
