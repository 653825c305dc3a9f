"""The kit in Chromium on the Aspens Play page: phone and laptop fit, keyboard play, save -> open, a bot answering
by itself with the dice shown, and no network needed (every non-loopback request blocked)."""

from __future__ import annotations

import json
import re
from urllib.parse import urlparse

import harness
from harness import press, step_until
from treegames import aspens, core
from treegames.aspens import cell_name
from treegames.ui.aspens.scene import HexGeometry

WAIT_MS = harness.WAIT_MS

PATH = "aspens/play.ipynb"
GEO = HexGeometry()
TALL = {"width": 1280, "height": 1150}

BOX_JS = """
(selector) => Array.from(document.querySelectorAll(selector)).map(e => {
  const r = e.getBoundingClientRect();
  return {left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width, height: r.height,
          scrollWidth: e.scrollWidth, clientWidth: e.clientWidth, text: (e.textContent || '').trim(),
          visible: r.width > 0 && r.height > 0};
})
"""


def boxes(page, selector: str) -> list[dict]:
    """Bounding boxes (viewport pixels), scroll and client widths of every element matching a selector."""
    return page.evaluate(BOX_JS, selector)


def wait_step(page, n: int, timeout: float = WAIT_MS) -> None:
    """Wait until the page shows 'Step n of'."""
    page.locator(".widget-html-content", has_text=re.compile(rf"Step {n} of")).first.wait_for(timeout=timeout)


STEP_AT_LEAST_JS = """
(n) => Array.from(document.querySelectorAll('.widget-html-content')).some(e => {
  const m = /Step (\\d+) of/.exec(e.innerText); return m && Number(m[1]) >= n; })
"""


def wait_step_at_least(page, n: int, timeout: float = WAIT_MS) -> None:
    """Wait until the page shows 'Step k of' with k >= n (a bot may answer at once)."""
    page.wait_for_function(STEP_AT_LEAST_JS, arg=n, timeout=timeout)


def open_file(page, path) -> None:
    """Choose a file with the page's Open button (FileUpload makes its file input on click)."""
    with page.expect_file_chooser(timeout=WAIT_MS) as chooser:
        page.locator(".treegames-open").click()
    chooser.value.set_files(str(path))


def step_shown(page) -> int:
    """The 'Step N of M' counter."""
    text = page.locator(".widget-html-content", has_text=re.compile(r"Step \d+ of")).first.inner_text()
    return int(re.search(r"Step (\d+) of", text).group(1))


def first_seed_target() -> aspens.Hex:
    """Where Aspen may seed first in the notebook's game (seed 1: Aspen is chosen to go first)."""
    state = aspens.new_game(setup=2).new_initial_state().apply(aspens.ChooseFirst(aspens.ASPEN))
    return sorted(state.legal_targets()["seed"])[0]


def to_aspens_move(page) -> None:
    """Press Step until the page says it is Aspen's move."""
    for _ in range(8):
        if step_until(page, "Aspen's move"):
            return
    raise AssertionError("never reached Aspen's move")


# ---------------------------------------------------------------- phone and laptop


def test_a_420px_phone_fits_every_canvas_stacks_the_panels_and_maps_clicks_back(browser, voila):
    with harness.loaded_dashboard(browser, voila, PATH, viewport={"width": 420, "height": 900}) as (page, stats,
                                                                                                  errors):
        for canvas in boxes(page, "canvas"):
            if canvas["visible"]:
                assert canvas["left"] >= -0.5 and canvas["right"] <= 420.5, canvas
        assert stats["cssWidth"] < stats["width"], "the board is scaled down by CSS"
        board = boxes(page, "canvas.treegames-board-canvas")[0]
        side = boxes(page, ".treegames-side")[0]
        assert side["top"] >= board["bottom"] - 1, "the panels stack under the board"
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 421, "no sideways scrolling"
        harness.screenshot(page, "kit-phone-420-loaded")
        to_aspens_move(page)
        target = first_seed_target()
        before = harness.wait_until_stable(page)["hash"]
        page.locator("canvas.treegames-board-canvas").scroll_into_view_if_needed()
        harness.click_canvas(page, *GEO.center(target))  # at the scaled position on screen
        wait_step_at_least(page, 2)
        harness.wait_for_drawing(page, differs_from=before)
        x, y = GEO.center(target)
        token = harness.pixel(page, x + GEO.size * 0.3, y + GEO.size * 0.3)
        assert abs(token[0] - 0xE6) < 40 and abs(token[1] - 0x9F) < 40 and token[2] < 60, "Aspen's token there"
        page.get_by_text(f"seeds a starting tree on {cell_name(target)}").first.wait_for(timeout=WAIT_MS)
        assert errors == []
        harness.screenshot(page, "kit-phone-420-planted")


def test_the_board_page_fits_a_phone_too(browser, voila):
    with harness.loaded_dashboard(browser, voila, "aspens/board-and-setups.ipynb",
                                  viewport={"width": 420, "height": 900}) as (page, stats, errors):
        assert stats["cssWidth"] <= 420 and stats["left"] >= 0
        harness.click_canvas(page, *GEO.center(aspens.Hex(0, 0)))
        page.locator(".widget-html-content", has_text="playable space on the centre tile").wait_for(timeout=WAIT_MS)
        assert errors == []
        harness.screenshot(page, "kit-phone-420-board")


def test_at_1024x700_the_whole_board_shows_without_scrolling_and_no_label_is_cut(browser, voila):
    with harness.loaded_dashboard(browser, voila, PATH, viewport={"width": 1024, "height": 700}) as (page, _s,
                                                                                                   errors):
        board = boxes(page, "canvas.treegames-board-canvas")[0]
        assert board["top"] >= 0 and board["bottom"] <= 700 and board["left"] >= 0 and board["right"] <= 1024, board
        side = boxes(page, ".treegames-side")[0]
        assert side["left"] >= board["right"] - 1, "the panel sits beside the board on a laptop"
        step = [b for b in boxes(page, ".treegames-buttons button") if b["text"] == "Step"][0]
        assert step["bottom"] <= 700, "the Step button is on screen too"
        cut = [b["text"] for b in boxes(page, "button") if b["visible"] and b["scrollWidth"] > b["clientWidth"] + 1]
        assert cut == [], f"labels cut: {cut}"
        assert errors == []
        harness.screenshot(page, "kit-laptop-1024x700")


# ---------------------------------------------------------------- keyboard


def test_a_few_moves_by_keyboard_only(browser, voila):
    with harness.loaded_dashboard(browser, voila, PATH, viewport=TALL) as (page, _s, errors):
        page.locator("canvas.treegames-board-canvas").focus()
        page.keyboard.press("s")  # Step: the coin for the first player
        wait_step(page, 1)
        page.keyboard.press("s")  # Aspen (a person) must move: the page says so
        page.get_by_text("Aspen's move").first.wait_for(timeout=WAIT_MS)
        before = harness.wait_until_stable(page)["hash"]
        page.keyboard.press("Tab")
        page.get_by_text("Cursor on").first.wait_for(timeout=WAIT_MS)
        first = page.locator(".treegames-message").inner_text()
        cursor_drawn = harness.wait_for_drawing(page, differs_from=before)
        page.keyboard.press("ArrowDown")
        page.wait_for_function("(t) => !document.querySelector('.treegames-message').innerText.includes(t)",
                               arg=first.split(":")[0], timeout=WAIT_MS)
        harness.wait_for_drawing(page, differs_from=cursor_drawn["hash"])
        chosen = re.search(r"Cursor on (\w+)", page.locator(".treegames-message").inner_text()).group(1)
        page.keyboard.press("Enter")
        wait_step(page, 3)  # Aspen's seed, and Pine answers by itself
        log = page.get_by_label("Event log").inner_text().replace("\xa0", " ")
        assert f"Aspen seeds a starting tree on {chosen}" in log
        page.keyboard.press("Tab")
        page.get_by_text("Cursor on").first.wait_for(timeout=WAIT_MS)
        page.keyboard.press("Enter")
        wait_step(page, 5)
        harness.screenshot(page, "kit-keyboard-two-seeds")
        spoken = page.locator("[aria-live=polite]").first.inner_text()
        assert "At step 5 (of 5)" in spoken and "Aspen owns 2 spaces" in spoken, spoken
        page.keyboard.press("b")  # Back
        wait_step(page, 4)
        page.keyboard.press("Escape")
        page.wait_for_function("() => (document.activeElement.textContent || '').trim() === 'Step'", timeout=WAIT_MS)
        tooltip = page.get_by_role("button", name=re.compile(r"^\W*Step\s*$")).get_attribute("title")
        assert "(S)" in tooltip
        assert errors == []


# ---------------------------------------------------------------- save, open, answering


def test_save_then_open_round_trip_and_a_tampered_file_changes_nothing(browser, voila, tmp_path):
    with harness.loaded_dashboard(browser, voila, PATH, viewport=TALL) as (page, _s, errors):
        harness.open_settings(page)
        page.get_by_role("checkbox", name="Bots answer by themselves").uncheck()
        for n in range(1, 4):  # the coin, Aspen's seed (a click), Pine's seed (Step)
            if n == 2:
                harness.click_canvas(page, *GEO.center(first_seed_target()))
            else:
                press(page, "Step")
            wait_step(page, n)
        saved_hash = harness.wait_until_stable(page)["hash"]
        page.get_by_role("tab", name="Save / Open").click()
        with page.expect_download(timeout=WAIT_MS) as download:
            page.get_by_role("link", name="Download this game").click()
        path = tmp_path / "game.json"
        download.value.save_as(path)
        data = json.loads(path.read_text())
        assert data["game"] == "aspens" and len(data["history"]) == 3
        assert core.replay(aspens.new_game(**data["options"]), data["history"]).history[1] == aspens.Seed(
            first_seed_target())
        with page.expect_download(timeout=WAIT_MS) as picture:
            page.get_by_role("link", name="Save picture").click()
        svg = tmp_path / "board.svg"
        picture.value.save_as(svg)
        assert svg.read_text().startswith("<svg") and "polygon" in svg.read_text()
        page.get_by_role("tab", name="New game").click()
        press(page, "Start new game")
        page.get_by_role("tab", name="Event log").click()
        wait_step(page, 0)
        assert harness.wait_until_stable(page)["hash"] != saved_hash
        page.get_by_role("tab", name="Save / Open").click()
        open_file(page, path)
        page.get_by_text("Opened a saved game").first.wait_for(timeout=WAIT_MS)
        page.get_by_role("tab", name="Event log").click()
        wait_step(page, 3)
        assert harness.wait_until_stable(page)["hash"] == saved_hash, "the same picture as when saved"
        bad = tmp_path / "tampered.json"
        bad.write_text(json.dumps({**data, "history": [*data["history"], "seed A1"]}))
        page.get_by_role("tab", name="Save / Open").click()
        open_file(page, bad)
        page.get_by_text("Could not open that file").first.wait_for(timeout=WAIT_MS)
        page.get_by_role("tab", name="Event log").click()
        assert "history[3]" in page.locator(".treegames-message").inner_text()
        assert step_shown(page) == 3 and harness.wait_until_stable(page)["hash"] == saved_hash
        assert errors == []
        harness.screenshot(page, "kit-save-open-refused")


def walkthrough_opening() -> list[str]:
    """Seeding, growing and Aspen's first rolls, as the rules walkthrough plays them (Aspen then plants)."""
    return (["first Aspen", "seed H5", "seed H11", "seed G12", "seed G5", "seed K6", "seed L7", "grow-up H5",
             "grow-up H5", "grow-up G12", "grow-up G12"] + ["grow-up L7"] * 4 + ["sun 3", "wind E"])


def test_after_end_turn_the_bot_answers_by_itself_with_the_dice_shown(browser, voila, tmp_path):
    game = aspens.new_game(setup=2)
    state = core.replay(game, walkthrough_opening())
    path = tmp_path / "aspen-to-plant.json"
    path.write_text(state.to_json())
    with harness.loaded_dashboard(browser, voila, PATH, viewport=TALL) as (page, _s, errors):
        page.get_by_role("tab", name="Save / Open").click()
        open_file(page, path)
        page.get_by_role("tab", name="Event log").click()
        wait_step(page, 17)
        for cell in ("H6", "G7", "G8"):  # Aspen plants its three trees, as in the walkthrough
            page.locator("canvas.treegames-board-canvas").scroll_into_view_if_needed()
            harness.click_canvas(page, *GEO.center(aspens.parse_cell(cell)))
            page.get_by_text(f"to {cell}").first.wait_for(timeout=WAIT_MS)
        wait_step(page, 20)
        dice_before = harness.wait_until_stable(page, 1)["hash"]
        press(page, "End turn")
        page.get_by_role("button", name=re.compile(r"Pause")).wait_for(timeout=WAIT_MS)
        page.get_by_role("heading", name=re.compile(r"Aspen to move")).wait_for(timeout=WAIT_MS)
        page.get_by_role("button", name=re.compile(r"^\W*Auto-play\s*$")).wait_for(timeout=WAIT_MS)
        assert step_shown(page) > 24, "Pine rolled, planted and ended its turn, then Aspen's dice were rolled"
        assert harness.canvas_stats(page, 1)["hash"] != dice_before, "the dice show the new rolls"
        log = page.get_by_label("Event log").inner_text().replace("\xa0", " ")
        assert "Pine" in log and "Wind die shows" in log
        assert errors == []
        harness.screenshot(page, "kit-bot-answered")


# ---------------------------------------------------------------- offline


def test_the_play_page_needs_no_network(browser, voila):
    context = browser.new_context(viewport=TALL)
    blocked: list[str] = []

    def only_loopback(route):
        host = urlparse(route.request.url).hostname
        if host in ("127.0.0.1", "localhost"):
            route.continue_()
        else:
            blocked.append(route.request.url)
            route.abort()

    context.route("**/*", only_loopback)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    try:
        stats = harness.open_dashboard(page, voila, PATH)
        assert stats["inked"] > 100_000
        assert page.locator("i.fa, .fa-step-forward, [class*='fa-']").count() == 0, "no Font Awesome icons"
        mask = page.evaluate("""() => { const b = Array.from(document.querySelectorAll('button'))
            .find(b => b.textContent.trim() === 'Step'); const s = getComputedStyle(b, '::before');
            return [s.webkitMaskImage || s.maskImage, s.width]; }""")
        assert mask[0].startswith('url("data:image/svg+xml') and mask[1] == "13px", mask
        press(page, "Step")
        wait_step(page, 1)
        # Voila 0.5's lab template links Font Awesome from a CDN; the class server's template drops those
        # links (treegames.serving.settings.TEMPLATE), so nothing may ask the network.
        assert blocked == [], f"the page asked the network for {blocked}"
        assert errors == []
        harness.screenshot(page, "kit-offline")
    finally:
        context.close()
