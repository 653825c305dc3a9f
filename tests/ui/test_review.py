"""The Review panel on a Play page: off until the game ends, rows as they come, jumps, Cancel, a changed game clears it."""

from __future__ import annotations

import types
from dataclasses import replace

import pytest

import harness
from treegames import plugins
from treegames.search import REVIEW_NOTE
from treegames.ui.aspens.play import AspensPlay
from treegames.ui.bosk.play import BoskPlay
from treegames.ui.mighty_trees.play import MightyTreesPlay
from treegames.ui.review import NOT_OVER, TURNING_MARK, ReviewStatus
from treegames.ui.scene import Polygons

pytestmark = pytest.mark.slow  # seconds of search or processes per test: not in make test-quick


def review_budget(monkeypatch, game: str, playouts: int) -> None:
    """Reviews of ``game`` spend ``playouts`` per position for this test (its plug-in, replaced for the test)."""
    monkeypatch.setitem(plugins.plugins(), game, replace(plugins.plugin(game), review_iterations=playouts))


@pytest.fixture(autouse=True)
def small_budgets(monkeypatch):
    """Reviews that spend a few playouts per position, so the tests stay quick."""
    for game, playouts in (("aspens", 4), ("bosk", 12), ("mighty_trees", 12)):
        review_budget(monkeypatch, game, playouts)


def finished(page):
    """A page whose bots have played their game to the end."""
    w = page()
    w.run_auto()
    assert w.state.is_terminal()
    return w


PAGES = [
    lambda: AspensPlay(seed=1, aspen="greedy", pine="greedy"),
    lambda: BoskPlay(seed=1, seats=("greedy", "greedy")),
    lambda: MightyTreesPlay(seed=1, seats=("greedy", "greedy")),
]


def review_tags(w) -> set:
    """The review's marks on the board picture: ('review-played' | 'review-best', place)."""
    return {t for op in w._board_picture().ops if isinstance(op, Polygons) for t in op.tags
            if isinstance(t, tuple) and str(t[0]).startswith("review")}


def test_before_the_end_review_is_off_and_says_why_and_r_starts_nothing():
    w = BoskPlay(seed=1)
    panel = w.review_panel
    assert panel.review_button.disabled and panel.review_button.tooltip == NOT_OVER
    assert panel.row.layout.display == "none", "no Review buttons before the end: the page stays calm"
    assert not panel.start() and NOT_OVER in panel.note.value
    panel.note.value = ""
    w.key("r")
    assert NOT_OVER in panel.note.value and panel.review is None and panel.status is ReviewStatus.IDLE
    assert "R Review" in w.keys_help.value


@pytest.mark.parametrize("page", PAGES, ids=["aspens", "bosk", "mighty_trees"])
def test_a_finished_game_is_reviewed_move_by_move_with_its_turning_points_marked_in_words(page):
    w = finished(page)
    panel = w.review_panel
    assert not panel.review_button.disabled and panel.row.layout.display is None, "shown once a review can be made"
    assert panel.start() and panel.wait(harness.DEADLINE)
    review = panel.review
    assert panel.status is ReviewStatus.DONE and review.finished and review.rows
    labels = [label for label, _ in panel.moves.options]
    assert [step for _, step in panel.moves.options] == [row.step for row in review.rows]
    turning = review.turning_points()
    for row, label in zip(review.rows, labels, strict=True):
        assert row.played.notation in label and w.player_name(row.player) in label
        marked = row in turning
        assert label.startswith(TURNING_MARK) == marked and ("turning point" in label) == marked
    assert len(panel.turning.children) == len(turning)
    for button, row in zip(panel.turning.children, turning, strict=True):
        assert "Turning point" in button.description and row.played.notation in button.description
    assert REVIEW_NOTE.split(":")[0].replace("'", "&#x27;") in panel.summary.value
    assert "all " in panel.progress_words.value and "positions reviewed" in panel.progress_words.value


def test_picking_a_row_shows_the_board_before_that_move_with_the_move_and_the_coachs_choice_marked():
    w = finished(PAGES[1])
    panel = w.review_panel
    panel.start()
    panel.wait(harness.DEADLINE)
    row = next(r for r in panel.review.rows if not r.coach_agrees)
    panel.moves.value = row.step  # a click (or arrow keys) in the list
    assert w.timeline.cursor == row.step and w.state is panel.states[row.step]
    assert row.text([w.player_name(p) for p in range(2)])[:40].replace("'", "&#x27;") in panel.detail.value
    tags = review_tags(w)
    assert {kind for kind, _ in tags} == {"review-played", "review-best"}
    assert ("review-played", panel.owner.hint_panel.place_of(w.state, row.played.action)) in tags
    w.forward()  # another moment: the marks go, the review stays
    assert review_tags(w) == set() and panel.review is not None and panel.moves.options
    if panel.turning.children:
        panel.turning.children[0].click()
        assert w.timeline.cursor == panel.review.turning_points()[0].step


def test_cancel_keeps_the_rows_so_far_and_review_goes_on_from_there(monkeypatch):
    review_budget(monkeypatch, "bosk", 1_000_000)
    w = finished(PAGES[1])
    panel = w.review_panel
    assert panel.start()
    assert not panel.start() and "already reviewing" in panel.note.value
    panel.cancel()
    assert panel.wait(harness.DEADLINE) and not panel._thread.is_alive()
    assert panel.status is ReviewStatus.DONE and not panel.review.finished
    assert "cancelled" in panel.note.value and panel.cancel_button.disabled and not panel.review_button.disabled
    review = panel.review
    review_budget(monkeypatch, "bosk", 12)
    review.iterations = 12
    assert panel.start() and panel.wait(harness.DEADLINE)
    assert panel.review is review and review.finished


@pytest.mark.parametrize("change", ["new game", "undo", "open"])
def test_a_changed_game_cancels_the_review_and_clears_it(monkeypatch, change):
    review_budget(monkeypatch, "bosk", 1_000_000)
    w = finished(PAGES[1])
    panel = w.review_panel
    saved = w.save_text()
    panel.start()
    if change == "new game":
        w.new_game(seed=2, seats=("human", "greedy"))
    elif change == "undo":
        assert w.timeline.can_undo()
        w.undo()
    else:
        w.open_saved(saved)
    assert panel.wait(harness.DEADLINE) and not panel._thread.is_alive()
    assert panel.review is None and panel.moves.options == () and panel.status is ReviewStatus.IDLE
    assert panel.turning.children == () and review_tags(w) == set()


def test_back_and_forward_keep_the_review_and_the_r_key_starts_it():
    w = finished(PAGES[2])
    w.key("r")
    panel = w.review_panel
    assert panel.wait(harness.DEADLINE) and panel.review.finished
    w.back()
    w.forward()
    assert panel.review is not None and len(panel.moves.options) == panel.review.total
    assert panel.start() and panel.status is ReviewStatus.DONE  # pressed again: the same review, shown again


def test_at_a_shared_table_review_says_it_is_for_a_game_of_ones_own():
    w = finished(PAGES[1])
    at_table = types.SimpleNamespace(shared=True)  # the page's session while it sits at a shared table
    w.use_session(at_table)
    panel = w.review_panel
    assert not panel.start() and "a game of your own" in panel.note.value and panel.review is None
    w.use_session(None)
    assert panel.why_not() is None
