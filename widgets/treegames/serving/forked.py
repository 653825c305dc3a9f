"""Kernels forked from a warm process: the class server's side of :mod:`.forkserver`.

:class:`ForkClient` starts the fork server beside the class server and asks it for kernels;
:class:`ForkedProvisioner` is the jupyter_client kernel provisioner (``treegames-forked``, registered in
``pyproject.toml`` and named by ``settings.voila_config()``) that every kernel of the class server goes
through: Voilà's preheated pools, the pages started on arrival and the teacher's prepared classes alike.

It forks only what a cold start would have run the same way: this Python's ``-m ipykernel_launcher -f
FILE``, and only while the fork server is up. Anything else (another kernel, another Python, a fork
server that failed or is still importing past :data:`REPLY_SECONDS`) starts the usual way, so the fork
server can make a kernel cheaper but never make one fail.

A forked kernel is the fork server's child, not the class server's: :class:`ForkedKernel` stands in for
its ``Popen``. Its end is learned from the fork server (which reaps it and sends its exit code on the
kernel's own connection), so a pid is never signalled once it has been reaped.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

import psutil
from jupyter_client.provisioning import LocalProvisioner

REPLY_SECONDS = 60.0
"""How long a launch waits for the fork server's answer (it answers once its imports are done)."""
STOP_SECONDS = 5.0
"""How long :meth:`ForkClient.stop` waits for the fork server to end before killing it."""


class ForkedKernel:
    """The ``Popen`` of a kernel forked by the fork server: its pid, how it ended, and signals while it runs.

    Its end is read from the kernel's connection to the fork server without any event loop (``poll`` is
    called by jupyter_client from whichever loop runs, and at shutdown from a loop of its own).
    """

    stdin = stdout = stderr = None

    def __init__(self, pid: int, connection: socket.socket, buffered: bytes = b""):
        self.pid = pid
        self.returncode: int | None = None
        self._connection: socket.socket | None = connection
        self._buffered = buffered
        connection.setblocking(False)

    def poll(self) -> int | None:
        """None while the kernel runs, else its exit code (as ``Popen.poll``)."""
        if self.returncode is None and self._connection is not None:
            self._read()
        if self.returncode is None and self._connection is None and not _exists(self.pid):
            self.returncode = -signal.SIGKILL  # it ended after its fork server: its code went with that server
        return self.returncode

    def _read(self) -> None:
        """Take what the fork server has sent: ``{"exit": code}``, or the end of the connection (it is gone)."""
        while b"\n" not in self._buffered:
            try:
                data = self._connection.recv(4096)
            except BlockingIOError:
                return
            except OSError:
                data = b""
            if not data:
                self._close()
                return
            self._buffered += data
        line, _, self._buffered = self._buffered.partition(b"\n")
        with contextlib.suppress(ValueError, KeyError, TypeError):
            self.returncode = int(json.loads(line)["exit"])
        self._close()

    def _close(self) -> None:
        """Close the connection to the fork server."""
        if self._connection is not None:
            self._connection.close()
            self._connection = None

    def wait(self, timeout: float | None = None) -> int | None:
        """The exit code; only called once :meth:`poll` has one (as LocalProvisioner does)."""
        return self.poll()

    def send_signal(self, signum: int) -> None:
        """Signal the kernel while it runs; nothing once it has ended (as ``Popen.send_signal``)."""
        if self.poll() is None:
            try:
                os.kill(self.pid, signum)
            except ProcessLookupError:  # ended and collected before its end was read (its fork server stopping)
                self.returncode = -signal.SIGKILL

    def kill(self) -> None:
        """SIGKILL."""
        self.send_signal(signal.SIGKILL)

    def terminate(self) -> None:
        """SIGTERM."""
        self.send_signal(signal.SIGTERM)


def _exists(pid: int) -> bool:
    """Whether a process with this pid runs (used only after the fork server is gone; a zombie has ended)."""
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False
    except psutil.Error:
        return True


class ForkClient:
    """The fork server started beside this process, and the way to ask it for a kernel."""

    def __init__(self, notebooks: Path, python: str = sys.executable, log: logging.Logger | None = None):
        self.log = log or logging.getLogger("treegames.forked")
        self.said_gone = False
        self.folder = Path(tempfile.mkdtemp(prefix="treegames-fork-"))  # mode 0700: only this user connects
        self.path = str(self.folder / "kernels.sock")
        self.python = python
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        listener.bind(self.path)
        listener.listen(128)
        try:
            self.process = subprocess.Popen(
                [python, "-m", "treegames.serving.forkserver", "--listen-fd", str(listener.fileno()), str(notebooks)],
                stdin=subprocess.PIPE, pass_fds=[listener.fileno()], env={**os.environ, "OPENBLAS_NUM_THREADS": "1"})
        finally:
            listener.close()  # the fork server holds it now: once that process is gone, connecting is refused

    def can_fork(self, cmd: list[str]) -> bool:
        """Whether ``cmd`` is a plain kernel of this Python, which a fork gives exactly, and the server is up."""
        return (len(cmd) == 5 and cmd[1:4] == ["-m", "ipykernel_launcher", "-f"] and _same_program(cmd[0], self.python)
                and self.is_up())

    def is_up(self) -> bool:
        """Whether the fork server runs (said once in the log when it has ended)."""
        code = self.process.poll()
        if code is not None and not self.said_gone:
            self.said_gone = True
            self.log.warning("The kernel fork server ended (exit code %s): kernels start the usual way now", code)
        return code is None

    async def launch(self, cmd: list[str], env: dict[str, str], cwd: str) -> ForkedKernel | None:
        """A kernel forked for ``cmd`` in ``cwd`` with ``env``; None when the fork server cannot give one."""
        request = {"connection_file": os.path.abspath(cmd[4]), "cwd": os.path.abspath(cwd), "env": env,
                   "title": " ".join(cmd)}
        return await asyncio.to_thread(self._ask, json.dumps(request).encode() + b"\n")

    def _ask(self, request: bytes) -> ForkedKernel | None:
        """Send one request and read the answer (blocking: run in a thread); the kernel, or None and why in the log."""
        connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        connection.settimeout(REPLY_SECONDS)
        try:
            connection.connect(self.path)
            connection.sendall(request)
            buffered = b""
            while b"\n" not in buffered:
                data = connection.recv(4096)
                if not data:
                    raise ConnectionError("the fork server closed the connection")
                buffered += data
            line, _, rest = buffered.partition(b"\n")
            answer = json.loads(line)
        except (OSError, ValueError) as error:
            connection.close()
            self.log.warning("no kernel from the fork server (%s): starting it the usual way", error or "timed out")
            return None
        if not isinstance(answer, dict) or "pid" not in answer:
            connection.close()
            self.log.warning("the fork server refused a kernel (%s): starting it the usual way",
                             answer.get("error") if isinstance(answer, dict) else answer)
            return None
        return ForkedKernel(int(answer["pid"]), connection, rest)

    def stop(self) -> None:
        """End the fork server (closing its stdin ends it; it kills kernels still running) and remove its folder."""
        with contextlib.suppress(OSError):
            self.process.stdin.close()
        try:
            self.process.wait(STOP_SECONDS)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        shutil.rmtree(self.folder, ignore_errors=True)


def _same_program(first: str, second: str) -> bool:
    """Whether two interpreter paths are the same Python (links not followed: another venv's python is a link to
    the same binary, with other packages)."""
    return os.path.abspath(shutil.which(first) or first) == os.path.abspath(second)


_client: ForkClient | None = None


def use(client: ForkClient | None) -> None:
    """Make ``client`` the fork server this process's kernels are forked from (None: start them the usual way)."""
    global _client
    _client = client


def current() -> ForkClient | None:
    """The fork server in use, if any."""
    return _client


class ForkedProvisioner(LocalProvisioner):
    """LocalProvisioner whose plain kernels come from the fork server when one is in use."""

    async def launch_kernel(self, cmd: list[str], **kwargs):
        """Fork the kernel when :meth:`ForkClient.can_fork`; otherwise launch it as LocalProvisioner does."""
        client = current()
        if client is not None and client.can_fork(cmd):
            cwd = str(kwargs.get("cwd") or os.getcwd())
            env = {str(k): str(v) for k, v in (kwargs.get("env") or os.environ).items()}
            process = await client.launch(cmd, env, cwd)
            if process is not None:
                self.process = process
                self.pid = self.pgid = process.pid  # the child made its own session before the answer came
                self.cwd = cwd
                return self.connection_info
        return await super().launch_kernel(cmd, **kwargs)
