"""Kernels forked from a warm process (treegames.serving.forkserver / .forked): the same kernel, cheaper.

A forked kernel must be what ``python -m ipykernel_launcher -f FILE`` would have been: its own session, the
notebook's folder, the environment the class server gave it, its own random numbers, a cold kernel's command
line; its end is reported with its exit code; a request that is not the protocol's is refused and the fork
server keeps serving; and when the fork server is gone the class server starts kernels the usual way.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import sys
from pathlib import Path

import kernel_ws as kw
import psutil
import pytest
from jupyter_client import BlockingKernelClient
from jupyter_client.connect import write_connection_file
from jupyter_client.manager import start_new_kernel

import harness
from treegames.serving import forked
from treegames.serving.forkserver import (
    RequestError,
    exit_code,
    imported_modules,
    notebook_imports,
    parse_request,
)

PAGE = "/voila/render/aspens/board-and-setups.ipynb"


def notebook(cells: list[str]) -> str:
    """A notebook's JSON with these code cells."""
    return json.dumps({"cells": [{"cell_type": "code", "source": c, "metadata": {}, "outputs": [],
                                  "execution_count": None} for c in cells],
                       "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


def test_the_fork_server_preloads_what_the_served_notebooks_import(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "one.ipynb").write_text(notebook(["import json, fractions as f\nfrom random import Random"]))
    (tmp_path / "two.ipynb").write_text(notebook(["from . import mine\n%matplotlib inline", "import decimal"]))
    (tmp_path / ".ipynb_checkpoints").mkdir()
    (tmp_path / ".ipynb_checkpoints" / "old.ipynb").write_text(notebook(["import this_is_a_checkpoint"]))
    (tmp_path / "broken.ipynb").write_text("{not json")
    assert notebook_imports(tmp_path) == ["decimal", "fractions", "json", "random"]
    assert imported_modules("from .local import x\nimport a.b") == {"a.b"}, "relative imports are the notebook's own"


def test_the_project_notebooks_imports_are_all_preloadable():
    names = notebook_imports(harness.NOTEBOOKS)
    assert "treegames.ui.aspens.play" in names and "ipywidgets" in names
    assert all(not name.startswith(".") for name in names)


@pytest.mark.parametrize("line, field", [
    (b"not json", "JSON"),
    (b"[1, 2]", "object"),
    (b'{"cwd": "/", "title": "t", "env": {}}', "connection_file"),
    (b'{"connection_file": "/k.json", "cwd": "/", "title": "", "env": {}}', "title"),
    (b'{"connection_file": "/k.json", "cwd": "/", "title": "t", "env": {"A": 1}}', "env"),
    (b'{"connection_file": "k.json", "cwd": "/", "title": "t", "env": {}}', "absolute"),
    (b'{"connection_file": "/k.json", "cwd": "/no/such/folder", "title": "t", "env": {}}', "folder"),
])
def test_a_request_outside_the_protocol_is_refused_naming_what_is_wrong(line, field):
    with pytest.raises(RequestError, match=field) as refused:
        parse_request(line)
    assert isinstance(refused.value, ValueError)


def test_exit_codes_read_as_popen_reads_them():
    assert exit_code(0) == 0
    assert exit_code(3 << 8) == 3
    assert exit_code(signal.SIGKILL) == -signal.SIGKILL


@pytest.fixture
def fork_client(tmp_path):
    """A fork server preloading one small notebook's imports, stopped (with any kernel left) after the test."""
    (tmp_path / "pages").mkdir()
    (tmp_path / "pages" / "p.ipynb").write_text(notebook(["import fractions"]))
    client = forked.ForkClient(tmp_path / "pages")
    yield client
    client.stop()
    assert client.process.poll() is not None, "the fork server ended"


def ask(client: forked.ForkClient, payload: bytes) -> dict:
    """One raw request line on the fork server's socket, and its first answer."""
    with socket.socket(socket.AF_UNIX) as s:
        s.settimeout(harness.DEADLINE)
        s.connect(client.path)
        s.sendall(payload)
        return json.loads(s.makefile("rb").readline())


def test_a_forked_kernel_is_the_kernel_a_cold_start_would_be_and_its_end_is_reported(fork_client, tmp_path):
    connection = str(tmp_path / "kernel-test.json")
    write_connection_file(connection, transport="ipc", ip=str(tmp_path / "k"))
    folder = tmp_path / "pages"
    cmd = [sys.executable, "-m", "ipykernel_launcher", "-f", connection]
    assert fork_client.can_fork(cmd)
    assert not fork_client.can_fork(["/usr/bin/other-python", *cmd[1:]]), "another Python starts the usual way"
    other_venv = tmp_path / "venv-python"
    other_venv.symlink_to(sys.executable)
    assert not fork_client.can_fork([str(other_venv), *cmd[1:]]), "another venv's python: a link, other packages"
    assert not fork_client.can_fork([*cmd, "--debug"]), "a command with more options starts the usual way"
    env = {**os.environ, "QUERY_STRING": "table=ABCD", "ONLY_THIS_KERNEL": "yes"}

    async def scenario():
        first = await fork_client.launch(cmd, env, str(folder))
        assert first is not None
        process = psutil.Process(first.pid)
        assert process.ppid() == fork_client.process.pid
        assert os.getpgid(first.pid) == first.pid, "its own session and process group, as jupyter_client makes"
        assert " ".join(process.cmdline()).split() == cmd, "ps shows a cold kernel's command line"
        assert process.cwd() == str(folder)
        values = await asyncio.to_thread(kernel_facts, connection)
        kernel_env = eval(values["env"])  # noqa: S307 (the kernel's repr of a dict of str, from this test's kernel)
        assert kernel_env["QUERY_STRING"] == "table=ABCD" and kernel_env["ONLY_THIS_KERNEL"] == "yes"
        assert kernel_env["JPY_PARENT_PID"] == str(fork_client.process.pid)
        assert values["modules"] == "True", "the notebook's imports were preloaded"
        cold_kernel, cold_client = await asyncio.to_thread(start_new_kernel, cwd=str(folder), env=env)
        try:
            cold = await asyncio.to_thread(kernel_facts, cold_client.connection_file)
        finally:
            cold_client.stop_channels()
            await asyncio.to_thread(cold_kernel.shutdown_kernel, now=True)
        assert values["path"] == cold["path"], "the same import path as a cold kernel (the notebook's folder on it)"
        assert values["seed"] != cold["seed"] and values["hash"] == cold["hash"]
        first.kill()
        await harness_wait(lambda: first.poll() is not None)
        assert first.poll() == -signal.SIGKILL, "the fork server reported how it ended"
        first.send_signal(signal.SIGTERM)  # nothing happens to an ended kernel's pid, as with Popen
        first.kill()

    asyncio.run(scenario())


def kernel_facts(connection_file: str) -> dict[str, str]:
    """What a kernel holds: its environment, whether it has ``fractions``, its import path and parent (silent)."""
    client = BlockingKernelClient(connection_file=connection_file)
    client.load_connection_file()
    client.start_channels()
    client.wait_for_ready(timeout=harness.DEADLINE)  # iopub connected, so the reply's idle is seen
    try:
        reply = client.execute_interactive(
            "", silent=True, store_history=False, timeout=harness.DEADLINE,
            user_expressions={"env": "dict(__import__('os').environ)",
                              "modules": "'fractions' in __import__('sys').modules",
                              "path": "__import__('sys').path",
                              "seed": "__import__('random').random()",
                              "hash": "hash(1)"})
    finally:
        client.stop_channels()
    return {k: v["data"]["text/plain"] for k, v in reply["content"]["user_expressions"].items()}


async def harness_wait(predicate) -> None:
    """harness.wait_until while this loop keeps running (the fork server's reports arrive on it)."""
    await asyncio.to_thread(harness.wait_until, predicate, what="the kernel's end reported")


def test_hostile_requests_are_answered_with_an_error_and_the_fork_server_keeps_serving(fork_client):
    assert "error" in ask(fork_client, b"{\"connection_file\": 1}\n")
    assert "error" in ask(fork_client, b"\xff\xfe garbage\n")
    with socket.socket(socket.AF_UNIX) as s:  # a line that never ends, longer than any request
        s.connect(fork_client.path)
        s.settimeout(harness.DEADLINE)
        with pytest.raises(OSError):
            for _ in range(64):
                s.sendall(b"x" * 65536)
            s.recv(1)
    with socket.socket(socket.AF_UNIX) as s:  # a request cut off by its sender
        s.connect(fork_client.path)
        s.sendall(b'{"connection_file": "/tmp/x.json"')
    answer = ask(fork_client, b'{"connection_file": "/x.json", "cwd": "/", "title": "t", "env": {"A": []}}\n')
    assert "env" in answer["error"]
    assert fork_client.process.poll() is None, "still serving"
    assert psutil.Process(fork_client.process.pid).children() == [], "no kernel was forked for any of them"


def test_without_its_fork_server_the_class_server_starts_kernels_the_usual_way(tmp_path):
    server = harness.start_class_server(preheat=False)
    try:
        kw.fetch_page(server.base, PAGE)
        (fork_server,) = [p for p in server.children() if "treegames.serving.forkserver" in " ".join(p.cmdline())]
        (first,) = server.live_kernels()
        assert psutil.Process(first).ppid() == fork_server.pid
        fork_server.kill()
        harness.wait_until(lambda: first not in server.live_kernels(),
                           what="the forked kernel ending with its fork server (ipykernel watches its parent)")
        page = kw.fetch_page(server.base, PAGE)
        # the first page's kernel may be back as well by now: jupyter_client restarts a kernel that died (in ci80)
        (second,) = [pid for pid in server.live_kernels() if page.kernel_id in " ".join(psutil.Process(pid).cmdline())]
        assert psutil.Process(second).ppid() == server.proc.pid, "a kernel of the class server's own, started cold"

        async def click():
            socket_ = await kw.connect(page)
            states = await socket_.widget_states()
            managers = [m for m, st in states.items() if st.get("model_name") == "CanvasManagerModel"]
            await socket_.click_canvas(kw.canvases(states)[0], 300, 300)
            found = await socket_.wait_for(lambda ch, h, c: h.get("msg_type") == "comm_msg"
                                           and c.get("comm_id") in managers)
            socket_.close()
            return found

        assert asyncio.run(click()) is not None, "the cold kernel's board answers a click"
        assert "The kernel fork server ended (exit code -9): kernels start the usual way now" in \
            Path(server.log_path).read_text()
    finally:
        server.stop()
    assert server.alive_pids() == []
