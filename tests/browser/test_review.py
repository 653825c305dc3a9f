"""Review on the Bosk Play page in Chromium: open a finished game, press R, see progress then the moves, pick one
by Tab and Enter on a 420 px phone, then another by mouse at 1280 px (one review, both widths), and the board shows
the position before it; a Mighty Trees review marks its cards and passes axe."""

from __future__ import annotations

import random
import re

from axe_playwright_python.sync_playwright import Axe

import harness
from treegames import bosk, core

WAIT_MS = harness.WAIT_MS

PATH = "bosk/play.ipynb"


def finished_game(name: str = "bosk", seed: int = 1) -> str:
    """A 2-player game of greedy bots played to the end, as saved-game JSON."""
    rng = random.Random(seed)
    game_type = core.games()[name]
    bots = [game_type.bots["greedy"](random.Random(seed + p)) for p in range(2)]
    state = (bosk.new_game(2) if name == "bosk" else game_type.new_game()).new_initial_state()
    while not state.is_terminal():
        state = core.step(state, bots, rng)
    return state.to_json()


def open_finished_game(page, tmp_path, name: str = "bosk") -> None:
    """Open a finished game through the Save / Open tab, as a visitor would."""
    saved = tmp_path / f"{name}-finished.json"
    saved.write_text(finished_game(name))
    page.get_by_role("tab", name="Save / Open").click()
    with page.expect_file_chooser(timeout=WAIT_MS) as chooser:
        page.locator(".treegames-open").first.click()
    chooser.value.set_files(str(saved))
    page.get_by_text("Opened a saved game").wait_for(timeout=WAIT_MS)
    harness.wait_until_stable(page)


def review_button(page):
    """The Review button."""
    return page.locator(".treegames-review").get_by_role("button", name=re.compile(r"^\W*Review\s*$"))


def wait_for_review(page) -> None:
    """Progress first ('position N of M'), then listed moves, then the end of the review."""
    page.locator(".treegames-review-progress", has_text=re.compile(r"position \d+ of \d+")).wait_for(
        timeout=WAIT_MS)
    page.locator(".treegames-review-list option").first.wait_for(state="attached", timeout=WAIT_MS)
    page.locator(".treegames-review-progress", has_text="positions reviewed").wait_for(timeout=2 * WAIT_MS)
    page.locator(".treegames-review", has_text="estimates from random playouts").wait_for(timeout=WAIT_MS)


def no_sideways_scroll(page, width: int) -> None:
    """The page is no wider than the window."""
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width + 1, "no sideways scrolling"


def test_review_by_keyboard_on_a_phone_then_a_click_at_1280_shows_the_board_before_a_move(browser, voila, tmp_path):
    with harness.loaded_dashboard(browser, voila, PATH, viewport={"width": 420, "height": 900}) as (page, _s,
                                                                                                  errors):
        assert page.locator(".treegames-review .treegames-buttons").is_hidden()  # the game has only begun: no Review yet
        open_finished_game(page, tmp_path)
        assert review_button(page).is_visible() and review_button(page).is_enabled()
        page.locator("canvas.treegames-board-canvas").focus()
        page.keyboard.press("r")
        wait_for_review(page)
        options = page.locator(".treegames-review-list option")
        assert options.count() > 20
        first = options.first.inner_text().replace("\xa0", " ")
        assert re.match(r"^(⚠ turning point · )?1\. (Maple|Oak): .+ · \d+→\d+% \([−+±]\d+\)$", first), first
        marked = page.locator(".treegames-review-list option", has_text="turning point")
        assert all(text.startswith("⚠") for text in marked.all_inner_texts())  # a symbol and a word, not colour
        no_sideways_scroll(page, 420)
        page.locator(".treegames-review").scroll_into_view_if_needed()
        harness.screenshot(page, "review-phone-420")
        before = harness.wait_until_stable(page)["hash"]
        review_button(page).focus()
        page.keyboard.press("Tab")  # past the (off) Cancel button: the first turning point, else the list
        focused = page.evaluate("() => document.activeElement.tagName + ' ' + document.activeElement.innerText")
        if focused.startswith("BUTTON"):
            assert "Turning point" in focused
            page.keyboard.press("Enter")
        else:
            assert focused.startswith("SELECT"), focused
            page.keyboard.press("ArrowDown")
        page.locator(".treegames-review-detail", has_text="Move ").wait_for(timeout=WAIT_MS)
        harness.wait_for_drawing(page, differs_from=before)
        picked = harness.wait_until_stable(page)["hash"]
        no_sideways_scroll(page, 420)
        page.locator(".treegames-review-detail").scroll_into_view_if_needed()
        harness.screenshot(page, "review-phone-420-picked")
        page.locator("canvas.treegames-board-canvas").scroll_into_view_if_needed()
        harness.screenshot(page, "review-phone-420-board")

        # the same review on a laptop: a click on another move shows the board before it
        page.set_viewport_size({"width": 1280, "height": 1000})
        harness.wait_until(lambda: page.evaluate("() => window.innerWidth") == 1280, pause=harness.on_page(page),
                           what="the page at 1280 px")
        no_sideways_scroll(page, 1280)
        selected = page.evaluate("() => document.querySelector('.treegames-review-list select').selectedIndex")
        options.nth(11 if selected == 10 else 10).click()
        page.locator(".treegames-review-detail", has_text="wide black-and-white ring").wait_for(timeout=WAIT_MS)
        harness.wait_for_drawing(page, differs_from=picked)
        harness.wait_until_stable(page)
        harness.screenshot(page, "review-desktop-1280")
        assert errors == []


def test_a_mighty_trees_review_marks_cards_and_passes_axe(browser, voila, tmp_path):
    with harness.loaded_dashboard(browser, voila, "mighty_trees/play.ipynb") as (page, _stats, errors):
        open_finished_game(page, tmp_path, "mighty_trees")
        review_button(page).click()
        wait_for_review(page)
        before = harness.wait_until_stable(page)["hash"]
        page.locator(".treegames-review-list option").nth(2).click()
        page.locator(".treegames-review-detail", has_text="Move ").wait_for(timeout=WAIT_MS)
        harness.wait_for_drawing(page, differs_from=before)
        harness.wait_until_stable(page)
        no_sideways_scroll(page, 1280)
        harness.screenshot(page, "review-mighty-trees-1280")
        found = Axe().run(page).response["violations"]
        blocking = [f"{v['id']}: {v['help']}" for v in found if v["impact"] in ("serious", "critical")]
        assert blocking == []
        assert errors == []
