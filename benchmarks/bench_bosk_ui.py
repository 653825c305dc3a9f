"""Bosk dashboard figures: Python frame cost mid-autumn, page load, click and button to redrawn park, Step redraws.

Run: python benchmarks/bench_bosk_ui.py [--quick]
Targets (issue 11): park frame Python side <= 1 ms median in one comm message; click -> redrawn park <= 100 ms median.
"""

from __future__ import annotations

import random
import re
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
import harness  # noqa: E402

QUICK = "--quick" in sys.argv
PATH = "bosk/play.ipynb"


def python_frame_ms(players: int) -> tuple[float, float]:
    """(median ms, comm messages per frame) to compute and send the park mid-autumn with a person's targets."""
    from treegames import bosk
    from treegames.ui.bosk.play import BoskPlay

    widget = BoskPlay(players=players, seed=2, seats=("greedy",) * players)
    while not (widget.state.phase is bosk.Phase.LEAF_PLACEMENT and widget.state.wind_spot >= 3):
        widget.step()
    widget.bots = (None, *widget.bots[1:])  # a person to move: targets and covering costs are drawn
    widget.seats = ("human", *widget.seats[1:])
    return harness.frame_cost(widget.board_view, 200 if QUICK else 1000)


def replica():
    """The notebook's game (2 players, seed 1, Maple a person, Oak the greedy bot) replayed in Python."""
    from treegames import bosk, core

    state = bosk.new_game(players=2).new_initial_state()
    state = state.apply(core.sample_chance(state, random.Random(1)))
    bot = bosk.GreedyBot(random.Random(1 * 7 + 1 + 1))
    return state, bot


def browser_figures() -> dict:
    """Load times, crossing clicks and value buttons to redrawn park, Step redraws, in Chromium."""
    from playwright.sync_api import sync_playwright

    from treegames import bosk
    from treegames.ui.bosk.play import BOARD_PIXELS
    from treegames.ui.bosk.scene import ParkGeometry

    geo = ParkGeometry.fitted(bosk.park_for_players(2), BOARD_PIXELS)
    server = harness.start_voila()
    out = {"loads": [], "clicks": [], "buttons": [], "steps": []}
    try:
        with sync_playwright() as p:
            browser = harness.launch_chromium(p)
            out["loads"] = harness.load_times(browser, server, PATH, 3 if QUICK else 6)
            page = browser.new_page(viewport={"width": 1280, "height": 1300})
            harness.open_dashboard(page, server, PATH)
            if page.get_by_role("button", name=re.compile(r"^\W*Settings\s*$")).count():  # folded since issue 32
                harness.open_settings(page)
            page.get_by_role("checkbox", name="Bots answer by themselves").uncheck()
            state, bot = replica()
            out["steps"].append(harness.redraw_ms(page, "Step"))  # the start player
            harness.wait_until_stable(page, quiet_ms=300)
            for _ in range(3 if QUICK else 6):
                if state.current_player != 0:
                    state = state.apply(bot.choose(state))
                    out["steps"].append(harness.redraw_ms(page, "Step"))
                    harness.wait_until_stable(page, quiet_ms=300)
                action = sorted(state.legal_actions(), key=lambda a: (-a.value, abs(a.row - 3) + abs(a.col - 3)))[0]
                out["clicks"].append(harness.redraw_ms(page, None, *geo.intersection_xy(action.row, action.col)))
                harness.wait_until_stable(page, quiet_ms=300)
                out["buttons"].append(harness.redraw_ms(page, f"tree {action.value}"))
                harness.wait_until_stable(page, quiet_ms=300)
                state = state.apply(action)
            page.get_by_role("tab", name="New game").click()
            page.locator(".widget-dropdown", has_text="Maple").locator("select").first.select_option(label="Bot (greedy)")
            page.get_by_role("button", name=re.compile(r"Start new game")).click()
            page.get_by_role("tab", name="Event log").click()
            harness.wait_until_stable(page, quiet_ms=300)
            for _ in range(8 if QUICK else 20):
                out["steps"].append(harness.redraw_ms(page, "Step"))
            browser.close()
    finally:
        server.stop()
    return out


def main() -> None:
    for players in (2, 4):
        ms, messages = python_frame_ms(players)
        print(f"bosk park frame mid-autumn, {players} players, python side: {ms:.3f} ms median, "
              f"{messages:.1f} comm message(s) per frame")
    f = browser_figures()
    print(f"bosk play page load to drawn park: {statistics.median(f['loads']):.2f} s median (n={len(f['loads'])})")
    for key, what in (("clicks", "click on a crossing"), ("buttons", "tree value button"), ("steps", "Step button")):
        good = [v for v in f[key] if v >= 0]
        missed = len(f[key]) - len(good)
        if good:
            print(f"bosk {what} to redrawn park: {statistics.median(good):.1f} ms median (n={len(good)}"
                  + (f", {missed} never redrew" if missed else "") + ")")


if __name__ == "__main__":
    main()
