"""A person's first turns in Chromium, mirrored by the same widget in this process (same seeds, same play).

Every click in the page is made on a hex chosen from the mirror's legal targets, and after each one
the page must show the same step count as the mirror: seeding, growing, a roll, planting, End turn.
"""

from __future__ import annotations

import re

import pytest

import harness
from treegames import aspens
from treegames.ui.aspens.play import AspensPlay

WAIT_MS = harness.WAIT_MS

PATH = "aspens/play.ipynb"


@pytest.fixture(scope="module")
def mirrored(browser, voila):
    """The play page and a local widget made exactly as the notebook makes it.

    Pine answers by itself in the page (as it should); this module steps every move by hand so that
    page and mirror stay in lockstep, so it unticks "Bots answer by themselves" first (and so does the mirror).  test_aspens_keyboard_and_save covers the answering.
    """
    with harness.loaded_dashboard(browser, voila, PATH, viewport={"width": 1280, "height": 1150}) as loaded:
        harness.open_settings(loaded[0])
        loaded[0].get_by_role("checkbox", name="Bots answer by themselves").uncheck()
        yield loaded, AspensPlay(setup=2, seed=1, aspen="human", pine="greedy", answer=False)


def page_step(page) -> int:
    """The 'Step N of M' counter shown on the page."""
    text = page.locator(".widget-html-content", has_text=re.compile(r"Step \d+ of")).first.inner_text()
    return int(re.search(r"Step (\d+) of", text).group(1))


def wait_for_step(page, n: int) -> None:
    """Wait until the page shows step n."""
    page.locator(".widget-html-content", has_text=f"Step {n} of").first.wait_for(timeout=WAIT_MS)


def press_step(page, local: AspensPlay) -> None:
    """Step in the page and in the mirror."""
    page.get_by_role("button", name=re.compile(r"^\W*Step\s*$")).click()
    local.step()
    wait_for_step(page, local.timeline.cursor)


def click_hex(page, local: AspensPlay, cell) -> None:
    """Click a hex in the page and in the mirror, then check both agree."""
    before = harness.wait_until_stable(page, quiet_ms=250)["hash"]
    harness.click_canvas(page, *local.geo.center(cell))
    local.click(*local.geo.center(cell))
    assert "Not allowed" not in local.message.value, local.message.value
    wait_for_step(page, local.timeline.cursor)
    harness.wait_for_drawing(page, differs_from=before)


def test_a_person_seeds_grows_and_plays_a_turn(mirrored):
    (page, _first, errors), local = mirrored
    while not local.is_human_turn():
        press_step(page, local)
    # five rapid clicks on one space: one seed, four refusals, nothing corrupted
    target = sorted(local.state.legal_targets()["seed"])[0]
    start = local.timeline.cursor
    for _ in range(5):
        harness.click_canvas(page, *local.geo.center(target))
        local.click(*local.geo.center(target))
    assert local.timeline.cursor == start + 1
    wait_for_step(page, start + 1)
    refusal = "a bot" if not local.is_human_turn() else "Not allowed"  # the same words in both widgets
    assert refusal in local.message.value
    page.locator(".widget-html-content", has_text=refusal).first.wait_for(timeout=WAIT_MS)
    harness.wait_until_stable(page)
    assert page_step(page) == start + 1
    while local.state.phase in (aspens.Phase.SEED, aspens.Phase.GROW_START) or not local.is_human_turn():
        if not local.is_human_turn():
            press_step(page, local)
            continue
        targets = local.state.legal_targets()
        click_hex(page, local, sorted(targets["seed"] | targets["grow-up"])[0])
    assert local.state.phase == aspens.Phase.PLANT and local.state.current_player == aspens.ASPEN
    harness.screenshot(page, "human-turn-planting")
    planted = 0
    while local.state.hand(aspens.ASPEN) > 0 and local.state.legal_targets()["grow-out"]:
        click_hex(page, local, sorted(local.state.legal_targets()["grow-out"])[0])
        planted += 1
    assert planted > 0
    if local.state.can_end_turn():
        page.get_by_role("button", name=re.compile(r"End turn")).click()
        local.end_turn()
        wait_for_step(page, local.timeline.cursor)
    assert local.state.phase == aspens.Phase.ROLL_SUN and local.state.turn_player == aspens.PINE
    assert page_step(page) == len(local.state.history)
    assert errors == []
    harness.screenshot(page, "human-turn-ended")
