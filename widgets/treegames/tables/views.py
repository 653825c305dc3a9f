"""What crosses the wire: tickets, table views and summaries as JSON, and Mighty Trees' PlayerView as JSON.

A Mighty Trees ``PlayerView`` is written with card names (``player_view_to_json``) and read back with
the engine's card lookups (``player_view_from_json``), so a page holding only a seat's view draws the
same table the engine would show that seat. ``public_view(state)`` is the spectators' view: every
public card, no Command at all.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Ticket", "TableView", "TableSummary", "player_view_to_json", "player_view_from_json",
           "public_view"]


def _loads(data: dict | str) -> dict:
    """``data`` as a dict (it may be JSON text)."""
    return json.loads(data) if isinstance(data, str | bytes) else dict(data)


def _known(cls: type, data: dict) -> dict:
    """The entries of ``data`` that are fields of the dataclass ``cls`` (newer senders may add fields)."""
    names = {f.name for f in dataclasses.fields(cls)}
    return {k: v for k, v in data.items() if k in names}


@dataclass(frozen=True)
class Ticket:
    """A seat (or a spectator's place) at a table: the token is the only credential, shown only to its holder."""

    table_id: str
    code: str
    token: str
    seat: int | None

    def to_json(self) -> dict:
        """The ticket as a JSON-safe dict."""
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, data: dict | str) -> Ticket:
        """A ticket from ``to_json()``'s dict (or its JSON text)."""
        return cls(**_known(cls, _loads(data)))


@dataclass(frozen=True)
class TableView:
    """What one seat (or a spectator: seat None) may see of a table at one version."""

    table_id: str
    code: str
    game: str
    options: dict
    label: str
    version: int
    seat: int | None
    seats: list = field(default_factory=list)
    """One dict per seat: kind ("person" or a bot name), label, taken, connected, seen_ago (s or None)."""
    status: str = "waiting"
    """"waiting" | "playing" | "finished" | "closed"."""
    current_player: int = -1
    scores: list = field(default_factory=list)
    winners: list = field(default_factory=list)
    hint_allowed: bool = False
    """Whether the table's creator allowed the coach's Hint there (practice); only the authority sets it."""
    log: list = field(default_factory=list)
    """Dicts {version, seat, text}: each action's sentence as this viewer may read it (seat None: chance)."""
    saved: str | None = None
    """core ``to_json()`` of the whole state, only for games without hidden information."""
    player_view: dict | None = None
    """Mighty Trees: ``view_for(seat)`` as JSON (spectators: the public view); read with player_view_from_json."""
    legal: list = field(default_factory=list)
    """The viewer's legal actions in notation when it is their move, else []."""
    places: dict = field(default_factory=dict)
    """Mighty Trees: place -> the viewer's legal actions at it (``actions_at``), when it is their move."""
    explain: str = ""
    """The engine's explanation of this moment, for this viewer's eyes (an addition to the contract)."""
    updated_ago: float = 0.0
    """Seconds since the table last changed (an addition: the teacher overview's "waiting for")."""

    def to_json(self) -> dict:
        """The view as a JSON-safe dict."""
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, data: dict | str) -> TableView:
        """A view from ``to_json()``'s dict (or its JSON text)."""
        return cls(**_known(cls, _loads(data)))

    @property
    def is_my_move(self) -> bool:
        """Whether the viewer holds the seat to move now."""
        return self.status == "playing" and self.seat is not None and self.seat == self.current_player


@dataclass(frozen=True)
class TableSummary:
    """A table in the lobby: what anyone may know (never a token)."""

    table_id: str
    code: str
    game: str
    options: dict
    label: str
    status: str
    version: int
    seats: list
    free_seats: int
    created_ago: float
    hint_allowed: bool = False
    """Whether the table's creator allowed the coach's Hint there (practice)."""

    def to_json(self) -> dict:
        """The summary as a JSON-safe dict."""
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, data: dict | str) -> TableSummary:
        """A summary from ``to_json()``'s dict (or its JSON text)."""
        return cls(**_known(cls, _loads(data)))


# --------------------------------------------------------------------------
# Mighty Trees' PlayerView


def _name(card: Any) -> str | None:
    """A card's name, or None for an empty place."""
    return None if card is None else card.name


def public_view(state: Any) -> Any:
    """A Mighty Trees PlayerView of the public cards only (player ``PUBLIC``, no Command): for spectators."""
    from ..mighty_trees import PUBLIC

    return dataclasses.replace(state.view_for(0), player=PUBLIC, hand=())


def player_view_to_json(view: Any) -> dict:
    """A Mighty Trees ``PlayerView`` as a JSON-safe dict, cards by name."""
    return {
        "player": view.player,
        "phase": str(view.phase.value),
        "current_player": view.current_player,
        "mover": view.mover,
        "turn": view.turn,
        "habitat": _name(view.habitat),
        "temperature": view.temperature,
        "water": view.water,
        "sols": view.sols,
        "spent": view.spent,
        "hand": [c.name for c in view.hand],
        "hand_sizes": list(view.hand_sizes),
        "understory": [[_name(c) for c in side] for side in view.understory],
        "canopy": [[_name(c) for c in side] for side in view.canopy],
        "draw_size": view.draw_size,
        "litter": [c.name for c in view.litter],
        "weather": [[c.name, owner, rounds] for c, owner, rounds in view.weather],
        "trends": [c.name for c in view.trends],
        "captured": list(view.captured),
        "winners": list(view.winners),
        "last_event": view.last_event,
        "litter_top": _name(view.litter_top),
    }


def player_view_from_json(data: dict | str) -> Any:
    """The Mighty Trees ``PlayerView`` that ``player_view_to_json`` wrote (ValueError if a card is unknown)."""
    from ..mighty_trees import Phase, PlayerView, card_by_name
    from ..mighty_trees.data import habitat_by_name

    d = _loads(data)

    def card(name: str | None) -> Any:
        """The card called ``name`` (None stays None)."""
        if name is None:
            return None
        try:
            return card_by_name(name)
        except KeyError:
            raise ValueError(f"player view: no card named {name!r}") from None

    return PlayerView(
        player=int(d["player"]),
        phase=Phase(d["phase"]),
        current_player=int(d["current_player"]),
        mover=int(d["mover"]),
        turn=int(d["turn"]),
        habitat=habitat_by_name(d["habitat"]) if d["habitat"] is not None else None,
        temperature=int(d["temperature"]),
        water=int(d["water"]),
        sols=int(d["sols"]),
        spent=int(d["spent"]),
        hand=tuple(card(n) for n in d["hand"]),
        hand_sizes=tuple(int(n) for n in d["hand_sizes"]),
        understory=tuple(tuple(card(n) for n in side) for side in d["understory"]),
        canopy=tuple(tuple(card(n) for n in side) for side in d["canopy"]),
        draw_size=int(d["draw_size"]),
        litter=tuple(card(n) for n in d["litter"]),
        weather=tuple((card(n), int(owner), int(rounds)) for n, owner, rounds in d["weather"]),
        trends=tuple(card(n) for n in d["trends"]),
        captured=tuple(int(p) for p in d["captured"]),
        winners=tuple(int(p) for p in d["winners"]),
        last_event=str(d["last_event"]),
        litter_top=card(d.get("litter_top")),
    )
