"""Two Chromium visitors at one shared Aspens table on a real class server (issue 19, pages).

Page A (1280 px) creates the table with a label that looks like HTML; page B (420 px, a phone) joins by
the code it shows. They play by clicks on the board; after each move the other page redraws by itself
(nobody presses anything there). The class server (``python -m treegames.serving``, as ``make serve``)
runs the authority in its own process; the kernels call it over loopback with the server's key. The
test reads the authority's record from the server's SQLite file (in the data folder it names) to know
whose move it is and where a click is legal, checks every page's board follows, and that no page's
HTML or websocket frame ever carries the server key.
"""

from __future__ import annotations

import os
import re

import pytest

import harness
from treegames import core
from treegames.service import codes
from treegames.service.store import open_store
from treegames.tables.authority import Authority
from treegames.ui.aspens.play import AspensPlay

WAIT_MS = harness.WAIT_MS

PATH = "aspens/play.ipynb"
EVIL = "<img src=x onerror=alert(1)>"
SHOW_BOARD = """() => Array.from(document.querySelectorAll('canvas')).filter(c => c.width > 50)[0]
  .scrollIntoView({block: 'center'})"""
"""Scroll the board into the viewport (on a phone the Play with others tab is below it)."""
MOVES = 8
"""Clicks played by the two pages: the six seeds and the first grow-ups, each page in turn (a whole Aspens game is
several hundred actions: too long for a test)."""


def press(page, name: str) -> None:
    """Click a widget button by its label."""
    page.get_by_role("button", name=re.compile(rf"^\W*{re.escape(name)}\s*$")).first.click()


FRAMES: list[str] = []
"""Every websocket frame the pages sent or received (to look for the server key)."""


def keep_frames(ws) -> None:
    """Record a websocket's frames, both ways, as text."""
    for event in ("framesent", "framereceived"):
        ws.on(event, lambda payload: FRAMES.append(payload if isinstance(payload, str)
                                                    else payload.decode("latin-1")))


def server_keys(server) -> set[str]:
    """The key each of the server's kernels was given (read from their environment, as each kernel holds it)."""
    return {env.get("TREEGAMES_TABLES_KEY", "") for env in server.kernel_environs()} - {""}


def open_page(browser, server, width: int):
    """A fresh visitor with the Aspens play page drawn; (context, page, dialogs seen)."""
    context = browser.new_context(viewport={"width": width, "height": 1100})
    page = context.new_page()
    page.on("websocket", keep_frames)
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    harness.open_dashboard(page, server, PATH)
    page.get_by_role("tab", name="Play with others").click()
    return context, page, dialogs


def table_state(authority: Authority, code: str):
    """The authority's (table id, full state) of the table with this code (the test's own reading)."""
    teacher = codes.teacher_code(authority.store.data_dir)
    view = next(v for v in authority.overview(teacher) if v.code == code)
    return view.table_id, authority.state_of(view.table_id)


def play_clicks(authority: Authority, code: str, pages: dict, moves: int) -> None:
    """Play ``moves`` clicks, each by the page whose seat is to move; the other page must redraw by itself."""
    kit = AspensPlay()
    for played in range(moves):
        table_id, state = table_state(authority, code)
        assert not state.is_terminal()
        mover, other = pages[state.current_player], pages[1 - state.current_player]
        places = [p for p in kit.places() if state.actions_at(p)]
        harness.wait_until_stable(other)
        before = harness.canvas_stats(other)["hash"]
        harness.wait_until_stable(mover)
        mover.evaluate(SHOW_BOARD)
        if places:
            harness.click_canvas(mover, *kit.place_centre(places[0]))
        else:
            press(mover, "End turn")
        wait_for_move(authority, table_id, len(state.history), mover, other, played + 1)
        harness.wait_for_drawing(other, differs_from=before)  # redrawn by itself


def wait_for_move(authority: Authority, table_id: str, longer_than: int, mover, other, move: int) -> None:
    """Wait until the table's log is longer than ``longer_than`` actions (the mover's click arrived)."""
    try:
        harness.wait_until(lambda: len(authority.log_of(table_id)) > longer_than, step=0.1,
                           pause=harness.on_page(mover), what=f"move {move} in the authority's log")
    except AssertionError as late:
        harness.screenshot(mover, "tables-failed-mover")
        harness.screenshot(other, "tables-failed-other")
        pytest.fail(f"move {move} did not reach the authority ({late})")


def test_two_visitors_play_by_clicks_and_each_page_follows(browser, served):
    server, authority = served
    ctx_a, a, dialogs_a = open_page(browser, server, 1280)
    ctx_b, b, dialogs_b = open_page(browser, server, 420)
    try:
        a.get_by_placeholder("a first name or a pseudonym").fill(EVIL)
        press(a, "Create table")
        a.locator(".treegames-table-code").wait_for(timeout=WAIT_MS)
        code = a.locator(".treegames-table-code").inner_text().strip()
        assert a.locator(".treegames-table-qr svg").count() == 1
        assert f"?table={code}" in a.locator(".treegames-join-url").inner_text()
        harness.screenshot(a, "tables-created")

        b.get_by_placeholder(re.compile("e.g.")).fill(code)
        press(b, "Join")
        b.locator(".treegames-table-code").wait_for(timeout=WAIT_MS)
        b.get_by_text(EVIL).first.wait_for(timeout=WAIT_MS)  # A's label, literally, on B's page
        harness.screenshot(b, "tables-joined-420")

        play_clicks(authority, code, {0: a, 1: b}, MOVES)
        harness.wait_until_stable(a)
        harness.wait_until_stable(b)
        _, state = table_state(authority, code)
        assert b.locator(".treegames-table-events li").count() > 0
        harness.screenshot(a, "tables-played-a")
        harness.screenshot(b, "tables-played-b-420")
        assert dialogs_a == [] and dialogs_b == [], "no script from a typed label ran"
        assert f"table={code}" in b.url and "seat=" in b.url, "the seat is kept in B's address"
        assert "seat=" not in b.locator(".treegames-join-url").inner_text()
        b.reload(timeout=WAIT_MS)  # a reload is a new kernel: the address brings B back to the same seat, same moment
        harness.wait_for_drawing(b)
        b.get_by_text("Back at your seat").first.wait_for(timeout=WAIT_MS)
        b.get_by_text("you play Pine").first.wait_for(timeout=WAIT_MS)
        steps = len(state.history)
        words = b.locator(".treegames-position-words").first.text_content()
        assert f"At step {steps} (of {steps})" in words, words
        harness.screenshot(b, "tables-reloaded-b-420")
        keys = server_keys(server)
        assert len(keys) == 1, "every kernel has the one server key"
        seen = [a.content(), b.content(), *FRAMES]
        assert len(FRAMES) > 100 and not any(k in text for k in keys for text in seen), "a page saw the key"

        teacher = browser.new_context(viewport={"width": 420, "height": 1000}).new_page()
        try:
            teacher.goto(f"{server.base}/voila/render/class/tables.ipynb", timeout=WAIT_MS)
            teacher.get_by_label("Teacher code").fill(codes.teacher_code(authority.store.data_dir))
            press(teacher, "Show tables")
            row = teacher.locator(".treegames-teacher-tables tr", has_text=code)
            row.wait_for(timeout=WAIT_MS)
            assert EVIL in row.inner_text() and "Seat 1" in row.inner_text()
            harness.screenshot(teacher, "tables-teacher-420")
        finally:
            teacher.context.close()
        assert core.replay(state.game, [str(x) for x in state.history]).to_json() == state.to_json()
    finally:
        ctx_a.close()
        ctx_b.close()


def start_table(browser, server) -> tuple:
    """Page A creates a table, page B (a phone) joins it by code; (contexts, pages, code)."""
    ctx_a, a, _ = open_page(browser, server, 1280)
    ctx_b, b, _ = open_page(browser, server, 420)
    return (ctx_a, ctx_b), (a, b), harness.create_and_join(a, b)


def reopen(page, url: str) -> None:
    """Open ``url`` again in the same tab and wait until the seat is back."""
    page.goto(url, timeout=WAIT_MS)
    harness.wait_for_drawing(page)
    page.get_by_text("Back at your seat").first.wait_for(timeout=WAIT_MS)


def steps_shown(page) -> str:
    """The page's words for where it is in the game ('At step n (of n) ...')."""
    return page.locator(".treegames-position-words").first.text_content()


def test_killed_kernels_and_a_restarted_server_bring_both_players_back_with_no_move_lost(browser, tmp_path):
    folder = tmp_path / "data"
    env = {k: v for k, v in os.environ.items() if not k.startswith("TREEGAMES_TABLES_")}
    env["TREEGAMES_DATA_DIR"] = str(folder)
    server = harness.start_class_server(preheat=False, env=env)
    contexts = ()
    try:
        contexts, (a, b), code = start_table(browser, server)
        store = open_store(f"sqlite:///{folder}/treegames.sqlite3")
        authority = Authority(store)
        play_clicks(authority, code, {0: a, 1: b}, 2)
        table_id, state = table_state(authority, code)
        logged = authority.log_of(table_id)
        for pid in server.live_kernels():  # kill -9 every player's kernel mid-game
            os.kill(pid, 9)
        reopen(a, a.url)
        reopen(b, b.url)
        steps = len(state.history)
        assert f"At step {steps} (of {steps})" in steps_shown(a), steps_shown(a)
        assert authority.log_of(table_id) == logged, "no move lost or doubled by the dead kernels"

        server.stop()  # restart the class server: the tables resume from its SQLite file
        server = harness.start_class_server(preheat=False, env=env)
        for page in (a, b):
            query = page.url.split("?", 1)[1]
            reopen(page, f"{server.base}/voila/render/{PATH}?{query}")
        assert f"At step {steps} (of {steps})" in steps_shown(b), steps_shown(b)
        harness.screenshot(b, "tables-after-restart-b-420")
        play_clicks(authority, code, {0: a, 1: b}, 1)  # and play goes on
        after = authority.log_of(table_id)
        assert after[:len(logged)] == logged and len(after) > len(logged)
        store.close()
    finally:
        for context in contexts:
            context.close()
        server.stop()
    assert server.alive_pids() == []
