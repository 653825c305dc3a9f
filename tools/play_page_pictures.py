"""Screenshots of every Play page at 1280 and 420 px, on its own and at a shared table, for judging a layout change.

Run: python tools/play_page_pictures.py LABEL [--code DIR]

The class server is started from this checkout's Python with ``DIR/widgets`` first on ``PYTHONPATH``
(default: this checkout), so the pictures of an older commit come from a worktree of it::

    git worktree add /tmp/before <commit>
    python tools/play_page_pictures.py before --code /tmp/before
    python tools/play_page_pictures.py after

The pictures go to ``artifacts/play-pages/LABEL/``: ``<game>-local-<width>.png`` (the page as it opens, its
first screen) and ``<game>-shared-<a|b>-<width>.png`` (page A created a table, page B joined it; B is on a
420 px phone when A is at 1280 px, and the other way round).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
import harness  # noqa: E402 - the tests' server and browser helpers

GAMES = ("aspens", "bosk", "mighty_trees")
SIZES = {1280: {"width": 1280, "height": 1000}, 420: {"width": 420, "height": 900}}


def local(browser, server, game: str, width: int, out: Path) -> None:
    """The Play page on its own, as it opens."""
    context = browser.new_context(viewport=SIZES[width])
    page = context.new_page()
    try:
        harness.open_dashboard(page, server, f"{game}/play.ipynb")
        harness.wait_until_stable(page)
        page.screenshot(path=str(out / f"{game}-local-{width}.png"))
    finally:
        context.close()


def shared(browser, server, game: str, width: int, out: Path) -> None:
    """Page A (at ``width``) creates a table and page B (at the other width) joins it."""
    other = 420 if width == 1280 else 1280
    pages = []
    try:
        for w in (width, other):
            context = browser.new_context(viewport=SIZES[w])
            page = context.new_page()
            pages.append(page)
            harness.open_dashboard(page, server, f"{game}/play.ipynb")
            page.get_by_role("tab", name="Play with others").click()
        a, b = pages
        harness.create_and_join(a, b)
        for name, page, w in (("a", a, width), ("b", b, other)):
            harness.wait_until_stable(page)
            page.evaluate("() => window.scrollTo(0, 0)")
            page.screenshot(path=str(out / f"{game}-shared-{name}-{w}.png"))
    finally:
        for page in pages:
            page.context.close()


def main() -> None:
    """Start the server on the chosen code, take every picture, stop the server."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("label")
    parser.add_argument("--code", type=Path, default=ROOT, help="the checkout whose widgets/ the server runs")
    args = parser.parse_args()
    out = harness.ARTIFACTS / "play-pages" / args.label
    out.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "PYTHONPATH": str(args.code.resolve() / "widgets")}
    env = {k: v for k, v in env.items() if not k.startswith("TREEGAMES_TABLES_")}
    env["TREEGAMES_DATA_DIR"] = str(out / "data")
    server = harness.start_class_server(args.code.resolve() / "notebooks", preheat=False, env=env)
    try:
        from playwright.sync_api import sync_playwright

        with sync_playwright() as p:
            browser = harness.launch_chromium(p)
            for game in GAMES:
                for width in SIZES:
                    local(browser, server, game, width, out)
                    shared(browser, server, game, width, out)
            browser.close()
    finally:
        server.stop()
    print(f"pictures in {out}")


if __name__ == "__main__":
    main()
