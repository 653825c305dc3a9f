"""Playing without seeing the board: a whole Aspens game by keyboard and the accessibility tree alone.

Only the keyboard and what assistive technology reads are used: ``get_by_role`` / ``get_by_label``, the
board's tables ("The board in words"), the move box and the polite live region; never canvas coordinates or
pixels.  The game must end with the score the engine gives for the moves played (the saved game, replayed).
Also: the skip link, a visible focus outline on every control, and focus staying in the move box after a move.
"""

from __future__ import annotations

import base64
import json
import re
import urllib.parse

import pytest

import harness
from treegames import aspens

WAIT_MS = harness.WAIT_MS

PATH = "aspens/play.ipynb"
MAY = re.compile(r"\(may (seed|grow up|grow out)")
NOTATION = {"seed": "seed", "grow up": "grow-up", "grow out": "grow-out"}

OUTLINE_JS = """
() => { const e = document.activeElement; const s = getComputedStyle(e);
  return {tag: e.tagName, text: (e.textContent || e.getAttribute('aria-label') || '').trim().slice(0, 40),
          style: s.outlineStyle, width: parseFloat(s.outlineWidth) || 0}; }
"""


SNAPSHOT_JS = """
() => { const one = (s) => { const e = document.querySelector(s); return e ? e.innerText : ''; };
  const board = Array.from(document.querySelectorAll('table')).find(t => t.caption
    && t.caption.textContent.trim().startsWith('The board'));
  return {spoken: one('.treegames-announcer [aria-live=polite]'), panel: one('.treegames-move-panel'),
          board: board ? board.innerText : '', message: one('.treegames-message'),
          box: document.querySelector('.treegames-move-box input').value,
          in_box: document.activeElement.closest('.treegames-move-box') !== null}; }
"""
"""What a screen-reader user has at hand, read in one call: the live region, the move panel, the board's
table (as its rows of cells read), the message line, the move box and whether it has the focus."""

AFTER_MOVE_JS = """
(before) => { const one = (s) => { const e = document.querySelector(s); return e ? e.innerText : ''; };
  return one('.treegames-announcer [aria-live=polite]') !== before
    && document.querySelector('.treegames-move-box input').value === ''
    && (/legal moves? now/.test(one('.treegames-move-panel')) || /game has ended/.test(one('.treegames-announcer'))); }
"""
"""A typed move was played: new words in the live region, the box emptied, and a person is to move or the game is over."""


def pick_move(board: str) -> str:
    """A legal move read from the board's table (its text as read): the first hex the mover may use, else end the turn."""
    rows = [line.split("\t") for line in board.split("\n")[1:] if line.strip()]
    columns = rows[0]
    for row in rows[1:]:
        for heading, cell in zip(columns[1:], row[1:], strict=False):
            found = MAY.search(cell)
            if found:
                return f"{NOTATION[found.group(1)]} {row[0].strip()}{heading.strip()}"
    return "end-turn"


def spoken(page) -> str:
    """What the polite live region says now."""
    return page.locator(".treegames-announcer [aria-live=polite]").inner_text()


def wait_change(page, before: str, timeout: float = WAIT_MS) -> None:
    """Wait until the live region says something new."""
    page.wait_for_function(
        "(b) => { const e = document.querySelector('.treegames-announcer [aria-live=polite]');"
        " return e && e.innerText !== b; }", arg=before, timeout=timeout)


def step_by_keyboard(page, step, said: str) -> None:
    """Press Enter on Step, then wait until the live region says something new or a person is to move.

    A Step pressed while a person is to move only says "your move" (no new moment), so the wait also ends once
    the move panel lists the person's moves.  If nothing changes, the failure says what the page shows and,
    from the kernel's answer to Back, where the kernel's game really is (how a page that missed the changes
    made before it connected was found: it showed step 10 of 10 while the kernel was at 11).
    """
    step.focus()
    focused = page.evaluate("() => (document.activeElement.textContent || '').trim()")
    page.keyboard.press("Enter")
    try:
        page.wait_for_function(
            "(b) => { const e = document.querySelector('.treegames-announcer [aria-live=polite]');"
            " const t = document.querySelector('.treegames-move-panel').innerText;"
            " return (e && e.innerText !== b) || /legal moves? now/.test(t); }", arg=said, timeout=WAIT_MS)
    except Exception as err:  # say what the page shows, and where the kernel is
        now = page.evaluate(SNAPSHOT_JS)
        harness.screenshot(page, "step-by-keyboard-timeout")
        side = page.locator(".treegames-side").inner_text()
        page.get_by_role("button", name=re.compile(r"^\W*Back\s*$")).click()
        try:
            page.wait_for_function("(p) => document.querySelector('.treegames-side').innerText !== p", arg=side,
                                   timeout=15_000)
            kernel = re.findall(r"Step \d+ of \d+", page.locator(".treegames-side").inner_text())
        except Exception:  # noqa: BLE001 - a diagnosis only
            kernel = "no answer to Back in 15 s"
        raise AssertionError(f"Enter on {focused!r} changed nothing: spoken {now['spoken']!r}; panel {now['panel']!r}; "
                             f"message {now['message']!r}; after Back the page shows {kernel}") from err
    wait_for_person_or_end(page)


def wait_for_person_or_end(page, timeout: float = WAIT_MS) -> None:
    """Wait until the move box lists moves (a person is to move) or the game is over."""
    page.wait_for_function(
        "() => { const t = document.querySelector('.treegames-move-panel').innerText;"
        " const s = document.querySelector('.treegames-announcer').innerText;"
        " return /legal moves? now/.test(t) || /game has ended/.test(s); }", timeout=timeout)


@pytest.mark.browser
@pytest.mark.slow
def test_a_whole_aspens_game_by_keyboard_and_the_accessibility_tree(browser, voila):
    with harness.loaded_dashboard(browser, voila, PATH, viewport={"width": 1280, "height": 1000}) as (page, _s,
                                                                                                     errors):
        # the skip link jumps to the board
        skip = page.get_by_role("link", name="Skip to the board")
        skip.focus()
        page.keyboard.press("Enter")
        page.wait_for_function("() => document.activeElement.classList.contains('treegames-board-anchor')", timeout=WAIT_MS)
        page.keyboard.press("Tab")
        board = page.get_by_role("application", name=re.compile("Aspens board"))
        assert page.evaluate("() => document.activeElement.tagName") == "CANVAS"
        assert board.count() == 1, "the board canvas has a role and a name"

        # Esc leaves the board (Tab there moves the board's cursor); every control shows a focus outline
        page.keyboard.press("Escape")
        page.wait_for_function("() => (document.activeElement.textContent || '').trim() === 'Step'", timeout=WAIT_MS)
        seen = [page.evaluate(OUTLINE_JS)]
        for _ in range(25):
            page.keyboard.press("Tab")
            found = page.evaluate(OUTLINE_JS)
            if found["tag"] in ("BUTTON", "INPUT", "SELECT", "CANVAS", "A", "LI"):
                seen.append(found)
                assert found["style"] != "none" and found["width"] >= 2, found
        assert all(f["style"] != "none" and f["width"] >= 2 for f in seen), seen
        assert len({(f["tag"], f["text"]) for f in seen}) >= 8, seen

        # faster bots, by keyboard
        harness.open_settings(page, keyboard=True)
        speed = page.get_by_label("steps/s")
        speed.focus()
        page.keyboard.press("Control+A")
        page.keyboard.type("30")
        page.keyboard.press("Enter")

        box = page.get_by_label("Your move")
        step = page.get_by_role("button", name=re.compile(r"^\W*Step\s*$"))
        played = 0
        moved = False
        for _ in range(400):
            snap = page.evaluate(SNAPSHOT_JS)
            if moved:
                assert snap["in_box"], "focus stays in the move box after a move (and the bot's answer)"
            if "game has ended" in snap["spoken"]:
                break
            if not re.search(r"legal moves? now", snap["panel"]):
                step_by_keyboard(page, step, snap["spoken"])  # roll the dice (the bot then answers by itself)
                moved = False
                continue
            move = pick_move(snap["board"])
            box.focus()
            page.keyboard.type(move)
            page.keyboard.press("Enter")
            try:
                page.wait_for_function(AFTER_MOVE_JS, arg=snap["spoken"], timeout=WAIT_MS)
            except Exception as err:  # say what the page holds instead
                now = page.evaluate(SNAPSHOT_JS)
                raise AssertionError(f"typed {move!r}; the box holds {now['box']!r}; message: {now['message']!r}; "
                                     f"spoken: {now['spoken']!r}") from err
            played, moved = played + 1, True
            if played == 1:
                log = page.get_by_label("Event log").inner_text().replace("\xa0", " ")
                assert f"Aspen seeds a starting tree on {move.split()[1]}" in log, "a typed move is logged as if clicked"
        final = spoken(page)
        assert "game has ended" in final, final
        assert played >= 10

        # the score on the page is the engine's for the moves played: replay the saved game
        page.get_by_role("tab", name="Save / Open").click()
        link = page.get_by_role("link", name=re.compile("Download this game"))
        link.wait_for(timeout=WAIT_MS)
        href = link.get_attribute("href")
        data = href.split(",", 1)[1]
        text = base64.b64decode(data).decode() if ";base64" in href.split(",", 1)[0] else urllib.parse.unquote(data)
        saved = json.loads(text)
        state = aspens.new_game(**saved.get("options", {})).state_from_json(text)
        assert state.is_terminal()
        aspen, pine = state.scores()
        assert f"Aspen owns {aspen} space" in final and f"Pine owns {pine} space" in final, final
        harness.screenshot(page, "a11y-aspens-keyboard-game-over")
        assert errors == []


LIST_JS = "() => Array.from(document.querySelectorAll('.treegames-move-box datalist option')).map(o => o.value)"


def saved_state(page, game_module):
    """The game on the page, through the Save / Open tab's download link, replayed by the engine."""
    link = page.get_by_role("link", name=re.compile("Download this game"))
    tab = page.get_by_role("tab", name="Save / Open")

    def shown() -> bool:
        if link.count() and link.is_visible():
            return True
        if tab.get_attribute("aria-selected") != "true":  # the page opened a tab of its own (Bosk shows the
            tab.click()  # summer table when summer is scored): back to Save / Open
        return False

    tab.click()
    harness.wait_until(shown, step=0.1, pause=harness.on_page(page), what="the Save / Open tab's download link")
    href = link.get_attribute("href")
    head, data = href.split(",", 1)
    text = base64.b64decode(data).decode() if ";base64" in head else urllib.parse.unquote(data)
    saved = json.loads(text)
    options = dict(saved.get("options", {}))
    if "players" in saved and "players" not in options:
        options["players"] = saved["players"]
    return game_module.new_game(**options).state_from_json(text)


def scores_spoken(text: str) -> list[int]:
    """The numbers of the live region's 'Scores: A 1, B 2' sentence."""
    found = re.search(r"Scores: ([^.]*)\.", text)
    return [int(item.split()[-1]) for item in found.group(1).split(", ")] if found else []


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.parametrize(("path", "module_name", "until"), [
    ("bosk/play.ipynb", "bosk", "summer scored"),
    ("mighty_trees/play.ipynb", "mighty_trees", "game over"),
])
def test_bosk_season_and_a_mighty_trees_game_from_the_move_list_alone(browser, voila, path, module_name, until):
    """Each move is the first entry of the move box's list (what a screen reader hears when the list opens)."""
    import importlib

    game_module = importlib.import_module(f"treegames.{module_name}")
    with harness.loaded_dashboard(browser, voila, path) as (page, _s, errors):
        harness.open_settings(page, keyboard=True)
        speed = page.get_by_label("steps/s")
        speed.focus()
        page.keyboard.press("Control+A")
        page.keyboard.type("30")
        page.keyboard.press("Enter")
        box = page.get_by_label("Your move")
        step = page.get_by_role("button", name=re.compile(r"^\W*Step\s*$"))
        played, done = [], False
        for _ in range(600):
            said = spoken(page)
            if "game has ended" in said:
                done = True
                break
            # one move past the summer scoring: until then the Bosk page keeps reopening its Summer tab
            if until == "summer scored" and len(played) > 1 and played[-2].startswith("score summer"):
                done = True
                break
            panel = page.locator(".treegames-move-panel").inner_text()
            if not re.search(r"legal moves? now", panel):
                step_by_keyboard(page, step, said)
                continue
            choices = page.evaluate(LIST_JS)
            assert choices, panel
            box.focus()
            page.keyboard.type(choices[0].split(" — ")[0])
            page.keyboard.press("Enter")
            wait_change(page, said)
            played.append(choices[0])
            page.wait_for_function("() => document.querySelector('.treegames-move-box input').value === ''",
                                   timeout=WAIT_MS)
            wait_for_person_or_end(page)
        assert done, f"{len(played)} moves played, last: {played[-3:]}"
        final = spoken(page)
        state = saved_state(page, game_module)
        assert scores_spoken(final) == list(state.scores()), (final, state.scores())
        if until == "game over":
            assert state.is_terminal()
        else:
            assert any(s > 0 for s in state.scores()), "summer scored the trails"
        harness.screenshot(page, f"a11y-{module_name}-keyboard")
        assert errors == []
