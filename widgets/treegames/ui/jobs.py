"""One background job at a time for a panel of the Play page: Hint's search and Review's replay share it.

A :class:`JobPanel` owns the job's lifecycle, written once: the thread, its cancel event and lock, a
Cancel button, a progress bar and a one-sentence note read out as a polite status.  A job starts with a
note and a visible, empty bar; its thread moves the bar; it ends green when complete or amber when
cancelled, and the panel's buttons are set again.  A job that fails is logged and said in one sentence
(the page never shows a traceback, and the thread never dies silently).  Each panel supplies what its job
does, what it shows when it ends, and its own buttons (:meth:`JobPanel._reset_buttons`).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

import ipywidgets as widgets

from . import safety
from .text import escape

__all__ = ["JobPanel", "restart_progress"]

log = logging.getLogger(__name__)


def restart_progress(bar: widgets.Widget, total: float) -> None:
    """Empty a progress bar for a new job of ``total`` steps, in one message to the page.

    Setting ``max`` and then ``value`` one by one drew the old count over the new total for a moment (a full
    bar of 600 games showed 15% of 4000 before it emptied), which reads as progress that was never made.
    """
    with bar.hold_sync():
        bar.value = 0
        bar.max = total


class JobPanel(widgets.VBox):
    """A panel that runs one job at a time in the background, with Cancel, a progress bar and a note."""

    BUSY: Any = "busy"
    """The panel's status while its job runs (each panel names its own)."""

    IDLE: Any = "idle"
    """The panel's status with no job and nothing shown."""

    def __init__(self, owner: Any, progress_label: str, cancel_label: str, cancel_tooltip: str):
        self.owner = owner
        self.status = self.IDLE
        self._thread: threading.Thread | None = None
        self._cancel = threading.Event()
        self._lock = threading.RLock()
        self.cancel_button = widgets.Button(description=cancel_label, disabled=True, tooltip=cancel_tooltip,
                                            layout=widgets.Layout(width="auto"))
        self.progress = widgets.FloatProgress(value=0.0, min=0.0, max=1.0, description=progress_label,
                                              layout=widgets.Layout(width="160px", max_width="100%",
                                                                    visibility="hidden"))
        self.note = widgets.HTML(layout=widgets.Layout(width="100%"))
        safety.on_click(self.cancel_button, self.cancel, report=self.report)
        super().__init__(layout=widgets.Layout(max_width="100%"))

    @property
    def report(self) -> Callable[[str], None] | None:
        """The owner's friendly sentence for a failed callback, if it has one."""
        return getattr(self.owner, "report_failure", None)

    def is_busy(self) -> bool:
        """Whether the job is running."""
        return self.status is self.BUSY

    def cancel(self) -> None:
        """Stop the job; what it found so far stays shown."""
        self._cancel.set()

    def wait(self, timeout: float | None = None) -> bool:
        """Wait for the job to end (for tests and scripts); True once it has."""
        thread = self._thread
        if thread is not None:
            thread.join(timeout)
        return not self.is_busy()

    # ------------------------------------------------------------ the lifecycle

    def _launch(self, name: str, note: str, work: Callable[[threading.Event], None],
                done: Callable[[bool], None], failed: str) -> bool:
        """Run ``work(cancel)`` on a thread named ``name``; then ``done(cancelled)`` under the lock, or ``failed`` said."""
        self._cancel = cancel = threading.Event()
        self.status = self.BUSY
        self.progress.value = 0.0
        self.progress.bar_style = ""
        self.progress.layout.visibility = "visible"
        self.cancel_button.disabled = False
        self._note(note)

        def run() -> None:
            """The background thread."""
            try:
                work(cancel)
            except Exception:  # a failure must reach the page, never kill the kernel's thread silently
                log.exception("%s failed", name)
                with self._lock:
                    self.status = self.IDLE
                    self._reset_buttons()
                    self._note(failed)
                return
            with self._lock:
                done(cancel.is_set())

        self._thread = threading.Thread(target=run, daemon=True, name=name)
        self._thread.start()
        return True

    def _end_bar(self, complete: bool) -> None:
        """The bar at the end of a job: full and green when complete, amber when cancelled."""
        self.progress.bar_style = "success" if complete else "warning"

    def _reset_buttons(self) -> None:
        """The panel's buttons when no job runs (each panel sets its own, Cancel off)."""
        self.cancel_button.disabled = True

    def _note(self, text: str) -> None:
        """Say one sentence above the panel's results ('' clears it)."""
        self.note.value = f"<div role='status'>{escape(text)}</div>" if text else ""

    def _redraw(self) -> None:
        """Redraw the owner's board (for the panel's marks on it)."""
        view = getattr(self.owner, "board_view", None)
        if view is not None:
            view.redraw()
