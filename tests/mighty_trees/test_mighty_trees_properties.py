"""Mighty Trees invariants over random games of 2-8 players (hypothesis), notation, saved games and bots."""

from __future__ import annotations

import json
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from treegames import core
from treegames.core import CHANCE, IllegalAction, SavedGameError
from treegames.mighty_trees import Action, GreedyBot, NotationError, Phase, Verb, new_game, parse_action

VARIANTS = [
    {},
    {"without_quercus_marilandica": True},
    {"habitats_to_win": 2},
    {"ignore_lingering": True},
    {"two_sided_disasters": True},
    {"habitats_to_win": 2, "two_sided_disasters": True, "max_turns": 60},
    {"capture_at_round_end": True},
    {"capture_at_round_end": True, "habitats_to_win": 2},
]

games = st.tuples(st.integers(2, 8), st.integers(0, 10**6), st.sampled_from(VARIANTS))


def random_game(players: int, seed: int, options: dict) -> list:
    """Every state of one game played by RandomBots with a seeded random.Random."""
    game = new_game(players, **options)
    rng = random.Random(seed)
    return core.play(game, [core.RandomBot(rng) for _ in range(players)], rng, keep=True)


def universe(state) -> list[Action]:
    """Many candidate actions, legal or not, for the state's phase and mover."""
    n = state.num_players
    out = [Action(Verb.END), Action(Verb.END, 3)]
    out += [Action(Verb.DRAW, c) for c in range(0, 72, 5)] + [Action(Verb.HABITAT, h) for h in range(10)]
    out += [Action(Verb.FIRST, player=p) for p in range(-1, n + 1)]
    if state.phase is Phase.BATTLE:
        hand = [c.id for c in state.hand(state.mover)]
        for card in hand + [0, 40, 55, 60, 65, 71, 99]:
            out += [Action(v, card) for v in (Verb.PLANT, Verb.CLOUD, Verb.TREND, Verb.DISASTER)]
            out += [Action(Verb.DISCARD, card, place="hand"), Action(Verb.DISCARD, card)]
            out += [Action(Verb.DISASTER, card, p) for p in range(-1, n + 1)]
            out += [
                Action(Verb.PLANT, card, p, place, s)
                for p in range(n + 1)
                for place in ("understory", "canopy", "")
                for s in range(3)
            ]
        out += [Action(Verb.GROW, slot=s) for s in range(-1, 3)] + [Action(Verb.GROW, 5, slot=0)]
        out += [
            Action(Verb.DISCARD, place=p, slot=s) for p in ("understory", "canopy", "hedge") for s in range(3)
        ]
    return out + ["end please", None, ("plant", 3)]  # a str is parsed by apply now: use unreadable text


@settings(max_examples=60, deadline=None)
@given(games)
def test_invariants_hold_in_every_state(spec):
    players, seed, options = spec
    states = random_game(players, seed, options)
    deck = 71 if options.get("without_quercus_marilandica") else 72
    max_turns = states[0].game.max_turns  # the option, or 30 turns per player by default
    for state in states:
        assert state.cards_in_play() == deck  # card conservation
        assert 0 <= state.sols <= 3  # Sols never negative
        assert all(state.tree_count(p) <= 4 for p in range(players))
        assert all(len(state.hand(p)) <= 3 for p in range(players))
        assert state.turn <= max_turns + 1
        if state.current_player == CHANCE:
            outcomes = state.chance_outcomes()
            assert outcomes and sum(p for _, p in outcomes) == Fraction(1)
    final = states[-1]
    assert final.is_terminal()  # every game ends
    assert len(final.winners()) <= 1 and (final.winners() == () or max(final.scores()) >= 1)


@settings(max_examples=30, deadline=None)
@given(games, st.integers(0, 10**6))
def test_json_round_trips_to_an_equal_state(spec, pick):
    states = random_game(*spec)
    rng = random.Random(pick)
    for state in [states[-1]] + rng.sample(states, 3):
        again = state.game.state_from_json(state.to_json())
        assert again == state and hash(again) == hash(state)


@settings(max_examples=30, deadline=None)
@given(games, st.integers(0, 10**6))
def test_every_non_legal_action_is_refused_with_a_message(spec, pick):
    states = random_game(*spec)
    rng = random.Random(pick)
    for state in rng.sample(states, min(6, len(states))):
        legal = set(state.legal_actions())
        before = state._key()
        for action in universe(state):
            if action in legal:
                assert state.why_not(action) is None
                continue
            with pytest.raises(IllegalAction) as err:
                state.apply(action)
            assert len(str(err.value)) > 10
            assert state._key() == before


@settings(max_examples=30, deadline=None)
@given(games, st.integers(0, 10**6))
def test_notation_round_trips_and_words_exist(spec, pick):
    states = random_game(*spec)
    rng = random.Random(pick)
    for state in rng.sample(states, min(10, len(states))):
        assert state.explain()
        for action in state.legal_actions():
            assert parse_action(str(action)) == action
            assert state.parse_action(str(action).upper()) == action
            assert state.describe(action)


@settings(max_examples=15, deadline=None)
@given(games)
def test_views_hide_other_hands(spec):
    states = random_game(*spec)
    state = states[len(states) // 2]
    for p in range(state.num_players):
        view = state.view_for(p)
        assert view.hand == state.hand(p)
        assert view.hand_sizes == tuple(len(state.hand(q)) for q in range(state.num_players))
        assert view.draw_size == state.draw_size and not hasattr(view, "draw")


@settings(max_examples=15, deadline=None)
@given(games)
def test_a_view_with_the_true_hidden_cards_rebuilds_the_state(spec):
    states = random_game(*spec)
    for state in (states[len(states) // 3], states[-1]):
        for p in range(state.num_players):
            view = state.view_for(p)
            full = type(state).from_view(state.game, view, hands=state.hands, draw=state.draw,
                                         habitats_used=state.habitats_used)
            assert full.view_for(p) == view
            if state.current_player == p:  # the viewer's own moves, legal and worded, as in the real state
                assert full.legal_actions() == state.legal_actions()
                assert [full.describe(a) for a in full.legal_actions()] == \
                    [state.describe(a) for a in state.legal_actions()]
            alone = type(state).from_view(state.game, view)  # what the viewer knows, nothing more
            assert alone.hand(p) == state.hand(p) and alone.draw_size == 0
            assert all(len(alone.hand(q)) == 0 for q in range(state.num_players) if q != p)


def test_a_view_refuses_commands_that_do_not_fit_it():
    state = random_game(3, 5, {})[40]
    view = state.view_for(0)
    with pytest.raises(ValueError, match="Commands given do not fit"):
        type(state).from_view(state.game, view, hands=(0, 0, 0) if state.hands[0] else (1, 0, 0))
    with pytest.raises(ValueError, match="does not fit a 4-player game"):
        type(state).from_view(new_game(4), view)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "plant",
        "plant Quercus nonesuch",
        "grow two",
        "grow 0",
        "first X",
        "first P0",
        "habitat Atlantis",
        "fly away",
        "disaster Wildfire at Px",
        "draw",
        "end now",
        "discard",
        "cloud",
    ],
)
def test_parse_action_bad_notation_raises_clear_error(text):
    with pytest.raises(NotationError) as err:
        parse_action(text)
    message = str(err.value)
    assert message.strip() and (text.strip() == "" or repr(text)[1:-1] in message or "notation" in message)


def test_parse_action_reads_the_issue_examples():
    assert str(parse_action("plant Quercus marilandica")) == "plant Quercus marilandica"
    assert str(parse_action("grow 1")) == "grow 1"
    assert str(parse_action("disaster Wildfire")) == "disaster Wildfire"
    assert parse_action("end") == Action(Verb.END)
    assert (
        str(parse_action("  plant  quercus ALBA attack p2 Understory 1 "))
        == "plant Quercus alba attack P2 understory 1"
    )


@pytest.mark.parametrize(
    "text",
    [
        "not json",
        '{"format": "treegames-save/1"',
        "[1, 2]",
        json.dumps({"format": "treegames-save/1", "game": "mighty_trees", "options": {}, "history": []}),
        json.dumps({"format": "treegames-save/1", "game": "aspens", "options": {}, "history": []}),
    ],
)
def test_state_from_json_malformed_text_raises_saved_game_error(text):
    with pytest.raises(SavedGameError):
        new_game(2).state_from_json(text)


def test_state_from_json_tampered_history_raises_saved_game_error():
    game = new_game(2)
    states = random_game(2, 11, {})
    data = json.loads(states[40].to_json())
    for tampered in (
        ["habitat Atlantis"],
        data["history"][:5] + ["end"],
        data["history"] + ["grow 9"],
        [data["history"][0], data["history"][0]],
        data["history"][:3] + [7],
    ):
        bad = dict(data, history=tampered)
        with pytest.raises(SavedGameError):
            game.state_from_json(json.dumps(bad))
    with pytest.raises(SavedGameError):
        game.state_from_json(json.dumps(dict(data, options={"max_turns": 5})))


def test_state_is_immutable_under_apply():
    states = random_game(3, 5, {})
    for state in states[::25]:
        if state.is_terminal():
            continue
        key = state._key()
        action = state.legal_actions()[-1]
        state.apply(action)
        assert state._key() == key


def test_random_bot_plays_full_games():
    for players in range(2, 9):
        final = random_game(players, players, {})[-1]
        assert final.is_terminal()
        won = any(None not in final.canopy(p) or final.captured[p] for p in range(players))
        assert (final.winners() != ()) == won, "a winner exactly when someone captured the habitat"


def test_greedy_bot_beats_random_bot_clearly():
    game = new_game(2)
    greedy_wins = 0
    for seed in range(40):
        rng = random.Random(seed)
        seat = seed % 2
        bots = [core.RandomBot(rng), core.RandomBot(rng)]
        bots[seat] = GreedyBot()
        final = core.play(game, bots, rng)
        greedy_wins += final.winners() == (seat,)
    assert greedy_wins >= 32  # 80% or more


def test_greedy_bot_plays_every_player_count():
    for players in (3, 6, 8):
        rng = random.Random(players)
        final = core.play(new_game(players), [GreedyBot() for _ in range(players)], rng)
        assert len(final.winners()) <= 1 and sum(final.captured) == len(final.winners())
