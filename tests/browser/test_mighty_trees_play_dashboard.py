"""The Mighty Trees play and walkthrough dashboards in real Voila pages, driven in Chromium.

Hidden hands: a local widget with the same seed and seats mirrors the page's game, so the test knows
every Command; it then checks that no covered hand ever reaches the page (its HTML or the canvas commands
in the websocket frames) while another person may be looking.
"""

from __future__ import annotations

import contextlib
import re

import pytest

import harness
from treegames import mighty_trees as mt
from treegames.ui.mighty_trees.play import MightyTreesPlay
from treegames.ui.scene import Polygons

WAIT_MS = harness.WAIT_MS

PLAY = "mighty_trees/play.ipynb"
WALK = "mighty_trees/rules-walkthrough.ipynb"
VIEW = {"width": 1280, "height": 1400}

pytestmark = pytest.mark.browser


def boxes(scene) -> dict:
    """{tag: (x0, y0, x1, y1)} of every tagged polygon."""
    out = {}
    for op in scene.ops:
        if isinstance(op, Polygons) and op.tags:
            for pts, tag in zip(op.points, op.tags, strict=True):
                if isinstance(tag, tuple):
                    out.setdefault(tag, (pts[:, 0].min(), pts[:, 1].min(), pts[:, 0].max(), pts[:, 1].max()))
    return out


def centre(scene, tag):
    box = boxes(scene)[tag]
    return ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)


def private_words(card) -> str:
    """Words only a face-up copy of this card puts on the page."""
    return card.common if card.kind is mt.Kind.TREE else card.name


def board_index(page) -> int:
    """Index (among large canvases) of the table canvas."""
    return page.evaluate("""() => {
      const all = Array.from(document.querySelectorAll('canvas')).filter(c => c.width > 50 && c.height > 50);
      return all.indexOf(document.querySelector('canvas.treegames-board-canvas'));
    }""")


def wait_for_text(page, text: str, timeout: float = harness.DEADLINE) -> None:
    """Wait until the page shows ``text`` (``timeout`` in seconds, stretched like every harness deadline)."""
    page.wait_for_function("(t) => document.body.innerText.includes(t)", arg=text,
                           timeout=timeout * harness.DEADLINE_SCALE * 1000)


def settle(page, index: int) -> dict:
    """Wait for the table to stop changing (auto-play of the deal and the bots)."""
    return harness.wait_until_stable(page, index, quiet_ms=1200, timeout=40)


def test_play_page_draws_the_table_and_two_clicks_discard_a_card(voila, browser):
    with harness.loaded_dashboard(browser, voila, PLAY, viewport=VIEW) as (page, _first, errors):
        index = board_index(page)
        wait_for_text(page, "P1's move")
        stats = settle(page, index)
        mirror = MightyTreesPlay(seed=1, seats=("human", "greedy"))
        mirror.run_auto()
        assert mirror.is_human_turn()
        scene = mirror.board_view.last_scene
        assert stats["width"] == scene.width and stats["height"] == scene.height
        card = mirror.state.hand(mirror.state.mover)[0]
        harness.click_canvas(page, *centre(scene, ("hand", card.id)), index=index)
        chosen = harness.wait_for_drawing(page, index, differs_from=stats["hash"])
        wait_for_text(page, "Chosen:")
        harness.screenshot(page, "mighty-trees-play-chosen")
        harness.click_canvas(page, *centre(scene, ("litter",)), index=index)
        harness.wait_for_drawing(page, index, differs_from=chosen["hash"])
        wait_for_text(page, f"discards {card.name}")
        harness.screenshot(page, "mighty-trees-play")
        assert "Traceback" not in page.content()
        assert not errors


def test_two_people_at_one_screen_never_see_each_others_hand(voila, browser):
    context = browser.new_context(viewport=VIEW)
    page = context.new_page()
    frames: list = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(payload)))
    errors: list = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    try:
        harness.open_dashboard(page, voila, PLAY)
        index = board_index(page)
        page.get_by_role("tab", name="New game").click()
        page.locator(".widget-dropdown").filter(has_text="P2").locator("select").first.select_option(label="Person")  # New game tab
        mark = len(frames)
        page.get_by_role("button", name=re.compile(r"Start new game")).click()
        mirror = MightyTreesPlay(seed=1, seats=("human", "human"))
        mirror.run_auto()
        s = mirror.state
        first, other = s.mover, 1 - s.mover
        page.get_by_role("button", name="Show my hand").wait_for(timeout=WAIT_MS)
        settle(page, index)
        secret = [private_words(c) for p in (0, 1) for c in s.hand(p)]
        html = page.content()
        assert not [w for w in secret if w in html]
        assert not [w for w in secret if any(_has(f, w) for f in frames[mark:])]
        harness.screenshot(page, "mighty-trees-play-cover")
        # P1 at the screen lifts the cover: their hand only.
        page.get_by_role("button", name="Show my hand").click()
        wait_for_text(page, "hand is showing")
        mirror.play_at("cover")
        mine = [private_words(c) for c in s.hand(first)]
        theirs = [private_words(c) for c in s.hand(other)]
        harness.wait_until(lambda: any(any(_has(f, w) for f in frames[mark:]) for w in mine),
                           pause=harness.on_page(page), what="P1's own hand in the page's frames")
        assert any(any(_has(f, w) for f in frames[mark:]) for w in mine)
        with contextlib.suppress(AssertionError):  # the assertion below names what reached the page
            harness.holds_for(lambda: not [w for w in theirs if w in page.content()
                                           or any(_has(f, w) for f in frames[mark:])],
                              0.6, step=0.2, pause=harness.on_page(page), what="P2's hand kept off the page")
        assert not [w for w in theirs if w in page.content() or any(_has(f, w) for f in frames[mark:])]
        # discard a card by clicks, end the turn: the cover comes down for the other person
        scene = mirror.board_view.last_scene
        card = s.hand(first)[0]
        harness.click_canvas(page, *centre(scene, ("hand", card.id)), index=index)
        wait_for_text(page, "Chosen:")
        harness.click_canvas(page, *centre(scene, ("litter",)), index=index)
        wait_for_text(page, f"discards {card.name}")
        mirror.play(mt.Action(mt.Verb.DISCARD, card.id, place="hand"))
        page.get_by_role("button", name=re.compile(r"End turn")).click()
        mirror.play(mt.Action(mt.Verb.END))
        mirror.run_auto()
        s = mirror.state
        assert s.mover == other
        page.get_by_role("button", name="Show my hand").wait_for(timeout=WAIT_MS)
        settle(page, index)
        covered_from = len(frames)
        secret = [private_words(c) for p in (0, 1) for c in s.hand(p)]
        with contextlib.suppress(AssertionError):  # the assertions below name what reached the page
            harness.holds_for(lambda: not [w for w in secret if w in page.content()
                                           or any(_has(f, w) for f in frames[covered_from - 5:])],
                              0.8, step=0.2, pause=harness.on_page(page), what="both hands kept off the covered page")
        html = page.content()
        assert not [w for w in secret if w in html]
        assert not [w for w in secret if any(_has(f, w) for f in frames[covered_from - 5:])]
        harness.screenshot(page, "mighty-trees-play-cover-p2")
        assert not errors
    finally:
        context.close()


def _has(frame, word: str) -> bool:
    """Whether a websocket frame (text or bytes) contains ``word``."""
    if isinstance(frame, bytes | bytearray):
        return word.encode() in frame
    return word in frame


def test_walkthrough_steps_forward_and_jumps_to_combat(voila, browser):
    with harness.loaded_dashboard(browser, voila, WALK, viewport=VIEW) as (page, first, errors):
        index = board_index(page)
        wait_for_text(page, "Step 0 of")
        page.get_by_role("button", name=re.compile(r"^\W*Forward\s*$")).click()
        harness.wait_for_drawing(page, index, differs_from=first["hash"])
        wait_for_text(page, "Step 1 of")
        wait_for_text(page, "Rule sheet: Game Layout")
        page.locator(".treegames-mighty-trees-walkthrough select").first.select_option(label="Initiate Tree Combat")
        wait_for_text(page, "Rule sheet: Initiate Tree Combat")
        wait_for_text(page, "Our interpretation")
        harness.screenshot(page, "mighty-trees-walkthrough-combat")
        assert "Traceback" not in page.content()
        assert not errors


def test_an_eight_seat_table_fits_a_phone_and_a_laptop(voila, browser):
    """Opened on a 420 px phone, then the same page at 1024 px: the eight-seat table fits both, kept readable."""
    with harness.loaded_dashboard(browser, voila, PLAY, viewport={"width": 420, "height": 900}) as (page, first,
                                                                                                    errors):
        index = board_index(page)
        settle(page, index)
        page.get_by_role("tab", name="New game").click()
        wait_for_text(page, "printed rule")  # the form says what the capture option means
        page.locator(".treegames-option-players select").first.select_option(label="8")  # the New game tab (the Play with others form comes later)
        page.get_by_role("button", name=re.compile("Start new game")).click()
        harness.wait_for_drawing(page, index, differs_from=first["hash"])
        mirror = MightyTreesPlay(seed=1, seats=("human",) + ("greedy",) * 7, players=8)
        for width in (420, 1024):
            page.set_viewport_size({"width": width, "height": 900})
            harness.wait_until(lambda w=width: page.evaluate("() => window.innerWidth") == w,
                               pause=harness.on_page(page), what=f"the page at {width} px")
            stats = settle(page, index)
            assert stats["height"] == mirror.board_view.canvas.height > first["height"]
            assert page.evaluate("() => document.documentElement.scrollWidth") <= width
            assert stats["left"] >= 0 and stats["left"] + stats["cssWidth"] <= width, (width, stats)
            assert stats["cssWidth"] >= min(400, width - 60), (width, stats)  # kept readable, not shrunk to fit the height
            harness.screenshot(page, f"mighty-trees-play-8-seats-{width}")
            table = harness.ARTIFACTS / "screenshots" / f"mighty-trees-play-8-seats-{width}-table.png"
            page.locator("canvas.treegames-board-canvas").screenshot(path=str(table))
        assert "Traceback" not in page.content()
        assert not errors
