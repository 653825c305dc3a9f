"""Hint at a shared table (practice only): off by default, allowed by the table's creator at Create table.

Two Play pages in one process, each with its own TablePanel, reach the real Authority on a temporary
SQLite store through the kernels' client (``treegames.tables.client.local``: the same JSON as over the
wire). A page learns whether Hint is allowed only from the authority's views; the coach thinks for this
page's own seat on its move, from what the page holds (in Mighty Trees: the seat's own view).
"""

from __future__ import annotations

import json
import random

import ipywidgets as widgets
import pytest

import harness
from treegames.lab.stats import wilson_interval
from treegames.search import Budget, ParallelSearch, rollout_for
from treegames.tables import client as tables_client
from treegames.ui import hint
from treegames.ui.aspens.play import AspensPlay
from treegames.ui.hint import HINT_OFF, HintState
from treegames.ui.mighty_trees.play import MightyTreesPlay
from treegames.ui.mighty_trees.seat import SeatState
from treegames.ui.tables import TablePanel
from treegames.ui.tables.panel import HINT_BOX

pytestmark = pytest.mark.slow  # the coach searches at the table: not in make test-quick


@pytest.fixture(autouse=True)
def small_budgets(monkeypatch):
    """Hints of a few dozen playouts, so the tests stay quick."""
    monkeypatch.setattr(hint, "HINT_BUDGET", Budget(iterations=40))
    monkeypatch.setattr(hint, "MORE_BUDGET", Budget(iterations=40))


@pytest.fixture
def client(authority):
    """What a page's kernel holds: the authority's methods through the wire's JSON."""
    return tables_client.local(authority)


def eventually(check, seconds: float = harness.DEADLINE) -> None:
    """Wait until ``check()`` holds (the other page's long-poll delivers in its own thread)."""
    harness.wait_until(check, seconds, step=0.02, what="the page following the table")


class Table:
    """Two pages at one two-person table; the creator ticks Allow Hint or not."""

    def __init__(self, client, page=AspensPlay, allow: bool = False, seed: int = 3):
        self.pages = page(), page()
        self.panels = tuple(TablePanel(p, client=client, read_url=False) for p in self.pages)
        creator, joiner = self.panels
        creator.form.seed_box.value = seed
        creator.hint_box.value = allow
        assert creator.create(), creator.note.value
        joiner.code_box.value = creator.table.view.code
        assert joiner.join_from_box(), joiner.note.value
        eventually(lambda: creator.table.view.status == "playing"
                   and creator.table.view.version == joiner.table.view.version)

    def mover(self) -> tuple:
        """(page, panel) of the seat to move, then of the other seat."""
        a, b = self.pages
        eventually(lambda: a.is_human_turn() or b.is_human_turn())
        first = 0 if a.is_human_turn() else 1
        return (self.pages[first], self.panels[first]), (self.pages[1 - first], self.panels[1 - first])

    def stop(self) -> None:
        """Stop both pages' long-polls."""
        for panel in self.panels:
            if panel.table is not None:
                panel.table.stop()


@pytest.fixture
def tables():
    """Tables made in a test, stopped after it."""
    made: list[Table] = []
    yield made
    for t in made:
        t.stop()


def open_table(tables, client, **kwargs) -> Table:
    """A new Table, stopped after the test."""
    table = Table(client, **kwargs)
    tables.append(table)
    return table


# ---------------------------------------------------------------- the create form


def test_the_create_form_has_the_allow_hint_box_unticked_just_before_create_table(authority):
    panel = TablePanel(AspensPlay(), client=authority, read_url=False)
    box = panel.hint_box
    assert isinstance(box, widgets.Checkbox) and box.description == HINT_BOX
    assert box.value is False and not box.disabled
    assert list(panel.form.children[-2:]) == [box, panel.form.start_button], "Tab reaches it before Create table"


@pytest.mark.parametrize("allow", [True, False])
def test_the_box_is_sent_with_the_new_table_and_both_pages_learn_it_from_the_authority(tables, client, authority,
                                                                                      allow):
    table = open_table(tables, client, allow=allow)
    creator, joiner = table.panels
    code = creator.table.view.code
    teacher = next(v for v in authority.overview("TEACH-ONE") if v.code == code)
    assert teacher.hint_allowed is allow
    assert creator.table.view.hint_allowed is allow and joiner.table.view.hint_allowed is allow
    words = "Hint: allowed (practice)" if allow else "Hint: off at this table"
    assert words in creator.status.value and words in joiner.status.value
    assert ("Hint is allowed at this table" in joiner.note.value) is allow


# ---------------------------------------------------------------- a table with Hint allowed


def test_at_a_table_with_hint_the_player_to_move_gets_the_coachs_moves_with_intervals(tables, client):
    table = open_table(tables, client, allow=True)
    (page, panel), _other = table.mover()
    assert page.hint_panel.hint() and page.hint_panel.wait(harness.DEADLINE)
    assert page.hint_panel.status is HintState.SHOWN
    rows = page.hint_panel.top_moves()
    assert rows and {r.notation for r in rows} <= set(panel.table.view.legal), "only moves the authority lists"
    for row in rows:
        assert (row.low, row.high) == wilson_interval(row.wins, row.visits)
        assert row.text() in page.hint_panel.words.value
    assert "40 playouts" in page.hint_panel.words.value
    assert "treegames-hint-off" not in page.hint_panel.hint_button._dom_classes


def test_the_h_key_asks_for_a_hint_at_the_table(tables, client):
    table = open_table(tables, client, allow=True)
    (page, _panel), _other = table.mover()
    page.key("h")
    assert page.hint_panel.wait(harness.DEADLINE) and page.hint_panel.search.iterations == 40


def test_the_seat_waiting_and_a_spectator_are_told_whose_move_a_hint_is_for(tables, client, authority):
    table = open_table(tables, client, allow=True)
    (_page, mover_panel), (waiting, _panel) = table.mover()
    assert not waiting.hint_panel.hint() and waiting.hint_panel.search is None
    assert "Waiting for" in waiting.hint_panel.note.value and "your own move" in waiting.hint_panel.note.value
    spectator = AspensPlay()
    watch = TablePanel(spectator, client=client, read_url=False)
    watch.code_box.value = mover_panel.table.view.code
    assert watch.watch_from_box()
    try:
        assert not spectator.hint_panel.hint() and spectator.hint_panel.search is None
        assert "watching this table" in spectator.hint_panel.note.value
    finally:
        watch.table.stop()


def test_a_hint_is_for_the_newest_moment_not_one_browsed_back_to(tables, client):
    table = open_table(tables, client, allow=True)
    (page, panel), (other, _panel) = table.mover()
    assert page.play(panel.table.view.legal[0]), page.message.value
    eventually(lambda: other.is_human_turn() and other.timeline.is_at_latest())
    other.back()
    assert not other.hint_panel.hint() and other.hint_panel.search is None
    assert "earlier moment" in other.hint_panel.note.value


def test_a_move_arriving_from_the_table_cancels_the_coach_and_clears_its_estimates(tables, client, monkeypatch):
    monkeypatch.setattr(hint, "HINT_BUDGET", Budget(iterations=1_000_000))
    table = open_table(tables, client, allow=True)
    (page, panel), _other = table.mover()
    view = panel.table.view
    assert page.hint_panel.hint()
    searched = page.hint_panel.search
    client.move(panel.table.token, view.version, view.legal[0])  # the same seat, from its other open tab
    eventually(lambda: panel.table.view.version > view.version)
    assert page.hint_panel.wait(harness.DEADLINE)
    assert page.hint_panel.search is None and page.hint_panel.words.value == ""
    assert page.hint_panel.status is HintState.IDLE and searched.iterations < 1_000_000


def test_the_teacher_closing_the_table_stops_the_coach_with_the_reason(tables, client, monkeypatch):
    monkeypatch.setattr(hint, "HINT_BUDGET", Budget(iterations=1_000_000))
    table = open_table(tables, client, allow=True)
    (page, panel), _other = table.mover()
    assert page.hint_panel.hint()
    searched = page.hint_panel.search
    client.close_table("TEACH-ONE", panel.table.view.table_id)
    eventually(lambda: panel.table.view.status == "closed")
    assert page.hint_panel.wait(harness.DEADLINE) and searched.iterations < 1_000_000
    assert page.hint_panel.search is None and page.hint_panel.status is HintState.IDLE
    assert page.hint_panel.note.value  # says why (it is no longer this seat's move)


# ---------------------------------------------------------------- a table without Hint


def test_at_a_table_without_hint_pressing_hint_or_h_says_why_and_nothing_else_happens(tables, client):
    table = open_table(tables, client, allow=False)
    (page, _panel), _other = table.mover()
    panel = page.hint_panel
    assert "treegames-hint-off" in panel.hint_button._dom_classes, "the button is shown, marked off"
    assert "off at this table" in panel.hint_button.tooltip
    assert "Hint is off at this table" in panel.note.value, "the reason is on the page before any press"
    panel.note.value = ""
    assert not panel.hint()
    assert "Hint is off at this table" in panel.note.value and "creator can allow it" in panel.note.value
    page.key("h")
    assert panel.search is None and panel.status is HintState.IDLE and panel.words.value == ""
    assert panel._thread is None, "no coach thread was started"
    assert not panel.think_longer() and panel.search is None


def test_no_page_can_switch_hint_on_for_itself(tables, client, authority):
    table = open_table(tables, client, allow=False)
    (page, panel), (other, other_panel) = table.mover()
    for box in (panel.hint_box, other_panel.hint_box):  # forged widget messages ticking the (hidden) boxes
        box.value = True
    other.refresh()
    page.refresh()
    with pytest.raises(TypeError):  # the kernels' client has no such argument for join or move
        client.join(panel.table.view.code, visitor="x", hint_allowed=True)
    with pytest.raises(TypeError):
        client.move(panel.table.token, panel.table.view.version, panel.table.view.legal[0], hint_allowed=True)
    assert not page.hint_panel.hint() and HINT_OFF.split(";")[0] in page.hint_panel.note.value
    assert page.hint_panel.search is None
    assert panel.table.view.hint_allowed is False and other_panel.table.view.hint_allowed is False
    teacher = next(v for v in authority.overview("TEACH-ONE") if v.code == panel.table.view.code)
    assert teacher.hint_allowed is False


def test_leaving_a_table_without_hint_gives_back_the_hint_of_a_game_of_ones_own(tables, client):
    table = open_table(tables, client, allow=False)
    (page, panel), _other = table.mover()
    panel.leave()
    assert page.shared_table() is None
    assert "treegames-hint-off" not in page.hint_panel.hint_button._dom_classes
    assert "Hint is off" not in page.hint_panel.note.value


# ---------------------------------------------------------------- Mighty Trees: the coach sees one seat's cards


def test_mighty_trees_the_coach_searches_from_the_seats_own_view_only(tables, client, authority):
    table = open_table(tables, client, page=MightyTreesPlay, allow=True, seed=5)
    (page, panel), (other, other_panel) = table.mover()
    moment = page.state
    assert isinstance(moment, SeatState) and moment.seat == panel.table.seat
    assert page.hint_panel.hint() and page.hint_panel.wait(harness.DEADLINE)
    search = page.hint_panel.search
    assert search.state.view_for(moment.seat) == moment.view, "the coach's world shows exactly the seat's view"
    full = authority.state_of(panel.table.view.table_id)  # the whole game: the test's reading, never a page's
    assert full.view_for(moment.seat) == moment.view
    same = ParallelSearch(full, random.Random(f"hint/{moment.version}"), rollout=rollout_for("mighty_trees"),
                          trees=hint.HINT_TREES)
    same.think(Budget(iterations=40))
    assert same.statistics() == search.statistics(), "the other Command's real cards make no difference"
    rows = page.hint_panel.top_moves()
    assert rows and {r.notation for r in rows} <= set(panel.table.view.legal)
    other_cards = {c.name for c in full.hand(other_panel.table.seat)} - {c.name for c in moment.view.hand}
    shown = json.dumps(page.hint_panel.words.get_state()) + page.hint_panel.note.value
    assert not [name for name in other_cards if name in shown], "the hint names none of the other seat's cards"


def test_mighty_trees_a_table_without_hint_says_why(tables, client):
    table = open_table(tables, client, page=MightyTreesPlay, allow=False, seed=5)
    (page, _panel), _other = table.mover()
    assert not page.hint_panel.hint() and page.hint_panel.search is None
    assert "Hint is off at this table" in page.hint_panel.note.value
