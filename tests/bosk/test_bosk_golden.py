"""Seeded golden playthroughs, one per player count, checked in as text so behaviour changes show as diffs.

Regenerate after an intended rules change with:  BOSK_UPDATE_GOLDEN=1 pytest tests/bosk/test_bosk_golden.py
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from treegames import core
from treegames.bosk import new_game

GOLDEN = Path(__file__).parent / "golden"
SEEDS = {2: 2019, 3: 2020, 4: 2021}


def brief(state) -> str:
    """One line of state: phase, round, wind, start player, supplies, active leaves and scores."""
    wind = state.wind_direction.value if state.wind_direction else "-"
    supply = ",".join(str(state.supply_of(p)) for p in range(state.num_players))
    scores = ",".join(str(v) for v in state.scores())
    return (
        f"{state.phase.value} | round {state.round} wind {wind} start {state.start_player + 1} | "
        f"supply {supply} active {state.active_leaves} | scores {scores}"
    )


def transcript(players: int) -> str:
    """The seeded random game as text: one line per action (mover, notation, brief state after)."""
    rng = random.Random(SEEDS[players])
    states = core.play(new_game(players), [core.RandomBot(rng)] * players, rng, keep=True)
    lines = [f"# Bosk {players} players, RandomBot seed {SEEDS[players]}", f"    start | {brief(states[0])}"]
    for index, (before, after) in enumerate(zip(states, states[1:], strict=False), 1):
        mover = "chance" if before.current_player == core.CHANCE else f"P{before.current_player + 1}"
        lines.append(f"{index:3d} {mover:>6} {after.history[-1]} | {brief(after)}")
    final = states[-1]
    lines.append(f"# winner P{final.winners()[0] + 1}; summer {final.summer_scores}; winter {final.winter_scores}")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_golden_playthrough(players):
    path = GOLDEN / f"bosk_{players}p.txt"
    text = transcript(players)
    if os.environ.get("BOSK_UPDATE_GOLDEN"):
        path.write_text(text, encoding="utf-8")
    assert path.read_text(encoding="utf-8") == text


@pytest.mark.parametrize("players", [2, 3, 4])
def test_golden_replays_from_its_notation(players):
    lines = (GOLDEN / f"bosk_{players}p.txt").read_text(encoding="utf-8").splitlines()
    actions = [line.split(" | ")[0].split(None, 2)[2] for line in lines[2:-1]]
    state = core.replay(new_game(players), actions)
    assert state.is_terminal()
    assert lines[-1].startswith(f"# winner P{state.winners()[0] + 1};")
