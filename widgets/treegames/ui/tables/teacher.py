"""The teacher's overview of every shared table: whose turn, how long they have waited, results; controls.

Each row also says in a word whether Hint is allowed at that table ("allowed", or "off": the default).

Close a table, put a bot in a gone player's seat, reset everything: each asks the authority with the
teacher code (printed by ``make serve``), so a student without the code is refused. Labels are what
players typed (shown only as escaped text); the page shows no other names. It follows the server by
itself (a background thread asks again every few seconds while the code is accepted).
"""

from __future__ import annotations

import threading
from collections import OrderedDict

import ipywidgets as widgets

from ...plugins import plugin
from .. import safety
from ..styles import icon_button, stylesheet
from ..text import escape, message_box, panel
from . import link
from . import panel as _panel
from .panel import ALONE

EVERY_SECONDS = 3.0
"""How often the overview asks the authority again."""


def waited_words(seconds: float) -> str:
    """'12 s', '3 min', '2 h' for how long a table has waited."""
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 90 * 60:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def seat_words(view, seat: int) -> str:
    """'Seat 2 (Sam)' / 'Seat 1 (bot greedy)' / 'Seat 3 (free)'."""
    s = view.seats[seat] if 0 <= seat < len(view.seats) else {}
    if s.get("kind", "person") != "person":
        who = f"bot {s['kind']}"
    else:
        who = s.get("label") or ("person" if s.get("taken") else "free")
    return f"Seat {seat + 1} ({who})"


def turn_words(view) -> str:
    """Whose turn, or the result."""
    if view.status == "finished":
        won = " and ".join(seat_words(view, w) for w in view.winners) or "nobody"
        return f"Over: {won} won; scores {', '.join(str(x) for x in view.scores)}"
    if view.status == "closed":
        return "Closed"
    if view.status == "waiting":
        free = sum(1 for s in view.seats if s.get("kind") == "person" and not s.get("taken"))
        return f"Waiting for {free} player{'s' if free != 1 else ''}"
    if view.current_player < 0:
        return "Chance to play"
    return f"{seat_words(view, view.current_player)} to move"


def hint_words(view) -> str:
    """'allowed' or 'off': whether the table's creator allowed the coach's Hint there."""
    return "allowed" if view.hint_allowed is True else "off"


NARROW_CSS = (
    "<style>.treegames-teacher-tables td.tg-code{white-space:nowrap}"
    ".treegames-teacher-tables td>svg{vertical-align:top}"
    "@media (max-width:600px){.treegames-teacher-tables,.treegames-teacher-tables tbody,"
    ".treegames-teacher-tables tr,.treegames-teacher-tables td{display:block;width:100%;box-sizing:border-box}"
    ".treegames-teacher-tables tr.tg-head{display:none}"
    ".treegames-teacher-tables tr{border-top:1px solid #C8C8C0;padding:6px 0}"
    ".treegames-teacher-tables td{padding:1px 0!important}"
    ".treegames-teacher-tables td::before{content:attr(data-label) ': ';color:#555}}</style>")
"""On a phone each table is a short block of labelled lines instead of a row wider than the screen."""

COLUMNS = ("Code", "Picture", "Game", "Label", "Hint", "Now", "Waited", "Away", "Actions")
PICTURE_WIDTH = 120
"""Pixels across a table's small picture."""
_PICTURES: OrderedDict[tuple[str, int], str] = OrderedDict()
"""Pictures already drawn, by (table id, version): a table is drawn again only when it has changed."""
KEPT_PICTURES = 600


def _picture_scene(view):
    """The table's scene as its game's plug-in draws it, from what the overview may see (the public view), or None."""
    game = plugin(view.game)
    if game.picture is None:
        return None
    if view.player_view is not None:
        seen = game.observer.view_from_json(view.player_view)
    elif view.saved:
        seen = game.game_type.new_game(**view.options).state_from_json(view.saved)
    else:
        return None
    return game.load(game.picture)(seen)


def table_picture(view) -> str:
    """A small SVG of the table at its version (drawn once per version), or '' when there is none."""
    key = (view.table_id, view.version)
    if key not in _PICTURES:
        try:
            scene = _picture_scene(view)
        except ValueError:  # a state the kit cannot draw: no picture rather than no overview
            scene = None
        svg = ""
        if scene is not None:
            height = round(scene.height * PICTURE_WIDTH / scene.width)
            svg = scene.to_svg().replace(
                f'width="{scene.width}" height="{scene.height}"',
                f'width="{PICTURE_WIDTH}" height="{height}" role="img" '
                f'aria-label="The table {escape(view.code)} now"', 1)
        _PICTURES[key] = svg
        while len(_PICTURES) > KEPT_PICTURES:
            _PICTURES.popitem(last=False)
    return _PICTURES[key]


def overview_html(views: list) -> str:
    """Every table as one row: code, game, label, Hint allowed or off, whose turn or result, waited, seats away."""
    if not views:
        return "<p>No tables on this server yet.</p>"
    rows = []
    for v in views:
        away = [seat_words(v, i) for i, s in enumerate(v.seats)
                if s.get("kind") == "person" and s.get("taken") and not s.get("connected")]
        cells = (f"<b>{escape(v.code)}</b>", table_picture(v), escape(v.game), escape(v.label), hint_words(v),
                 escape(turn_words(v)),
                 escape(waited_words(v.updated_ago)), escape(", ".join(away)) or "-", str(len(v.log)))
        rows.append("<tr>" + "".join(f"<td data-label='{name}'{' class=tg-code' if name == 'Code' else ''}>{cell}</td>"
                                     for name, cell in zip(COLUMNS, cells, strict=True)) + "</tr>")
    head = "".join(f"<th align={'left' if name != 'Actions' else 'center'}>{name}</th>" for name in COLUMNS)
    return (NARROW_CSS + "<table class='treegames-teacher-tables' style='border-collapse:collapse;font-size:13px' "
            f"cellpadding='3'><tr class='tg-head' style='color:#555'>{head}</tr>" + "".join(rows) + "</table>")


class TeacherOverview(widgets.VBox):
    """The teacher's page: a code box, every table, and the protected controls."""

    def __init__(self, client=None, follow: bool = True):
        self.client = link.table_client() if client is None else client
        self.views: list = []
        self._stop = threading.Event()
        self._follow = follow
        self._thread: threading.Thread | None = None
        self._loop = safety.running_loop()
        if self.client is None:
            super().__init__([widgets.HTML(panel(ALONE))])
            return
        report = self._fail
        self.code_box = widgets.Password(description="Teacher code", style={"description_width": "initial"},
                                         layout=widgets.Layout(width="260px", max_width="100%"))
        self.show_button = icon_button("Show tables", "play", tooltip="List every table (needs the teacher code)",
                                       button_style="primary")
        self.table_box = widgets.Text(description="Table code", placeholder="e.g. K7Q-F2M",
                                      style={"description_width": "initial"},
                                      layout=widgets.Layout(width="220px", max_width="100%"))
        self.seat_box = widgets.BoundedIntText(value=1, min=1, max=6, description="Seat",
                                               layout=widgets.Layout(width="130px"))
        self.bot_box = widgets.Text(value="greedy", description="Bot", layout=widgets.Layout(width="170px"))
        self.close_button = icon_button("Close table", "back", tooltip="No more moves or joins at that table")
        self.bot_button = icon_button("Put a bot in the seat", "step",
                                      tooltip="Only for a player gone for a while")
        self.sure_box = widgets.Checkbox(value=False, description="Yes, delete every table", indent=False)
        self.reset_button = icon_button("Reset everything", "undo", tooltip="Delete every table, seat and log",
                                        button_style="danger")
        self.note = widgets.HTML()  # stretches to the page (a width of 100% would add its margins)
        self.tables = widgets.HTML(layout=widgets.Layout(overflow="auto"))
        for button, fn in ((self.show_button, self.show), (self.close_button, self.close),
                           (self.bot_button, self.replace), (self.reset_button, self.reset)):
            safety.on_click(button, fn, report=report)
        row = widgets.HBox
        super().__init__([row([self.code_box, self.show_button]), self.note, self.tables,
                          row([self.table_box, self.close_button]),
                          row([self.seat_box, self.bot_box, self.bot_button]),
                          row([self.sure_box, self.reset_button]), stylesheet()])
        for child in self.children:
            if isinstance(child, widgets.HBox):
                child.add_class("treegames-wrap")

    def _code(self) -> str:
        """The teacher code typed."""
        return self.code_box.value.strip()

    def _view_of(self, code: str):
        """The listed table with this join code, or None."""
        wanted = code.strip().upper()
        return next((v for v in self.views if v.code.upper() == wanted), None)

    def show(self) -> bool:
        """List every table (refused without the teacher code), and keep the list current."""
        try:
            self.views = list(self.client.overview(self._code(), visitor=_panel.VISITOR))
        except ValueError as err:
            self._stop.set()
            self.tables.value = ""
            return self._say(f"Not accepted: {escape(err)}", error=True)
        self.tables.value = overview_html(self.views)
        self.note.value = ""
        if self._follow and (self._thread is None or not self._thread.is_alive()):
            self._stop.clear()
            self._thread = threading.Thread(target=self._poll, name="treegames-teacher", daemon=True)
            self._thread.start()
        return True

    def close(self) -> bool:
        """Close the table whose code is typed."""
        v = self._view_of(self.table_box.value)
        if v is None:
            return self._say("Type the code of a listed table (press Show tables first).", error=True)
        try:
            self.client.close_table(self._code(), v.table_id, visitor=_panel.VISITOR)
        except ValueError as err:
            return self._say(f"Not accepted: {escape(err)}", error=True)
        self.show()
        return self._say(f"Table {escape(v.code)} is closed.")

    def replace(self) -> bool:
        """Put a bot in the typed seat of the typed table (the authority checks the player is gone)."""
        v = self._view_of(self.table_box.value)
        if v is None:
            return self._say("Type the code of a listed table (press Show tables first).", error=True)
        try:
            self.client.replace_with_bot(self._code(), v.table_id, self.seat_box.value - 1, self.bot_box.value.strip(),
                                       visitor=_panel.VISITOR)
        except ValueError as err:
            return self._say(f"Not accepted: {escape(err)}", error=True)
        self.show()
        return self._say(f"A bot now plays seat {self.seat_box.value} at table {escape(v.code)}.")

    def reset(self) -> bool:
        """Delete every table (only with the box ticked and the teacher code)."""
        if not self.sure_box.value:
            return self._say("Tick 'Yes, delete every table' first: this cannot be undone.", error=True)
        try:
            gone = self.client.reset_all(self._code(), visitor=_panel.VISITOR)
        except ValueError as err:
            return self._say(f"Not accepted: {escape(err)}", error=True)
        self.sure_box.value = False
        self.show()
        return self._say(f"Deleted {gone} table{'s' if gone != 1 else ''}.")

    def stop(self) -> None:
        """Stop following the server."""
        self._stop.set()

    def _poll(self) -> None:
        """Ask again every few seconds while the code is accepted (in a daemon thread)."""
        while not self._stop.wait(EVERY_SECONDS):
            try:
                views = list(self.client.overview(self._code(), visitor=_panel.VISITOR))
            except Exception:  # noqa: BLE001 - server away: keep the last list, try again
                safety.log.debug("teacher overview poll failed", exc_info=True)
                continue
            if self._loop is not None and self._loop.is_running():
                self._loop.call_soon_threadsafe(self._show_views, views)
            else:
                self._show_views(views)

    def _show_views(self, views: list) -> None:
        """Show a fresh list."""
        if not self._stop.is_set():
            self.views = views
            self.tables.value = overview_html(views)

    def _say(self, text: str, error: bool = False) -> bool:
        """A message under the code box; False when it is a refusal."""
        self.note.value = message_box(text, error)
        return not error

    def _fail(self, text: str) -> None:
        """A guarded callback failed."""
        self._say(escape(text), error=True)
