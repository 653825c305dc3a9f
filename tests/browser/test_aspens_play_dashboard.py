"""The Aspens play dashboard in Voila and Chromium: drawn on load, Step changes it, clicks plant or explain."""

from __future__ import annotations

import random

import pytest

import harness
from harness import press, step_until
from treegames import aspens, core
from treegames.aspens.data import Hex
from treegames.ui.aspens.scene import HexGeometry

WAIT_MS = harness.WAIT_MS

PATH = "aspens/play.ipynb"
GEO = HexGeometry()

@pytest.fixture(scope="module")
def play_page(browser, voila):
    """The play dashboard, loaded once for this module's tests (which run in order)."""
    with harness.loaded_dashboard(browser, voila, PATH, viewport={"width": 1280, "height": 1150}) as loaded:
        yield loaded


def seed_targets_for_aspen() -> list[Hex]:
    """Where Aspen may seed on the notebook's game (setup 2, seed 1) once Aspen is to move."""
    game = aspens.new_game(setup=2)
    state = game.new_initial_state()
    return sorted(state.apply(aspens.ChooseFirst(aspens.ASPEN)).legal_targets()["seed"])


def test_the_board_is_drawn_on_load(play_page):
    page, stats, errors = play_page
    assert stats["width"] == GEO.width and stats["inked"] > 100_000
    assert harness.canvas_stats(page, 1)["inked"] > 500, "the dice are drawn too"
    assert errors == []
    harness.screenshot(page, "play-loaded")


def test_step_rolls_and_changes_the_board(play_page):
    page, first, _ = play_page
    for _ in range(6):  # first-player roll, then the bot's seeds if Pine starts, until Aspen must move
        aspens_move = step_until(page, "Aspen's move")
        after = harness.wait_until_stable(page)["hash"]
        if aspens_move:
            break
    assert after != first["hash"], "rolling for the first player highlights where Aspen may seed"
    page.get_by_text("Aspen's move").first.wait_for(timeout=WAIT_MS)
    harness.screenshot(page, "play-after-step")


def test_clicking_water_explains_and_leaves_the_board_unchanged(play_page):
    page, _, errors = play_page
    before = harness.wait_until_stable(page)["hash"]
    water = sorted(aspens.make_board(2).water)[0]
    harness.click_canvas(page, *GEO.center(water))
    page.locator(".widget-html-content", has_text="Not allowed").wait_for(timeout=WAIT_MS)
    assert "water" in page.locator(".widget-html-content", has_text="Not allowed").first.inner_text().lower()
    assert harness.wait_until_stable(page)["hash"] == before
    assert errors == []
    harness.screenshot(page, "play-refused-water")


def test_clicking_a_highlighted_hex_plants_there(play_page):
    page, _, errors = play_page
    before = harness.wait_until_stable(page)
    free = [c for c in seed_targets_for_aspen()]
    target = free[0]
    x, y = GEO.center(target)
    under = harness.pixel(page, x + GEO.size * 0.55, y)
    harness.click_canvas(page, x, y)
    harness.wait_for_drawing(page, differs_from=before["hash"])
    after = harness.wait_until_stable(page)
    token = harness.pixel(page, x + GEO.size * 0.3, y + GEO.size * 0.3)
    assert token[:3] != under[:3], "the hex now shows a tree token"
    assert abs(token[0] - 0xE6) < 40 and abs(token[1] - 0x9F) < 40 and abs(token[2] - 0x00) < 60, token
    assert after["hash"] != before["hash"]
    assert errors == []
    harness.screenshot(page, "play-planted")


def test_odds_tab_draws_the_exact_gains(play_page):
    page, _, errors = play_page
    page.get_by_role("tab", name="Odds").click()
    page.get_by_text("The next Sun roll, exactly").first.wait_for(timeout=WAIT_MS)
    board_and_dice = 2
    stats = harness.wait_for_drawing(page, index=board_and_dice, min_inked=2000)
    assert stats["width"] == 440
    page.get_by_role("tab", name="Odds").scroll_into_view_if_needed()
    harness.screenshot(page, "play-odds-tab")
    page.get_by_role("tab", name="Event log").click()
    assert errors == []


def late_game(steps_left: int = 40, seed: int = 5) -> str:
    """A game of two greedy bots stopped ``steps_left`` steps before its end, as saved-game JSON."""
    def play(limit: int):
        rng, bots = random.Random(seed), [aspens.GreedyBot(random.Random(seed + p)) for p in range(2)]
        state, steps = aspens.new_game(setup=2).new_initial_state(), 0
        while not state.is_terminal() and steps < limit:
            state, steps = core.step(state, bots, rng), steps + 1
        return state, steps

    _end, length = play(10_000)
    return play(length - steps_left)[0].to_json()


def test_auto_play_watches_two_bots_to_the_end(play_page, tmp_path):
    """Both seats bots (the New game tab), a late moment of a game opened, then Auto-play plays it out."""
    page, _, errors = play_page
    page.get_by_role("tab", name="New game").click()
    page.locator(".widget-dropdown", has_text="Aspen").locator("select").first.select_option(label="Bot (greedy)")  # New game tab
    press(page, "Start new game")
    saved = tmp_path / "late-game.json"
    saved.write_text(late_game())
    page.get_by_role("tab", name="Save / Open").click()
    with page.expect_file_chooser(timeout=WAIT_MS) as chooser:
        page.locator(".treegames-open").first.click()
    chooser.value.set_files(str(saved))
    page.get_by_text("Opened a saved game").wait_for(timeout=WAIT_MS)
    page.get_by_role("tab", name="Event log").click()
    harness.open_settings(page)
    readout = page.locator(".widget-inline-hbox", has_text="steps/s").locator("input")  # the speed is a labelled number box (issue 21)
    readout.click()
    page.keyboard.press("Control+A")
    page.keyboard.type("30")
    page.keyboard.press("Enter")
    press(page, "Auto-play")
    page.get_by_text("Game over").wait_for(timeout=2 * WAIT_MS)
    assert errors == []
    harness.screenshot(page, "play-bots-finished")
