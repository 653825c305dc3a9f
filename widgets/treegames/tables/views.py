"""What crosses the wire: tickets, table views and summaries as JSON.

In a game with hidden information a view carries the seat's own ``player_view``, written and read by the
game plug-in's observer (:class:`treegames.plugins.Observer`): a page holding only a seat's view draws
the same table the engine would show that seat, and a spectator gets the public view.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field

__all__ = ["Ticket", "TableView", "TableSummary"]


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
    """Hidden information: the seat's view as its game's observer writes it (spectators: the public view)."""
    legal: list = field(default_factory=list)
    """The viewer's legal actions in notation when it is their move, else []."""
    places: dict = field(default_factory=dict)
    """Hidden information: place -> the viewer's legal actions at it (``actions_at``), when it is their move."""
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
