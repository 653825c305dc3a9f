"""Bad input: each illegal action raises IllegalAction naming the rule, and the state is unchanged."""

from __future__ import annotations

import pytest

from treegames import core
from treegames.aspens import END_TURN, ChooseFirst, GrowOut, GrowUp, Hex, RollSun, RollWind, Seed, parse_cell
from treegames.aspens.data import Direction
from treegames.core import IllegalAction


def refused(state, action, rule: str) -> None:
    """Assert ``action`` is refused naming ``rule`` and ``state`` is left exactly as it was."""
    before_json, before_hash, twin = state.to_json(), hash(state), core.replay(state.game, state.history)
    before_fields = state._key()
    with pytest.raises(IllegalAction, match=rule) as err:
        state.apply(action)
    assert str(err.value)
    assert state._key() == before_fields and state.to_json() == before_json and hash(state) == before_hash
    assert state == twin


def test_placing_on_water(planting):
    refused(planting, GrowOut(parse_cell("H4")), "water")
    refused(planting, GrowUp(parse_cell("H12")), "water")


def test_placing_on_water_while_seeding(game):
    refused(game.new_initial_state().apply("first Aspen"), Seed(parse_cell("H4")), "water")


def test_placing_on_the_opponents_space(started):
    state = started.apply("sun 2").apply("wind W")
    refused(state, GrowOut(parse_cell("H3")), "owned by the other player")
    refused(state, GrowUp(parse_cell("H13")), "owned by the other player")


def test_placing_out_of_the_wind(planting):
    refused(planting, GrowOut(parse_cell("G5")), "out of the Wind")
    refused(planting, GrowOut(parse_cell("E8")), "not adjacent")


def test_empty_space_during_the_growing_stage(game):
    state = core.replay(game, ["first Aspen", "seed H5", "seed H3", "seed H11", "seed H13", "seed K7", "seed M5"])
    refused(state, GrowUp(parse_cell("H6")), "Grow Your Starting Forests")
    refused(state, GrowOut(parse_cell("H6")), "Grow Your Starting Forests")


def test_ending_a_turn_with_more_than_five_trees(started):
    state = core.replay(started.game, [str(a) for a in started.history] + [
        "sun 2", "wind E", "end-turn", "sun 2", "wind E", "end-turn", "sun 2", "wind E"])  # fmt: skip
    assert state.hand(0) == 8
    refused(state, END_TURN, "at most 5")


def test_a_die_outcome_at_a_players_node(planting, game):
    refused(planting, RollSun(3), "Roll for Sun and Wind")
    refused(planting, RollWind(Direction.E), "Roll for Sun and Wind")
    refused(planting, ChooseFirst(1), "choose|first player|Setup")
    refused(game.new_initial_state().apply("first Aspen"), RollSun(2), "Roll for Sun and Wind")


def test_a_players_action_at_a_chance_node(started, game):
    refused(started, GrowUp(parse_cell("H5")), "Sun die")
    refused(started, END_TURN, "Sun die")
    refused(game.new_initial_state(), Seed(parse_cell("H5")), "first player")


def test_wrong_die_faces(started):
    refused(started, RollSun(1), "2-7")
    refused(started.apply("sun 3"), RollSun(3), "Wind die")


def test_not_an_action_or_not_a_hex(planting):
    refused(planting, 42, "not an Aspens action")
    refused(planting, GrowUp(Hex(30, 30)), "not a hex of the board")
    refused(planting, GrowOut(Hex(9, 0)), "not a hex of the board")
    refused(planting, "grow-up Q1", "not a hex name")


def test_planting_with_an_empty_hand(planting):
    state = planting
    while state.hand(0):
        state = state.apply("grow-up H5")
    refused(state, GrowUp(parse_cell("H5")), "no trees in hand")
    refused(state, GrowOut(parse_cell("H6")), "no trees in hand")
    assert state.legal_actions() == [END_TURN]


def test_after_the_game_is_over():
    import random

    from treegames.aspens import new_game

    rng = random.Random(2)
    final = core.play(new_game(), [core.RandomBot(rng)] * 2, rng)
    refused(final, END_TURN, "game is over")
    refused(final, RollSun(3), "game is over")


def test_malformed_action_values(planting):
    refused(planting, GrowUp([1, 2]), "not a hex of the board")  # type: ignore[arg-type]
    refused(planting, GrowOut("H6"), "not a hex of the board")  # type: ignore[arg-type]
    refused(planting, GrowOut(parse_cell("H6"), [0, 0], Direction.E), "neighbour")  # type: ignore[arg-type]
    refused(planting, Seed(None), "Seed Your Starting Forests")  # type: ignore[arg-type]
    refused(planting, RollWind("E"), "Roll for Sun and Wind")  # type: ignore[arg-type]
    refused(planting, ChooseFirst(7), "first player|Setup")
