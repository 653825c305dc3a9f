"""Mighty Trees vocabulary and notation: phases, verbs, the Action value, parse_action.

``str(action)`` writes an action's notation and :func:`parse_action` reads it
back (see the package docstring for the forms); text that is not notation raises
:class:`NotationError`, an :class:`~treegames.core.IllegalAction`.
"""

from __future__ import annotations

import re
from enum import StrEnum
from typing import NamedTuple

from .. import core
from .data import DECK, HABITATS, SLOTS, card_by_name, habitat_by_name

__all__ = [
    "NotationError",
    "Phase",
    "Verb",
    "Action",
    "END",
    "PLACES",
    "CHANCE_VERBS",
    "USAGE",
    "parse_action",
    "player_name",
]


class NotationError(core.NotationError):
    """Text that is not Mighty Trees action notation (an IllegalAction, so a ValueError)."""


class Phase(StrEnum):
    """The rulebook step in force."""

    HABITAT = "habitat"  # Game Layout: a habitat card is drawn (chance)
    DEAL = "deal"  # Player Commands: each player draws 3 cards (chance)
    FIRST_PLAYER = "first player"  # Game Turn: select the 1st player (chance)
    BATTLE = "battle"  # Battle Phase: the mover spends Sols (Mobilization happens on entry)
    REGROUP = "regroup"  # Regroup Phase: the mover draws up to 3 cards (chance)
    GAME_OVER = "game over"


CHANCE_VERBS: dict = {}  # filled below: phase -> (the outcome's verb, the rulebook section)


class Verb(StrEnum):
    """The first word of every action's notation."""

    HABITAT = "habitat"
    DRAW = "draw"
    FIRST = "first"
    PLANT = "plant"
    GROW = "grow"
    DISCARD = "discard"
    CLOUD = "cloud"
    TREND = "trend"
    DISASTER = "disaster"
    END = "end"


PLACES = ("hand", "understory", "canopy")
CHANCE_VERBS.update(
    {
        Phase.HABITAT: (Verb.HABITAT, "Game Layout"),
        Phase.DEAL: (Verb.DRAW, "Player Commands"),
        Phase.REGROUP: (Verb.DRAW, "Regroup Phase"),
        Phase.FIRST_PLAYER: (Verb.FIRST, "Game Turn"),
    }
)


class Action(NamedTuple):
    """One action: a verb and its card id, target player, place and slot (0-based; -1 = none)."""

    verb: Verb
    card: int = -1  # draw-pile card id; for HABITAT the habitat id
    player: int = -1  # FIRST: the first player; PLANT: player attacked; DISASTER: chosen side
    place: str = ""  # DISCARD: hand/understory/canopy; PLANT with attack: understory/canopy
    slot: int = -1  # GROW, DISCARD from a slot, PLANT attack: the slot (0-based)

    def __str__(self) -> str:
        verb = self.verb
        if verb is Verb.END:
            return "end"
        if verb is Verb.HABITAT:
            return f"habitat {HABITATS[self.card].name}"
        if verb is Verb.FIRST:
            return f"first P{self.player + 1}"
        if verb is Verb.GROW:
            return f"grow {self.slot + 1}"
        if verb is Verb.DISCARD and self.place != "hand":
            return f"discard {self.place} {self.slot + 1}"
        text = f"{verb.value} {DECK[self.card].name}"
        if verb is Verb.PLANT and self.player >= 0:
            text += f" attack P{self.player + 1} {self.place} {self.slot + 1}"
        elif verb is Verb.DISASTER and self.player >= 0:
            text += f" at P{self.player + 1}"
        return text


END = Action(Verb.END)
DRAW_PHASES = frozenset((Phase.DEAL, Phase.REGROUP))
DRAW_ACTIONS = tuple(Action(Verb.DRAW, c.id) for c in DECK)
HABITAT_ACTIONS = tuple(Action(Verb.HABITAT, h.id) for h in HABITATS)
PLANT_ACTIONS = tuple(Action(Verb.PLANT, c.id) for c in DECK)
CLOUD_ACTIONS = tuple(Action(Verb.CLOUD, c.id) for c in DECK)
TREND_ACTIONS = tuple(Action(Verb.TREND, c.id) for c in DECK)
DISASTER_ACTIONS = tuple(Action(Verb.DISASTER, c.id) for c in DECK)
DISCARD_HAND_ACTIONS = tuple(Action(Verb.DISCARD, c.id, place="hand") for c in DECK)
GROW_ACTIONS = tuple(Action(Verb.GROW, slot=i) for i in range(SLOTS))
DISCARD_UNDER_ACTIONS = tuple(Action(Verb.DISCARD, place="understory", slot=i) for i in range(SLOTS))
DISCARD_CANOPY_ACTIONS = tuple(Action(Verb.DISCARD, place="canopy", slot=i) for i in range(SLOTS))


def player_name(index: int) -> str:
    """A player's name in notation: P1, P2, ..."""
    return f"P{index + 1}"


_PLANT = re.compile(r"plant (.+?)(?: attack p(\d+) (understory|canopy) (\d+))?", re.IGNORECASE)
_DISASTER = re.compile(r"disaster (.+?)(?: at p(\d+))?", re.IGNORECASE)
_SLOT = re.compile(r"(understory|canopy) (\d+)", re.IGNORECASE)
USAGE = (
    "actions read: 'plant <tree>' [attack P<n> understory <1-2>], 'grow <1-2>', 'discard <card>', "
    "'discard understory|canopy <1-2>', 'cloud <card>', 'trend <card>', 'disaster <card>' [at P<n>], "
    "'end', and chance outcomes 'habitat <name>', 'draw <card>', 'first P<n>'"
)


def _card(name: str, text: str) -> int:
    """The id of the draw-pile card called ``name``; NotationError if there is none."""
    try:
        return card_by_name(name).id
    except KeyError:
        raise NotationError(f"{core.quote(text)}: there is no card called {core.quote(name.strip(), 48)}") from None


def _number(digits: str, text: str, most: int = 99) -> int:
    """A 1-based number in notation (1 to ``most``, ASCII digits only) as a 0-based index."""
    if not (digits.isascii() and digits.isdigit()) or not 1 <= int(digits) <= most:
        raise NotationError(f"{core.quote(text)}: {core.quote(digits, 24)} is not a number from 1 to {most}")
    return int(digits) - 1


def parse_action(text: str) -> Action:
    """The action written ``text`` in notation; NotationError (a ValueError) naming what is wrong."""
    core.check_notation(text, NotationError)
    cleaned = " ".join(text.split())
    verb, _, rest = cleaned.partition(" ")
    verb = verb.lower()
    if verb == "end" and not rest:
        return END
    if not rest:
        raise NotationError(f"{core.quote(text)} is not an action; {USAGE}")
    if verb == "habitat":
        try:
            return HABITAT_ACTIONS[habitat_by_name(rest).id]
        except KeyError:
            raise NotationError(f"{core.quote(text)}: there is no habitat card called {core.quote(rest, 48)}") from None
    if verb == "draw":
        return DRAW_ACTIONS[_card(rest, text)]
    if verb == "first":
        if not rest.lower().startswith("p"):
            raise NotationError(f"{core.quote(text)}: write the player as P<n>, e.g. 'first P1'")
        return Action(Verb.FIRST, player=_number(rest[1:], text))
    if verb == "grow":
        return Action(Verb.GROW, slot=_number(rest, text, most=SLOTS))
    if verb == "plant":
        m = _PLANT.fullmatch(cleaned)
        card = _card(m.group(1), text)
        if m.group(2) is None:
            return Action(Verb.PLANT, card)
        return Action(
            Verb.PLANT, card, _number(m.group(2), text), m.group(3).lower(), _number(m.group(4), text, most=SLOTS)
        )
    if verb == "discard":
        m = _SLOT.fullmatch(rest)
        if m:
            return Action(Verb.DISCARD, place=m.group(1).lower(), slot=_number(m.group(2), text, most=SLOTS))
        return Action(Verb.DISCARD, _card(rest, text), place="hand")
    if verb in ("cloud", "trend"):
        return Action(Verb(verb), _card(rest, text))
    if verb == "disaster":
        m = _DISASTER.fullmatch(cleaned)
        card = _card(m.group(1), text)
        return Action(Verb.DISASTER, card, -1 if m.group(2) is None else _number(m.group(2), text))
    raise NotationError(f"{core.quote(text)}: unknown action {core.quote(verb, 24)}; {USAGE}")
