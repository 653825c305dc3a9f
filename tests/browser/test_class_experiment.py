"""Class experiments in Chromium: a teacher page and three student pages on a real class server.

Students roll; the projector's pooled histogram and n change to the exact expected counts (each
student's generator is seeded by the test-only seed and their pseudonym, so the counts are known).
Then a class tournament split over the three students equals the single-machine run of treegames.lab.
Screenshots: the projector at 1920 x 1080, a student's box at 420 px.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import harness
from treegames.experiments import domain_for, student_rng
from treegames.experiments.client import connect
from treegames.lab import TournamentSpec, play_games
from treegames.service.codes import teacher_code

WAIT_MS = harness.WAIT_MS

pytestmark = [pytest.mark.browser, pytest.mark.slow]

TEST_SEED = "browser-class"
STUDENT_PAGE = "aspens/sun-die-probability.ipynb"
JOIN_CELL = "from treegames.ui.experiments import JoinBox\n\nJoinBox()"


def class_root(tmp_path: Path) -> Path:
    """A small notebook root served with preheated kernels, as make serve does: the teacher page, the landing
    page and the Sun die lesson (the real one when its Join box is there, else a page holding only the box)."""
    import nbformat

    root = tmp_path / "notebooks"
    for page in ("class/experiment.ipynb", "index.ipynb"):
        (root / page).parent.mkdir(parents=True, exist_ok=True)
        (root / page).write_bytes((harness.NOTEBOOKS / page).read_bytes())
    lesson = harness.NOTEBOOKS / STUDENT_PAGE
    (root / STUDENT_PAGE).parent.mkdir(parents=True, exist_ok=True)
    if "JoinBox" in lesson.read_text():
        (root / STUDENT_PAGE).write_bytes(lesson.read_bytes())
    else:
        nb = nbformat.v4.new_notebook()
        nb.metadata = {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}}
        nb.cells = [nbformat.v4.new_markdown_cell("# Join"), nbformat.v4.new_code_cell(JOIN_CELL)]
        (root / STUDENT_PAGE).write_text(nbformat.writes(nb))
    return root


class Mounted:
    """The class server's own experiment mount, reached as its kernels reach it (URL and key from a kernel)."""

    def __init__(self, server, data: Path):
        self.server = server
        self.teacher = teacher_code(data)

    def client(self):
        """A client with a kernel's URL and key."""
        for env in self.server.kernel_environs():
            if env.get("TREEGAMES_TABLES_KEY"):
                return connect(env["TREEGAMES_TABLES_URL"], env["TREEGAMES_TABLES_KEY"])
        raise AssertionError("no kernel of the class server has the tables' key")


WIDGET_TRACE = """
import os, time, traceback
from ipywidgets import Widget

_PATH = os.path.join(os.environ["TREEGAMES_WIDGET_TRACE"], f"widgets-{os.getpid()}.log")
_open, _close = Widget.open, Widget.close


def _note(kind, widget, stack=False):
    lines = "".join(traceback.format_stack(limit=10)) if stack else ""
    with open(_PATH, "a") as out:
        out.write(f"{time.time():.3f} {kind} {widget.model_id} {type(widget).__name__}\\n{lines}")


def _traced_open(self):
    _open(self)
    _note("open", self)


def _traced_close(self):
    if self.comm is not None:
        _note("close", self, stack=True)
    _close(self)


Widget.open, Widget.close = _traced_open, _traced_close
"""
"""An IPython startup file for the class server's kernels: it records every widget opened or closed (model id,
time, and who closed it) in a file per kernel process, so that a student page naming widgets its kernel does
not hold can be traced (the race seen in ci81 and ci84)."""


def widget_trace_dir(tmp: Path) -> tuple[Path, Path]:
    """An IPYTHONDIR whose startup file traces widgets, and the folder the traces go to."""
    ipython, traces = tmp / "ipython", tmp / "widget-traces"
    (ipython / "profile_default" / "startup").mkdir(parents=True)
    (ipython / "profile_default" / "startup" / "00-widget-trace.py").write_text(WIDGET_TRACE)
    traces.mkdir()
    return ipython, traces


@pytest.fixture(scope="module")
def classroom(tmp_path_factory):
    """The class server (experiments mounted in it, store in a fresh data folder), students seeded for the test."""
    tmp = tmp_path_factory.mktemp("class-experiment")
    root, page = class_root(tmp), STUDENT_PAGE
    import os

    ipython, traces = widget_trace_dir(tmp)
    env = {k: v for k, v in os.environ.items() if not k.startswith("TREEGAMES_TABLES_")}
    env.update(TREEGAMES_DATA_DIR=str(tmp / "data"), TREEGAMES_TEST_RNG_SEED=TEST_SEED,
               PYTHONPATH=str(harness.ROOT / "widgets"), IPYTHONDIR=str(ipython),
               TREEGAMES_WIDGET_TRACE=str(traces))
    server = harness.start_class_server(root, preheat=True, env=env)
    server.widget_traces = traces
    yield server, Mounted(server, tmp / "data"), page
    server.stop()
    assert server.alive_pids() == []


WIDGETS_SEEN = """() => {
  const manager = window.jupyterapp && window.jupyterapp.widgetManager;
  if (!manager) return {manager: false};
  return {manager: true, restored: manager._restoredStatus, models: Object.keys(manager._models || {})};
}"""
"""What a student page knows of its widgets: restored or not, and the models it has."""


def kernel_widgets(server, kernel: str) -> list[str] | str:
    """The widget models a kernel of the class server holds (asked through its connection file), or why not."""
    from jupyter_client import BlockingKernelClient

    log = server.log_path.read_text(errors="replace") if server.log_path.exists() else ""
    folder = log.split("Storing connection files in ", 1)[-1].split(".\n", 1)[0] if "Storing connection" in log else ""
    files = list(Path(folder).glob(f"kernel-{kernel}.json")) if folder and kernel else []
    if not files:
        return f"no connection file for {kernel} in {folder!r}"
    client = BlockingKernelClient(connection_file=str(files[0]))
    client.load_connection_file()
    client.start_channels()
    try:
        msg_id = client.execute("import os; from ipywidgets.widgets.widget import _instances as _i; "
                                "print(f'pid{os.getpid()}', ' '.join(_i))", store_history=False)
        out = ""
        while True:
            msg = client.get_iopub_msg(timeout=15)
            if msg["parent_header"].get("msg_id") != msg_id:
                continue
            if msg["msg_type"] == "stream":
                out += msg["content"]["text"]
            if msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle":
                return out.split()  # its first word is the kernel's process: pid1234
    except Exception as err:  # noqa: BLE001 - a diagnosis never hides the failure it explains
        return f"not asked: {err!r}"
    finally:
        client.stop_channels()


def widgets_story(page, server, kernel: str) -> str:
    """The page's widget models against its kernel's: how many each, and how many the page lacks."""
    try:
        seen = page.evaluate(WIDGETS_SEEN)
    except Exception as err:  # noqa: BLE001
        return f"page not read: {err}"
    front = set(seen.pop("models", []))
    held = kernel_widgets(server, kernel)
    if isinstance(held, str):
        return f"{seen}, {len(front)} models in the page; kernel: {held}"
    pid, held = (held[0], held[1:]) if held and held[0].startswith("pid") else ("pid?", held)
    return (f"{seen}, {len(front)} models in the page, {len(held)} in the kernel ({pid}), "
            f"{len([m for m in held if m not in front])} of the kernel's missing from the page "
            f"(the missing ones are at positions {[i for i, m in enumerate(held) if m not in front][:12]} "
            f"in the kernel's creation order)")


def page_story(page, server, console: list[str], document=None) -> str:
    """What a failed student page saw: its widgets, its console's errors and the server's log about its kernel
    (``document``: the page's response, whose HTML names the widget views)."""
    body = page.locator("body").inner_text(timeout=WAIT_MS)
    kernel = page.evaluate("() => JSON.parse(document.getElementById('jupyter-config-data')?.textContent"
                           " || '{}').kernelId || ''")
    seen = widgets_story(page, server, kernel)
    seen += "\n" + traced_views(page, server, document)
    log = server.log_path.read_text(errors="replace").splitlines() if server.log_path.exists() else []
    about = [line[:300] for line in log if kernel and kernel in line]
    return (f"{body.count('model not found')} widgets without a model, {body.count('Loading widget')} loading; "
            f"kernel {kernel or '?'}; widgets: {seen}\nconsole:\n" + "\n".join(console[-30:]) +
            "\nserver log about the kernel:\n" + "\n".join(about[-30:]))


def traced_views(page, server, document) -> str:
    """The model ids the page's HTML names that its models lack, and what the kernels' widget traces say of each."""
    import re

    try:
        ids = list(dict.fromkeys(re.findall(r'"model_id": "([0-9a-f]{32})"', document.text())))
        front = set(page.evaluate(WIDGETS_SEEN).get("models", []))
    except Exception as err:  # noqa: BLE001 - a diagnosis never hides the failure it explains
        return f"views not read: {err}"
    lacking = [(i, m) for i, m in enumerate(ids) if m not in front]
    traces = sorted(getattr(server, "widget_traces", Path("/nonexistent")).glob("widgets-*.log"))
    lines = [f"{len(ids)} views named in the page, lacking a model at positions {[i for i, _ in lacking]}; "
             f"traces of {len(traces)} kernel processes"]
    for _, model in lacking[:8]:
        for trace in traces:
            text = trace.read_text(errors="replace")
            for at in [m.start() for m in re.finditer(model, text)]:
                start = text.rfind("\n", 0, at) + 1
                end = text.find("\n", at)
                line = text[start:end]
                rest = text[end + 1:end + 1500] if " close " in line else ""
                lines.append(f"  {trace.name}: {line}" + (f"\n    {rest[:1500]}" if rest else ""))
    for trace in traces:
        text = trace.read_text(errors="replace").splitlines()
        opens = [t for t in text if " open " in t]
        closes = [t for t in text if " close " in t]
        lines.append(f"  {trace.name}: {len(opens)} opened ({opens[0][:14] if opens else ''}.."
                     f"{opens[-1][:14] if opens else ''}), {len(closes)} closed")
    return "\n".join(lines)


class FrameLog:
    """A student page's kernel traffic, for a failure's story: each websocket opened or closed, and each message's
    time, direction, type and comm (what a widget manager asked of the kernel, and when it was answered)."""

    def __init__(self, page):
        import time

        self.start, self.clock, self.lines = time.monotonic(), time.monotonic, []
        page.on("websocket", self._socket)
        page.on("console", lambda m: self._note(f"console {m.type}: {m.text[:160]}")
                if "Unsatisfied version" not in m.text and "satisfying version" not in m.text else None)

    def _note(self, text: str) -> None:
        """One line, stamped with the seconds since the page was asked for."""
        self.lines.append(f"{self.clock() - self.start:7.2f} {text}")

    def _socket(self, socket) -> None:
        """Follow one websocket: its frames both ways, and its end."""
        self._note(f"websocket open {socket.url[-60:]}")
        socket.on("framesent", lambda f: self._frame("->", f))
        socket.on("framereceived", lambda f: self._frame("<-", f))
        socket.on("close", lambda _s: self._note("websocket closed"))

    def _frame(self, way: str, frame) -> None:
        """A message's type, comm id, target and method (read from the frame's JSON, binary or not)."""
        import re

        text = frame.decode(errors="replace") if isinstance(frame, bytes) else str(frame)
        found = {key: re.search(rf'"{key}":\s*"([^"]{{0,40}})"', text) for key in
                 ("msg_type", "comm_id", "target_name", "method", "execution_state")}
        words = " ".join(f"{k}={m.group(1)[:12]}" for k, m in found.items() if m)
        self._note(f"{way} {len(text)}B {words}")

    def __str__(self) -> str:
        """The log: its first 150 lines, then how many more there were."""
        shown = self.lines[:150] + ([f"... {len(self.lines) - 150} more"] if len(self.lines) > 150 else [])
        return "kernel traffic of the page:\n" + "\n".join(shown)


def summary_count(page, outcome: int) -> int:
    return int(page.locator(f".treegames-exp-summary .exp-count[data-outcome='{outcome}']").inner_text())


def test_students_roll_and_the_projector_shows_the_exact_pooled_counts(classroom, browser):
    server, experiments, student_page = classroom
    teacher = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    errors: list[str] = []
    teacher.on("pageerror", lambda e: errors.append(str(e)))
    teacher.goto(f"{server.base}/voila/render/class/experiment.ipynb", timeout=WAIT_MS)
    teacher.locator(".treegames-exp-teacher input[type=password]").fill(experiments.teacher, timeout=WAIT_MS)
    teacher.get_by_role("button", name="Open a round").click()
    code = teacher.locator(".exp-code").inner_text(timeout=WAIT_MS).strip()
    assert len(code) == 6
    assert teacher.locator(".treegames-exp-teacher svg").count() >= 1  # the QR code, inline
    harness.screenshot(teacher, "class-experiment-teacher-1920")

    domain = domain_for("sun-die", {"stacks": [4, 3, 2]})
    expected = [0] * len(domain.outcomes)
    students = []
    for i, clicks in enumerate((1, 2, 3)):
        context = browser.new_context(viewport={"width": 420, "height": 900})
        page = context.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        console: list[str] = []
        page.on("console", lambda m, console=console: console.append(f"{m.type}: {m.text}"[:400])
                if m.type in ("error", "warning") else None)
        frames = FrameLog(page)
        document = page.goto(f"{server.base}/voila/render/{student_page}", timeout=WAIT_MS)
        box = page.locator(".treegames-exp-join")
        try:
            box.locator("input[type=text]").first.fill(code, timeout=WAIT_MS)
            box.get_by_role("button", name="Join").click()
            welcome = box.get_by_text("You joined").inner_text(timeout=WAIT_MS)
        except Exception as err:
            harness.screenshot(page, f"class-experiment-join-failed-{i}")
            raise AssertionError(f"student {i} did not join; the page says: "
                                 f"{page.locator('body').inner_text(timeout=WAIT_MS)[-600:]!r}\n"
                                 f"{page_story(page, server, console, document)}\n{frames}") from err
        pseudonym = welcome.split("you are ")[1].split(" in class")[0]
        rng = student_rng(pseudonym, seed=f"{TEST_SEED}/{pseudonym}")
        for _ in range(clicks):
            box.get_by_role("button", name="Roll 10", exact=True).click()
            page.wait_for_function("n => document.querySelector('.exp-mine')?.textContent.trim() === String(n)",
                                   arg=(_ + 1) * 10, timeout=WAIT_MS)
            for k, c in domain.simulate(rng, 10).items():
                expected[domain.outcomes.index(k)] += c
        students.append((page, box, pseudonym))
        if i == 0:
            box.scroll_into_view_if_needed()
            harness.screenshot(page, "class-experiment-student-420")

    teacher.wait_for_function("n => document.querySelector('.treegames-exp-summary .exp-n')?.textContent === n",
                              arg=str(sum(expected)), timeout=WAIT_MS)
    assert [summary_count(teacher, k) for k in domain.outcomes] == expected
    assert teacher.locator(".treegames-exp-summary .exp-students").inner_text() == "3"
    assert experiments.client().snapshot(code=code)["counts"] == expected
    stats = harness.wait_for_drawing(teacher, index=0, min_inked=50_000)
    assert stats["width"] == 1880
    teacher.locator(".treegames-exp-projector").scroll_into_view_if_needed()
    teacher.locator(".treegames-exp-projector canvas").first.screenshot(
        path=str(harness.ARTIFACTS / "screenshots" / "class-experiment-projector-1920.png"))

    # leaving and coming back: the student's own link opens a new kernel with the same pseudonym and tally
    page, box, name = students[2]
    link = box.get_by_role("link", name=f"Your link to come back as {name}").get_attribute("href")
    page.context.close()
    back = browser.new_context(viewport={"width": 420, "height": 900}).new_page()
    back.goto(f"{server.base}/voila/render/{student_page}{link}", timeout=WAIT_MS)
    back_box = back.locator(".treegames-exp-join")
    assert f"Welcome back: you are {name}" in back_box.get_by_text("Welcome back").inner_text(timeout=WAIT_MS)
    assert back.locator(".exp-mine").inner_text() == "30"
    students[2] = (back, back_box, name)

    # the class tournament: a new round of the same class; each student plays one block of seeds
    teacher.locator(".treegames-exp-teacher select").first.select_option(label="A class tournament")
    teacher.get_by_label("Games:").fill("12")
    teacher.get_by_label("Per block:").fill("4")
    teacher.get_by_label("Seed:").fill("5")
    teacher.get_by_role("button", name="New round").click()
    teacher.get_by_text("Round 2 is open").wait_for(timeout=WAIT_MS)
    for _page, box, _name in students:
        box.get_by_role("button", name="Play my block of games").click(timeout=WAIT_MS)
        box.get_by_text("new games counted").wait_for(timeout=WAIT_MS)
    teacher.wait_for_function("() => document.querySelector('.treegames-exp-summary .exp-games')?.textContent"
                              " === '12'", timeout=WAIT_MS)
    spec = TournamentSpec("aspens", ("greedy", "random"), games=12, seed=5)
    pooled = experiments.client().records(code=code)
    assert [(r["index"], r["scores"], r["winners"], r["first"]) for r in pooled] == \
        [(r.index, list(r.scores), list(r.winners), r.first) for r in play_games(spec, 0, 12)]
    teacher.locator(".treegames-exp-projector canvas").first.screenshot(
        path=str(harness.ARTIFACTS / "screenshots" / "class-experiment-tournament-1920.png"))
    assert errors == []
