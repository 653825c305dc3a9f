"""3B Grow Out and the Wind die: the exact chance of reaching an empty space, checked against the engine's moves."""

from __future__ import annotations

import json
import random
from fractions import Fraction

import pytest

from treegames import aspens, core
from treegames.aspens import Direction, Phase
from treegames.aspens.odds import (
    WIND_FACES,
    reach_census,
    reach_chance,
    reach_table,
    touching_directions,
    wind_valid_probability,
)


def turn_starts(seed: int) -> list:
    """Every turn start (before the Sun roll) of one seeded greedy-bot game."""
    bots = [aspens.GreedyBot(random.Random(seed)), aspens.GreedyBot(random.Random(seed + 1))]
    states = core.play(aspens.new_game(), bots, random.Random(seed), keep=True)
    return [s for s in states if s.phase is Phase.ROLL_SUN]


def frontier(state, player: int) -> set:
    """The empty spaces touching one of ``player``'s spaces."""
    empty = state.empty_cells()
    return {n for c in state.spaces(player) for n in state.board.neighbors(c) if n in empty}


def faces_reaching(state, space) -> int:
    """How many Wind faces make ``space`` a legal grow-out target of the mover (the engine decides)."""
    after_sun = state.apply("sun 7")
    return sum(1 for face in WIND_FACES
               if space in after_sun.apply(f"wind {face}").legal_targets()["grow-out"])


def test_reach_chance_counts_the_wind_faces_on_which_the_engine_allows_the_grow_out():
    state = turn_starts(1)[12]
    player = state.turn_player
    checked = 0
    for space in sorted(frontier(state, player)):
        assert reach_chance(state, player, space) == Fraction(faces_reaching(state, space), 6), space
        checked += 1
    assert checked > 5


def test_a_space_touching_one_of_your_spaces_is_reached_on_half_the_wind_rolls():
    rows = [row for row in reach_table() if row.touching == 1]
    assert [row.chance for row in rows] == [Fraction(1, 2)]


def test_a_space_touching_several_of_your_spaces_is_reached_more_often_than_half():
    # The old lesson said "a given empty neighbour can be reached this turn: also 1/2".
    for row in reach_table():
        if row.touching >= 2:
            assert row.chance > Fraction(1, 2), row
    by_shape = {row.example: row.chance for row in reach_table() if row.touching == 2}
    assert by_shape[(Direction.E, Direction.NE)] == Fraction(2, 3)  # side by side
    assert by_shape[(Direction.E, Direction.NW)] == Fraction(5, 6)  # one direction between
    assert by_shape[(Direction.E, Direction.W)] == 1  # opposite: every Wind roll


def test_the_table_covers_all_63_sets_of_touching_directions_once():
    assert sum(row.patterns for row in reach_table()) == 63
    assert {row.touching for row in reach_table()} == set(range(1, 7))


def test_in_a_seeded_game_many_frontier_spaces_are_reached_on_more_than_three_faces():
    starts = turn_starts(1)
    counts = reach_census(starts, lambda s: s.turn_player)
    total = sum(len(frontier(s, s.turn_player)) for s in starts)
    assert sum(counts.values()) == total
    several = sum(1 for s in starts for space in frontier(s, s.turn_player)
                  if len(touching_directions(s.board, s.spaces(s.turn_player), space)) >= 2)
    above_half = sum(n for chance, n in counts.items() if chance > Fraction(1, 2))
    assert above_half == several > 0
    assert counts == {Fraction(1, 2): 238, Fraction(2, 3): 41, Fraction(5, 6): 12, Fraction(1): 2}  # seed 1


def test_directions_are_counted_from_your_space_into_the_empty_one():
    state = turn_starts(1)[3]
    player = state.turn_player
    for space in frontier(state, player):
        dirs = touching_directions(state.board, state.spaces(player), space)
        for d in dirs:
            assert state.owner(state.board.neighbor(space, d.turned(3))) == player
        assert reach_chance(state, player, space) == wind_valid_probability(dirs)


def test_reach_chance_refuses_a_space_that_is_not_empty():
    state = turn_starts(1)[3]
    owned = next(iter(state.spaces(state.turn_player)))
    with pytest.raises(ValueError, match="Grow Out"):
        reach_chance(state, state.turn_player, owned)


def test_the_sun_die_lesson_no_longer_says_every_empty_neighbour_is_one_half():
    lesson = json.load(open("notebooks/aspens/sun-die-probability.ipynb"))
    text = "".join("".join(c["source"]) for c in lesson["cells"])
    assert "can be reached this turn: also" not in text
    assert "reach_table_html()" in text and "reach_census_html(" in text
