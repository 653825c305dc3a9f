"""A dashboard following a shared table: moves to the authority, its answers and other seats' moves back.

While a dashboard shows a shared table, its ``session`` is a :class:`SharedTable` (the other kind of
session is :class:`treegames.ui.session.LocalSession`); the kit's ``is_person`` / ``step`` / ``play`` /
``undo`` ask it, with no branch of their own. Only the authority changes the game: a click is sent as ``client.move(token, version,
notation)`` and the page shows what the authority answers (or its refusal, in its own words). A thread
long-polls ``client.wait`` and hands each new view to the kernel's event loop, where the timeline grows
by the new states (the state-changed signal redraws the board): no refresh button.

A game with hidden cards (Mighty Trees) has no ``saved`` game in its views: the page's kernel must never
hold another seat's Command. There the dashboard's ``state_from_view(view)`` turns each view into one
moment as this seat sees it, and the timeline grows by one such moment per version the page saw (Back
and Forward browse those; the table's log has every action's sentence).
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Callable

from .. import safety
from ..text import escape

WAIT_SECONDS = 20.0
"""How long one long-poll waits for a change before asking again."""

RETRY_SECONDS = 2.0
"""Pause after a failed long-poll (server restarting) before trying again."""

NO_UNDO = ("Undo is not offered at a shared table: a move counts once the table has it. "
           "Back and Forward still show any earlier moment.")


def history_of(saved: str) -> list[str]:
    """The actions in notation of a saved game (the authority's ``saved``)."""
    return list(json.loads(saved).get("history", []))


class SharedTable:
    """The dashboard's session while it shows one shared table (a seat, or a spectator's chair)."""

    shared = True
    bots_move_here = False  # the authority rolls the dice and moves the bots

    def __init__(self, dashboard, client, ticket, view=None, on_view: Callable[[object], None] | None = None,
                 on_leave: Callable[[], None] | None = None):
        self.dashboard = dashboard
        self.client = client
        self.ticket = ticket
        self.token = ticket.token
        self.on_view = on_view
        self.on_leave = on_leave
        self.view = None
        self.redraws = 0
        self._moments = False  # True once the timeline holds this table's seat moments (hidden cards)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._loop = _kernel_loop()
        self.show(view if view is not None else client.view(self.token))

    # ------------------------------------------------------------ what the kit defers to

    @property
    def seat(self) -> int | None:
        """The seat this page holds (None: watching)."""
        return self.view.seat

    def is_person(self, player: int) -> bool:
        """Only this page's own seat is played here; every other seat is played elsewhere or by a bot."""
        return self.seat is not None and player == self.seat and self.view.status == "playing"

    def step(self) -> bool:
        """Step only replays: the authority rolls the dice and moves the bots."""
        d = self.dashboard
        if d.timeline.can_forward():
            d.timeline.forward()
            return True
        d.say(self.waiting_words())
        return False

    def undo(self) -> None:
        """Undo is not offered at a shared table (say so)."""
        self.dashboard.say(NO_UNDO)

    def can_undo(self) -> bool:
        """Never: a move counts once the table has it."""
        return False

    def play(self, action) -> bool:
        """Send a move to the authority; show its answer, or its refusal in its words (nothing changes)."""
        d = self.dashboard
        if not d.timeline.is_at_latest():
            d.say("You are looking at an earlier moment: press Forward to the newest one to move.", error=True)
            return False
        try:
            view = self.client.move(self.token, self.view.version, str(action))
        except ValueError as err:  # TableError: one clear sentence from the authority
            self._catch_up()
            d.say(f"Not accepted: {escape(err)}", error=True)
            return False
        self.show(view)
        return True

    def leave(self) -> None:
        """Leave the table (a new game started from the New game tab): the seat stays held."""
        self.stop()
        if self.on_leave is not None:
            self.on_leave()
        elif self.dashboard.session is self:
            self.dashboard.use_session(None)

    def waiting_words(self) -> str:
        """What the page is waiting for, as HTML (for the page's notes)."""
        return escape(self.waiting_text())

    def waiting_text(self) -> str:
        """What the page is waiting for, in plain text (the move box escapes it itself)."""
        v = self.view
        if v.status == "waiting":
            return "Waiting for players to join: share the code."
        if v.status == "finished":
            return "The game at this table is over."
        if v.status == "closed":
            return "The teacher closed this table."
        if self.is_person(v.current_player):
            return "Your move."
        return f"Waiting for {self.seat_name(v.current_player)} to move."

    def seat_name(self, player: int) -> str:
        """A seat's name with its typed label or kind ('Pine (Sam)', 'Pine (bot)', 'Pine (you)')."""
        d = self.dashboard
        if not 0 <= player < len(self.view.seats):
            return d.player_name(player) if player >= 0 else "the dice"
        seat = self.view.seats[player]
        who = "you" if player == self.seat else (seat.get("label") or ("bot" if seat.get("kind") != "person"
                                                                       else "person"))
        return f"{d.player_name(player)} ({who})"

    # ------------------------------------------------------------ following the table

    def show(self, view) -> None:
        """Show a view of the table: grow the timeline by the new states (or rebuild it) and tell the panel."""
        old = self.view
        self.view = view
        if old is None or view.version != old.version or view.saved is not None:
            self._sync_timeline(view)
        self.redraws += 1
        if self.on_view is not None:
            self.on_view(view)

    def _sync_timeline(self, view) -> None:
        """Extend the timeline with the table's new actions, keeping the moment on screen if browsing back."""
        d = self.dashboard
        if view.saved is None:
            make = getattr(d, "state_from_view", None)
            if make is not None and view.player_view is not None:
                self._add_moment(make(view))
            return
        wanted = history_of(view.saved)
        t = d.timeline
        have = [str(a) for a in t.latest.history]
        at_latest = t.is_at_latest()
        if wanted[: len(have)] == have and len(t.states) == len(have) + 1:
            states = list(t.states)
            for text in wanted[len(have):]:
                s = states[-1]
                states.append(s.apply(s.parse_action(text)))
        else:
            states = [d.game.new_initial_state()]
            for text in wanted:
                states.append(states[-1].apply(states[-1].parse_action(text)))
        if len(states) == len(t.states) and states[-1] is t.latest:
            d.refresh()
            return
        if at_latest:
            t.replace(states)
        else:
            t.states = states
            d.refresh()

    def _add_moment(self, moment) -> None:
        """Hidden cards: the seat's moment becomes the newest state (the first one replaces the page's game)."""
        t = self.dashboard.timeline
        if not self._moments:
            self._moments = True
            t.replace([moment])
            return
        if moment.version <= getattr(t.latest, "version", -1):
            return
        if t.is_at_latest():
            t.push(moment)
        else:
            t.states.append(moment)
            self.dashboard.refresh()

    def _catch_up(self) -> None:
        """After a refusal: fetch the newest view (the table may have moved on)."""
        try:
            self.show(self.client.view(self.token))
        except ValueError:
            pass

    def follow(self) -> None:
        """Start the background long-poll that redraws the page when the table changes."""
        if self._thread is None or not self._thread.is_alive():
            self._stop.clear()
            self._thread = threading.Thread(target=self._poll, name="treegames-table", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        """Stop following the table (leaving it, or a new game)."""
        self._stop.set()

    def poll_once(self, timeout: float = WAIT_SECONDS) -> bool:
        """One long-poll round; True if the table changed (shown at once, or handed to the event loop)."""
        view = self.client.wait(self.token, self.view.version, timeout)
        if view.version == self.view.version:
            return False
        self._deliver(view)
        return True

    def _poll(self) -> None:
        """The long-poll loop (a daemon thread): wait, hand each change to the kernel, retry after failures."""
        while not self._stop.is_set():
            try:
                self.poll_once()
            except Exception:  # noqa: BLE001 - server away or restarting: try again shortly
                safety.log.debug("table long-poll failed", exc_info=True)
                time.sleep(RETRY_SECONDS)

    def _deliver(self, view) -> None:
        """Show a view on the kernel's event loop (widgets change there), or at once outside a kernel."""
        if self._stop.is_set():
            return
        if self._loop is not None and self._loop.is_running():
            self._loop.call_soon_threadsafe(self._show_guarded, view)
        else:
            self._show_guarded(view)

    def _show_guarded(self, view) -> None:
        """Show a view from the long-poll; a failure is logged and the page keeps its last picture."""
        if self._stop.is_set() or self.dashboard.session is not self:
            return
        if self.view is not None and view.version <= self.view.version:
            return
        try:
            self.show(view)
        except Exception:  # noqa: BLE001 - a background update has no caller to tell
            safety.log.exception("showing a table update failed")
            self.dashboard.report_failure(safety.FRIENDLY)


def _kernel_loop():
    """The kernel's event loop when called inside it (or while it runs), else None."""
    loop = safety.running_loop()
    if loop is not None:
        return loop
    try:
        loop = asyncio.get_event_loop_policy().get_event_loop()
    except RuntimeError:
        return None
    return loop if loop.is_running() else None


__all__ = ["NO_UNDO", "SharedTable", "history_of"]
