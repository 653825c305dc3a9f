"""Bad input never corrupts anything: IllegalAction names the rule and the state stays equal."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from treegames import core
from treegames.bosk import Action, Kind, new_game
from treegames.core import IllegalAction, SavedGameError


def refuse(state, text: str, rule: str) -> None:
    """Applying ``text`` raises IllegalAction mentioning ``rule`` and leaves ``state`` equal."""
    before_key, before_json = state._key(), state.to_json()
    with pytest.raises(IllegalAction, match=rule):
        state.apply(state.parse_action(text))
    assert state._key() == before_key and state.to_json() == before_json


def test_tree_on_an_edge(game2, play):
    refuse(play(game2.new_initial_state(), "start player 1"), "tree 2 at a3", "I. Spring 1, note")


def test_tree_on_a_corner(game2, play):
    refuse(play(game2.new_initial_state(), "start player 1"), "tree 2 at h8", "edges, corners")


def test_tree_on_an_occupied_intersection(game2, play):
    refuse(play(game2.new_initial_state(), "start player 1", "tree 2 at d4"), "tree 3 at d4", "unoccupied")


def test_wrong_value_tree_in_rounds_1_to_4(autumn):
    refuse(autumn, "autumn tree b4 tile 5", "Falling Leaves 1a.i")


def test_another_players_tree(autumn):
    refuse(autumn, "autumn tree e4 tile 5", "Falling Leaves 1a")


def test_reused_leaf_tile(autumn, play):
    state = play(autumn, "autumn tree c3 tile 2", "leaf C3", "leaf C4", "autumn tree d3 tile 2", "leaf D3",
                 "leaf D4")
    refuse(state, "autumn tree c5 tile 2", "Falling Leaves 1b and 1f")


def test_leaf_off_the_path(autumn, play):
    state = play(autumn, "autumn tree c3 tile 4", "leaf C3")
    refuse(state, "leaf F6", "Leaf Placement 2")
    refuse(state, "leaf C3", "Leaf Placement 2")  # no going back


def test_first_leaf_not_beside_the_tree(autumn, play):
    refuse(play(autumn, "autumn tree c3 tile 4"), "leaf C2", "Leaf Placement 1")


def test_leaf_on_a_squirrel(autumn, play):
    state = play(autumn, "autumn tree c3 tile squirrel", "squirrel C3", "autumn tree d3 tile 3")
    refuse(state, "leaf C3", "Squirrel 1b")


def test_cover_without_enough_active_leaves(autumn, play):
    state = play(autumn, "autumn tree c3 tile 2", "leaf C3", "leaf C4", "autumn tree d3 tile 3", "leaf C3")
    refuse(state, "leaf C4", "Covering other leaves")


def test_squirrel_out_of_reach(autumn, play):
    refuse(play(autumn, "autumn tree c3 tile squirrel"), "squirrel C7", "Squirrel 1")


def test_action_of_the_wrong_step(autumn, play):
    refuse(autumn, "leaf C3", "Falling Leaves")
    refuse(autumn, "tree 1 at d4", "Falling Leaves")
    refuse(autumn, "score winter", "Falling Leaves")


def test_actions_after_the_game_is_over():
    import random

    rng = random.Random(1)
    final = core.play(new_game(2), [core.RandomBot(rng)] * 2, rng)
    refuse(final, "score winter", "End of the Game")
    assert final.legal_actions() == []


def test_malformed_action_values(autumn):
    for bad in (Action(Kind.LEAF, 40, 40), Action(Kind.CHOOSE, -5, 99, 3), ("leaf", 1, 1, -1), 17, None):
        with pytest.raises(IllegalAction):
            autumn.apply(bad)


@pytest.mark.parametrize(
    "text, message",
    [
        ("plant a tree", "cannot read"),
        ("tree 5 at c4", "values 1 to 4"),
        ("tree 2 at z9", "not a trail intersection"),
        ("leaf Q1", "not a terrain square"),
        ("autumn tree c3 tile 1", "leaf tiles are 2 through 8"),
        ("start player 3", "no player 3"),
        ("wind from up", "cannot read"),
        ("", "cannot read"),
    ],
)
def test_parse_action_clear_errors(game2, text, message):
    with pytest.raises(IllegalAction, match=message):
        game2.new_initial_state().parse_action(text)


@pytest.mark.parametrize(
    "text",
    ["tree ١ at b2", "tree ２ at b2", "tree 2 at b٢", "leaf E٦", "squirrel F７", "start player ١",
     "autumn tree c3 tile ٦", "tree 2 at é3", "leaf É3"],
)
def test_notation_takes_ascii_digits_and_letters_only(game2, text):
    """Every game's notation is ASCII: other digits (Arabic-Indic, full-width) and letters are refused."""
    from treegames.bosk import NotationError

    with pytest.raises(NotationError):
        game2.new_initial_state().parse_action(text)


def test_parse_action_is_forgiving_about_case_and_spaces(autumn):
    assert autumn.parse_action("  Autumn  Tree C3 TILE Squirrel ") == autumn.parse_action("autumn tree c3 tile squirrel")
    assert autumn.parse_action("leaf e6") == Action(Kind.LEAF, 5, 4)


# ---------------------------------------------------------------- saved games


def test_state_from_json_refuses_malformed_and_tampered_text(autumn, game2):
    good = json.loads(autumn.to_json())
    cases = [
        "not json at all",
        autumn.to_json()[:-10],
        json.dumps([1, 2, 3]),
        json.dumps({**good, "format": "other/9"}),
        json.dumps({**good, "game": "aspens"}),
        json.dumps({**good, "options": {**good["options"], "players": 3}}),
        json.dumps({k: v for k, v in good.items() if k != "history"}),
        json.dumps({**good, "history": "start player 1"}),
        json.dumps({**good, "history": good["history"] + ["leaf C3"]}),  # wrong step now
        json.dumps({**good, "history": ["start player 1", "tree 1 at a1"]}),  # tree on the edge
        json.dumps({**good, "history": ["start player 1", "tree 1 at c3", "tree 1 at c3"]}),  # occupied
        json.dumps({**good, "history": ["start player 1", "grow everything"]}),
        json.dumps({**good, "history": [1, 2]}),
    ]
    for text in cases:
        with pytest.raises(SavedGameError):
            game2.state_from_json(text)
    with pytest.raises(SavedGameError):
        game2.state_from_json(None)  # type: ignore[arg-type]
    assert game2.state_from_json(autumn.to_json()) == autumn


def test_importing_bosk_leaves_ui_modules_out():
    code = (
        "import sys, treegames.bosk, treegames.bosk.bots; "
        "bad = [m for m in ('ipywidgets', 'ipycanvas', 'IPython') if m in sys.modules]; "
        "print(bad); sys.exit(1 if bad else 0)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr


def test_odd_action_values_are_normalised_or_refused(autumn, play):
    state = play(autumn, "autumn tree c3 tile 3")
    after = state.apply(Action(Kind.LEAF, 2, 2, 99))  # the unused value field is ignored
    assert after.history[-1] == state.parse_action("leaf C3")
    assert after.game.state_from_json(after.to_json()) == after
    for bad in (Action(Kind.LEAF, 2.0, 2), Action(Kind.LEAF, True, 2), Action(Kind.LEAF, "2", 2)):
        with pytest.raises(IllegalAction, match="not a Bosk action"):
            state.apply(bad)


def test_states_cannot_be_changed_in_place(autumn):
    with pytest.raises(AttributeError, match="immutable"):
        autumn.active = 5
    with pytest.raises(AttributeError):
        autumn.phase = "spring"


def test_states_pickle_and_copy_as_equal_states(autumn, play):
    import copy
    import pickle

    state = play(autumn, "autumn tree c3 tile 3", "leaf C3")
    assert pickle.loads(pickle.dumps(state)) == state
    assert copy.deepcopy(state) is state and copy.copy(state) is state
