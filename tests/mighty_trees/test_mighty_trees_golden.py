"""A seeded golden playthrough: GreedyBot (P1) against RandomBot (P2) and P3, 3 players, seed 0.

Each line of ``mighty_trees_golden.txt`` is one action in notation and a brief
state after it, so any change in behaviour shows as a diff.  To accept a
deliberate change, run with ``MT_UPDATE_GOLDEN=1`` and review the diff.

Regenerated once, deliberately, for issue 12's balance pass (the previous text
dated from the first card set): every tree's costs and strengths changed (2-3
Sols a step), three understory-only species were replaced, disasters lost their
habitat requirements, climate cards kill on their own axis only, capture is
settled at the end of a round, ``max_turns`` defaults to 30 per player (the
header's options show ``max_turns: 0``) and GreedyBot plans its whole turn.

Regenerated again, deliberately and only because the rule changed (issue 18):
capture follows the rule sheet (the second canopy tree captures at once; the
header's options show ``capture_at_round_end: False``), and GreedyBot values a
position one growth from a capture.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

from treegames import core
from treegames.mighty_trees import GreedyBot, new_game

GOLDEN = Path(__file__).with_name("mighty_trees_golden.txt")


def short(card) -> str:
    """A tree's short name: 'Q.alba' for Quercus alba; '-' for an empty slot."""
    if card is None:
        return "-"
    genus, _, species = card.name.partition(" ")
    return f"{genus[0]}.{species}"


def brief(state) -> str:
    """One line: turn, phase, mover, Sols, conditions, each side's slots and Command size, piles."""
    head = f"t{state.turn} {state.phase.value} P{state.mover + 1} sols{state.sols}"
    if state.habitat_card is not None:
        head += f" T{state.temperature}W{state.water}"
    sides = []
    for p in range(state.num_players):
        under = ",".join(short(c) for c in state.understory(p))
        canopy = ",".join(short(c) for c in state.canopy(p))
        sides.append(f"P{p + 1}[{under}|{canopy}]h{len(state.hand(p))}")
    weather = ",".join(card.name for card, _, _ in state.weather)
    return f"{head} {' '.join(sides)} draw{state.draw_size} litter{len(state.litter_cards)} w[{weather}]"


def playthrough() -> str:
    """The golden text of the seeded game."""
    rng = random.Random(0)
    game = new_game(3)
    states = core.play(game, [GreedyBot(rng), core.RandomBot(rng), core.RandomBot(rng)], rng, keep=True)
    lines = [f"# mighty_trees 3 players, seed 0: GreedyBot, RandomBot, RandomBot; {game.options}"]
    for action, state in zip(states[-1].history, states[1:], strict=True):
        lines.append(f"{str(action):<52} | {brief(state)}")
    final = states[-1]
    lines.append(f"# winners {[f'P{p + 1}' for p in final.winners()]} scores {list(final.scores())}")
    return "\n".join(lines) + "\n"


def test_golden_playthrough_matches_the_checked_in_text():
    text = playthrough()
    if os.environ.get("MT_UPDATE_GOLDEN"):
        GOLDEN.write_text(text)
    assert text == GOLDEN.read_text()


def test_golden_playthrough_replays_from_its_notation():
    lines = [ln.split(" | ")[0].rstrip() for ln in GOLDEN.read_text().splitlines() if not ln.startswith("#")]
    state = core.replay(new_game(3), lines)
    assert state.is_terminal()
    assert f"# winners {[f'P{p + 1}' for p in state.winners()]}" in GOLDEN.read_text()
