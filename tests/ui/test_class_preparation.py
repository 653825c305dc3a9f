"""The teacher's "Get kernels ready" panel: it lists the server's pages, asks, shows refusals and follows progress."""

from __future__ import annotations

import threading

import ipywidgets as widgets

from treegames.service.preparation import PageProgress, PreparationRefused
from treegames.ui import class_preparation
from treegames.ui.class_preparation import ClassPreparation


class Server:
    """The class service as the panel sees it: pages, a teacher code, and kernels that become ready when asked."""

    def __init__(self):
        self.pages = {"index.ipynb": PageProgress("index.ipynb", 1, 0, 1),
                      "bosk/play.ipynb": PageProgress("bosk/play.ipynb", 1, 0, 1),
                      "aspens/play.ipynb": PageProgress("aspens/play.ipynb", 2, 0, 2)}
        self.asked: list[tuple[str, int]] = []

    def progress(self) -> list[PageProgress]:
        return sorted(self.pages.values(), key=lambda p: p.page)

    def prepare(self, teacher_code: str, page: str, count: int) -> PageProgress:
        if teacher_code != "TEACH-ME":
            raise PreparationRefused("That is not the teacher code.")
        self.asked.append((page, count))
        self.pages[page] = PageProgress(page, 1, count - 1, count)
        return self.pages[page]

    def finish(self, page: str, ready: int) -> None:
        asked = self.pages[page].asked
        self.pages[page] = PageProgress(page, ready, asked - ready, asked)


def test_the_play_pages_come_first_and_a_wrong_code_is_refused_with_the_servers_words():
    server = Server()
    panel = ClassPreparation(client=server, follow=False)
    assert [label for label, _page in panel.page_box.options] == ["Aspens: play", "Bosk: play", "Index"]
    assert "2 of 2 kernels ready for Aspens: play" in panel.line.value
    panel.page_box.value = "bosk/play.ipynb"
    panel.teacher.value = "nope"
    panel.count_box.value = 30
    assert panel.prepare() is False
    assert "Not accepted: That is not the teacher code." in panel.note.value and server.asked == []


def test_the_teachers_request_shows_its_progress_and_the_bar_fills_as_kernels_become_ready(monkeypatch):
    monkeypatch.setattr(class_preparation, "EVERY_SECONDS", 0.01)
    server = Server()
    code = widgets.Password(value="TEACH-ME")
    panel = ClassPreparation(client=server, teacher=code, follow=False)
    assert code not in panel.children[0].children, "the page's own code box is used, not a second one"
    panel.page_box.value = "bosk/play.ipynb"
    panel.count_box.value = 30
    assert panel.prepare() is True
    assert server.asked == [("bosk/play.ipynb", 30)]
    assert "1 of 30 kernels ready for Bosk: play (29 being prepared)" in panel.line.value
    assert (panel.bar.value, panel.bar.max) == (1, 30)
    server.finish("bosk/play.ipynb", 18)
    panel.refresh()
    assert "18 of 30 kernels ready for Bosk: play" in panel.line.value and panel.bar.value == 18
    server.finish("bosk/play.ipynb", 30)
    panel._poll("bosk/play.ipynb", threading.Event())  # follows until every kernel is ready
    assert panel.bar.value == 30 and "Ready: 30 of 30 kernels ready for Bosk: play" in panel.note.value


def test_outside_the_class_server_the_panel_says_there_is_nothing_to_prepare(monkeypatch):
    monkeypatch.delenv("TREEGAMES_TABLES_URL", raising=False)
    monkeypatch.delenv("TREEGAMES_TABLES_KEY", raising=False)
    panel = ClassPreparation()
    assert len(panel.children) == 1 and "nothing to prepare" in panel.children[0].value
