"""Aspens vocabulary and notation: phases, cascade timings, the action values and parse_action.

Actions are small frozen values whose ``str`` is the notation :func:`parse_action`
reads back (see the package docstring for the forms).  Text that is not notation
raises :class:`NotationError`, an :class:`~treegames.core.IllegalAction`.
"""

from __future__ import annotations

from collections.abc import Container
from dataclasses import dataclass, field
from enum import StrEnum

from .. import core
from .data import PLAYER_NAMES, Direction, Hex, cell_name, parse_cell
from .odds import SUN_FACES

__all__ = [
    "Phase",
    "CascadeTiming",
    "NotationError",
    "ChooseFirst",
    "Seed",
    "GrowUp",
    "GrowOut",
    "EndTurn",
    "RollSun",
    "RollWind",
    "END_TURN",
    "Action",
    "malformed",
    "parse_action",
]


class Phase(StrEnum):
    """The rulebook step in force; each is a decision point for a player or the dice."""

    CHOOSE_FIRST = "choose-first-player"  # Setup (d): a chance node
    SEED = "seed-starting-forests"  # How to Get Started, 1.
    GROW_START = "grow-starting-forests"  # How to Get Started, 2.
    ROLL_SUN = "roll-sun"  # Taking a Turn, 1. (chance)
    ROLL_WIND = "roll-wind"  # Taking a Turn, 1. (chance); 2. Gain Trees follows at once
    PLANT = "plant"  # Taking a Turn, 3. (4. Cascades resolve after each tree)
    GAME_OVER = "game-over"  # Finishing & Scoring


class CascadeTiming(StrEnum):
    """When "4. Check for and Resolve Cascades" runs (the ``cascade_timing`` option)."""

    EACH_TREE = "each-tree"  # default: immediately after every tree planted
    END_OF_TURN = "end-of-turn"  # once, when the player ends the turn


class NotationError(core.NotationError):
    """Text that is not Aspens action notation (or names no hex on this board); an IllegalAction."""


# --------------------------------------------------------------------------
# Actions: small frozen values whose str is the notation parse_action reads


def _cell_text(cell: object) -> str:
    """The hex's name, or its repr if it is not a hex (so a bad action can still be named)."""
    try:
        return cell_name(cell)  # type: ignore[arg-type]
    except (TypeError, ValueError, IndexError):
        return repr(cell)


@dataclass(frozen=True, slots=True)
class ChooseFirst:
    """Chance outcome of Setup (d): this player goes first."""

    player: int

    def __str__(self) -> str:
        name = PLAYER_NAMES[self.player] if self.player in (0, 1) else repr(self.player)
        return f"first {name}"


@dataclass(frozen=True, slots=True)
class Seed:
    """Place one starting tree next to a water tile (How to Get Started, 1.)."""

    cell: Hex

    def __str__(self) -> str:
        return f"seed {_cell_text(self.cell)}"


@dataclass(frozen=True, slots=True)
class GrowUp:
    """Add a tree to a space the player owns (3A Grow Up; also the growing stage)."""

    cell: Hex

    def __str__(self) -> str:
        return f"grow-up {_cell_text(self.cell)}"


@dataclass(frozen=True, slots=True)
class GrowOut:
    """Plant on an empty space in the Wind (3B Grow Out); equal when the target is equal."""

    cell: Hex
    source: Hex | None = field(default=None, compare=False)
    direction: Direction | None = field(default=None, compare=False)

    def __str__(self) -> str:
        if self.source is None or self.direction is None:
            return f"grow-out {_cell_text(self.cell)}"
        direction = getattr(self.direction, "name", self.direction)
        return f"grow-out {direction} from {_cell_text(self.source)} to {_cell_text(self.cell)}"


@dataclass(frozen=True, slots=True)
class EndTurn:
    """Stop planting and pass the dice, holding at most 5 trees."""

    def __str__(self) -> str:
        return "end-turn"


@dataclass(frozen=True, slots=True)
class RollSun:
    """Chance outcome: the Sun die shows ``value`` (2-7)."""

    value: int

    def __str__(self) -> str:
        return f"sun {self.value}"


@dataclass(frozen=True, slots=True)
class RollWind:
    """Chance outcome: the Wind die shows ``direction``."""

    direction: Direction

    def __str__(self) -> str:
        return f"wind {getattr(self.direction, 'name', self.direction)}"


END_TURN = EndTurn()


def _is_hex(value: object) -> bool:
    """True for a pair of whole numbers (a Hex or a plain tuple), the only thing a hex can be."""
    return isinstance(value, tuple) and len(value) == 2 and type(value[0]) is int and type(value[1]) is int


def malformed(action: object) -> str | None:
    """What is wrong with the shape of an action's fields (wrong types), or None if it is well formed.

    Values that merely compare equal (1.0 for 1, True for 1, a float hex) would be
    written into the history in a form the notation cannot read back, so they are refused.
    """
    kind = type(action)
    if kind is GrowUp or kind is GrowOut or kind is Seed:  # the common case first (every planting)
        if not _is_hex(action.cell):
            return "a hex is a pair of whole numbers (q, r)"
        if kind is GrowOut and (action.source is not None or action.direction is not None):
            if not _is_hex(action.source) or not isinstance(action.direction, Direction):
                return "a grow-out's source must be a hex and its direction a Direction"
        return None
    if kind is ChooseFirst:
        return None if type(action.player) is int else "the player must be 0 (Aspen) or 1 (Pine)"
    if kind is RollSun:
        return None if type(action.value) is int else "the Sun die shows a whole number 2-7"
    if kind is RollWind:
        return None if isinstance(action.direction, Direction) else "the Wind die shows a Direction"
    return None


Action = ChooseFirst | Seed | GrowUp | GrowOut | EndTurn | RollSun | RollWind


def parse_action(text: str, cells: Container[Hex]) -> Action:
    """The action written ``text`` (as ``str(action)`` writes it) on a board of ``cells``; NotationError if unreadable."""
    core.check_notation(text, NotationError)
    words = text.strip().split()
    if not words:
        raise NotationError("empty text is not an action; try 'grow-up H8', 'grow-out E6' or 'end-turn'")
    verb, rest = words[0].lower(), words[1:]
    if verb == "end-turn" and not rest:
        return END_TURN
    if verb == "first" and len(rest) == 1:
        return ChooseFirst(_parse_player(rest[0]))
    if verb == "sun" and len(rest) == 1:
        if rest[0].isascii() and rest[0].isdigit() and int(rest[0]) in SUN_FACES:
            return RollSun(int(rest[0]))
        raise NotationError(f"{core.quote(text)}: the Sun die shows 2, 3, 4, 5, 6 or 7")
    if verb == "wind" and len(rest) == 1:
        return RollWind(_parse_direction(rest[0], text))
    if verb == "seed" and len(rest) == 1:
        return Seed(_parse_cell(rest[0], text, cells))
    if verb == "grow-up" and len(rest) == 1:
        return GrowUp(_parse_cell(rest[0], text, cells))
    if verb == "grow-out" and len(rest) == 1:
        return GrowOut(_parse_cell(rest[0], text, cells))
    if verb == "grow-out" and len(rest) == 5 and rest[1].lower() == "from" and rest[3].lower() == "to":
        direction = _parse_direction(rest[0], text)
        source = _parse_cell(rest[2], text, cells)
        target = _parse_cell(rest[4], text, cells)
        if source + direction.delta != target:
            raise NotationError(f"{core.quote(text)}: {rest[4].upper()} is not the {direction.name} neighbour of "
                                f"{rest[2].upper()}")
        return GrowOut(target, source, direction)
    raise NotationError(
        f"cannot read {core.quote(text)}; actions are written 'first Aspen', 'seed D5', 'grow-up D5', 'grow-out E6' "
        f"(or 'grow-out NE from D5 to E6'), 'end-turn', 'sun 4' or 'wind NE'"
    )


def _parse_cell(word: str, text: str, cells: Container[Hex]) -> Hex:
    """A hex name of this board."""
    try:
        cell = parse_cell(word)
    except ValueError as err:
        raise NotationError(f"{core.quote(text)}: {err}") from None
    if cell not in cells:
        raise NotationError(f"{core.quote(text)}: {core.quote(word.upper(), 12)} is not a hex of the board")
    return cell


def _parse_direction(word: str, text: str) -> Direction:
    """A Wind direction name."""
    try:
        return Direction[word.upper()]
    except KeyError:
        raise NotationError(f"{core.quote(text)}: the Wind directions are E, NE, NW, W, SW and SE") from None


def _parse_player(word: str) -> int:
    """A player name (Aspen or Pine)."""
    for index, name in enumerate(PLAYER_NAMES):
        if word.lower() == name.lower():
            return index
    raise NotationError(f"{core.quote(word, 24)} is not a player; the players are Aspen and Pine")
