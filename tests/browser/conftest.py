"""Fixtures for browser tests: one Voila server per session and one headless Chromium per module, all stopped."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import harness  # noqa: E402
from treegames.service.store import open_store  # noqa: E402
from treegames.tables.authority import Authority  # noqa: E402

IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")


def _need_chromium() -> None:
    """Skip (locally) or fail (under CI=true) when Debian's Chromium is missing."""
    if not harness.CHROMIUM.exists():
        message = f"browser tests need Debian's chromium at {harness.CHROMIUM} (apt-get install chromium)"
        if IN_CI:
            pytest.fail(message)
        pytest.skip(message)


@pytest.fixture(scope="session")
def voila():
    """The class server on a free loopback port serving notebooks/, stopped with its kernels.

    Kernels start when a page asks, as ``make serve --no-preheat`` does: a pool of sixteen preheated
    kernels per worker refills behind every page, and the same 72 tests took 258 s and 490 CPU-s on
    pooled pages against 228 s and 381 CPU-s (2026-12-06, forked kernels both). ``TREEGAMES_TEST_POOLED=1``
    runs them on pooled pages (``make test-pooled``), to show a page from the pool behaves as one started
    on arrival. The preheated path also has its own tests in ``make test`` (test_serving_pages.py's
    arrivals, test_class_experiment.py, tests/serving/test_preheat_handover.py).
    """
    _need_chromium()
    server = harness.start_voila(preheat=os.environ.get("TREEGAMES_TEST_POOLED") == "1")
    yield server
    server.stop()
    assert server.alive_pids() == [], "Voila or one of its kernels survived stop()"


@pytest.fixture(scope="session")
def browser():
    """Debian's headless Chromium driven by Playwright, one per test process, its tabs recycled between tests.

    Every context and page has the generous harness deadline as Playwright's default timeout
    (Playwright's own 30 s is sized for a quick machine).

    One for the whole session, not one per module: starting Playwright's driver and Chromium costs
    about 1 CPU-second, and a module's first page another 2 to compile the page's scripts in a new
    tab (see TabPool). Playwright's sync API leaves its event loop marked as running in this thread
    between calls, which would make every other test's ``asyncio.run`` fail; the tests that do not use
    Chromium run with that mark hidden (``pytest_runtest_protocol`` in tests/conftest.py).
    """
    _need_chromium()
    import asyncio

    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = harness.launch_chromium(p)
        harness.TabPool(chromium)  # contexts a test closes are reset and reused (see TabPool)
        loop = asyncio._get_running_loop()  # Playwright's, set again by every sync call
        yield chromium
        asyncio._set_running_loop(loop)  # the last test may not be a browser test: its loop was hidden
        chromium.close()


@pytest.fixture
def page(browser):
    """A page with nothing loaded (a recycled tab, reset) at a fixed viewport; console errors are collected on it."""
    context = browser.new_context(viewport=harness.VIEWPORT)
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda err: page.errors.append(str(err)))
    yield page
    context.close()


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """For the shared-table tests: the class server with the tables mounted, its store in a fresh data folder; (server, authority for reading)."""
    folder = tmp_path_factory.mktemp("tables")
    env = {k: v for k, v in os.environ.items() if not k.startswith("TREEGAMES_TABLES_")}
    server = harness.start_class_server(preheat=False, env={**env, "TREEGAMES_DATA_DIR": str(folder)})
    store = open_store(f"sqlite:///{folder}/treegames.sqlite3")
    try:
        yield server, Authority(store)
    finally:
        store.close()
        server.stop()
    assert server.alive_pids() == []
