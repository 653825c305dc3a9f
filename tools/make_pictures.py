"""Regenerate the README pictures from scenes (never hand-taken screenshots): notebooks/images/*.svg and *.png.

Run: python tools/make_pictures.py [--svg-only]   (``make pictures``)

Each picture is a pure Scene computed from a seeded game, written as SVG with
``Scene.to_svg()``; the PNG beside it is the same SVG rendered by Debian's
Chromium (skipped with a note when Chromium or Playwright is missing).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

from treegames import aspens, bosk, core
from treegames import mighty_trees as mt
from treegames.ui import palette
from treegames.ui.aspens.scene import HexGeometry, board_scene, dice_scene, game_scene
from treegames.ui.bosk.scene import park_scene
from treegames.ui.scene import Scene

ROOT = Path(__file__).resolve().parent.parent
IMAGES = ROOT / "notebooks" / "images"
CHROMIUM = Path("/usr/bin/chromium")


def side_by_side(left: Scene, right: Scene, gap: int = 16) -> Scene:
    """One scene holding two, the second to the right of the first (top-aligned)."""
    import numpy as np

    from treegames.ui.scene import Circles, Polygons, Segments, Texts

    out = Scene(left.width + gap + right.width, max(left.height, right.height), background=palette.BACKGROUND)
    for op in left.ops:
        out.add(op)
    dx = left.width + gap
    for op in right.ops:
        if isinstance(op, Polygons | Segments):
            moved = type(op)(**{**op.__dict__, "points": op.points + np.array([dx, 0.0])})
        elif isinstance(op, Circles):
            moved = Circles(op.centres + np.array([dx, 0.0]), op.radii, op.fill, op.stroke, op.line_width)
        else:
            moved = Texts([(x + dx, y, t) for x, y, t in op.items], op.font, op.colour, op.align, op.baseline)
        out.add(moved)
    return out


def finished_game(seed: int = 1):
    """The last state of a seeded game between two greedy bots (as the Play page's two-bot game)."""
    game = aspens.new_game(setup=2)
    bots = [aspens.GreedyBot(random.Random(seed * 7 + 1)), aspens.GreedyBot(random.Random(seed * 7 + 2))]
    return core.play(game, bots, random.Random(seed))


def mid_game(seed: int = 1, steps: int = 260):
    """A position part-way through the same game, with the dice rolled and the Wind arrows showing."""
    game = aspens.new_game(setup=2)
    bots = [aspens.GreedyBot(random.Random(seed * 7 + 1)), aspens.GreedyBot(random.Random(seed * 7 + 2))]
    states = core.play(game, bots, random.Random(seed), keep=True)
    return next(s for s in states[steps:] if s.wind is not None and s.phase == aspens.Phase.PLANT)


def bosk_autumn(seed: int = 3) -> bosk.BoskState:
    """A seeded 3-player Bosk game by greedy bots in its autumn, leaves and squirrels on the park."""
    game = bosk.new_game(players=3)
    bots = [bosk.GreedyBot(random.Random(seed * 7 + 1 + p)) for p in range(3)]
    states = core.play(game, bots, random.Random(seed), keep=True)
    autumn = [s for s in states if s.phase == bosk.Phase.FALLING_LEAVES]
    return autumn[len(autumn) * 3 // 4] if autumn else states[-1]


def mighty_trees_table(seed: int = 2) -> Scene:
    """A seeded 3-player Mighty Trees table part-way through, as the first player sees it."""
    from treegames.ui.mighty_trees.table_scene import table_scene

    game = mt.new_game(players=3)
    bots = [mt.GreedyBot(random.Random(seed * 7 + 1 + p)) for p in range(3)]
    states = core.play(game, bots, random.Random(seed), keep=True)
    battles = [s for s in states if s.current_player == 0 and len(s.legal_actions()) > 1]
    return table_scene(battles[len(battles) * 2 // 3].view_for(0))


def pictures() -> dict[str, Scene]:
    """Every README picture by file stem."""
    geo = HexGeometry()
    middle = mid_game()
    return {
        "aspens-board": board_scene(aspens.make_board(2), geo),
        "aspens-play": side_by_side(game_scene(middle, geo, show_targets=True), dice_scene(middle)),
        "aspens-finished": game_scene(finished_game(), geo, show_targets=False),
        "bosk-park": park_scene(bosk_autumn()),
        "mighty-trees-table": mighty_trees_table(),
    }


def write_png(svg_paths: list[Path]) -> list[Path]:
    """Render each SVG to a PNG beside it with Chromium (empty list if Chromium/Playwright is missing)."""
    if not CHROMIUM.exists():
        print("Chromium not found at /usr/bin/chromium: PNGs not written (SVGs are).")
        return []
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        print("Playwright not installed: PNGs not written (SVGs are).")
        return []
    done = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=["--no-sandbox"])
        page = browser.new_page()
        for path in svg_paths:
            svg = path.read_text()
            page.set_content(f"<html><body style='margin:0'>{svg}</body></html>")
            out = path.with_suffix(".png")
            page.locator("svg").screenshot(path=str(out))
            done.append(out)
        browser.close()
    return done


def main() -> None:
    IMAGES.mkdir(parents=True, exist_ok=True)
    written = []
    for stem, scene in pictures().items():
        path = IMAGES / f"{stem}.svg"
        path.write_text(scene.to_svg() + "\n")
        written.append(path)
        print(f"wrote {path.relative_to(ROOT)} ({scene.width}x{scene.height})")
    if "--svg-only" not in sys.argv:
        for png in write_png(written):
            print(f"wrote {png.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
