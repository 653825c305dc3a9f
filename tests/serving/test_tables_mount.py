"""The tables mounted in the class server: kernels (preheated ones too) are told the real port and the key; pages are not."""

from __future__ import annotations

import json
import re
import socket
import urllib.error
import urllib.request

import pytest

import harness
from treegames.tables import client as tables_client

NOTEBOOK = {"cells": [{"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [],
                       "source": ["print('small page')"]}],
            "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
            "nbformat": 4, "nbformat_minor": 5}


class MovedServer(harness.Server):
    """The class server on whatever port it printed (it moves on when the asked one is taken)."""

    def _wait_ready(self, path: str, timeout: float = harness.DEADLINE) -> None:
        def banner():
            found = re.search(r"Dashboards: http://127\.0\.0\.1:(\d+)/", self.log_path.read_text(errors="replace"))
            return found or (self.proc.poll() is not None and "exited")

        try:
            found = harness.wait_until(banner, timeout, step=0.2, what="the class server's banner naming its port")
        except AssertionError:
            found = None
        if found is None or found == "exited":
            self.stop()
            raise RuntimeError(f"no banner:\n{self.log_path.read_text()[-3000:]}")
        self.port = int(found.group(1))
        self.base = f"http://127.0.0.1:{self.port}"
        super()._wait_ready(path, timeout)


@pytest.fixture(scope="module")
def moved(tmp_path_factory):
    """A class server asked for a port that is taken, with one preheated small page; (server, data folder)."""
    root = tmp_path_factory.mktemp("pages")
    (root / "small.ipynb").write_text(json.dumps(NOTEBOOK))
    data = tmp_path_factory.mktemp("data")
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    port = taken.getsockname()[1]
    argv = [harness.sys.executable, "-m", "treegames.serving", str(root), f"--port={port}", "--host=127.0.0.1"]
    env = {**harness.os.environ, "TREEGAMES_DATA_DIR": str(data)}
    env.pop("TREEGAMES_TABLES_URL", None)
    env.pop("TREEGAMES_TABLES_KEY", None)
    try:
        server = MovedServer(argv, port, cwd=root, log_name="class-server-moved", env=env)
    finally:
        taken.close()
    server.asked = port
    yield server, data
    server.stop()
    assert server.alive_pids() == [], "the server or one of its kernels survived stop()"


def kernel_envs(server) -> list[dict]:
    """The environment of each kernel the server runs now."""
    return server.kernel_environs()


def test_the_banner_names_the_real_port_the_store_and_the_teacher_code(moved):
    server, data = moved
    log = server.log_path.read_text()
    assert f"Port {server.asked} was already in use: serving on port {server.port} instead." in log
    assert f"kept in {data.resolve() / 'treegames.sqlite3'}" in log
    teacher = (data / "teacher-code.txt").read_text().strip()
    assert f"Teacher code (for class/tables.ipynb and the experiments): {teacher}" in log


def test_a_preheated_kernel_reaches_the_tables_on_the_real_port_with_its_key(moved):
    server, _data = moved
    envs = harness.wait_until(lambda: kernel_envs(server), step=0.5, what="the preheated kernel")
    assert envs, "the preheated kernel was not found"
    url, key = envs[0]["TREEGAMES_TABLES_URL"], envs[0]["TREEGAMES_TABLES_KEY"]
    assert url == f"http://127.0.0.1:{server.port}/treegames/api" and len(key) >= 32
    c = tables_client.connect(url, key)
    ticket = c.create_table("aspens", None, ["person", "person"], visitor="kernel", label="over loopback")
    assert c.view(ticket.token).label == "over loopback"


def test_the_page_never_carries_the_key_and_cannot_call_the_mount(moved):
    server, _data = moved
    with urllib.request.urlopen(f"{server.base}/voila/render/small.ipynb", timeout=harness.DEADLINE) as answer:
        html = answer.read().decode()
    assert "small page" in html
    keys = {env["TREEGAMES_TABLES_KEY"] for env in kernel_envs(server)}
    assert keys and not any(k in html for k in keys)
    request = urllib.request.Request(f"{server.base}/treegames/api/tables/open_tables", data=b"{}", method="POST")
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=harness.DEADLINE)
    assert refused.value.code == 403


def test_an_oversized_request_body_is_refused_before_the_server_reads_it(moved):
    server, _data = moved
    from treegames.serving.mount import MAX_REQUEST_BODY

    # a server that awaited the body would never answer (none is sent): the generous deadline only ends that case
    with socket.create_connection(("127.0.0.1", server.port), timeout=harness.DEADLINE) as conn:
        conn.sendall(b"POST /treegames/api/tables/open_tables HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                     b"Content-Type: application/json\r\n"
                     + f"Content-Length: {MAX_REQUEST_BODY + 1}\r\n\r\n".encode())
        answer = conn.recv(200)  # answered (or closed) at once: the body is never awaited
    assert answer == b"" or b" 400 " in answer or b" 413 " in answer, answer
    with urllib.request.urlopen(f"{server.base}/voila/render/small.ipynb", timeout=harness.DEADLINE) as still:
        assert still.status == 200, "the server goes on serving others"


@pytest.mark.parametrize(("listening", "reached"), [
    ("0.0.0.0", "127.0.0.1"), ("", "127.0.0.1"), ("::", "127.0.0.1"), ("localhost", "127.0.0.1"),
    ("10.0.0.5", "10.0.0.5"), ("::1", "[::1]"), ("fd00::7", "[fd00::7]"), ("[::1]", "[::1]"),
])
def test_a_kernel_is_given_a_url_that_reaches_the_servers_address_ipv6_in_brackets(listening, reached):
    from urllib.parse import urlsplit

    from treegames.serving.mount import loopback_host

    url = f"http://{loopback_host(listening)}:8866/treegames/api/"
    assert urlsplit(url).port == 8866 and urlsplit(url).netloc == f"{reached}:8866"
