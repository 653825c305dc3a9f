"""The rulebook walkthrough and the cascade example, headless."""

from __future__ import annotations

import json

import pytest

from treegames import aspens
from treegames.ui.aspens.walkthrough import CascadeExample, Walkthrough, cascade_example, states_from_script

NOTEBOOK = "notebooks/aspens/rules-walkthrough.ipynb"


def notebook_steps() -> list[tuple[str, str]]:
    """The STEPS list exactly as the walkthrough notebook defines it."""
    from pathlib import Path

    cells = json.loads((Path(__file__).resolve().parents[2] / NOTEBOOK).read_text())["cells"]
    source = next("".join(c["source"]) for c in cells if "STEPS = [" in "".join(c["source"]))
    namespace: dict = {}
    exec(source.split("walk = ")[0].replace("from treegames.ui.aspens.walkthrough import Walkthrough", ""),
         namespace)
    return namespace["STEPS"]


def test_the_notebook_script_is_legal_and_covers_setup_and_two_turns():
    steps = notebook_steps()
    states = states_from_script(aspens.new_game(), steps)
    phases = [s.phase for s in states]
    assert aspens.Phase.SEED in phases and aspens.Phase.GROW_START in phases
    assert sum(1 for notation, _ in steps if notation == "end-turn") == 2
    assert all(caption.strip() for _, caption in steps)


def test_a_wrong_step_is_refused_naming_it():
    with pytest.raises(ValueError, match="step 2 'seed H8'"):
        states_from_script(aspens.new_game(), [("first Aspen", ""), ("seed H8", "")])


def test_forward_then_back_shows_the_same_picture():
    walk = Walkthrough(notebook_steps())
    first = walk.board_view.make_scene()
    walk.forward_button.click()
    assert walk.index == 1 and "first Aspen" in walk.caption.value
    walk.back_button.click()
    again = walk.board_view.make_scene()
    assert [type(op) for op in first.ops] == [type(op) for op in again.ops]
    assert first.texts() == again.texts()


def test_buttons_stop_at_both_ends():
    walk = Walkthrough(notebook_steps())
    assert walk.back_button.disabled and not walk.forward_button.disabled
    walk.last_button.click()
    assert walk.forward_button.disabled and walk.index == len(walk.states) - 1
    walk.forward_button.click()
    assert walk.index == len(walk.states) - 1


def test_each_step_shows_the_engine_rule_with_its_section():
    walk = Walkthrough(notebook_steps())
    for i in range(len(walk.states)):
        walk.go(i)
        assert "rule now" in walk.rule.value
    walk.go(17)  # the wind roll of Aspen's first turn
    assert "Sun 3: Aspen has 2 spaces" in walk.rule.value


def test_cascade_example_fills_a_sealed_area():
    before, after = cascade_example(seed=3, min_size=3)
    filled = after.last_cascade
    assert len(filled) >= 3
    mover = before.current_player
    assert all(before.owner(c) is None and after.owner(c) == mover for c in filled)
    assert sum(after.scores()) - sum(before.scores()) == len(filled) + 1
    widget = CascadeExample()
    assert "Cascade" in widget.children[0].children[1].children[1].value
