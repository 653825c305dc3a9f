"""The "Play with others" tab of every Play page: create a table, join by code, open tables, watch, the seat's table.

Everything a player typed (labels) reaches other pages only as escaped text. The seat token is kept in
this visitor's own address bar (:mod:`.link`) and never drawn on any page.

The create form's "Allow Hint at this table (practice)" box (unticked by default) is sent with the new
table; from then on every page learns whether Hint is allowed only from the authority's views (the
table box says it, and the Hint panel reads ``TableView.hint_allowed``), so a joiner cannot switch it on.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable

import ipywidgets as widgets

from ...tables.limits import LIMITS
from .. import safety
from ..forms import PERSON, NewGameForm
from ..styles import icon_button
from ..text import escape, message_box, panel
from . import link
from .shared import NO_UNDO, SharedTable

ALONE = ("<b>Playing with others needs the class server.</b> Here (on Binder, or in JupyterLab without a "
         "class server) each session is alone: play against the bots, or take turns at one screen.")

HIDDEN = ("<b>Shared tables for this game are not on this page yet.</b> A shared table must never send one "
          "player's hidden cards to another player's page, and this page still draws from the whole game. Play "
          "against the bots, or take turns at one screen (with the screen turned away while the other plays).")
"""For a game with hidden cards whose page cannot draw from one seat's view (no ``state_from_view``)."""

SECRET = ("Your cards stay on your screen only: each page at this table is sent its own Command and the cards "
          "on the table, and only a count of everyone else's.")
"""Said at a table of a game with hidden cards."""

HINT_BOX = "Allow Hint at this table (practice)"
"""The create form's box: the coach's Hint for whoever is to move (for practice, not a match)."""

HINT_WORDS = {True: "Hint: allowed (practice)", False: "Hint: off at this table"}
"""What the table box says about Hint, from the authority's view."""

HINT_ON = "Hint is allowed at this table (practice): press Hint, or H on the board, on your move."
"""Said to a player sitting at a table whose creator allowed Hint."""

WATCHING = ("Watching: no Command is sent to this page, only the cards on the table and how many cards each "
            "player holds.")
"""Said to a spectator at a table of a game with hidden cards."""

VISITOR = "kernel-" + secrets.token_hex(6)
"""How this kernel names its visitor to the authority (one per kernel: a reload is a new visitor; the server-wide
limits still hold) when the server adds no identity of its own."""


def seat_kind(value: str) -> str:
    """The New game form's seat value as the authority's seat kind ('person' or a bot name)."""
    return "person" if value == PERSON else value


def kit_seat(kind: str) -> str:
    """The authority's seat kind as the kit's seat value."""
    return PERSON if kind == "person" else kind


class TablePanel(widgets.VBox):
    """Create / join / watch a shared table for one dashboard, and show the table it sits at."""

    def __init__(self, dashboard, client=None, read_url: bool = True):
        self.dashboard = dashboard
        self.client = link.table_client() if client is None else client
        self.table: SharedTable | None = None
        self._loop = safety.running_loop()
        self.note = widgets.HTML(layout=widgets.Layout(width="100%"))
        self.note.add_class("treegames-tables-note")
        game_type = dashboard.game_type
        self.hidden = game_type.has_hidden_information
        if self.client is None or (self.hidden and not hasattr(dashboard, "state_from_view")):
            super().__init__([widgets.HTML(panel(ALONE if self.client is None else HIDDEN))])
            self.add_class("treegames-tables-panel")
            return
        report = self._fail
        self.label_box = widgets.Text(description="Your name here", placeholder="a first name or a pseudonym",
                                      style={"description_width": "initial"},
                                      layout=widgets.Layout(width="auto", max_width="100%"))
        names = [dashboard.player_name(p) for p in range(max(game_type.players))]
        seats = (PERSON, PERSON, *([next(iter(game_type.bots))] * (len(names) - 2)))
        quick = [b for b in game_type.bots if b in LIMITS.table_bots]  # the bots a shared table seats
        self.form = NewGameForm(game_type, names, dashboard.form.values(), seats[: len(names)],
                                dashboard.form.seed_box.value, self.create, report=report, bots=quick)
        self.form.start_button.description = "Create table"
        self.form.start_button.tooltip = "Start a shared table with these seats"
        self.hint_box = widgets.Checkbox(value=False, description=HINT_BOX, indent=False,
                                         tooltip="Let the player to move ask the coach for its best moves "
                                                 "(leave it off for a real match)",
                                         layout=widgets.Layout(width="auto", max_width="100%"))
        self.hint_box.add_class("treegames-hint-allowed")
        rows = list(self.form.children)  # the box goes just before Create table, in the keyboard's order too
        self.form.children = (*rows[:-1], self.hint_box, rows[-1])
        self.code_box = widgets.Text(description="Code", placeholder="e.g. K7Q-F2M", style={"description_width": "initial"},
                                     layout=widgets.Layout(width="190px"))
        self.join_button = icon_button("Join", "play", tooltip="Take the next free seat at that table",
                                       button_style="primary")
        self.watch_button = icon_button("Watch", "forward", tooltip="Follow that table without a seat")
        self.list_button = icon_button("Open tables", "down", tooltip="Tables on this server waiting for players")
        self.open_list = widgets.Select(options=[], rows=4, layout=widgets.Layout(width="100%"))
        self.open_list.add_class("treegames-label-sr-only")  # named for assistive technology, not on screen
        self.open_list.description = "Open tables"
        self.leave_button = icon_button("Leave table", "back", tooltip="Stop following this table",
                                        layout=widgets.Layout(width="auto"))
        self.bot_button = icon_button("Put a bot in a gone seat", "step",
                                      tooltip="The table's creator may let a bot play for a player who left",
                                      layout=widgets.Layout(width="auto", max_width="100%"))
        self.status = widgets.HTML(layout=widgets.Layout(width="100%"))
        self.status.add_class("treegames-table-status")
        self.table_log = widgets.HTML(layout=widgets.Layout(width="100%"))
        self.table_log.add_class("treegames-table-log")
        self.script = widgets.Output(layout=widgets.Layout(height="0px", overflow="hidden"))
        for button, fn in ((self.join_button, self.join_from_box), (self.watch_button, self.watch_from_box),
                           (self.list_button, self.list_open), (self.leave_button, self.leave),
                           (self.bot_button, self.replace_gone)):
            safety.on_click(button, fn, report=report)
        safety.observe(self.open_list, self._picked_open, report=report)
        self.lobby = widgets.VBox([
            widgets.HTML("<b>Create a table</b> (choose who plays each seat; people join with the code):"),
            self.label_box, self.form,
            widgets.HTML("<b>Join or watch</b> a table by its code:"),
            _wrap([self.code_box, self.join_button, self.watch_button]),
            _wrap([self.list_button]), self.open_list])
        self.at_table = widgets.VBox([self.status, _wrap([self.leave_button, self.bot_button]),
                                      widgets.HTML("<b>At this table</b> (who did what):"), self.table_log],
                                     layout=widgets.Layout(display="none"))
        super().__init__([self.note, self.at_table, self.lobby, self.script])
        self.add_class("treegames-tables-panel")
        if read_url and self._loop is not None and self._loop.is_running():
            self._loop.call_soon(link.read_query, self._from_url_thread)  # once the page is built

    # ------------------------------------------------------------ actions

    def create(self) -> bool:
        """Create a table with the form's seats and options, and sit at its first person seat."""
        kinds = [seat_kind(v) for v in self.form.seats()]
        return self._sit(lambda: self.client.create_table(
            self.dashboard.game_type.name, self.form.values(), kinds, visitor=VISITOR, label=self.label_box.value,
            hint_allowed=bool(self.hint_box.value), seed=self.form.seed_box.value), "Table created")

    def join(self, code: str) -> bool:
        """Take the next free seat at the table with this code."""
        return self._sit(lambda: self.client.join(code.strip().upper(), visitor=VISITOR, label=self.label_box.value),
                         "Joined the table")

    def watch(self, code: str) -> bool:
        """Follow the table with this code as a spectator."""
        return self._sit(lambda: self.client.watch(code.strip().upper(), visitor=VISITOR), "Watching the table")

    def resume(self, token: str, code: str = "") -> bool:
        """Sit again at a seat held by ``token`` (a reload or a new kernel)."""
        return self._sit(lambda: self.client.resume(token), "Back at your seat")

    def join_from_box(self) -> bool:
        """Join pressed."""
        return self.join(self.code_box.value) if self.code_box.value.strip() else self._say("Type a table's code first.")

    def watch_from_box(self) -> bool:
        """Watch pressed."""
        return self.watch(self.code_box.value) if self.code_box.value.strip() else self._say("Type a table's code first.")

    def list_open(self) -> None:
        """Show the tables waiting for players (this game's), each with its free seats."""
        try:
            found = self.client.open_tables(self.dashboard.game_type.name)
        except ValueError as err:
            self._say(f"Could not list the tables: {escape(err)}", error=True)
            return
        entries = []
        for t in found:
            t = _plain(t)
            free = sum(1 for s in t.get("seats", []) if s.get("kind") == "person" and not s.get("taken"))
            label = t.get("label") or "no name"
            hint = " · Hint allowed" if t.get("hint_allowed") is True else ""
            entries.append((f"{t.get('code')} · {label} · {free} free seat{'s' if free != 1 else ''}{hint}",
                            t.get("code")))
        self.open_list.options = entries
        self._say(f"{len(entries)} table{'s' if len(entries) != 1 else ''} waiting for players"
                  + (": pick one to put its code in the box." if entries else "."))

    def _picked_open(self, code) -> None:
        """A table picked in the list: its code goes in the box."""
        if code:
            self.code_box.value = code

    def leave(self) -> None:
        """Stop following the table (the seat stays held; the URL forgets it)."""
        if self.table is not None:
            self.table.stop()
        self.table = None
        self.dashboard.use_session(None)
        self._run_script(link.forget_script())
        self.at_table.layout.display = "none"
        self.lobby.layout.display = None
        d = self.dashboard
        if self.hidden:  # the page held only this seat's moments: back to a game of its own
            d.new_game(seed=d.form.seed_box.value, seats=d.form.seats(), **d.form.values())
        d.refresh()
        self._say("You left the table. Your seat is kept: join with the code again to come back.")

    def replace_gone(self) -> None:
        """Ask the authority to let a bot play the first person seat nobody holds a connection to."""
        if self.table is None:
            return
        v = self.table.view
        gone = [i for i, s in enumerate(v.seats) if s.get("kind") == "person" and i != v.seat and not s.get("connected")]
        if not gone:
            self._say("Every person at this table is still connected.")
            return
        bot = next(iter(self.dashboard.game_type.bots))
        try:
            self.client.replace_with_bot(self.table.token, v.table_id, gone[0], bot, visitor=VISITOR)
        except ValueError as err:
            self._say(f"Not accepted: {escape(err)}", error=True)
            return
        self._say(f"A bot ({escape(bot)}) now plays {escape(self.dashboard.player_name(gone[0]))}.")

    # ------------------------------------------------------------ sitting at a table

    def _sit(self, ask: Callable[[], object], done: str) -> bool:
        """Run one request for a ticket; on success show that table on the dashboard and follow it."""
        try:
            ticket = ask()
            view = self.client.view(ticket.token)
        except ValueError as err:  # a TableError: the authority's own sentence
            return self._say(f"Not accepted: {escape(err)}", error=True)
        self.attach(ticket, view)
        secret = f" {escape(SECRET if view.seat is not None else WATCHING)}" if self.hidden else ""
        hint = f" {escape(HINT_ON)}" if view.hint_allowed is True and view.seat is not None else ""
        self._say(f"{done}: code <b>{escape(view.code)}</b>. {escape(NO_UNDO)}{hint}{secret}")
        return True

    def attach(self, ticket, view) -> SharedTable:
        """Set the dashboard to the table's game and seats and make a SharedTable its session."""
        d = self.dashboard
        if self.table is not None:
            self.table.stop()
        d.use_session(None)
        kinds = tuple(kit_seat(s.get("kind", "person")) for s in view.seats)
        d.new_game(seed=d.seed, seats=kinds, **dict(view.options))
        d.stop_auto()
        self.table = SharedTable(d, self.client, ticket, view, on_view=self.show_view, on_leave=self.leave)
        d.use_session(self.table)
        d.stop_auto()
        d.refresh()  # the buttons and highlights as this seat sees them
        self.table.follow()
        self._run_script(link.seat_script(view.code, ticket.token if view.seat is not None else None))
        self.lobby.layout.display = "none"
        self.at_table.layout.display = None
        self.bot_button.layout.display = None if view.seat is not None else "none"  # a spectator holds no seat
        self.show_view(view)
        return self.table

    def show_view(self, view) -> None:
        """The table box: code, join URL, QR code, seats, whose move; the table's log."""
        url = link.join_url(view.code)
        you = ("watching (no seat)" if view.seat is None
               else f"you play <b>{escape(self.dashboard.player_name(view.seat))}</b>")
        rows = []
        for i, s in enumerate(view.seats):
            label = s.get("label") or ""
            kind = "bot" if s.get("kind") != "person" else ("you" if i == view.seat else
                                                          ("free seat" if not s.get("taken") else "person"))
            gone = "" if s.get("kind") != "person" or s.get("connected", True) or not s.get("taken") else " · away"
            mark = " ◀" if view.status == "playing" and view.current_player == i else ""
            rows.append(f"<tr><td><b>{escape(self.dashboard.player_name(i))}</b>{mark}</td><td>{escape(label)}</td>"
                        f"<td>{escape(kind)}{gone}</td></tr>")
        seats = ("<table class='treegames-table-seats' style='font-size:13px' cellpadding='2'>" + "".join(rows)
                 + "</table>")
        words = self.table.waiting_words() if self.table is not None else ""
        self.status.value = (
            "<div style='display:flex;flex-wrap:wrap;gap:10px;align-items:flex-start'>"
            f"<div style='min-width:200px;max-width:100%'><div style='font-size:13px'>Table code</div>"
            f"<div class='treegames-table-code' style='font-size:28px;font-weight:bold;letter-spacing:3px'>"
            f"{escape(view.code)}</div><div style='font-size:13px'>{escape(view.label)}</div>"
            f"<div style='font-size:13px'>{you} · {escape(view.status)}</div>"
            f"<div class='treegames-table-hint' style='font-size:13px'>{HINT_WORDS[view.hint_allowed is True]}</div>"
            f"<div style='font-size:13px;word-break:break-all'>Join: <a class='treegames-join-url' href='{escape(url)}' "
            f"target='_blank'>{escape(url)}</a></div>{seats}<div role='status' style='font-size:13px'>"
            f"{words}</div></div>"
            f"<div class='treegames-table-qr' style='max-width:100%'>{link.qr_svg(url)}</div></div>")
        who = self.table.seat_name if self.table is not None else self.dashboard.player_name
        lines = [f"<li><b>{escape(who(e['seat']) if e.get('seat') is not None else 'Dice')}</b>: "
                 f"{escape(e.get('text', ''))}</li>" for e in list(view.log)[-12:]]
        self.table_log.value = ("<ol class='treegames-table-events' style='font-size:13px;margin:2px 0;"
                                "padding-left:20px'>" + "".join(lines) + "</ol>")

    # ------------------------------------------------------------ the address bar

    def _from_url_thread(self, query: dict) -> None:
        """The page's query string arrived (maybe in a thread): resume the seat, or open the code's table."""
        if self._loop is not None and self._loop.is_running():
            self._loop.call_soon_threadsafe(self._from_url, query)
        else:
            self._from_url(query)

    @safety.guarded
    def _from_url(self, query: dict) -> None:
        """Resume the seat in the URL, or put its code in the box (a visitor decides to join or watch)."""
        if self.table is not None:
            return
        token, code = query.get(link.SEAT_KEY), query.get(link.CODE_KEY, "")
        if token and self.resume(token, code):
            self._select_tab()
            return
        if code:
            self.code_box.value = code[:12]
            self._say(f"Table <b>{escape(code[:12])}</b>: press Join to take a seat, or Watch.")
            self._select_tab()

    def _select_tab(self) -> None:
        """Show the Play with others tab."""
        tabs = getattr(self.dashboard, "tabs", None)
        holder = getattr(self.dashboard, "tables_tab", self)
        for box in (holder, self):
            if tabs is not None and box in tabs.children:
                tabs.selected_index = list(tabs.children).index(box)
                return

    def _run_script(self, code: str) -> None:
        """Run a line of JavaScript in this page (replacing the address; nothing is loaded)."""
        from IPython.display import Javascript

        self.script.outputs = ()
        self.script.append_display_data(Javascript(code))

    # ------------------------------------------------------------ messages

    def _say(self, text: str, error: bool = False) -> bool:
        """A message at the top of the panel, beside the buttons that caused it (once: not under the board too); False."""
        self.note.value = message_box(text, error)
        return False

    def _fail(self, text: str) -> None:
        """A guarded callback failed."""
        self._say(escape(text), error=True)


def _wrap(children: list) -> widgets.HBox:
    """A row that wraps on a phone."""
    row = widgets.HBox(children)
    row.add_class("treegames-wrap")
    return row


def _plain(item) -> dict:
    """A summary as a dict (the client may hand dataclasses or dicts)."""
    if isinstance(item, dict):
        return item
    if hasattr(item, "to_json"):
        data = item.to_json()
        return data if isinstance(data, dict) else {}
    return dict(vars(item))
