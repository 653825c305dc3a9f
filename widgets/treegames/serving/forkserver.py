"""The kernel fork server: one process that has already imported what the pages import, forking a kernel per request.

A kernel started the usual way is a new Python that imports ipykernel (about 0.25 CPU-s) and then runs
its notebook, whose imports (ipywidgets, ipycanvas, numpy, treegames) are most of its 0.5 CPU-s. Here
those imports are paid once: the class server starts this process (``python -m treegames.serving.forkserver
--listen-fd N NOTEBOOKS``), which imports ipykernel and every module the served notebooks import
(:func:`notebook_imports`, read from their code cells: nothing here names a game), freezes its objects for
the garbage collector (so the children's pages stay shared, copy-on-write) and then waits on the Unix
socket it was handed. Voilà's preheated pools and the arrivals take the same path (:mod:`.forked`).

The protocol, one connection per kernel:

* the class server sends one JSON line: ``{"connection_file": ..., "cwd": ..., "env": {...}, "title": ...}``;
* this process forks; the child starts its own session (its own process group, as a kernel started by
  jupyter_client does), moves to ``cwd``, takes ``env`` as its whole environment, names itself ``title``
  (the command line a cold kernel would have, so ``ps`` shows the same) and runs the kernel app on
  ``connection_file``;
* this process answers ``{"pid": N}`` once the child has its session (or ``{"error": ...}``), and when it
  reaps the child it sends ``{"exit": code}`` (negative: the signal) and closes the connection.

The fork server runs with ``OPENBLAS_NUM_THREADS=1``, so that importing numpy starts no thread pool (a fork
keeps only the forking thread; the server refuses to fork if any other thread runs after its imports), and its
kernels inherit numpy's single-threaded arithmetic: the pages' numbers are small.

The socket is created by the class server in its own private folder (mode 0700): only its user can ask
for a kernel, and a request can only name a connection file, a folder and an environment, never a command.
This process ends when the class server does (its stdin closes; SIGTERM and SIGINT are left to the class
server, which stops its kernels in order first); kernels still running then are killed with it.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import gc
import importlib
import json
import os
import selectors
import signal
import socket
import sys
import threading
from pathlib import Path

BASE_IMPORTS = ("ipykernel.kernelapp", "ipykernel.ipkernel", "ipykernel.comm", "ipywidgets")
"""What every kernel imports before any notebook cell runs."""
IN_KERNEL_IMPORT_HOOKS = ("ipywidgets:register_comm_target",)
"""What a preloaded module does at import only when it finds a kernel, redone in each forked kernel once it has
one: ipywidgets registers its comm targets then (without them no page could ask for its widgets). Widgets made at
import are given a comm in the kernel too (:func:`reopen_widgets`)."""
MOST_REQUEST_BYTES = 1 << 20
"""A request longer than this is refused (an environment is a few kB)."""


class RequestError(ValueError):
    """A kernel request that is not what the protocol says, naming the field."""


def notebook_imports(root: Path) -> list[str]:
    """Every module named by an ``import`` in the code cells of the notebooks under ``root`` (sorted)."""
    names: set[str] = set()
    for path in sorted(root.rglob("*.ipynb")):
        if ".ipynb_checkpoints" in path.parts:
            continue
        try:
            cells = json.loads(path.read_text(encoding="utf-8")).get("cells", [])
        except (OSError, ValueError):
            continue
        for cell in cells:
            if cell.get("cell_type") == "code":
                names.update(imported_modules("".join(cell.get("source", ""))))
    return sorted(names)


def imported_modules(code: str) -> set[str]:
    """The absolute module names one cell's ``import`` statements name (nothing if the cell is not Python)."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return set()
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module)
    return found


def warm(modules: list[str]) -> list[str]:
    """Import ``modules`` (after :data:`BASE_IMPORTS`); the ones that failed, as 'name: reason'."""
    failed = []
    for name in (*BASE_IMPORTS, *modules):
        try:
            importlib.import_module(name)
        except Exception as error:  # a notebook may import what this server lacks; its kernel will say so
            failed.append(f"{name}: {type(error).__name__}: {error}")
    return failed


def parse_request(line: bytes) -> dict:
    """A request line as a dict with its four fields checked (RequestError naming the field otherwise)."""
    try:
        request = json.loads(line)
    except ValueError as error:
        raise RequestError(f"a request is one JSON object per line: {error}") from None
    if not isinstance(request, dict):
        raise RequestError("a request is a JSON object")
    for field in ("connection_file", "cwd", "title"):
        if not isinstance(request.get(field), str) or not request[field]:
            raise RequestError(f"{field!r} must be a non-empty string")
    env = request.get("env")
    if not isinstance(env, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in env.items()):
        raise RequestError("'env' must map strings to strings")
    if not os.path.isabs(request["connection_file"]) or not os.path.isdir(request["cwd"]):
        raise RequestError("'connection_file' must be an absolute path and 'cwd' a folder")
    return request


def exit_code(status: int) -> int:
    """A wait status as Popen's returncode (negative: killed by that signal)."""
    return -os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)


class ForkServer:
    """The loop: accept requests, fork kernels, report each one's pid and then its exit."""

    def __init__(self, listener: socket.socket):
        self.listener = listener
        self.selector = selectors.DefaultSelector()
        self.children: dict[int, socket.socket | None] = {}
        self.pending: dict[socket.socket, bytes] = {}
        self.running = True
        self.wakeup_r, self.wakeup_w = os.pipe()
        os.set_blocking(self.wakeup_w, False)
        os.set_blocking(self.wakeup_r, False)

    def serve(self) -> None:
        """Serve until stdin closes (the class server has ended); then kill the kernels still running."""
        signal.set_wakeup_fd(self.wakeup_w)
        signal.signal(signal.SIGCHLD, lambda *_: None)
        # Ctrl-C and a stop of the whole process group reach the class server too: it shuts its kernels down
        # in order, then closes our stdin. Ending here first would kill kernels under pages still rendering.
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        self.listener.setblocking(False)
        self.selector.register(self.listener, selectors.EVENT_READ, "accept")
        self.selector.register(self.wakeup_r, selectors.EVENT_READ, "signal")
        self.selector.register(sys.stdin.fileno(), selectors.EVENT_READ, "parent")
        while self.running:
            for key, _ in self.selector.select():
                if key.data == "accept":
                    self.accept()
                elif key.data == "signal":
                    with contextlib.suppress(OSError):
                        os.read(self.wakeup_r, 4096)
                    self.reap()
                elif key.data == "parent":
                    if not os.read(sys.stdin.fileno(), 4096):
                        self.running = False
                else:
                    self.read(key.fileobj)
        self.kill_children()

    def accept(self) -> None:
        """Take a new connection; its request is read as it arrives."""
        with contextlib.suppress(OSError):
            connection, _ = self.listener.accept()
            connection.setblocking(False)
            self.pending[connection] = b""
            self.selector.register(connection, selectors.EVENT_READ, "request")

    def read(self, connection: socket.socket) -> None:
        """Read a request line; when it is whole, fork its kernel."""
        try:
            data = connection.recv(65536)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            self.drop(connection)
            return
        buffered = self.pending[connection] + data
        if b"\n" not in buffered:
            if len(buffered) > MOST_REQUEST_BYTES:
                self.answer(connection, {"error": "the request is too long"})
                self.drop(connection)
            else:
                self.pending[connection] = buffered
            return
        self.selector.unregister(connection)
        del self.pending[connection]
        try:
            request = parse_request(buffered.split(b"\n", 1)[0])
        except RequestError as error:
            self.answer(connection, {"error": str(error)})
            connection.close()
            return
        pid = self.fork(request, connection)
        if pid is None:
            self.answer(connection, {"error": "the kernel could not start its session"})
            connection.close()
            return
        self.children[pid] = connection
        self.answer(connection, {"pid": pid})
        self.reap()  # a child that died at once is reported now

    def drop(self, connection: socket.socket) -> None:
        """Forget a connection that closed before its request was whole."""
        with contextlib.suppress(OSError):
            self.selector.unregister(connection)
        self.pending.pop(connection, None)
        connection.close()

    @staticmethod
    def answer(connection: socket.socket, message: dict) -> None:
        """Send one JSON line; a class server that went away is not an error here."""
        with contextlib.suppress(OSError):
            connection.setblocking(True)
            connection.sendall(json.dumps(message).encode() + b"\n")

    def fork(self, request: dict, connection: socket.socket) -> int | None:
        """Fork a kernel for ``request``; its pid once it has its own session (None if it failed before)."""
        ready_r, ready_w = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(ready_r)
            connection.close()  # the class server must see this connection end when this server ends it
            self.become_kernel(request, ready_w)  # never returns
        os.close(ready_w)
        with os.fdopen(ready_r, "rb") as ready:
            started = ready.read(1) == b"1"
        return pid if started else None

    def become_kernel(self, request: dict, ready_w: int) -> None:
        """In the child: leave the server's loop, take the request's session, folder, environment and name, run."""
        code = 1
        try:
            signal.set_wakeup_fd(-1)
            for number in (signal.SIGCHLD, signal.SIGTERM, signal.SIGINT):
                signal.signal(number, signal.SIG_DFL)
            self.selector.close()
            self.listener.close()
            for fd in (self.wakeup_r, self.wakeup_w):
                os.close(fd)
            for other in [*self.pending, *filter(None, self.children.values())]:
                other.close()
            os.setsid()
            null = os.open(os.devnull, os.O_RDONLY)
            os.dup2(null, 0)
            os.close(null)
            _set_title(request["title"])  # before the environment changes: setproctitle moves it
            os.chdir(request["cwd"])
            os.environ.clear()
            os.environ.update(request["env"])
            parent = str(os.getppid())
            os.environ["JPY_PARENT_PID"] = parent
            os.write(ready_w, b"1")
            os.close(ready_w)
            run_kernel(request["connection_file"], parent)
            code = 0
        except SystemExit as ending:
            code = ending.code if isinstance(ending.code, int) else 0
        except BaseException:  # the kernel's own traceback, in the server's log, as a cold kernel's would be
            import traceback

            traceback.print_exc()
        finally:
            with contextlib.suppress(OSError):
                sys.stdout.flush()
                sys.stderr.flush()
            os._exit(code)

    def reap(self) -> None:
        """Collect every ended child and tell its connection how it ended."""
        while True:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            connection = self.children.pop(pid, None)
            if connection is not None:
                self.answer(connection, {"exit": exit_code(status)})
                connection.close()

    def kill_children(self) -> None:
        """Kill every kernel still running (this server is stopping), collect them and report how each ended."""
        for pid in list(self.children):
            with contextlib.suppress(OSError):
                os.killpg(pid, signal.SIGKILL)
        for pid, connection in list(self.children.items()):
            with contextlib.suppress(OSError):
                _, status = os.waitpid(pid, 0)
                if connection is not None:
                    self.answer(connection, {"exit": exit_code(status)})
            if connection is not None:
                connection.close()
        self.children.clear()


def run_kernel(connection_file: str, parent: str) -> None:
    """Run the kernel app as ``python -m ipykernel_launcher -f FILE`` would, with what imports did in a kernel redone."""
    from ipykernel.kernelapp import IPKernelApp

    # ipykernel read JPY_PARENT_PID when this server imported it: its watch on its parent is set here
    app = IPKernelApp.instance()
    app.initialize(["-f", connection_file, f"--IPKernelApp.parent_handle={parent}"])
    for redo in IN_KERNEL_IMPORT_HOOKS:
        module = sys.modules.get(redo.partition(":")[0])
        if module is not None:
            getattr(module, redo.partition(":")[2])()
    if "ipywidgets" in sys.modules:
        reopen_widgets()
    app.start()


def reopen_widgets() -> None:
    """Give every widget made before this kernel existed (ipycanvas's canvas manager, which carries every drawing) a
    comm in this kernel, under the same model id."""
    from ipywidgets.widgets.widget import _instances

    for widget in list(_instances.values()):
        widget.comm = None
        widget.open()


def _set_title(title: str) -> None:
    """Show ``title`` as this process's command line (``ps``, psutil), where setproctitle is installed."""
    try:
        from setproctitle import setproctitle  # imported by main() before any fork
    except ImportError:
        return
    setproctitle(title)


def main(argv: list[str] | None = None) -> None:
    """Warm up on the notebooks' imports, then serve kernels on the inherited socket."""
    parser = argparse.ArgumentParser(prog="python -m treegames.serving.forkserver")
    parser.add_argument("notebooks", type=Path)
    parser.add_argument("--listen-fd", type=int, required=True)
    options = parser.parse_args(argv)
    if sys.path and sys.path[0] in ("", os.getcwd()):
        del sys.path[0]  # as ipykernel_launcher does: a kernel's cwd goes on its path later, by IPython
    listener = socket.socket(fileno=options.listen_fd)
    with contextlib.suppress(ImportError):
        import setproctitle  # noqa: F401  (it finds this process's command line when imported, so before the forks)
    failed = warm(notebook_imports(options.notebooks))
    for line in failed:
        print(f"[treegames fork server] not preloaded: {line}", file=sys.stderr, flush=True)
    threads = [t.name for t in threading.enumerate() if t is not threading.main_thread()]
    if threads:  # a fork keeps only the calling thread: a preloaded module that started one would break kernels
        print(f"[treegames fork server] refusing to fork: threads running after the imports: {threads}",
              file=sys.stderr, flush=True)
        raise SystemExit(2)
    gc.collect()
    gc.freeze()
    ForkServer(listener).serve()


if __name__ == "__main__":
    main()
