"""The teacher's control "Get N kernels ready for page P", on the class pages (tables and experiments).

Before the bell, the teacher names today's page and the head count; the class server prepares that many
kernels (each has already run the page) a few at a time, and this panel follows its progress: "18 of 30
kernels ready for Bosk: play". The server checks everything (the teacher code, the page, the count, the
kernel ceiling and the memory; :mod:`treegames.serving.preparation`); the panel only asks and shows.
Outside the class server (Binder, a hub, JupyterLab) each page starts its own kernel, and the panel says so.
"""

from __future__ import annotations

import threading

import ipywidgets as widgets

from ..service import preparation
from ..service.preparation import PageProgress, page_title
from . import safety
from .styles import icon_button, stylesheet
from .text import escape, message_box, panel

__all__ = ["ClassPreparation", "ALONE_HERE", "EVERY_SECONDS", "FOLLOW_SECONDS"]

ALONE_HERE = ("Kernels are prepared for a class by the class server (<code>make serve</code>). Here each page "
              "starts its own kernel when it opens, so there is nothing to prepare.")
EVERY_SECONDS = 1.0
"""How often the panel asks the server how the preparation stands."""
FOLLOW_SECONDS = 600.0
"""The panel stops following a preparation after this long (the line says where it stood)."""
DEFAULT_CLASS = 30


class ClassPreparation(widgets.VBox):
    """Page, head count and a button; a progress bar and line that follow the server until every kernel is ready."""

    def __init__(self, client=None, teacher: widgets.Password | None = None, follow: bool = True):
        self.client = preparation.connect() if client is None else client
        self._stop = threading.Event()
        self._follow = follow
        self._thread: threading.Thread | None = None
        self._loop = safety.running_loop()
        if self.client is None:
            super().__init__([widgets.HTML(panel(ALONE_HERE))])
            return
        self.teacher = teacher if teacher is not None else widgets.Password(
            description="Teacher code", style={"description_width": "initial"},
            layout=widgets.Layout(width="260px", max_width="100%"))
        self.page_box = widgets.Dropdown(description="Page", options=[], style={"description_width": "initial"},
                                         layout=widgets.Layout(width="300px", max_width="100%"))
        self.count_box = widgets.BoundedIntText(value=DEFAULT_CLASS, min=1, max=preparation.MOST_PER_PAGE,
                                                description="Students", style={"description_width": "initial"},
                                                layout=widgets.Layout(width="160px"))
        self.button = icon_button("Get kernels ready", "play", button_style="primary",
                                  tooltip="Prepare that many kernels for the page, a few at a time")
        self.bar = widgets.IntProgress(value=0, min=0, max=1, description="Ready",
                                       layout=widgets.Layout(width="260px", max_width="100%"))
        self.line = widgets.HTML()
        self.note = widgets.HTML()
        safety.on_click(self.button, self.prepare, report=self._fail)
        safety.observe(self.page_box, lambda _change: self.refresh(), report=self._fail)
        rows = [widgets.HBox([self.page_box, self.count_box]), widgets.HBox([self.button, self.bar])]
        if teacher is None:
            rows.insert(0, widgets.HBox([self.teacher]))
        for row in rows:
            row.add_class("treegames-wrap")
        super().__init__([*rows, self.line, self.note, stylesheet()])
        self.add_class("treegames-class-preparation")
        self.load_pages()

    # ------------------------------------------------------------ asking

    def load_pages(self) -> bool:
        """Fill the page list from the server (every page it serves), Play pages first."""
        try:
            pages = [p.page for p in self.client.progress()]
        except ValueError as err:
            return self._say(f"The server did not answer: {escape(err)}", error=True)
        pages.sort(key=lambda page: (not page.endswith("/play.ipynb"), page))
        self.page_box.options = [(page_title(page), page) for page in pages]
        if pages and self.page_box.value is None:
            self.page_box.value = pages[0]  # a new list selects nothing by itself
        return self.refresh()

    def refresh(self) -> bool:
        """Show how the chosen page's kernels stand now."""
        page = self.page_box.value
        if not page:
            return True
        try:
            found = next((p for p in self.client.progress() if p.page == page), None)
        except ValueError as err:
            return self._say(f"The server did not answer: {escape(err)}", error=True)
        if found is not None:
            self._show(found)
            if self._follow and not found.is_ready():  # a page opened during a preparation follows it too
                self.follow(page)
        return True

    def prepare(self) -> bool:
        """Ask the server to keep the typed number of kernels ready for the chosen page, then follow it."""
        page = self.page_box.value
        if not page:
            return self._say("Choose a page first.", error=True)
        try:
            asked = self.client.prepare(self.teacher.value.strip(), page, int(self.count_box.value))
        except ValueError as err:
            return self._say(f"Not accepted: {escape(err)}", error=True)
        self._show(asked)
        if asked.is_ready():
            return self._say(f"Ready: {escape(asked.sentence())}. Students can open the page now.")
        self._say(f"The server is getting {asked.asked} kernels ready for {escape(page_title(page))}, a few at a "
                  "time; pages already open stay quick meanwhile.")
        if self._follow:
            self.follow(page)
        return True

    # ------------------------------------------------------------ following

    def follow(self, page: str) -> None:
        """Ask the server every second (in a daemon thread) until the page's kernels are all ready.

        A thread following another page is told to stop, not waited for (each has its own stop event), so
        the kernel's loop never blocks on a slow answer.
        """
        self._stop.set()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._poll, args=(page, self._stop), name="treegames-prepare",
                                        daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop following the server."""
        self._stop.set()

    def _poll(self, page: str, stop: threading.Event) -> None:
        """Follow ``page`` until it is ready, the panel stops, or FOLLOW_SECONDS pass."""
        waited = 0.0
        while not stop.wait(EVERY_SECONDS) and waited < FOLLOW_SECONDS:
            waited += EVERY_SECONDS
            try:
                found = next((p for p in self.client.progress() if p.page == page), None)
            except Exception:  # noqa: BLE001 - the server is busy or away: the line keeps its last figure
                safety.log.debug("class preparation poll failed", exc_info=True)
                continue
            if found is None:
                continue
            self._on_loop(self._show, found)
            if found.is_ready():
                self._on_loop(self._say, f"Ready: {found.sentence()}. Students can open the page now.")
                return

    def _on_loop(self, fn, *args) -> None:
        """Run ``fn`` on the kernel's loop (widgets change there), or here outside a kernel."""
        if self._loop is not None and self._loop.is_running():
            self._loop.call_soon_threadsafe(fn, *args)
        else:
            fn(*args)

    # ------------------------------------------------------------ showing

    def _show(self, progress: PageProgress) -> None:
        """The bar and the line for one page's kernels."""
        self.bar.max = max(1, progress.asked)
        self.bar.value = min(progress.ready, progress.asked)
        waiting = f" ({progress.preparing} being prepared)" if progress.preparing else ""
        self.line.value = f"<p role='status' aria-live='polite'>{escape(progress.sentence())}{escape(waiting)}</p>"

    def _say(self, text: str, error: bool = False) -> bool:
        """A message under the controls; False when it is a refusal."""
        self.note.value = message_box(text, error)
        return not error

    def _fail(self, text: str) -> None:
        """A guarded callback failed."""
        self._say(escape(text), error=True)
