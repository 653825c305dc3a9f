"""One seat's moment at a shared Mighty Trees table: what the Play page draws from instead of a whole game.

At a shared table the page's kernel never holds the game: the authority sends each seat its own
``view_for(seat)`` (a spectator: the public view) inside a :class:`~treegames.tables.views.TableView`.
:class:`SeatState` wraps one such view with the few state methods the Play page reads (whose turn,
scores, the table's cards, the seat's legal actions), so the page's drawing, clicks, Actions list and
Odds tab work unchanged while another seat's Command is only ever a count.

The engine's words for the seat's own moves (``describe``, ``why_not``, the click planner's legal
actions) come from :func:`knowledge_state`: an engine state built from the seat's view alone, with
every other Command empty and the draw pile left empty (the Battle Phase words read neither). The
authority's own list of legal actions (``TableView.legal``) is what is offered; the knowledge state
only words them.
"""

from __future__ import annotations

from ... import core
from ... import mighty_trees as mt
from ...mighty_trees.observer import OBSERVER
from ...search import unseen_cards

__all__ = ["SeatState", "knowledge_state", "coach_state", "HIDDEN_CARD"]

SLOTS = 2
"""Understory (and canopy) slots per side."""

HIDDEN_CARD = None
"""What ``SeatState.hand(p)`` holds for each card of another seat's Command: a place, never a card."""


def _ids(cards) -> tuple[int, ...]:
    """Card ids, -1 for an empty slot."""
    return tuple(-1 if c is None else c.id for c in cards)


def knowledge_state(game, view) -> mt.MightyTreesState:
    """An engine state holding exactly what ``view`` shows: its own Command, the public cards, nothing else.

    Only for asking the engine about the viewer's own Battle Phase moves (legal, describe, why_not):
    every other Command is empty and the draw pile is empty, since the seat knows neither.
    """
    return mt.MightyTreesState.from_view(game, view)


def coach_state(game, view) -> mt.MightyTreesState:
    """A full engine state that shows exactly ``view`` to its player, the unseen cards dealt as stand-ins.

    The cards ``view`` does not show go, lowest id first, to the other Commands (at the sizes the view
    gives) and then the draw pile: only so that the sizes add up. The coach's world sampler deals them
    again at random for every playout. ValueError if the view's sizes do not fit the unseen cards.
    """
    unseen = unseen_cards(game, view)
    others = sum(size for p, size in enumerate(view.hand_sizes) if p != view.player)
    if others + view.draw_size != len(unseen):
        raise ValueError(f"the view shows {len(unseen)} unseen cards, but the other Commands and the draw pile "
                         f"hold {others + view.draw_size}")
    hands, at = [], 0
    for p, size in enumerate(view.hand_sizes):
        if p == view.player:
            hands.append(sum(1 << c.id for c in view.hand))
            continue
        hands.append(sum(1 << card for card in unseen[at:at + size]))
        at += size
    return mt.MightyTreesState.from_view(game, view, hands=hands, draw=unseen[at:])


class SeatState:
    """A shared table at one version as one seat (or a spectator) sees it; read-only, never applied."""

    def __init__(self, game, table_view):
        if table_view.player_view is None:
            raise ValueError("this table view carries no Mighty Trees player view")
        self.game = game
        self.table = table_view
        self.view = OBSERVER.view_from_json(table_view.player_view)
        self.seat = table_view.seat
        self.version = table_view.version
        self._legal = tuple(mt.parse_action(t) for t in table_view.legal)
        self._knowledge: mt.MightyTreesState | None = None

    # ------------------------------------------------------------ the protocol the page reads

    @property
    def num_players(self) -> int:
        """Seats at the table."""
        return self.game.num_players

    @property
    def phase(self) -> mt.Phase:
        """The rulebook step in force."""
        return self.view.phase

    @property
    def mover(self) -> int:
        """Whose turn it is (-1 before the first player is chosen)."""
        return self.view.mover

    @property
    def current_player(self) -> int:
        """The player to act, or CHANCE, or TERMINAL (as the authority's state says)."""
        return self.table.current_player

    @property
    def turn(self) -> int:
        """Turns started so far."""
        return self.view.turn

    @property
    def sols(self) -> int:
        """Sols the mover has left."""
        return self.view.sols

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self.view.phase is mt.Phase.GAME_OVER

    def winners(self) -> tuple[int, ...]:
        """The winners."""
        return tuple(self.view.winners)

    def scores(self) -> tuple[int, ...]:
        """Habitats captured by each player."""
        return tuple(self.view.captured)

    @property
    def last_event(self) -> str:
        """The last action's sentence, for this seat's eyes."""
        return self.view.last_event

    @property
    def last_strike(self):
        """What the last disaster did is not sent with a seat's view (the table's log says it)."""
        return None

    @property
    def habitat_card(self):
        """The habitat card in play, or None."""
        return self.view.habitat

    def conditions(self) -> tuple[int, int]:
        """The habitat's current (temperature, water)."""
        return (self.view.temperature, self.view.water)

    @property
    def draw_size(self) -> int:
        """Cards in the draw pile."""
        return self.view.draw_size

    @property
    def litter_cards(self) -> tuple:
        """The litter pile, face up."""
        return tuple(self.view.litter)

    @property
    def litter_top(self):
        """The litter's top card, or None."""
        return self.view.litter_top

    @property
    def weather(self) -> tuple:
        """Clouds and lingering disasters in play: (card, owner, rounds left)."""
        return tuple(self.view.weather)

    @property
    def trend_cards(self) -> tuple:
        """Trend cards in play."""
        return tuple(self.view.trends)

    def understory(self, player: int) -> tuple:
        """A side's understory slots."""
        return tuple(self.view.understory[player])

    def canopy(self, player: int) -> tuple:
        """A side's canopy slots."""
        return tuple(self.view.canopy[player])

    def tree_count(self, player: int) -> int:
        """Trees on a side."""
        return self.view.trees(player)

    def hand(self, player: int) -> tuple:
        """The seat's own Command; another seat's only as that many HIDDEN_CARD places (a count, no card)."""
        if player == self.view.player:
            return tuple(self.view.hand)
        return (HIDDEN_CARD,) * int(self.view.hand_sizes[player])

    def view_for(self, player: int):
        """The one view this page has (the seat's own, or the public one): another seat's is never here."""
        return self.view

    def coach_state(self) -> mt.MightyTreesState:
        """What the coach's Hint searches from: :func:`coach_state` of this seat's view (ValueError for a spectator)."""
        if self.seat is None:
            raise ValueError("a spectator has no move for the coach to think about")
        return coach_state(self.game, self.view)

    @property
    def history(self) -> tuple:
        """The actions are at the authority, not here."""
        return ()

    @property
    def last_action(self):
        """Not known here (the table's log has the sentences)."""
        return None

    def parse_action(self, text: str) -> mt.Action:
        """Notation read by the engine's parser (NotationError if unreadable)."""
        return mt.parse_action(text)

    def legal_actions(self) -> list:
        """The seat's legal actions as the authority listed them ([] when it is not this seat's move)."""
        return list(self._legal)

    def actions_at(self, place: str) -> list:
        """The authority's legal actions at a place (a card name, 'P2', 'P2 understory 1')."""
        return [mt.parse_action(t) for t in self.table.places.get(place, [])]

    def _words(self) -> mt.MightyTreesState | None:
        """The knowledge state, for the seat's own move only."""
        if self.seat is None or self.view.phase is not mt.Phase.BATTLE or self.view.mover != self.seat:
            return None
        if self._knowledge is None:
            self._knowledge = knowledge_state(self.game, self.view)
        return self._knowledge

    def describe(self, action, viewer: int | None = None) -> str:
        """The engine's words for one of the seat's own moves (other moments: the notation only)."""
        words = self._words()
        if isinstance(action, str):
            action = mt.parse_action(action)
        return words.describe(action, self.seat) if words is not None else str(action)

    def why_not(self, action) -> str | None:
        """The engine's reason a move of the seat's is not allowed (None: allowed and on the authority's list)."""
        words = self._words()
        if words is None:
            return "It is not your move at this table."
        reason = words.why_not(action)
        if reason is None and action not in self._legal:
            return "The table does not list that move for you now."
        return reason

    def explain(self, viewer: int | None = None) -> str:
        """The authority's explanation of this moment, written for this seat's eyes."""
        return self.table.explain

    def to_json(self) -> str:
        """A shared table's game is kept by the authority; this page cannot save it."""
        raise core.SavedGameError("a shared table's game is kept at the table, not saved from a seat")

    def apply(self, action):
        """Only the authority applies moves at a shared table."""
        raise core.IllegalAction("moves at a shared table are sent to the table, not applied here")

    def __repr__(self) -> str:
        who = "spectator" if self.seat is None else f"seat {self.seat}"
        return f"<SeatState {who} version {self.version} {self.view.phase.value}>"
