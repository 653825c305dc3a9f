"""Less motion in the kernel: the checkbox the page ticks, and the slower timed steps while it is ticked."""

from __future__ import annotations

from treegames.ui.aspens.play import AspensPlay
from treegames.ui.motion import MOTION_CLASS, REDUCED_STEP_SECONDS, MotionPreference


def test_timed_steps_follow_the_speed_box_until_less_motion_is_asked_for():
    motion = MotionPreference()
    assert not motion.reduced
    assert motion.step_seconds(10) == 0.1 and motion.step_seconds(1) == 1.0
    motion.checkbox.value = True
    assert motion.reduced
    assert motion.step_seconds(10) == REDUCED_STEP_SECONDS and motion.step_seconds(30) == REDUCED_STEP_SECONDS


def test_the_page_script_reads_prefers_reduced_motion_and_ticks_the_kit_checkbox():
    motion = MotionPreference()
    (output,) = motion.script.outputs
    script = output["data"]["application/javascript"]
    assert "(prefers-reduced-motion: reduce)" in script
    assert f".{MOTION_CLASS} input[type=checkbox]" in script
    assert MOTION_CLASS in motion.checkbox._dom_classes and motion.checkbox.description == "Less motion"


def test_every_play_page_has_the_less_motion_box_with_the_speed_in_its_folded_settings():
    game = AspensPlay(setup=2, seed=1, aspen="greedy", pine="greedy")
    toolbar = next(box for box in game.right.children if game.auto_button in getattr(box, "children", ()))
    assert game.step_button in toolbar.children, "one toolbar: Auto-play sits with Step, Back, Forward, Undo"
    assert {game.motion, game.speed, game.answer_box} <= set(game.settings.body.children)
    assert game.settings in game.right.children and not game.settings.is_open, "folded away at first"
