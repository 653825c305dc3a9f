"""The coach as a bot: in every game's GameType.bots, at three budgets, playing whole legal games."""

from __future__ import annotations

import random

import pytest

from treegames import core, plugins
from treegames.lab import TournamentSpec, binomial_test, run_tournament
from treegames.search import (
    COACH_BOTS,
    LEVEL_ITERATIONS,
    CoachBot,
    Level,
    Rollout,
    iterations_for,
    rollout_for,
)

pytestmark = pytest.mark.slow  # seconds of search or processes per test: not in make test-quick


def test_every_game_offers_the_coach_at_three_budgets_that_grow():
    for game_type in core.games().values():
        for name, bot in COACH_BOTS.items():
            assert game_type.bots[name] is bot
    sizes = [LEVEL_ITERATIONS[level] for level in Level]
    assert sizes == sorted(sizes) and len(set(sizes)) == 3
    state = core.games()["aspens"].new_game().new_initial_state()
    assert [COACH_BOTS[f"coach-{level}"](random.Random(1)).budget(state) for level in Level] == sizes


def test_a_game_with_quicker_playouts_gets_a_proportionally_bigger_budget():
    bosk = core.games()["bosk"].new_game(players=2).new_initial_state()
    scale = plugins.plugin("bosk").coach_scale
    assert scale[2] > 1
    assert COACH_BOTS["coach-medium"](random.Random(1)).budget(bosk) == iterations_for(Level.MEDIUM, "bosk", 2)
    assert iterations_for(Level.MEDIUM, "bosk", 2) == LEVEL_ITERATIONS[Level.MEDIUM] * scale[2]
    assert CoachBot(random.Random(1), iterations=7).budget(bosk) == 7


def test_the_coach_plays_out_greedily_only_where_that_is_its_games_choice():
    assert rollout_for("mighty_trees") is Rollout.GREEDY
    assert {name: p.coach_rollout for name, p in plugins.plugins().items()} == {
        "aspens": "random", "bosk": "random", "mighty_trees": "greedy", "pig": "random"}
    assert rollout_for("aspens") is rollout_for("bosk") is Rollout.RANDOM
    game = core.games()["mighty_trees"].new_game()
    bot = CoachBot(random.Random(1), iterations=3)
    core.play(game, [bot, core.RandomBot(random.Random(2))], random.Random(3))
    assert bot.last_search.rollout is Rollout.GREEDY
    forced = CoachBot(random.Random(1), iterations=3, rollout="random")
    core.play(game, [forced, core.RandomBot(random.Random(2))], random.Random(3))
    assert forced.last_search.rollout is Rollout.RANDOM


@pytest.mark.parametrize(("name", "players"), [("aspens", 2), ("bosk", 2), ("bosk", 3), ("mighty_trees", 2)])
def test_a_small_coach_plays_a_whole_game_of_legal_moves_against_greedy(name, players):
    game_type = core.games()[name]
    game = game_type.new_game(**({"players": players} if len(game_type.players) > 1 else {}))
    bots = [CoachBot(random.Random(1), iterations=2)] + [game_type.bots["greedy"](random.Random(p))
                                                         for p in range(1, players)]
    final = core.play(game, bots, random.Random(4))  # apply refuses any illegal move
    assert final.is_terminal()
    assert bots[0].last_search is not None and bots[0].last_search.iterations == 2


SMALLEST_BUDGET = 4
"""Playouts per move where the coach lost to random play in Aspens (issue 33): fewer than the legal moves."""


def one_sided_p(wins: int, games: int) -> float:
    """The chance of at least ``wins`` wins in ``games`` if the coach won each game with chance 1/2 (exact)."""
    return binomial_test(wins, games) / 2 if 2 * wins > games else 1.0


@pytest.mark.parametrize("name", sorted(core.games()))
def test_the_coach_beats_random_play_in_every_game_even_at_its_smallest_budget(name):
    """A sequential test: seat-alternated games until the coach's wins would be a surprise at p < 0.05 (at most 10)."""
    game_type = core.games()[name]
    game = game_type.new_game()
    wins = games = 0
    while one_sided_p(wins, games) >= 0.05 and games < 10:
        coach = CoachBot(random.Random(games), iterations=SMALLEST_BUDGET, trees=1)
        seat = games % game.num_players
        bots = [core.RandomBot(random.Random(100 + games + p)) for p in range(game.num_players)]
        bots[seat] = coach
        final = core.play(game, bots, random.Random(200 + games))
        wins += final.winners() == (seat,)
        games += 1
    assert one_sided_p(wins, games) < 0.05, f"{name}: the coach won {wins} of {games} games against random play"


def test_with_fewer_playouts_than_moves_the_coach_plays_its_heuristics_move():
    state = mid_game("aspens", 2, seed=1)
    assert len(state.legal_actions()) > 10
    coach = CoachBot(random.Random(2), iterations=SMALLEST_BUDGET, trees=1)
    move = coach.choose(state)
    search = coach.last_search
    assert move == search.root_favourite() == search.statistics()[0].action
    assert search.statistics()[0].visits >= 2  # the favourite's playouts, not one noisy playout of each move
    plain = CoachBot(random.Random(2), iterations=SMALLEST_BUDGET, trees=1, prior="none")
    plain.choose(state)
    assert plain.last_search.root_favourite() is None
    assert max(s.visits for s in plain.last_search.statistics()) == 1  # plain UCT: one playout each


def test_the_coach_is_deterministic_for_a_seed_so_lab_games_replay():
    game = core.games()["mighty_trees"].new_game()
    runs = [core.play(game, [CoachBot(random.Random(3), iterations=3), CoachBot(random.Random(4), iterations=3)],
                      random.Random(9)).history for _ in range(2)]
    assert runs[0] == runs[1]


def test_the_lab_runs_a_tournament_with_the_coach_in_a_seat():
    spec = TournamentSpec(game="bosk", bots=("coach-easy", "random"), games=2, seed=3)
    results = run_tournament(spec, workers=1)
    assert results.by_bot["coach-easy"].games == 2


def mid_game(name: str, players: int, seed: int):
    """A position from the middle third of a seeded random game, with a player to move and a choice to make."""
    game_type = core.games()[name]
    game = game_type.new_game(**({"players": players} if len(game_type.players) > 1 else {}))
    rng = random.Random(seed)
    states = core.play(game, [core.RandomBot(rng)] * players, rng, keep=True)
    choices = [s for s in states if not s.is_terminal() and s.current_player >= 0 and len(s.legal_actions()) > 1]
    return choices[rng.randrange(len(choices) // 3, 2 * len(choices) // 3)]


@pytest.mark.parametrize("level", [Level.EASY, Level.MEDIUM, pytest.param(Level.HARD, marks=pytest.mark.slow)])
@pytest.mark.parametrize(("name", "players"), [("aspens", 2), ("bosk", 2), ("mighty_trees", 2)])
def test_the_coach_at_every_level_returns_a_legal_move_in_a_mid_game_position(name, players, level):
    state = mid_game(name, players, seed=list(Level).index(level))
    bot = COACH_BOTS[f"coach-{level}"](random.Random(5))
    move = bot.choose(state)
    assert move in state.legal_actions()
    assert state.apply(move).history[-1] == move  # the engine takes it
    assert bot.last_search.iterations == iterations_for(level, name, players)  # thought at its level's budget
