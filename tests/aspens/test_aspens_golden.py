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
    lines.append(final.picture())
    return "\n".join(lines) + "\n"


def test_golden_playthrough_seed_7():
    text = playthrough_text()
    if os.environ.get("ASPENS_REGOLDEN") == "1":
        GOLDEN.write_text(text)
    assert GOLDEN.exists(), "run with ASPENS_REGOLDEN=1 once to create the golden file"
    assert text == GOLDEN.read_text(), "behaviour changed: regenerate with ASPENS_REGOLDEN=1 and review the diff"
