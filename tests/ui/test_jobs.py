"""The background-job lifecycle that Hint and Review share (ui/jobs.py): start, progress, cancel, end, failure."""

from __future__ import annotations

import logging
import random
import threading

import ipywidgets as widgets
import pytest

from treegames import core
from treegames.search import ParallelSearch, Review
from treegames.ui.aspens.play import AspensPlay
from treegames.ui.hint import HintPanel, HintState
from treegames.ui.jobs import JobPanel, restart_progress
from treegames.ui.review import ReviewPanel, ReviewStatus


class Owner:
    """The least a panel's owner offers: a place to report a failed callback."""

    def __init__(self):
        self.reported: list[str] = []

    def report_failure(self, text: str) -> None:
        """Keep the sentence."""
        self.reported.append(text)


class Counting(JobPanel):
    """A panel whose job waits until it is told to finish or cancelled, or fails when asked."""

    def __init__(self):
        super().__init__(Owner(), "Count", "Cancel count", "Stop counting")
        self.ended: list[bool] = []
        self.go = threading.Event()

    def begin(self, fail: bool = False) -> bool:
        """Start the job."""
        def work(cancel: threading.Event) -> None:
            while not (self.go.is_set() or cancel.is_set()):
                cancel.wait(0.01)
            self.progress.value = 0.5
            if fail:
                raise RuntimeError("the job broke")

        def done(cancelled: bool) -> None:
            self.status = "done"
            self._reset_buttons()
            self._end_bar(not cancelled)
            self.ended.append(cancelled)

        return self._launch("counting", "Counting…", work, done, "Counting failed (an error was logged).")


def test_a_job_shows_its_note_bar_and_cancel_while_it_runs_and_ends_green():
    panel = Counting()
    assert panel.cancel_button.disabled and panel.progress.layout.visibility == "hidden" and not panel.is_busy()
    assert panel.begin()
    assert panel.is_busy() and not panel.cancel_button.disabled
    assert panel.progress.layout.visibility == "visible" and panel.progress.value == 0.0
    assert "Counting…" in panel.note.value and "role='status'" in panel.note.value
    assert not panel.wait(0.05), "still running"
    panel.go.set()
    assert panel.wait(10)
    assert panel.ended == [False] and panel.progress.bar_style == "success" and panel.cancel_button.disabled


def test_cancel_ends_a_job_amber_and_says_it_was_cancelled_to_its_panel():
    panel = Counting()
    panel.begin()
    panel.cancel()
    assert panel.wait(10)
    assert panel.ended == [True] and panel.progress.bar_style == "warning" and panel.cancel_button.disabled


def test_a_failing_job_is_logged_and_said_in_a_sentence_and_the_panel_is_idle_again(caplog):
    panel = Counting()
    panel.go.set()
    with caplog.at_level(logging.ERROR, logger="treegames.ui.jobs"):
        panel.begin(fail=True)
        assert panel.wait(10)
    assert panel.ended == [] and panel.status == panel.IDLE and panel.cancel_button.disabled
    assert "Counting failed (an error was logged)." in panel.note.value and "Traceback" not in panel.note.value
    assert any("counting failed" in r.getMessage() and r.exc_info for r in caplog.records)


def test_hint_and_review_are_job_panels_with_their_own_busy_words():
    page = AspensPlay(seed=1)
    assert isinstance(page.hint_panel, HintPanel) and isinstance(page.review_panel, ReviewPanel)
    assert HintPanel.BUSY is HintState.THINKING and ReviewPanel.BUSY is ReviewStatus.REVIEWING
    assert page.hint_panel.cancel_button.description == "Cancel"
    assert page.review_panel.cancel_button.description == "Cancel review"


@pytest.mark.parametrize("fails", ["hint", "review"])
def test_a_failing_coach_says_so_in_its_panel_and_the_page_goes_on(monkeypatch, fails):
    def broken(*_args, **_kwargs):
        raise RuntimeError("the coach broke")

    if fails == "hint":
        monkeypatch.setattr(ParallelSearch, "think", broken)
        page = AspensPlay(seed=3, aspen="human", pine="random")
        while not page.is_human_turn():
            page.step()
        assert page.hint_panel.hint()
        assert page.hint_panel.wait(30)
        panel, words = page.hint_panel, "could not think about this position"
    else:
        monkeypatch.setattr(Review, "run", broken)
        page = AspensPlay(seed=3)
        state, rng = page.state.game.new_initial_state(), random.Random(3)
        bots = [core.RandomBot(random.Random(seat)) for seat in range(2)]
        while not state.is_terminal():
            state = core.step(state, bots, rng)
        page.open_saved(state.to_json())
        assert page.review_panel.start()
        assert page.review_panel.wait(30)
        panel, words = page.review_panel, "could not review this game"
    assert words in panel.note.value and not panel.is_busy() and panel.cancel_button.disabled
    page.step()  # a click after the failure is answered, not raised


def test_a_restarted_progress_bar_empties_in_one_message_so_no_stale_fraction_shows(monkeypatch):
    bar = widgets.IntProgress(value=600, max=600)
    sent = []
    monkeypatch.setattr(bar, "send_state", lambda key=None: sent.append(set(key or ())))
    restart_progress(bar, 4000)
    assert (bar.value, bar.max) == (0, 4000)
    assert sent == [{"value", "max"}], "one message: the page never sees 600 of 4000"
