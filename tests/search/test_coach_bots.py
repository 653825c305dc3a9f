"""The coach as a bot: in every game's GameType.bots, at three budgets, playing whole legal games."""

from __future__ import annotations

import random

import pytest

from treegames import core, plugins
from treegames.lab import TournamentSpec, binomial_test, run_tournament
from treegames.search import (
    COACH_BOTS,
    LEVEL_ITERATIONS,
    Budget,
    CoachBot,
    Level,
    Rollout,
    Search,
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


def _own_next_decision(name: str, players: int, seed: int):
    """A seeded position from random play where the mover, after the coach's move, moves again (the same turn)."""
    rng = random.Random(seed)
    game_type = core.games()[name]
    state = game_type.new_game(**({"players": players} if len(game_type.players) > 1 else {})).new_initial_state()
    while not state.is_terminal():
        if state.current_player == core.CHANCE:
            state = state.apply(core.sample_chance(state, rng))
            continue
        legal = state.legal_actions()
        if len(legal) > 1 and all(state.apply(a).current_player == state.current_player for a in legal):
            return state
        state = state.apply(rng.choice(legal))
    raise AssertionError(f"{name}: no position where every move leaves the mover to move again")


@pytest.mark.parametrize(("name", "players", "trees"), [("aspens", 2, 1), ("bosk", 2, 1), ("bosk", 2, 2)])
def test_the_coach_goes_on_from_the_node_of_its_move_and_runs_only_the_rest_of_its_budget(name, players, trees):
    state = _own_next_decision(name, players, 5)
    bot = CoachBot(random.Random(1), iterations=300, trees=trees)
    action = bot.choose(state)
    search = bot.last_search
    after = state.apply(action)
    parts = search.trees if trees > 1 else [search]
    below = [{a: n.visits for a, n in tree.root.children[action].children.items()} for tree in parts]
    held = sum(tree.root.children[action].visits for tree in parts)
    assert 0 < held < 300
    assert bot.choose(after) in after.legal_actions()
    assert bot.last_search is search and search.state == after
    assert search.iterations == 300, "the root holds exactly the budget: the kept playouts and the rest run now"
    for tree, before in zip(parts, below, strict=True):
        assert tree.root.state == after
        assert all(tree.root.children[a].visits >= visits for a, visits in before.items()), "no kept playout is lost"
        for node, actions in _walk(tree.root):  # what was kept still stands for the states its path leads to
            replayed = after
            for move in actions:
                replayed = replayed.apply(move)
            assert node.state == replayed


def _walk(node, actions=(), limit=3):
    """Every node down to ``limit`` actions below ``node``, with the actions leading to it."""
    yield node, actions
    if len(actions) < limit:
        for action, child in node.children.items():
            yield from _walk(child, (*actions, action), limit)


def test_a_coach_told_not_to_keep_its_tree_searches_each_decision_afresh_at_its_whole_budget():
    state = _own_next_decision("bosk", 2, 5)
    bot = CoachBot(random.Random(1), iterations=300, trees=1, keep_tree=False)
    after = state.apply(bot.choose(state))
    first = bot.last_search
    bot.choose(after)
    assert bot.last_search is not first and bot.last_search.iterations == 300
    assert sum(child.visits for child in bot.last_search.root.children.values()) == 300  # every playout is new


def test_a_position_the_last_search_never_reached_gets_a_new_tree():
    state = _own_next_decision("bosk", 2, 5)
    bot = CoachBot(random.Random(1), iterations=200, trees=1)
    bot.choose(state)
    first = bot.last_search
    bot.choose(state)  # as after an undo: the position before the move, which no node below the move stands for
    assert bot.last_search is not first and bot.last_search.iterations == 200
    assert first.move_to(first.statistics()[0].action, state) == 0 and first.iterations == 0
    assert first.root.children == {} and first.state == state


def test_the_position_one_action_after_the_coachs_move_is_found_too():
    state = _own_next_decision("bosk", 2, 5)
    search = Search(state, random.Random(3), prior="greedy")
    search.think(Budget(iterations=400))
    action, child = max(search.root.children.items(), key=lambda item: item[1].visits)
    further, grandchild = max(child.children.items(), key=lambda item: item[1].visits)
    target = state.apply(action).apply(further)
    assert search.move_to(action, target) == grandchild.visits > 0
    assert search.root is grandchild and search.state == target and search._legal == target.legal_actions()


def test_a_coach_with_hidden_cards_keeps_no_tree_since_each_playout_dealt_another_world():
    game = core.games()["mighty_trees"].new_game()
    bot = CoachBot(random.Random(1), iterations=20)
    core.play(game, [bot, core.RandomBot(random.Random(2))], random.Random(3))
    assert bot.last_search is not None and bot._kept is None


def test_a_coach_that_keeps_its_tree_still_replays_the_same_game_for_a_seed():
    game = core.games()["bosk"].new_game(players=2)

    class Counting(CoachBot):
        """A coach that counts the decisions where its last search went on."""

        kept = 0

        def _kept_search(self, state):
            search = super()._kept_search(state)
            self.kept += search is not None
            return search

    def actions():
        """The actions of one seeded game between two coaches that keep their trees, and how often they kept one."""
        bots = [Counting(random.Random(1), iterations=60), Counting(random.Random(2), iterations=60)]
        history = [str(a) for a in core.play(game, bots, random.Random(3)).history]
        return history, sum(bot.kept for bot in bots)

    first, again = actions(), actions()
    assert first == again and first[1] > 10
