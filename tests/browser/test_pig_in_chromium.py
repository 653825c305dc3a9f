"""Pig, the tests' plug-in game, in Chromium on the real class server: listed, played, and shared (issue 31).

The class server serves a copy of ``notebooks/`` with Pig's own notebook folder added (as a teacher would
add a game's pages), and its kernels see Pig through ``PYTHONPATH`` (tests/conftest.py). Nothing in
treegames names Pig. On SQLite and on PostgreSQL, two visitors play at one shared table by clicking the
Roll and Hold buttons on the picture; each page redraws by itself after the other's move.
"""

from __future__ import annotations

import os
import re
import shutil

import pytest

import harness
from pgserver import database_name, postgres_server  # noqa: F401 - the session's PostgreSQL fixture
from treegames.service import codes
from treegames.service.store import open_store
from treegames.tables.authority import Authority

WAIT_MS = harness.WAIT_MS
PATH = "pig/play.ipynb"
MOVES = 8
"""Clicks played by the two pages at the shared table."""


@pytest.fixture(scope="module")
def root(tmp_path_factory):
    """The notebooks folder with Pig's pages added beside the product's."""
    folder = tmp_path_factory.mktemp("served") / "notebooks"
    shutil.copytree(harness.NOTEBOOKS, folder, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    shutil.copytree(harness.ROOT / "tests" / "plugins" / "pig" / "notebooks" / "pig", folder / "pig")
    return folder


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def served(request, root, tmp_path_factory):
    """The class server on ``root`` with its tables on one backend, shared by the module's tests on that backend
    (each test makes its own table); (server, an authority reading the same store, the data folder)."""
    folder = tmp_path_factory.mktemp(f"data-{request.param}")
    if request.param == "sqlite":
        url, extra = f"sqlite:///{folder}/treegames.sqlite3", []
    else:
        url = request.getfixturevalue("postgres_server").new_database(database_name(request.node.nodeid))
        extra = [f"--store={url}"]
    env = {k: v for k, v in os.environ.items() if not k.startswith("TREEGAMES_TABLES_")}
    server = harness.start_class_server(root, preheat=False, extra=extra, env={**env, "TREEGAMES_DATA_DIR": str(folder)})
    store = open_store(url)
    try:
        yield server, Authority(store, teacher_code=codes.teacher_code(folder)), folder
    finally:
        store.close()
        server.stop()
    assert server.alive_pids() == []


def open_pig(browser, server, width: int):
    """A fresh visitor on Pig's Play page, drawn, with the Play with others tab open."""
    context = browser.new_context(viewport={"width": width, "height": 1000})
    page = context.new_page()
    harness.open_dashboard(page, server, PATH)
    page.get_by_role("tab", name="Play with others").click()
    return context, page


def click_place(page, place: str) -> None:
    """Click the Roll or Hold button drawn on the picture."""
    from pig_game.play import button_centre

    page.evaluate("""() => Array.from(document.querySelectorAll('canvas')).filter(c => c.width > 50)[0]
      .scrollIntoView({block: 'center'})""")
    harness.click_canvas(page, *button_centre(place))


def test_the_landing_page_lists_pig_and_its_play_page_rolls_on_a_click(browser, served):
    server, _authority, _folder = served
    page = browser.new_context(viewport={"width": 420, "height": 900}).new_page()
    try:
        page.goto(f"{server.base}/voila/render/index.ipynb", timeout=WAIT_MS)
        page.get_by_role("heading", name="Pig").wait_for(timeout=WAIT_MS)
        page.get_by_role("link", name="Pig: play").click()
        page.wait_for_url(re.compile(r"pig/play\.ipynb"), timeout=WAIT_MS)
        harness.wait_for_drawing(page, min_inked=3000)
        stats = harness.wait_until_stable(page)
        assert stats["cssWidth"] <= 420, "the race fits a phone"
        harness.screenshot(page, "pig-play-420")
        for _ in range(10):  # Step through the first-player draw (and the greedy bot's turn, if it starts)
            if page.get_by_text("click a highlighted button").count():
                break
            harness.step_until(page, "click a highlighted button")
        before = harness.wait_until_stable(page)["hash"]
        click_place(page, "roll")
        harness.wait_for_drawing(page, min_inked=3000, differs_from=before)
        page.get_by_text(re.compile(r"Player \d rolls")).first.wait_for(timeout=WAIT_MS)
        harness.screenshot(page, "pig-rolled-420")
    finally:
        page.context.close()


def test_two_visitors_play_pig_at_a_shared_table_and_each_page_follows(browser, served):
    server, authority, folder = served
    ctx_a, a = open_pig(browser, server, 1280)
    ctx_b, b = open_pig(browser, server, 420)
    try:
        code = harness.create_and_join(a, b)
        teacher = codes.teacher_code(folder)
        table_id = next(v.table_id for v in authority.overview(teacher) if v.code == code)
        pages = {0: a, 1: b}
        for move in range(MOVES):
            state = authority.state_of(table_id)
            assert not state.is_terminal()
            mover, other = pages[state.current_player], pages[1 - state.current_player]
            harness.wait_until_stable(other)
            before = harness.canvas_stats(other)["hash"]
            harness.wait_until_stable(mover)
            place = "hold" if state.turn >= 8 else "roll"
            click_place(mover, place)
            done = len(state.history)
            harness.wait_until(lambda done=done: len(authority.log_of(table_id)) > done, step=0.1,
                               pause=harness.on_page(mover), what=f"move {move + 1} in the authority's log")
            harness.wait_for_drawing(other, min_inked=3000, differs_from=before)  # redrawn by itself
        log = authority.log_of(table_id)
        assert any(entry.startswith("die ") for entry in log), "the authority rolled: the pages only asked"
        harness.screenshot(a, "pig-table-a")
        harness.screenshot(b, "pig-table-b-420")
    finally:
        ctx_a.close()
        ctx_b.close()
