"""The Bosk play dashboard without a browser: canvas clicks and buttons through the real handlers."""

from __future__ import annotations

import random

import pytest

from treegames import bosk, core
from treegames.bosk import Phase
from treegames.ui import safety
from treegames.ui.bosk.play import BoskPlay
from treegames.ui.bosk.targets import targets
from treegames.ui.canvas import client_event


def to_person(w: BoskPlay, limit: int = 400) -> None:
    """Press Step until a person must act."""
    for _ in range(limit):
        if w.is_human_turn() or w.state.is_terminal():
            return
        w.step_button.click()
    raise AssertionError("never reached a person's move")


def click_crossing(w: BoskPlay, row: int, col: int) -> None:
    """Click a trail crossing through the canvas handler."""
    w.click(*w.geo.intersection_xy(row, col))


def click_square(w: BoskPlay, row: int, col: int) -> None:
    """Click the middle of a square through the canvas handler."""
    w.click(*w.geo.square_centre(row, col))


def button(buttons, description: str):
    """The visible button with this label."""
    return next(b for b in buttons if b.description == description and b.layout.display != "none")


def test_spring_crossing_then_value():
    w = BoskPlay(players=2, seed=1)
    to_person(w)
    assert w.state.phase is Phase.SPRING
    click_crossing(w, 3, 3)
    assert w.pending == (3, 3) and "d4" in w.choices.prompt.value and "Not allowed" not in w.message.value
    button(w.choices.value_buttons, "tree 3").click()
    assert w.state.tree_at_intersection(3, 3) == (0, 3)


def test_spring_value_then_crossing():
    w = BoskPlay(players=2, seed=1)
    to_person(w)
    button(w.choices.value_buttons, "tree 4").click()
    assert w.chosen_value == 4 and w.choices.value_buttons[3].button_style == "warning"
    click_crossing(w, 2, 5)
    assert w.state.tree_at_intersection(2, 5) == (0, 4)
    assert w.chosen_value is None, "the choice is forgotten once played"


def test_a_click_on_the_edge_says_which_rule_forbids_it_and_changes_nothing():
    w = BoskPlay(players=2, seed=1)
    to_person(w)
    before, frames = w.state, w.board_view.frames
    click_crossing(w, 0, 3)
    assert w.state is before and w.pending is None
    assert "Not allowed" in w.message.value and "I. Spring 1, note" in w.message.value
    assert w.board_view.frames == frames


def test_a_click_on_an_occupied_crossing_is_refused_by_the_engine():
    w = BoskPlay(players=2, seed=1, seats=("human", "human"))
    to_person(w)
    button(w.choices.value_buttons, "tree 1").click()
    click_crossing(w, 3, 3)
    button(w.choices.value_buttons, "tree 2").click()
    click_crossing(w, 3, 3)
    assert "already holds" in w.message.value and len(w.state.history) == 2


def autumn_person(seed: int = 3) -> BoskPlay:
    """A 2-player dashboard at a person's first autumn choice (Maple a person, both played greedily so far)."""
    w = BoskPlay(players=2, seed=seed, seats=("human", "human"))
    greedy = bosk.GreedyBot(random.Random(0))
    while w.state.phase is not Phase.FALLING_LEAVES:
        if w.state.current_player < 0:
            w.step_button.click()
        else:
            w.play(greedy.choose(w.state))
    return w


def test_a_tree_the_wind_board_does_not_allow_is_refused_with_the_rule():
    w = autumn_person()
    s = w.state
    need = s.required_tree_value
    wrong = next(rc for rc, (owner, value) in s.trees_on_board().items()
                 if owner == s.current_player and value != need)
    click_crossing(w, *wrong)
    assert w.state is s and "Falling Leaves 1a.i" in w.message.value and w.pending is None


def test_a_leaf_off_the_path_is_refused_with_the_rule_and_a_cost_is_announced():
    w = autumn_person()
    s = w.state
    t = targets(s)
    click_crossing(w, *t.trees[0])
    button(w.choices.tile_buttons, "tile 8").click()
    s = w.state
    assert s.phase is Phase.LEAF_PLACEMENT and "active leaves" in w.choices.prompt.value
    legal = set(targets(s).squares)
    wrong = next((r, c) for r in range(7) for c in range(7) if (r, c) not in legal)
    click_square(w, *wrong)
    assert w.state is s and "Leaf Placement 1" in w.message.value


def test_save_and_open_replays_the_game():
    w = BoskPlay(players=3, seed=4, seats=("greedy",) * 3)
    for _ in range(30):
        w.step_button.click()
    text = w.save_text()
    other = BoskPlay(players=2, seed=1)
    other.open_saved(text)
    assert other.state == w.state and other.state.num_players == 3
    assert other.board_view.last_scene.texts() == w.board_view.redraw().texts()


def test_a_tie_for_the_hiker_is_explained():
    from treegames.ui.bosk.steps import walkthrough_steps

    script = walkthrough_steps()
    w = BoskPlay(players=3, seed=9, seats=("greedy", "random", "greedy"))
    w.open_states([step.state for step in script[:27]])
    assert "Why:" in w.explanation.value and "clockwise from the previous start player" in w.explanation.value


def test_the_board_highlights_targets_only_for_a_person():
    w = BoskPlay(players=2, seed=1, seats=("greedy", "greedy"))
    w.step_button.click()
    scene = w.board_view.redraw()
    from treegames.ui.bosk.scene import TARGET
    from treegames.ui.palette import hex_to_rgb
    yellow = [op for op in scene.ops if hasattr(op, "radii") and len(op.fill)
              and tuple(op.fill[0]) == hex_to_rgb(TARGET)]
    assert not yellow


def test_nonsense_clicks_are_ignored():
    w = BoskPlay(players=2, seed=1)
    to_person(w)
    before = w.state
    for x, y in ((-50.0, -50.0), (1e9, 1e9), (3.0, 3.0)):
        w.click(x, y)
        assert w.state is before
    client_event(w.board_view.canvas, {"event": "mouse_down", "x": float("nan"), "y": 10.0})
    assert w.state is before


def test_a_tree_can_be_grown_by_keyboard_alone():
    w = BoskPlay(players=2, seed=1)
    to_person(w)
    w.key("Tab")
    first = w.cursor
    assert first in w.keyboard_targets() and "Enter chooses it" in w.message.value
    w.key("ArrowRight")
    assert w.cursor != first
    w.key("Enter")
    assert w.pending is not None
    w.key("3")
    row, col = w.state.history[-1].row, w.state.history[-1].col
    assert w.state.tree_at_intersection(row, col) == (0, 3)


def test_the_wind_board_side_by_keyboard():
    w = BoskPlay(players=2, seed=1, seats=("human", "human"))
    while w.state.phase is not Phase.WIND:
        s = w.state
        if s.current_player < 0:
            w.step_button.click()
        elif s.phase is Phase.SPRING:
            t = targets(s)
            w.play(bosk.Action(bosk.Kind.TREE, *t.intersections[0], t.tree_values[0]))
        else:
            w.choices.score_button.click()
    assert w.keyboard_targets() == ["north", "east", "south", "west"]
    w.key("Tab")
    w.key("Enter")
    assert w.state.phase is Phase.FALLING_LEAVES and str(w.state.history[-1]) == "wind from north"


def test_every_callback_is_guarded():
    w = BoskPlay(players=3, seed=2)
    assert safety.unguarded_callbacks(w) == []


def play_by_clicks(w: BoskPlay, person: random.Random, limit: int = 3000) -> int:
    """Play to the end: Step for bots and chance, clicks and buttons for the person (random legal choices)."""
    clicks = 0
    for _ in range(limit):
        s = w.state
        if s.is_terminal():
            return clicks
        if not w.is_human_turn():
            w.step_button.click()
            continue
        t = targets(s)
        before = len(s.history)
        if s.phase is Phase.SPRING:
            r, c = person.choice(t.intersections)
            value = person.choice(t.tree_values)
            if person.random() < 0.5:
                click_crossing(w, r, c)
                button(w.choices.value_buttons, f"tree {value}").click()
            else:
                button(w.choices.value_buttons, f"tree {value}").click()
                click_crossing(w, r, c)
        elif s.phase is Phase.FALLING_LEAVES:
            r, c = person.choice(t.trees)
            tile = person.choice(t.tiles)
            label = f"tile {'squirrel' if tile == bosk.SQUIRREL else tile}"
            if person.random() < 0.5:
                click_crossing(w, r, c)
                button(w.choices.tile_buttons, label).click()
            else:
                button(w.choices.tile_buttons, label).click()
                click_crossing(w, r, c)
        elif s.phase in (Phase.LEAF_PLACEMENT, Phase.SQUIRREL):
            click_square(w, *person.choice(sorted(t.squares)))
        elif s.phase is Phase.WIND:
            side = person.choice(t.sides)
            w.click(*w.geo.wind_spot_centre(side, 3))
        else:
            w.choices.score_button.click()
        clicks += 1
        assert "Not allowed" not in w.message.value, w.message.value
        assert len(w.state.history) == before + 1, (s.phase, w.message.value)
    raise AssertionError("the game did not end")


def test_a_person_plays_a_whole_two_player_game_by_clicks():
    """The 'done' bar: no code, no refusal, from the start player draw to the final result."""
    w = BoskPlay(players=2, seed=11, seats=("human", "greedy"))
    clicks = play_by_clicks(w, random.Random(4))
    s = w.state
    assert s.is_terminal() and clicks > 30
    assert "Game over" in w.title.value
    assert core.replay(w.game, s.history) == s
    assert w.tabs.get_title(w.tabs.selected_index) == "Winter", "the region table opens when winter is scored"
    assert "Winter points" in w.winter_note.value and len(w.winter_table.rows) == 8


def test_summer_opens_the_trail_table_and_a_row_highlights_its_trail():
    w = BoskPlay(players=2, seed=3, seats=("greedy", "greedy"))
    while w.state.phase is not Phase.WIND:
        w.step_button.click()
    assert w.tabs.get_title(w.tabs.selected_index) == "Summer"
    rows = w.summer_table.rows
    assert len(rows) == 12 and rows[0].name == "row 2"
    assert "has the fewest points" in w.summer_note.value or "tie for the fewest" in w.summer_note.value
    w.summer_table._buttons[7].click()
    assert w.marks.trail == rows[7].name
    scene = w.board_view.last_scene
    from treegames.ui.bosk.scene import TARGET
    assert any(getattr(op, "stroke", None) == TARGET for op in scene.ops), "the trail is highlighted"
    assert sum(r.result.points[0] for r in rows) == w.state.summer_scores[0]


def test_live_standings_follow_every_tree():
    w = BoskPlay(players=2, seed=1, seats=("human", "human"))
    to_person(w)
    titles = [w.tabs.get_title(i) for i in range(len(w.tabs.children))]
    w.tabs.selected_index = titles.index("Standings")
    assert all(r.result.case.value == "nobody there" for r in w.now_summer.rows)
    button(w.choices.value_buttons, "tree 2").click()
    click_crossing(w, 3, 3)
    row4 = next(r for r in w.now_summer.rows if r.name == "row 4")
    assert row4.result.values == (2, 0) and row4.result.case.value == "alone"
    assert "Summer now: Maple 6, Oak 0" in w.now_note.value


@pytest.mark.parametrize("players", [3, 4])
def test_new_game_form_sets_player_count_and_bots(players):
    w = BoskPlay(players=2, seed=1)
    w.form.option_boxes["players"].value = players
    for box in w.form.seat_boxes:
        box.value = "random"
    w.form.start_button.click()
    assert w.state.num_players == players and not w.is_human_turn()
    assert w.supplies_view.canvas.height == 8 + 46 * players
    assert w.run_auto(60) == 60 and w.state.phase is not Phase.START_PLAYER
    assert w.board_view.canvas.width == 504


def test_back_and_forward_keep_the_pictures_in_step():
    w = BoskPlay(players=2, seed=1, seats=("greedy", "greedy"))
    for _ in range(10):
        w.step_button.click()
    after = w.board_view.last_scene.texts()
    w.back_button.click()
    w.forward_button.click()
    assert w.board_view.last_scene.texts() == after
