"""Action notation, parse_action, describe/last_event words, and saved games."""

from __future__ import annotations

import json
import pickle
import random

import pytest

from treegames import core
from treegames.aspens import (
    END_TURN,
    ChooseFirst,
    Direction,
    GrowOut,
    GrowUp,
    NotationError,
    RollSun,
    RollWind,
    Seed,
    new_game,
    parse_cell,
)
from treegames.core import IllegalAction, SavedGameError


def test_notation_examples(planting):
    h6 = parse_cell("H6")
    assert str(GrowUp(parse_cell("D5"))) == "grow-up D5"
    assert str(GrowOut(h6)) == "grow-out H6"
    assert str(GrowOut(h6, parse_cell("H5"), Direction.E)) == "grow-out E from H5 to H6"
    assert str(END_TURN) == "end-turn" and str(RollSun(4)) == "sun 4" and str(RollWind(Direction.NE)) == "wind NE"
    assert str(ChooseFirst(0)) == "first Aspen" and str(ChooseFirst(1)) == "first Pine"
    assert str(Seed(parse_cell("D5"))) == "seed D5"
    assert planting.parse_action("grow-out H6") == planting.parse_action("grow-out E from H5 to H6")
    assert planting.parse_action("  Grow-Up   h5 ") == GrowUp(parse_cell("H5"))


def test_grow_out_history_records_a_canonical_source(planting):
    state = planting.apply("grow-out H6")
    assert str(state.last_action) == "grow-out E from H5 to H6", "the rolled direction comes first"


def test_every_legal_action_round_trips_through_notation():
    game = new_game()
    rng = random.Random(5)
    for state in core.play(game, [core.RandomBot(rng)] * 2, rng, keep=True)[::7]:
        for action in state.legal_actions():
            assert state.parse_action(str(action)) == action


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "empty"),
        ("jump H5", "cannot read"),
        ("grow-up Z9", "not a hex name"),
        ("grow-up A1", "not a hex of the board"),
        ("grow-up H99", "column"),
        ("sun 8", "2, 3, 4, 5, 6 or 7"),
        ("wind N", "Wind directions"),
        ("first Oak", "not a player"),
        ("grow-out NE from H5 to H6", "not the NE neighbour"),
        ("grow-out NE from H5 into G6", "cannot read"),
    ],
)
def test_parse_action_clear_errors(planting, text, message):
    with pytest.raises(NotationError, match=message):
        planting.parse_action(text)
    assert issubclass(NotationError, IllegalAction)


def test_grow_out_long_form_source_must_be_valid(planting):
    with pytest.raises(IllegalAction, match="not Aspen's space"):
        planting.apply("grow-out SE from G6 to H6")
    with pytest.raises(IllegalAction, match="NW is not a valid Wind direction"):
        planting.apply("grow-out NW from H5 to G5")
    assert planting.apply("grow-out SE from H5 to I5").owner(parse_cell("I5")) == 0


def test_describe_and_last_event(planting):
    action = planting.parse_action("grow-out E from H5 to H6")
    assert planting.describe(action) == "Aspen grows out E from H5 to H6."
    assert planting.describe(GrowUp(parse_cell("H5"))) == "Aspen grows up on H5, making 4 trees there."
    after = planting.apply(action)
    assert after.last_event == "Aspen grows out E from H5 to H6."
    assert "Sun 2: Aspen has 2 spaces with 2 or more trees: +2, and +1 bonus" in planting.last_event


def test_to_json_round_trips_to_an_equal_state(planting):
    text = planting.to_json()
    data = json.loads(text)
    assert data["game"] == "aspens" and data["history"][0] == "first Aspen"
    again = planting.game.state_from_json(text)
    assert again == planting and hash(again) == hash(planting)
    assert pickle.loads(pickle.dumps(planting)) == planting


def test_state_from_json_refuses_tampered_text(planting):
    game = planting.game
    data = json.loads(planting.to_json())
    bad_texts = [
        "{not json",
        planting.to_json()[:-5],
        json.dumps([1, 2]),
        json.dumps({**data, "format": "other"}),
        json.dumps({**data, "game": "bosk"}),
        json.dumps({**data, "options": {**data["options"], "setup": 3}}),
        json.dumps({**data, "history": "first Aspen"}),
        json.dumps({**data, "history": data["history"] + ["grow-up H3"]}),  # Pine's space
        json.dumps({**data, "history": data["history"][:3] + ["seed H8"]}),  # not next to water
        json.dumps({**data, "history": ["sun 4"]}),  # dice before the first player
        json.dumps({k: v for k, v in data.items() if k != "history"}),
    ]
    for text in bad_texts:
        with pytest.raises(SavedGameError):
            game.state_from_json(text)
    with pytest.raises(SavedGameError):
        game.state_from_json(None)  # type: ignore[arg-type]


def test_states_are_immutable(planting):
    with pytest.raises(AttributeError):
        planting.sun = 7  # type: ignore[misc]
