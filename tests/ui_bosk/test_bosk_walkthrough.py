"""The Bosk rules walkthrough: the seeded script, its notes, and the dashboard stepping through it."""

from __future__ import annotations

import pytest

from treegames import bosk, core
from treegames.bosk import Kind, Phase
from treegames.ui.bosk.steps import CHAPTERS, chapter_starts, walkthrough_steps


@pytest.fixture(scope="module")
def script():
    """The walkthrough's steps."""
    return walkthrough_steps()


def test_the_script_is_a_whole_legal_three_player_game(script):
    first, last = script[0].state, script[-1].state
    assert first.num_players == 3 and last.is_terminal()
    assert core.replay(first.game, last.history) == last
    assert [s.index for s in script] == list(range(len(script)))


def test_every_chapter_is_there_in_rulebook_order(script):
    starts = chapter_starts(script)
    assert list(starts) == list(CHAPTERS)
    assert script[starts["II. Summer"]].notation == "score summer"
    assert script[starts["IV. Winter"]].notation == "score winter"


def test_every_step_has_the_engines_words_and_a_section(script):
    for step in script:
        assert step.rule.split(":")[0] in {"Setup 4", "I. Spring", "II. Summer", "End of the Game"} or \
            step.rule.startswith(("III. Autumn", "IV. Winter"))
        if step.index:
            assert step.event and step.notation == str(step.state.history[-1])


def test_the_notes_show_each_interpretation_where_it_matters(script):
    shown = {s.interpretation for s in script if s.interpretation}
    assert {"board sizes and regions", "the wind board's pattern", "the squirrel's reach",
            "ties clockwise from"} <= shown
    wind = next(s for s in script if s.notation.startswith("wind from"))
    assert wind.interpretation == "the wind board's pattern" and wind.index == 27, "the notebook names step 27"


def test_the_summer_tie_the_notebook_promises(script):
    summer = script[26]
    assert summer.notation == "score summer"
    totals = summer.state.summer_scores
    assert len(set(totals)) == 1, "the notebook says all three players tie after summer"
    assert "clockwise from the previous start player" in summer.note


def test_first_time_notes_are_not_repeated(script):
    notes = [s.note for s in script if s.note]
    assert len(notes) == len(set(notes))
    covers = [s for s in script if "Covering:" in s.note]
    assert len(covers) == 1
    s = covers[0]
    action = s.state.history[-1]
    pile = script[s.index - 1].state.pile(action.row, action.col)
    assert action.kind is Kind.LEAF and pile and pile[-1] != script[s.index - 1].state.current_player


def test_end_of_round_notes_name_the_new_start_player(script):
    for s in script:
        if s.index and s.state.round != script[s.index - 1].state.round and script[s.index - 1].state.round:
            assert f"so {s.state.game.player_name(s.state.start_player)} takes the Hiker" in s.note


walkthrough = pytest.importorskip("treegames.ui.bosk.walkthrough", reason="needs the kit's dashboard")


@pytest.fixture(scope="module")
def walk():
    """The walkthrough dashboard."""
    return walkthrough.BoskWalkthrough()


def test_the_dashboard_starts_at_setup_and_steps_forward_and_back(walk):
    walk.go(0)
    assert walk.index == 0 and "Setup" in walk.caption.value and "white border" in walk.caption.value
    walk.forward_button.click()
    assert walk.index == 1 and "start player" in walk.caption.value
    walk.back_button.click()
    assert walk.index == 0 and walk.back_button.disabled


def test_chapter_buttons_jump_and_scoring_opens_its_table(walk):
    summer = CHAPTERS.index("II. Summer")
    walk.chapter_buttons[summer].click()
    assert walk.state.history[-1].kind is Kind.SUMMER
    assert walk.tabs.get_title(walk.tabs.selected_index) == "Summer"
    assert len(walk.summer_table.rows) == 12 and "tie for the fewest points" in walk.summer_note.value
    walk.end_button.click()
    assert walk.state.is_terminal() and walk.tabs.get_title(walk.tabs.selected_index) == "Winter"
    assert "wins with" in walk.winter_note.value


def test_targets_are_drawn_for_the_bots_too(walk):
    squirrel = next(s.index for s in walk.script if s.state.phase is Phase.SQUIRREL)
    walk.go(squirrel)
    from treegames.ui.bosk.scene import SQUIRREL_TARGET
    from treegames.ui.palette import hex_to_rgb
    scene = walk.board_view.last_scene
    blue = [t for op in scene.ops if getattr(op, "tags", None) and getattr(op, "fill", None) is not None
            for t, f in zip(op.tags, op.fill.tolist(), strict=False) if tuple(f) == hex_to_rgb(SQUIRREL_TARGET)]
    assert set(blue) == {(a.row, a.col) for a in walk.state.legal_actions()}


def test_leaving_the_script_is_said():
    w = walkthrough.BoskWalkthrough()
    w.go(3)
    assert w.undo_button.layout.display == "none"
    w.timeline.push(w.state.apply(w.state.legal_actions()[-1]))
    assert "no longer the walkthrough's game" in w.caption.value
    w.chapter_buttons[0].click()
    assert w.index == 0


def test_figures_draw_all_three_parks_and_a_blocked_path():
    sides = walkthrough.ParkSides()
    assert [v.last_scene.width for v in sides.views][0] < 250
    example = walkthrough.BlockedPathExample()
    assert example.after.end_reason == bosk.TurnEnd.BLOCKED
