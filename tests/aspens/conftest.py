"""Shared scenario states for the Aspens tests, all reached through the public API.

Every scenario is a script of actions in notation replayed from the start with
``core.replay``: the dice outcomes are written into the script, so each state is
one the rules can really reach.  Setup 2 has water at H4 (West), H12 (East) and
L6 (South).
"""

from __future__ import annotations

import pytest

from treegames import core
from treegames.aspens import new_game

START = (
    "first Aspen",
    "seed H5", "seed H3",  # beside the West water H4
    "seed H11", "seed H13",  # beside the East water H12
    "seed K7", "seed M5",  # beside the South water L6
    "grow-up H5", "grow-up H5", "grow-up H11", "grow-up H11",  # Aspen: 3, 3, 1
    "grow-up H3", "grow-up H3", "grow-up H13", "grow-up H13",  # Pine: 3, 3, 1
)  # fmt: skip
"""Both starting forests grown: Aspen H5=3, H11=3, K7=1; Pine H3=3, H13=3, M5=1."""

GAIN_EXAMPLE = START + (
    "sun 2", "wind E", "grow-up K7", "grow-up K7", "grow-out E from H5 to H6", "end-turn",
    "sun 2", "wind W", "grow-up M5", "grow-up M5", "grow-out W from M5 to M4", "grow-up M4", "grow-up M4",
    "end-turn",
    "sun 3",
)  # fmt: skip
"""Aspen's turn, Sun 3 rolled: Aspen has 3 spaces with 3+ trees, Pine 4 (rulebook "2. Gain Trees" example)."""

EXAMPLE_TURNS = START + (
    "sun 2", "wind E", "grow-up H5", "grow-up H11", "grow-up K7", "end-turn",
    "sun 2", "wind W", "grow-up M5", "grow-up M5", "end-turn",
    "sun 7", "wind SE", "grow-up K7", "grow-up K7", "grow-up H5", "grow-up H5", "end-turn",
    "sun 7", "wind W", "grow-out W from M5 to M4", "grow-up M4", "grow-out W from H3 to H2", "grow-up H2", "end-turn",
)  # fmt: skip
"""Aspen to roll with 3 spaces of 4+ trees (H5=6, H11=4, K7=4); Pine has 5 spaces of 2-3 trees."""


@pytest.fixture
def game():
    """The standard game (setup 2, default options)."""
    return new_game()


@pytest.fixture
def started(game):
    """Both starting forests grown; Aspen is about to roll."""
    return core.replay(game, START)


@pytest.fixture
def gain_example(game):
    """The "2. Gain Trees" example: Aspen rolled Sun 3, the Wind is next."""
    return core.replay(game, GAIN_EXAMPLE)


@pytest.fixture
def example_turns(game):
    """Just before the rulebook's Example Turns: Aspen is to roll."""
    return core.replay(game, EXAMPLE_TURNS)


@pytest.fixture
def planting(started):
    """Aspen planting after Sun 2, Wind E (valid NE, E, SE), holding 3 trees."""
    return started.apply("sun 2").apply("wind E")
