"""GreedyBot: deterministic for a given random.Random, and clearly better than RandomBot."""

from __future__ import annotations

import random

from treegames import core
from treegames.aspens import GreedyBot, new_game


def match(games: int, seed: int) -> tuple[int, int]:
    """Greedy's wins and the games played, swapping seats each game."""
    game = new_game()
    wins = 0
    for n in range(games):
        rng = random.Random(seed + n)
        greedy_seat = n % 2
        bots = [core.RandomBot(rng), core.RandomBot(rng)]
        bots[greedy_seat] = GreedyBot(rng)
        final = core.play(game, bots, rng)
        if final.winners() == (greedy_seat,):
            wins += 1
    return wins, games


def test_greedy_bot_beats_random_bot_clearly():
    wins, games = match(20, seed=1000)
    assert wins >= 17, f"GreedyBot won only {wins} of {games}"


def test_greedy_bot_is_deterministic_for_a_seed():
    game = new_game()

    def history(seed: int) -> tuple:
        rng = random.Random(seed)
        return core.play(game, [GreedyBot(rng), GreedyBot(rng)], rng).history

    assert history(3) == history(3)
    assert history(3) != history(4)


def test_greedy_bot_plays_only_legal_actions_and_prefers_the_centre_when_seeding():
    game = new_game()
    rng = random.Random(9)
    state = game.new_initial_state().apply("first Aspen")
    bot = GreedyBot(rng)
    action = bot.choose(state)
    assert action in state.legal_actions()
    from treegames.aspens.data import distance

    best = min(distance(a.cell) for a in state.legal_actions())
    assert distance(action.cell) == best
