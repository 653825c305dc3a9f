"""Hint on the Aspens Play page in Chromium, at 420 px: press Hint, read the coach's moves, then H thinks longer."""

from __future__ import annotations

import re

import harness
from harness import press, step_until
from treegames import aspens

WAIT_MS = harness.WAIT_MS

PATH = "aspens/play.ipynb"
MOVE = re.compile(r"^(seed [A-Z]\d+): wins (\d+)% \((\d+)–(\d+)%\) of (\d+) playouts?")

def listed_moves(page) -> list[re.Match]:
    """The moves the Hint panel lists, read back with the move-line pattern."""
    items = page.locator(".treegames-hint-moves li").all_inner_texts()
    return [MOVE.match(item.strip()) for item in items]


def playouts_shown(page) -> int:
    """'after N playouts' in the panel's heading."""
    text = page.locator(".treegames-hint-moves").inner_text()
    return int(re.search(r"after (\d+) playouts", text).group(1))


def aspens_seeds() -> set[str]:
    """Where Aspen may seed first in the notebook's game (seed 1: Aspen goes first)."""
    state = aspens.new_game(setup=2).new_initial_state().apply(aspens.ChooseFirst(aspens.ASPEN))
    return {aspens.cell_name(cell) for cell in state.legal_targets()["seed"]}


def test_hint_lists_the_coachs_moves_and_the_h_key_thinks_longer_on_a_phone(browser, voila):
    with harness.loaded_dashboard(browser, voila, PATH, viewport={"width": 420, "height": 900}) as (page, _s,
                                                                                                  errors):
        for _ in range(8):
            if step_until(page, "Aspen's move"):
                break
        press(page, "Hint")
        page.locator(".treegames-hint-moves li", has_text="(the coach's choice)").first.wait_for(timeout=WAIT_MS)
        moves = listed_moves(page)
        assert moves and all(moves), page.locator(".treegames-hint-moves").inner_text()
        legal = {f"seed {cell}" for cell in aspens_seeds()}
        assert {m.group(1) for m in moves} <= legal
        for m in moves:
            share, low, high = int(m.group(2)), int(m.group(3)), int(m.group(4))
            assert low <= share <= high
        first = playouts_shown(page)
        assert "(the coach's choice)" in page.locator(".treegames-hint-moves li").first.inner_text()
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 421, "no sideways scrolling"
        harness.screenshot(page, "hint-phone-420")
        page.locator("canvas.treegames-board-canvas").focus()
        page.keyboard.press("h")  # again on the same position: think longer
        page.wait_for_function(
            "(n) => { const m = /after (\\d+) playouts/.exec("
            "(document.querySelector('.treegames-hint-moves') || {}).innerText || ''); return m && +m[1] > n; }",
            arg=first, timeout=WAIT_MS)
        assert playouts_shown(page) > first
        assert errors == []
