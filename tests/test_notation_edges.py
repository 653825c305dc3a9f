"""Notation edge cases shared by the games: only ASCII digits, and numbers within the rule's range."""

from __future__ import annotations

import pytest

from treegames import aspens, bosk, mighty_trees
from treegames.aspens import parse_cell


@pytest.mark.parametrize("text", ["H٣", "H８", "H³"])
def test_aspens_hex_names_take_ascii_digits_only(text):
    with pytest.raises(ValueError):
        parse_cell(text)


def test_aspens_sun_roll_takes_ascii_digits_only():
    state = aspens.new_game().new_initial_state()
    with pytest.raises(ValueError):
        state.parse_action("sun ٣")
    assert str(state.parse_action("sun 3")) == "sun 3"


def test_bosk_square_names_take_ascii_digits_only():
    state = bosk.new_game().new_initial_state()
    with pytest.raises(ValueError):
        state.parse_action("leaf E٦")


@pytest.mark.parametrize("text", ["grow 3", "grow 9", "grow 0", "grow ٢", "discard canopy 3"])
def test_mighty_trees_slot_numbers_stay_within_two_slots(text):
    with pytest.raises(ValueError):
        mighty_trees.parse_action(text)
    assert str(mighty_trees.parse_action("grow 2")) == "grow 2"
