"""Bosk vocabulary and notation: phases, action kinds, the Action value, turn endings and parse_action.

Notation is ASCII only (see the package docstring for the forms); text that is not
notation raises :class:`NotationError`, an :class:`~treegames.core.IllegalAction`.
"""

from __future__ import annotations

import re
from enum import IntEnum, StrEnum
from typing import NamedTuple

from .. import core
from .data import DIRECTIONS, LEAF_TILES, SQUIRREL, Direction, Park, parse_coordinates, tile_name

__all__ = ["Phase", "Kind", "Action", "TurnEnd", "NotationError", "NOTATION_HELP", "parse_action", "SUMMER",
           "WINTER"]


class NotationError(core.NotationError):
    """Text that is not Bosk action notation (an IllegalAction, so a ValueError)."""


class Phase(StrEnum):
    """The rulebook step in force."""

    START_PLAYER = "start player"
    """Setup 4: a chance node picks the start player."""
    SPRING = "spring"
    """I. Spring: players grow trees one at a time."""
    SUMMER = "summer"
    """II. Summer: the start player scores the trails (one action)."""
    WIND = "initial wind"
    """III. Autumn, Initial Wind Direction: the new start player places the wind board."""
    FALLING_LEAVES = "falling leaves"
    """III. Autumn, Falling Leaves 1a-1c: select a tree and a leaf tile."""
    LEAF_PLACEMENT = "leaf placement"
    """III. Autumn, Leaf Placement: place the active leaves one at a time."""
    SQUIRREL = "squirrel"
    """III. Autumn, Squirrel: place the squirrel token."""
    WINTER = "winter"
    """IV. Winter: the final round's start player scores the regions (one action)."""
    GAME_OVER = "game over"
    """End of the Game."""


class Kind(StrEnum):
    """The kinds of action, named by their notation keyword."""

    START = "start player"
    TREE = "tree"
    SUMMER = "score summer"
    WIND = "wind from"
    CHOOSE = "autumn tree"
    LEAF = "leaf"
    SQUIRREL = "squirrel"
    WINTER = "score winter"


class Action(NamedTuple):
    """One Bosk action; ``str`` gives its notation.

    * ``START``: ``value`` = start player index.
    * ``TREE``: intersection (``row``, ``col``), ``value`` = tree value.
    * ``WIND``: ``value`` = side of the park the wind board is placed on (Direction index).
    * ``CHOOSE``: intersection of the tree (``row``, ``col``), ``value`` = leaf tile (0 = squirrel).
    * ``LEAF`` / ``SQUIRREL``: square (``row``, ``col``).
    """

    kind: Kind
    row: int = -1
    col: int = -1
    value: int = -1

    def __str__(self) -> str:
        kind = self.kind
        if kind is Kind.START:
            return f"start player {self.value + 1}"
        if kind is Kind.TREE:
            return f"tree {self.value} at {_inter_name(self.row, self.col)}"
        if kind is Kind.WIND:
            return f"wind from {DIRECTIONS[self.value].value}"
        if kind is Kind.CHOOSE:
            return f"autumn tree {_inter_name(self.row, self.col)} tile {tile_name(self.value)}"
        if kind is Kind.LEAF or kind is Kind.SQUIRREL:
            return f"{kind.value} {_square_name(self.row, self.col)}"
        return kind.value


def _inter_name(row: int, col: int) -> str:
    """Intersection notation that tolerates odd coordinates in malformed actions."""
    if 0 <= col < 26 and row >= 0:
        return f"{chr(97 + col)}{row + 1}"
    return f"<intersection {row},{col}>"


def _square_name(row: int, col: int) -> str:
    """Square notation that tolerates odd coordinates in malformed actions."""
    if 0 <= col < 26 and row >= 0:
        return f"{chr(65 + col)}{row + 1}"
    return f"<square {row},{col}>"


NOTATION = re.compile(
    r"^(?:start player (?P<start>[0-9]+)"
    r"|tree (?P<tree>[0-9]+) at (?P<tree_at>[a-z][0-9]+)"
    r"|(?P<summer>score summer)"
    r"|wind from (?P<wind>north|east|south|west)"
    r"|autumn tree (?P<choose_at>[a-z][0-9]+) tile (?P<tile>[0-9]+|squirrel)"
    r"|leaf (?P<leaf>[a-z][0-9]+)"
    r"|squirrel (?P<squirrel>[a-z][0-9]+)"
    r"|(?P<winter>score winter))$",
    re.ASCII,
)
"""Bosk notation (ASCII letters and digits only, like every game's)."""

NOTATION_HELP = (
    "Bosk notation is one of: 'start player 1', 'tree 3 at c4', 'score summer', 'wind from north', "
    "'autumn tree d5 tile 6', 'autumn tree d5 tile squirrel', 'leaf E6', 'squirrel F7', 'score winter'"
)


class TurnEnd(IntEnum):
    """Why the last action ended an autumn turn (``state.end_reason``), for the 'what just happened' text."""

    NONE = 0
    """The last action did not end a turn."""
    NO_LEAVES = 1
    """Leaf Placement 3: no active leaves remain."""
    EDGE = 2
    """Leaf Placement 3: the path reached the edge of the play area."""
    BLOCKED = 3
    """Our interpretation: no square ahead can take a leaf."""
    SQUIRREL_PLACED = 4
    """Squirrel 2: the squirrel is placed and the turn continues with removing the tree."""
    SQUIRREL_NOWHERE = 5
    """Our interpretation: no free square within the squirrel's reach."""


SUMMER = Action(Kind.SUMMER)
"""The one summer action: ``score summer``."""
WINTER = Action(Kind.WINTER)
"""The one winter action: ``score winter``."""


def parse_action(text: str, park: Park, num_players: int) -> Action:
    """The action written in Bosk notation (see NOTATION_HELP) on ``park``; NotationError if unreadable."""
    core.check_notation(text, NotationError)
    clean = " ".join(text.strip().lower().split())
    m = NOTATION.match(clean)
    if not m:
        raise NotationError(f"cannot read {core.quote(text)}. {NOTATION_HELP}")
    g = m.groupdict()
    if g["start"] is not None:
        player = int(g["start"]) - 1
        if not 0 <= player < num_players:
            raise NotationError(f"there is no player {g['start']} in a {num_players}-player game")
        return Action(Kind.START, value=player)
    if g["tree"] is not None:
        value = int(g["tree"])
        if value not in (1, 2, 3, 4):
            raise NotationError(f"Setup 1.3: trees have values 1 to 4, not {value}")
        return Action(Kind.TREE, *_parse_intersection(park, g["tree_at"]), value)
    if g["summer"]:
        return SUMMER
    if g["wind"]:
        return Action(Kind.WIND, value=Direction(g["wind"]).index)
    if g["choose_at"] is not None:
        tile = SQUIRREL if g["tile"] == "squirrel" else int(g["tile"])
        if tile not in LEAF_TILES:
            raise NotationError(f"Setup 1.1: leaf tiles are 2 through 8 and squirrel, not {g['tile']}")
        return Action(Kind.CHOOSE, *_parse_intersection(park, g["choose_at"]), tile)
    if g["leaf"] is not None or g["squirrel"] is not None:
        kind = Kind.LEAF if g["leaf"] is not None else Kind.SQUIRREL
        row, col = parse_coordinates(g["leaf"] or g["squirrel"])
        if not park.is_on_board_square(row, col):
            raise NotationError(f"{_square_name(row, col)} is not a terrain square of this park")
        return Action(kind, row, col)
    return WINTER


def _parse_intersection(park: Park, text: str) -> tuple[int, int]:
    """0-based (row, col) of an intersection name; NotationError if off this park."""
    row, col = parse_coordinates(text)
    if not park.is_on_board_intersection(row, col):
        raise NotationError(f"{_inter_name(row, col)} is not a trail intersection of this park")
    return row, col
