"""The coach's search: legal moves, its budget, seeds, cancel, progress, exact chance and hidden cards."""

from __future__ import annotations

import pickle
import random
import threading

import pytest

from treegames import core
from treegames import mighty_trees as mt
from treegames.lab import stats
from treegames.search import (
    Budget,
    HiddenInformationError,
    Progress,
    Rollout,
    Search,
    SearchError,
    WorldSampler,
    mcts,
)

pytestmark = pytest.mark.slow  # seconds of search or processes per test: not in make test-quick


def new_game(name: str, players: int = 2):
    """A game of ``name`` with ``players`` seats."""
    game_type = core.games()[name]
    return game_type.new_game(**({"players": players} if len(game_type.players) > 1 else {}))


def decision(name: str, seed: int, players: int = 2, moves: int = 6):
    """A position after ``moves`` random decisions where the mover has at least two choices."""
    rng = random.Random(seed)
    state = new_game(name, players).new_initial_state()
    made = 0
    while True:
        if state.current_player == core.CHANCE:
            state = state.apply(core.sample_chance(state, rng))
            continue
        if made >= moves and len(state.legal_actions()) > 1:
            return state
        state = state.apply(rng.choice(state.legal_actions()))
        made += 1


GAMES = [("aspens", 2), ("bosk", 2), ("bosk", 4), ("mighty_trees", 2), ("mighty_trees", 3)]


@pytest.mark.parametrize(("name", "players"), GAMES)
@pytest.mark.parametrize("rollout", list(Rollout))
def test_the_search_only_ever_returns_a_legal_move(name, players, rollout):
    for seed in range(2):
        state = decision(name, seed, players)
        search = Search(state, random.Random(seed), rollout=rollout)
        assert search.think(Budget(iterations=12)) == 12
        assert search.best() in state.legal_actions()
        assert all(row.action in state.legal_actions() for row in search.statistics())


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_the_same_seed_gives_the_same_statistics_and_another_seed_may_differ(name, players):
    state = decision(name, 3, players)
    runs = []
    for seed in (5, 5, 6):
        search = Search(state, random.Random(seed))
        search.think(Budget(iterations=40))
        runs.append([(r.notation, r.visits, r.wins) for r in search.statistics()])
    assert runs[0] == runs[1]
    assert sum(r[1] for r in runs[0]) == 40  # every playout went through exactly one root move


def test_an_iteration_budget_is_kept_and_thinking_longer_adds_to_the_same_tree():
    state = decision("mighty_trees", 1)
    search = Search(state, random.Random(1))
    search.think(Budget(iterations=30))
    first = {r.notation: r.visits for r in search.statistics()}
    assert search.think(Budget(iterations=50)) == 50
    assert search.iterations == 80
    after = {r.notation: r.visits for r in search.statistics()}
    assert sum(after.values()) == 80
    assert all(after[m] >= first[m] for m in first)


def test_a_time_budget_ends_the_search_by_itself():
    search = Search(decision("bosk", 1), random.Random(1))
    done = search.think(Budget(seconds=0.2))
    assert done >= 1 and search.iterations == done


def test_cancelling_with_an_event_stops_the_search_before_its_budget():
    search = Search(decision("aspens", 1), random.Random(1))
    stop = threading.Event()
    reports: list[Progress] = []

    def progress(report: Progress) -> None:
        reports.append(report)
        if report.done >= 32:
            stop.set()

    done = search.think(Budget(iterations=10_000), cancel=stop, progress=progress)
    assert 32 <= done < 10_000
    assert reports[-1].finished and reports[-1].done == done
    assert [r.done for r in reports] == sorted(r.done for r in reports)


def test_a_cancel_already_given_runs_no_playout_and_a_callable_works_too():
    search = Search(decision("bosk", 2), random.Random(1))
    assert search.think(Budget(iterations=100), cancel=lambda: True) == 0
    with pytest.raises(SearchError, match="cancel"):
        search.think(Budget(iterations=1), cancel="stop")


def test_progress_goes_from_part_done_to_finished():
    search = Search(decision("mighty_trees", 2), random.Random(1))
    reports: list[Progress] = []
    search.think(Budget(iterations=64), progress=reports.append)
    assert [r.fraction for r in reports[:-1]] == sorted(r.fraction for r in reports[:-1])
    assert 0 < reports[0].fraction < 1
    assert reports[-1].finished and reports[-1].fraction == 1.0 and reports[-1].total_iterations == 64


def test_the_statistics_use_the_labs_wilson_interval():
    assert mcts.wilson_interval is stats.wilson_interval
    search = Search(decision("mighty_trees", 4), random.Random(2))
    search.think(Budget(iterations=60))
    for row in search.statistics():
        assert (row.low, row.high) == stats.wilson_interval(row.wins, row.visits)
        assert row.low <= row.share <= row.high


def test_a_move_reads_in_the_engines_notation_with_its_share_interval_and_playouts():
    state = decision("aspens", 2)
    search = Search(state, random.Random(2))
    search.think(Budget(iterations=20))
    row = search.statistics()[0]
    text = row.text()
    assert text.startswith(f"{state.parse_action(str(row.action))}: wins ")
    assert f"of {row.visits} playout" in text
    assert row.description == state.describe(row.action)


def test_bad_searches_are_refused():
    game = new_game("bosk")
    start = game.new_initial_state()  # the start player is drawn first: chance acts
    with pytest.raises(SearchError, match="no move"):
        Search(start, random.Random(1))
    state = decision("bosk", 1)
    with pytest.raises(SearchError, match="rollout"):
        Search(state, random.Random(1), rollout="clever")
    with pytest.raises(SearchError, match="random.Random"):
        Search(state, rng=random)
    for bad in (dict(), dict(iterations=0), dict(iterations=2.5), dict(seconds=-1), dict(seconds=True)):
        with pytest.raises(SearchError):
            Budget(**bad)


# ------------------------------------------------------------------ Mighty Trees: hidden cards


def swap_hidden_cards(state, player: int):
    """The same position with one card swapped between another player's Command and the draw pile."""
    other = (player + 1) % state.num_players
    theirs = core.bits(state.hands[other])[0]
    pile = state.draw[0]
    s = state._draft()
    hands = list(state.hands)
    hands[other] = hands[other] & ~(1 << theirs) | (1 << pile)
    s.hands = tuple(hands)
    s.draw = tuple(sorted(set(state.draw) - {pile} | {theirs}))
    s.__class__ = type(state)
    return s


def test_two_coaches_that_see_the_same_view_choose_the_same_move_whatever_the_hidden_cards():
    state = decision("mighty_trees", 7)
    player = state.current_player
    other = swap_hidden_cards(state, player)
    assert other.hands != state.hands and other.view_for(player) == state.view_for(player)
    results = []
    for position in (state, other):
        search = Search(position, random.Random(11))
        search.think(Budget(iterations=60))
        results.append((search.best(), [(r.notation, r.visits, r.wins) for r in search.statistics()]))
    assert results[0] == results[1]


def test_a_sampled_world_keeps_what_the_player_sees_and_deals_only_unseen_cards():
    state = decision("mighty_trees", 8, players=3)
    player = state.current_player
    sampler = WorldSampler(state, player)
    worlds = [sampler.sample(random.Random(seed)) for seed in range(6)]
    for world in worlds:
        assert world.view_for(player).hand == state.view_for(player).hand
        assert world.cards_in_play() == state.cards_in_play()
        assert [h.bit_count() for h in world.hands] == [h.bit_count() for h in state.hands]
        assert len(world.draw) == len(state.draw) and world.history == ()
        assert set(world.legal_actions()) == set(state.legal_actions())
    assert len({w.hands for w in worlds}) > 1  # the unseen cards really are dealt at random


def test_a_world_sampler_refuses_a_player_not_in_the_game():
    with pytest.raises(HiddenInformationError, match="no player 5"):
        WorldSampler(decision("mighty_trees", 1), 5)


def test_games_without_hidden_cards_search_the_state_itself():
    state = decision("aspens", 3)
    assert WorldSampler(state, state.current_player).sample(random.Random(1)) is state
    assert mt.GAME_TYPE.has_hidden_information  # and Mighty Trees, which does hide cards, samples worlds
    hidden = decision("mighty_trees", 3)
    assert WorldSampler(hidden, hidden.current_player).sample(random.Random(1)) is not hidden


def _nodes(node, actions=()):
    """Every node below ``node`` with the actions (chance outcomes included) that lead to it."""
    for action, child in node.children.items():
        yield child, (*actions, action)
        yield from _nodes(child, (*actions, action))


@pytest.mark.parametrize(("name", "players"), [("aspens", 2), ("bosk", 2), ("bosk", 4)])
def test_a_tree_without_hidden_cards_keeps_each_nodes_state_and_searches_exactly_as_if_it_recomputed_them(
        name, players):
    state = decision(name, 4, players)
    kept = Search(state, random.Random(9), prior="greedy")
    kept.think(Budget(iterations=400))
    nodes = list(_nodes(kept.root))
    assert len(nodes) > 100 and all(node.state is not None for node, _ in nodes)
    for node, actions in nodes[::7]:  # a kept state is the state its path leads to (no playout wrote into it)
        replayed = state
        for action in actions:
            replayed = replayed.apply(action)
        assert node.state == replayed
    recomputed = Search(state, random.Random(9), prior="greedy")
    recomputed.keeps_states = False  # every state, legal list and parent count worked out anew, as before
    recomputed.think(Budget(iterations=400))
    assert [(r.notation, r.visits, r.reward) for r in kept.statistics()] == \
           [(r.notation, r.visits, r.reward) for r in recomputed.statistics()]
    assert all(node.state is None and node.legal is None for node, _ in _nodes(recomputed.root))


def test_a_tree_with_hidden_cards_keeps_no_state_since_each_playout_deals_another_world():
    search = Search(decision("mighty_trees", 4), random.Random(9), prior="greedy")
    search.think(Budget(iterations=100))
    assert all(node.state is None and node.legal is None for node, _ in _nodes(search.root))


@pytest.mark.parametrize(("name", "players"), [("aspens", 2), ("bosk", 2)])
def test_a_tree_sent_through_a_pickle_leaves_its_states_behind_and_grows_on_exactly_as_the_original(name, players):
    state = decision(name, 4, players)
    search = Search(state, random.Random(9), prior="greedy")
    search.think(Budget(iterations=300))
    sent = pickle.loads(pickle.dumps(search))  # a worker's tree, as it comes back (a state would replay its history)
    assert all(node.state is None and node.legal is None for node, _ in _nodes(sent.root))
    for tree in (search, sent):
        tree.think(Budget(iterations=300))
    assert [(r.notation, r.visits, r.reward) for r in sent.statistics()] == \
           [(r.notation, r.visits, r.reward) for r in search.statistics()]
    action = search.statistics()[0].action
    after = state.apply(action)
    assert sent.move_to(action, after) == search.move_to(action, after) > 0
    assert sent.root.state == search.root.state == after
