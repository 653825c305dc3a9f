"""A seeded golden playthrough: any change in behaviour shows as a diff of golden_aspens_seed7.txt.

Regenerate on purpose with ``ASPENS_REGOLDEN=1 pytest tests/aspens/test_aspens_golden.py``
and review the diff before committing it.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

from treegames import core
from treegames.aspens import new_game

GOLDEN = Path(__file__).with_name("golden_aspens_seed7.txt")


def rows_text(state) -> str:
    """The final position as the golden file records it: each board row's hexes in order, one
    'a'/'p' + height (9 for 9+), '~~' or '..' per hex, two spaces apart, indented 2 per row from
    the middle.  (A record format only: ``state.picture()`` draws the hexes at their true offsets.)
    """
    from treegames.aspens import Hex

    lines = []
    for r in range(-7, 8):
        row = []
        for q in range(-7, 8):
            cell = Hex(q, r)
            if cell not in state.board.cells:
                continue
            owner = state.owner(cell)
            if cell in state.board.water:
                row.append("~~")
            elif owner is None:
                row.append("..")
            else:
                row.append(f"{'ap'[owner]}{min(state.height(cell), 9)}")
        if row:
            lines.append(" " * (2 * abs(r)) + "  ".join(row))
    return "\n".join(lines)


def playthrough_text(seed: int = 7) -> str:
    """One line per action (notation and a brief state), then the final board."""
    rng = random.Random(seed)
    states = core.play(new_game(), [core.RandomBot(rng), core.RandomBot(rng)], rng, keep=True)
    lines = [f"seed {seed}, setup 2, RandomBot v RandomBot", f"start | {states[0].summary()}"]
    for number, state in enumerate(states[1:], start=1):
        extra = f" cascade={len(state.last_cascade)}" if state.last_cascade else ""
        lines.append(f"{number} {state.last_action} | {state.summary()}{extra}")
    final = states[-1]
    lines.append(f"scores {final.scores()} winners {final.winners()}")
    lines.append(rows_text(final))
    return "\n".join(lines) + "\n"


def test_golden_playthrough_seed_7():
    text = playthrough_text()
    if os.environ.get("ASPENS_REGOLDEN") == "1":
        GOLDEN.write_text(text)
    assert GOLDEN.exists(), "run with ASPENS_REGOLDEN=1 once to create the golden file"
    assert text == GOLDEN.read_text(), "behaviour changed: regenerate with ASPENS_REGOLDEN=1 and review the diff"
