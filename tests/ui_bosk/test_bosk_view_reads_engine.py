"""The Bosk views decide no rule: covering costs, the wind board, the park's sides and the tie-breaks
all come from the engine's accessors (and its words)."""

from __future__ import annotations

import random
from pathlib import Path

from bosk_moments import covering_moment, play_until

from treegames import bosk, core
from treegames.bosk import Phase
from treegames.ui.bosk import scene, steps
from treegames.ui.bosk.play import BoskPlay, tie_note
from treegames.ui.bosk.targets import targets

UI_BOSK = Path(scene.__file__).parent

RULE_SHORTCUTS = (
    "pile[-1] !=",  # covering costs (Covering other leaves 1)
    ".opposite()",  # which way the wind blows from the board's side (Initial Wind Direction)
    "game.wind_pattern",  # the wind board's arrows
    "WIND_SPOT_TREE_VALUE",  # the required tree values
    "squirrel_tile_value",  # the squirrel tile's turn order
    "closest_clockwise",
    "closest_either_way",
)


def test_no_view_module_computes_a_rule_the_engine_reports():
    for path in sorted(UI_BOSK.glob("*.py")):
        text = path.read_text(encoding="utf-8")
        for shortcut in RULE_SHORTCUTS:
            assert shortcut not in text, f"{path.name} computes {shortcut!r}; read the engine's accessor instead"


def test_leaf_targets_carry_the_engines_covering_costs():
    state = covering_moment()
    squares = targets(state).squares
    assert squares == {(a.row, a.col): state.covering_cost(a.row, a.col) for a in state.legal_actions()}
    assert any(squares.values())


def test_the_wind_board_is_drawn_from_the_engines_spots():
    state = play_until(2, 1, lambda s: s.phase is Phase.FALLING_LEAVES and s.round == 3)
    spots = scene.wind_board_spots(state)
    board = state.wind_board
    assert spots == [(w.spot, w.direction.index, w.required) for w in board.spots]
    assert board.marker == 3 and spots[2][1] == state.wind_direction.index
    texts = scene.park_scene(state).texts()
    assert texts.count("*") == 4 and all(str(v) in texts for v in (1, 2, 3, 4))


def test_the_keyboard_visits_the_sides_the_engine_names_in_the_wind_step():
    assert "keyboard_targets" not in BoskPlay.__dict__, "the kit's keyboard targets, from actions_at, suffice"
    w = BoskPlay(players=2, seed=1, seats=("human", "human"))
    w.open_states([play_until(2, 1, lambda s: s.phase is Phase.WIND)])
    assert w.keyboard_targets() == ["north", "east", "south", "west"]
    for side in w.keyboard_targets():
        assert w.action_for(w.state, side) == w.state.actions_at(side)[0]
    tips = [b.tooltip for b in w.choices.side_buttons]
    assert tips[0].endswith("blows south") and tips[1].endswith("blows west")


def test_the_keyboard_visits_exactly_the_engines_places_in_every_phase():
    w = BoskPlay(players=2, seed=3, seats=("human", "human"))
    rng = random.Random(3)
    seen = set()
    for _ in range(120):
        s = w.state
        if s.is_terminal():
            break
        if s.current_player >= 0 and s.phase not in (Phase.SUMMER, Phase.WINTER):
            expected = [p for p in w.places() if s.actions_at(p)]
            assert w.keyboard_targets() == expected and expected, s.phase
            seen.add(s.phase)
        w.timeline.push(core.step(s, [core.RandomBot(rng)] * 2, rng))
    assert {Phase.SPRING, Phase.WIND, Phase.FALLING_LEAVES, Phase.LEAF_PLACEMENT} <= seen


def test_a_summer_tie_note_is_the_engines_tie_break_sentence():
    script = steps.walkthrough_steps()
    summer = script[26].state
    assert summer.last_decision.is_tie
    assert tie_note(summer) == summer.decision_text() and tie_note(summer) in summer.last_event
    assert "clockwise from the previous start player" in tie_note(summer)


def test_end_of_round_notes_use_the_engines_decision():
    script = steps.walkthrough_steps()
    ends = [s for s in script if s.index and s.state.round != script[s.index - 1].state.round
            and script[s.index - 1].state.round]
    assert len(ends) == bosk.ROUNDS - 1
    for s in ends:
        decision = s.state.last_decision
        text, interp = steps.end_of_round_note(s.state)
        assert f"({min(decision.values)})" in text
        assert bool(interp) == decision.is_tie
