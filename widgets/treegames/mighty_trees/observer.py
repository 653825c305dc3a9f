"""What one seat of a shared Mighty Trees table may see, as the JSON the tables send (the plug-in's observer).

A seat's ``PlayerView`` is written with card names (:meth:`Observer.view_to_json`) and read back with the
engine's card lookups (:meth:`Observer.view_from_json`), so a page holding only a seat's view draws the
same table the engine would show that seat. Spectators get the public view: every public card, no Command
at all. A drawn card's sentence in the log is written for its receiver only (:meth:`Observer.private_words`).
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from ..core import CHANCE
from .actions import Phase
from .data import card_by_name, habitat_by_name
from .engine import PUBLIC, PlayerView

__all__ = ["Observer", "OBSERVER"]


def _name(card: Any) -> str | None:
    """A card's name, or None for an empty place."""
    return None if card is None else card.name


class Observer:
    """Mighty Trees' hidden hands for shared tables: each seat's view, its places and its words."""

    def view(self, state: Any, seat: int | None) -> Any:
        """What ``seat`` sees (None: a spectator, who sees the public cards only)."""
        if seat is not None:
            return state.view_for(seat)
        return dataclasses.replace(state.view_for(0), player=PUBLIC, hand=())

    def explain(self, state: Any, seat: int | None) -> str:
        """The engine's explanation of this moment for ``seat``'s eyes."""
        return state.explain(PUBLIC if seat is None else seat)

    def private_words(self, before: Any, action: Any) -> dict[int, str]:
        """Seat -> its own sentence for ``action`` where it differs from the public one (a card drawn to it)."""
        if before.current_player != CHANCE:  # only a draw is worded apart
            return {}
        hidden = before.describe(action, PUBLIC)
        return {p: mine for p in range(before.num_players) if (mine := before.describe(action, p)) != hidden}

    def places(self, state: Any, seat: int) -> dict[str, list[str]]:
        """Every place ``seat`` can see with the notation of its legal actions there."""
        candidates = [c.name for c in state.hand(seat)]
        for p in range(state.num_players):
            candidates += [c.name for c in state.understory(p) + state.canopy(p) if c is not None]
            candidates.append(f"P{p + 1}")
            candidates += [f"P{p + 1} {where} {i}" for where in ("understory", "canopy") for i in (1, 2)]
        out = {}
        for place in dict.fromkeys(candidates):
            actions = state.actions_at(place)
            if actions:
                out[place] = [str(a) for a in actions]
        return out

    def view_to_json(self, view: Any) -> dict:
        """A ``PlayerView`` as a JSON-safe dict, cards by name."""
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

    def view_from_json(self, data: dict | str) -> PlayerView:
        """The ``PlayerView`` that :meth:`view_to_json` wrote (ValueError if a card is unknown)."""
        d = json.loads(data) if isinstance(data, str | bytes) else dict(data)

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


OBSERVER = Observer()
"""The one observer the plug-in carries."""
