"""The Play with others panel: two Aspens dashboards in one process at one shared table (issue 19, pages).

Each dashboard has its own TablePanel talking to the real in-process Authority on a temporary SQLite
store; each follows the table with its own background long-poll, as a page's kernel does.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

import harness
from treegames.ui.aspens.play import AspensPlay
from treegames.ui.mighty_trees.play import MightyTreesPlay
from treegames.ui.tables import TablePanel
from treegames.ui.tables.panel import ALONE, HIDDEN
from treegames.ui.tables.shared import NO_UNDO

EVIL = "<img src=x onerror=alert(1)>"


@pytest.fixture
def pair(authority):
    """Two dashboards at one two-person Aspens table: (dashboard, panel) for the creator and the joiner."""
    a, b = AspensPlay(), AspensPlay()
    pa, pb = TablePanel(a, client=authority, read_url=False), TablePanel(b, client=authority, read_url=False)
    pa.label_box.value = EVIL
    assert pa.create()
    pb.code_box.value = pa.table.view.code
    assert pb.join_from_box()
    eventually(lambda: pa.table.view.status == "playing")
    yield a, pa, b, pb
    for p in (pa, pb):
        if p.table is not None:
            p.table.stop()


def eventually(check, seconds: float = harness.DEADLINE) -> None:
    """Wait until ``check()`` holds (the other page's long-poll delivers in its own thread)."""
    harness.wait_until(check, seconds, step=0.02, what="the page following the table")


def click_first_target(dashboard) -> str:
    """Play the first highlighted place as a click would; the place."""
    place = dashboard.keyboard_targets()[0]
    assert dashboard.play_at(place), dashboard.message.value
    return place


def test_every_play_page_has_the_tab():
    """The kit adds Play with others to every Play page."""
    d = AspensPlay()
    titles = [d.tabs.get_title(i) for i in range(len(d.tabs.children))]
    assert "Play with others" in titles
    assert titles[-1] == "Save / Open"


def test_create_shows_code_url_and_qr(pair):
    """After Create: the short code, the join URL with the code only (never a token), an inline SVG QR code."""
    a, pa, _b, _pb = pair
    html = pa.status.value
    code = pa.table.view.code
    assert code in html
    assert f"?table={code}" in html
    assert "<svg" in html and "QR code" in html
    assert pa.table.token not in html and pa.table.token not in pa.table_log.value
    assert pa.lobby.layout.display == "none" and pa.at_table.layout.display is None


def test_the_panels_own_messages_show_once_beside_its_buttons(pair):
    """'Table created: code ...' and 'Joined: ...' are said in the panel, not under the board as well (issue 32)."""
    a, pa, b, pb = pair
    code = pa.table.view.code
    assert "Table created" in pa.note.value and code in pa.note.value
    assert "Joined" in pb.note.value
    assert "Table created" not in a.message.value and "Joined" not in b.message.value


def test_labels_are_shown_as_escaped_text_on_the_other_page(pair):
    """A typed label reaches the other page only as text."""
    _a, _pa, _b, pb = pair
    assert "&lt;img src=x onerror=alert(1)&gt;" in pb.status.value
    assert EVIL not in pb.status.value


def test_join_by_code_seats_each_page(pair):
    """The creator holds seat 1 and moves first; the joiner holds seat 2; each page's person is its own seat."""
    a, pa, b, pb = pair
    assert (pa.table.seat, pb.table.seat) == (0, 1)
    assert a.is_human_turn() and not b.is_human_turn()
    assert b.keyboard_targets() == []
    assert b.end_turn_button.disabled and b.undo_button.disabled


def test_moves_alternate_and_each_page_follows(pair):
    """Four moves by clicks, alternating: after each, the other page shows the same state by itself."""
    a, pa, b, pb = pair
    for mover, other in ((a, b), (b, a), (a, b), (b, a)):
        eventually(lambda m=mover: m.is_human_turn())
        click_first_target(mover)
        eventually(lambda m=mover, o=other: o.timeline.latest.to_json() == m.timeline.latest.to_json())
    assert a.timeline.latest.to_json() == pa.table.view.saved
    assert [str(x) for x in a.timeline.latest.history] == pa.client.log_of(pa.table.view.table_id)
    assert "Aspen (&lt;img" in pb.table_log.value or "Aspen (&lt;img" in pa.table_log.value


def test_a_move_out_of_turn_is_refused_with_the_authoritys_sentence(pair, authority):
    """The seat not to move cannot move: the refusal is shown and nothing changes."""
    a, pa, b, pb = pair
    before, log = b.timeline.latest, authority.log_of(pa.table.view.table_id)
    legal = pa.table.view.legal[0]
    assert not pb.table.play(legal)
    assert "Not accepted" in b.message.value
    assert b.timeline.latest is before
    assert authority.log_of(pa.table.view.table_id) == log


def test_an_illegal_move_is_refused_in_the_engines_words(pair, authority):
    """An action the engine refuses changes nothing."""
    a, pa, _b, _pb = pair
    log = authority.log_of(pa.table.view.table_id)
    assert not pa.table.play("seed Z99")
    assert "Not accepted" in a.message.value
    assert authority.log_of(pa.table.view.table_id) == log


def test_a_stale_version_is_refused_then_the_page_catches_up(pair, authority):
    """The same seat open on two pages: a move counts once; the page that moved on an old version is told."""
    a, pa, _b, _pb = pair
    a2 = AspensPlay()
    p2 = TablePanel(a2, client=authority, read_url=False)
    assert p2.resume(pa.table.token)
    p2.table.stop()  # this copy does not hear of the move below
    old = p2.table.view.version
    click_first_target(a)
    assert p2.table.view.version == old
    assert not p2.table.play(pa.table.view.legal[0] if pa.table.view.legal else "seed G4")
    assert "Not accepted" in a2.message.value
    assert p2.table.view.version > old
    assert len(authority.log_of(pa.table.view.table_id)) == len(a.timeline.latest.history)


def test_back_and_forward_are_local_and_undo_is_not_offered(pair):
    """Back shows an earlier moment on this page only; a move is only made from the newest; no Undo."""
    a, pa, b, pb = pair
    click_first_target(a)
    eventually(lambda: b.is_human_turn())
    b.back()
    assert not b.timeline.is_at_latest()
    assert not pb.table.play(pb.table.view.legal[0])
    assert "earlier moment" in b.message.value
    b.forward()
    assert b.timeline.is_at_latest()
    assert b.undo_button.disabled
    b.undo()
    assert NO_UNDO.split(":")[0] in b.message.value
    assert a.timeline.latest.to_json() == b.timeline.latest.to_json()


def test_a_spectator_follows_and_cannot_move(pair, authority):
    """Watch by code: no seat, no person to move on that page, and it follows the moves."""
    a, pa, _b, _pb = pair
    c = AspensPlay()
    pc = TablePanel(c, client=authority, read_url=False)
    pc.code_box.value = pa.table.view.code
    assert pc.watch_from_box()
    try:
        assert pc.table.seat is None
        assert not c.is_human_turn()
        assert "watching" in pc.status.value
        click_first_target(a)
        eventually(lambda: c.timeline.latest.to_json() == a.timeline.latest.to_json())
        assert not pc.table.play(pa.table.view.legal[0] if pa.table.view.legal else "seed G4")
        assert "Not accepted" in c.message.value
    finally:
        pc.table.stop()


def test_a_wrong_code_is_refused_with_a_message(authority):
    """Join with a code no table has: a clear sentence, still in the lobby."""
    d = AspensPlay()
    p = TablePanel(d, client=authority, read_url=False)
    p.code_box.value = "ZZZ-ZZZ"
    assert not p.join_from_box()
    assert "Not accepted" in p.note.value and p.table is None


def test_open_tables_lists_waiting_tables(authority):
    """A table waiting for its second player is listed with its code; picking it fills the code box."""
    a, b = AspensPlay(), AspensPlay()
    pa, pb = TablePanel(a, client=authority, read_url=False), TablePanel(b, client=authority, read_url=False)
    try:
        assert pa.create()
        pb.list_open()
        codes = [value for _, value in pb.open_list.options]
        assert pa.table.view.code in codes
        pb.open_list.value = pa.table.view.code
        assert pb.code_box.value == pa.table.view.code
    finally:
        pa.table.stop()


def test_new_game_from_the_form_leaves_the_table(pair):
    """Start new game at a shared table: the page leaves the table (the seat stays) and plays alone again."""
    a, pa, _b, _pb = pair
    a._start_from_form()
    assert a.shared_table() is None and pa.table is None
    assert not a.undo_button.disabled or not a.timeline.can_undo()


def test_without_a_server_the_panel_says_each_session_is_alone(monkeypatch):
    """On Binder (no class server) the panel explains and shows no controls."""
    monkeypatch.delenv("TREEGAMES_TABLES_URL", raising=False)
    d = AspensPlay()
    p = TablePanel(d, read_url=False)
    assert p.client is None
    assert len(p.children) == 1 and "alone" in p.children[0].value
    assert ALONE.split("<")[1] in p.children[0].value


def test_a_hidden_card_game_whose_page_cannot_draw_one_seat_says_why(authority):
    """A page of a game with hidden cards and no ``state_from_view`` hides the controls and says why."""
    page = SimpleNamespace(game_type=MightyTreesPlay.game_module.GAME_TYPE)
    p = TablePanel(page, client=authority, read_url=False)
    assert len(p.children) == 1 and "hidden cards" in p.children[0].value
    assert HIDDEN[:30] in p.children[0].value


def test_mighty_trees_offers_shared_tables(authority):
    """The Mighty Trees page draws from one seat's view, so it gets the Create / Join / Watch controls."""
    p = TablePanel(MightyTreesPlay(), client=authority, read_url=False)
    assert p.lobby in p.children and p.form.start_button.description == "Create table"


def test_a_seat_in_the_address_resumes_and_shows_the_tab(pair, authority):
    """A new kernel given ?table=CODE&seat=TOKEN sits at the same seat at the same moment, tab open."""
    a, pa, _b, _pb = pair
    click_first_target(a)
    again = AspensPlay()
    p = TablePanel(again, client=authority, read_url=False)
    again.tables_tab.children = [p]  # as the kit puts its panel in the tab
    p._from_url({"table": pa.table.view.code, "seat": pa.table.token})
    try:
        assert p.table.seat == 0 and "Back at your seat" in p.note.value
        assert again.undo_button.disabled
        assert again.timeline.latest.to_json() == a.timeline.latest.to_json()
        assert again.tabs.get_title(again.tabs.selected_index) == "Play with others"
    finally:
        p.table.stop()


def test_a_code_in_the_address_fills_the_box(authority):
    """A join URL (code only) puts the code in the box and asks the visitor to Join or Watch."""
    d = AspensPlay()
    p = TablePanel(d, client=authority, read_url=False)
    p._from_url({"table": "ABC-DEF"})
    assert p.code_box.value == "ABC-DEF" and "press Join" in p.note.value and p.table is None


def test_a_three_seat_bosk_table_with_a_bot_seat(authority):
    """Bosk for three, the third seat a bot: two pages join, the authority plays the bot, both pages follow."""
    from treegames.ui.bosk.play import BoskPlay

    a, b = BoskPlay(), BoskPlay()
    pa, pb = TablePanel(a, client=authority, read_url=False), TablePanel(b, client=authority, read_url=False)
    pa.form.option_boxes["players"].value = 3
    pa.form.seat_boxes[2].value = "greedy"
    assert pa.create(), pa.note.value
    assert [s["kind"] for s in pa.table.view.seats] == ["person", "person", "greedy"]
    pb.code_box.value = pa.table.view.code
    assert pb.join_from_box()
    try:
        table_id = pa.table.view.table_id
        eventually(lambda: pa.table.view.status == "playing")
        for _ in range(6):
            eventually(lambda: a.is_human_turn() or b.is_human_turn())
            mover = a if a.is_human_turn() else b
            eventually(lambda m=mover: m.session.view.legal)
            assert mover.play(mover.session.view.legal[0]), mover.message.value  # Bosk's clicks end here
            log = authority.log_of(table_id)
            eventually(lambda log=log: [str(x) for x in a.timeline.latest.history] == log
                       and [str(x) for x in b.timeline.latest.history] == log)
        seats_that_moved = {e["seat"] for e in pa.table.view.log}
        assert 2 in seats_that_moved, "the bot seat played, by the authority"
        assert not a.is_person(2) and not b.is_person(2)
    finally:
        pa.table.stop()
        pb.table.stop()


def test_while_the_other_seat_moves_the_move_box_says_whom_it_waits_for(pair):
    """At a shared table there is no Step to press: the move box names the seat to move (its label as text)."""
    a, pa, b, _pb = pair
    waiting, mover = (b, a) if a.is_human_turn() else (a, b)
    eventually(lambda: mover.is_human_turn())
    text = waiting.move_box.count.value
    assert "Press Step" not in text and "Waiting for" in text, text
    if waiting is b:
        assert "&lt;img src=x" in text and "&amp;lt;" not in text, "the typed label is shown once-escaped, as text"


def test_at_a_shared_table_auto_play_is_hidden_and_comes_back_after_leaving(pair):
    """The authority moves a table's bots, so the page offers no Auto-play, speed or bots-answer box there."""
    a, pa, _b, _pb = pair
    hidden = (a.auto_button, a.speed, a.answer_box)
    assert all(w.layout.display == "none" for w in hidden)
    pa.leave()
    assert all(w.layout.display is None for w in hidden)


def test_the_create_form_offers_only_the_bots_a_table_seats(authority):
    d = AspensPlay()
    p = TablePanel(d, client=authority, read_url=False)
    offered = {value for _label, value in p.form.seat_boxes[1].options}
    assert "coach-easy" in offered and "greedy" in offered
    assert not offered & {"coach-medium", "coach-hard"}
    assert "coach-hard" in {value for _label, value in d.form.seat_boxes[1].options}, "Play itself offers every bot"
