"""The exact production odds ("Chances for tree production") and their agreement with the game's dice."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from treegames import core
from treegames.aspens import (
    SUN_FACES,
    WIND_FACES,
    Direction,
    expected_gain,
    gain_distribution,
    new_game,
    production_probability,
    rulebook_chart,
    variance_gain,
)
from treegames.aspens.odds import gain_on_sun


def test_production_probability_chart_values():
    assert production_probability(0) == production_probability(1) == 0
    assert [production_probability(h) for h in range(2, 8)] == [Fraction(k, 6) for k in range(1, 7)]
    assert production_probability(12) == 1
    with pytest.raises(ValueError):
        production_probability(-1)


def test_rulebook_chart_printed_percent_beside_exact():
    chart = rulebook_chart()
    assert [row.trees for row in chart] == [2, 3, 4, 5, 6, 7]
    assert [row.printed_percent for row in chart] == [16, 33, 50, 66, 83, 100]
    assert chart[0].exact == Fraction(1, 6) and chart[0].producing_suns == (2,)
    assert chart[-1].producing_suns == (2, 3, 4, 5, 6, 7)
    for row in chart:
        assert abs(row.exact * 100 - row.printed_percent) < 1, "the printed percents are truncated"
        assert row.exact == Fraction(len(row.producing_suns), 6)


def test_gain_distribution_spaces_are_perfectly_correlated():
    # two spaces of 2 trees: both produce on a 2 (1/6), neither otherwise
    assert gain_distribution([2, 2]) == {0: Fraction(5, 6), 2: Fraction(1, 6)}
    assert gain_distribution([7, 4, 2]) == {1: Fraction(3, 6), 2: Fraction(2, 6), 3: Fraction(1, 6)}
    assert gain_distribution([]) == {0: Fraction(1)}
    assert expected_gain([7, 4, 2]) == Fraction(10, 6)
    assert variance_gain([2, 2]) == Fraction(4 * 5, 36)


def test_rulebook_strategy_tip_cluster_versus_spread():
    # Aspen's 3,3,1 and Pine's 5,1,1 ("Grow Your Starting Forests" example): equal means, different spread
    assert expected_gain([3, 3, 1]) == expected_gain([5, 1, 1]) == Fraction(2, 3)
    assert variance_gain([3, 3, 1]) > variance_gain([5, 1, 1])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=12), max_size=12))
def test_gain_distribution_is_a_distribution(stacks):
    dist = gain_distribution(stacks)
    assert sum(dist.values()) == 1
    assert expected_gain(stacks) == sum(production_probability(h) for h in stacks), "linearity"
    assert variance_gain(stacks) >= 0


def test_faces():
    assert SUN_FACES == (2, 3, 4, 5, 6, 7)
    assert WIND_FACES == tuple(Direction)


@pytest.mark.parametrize("sun", SUN_FACES)
def test_game_chance_outcomes_agree_with_odds(sun):
    game = new_game()
    state = core.replay(game, [
        "first Aspen", "seed H5", "seed H3", "seed H11", "seed H13", "seed K7", "seed M5",
        "grow-up H5", "grow-up H5", "grow-up H5", "grow-up H11",
        "grow-up H3", "grow-up H13", "grow-up H13", "grow-up M5",
    ])  # fmt: skip
    outcomes = state.chance_outcomes()
    assert {a.value: p for a, p in outcomes} == {s: Fraction(1, 6) for s in SUN_FACES}
    rolled = state.apply(f"sun {sun}")
    assert {a.direction: p for a, p in rolled.chance_outcomes()} == {d: Fraction(1, 6) for d in WIND_FACES}
    after = rolled.apply("wind E")
    for player in (0, 1):
        stacks = state.stacks(player)
        assert after.last_gain[player] == gain_on_sun(stacks, sun)
    # the game's Sun distribution reproduces gain_distribution exactly
    for player in (0, 1):
        stacks = state.stacks(player)
        dist: dict[int, Fraction] = {}
        for action, p in outcomes:
            gained = state.apply(action).apply("wind E").last_gain[player]
            dist[gained] = dist.get(gained, Fraction(0)) + p
        assert dist == gain_distribution(stacks)
