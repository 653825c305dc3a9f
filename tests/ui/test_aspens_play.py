"""The playable Aspens widget without a browser: buttons clicked, canvas clicks through the real handler, scenes checked."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from treegames import aspens, core
from treegames.aspens import Hex, Phase
from treegames.ui.aspens.play import AspensPlay
from treegames.ui.aspens.scene import dice_scene, game_scene
from treegames.ui.scene import Circles, Polygons
from treegames.ui.timeline import Timeline


def to_human_move(widget: AspensPlay) -> None:
    """Press Step until a person must act."""
    for _ in range(50):
        if widget.is_human_turn():
            return
        widget.step_button.click()
    raise AssertionError("never reached a human move")


def click_hex(widget: AspensPlay, cell: Hex) -> None:
    """Click the centre of a hex through the canvas handler."""
    widget.click(*widget.geo.center(cell))


def test_step_rolls_for_the_first_player_then_waits_for_the_human():
    w = AspensPlay(seed=3)
    assert w.state.current_player == core.CHANCE
    w.step_button.click()
    assert w.state.history and str(w.state.history[0]).startswith("first")
    to_human_move(w)
    assert w.state.phase == Phase.SEED and w.state.current_player == 0


def test_clicking_a_highlighted_hex_plants_there():
    w = AspensPlay(seed=3)
    to_human_move(w)
    target = sorted(w.state.legal_targets()["seed"])[0]
    click_hex(w, target)
    assert w.state.owner(target) == 0 and w.state.height(target) == 1
    assert w.message.value == ""


def test_clicking_water_explains_and_changes_nothing():
    w = AspensPlay(seed=3)
    to_human_move(w)
    before = w.state
    frames = w.board_view.frames
    click_hex(w, sorted(w.state.board.water)[0])
    assert w.state is before and len(w.timeline.states) == 2 or w.state == before
    assert "Not allowed" in w.message.value and "water" in w.message.value.lower()
    assert w.board_view.frames == frames, "a refused click does not redraw the board"


def test_clicking_off_the_board_or_during_a_roll_is_harmless():
    w = AspensPlay(seed=3)
    w.click(1, 1)
    assert "off the board" in w.message.value
    click_hex(w, Hex(0, 0))
    assert "dice come first" in w.message.value and w.state.history == ()


def test_rapid_repeated_clicks_never_corrupt_the_game():
    w = AspensPlay(seed=5)
    to_human_move(w)
    target = sorted(w.state.legal_targets()["seed"])[0]
    for _ in range(10):
        click_hex(w, target)
    mine = [a for a in w.state.history if str(a) == f"seed {aspens.cell_name(target)}"]
    assert len(mine) == 1, "the second click on the same space is refused"
    assert core.replay(w.game, w.state.history) == w.state


def test_back_forward_and_undo():
    w = AspensPlay(seed=3)
    to_human_move(w)
    click_hex(w, sorted(w.state.legal_targets()["seed"])[0])
    after = w.state
    w.back_button.click()
    assert w.state != after and w.forward_button.disabled is False
    w.forward_button.click()
    assert w.state == after
    w.undo_button.click()
    assert w.state.current_player == 0 and len(w.timeline.states) == len(after.history)


def test_a_die_roll_cannot_be_undone():
    t = Timeline(aspens.new_game().new_initial_state())
    t.push(t.current.apply(t.current.legal_actions()[0]))  # first player: a chance outcome
    assert not t.can_undo() and not t.undo()


def test_end_turn_is_disabled_while_holding_more_than_five():
    w = AspensPlay(seed=2, aspen="human", pine="greedy")
    for _ in range(400):
        if w.is_human_turn() and w.state.phase == Phase.PLANT:
            break
        if w.is_human_turn():
            click_hex(w, sorted(w.state.legal_targets()["seed"] | w.state.legal_targets()["grow-up"])[0])
        else:
            w.step()
    s = w.state
    assert s.phase == Phase.PLANT
    assert w.end_turn_button.disabled == (s.hand(0) > aspens.HOLD_LIMIT)


@pytest.mark.slow  # a second or more of CPU: make test runs it, test-quick does not
def test_a_person_can_play_a_whole_game_by_clicking():
    """The 'done' bar: no code, no error, from the first roll to the final score."""
    w = AspensPlay(seed=11, aspen="human", pine="greedy")
    person = random.Random(4)
    for _ in range(5000):
        s = w.state
        if s.is_terminal():
            break
        if not w.is_human_turn():
            w.step_button.click()
            continue
        targets = s.legal_targets()
        cells = sorted(targets["seed"] | targets["grow-up"] | targets["grow-out"])
        if s.can_end_turn() and (not cells or person.random() < 0.05):
            w.end_turn_button.click()
        else:
            click_hex(w, person.choice(cells))
            assert "Not allowed" not in w.message.value
    s = w.state
    assert s.is_terminal() and sum(s.scores()) == len(s.board.playable)
    assert "Game over" in w.title.value


@pytest.mark.slow  # a second or more of CPU: make test runs it, test-quick does not
def test_new_game_form_sets_up_two_bots_to_watch():
    w = AspensPlay()
    w.setup_choice.value, w.seed_choice.value = 6, 9
    w.aspen_choice.value, w.pine_choice.value = "greedy", "random"
    w.new_game_form.children[-1].click()
    assert w.game.options["setup"] == 6 and not w.is_human_turn()
    assert w.run_auto() > 100 and w.state.is_terminal()


def test_auto_play_stops_when_a_person_must_move():
    w = AspensPlay(seed=3, aspen="greedy", pine="human")
    w.run_auto()
    assert w.is_human_turn() and w.state.current_player == 1


def test_event_log_jumps_to_an_entry():
    w = AspensPlay(seed=1, aspen="greedy", pine="greedy")
    for _ in range(12):
        w.step()
    w.event_log.value = 4
    assert w.timeline.cursor == 4 and len(w.state.history) == 4


def test_scene_shows_owners_stacks_targets_and_wind():
    w = AspensPlay(seed=1, aspen="greedy", pine="human")
    w.run_auto()
    s = w.state
    scene = game_scene(s, w.geo, show_targets=True)
    labels = scene.texts()
    for cell in s.spaces(0) | s.spaces(1):
        assert str(s.height(cell)) in labels
    circles = [op for op in scene.ops if isinstance(op, Circles)]
    assert len(circles[0].centres) == len(s.spaces(0)), "Aspen's round tokens"
    highlighted = {tag for op in scene.ops if isinstance(op, Polygons) for tag in op.tags}
    targets = s.legal_targets()
    assert (targets["seed"] | targets["grow-out"] | targets["grow-up"]) <= highlighted


@pytest.mark.parametrize("rolled", [False, True])
def test_dice_scene_shows_the_faces(rolled):
    state = aspens.new_game().new_initial_state()
    if rolled:
        state = core.play(aspens.new_game(), [core.RandomBot(random.Random(1))] * 2, random.Random(1))
        state = core.replay(aspens.new_game(), [a for a in state.history[:40]])
        while state.wind is None:
            state = state.apply(state.legal_actions()[0])
    labels = dice_scene(state).texts()
    if rolled:
        assert str(state.sun) in labels and state.wind.name in labels
    else:
        assert labels.count("?") == 2


def test_odds_tab_follows_the_position_with_exact_numbers():
    from treegames.aspens import gain_distribution

    w = AspensPlay(seed=1, aspen="greedy", pine="greedy")
    for _ in range(30):
        w.step()
    assert w.odds.stacks is None, "nothing is computed while the tab is closed"
    w.tabs.selected_index = 2
    s = w.state
    assert w.odds.panels[0].dist == gain_distribution(s.stacks(0))
    assert w.odds.panels[1].dist == gain_distribution(s.stacks(1))
    w.odds.simulator.roll_hundred.click()
    assert w.odds.simulator.total == 100


@given(st.lists(st.sampled_from(["push", "back", "forward", "undo", "jump"]), max_size=40), st.integers(0, 50))
@settings(max_examples=60, deadline=None)
def test_timeline_keeps_a_consistent_list_of_states(moves, where):
    game = aspens.new_game()
    t = Timeline(game.new_initial_state())
    rng = random.Random(len(moves))
    for move in moves:
        if move == "push" and not t.current.is_terminal():
            s = t.current
            t.push(s.apply(core.sample_chance(s, rng) if s.current_player == core.CHANCE
                           else core.RandomBot(rng).choose(s)))
        elif move == "back":
            t.back()
        elif move == "forward":
            t.forward()
        elif move == "undo":
            t.undo()
        else:
            t.jump(where)
        assert 0 <= t.cursor < len(t.states)
        for earlier, later in zip(t.states, t.states[1:], strict=False):
            assert later.history[:-1] == earlier.history, "each state follows from the one before"
