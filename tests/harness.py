"""Real servers and a real browser for tests and benchmarks: Voila or Jupyter in their own process group, Chromium via Playwright.

Used by ``tests/browser`` and ``benchmarks/``.  Every server is started in its
own session (process group) and stopped by PID: the server's group first, then
every kernel it started (jupyter_client gives each kernel a session of its own,
so killing the server's group alone would leave kernels running).
"""

from __future__ import annotations

import ast
import contextlib
import hashlib
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import psutil
from playwright.sync_api import Error as PlaywrightError

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
ARTIFACTS = ROOT / "artifacts"
CHROMIUM = Path(os.environ.get("TREEGAMES_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
VIEWPORT = {"width": 1280, "height": 1000}


DEADLINE = 120.0
"""The default deadline of a wait, in seconds: generous, since a wait ends as soon as its condition holds.

A deadline only bounds how long a test takes to report a failure; it is sized for a slow, busy
2-core machine (a full suite beside another CPU-bound program), never for the machine the test was
written on. Set TREEGAMES_TEST_DEADLINE_SCALE to stretch every deadline on a slower machine."""

DEADLINE_SCALE = float(os.environ.get("TREEGAMES_TEST_DEADLINE_SCALE", "1") or 1)

WAIT_MS = DEADLINE * DEADLINE_SCALE * 1000
"""The same deadline in milliseconds, for Playwright's ``timeout=`` arguments."""


def wait_until(predicate, timeout: float = DEADLINE, step: float = 0.05, what: str = "the condition",
               pause=None):
    """Poll ``predicate`` until it returns a true value (returned) or the deadline passes (AssertionError).

    The one way tests wait: on a condition, with a deadline (``timeout`` seconds, times
    DEADLINE_SCALE). ``pause(seconds)`` sleeps between polls: pass ``pause=on_page(page)`` for a
    Playwright page, which keeps its events flowing; the failure names ``what`` and the last value seen.
    """
    deadline = time.monotonic() + timeout * DEADLINE_SCALE
    value = None
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() >= deadline:
            raise AssertionError(f"{what} not reached within {timeout * DEADLINE_SCALE:.0f} s; last seen: {value!r}")
        (pause or time.sleep)(step)


def holds_for(predicate, seconds: float, step: float = 0.05, what: str = "the condition", pause=None) -> None:
    """Assert that ``predicate`` stays true for ``seconds`` (polled every ``step``): the wait for something NOT to happen.

    For checks such as "no coach starts" or "the kernel is still there after a pause": the period
    is part of what is tested, and it fails at the first poll where the condition breaks.
    """
    end = time.monotonic() + seconds
    while True:
        value = predicate()
        if not value:
            raise AssertionError(f"{what} broke after {seconds - max(0.0, end - time.monotonic()):.1f} s; seen: {value!r}")
        if time.monotonic() >= end:
            return
        (pause or time.sleep)(min(step, max(0.0, end - time.monotonic())) or step)


def on_page(page):
    """A ``pause`` for wait_until that lets a Playwright page's events flow while it waits."""
    return lambda seconds: page.wait_for_timeout(seconds * 1000)


def free_port() -> int:
    """A free TCP port on the loopback interface."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """A Jupyter-family server process in its own process group, stopped with every kernel it spawned."""

    def __init__(self, argv: list[str], port: int, cwd: Path, ready_path: str = "/", log_name: str = "server",
                 env: dict | None = None):
        ARTIFACTS.mkdir(exist_ok=True)
        self.port = port
        self.base = f"http://127.0.0.1:{port}"
        self.log_path = ARTIFACTS / f"{log_name}-{port}.log"
        self._log = open(self.log_path, "wb")
        env = dict(env or os.environ, PYTHONUNBUFFERED="1", JUPYTER_PLATFORM_DIRS="1")
        self.proc = subprocess.Popen(argv, cwd=cwd, stdout=self._log, stderr=subprocess.STDOUT,
                                     start_new_session=True, env=env)
        self.kernel_pids: set[int] = set()
        self._wait_ready(ready_path)

    def _wait_ready(self, path: str, timeout: float = DEADLINE) -> None:
        """Wait until the server answers HTTP, or fail showing its log."""

        def answers() -> bool:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited early:\n{self.log_path.read_text()[-3000:]}")
            try:
                with urllib.request.urlopen(self.base + path, timeout=2) as answer:
                    return answer.status < 500
            except OSError:
                return False

        try:
            wait_until(answers, timeout, step=0.2, what=f"an answer from {self.base}{path}")
        except AssertionError as late:
            self.stop()
            raise RuntimeError(f"{late}:\n{self.log_path.read_text()[-3000:]}") from None

    def children(self) -> list[psutil.Process]:
        """Every live process the server started (its kernels among them)."""
        try:
            found = psutil.Process(self.proc.pid).children(recursive=True)
        except psutil.NoSuchProcess:
            return []
        self.kernel_pids.update(p.pid for p in found)
        return found

    def live_kernels(self) -> set[int]:
        """PIDs of the live kernels the server started."""
        found = set()
        for p in self.children():
            with contextlib.suppress(psutil.Error):
                if "ipykernel" in " ".join(p.cmdline()):
                    found.add(p.pid)
        return found

    def kernel_environs(self) -> list[dict[str, str]]:
        """The environment of each live kernel, as the kernel itself holds it (see :func:`kernel_environ`)."""
        found = []
        for pid in self.live_kernels():
            env = kernel_environ(pid)
            if env is not None:
                found.append(env)
        return found

    def kernel_rss(self) -> list[int]:
        """Resident memory in bytes of each live child process (the kernels)."""
        sizes = []
        for p in self.children():
            with contextlib.suppress(psutil.Error):
                if "kernel" in " ".join(p.cmdline()):
                    sizes.append(p.memory_info().rss)
        return sizes

    def stop(self) -> None:
        """Stop the server's process group, then every kernel it started, by PID."""
        self.children()  # remember the kernels while the server still knows them
        for sig, wait in ((signal.SIGTERM, 10.0), (signal.SIGKILL, 5.0)):
            if self.proc.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(self.proc.pid, sig)
                with contextlib.suppress(subprocess.TimeoutExpired):
                    self.proc.wait(wait)
        for pid in self.kernel_pids:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(os.getpgid(pid), signal.SIGKILL)
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        with contextlib.suppress(AssertionError):  # a killed process on a loaded machine takes a moment to go
            wait_until(lambda: not self.alive_pids(), 30, step=0.1, what="the server's processes gone")
        self._log.close()

    def alive_pids(self) -> list[int]:
        """PIDs of the server and its kernels that still exist (empty once stopped)."""
        return running_pids([self.proc.pid, *self.kernel_pids])


def kernel_environ(pid: int, timeout: float = 30.0) -> dict[str, str] | None:
    """A live kernel's ``os.environ``, asked over its connection file (None if it is gone or does not answer).

    Not ``/proc/PID/environ``: that is the environment a process was exec'd with, and a kernel forked by the
    class server's fork server took its own after the fork. The request is silent (nothing on iopub, nothing
    in the kernel's history), so the page's own messages are untouched.
    """
    from jupyter_client import BlockingKernelClient

    try:
        words = " ".join(psutil.Process(pid).cmdline()).split()
    except psutil.Error:
        return None
    if "-f" not in words or words.index("-f") + 1 >= len(words):
        return None
    client = BlockingKernelClient(connection_file=words[words.index("-f") + 1])
    try:
        client.load_connection_file()
        client.start_channels()
        client.wait_for_ready(timeout=timeout)  # iopub connected, so the reply's idle is seen
        reply = client.execute_interactive("", silent=True, store_history=False, timeout=timeout,
                                           user_expressions={"env": "dict(__import__('os').environ)"})
        shown = reply["content"]["user_expressions"]["env"]["data"]["text/plain"]
        return ast.literal_eval(shown)
    except (OSError, KeyError, ValueError, TimeoutError, RuntimeError):
        return None
    finally:
        client.stop_channels()


def running_pids(pids) -> list[int]:
    """The PIDs among ``pids`` still running (a zombie has ended; one gone between two looks is gone)."""
    found = []
    for p in pids:
        with contextlib.suppress(psutil.NoSuchProcess):
            if psutil.pid_exists(p) and psutil.Process(p).status() != psutil.STATUS_ZOMBIE:
                found.append(p)
    return found


CULL_ARGS = ["--MappingKernelManager.cull_idle_timeout=900", "--MappingKernelManager.cull_interval=60"]
"""Kept for callers: the class server's settings already cull kernels of closed pages after 15 idle minutes."""


def start_voila(root: Path = NOTEBOOKS, python: Path | None = None, port: int | None = None,
                preheat: bool = True, extra: list[str] | None = None) -> Server:
    """Voila serving every notebook under ``root`` on a free loopback port, exactly as ``make serve`` does.

    It is the class server (``treegames.serving``: checked kernel websocket, limits, culling, preheated
    kernels). With ``preheat`` (the default, like ``make serve``) each notebook runs in a waiting kernel
    before any page connects, so every canvas has been drawn once before its page exists: the Voila trap
    path. ``extra`` adds Voila options (they win over the settings).
    """
    return start_class_server(root, python=python, port=port, preheat=preheat, extra=extra)


def start_class_server(root: Path = NOTEBOOKS, python: Path | None = None, port: int | None = None,
                       preheat: bool = True, extra: list[str] | None = None, env: dict | None = None) -> Server:
    """The class server exactly as ``make serve`` starts it (``python -m treegames.serving``), on loopback.

    Every serving setting comes from ``treegames.serving.settings``; ``extra`` adds Voila options.
    """
    port = port or free_port()
    exe = str(python or sys.executable)
    argv = [exe, "-m", "treegames.serving", str(root), f"--port={port}", "--host=127.0.0.1",
            *([] if preheat else ["--no-preheat"]), *(extra or [])]
    return Server(argv, port, cwd=root, log_name="class-server", env=env)


def start_jupyter(kind: str, root: Path = ROOT, python: Path | None = None, env: dict | None = None) -> Server:
    """A JupyterLab ('lab') or plain Jupyter ('server') server without token, for the Lab and Binder checks."""
    port = free_port()
    exe = str(python or sys.executable)
    module = "jupyterlab" if kind == "lab" else "jupyter_server"
    argv = [exe, "-m", module, "--no-browser", f"--port={port}", "--ServerApp.ip=127.0.0.1",
            "--ServerApp.token=", "--ServerApp.password=", "--ServerApp.open_browser=False",
            "--ServerApp.disable_check_xsrf=True", f"--ServerApp.root_dir={root}",
            "--allow-root"]
    return Server(argv, port, cwd=root, ready_path="/api", log_name=kind, env=env)


def launch_chromium(playwright):
    """Debian's Chromium, headless, through Playwright (never a downloaded browser)."""
    return playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)


class TabPool:
    """Chromium tabs recycled between tests: ``browser.new_context`` hands out a reset context with its page.

    A fresh context costs Chromium about 1 s of CPU for a new renderer process, and a Voila page
    loaded there about 2 s more to compile the page's scripts again; in a tab that has loaded a
    page before, the same load costs about a third. So a context a test closes is not closed: its
    extra pages are, its page goes to ``about:blank`` (the Voila page unloads, as when a visitor
    leaves), the handlers and routes the test added are removed, cookies and permissions cleared,
    and it waits for the next ``new_context`` with the same options (the viewport is set anew).
    A context whose test did something that cannot be undone (an init script, emulated media,
    extra headers) is closed for real. Page-level state never crosses: every test loads its page.
    """

    UNDOABLE = ("on", "once")
    """Calls recorded on a pooled context or page so that its release can undo them (routes go by unroute_all)."""
    TAINTING = ("add_init_script", "emulate_media", "expose_binding", "expose_function",
                "set_extra_http_headers", "set_geolocation", "route_web_socket", "route_from_har")
    """Calls after which a context is not reused."""

    def __init__(self, browser):
        self.browser = browser
        self.real_new_context = browser.new_context
        self.idle: dict[str, list] = {}
        browser.new_context = self.new_context
        browser.new_page = self.new_page

    @staticmethod
    def key(options: dict) -> str:
        """The pool a context with these options belongs to (the viewport is set per use)."""
        return repr(sorted((k, v) for k, v in options.items() if k != "viewport"))

    def new_context(self, **options):
        """A reset context from the pool for these options, or a new one."""
        key = self.key(options)
        viewport = options.get("viewport", VIEWPORT)
        while self.idle.get(key):
            context = self.idle[key].pop()
            try:
                context.tab.set_viewport_size(viewport)
            except Exception:  # noqa: BLE001 - a tab that cannot be reset is closed and replaced
                with contextlib.suppress(Exception):
                    context.real_close()
                continue
            return context
        context = self.real_new_context(**options)
        context.set_default_timeout(WAIT_MS)
        context.set_default_navigation_timeout(WAIT_MS)
        real_new_page, real_close = context.new_page, context.close
        context.tab, context.undo, context.tainted, context.handed = None, [], False, False
        context.extra_pages, context.real_close = [], real_close
        self._watch(context, context)

        def new_page():
            if context.handed:  # a second page in the same test: a real one, closed when the context is released
                extra = real_new_page()
                context.extra_pages.append(extra)
                return extra
            if context.tab is None or context.tab.is_closed():
                context.tab = real_new_page()
                self._watch(context, context.tab)
            context.handed = True
            return context.tab

        def close(**kwargs):
            self._release(context, key)

        context.new_page, context.close = new_page, close
        return context

    def new_page(self, **options):
        """A page in a context of its own (as Browser.new_page): closing the page releases the context."""
        context = self.new_context(**options)
        page = context.new_page()
        page.close = lambda **kwargs: context.close()
        return page

    def _watch(self, context, target) -> None:
        """Record the undoable calls on ``target`` (a context or a page) and mark the tainting ones."""
        for name in self.UNDOABLE:
            real = getattr(target, name)

            def recorded(*args, _real=real, _name=name, **kwargs):
                context.undo.append((target, _name, args))
                return _real(*args, **kwargs)
            setattr(target, name, recorded)
        for name in self.TAINTING:
            real = getattr(target, name, None)
            if real is None:  # a page-only or context-only call
                continue

            def tainting(*args, _real=real, **kwargs):
                context.tainted = True
                return _real(*args, **kwargs)
            setattr(target, name, tainting)
        if target is not context:
            target.set_default_timeout(WAIT_MS)
            target.set_default_navigation_timeout(WAIT_MS)

    def _release(self, context, key: str) -> None:
        """Reset a context its test closed and keep it for the next test, or close it when it cannot be reset."""
        try:
            for page in context.extra_pages:
                page.close()
            context.extra_pages.clear()
            context.handed = False
            if context.tainted or context.tab is None or context.tab.is_closed():
                raise RuntimeError("not reusable")
            context.tab.goto("about:blank", timeout=30_000)
            for target, _name, args in reversed(context.undo):
                with contextlib.suppress(Exception):  # a ``once`` handler that has run is gone already
                    target.remove_listener(*args[:2])
            context.undo.clear()
            context.tab.unroute_all(behavior="ignoreErrors")
            context.unroute_all(behavior="ignoreErrors")
            context.clear_cookies()
            context.clear_permissions()
            context.set_offline(False)
            context.tab.set_default_timeout(WAIT_MS)
            context.tab.set_default_navigation_timeout(WAIT_MS)
        except Exception:  # a page that crashed, closed or cannot be reset: a real close
            with contextlib.suppress(Exception):
                context.real_close()
            return
        self.idle.setdefault(key, []).append(context)


CANVAS_STATS_JS = """
(index) => {
  const all = Array.from(document.querySelectorAll('canvas')).filter(c => c.width > 50 && c.height > 50);
  const c = all[index];
  if (!c) return null;
  const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  let inked = 0, h = 2166136261;
  for (let i = 0; i < data.length; i += 4) {
    const r = data[i], g = data[i+1], b = data[i+2], a = data[i+3];
    if (a > 0 && !(r > 250 && g > 250 && b > 250)) inked++;
    h = Math.imul(h ^ r ^ (g << 8) ^ (b << 16) ^ (a << 24), 16777619) >>> 0;
  }
  const rect = c.getBoundingClientRect();
  return {width: c.width, height: c.height, inked: inked, hash: h, count: all.length,
          left: rect.left, top: rect.top, cssWidth: rect.width, cssHeight: rect.height};
}
"""

PIXEL_JS = """
([index, x, y]) => {
  const all = Array.from(document.querySelectorAll('canvas')).filter(c => c.width > 50 && c.height > 50);
  const d = all[index].getContext('2d').getImageData(Math.round(x), Math.round(y), 1, 1).data;
  return [d[0], d[1], d[2], d[3]];
}
"""


REDRAW_TIME_JS = """
async ([button, x, y, limit]) => {
  const c = Array.from(document.querySelectorAll('canvas')).filter(c => c.width > 500)[0];
  const ctx = c.getContext('2d');
  const probe = () => { const d = ctx.getImageData(0, 0, c.width, c.height).data; let h = 0;
    for (let i = 0; i < d.length; i += 64) h = (h * 31 + d[i] + d[i + 1]) | 0; return h; };
  const before = probe();
  const t0 = performance.now();
  if (button) {
    Array.from(document.querySelectorAll('button')).find(b => b.textContent.trim() === button).click();
  } else {
    const rect = c.getBoundingClientRect();
    c.dispatchEvent(new MouseEvent('mousedown', {clientX: rect.left + x, clientY: rect.top + y, bubbles: true}));
  }
  while (probe() === before) {
    await new Promise(r => requestAnimationFrame(r));
    if (performance.now() - t0 > limit) return -1;
  }
  return performance.now() - t0;
}
"""


DRAW_TIME_JS = """
async ([button, x, y, limit]) => {
  const c = Array.from(document.querySelectorAll('canvas')).filter(c => c.width > 500)[0];
  const ctx = c.getContext('2d');
  const names = ['drawImage', 'putImageData', 'fillRect', 'clearRect', 'fill', 'stroke', 'fillText', 'strokeText'];
  let drawn = null;
  for (const n of names) {
    ctx[n] = function (...args) { if (drawn === null) drawn = performance.now();
      return CanvasRenderingContext2D.prototype[n].apply(this, args); };
  }
  const t0 = performance.now();
  try {
    if (button) {
      Array.from(document.querySelectorAll('button')).find(b => b.textContent.trim() === button).click();
    } else {
      const rect = c.getBoundingClientRect();
      c.dispatchEvent(new MouseEvent('mousedown', {clientX: rect.left + x, clientY: rect.top + y, bubbles: true}));
    }
    while (drawn === null) {
      await new Promise(r => setTimeout(r, 1));
      if (performance.now() - t0 > limit) return -1;
    }
    await new Promise(r => requestAnimationFrame(r));  /* the frame that shows the drawing */
    return performance.now() - t0;
  } finally {
    for (const n of names) delete ctx[n];
  }
}
"""
"""Like REDRAW_TIME_JS without reading pixels: the board's drawing calls are noted (the first after the press)
and the time is taken at the next animation frame, the one that shows it. Reading the whole canvas every frame,
as REDRAW_TIME_JS does, took about 20 ms of the page's main thread per Step (Chromium's profiler) and so
delayed the very drawing it waited for."""


def time_to_draw(page, button: str | None = None, x: float = 0.0, y: float = 0.0, limit: float = 5.0) -> float:
    """Milliseconds from a press (or a canvas click at x, y) to the frame after the board's first drawing call; -1 if none in ``limit`` s."""
    return page.evaluate(DRAW_TIME_JS, [button, x, y, limit * 1000])


def time_to_redraw(page, button: str | None = None, x: float = 0.0, y: float = 0.0,
                   limit: float = DEADLINE) -> float:
    """Milliseconds from a button press (by label) or a canvas click at (x, y) until the board's pixels change.

    Measured inside the page (performance.now and animation frames); -1 if nothing changed within
    ``limit`` seconds (times DEADLINE_SCALE).
    """
    return page.evaluate(REDRAW_TIME_JS, [button, x, y, limit * DEADLINE_SCALE * 1000])


def redraw_ms(page, button: str | None = None, x: float = 0.0, y: float = 0.0) -> float:
    """time_to_redraw for benchmarks: one sample is capped at 5 s (-1 past it), so a bench never stalls on one."""
    return time_to_redraw(page, button, x, y, limit=5.0 / DEADLINE_SCALE)


def frame_cost(view, frames: int) -> tuple[float, float]:
    """Median ms for a SceneCanvas to compute, encode and queue one frame, and comm messages per frame.

    Only the comm write itself is captured (no page is connected); scene, commands and serialising are timed.
    """
    from treegames.ui.canvas import capture_messages

    times = []
    with capture_messages(view.canvas) as sent:
        for _ in range(frames):
            t0 = time.perf_counter()
            view.redraw()
            times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times), len(sent) / frames


def canvas_stats(page, index: int = 0) -> dict | None:
    """Size, count of non-white pixels and a hash of the index-th large canvas on the page.

    None while the page is between two documents (a waiting page opening the real one: issue 34's line)."""
    try:
        return page.evaluate(CANVAS_STATS_JS, index)
    except PlaywrightError as error:
        if is_between_documents(error):
            return None
        raise


def is_between_documents(error: Exception) -> bool:
    """Whether Playwright's ``error`` says the page was navigating (its script's document went away)."""
    return "context was destroyed" in str(error) or "navigation" in str(error)


def pixel(page, x: float, y: float, index: int = 0) -> tuple[int, int, int, int]:
    """RGBA of one canvas pixel."""
    return tuple(page.evaluate(PIXEL_JS, [index, x, y]))


def wait_for_drawing(page, index: int = 0, min_inked: int = 5000, timeout: float = DEADLINE,
                     differs_from: int | None = None) -> dict:
    """Wait until the canvas is drawn (and, if given, its hash differs from a previous one)."""

    def drawn():
        stats = canvas_stats(page, index)
        seen.append(stats)
        ok = stats and stats["inked"] >= min_inked and (differs_from is None or stats["hash"] != differs_from)
        return stats if ok else None

    seen: list = [None]
    try:
        return wait_until(drawn, timeout, step=0.1, pause=on_page(page), what=f"canvas {index} drawn as expected")
    except AssertionError as late:
        raise AssertionError(f"{late}; its stats: {seen[-1]}") from None


def wait_until_stable(page, index: int = 0, quiet_ms: int = 600, timeout: float = 20.0) -> dict:
    """Wait until the canvas stops changing for ``quiet_ms`` (at most ``timeout`` s); return its stats.

    A canvas that never settles (an animation that loops) is returned as last seen: settling is a
    courtesy before reading pixels, and the reads that follow assert what they need.
    """
    state = {"last": canvas_stats(page, index), "since": time.monotonic()}

    def quiet():
        now = canvas_stats(page, index)
        if now != state["last"]:
            state["last"], state["since"] = now, time.monotonic()
            return None
        return now if (time.monotonic() - state["since"]) * 1000 >= quiet_ms else None

    with contextlib.suppress(AssertionError):
        return wait_until(quiet, timeout, step=0.1, pause=on_page(page), what="a quiet canvas")
    return state["last"]


def screenshot(page, name: str) -> Path:
    """Save a full-page screenshot under artifacts/screenshots and return its path."""
    folder = ARTIFACTS / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def digest(data: bytes) -> str:
    """A short hash, for naming cached environments."""
    return hashlib.sha256(data).hexdigest()[:16]


def open_dashboard(page, server: Server, path: str, prefix: str = "/voila/render/") -> dict:
    """Load a dashboard and wait until its first canvas is drawn and settled; return the canvas stats."""
    page.goto(f"{server.base}{prefix}{path}", timeout=DEADLINE * DEADLINE_SCALE * 1000)
    wait_for_drawing(page)
    return wait_until_stable(page)


def load_times(browser, server: Server, path: str, runs: int) -> list[float]:
    """Seconds from navigation to a drawn first canvas, each in a fresh browser context, after one warm-up."""
    open_dashboard(browser.new_page(viewport=VIEWPORT), server, path)  # warm-up
    times = []
    for _ in range(runs):
        context = browser.new_context(viewport=VIEWPORT)
        page = context.new_page()
        t0 = time.perf_counter()
        page.goto(f"{server.base}/voila/render/{path}")
        wait_for_drawing(page)
        times.append(time.perf_counter() - t0)
        context.close()
    return times


@contextlib.contextmanager
def loaded_dashboard(browser, server: Server, path: str, viewport: dict | None = None):
    """A fresh page with a dashboard loaded and drawn: yields (page, first canvas stats, page errors)."""
    context = browser.new_context(viewport=viewport or VIEWPORT)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    try:
        yield page, open_dashboard(page, server, path), errors
    finally:
        context.close()


STEP_JS = """
() => { for (const e of document.querySelectorAll('.widget-html-content')) {
  const m = /Step (\\d+) of/.exec(e.innerText); if (m) return Number(m[1]); } return -1; }
"""
"""The Play page's 'Step N of M' counter's N (-1 before it shows)."""


def press(page, name: str) -> None:
    """Click a widget button by its label (icons and spaces around it allowed)."""
    page.get_by_role("button", name=re.compile(rf"^\W*{re.escape(name)}\s*$")).first.click()


def open_settings(page, keyboard: bool = False) -> None:
    """Open a Play page's folded Settings (speed, bots answering, less motion), by a click or by Tab's Enter."""
    toggle = page.get_by_role("button", name=re.compile(r"^\W*Settings\s*$")).first
    if toggle.get_attribute("aria-pressed") == "true" or "mod-active" in (toggle.get_attribute("class") or ""):
        return
    if keyboard:
        toggle.focus()
        page.keyboard.press("Enter")
    else:
        toggle.click()
    page.get_by_label("steps/s").first.wait_for(state="visible", timeout=WAIT_MS)


def create_and_join(a, b) -> str:
    """On two Play pages with their Play with others tab open: A creates a table, B joins it by its code; the code."""
    press(a, "Create table")
    a.locator(".treegames-table-code").wait_for(timeout=WAIT_MS)
    code = a.locator(".treegames-table-code").inner_text().strip()
    b.get_by_placeholder(re.compile("e.g.")).fill(code)
    press(b, "Join")
    b.locator(".treegames-table-code").wait_for(timeout=WAIT_MS)
    return code


def step_until(page, words: str) -> bool:
    """Press Step and wait until the page has taken it: its step counter moved on, or it says ``words``
    (a person is to move: Step then only says so); whether it says ``words``."""
    at = page.evaluate(STEP_JS)
    press(page, "Step")
    wait_until(lambda: page.get_by_text(words).count() > 0 or page.evaluate(STEP_JS) > at, step=0.1,
               pause=on_page(page), what=f"a step taken, or {words!r}")
    return page.get_by_text(words).count() > 0


def click_canvas(page, x: float, y: float, index: int = 0) -> None:
    """Click a canvas at canvas pixel (x, y)."""
    stats = canvas_stats(page, index)
    scale = stats["cssWidth"] / stats["width"]
    page.mouse.click(stats["left"] + x * scale, stats["top"] + y * scale)
