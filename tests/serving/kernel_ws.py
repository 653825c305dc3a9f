"""A real kernel-websocket client (tornado's), speaking v1 like a browser or legacy like an old client.

Used by the serving tests and ``benchmarks/bench_classroom.py``: open a dashboard page over HTTP, connect
to its kernel's websocket, fetch the widget states, click a canvas, and send hand-made (bad) frames.
"""

from __future__ import annotations

import asyncio
import json
import re
import threading
import time
import urllib.request
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime
from http.cookiejar import CookieJar

from tornado.httpclient import HTTPRequest
from tornado.websocket import WebSocketClientConnection, websocket_connect

import harness
from treegames.serving.frames import pack_v1_frame

V1 = "v1.kernel.websocket.jupyter.org"
KERNEL_ID = re.compile(r'"kernelId":\s*"([0-9a-f-]{36})"')
TICKET = re.compile(r'<meta name="treegames-ticket" content="([^"]+)"')


@dataclass
class Page:
    """A dashboard page fetched over HTTP: its kernel and the cookies it set."""

    base: str
    kernel_id: str
    cookies: str
    html: str
    waited: list[str] = field(default_factory=list)
    """What the waiting page said while the page waited its turn (empty when it opened at once)."""


def waiting_status_url(html: str) -> str | None:
    """Where a waiting page asks about its turn (None for a real page)."""
    found = re.search(r"ask_url = (\"[^\"]+\")", html)
    return json.loads(found.group(1)) if found and TICKET.search(html) else None


def fetch_page(base: str, path: str, timeout: float = 180.0, poll: float = 0.5, first: str | None = None) -> Page:
    """GET a /voila/render page as a browser would and find its kernel id.

    A page that must wait its turn (the class server's waiting page) is followed as its script does: ask
    where it stands every ``poll`` seconds, then open the page with its ticket; what it said is kept.
    ``first``: the page's first answer, already fetched (a waiting page to follow from there)."""
    jar = CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    deadline = time.monotonic() + timeout
    waited: list[str] = []
    if first is None:
        with opener.open(f"{base}{path}", timeout=timeout) as answer:
            first = answer.read().decode()
    html = first
    while (ask := waiting_status_url(html)) is not None and time.monotonic() < deadline:
        waited.append(re.search(r'id="loading_text"[^>]*>([^<]*)<', html).group(1))
        while time.monotonic() < deadline:
            with opener.open(f"{base}{ask}", timeout=timeout) as answer:
                turn = json.loads(answer.read())
            if turn["ready"]:
                break
            waited.append(turn["words"])
            ask = turn["status"]
            time.sleep(poll)  # not a wait for a condition: the waiting page's own pace between questions
        with opener.open(f"{base}{turn['page']}", timeout=timeout) as answer:
            html = answer.read().decode()
    found = KERNEL_ID.search(html)
    if not found:
        raise AssertionError(f"no kernel id in {path}: {html[-500:]}")
    cookies = "; ".join(f"{c.name}={c.value}" for c in jar)
    return Page(base, found.group(1), cookies, html, waited)


HOLD = {
    "cells": [{"cell_type": "code", "execution_count": None, "id": "hold", "metadata": {}, "outputs": [],
               "source": ["import os, pathlib, time\n",
                          "while not pathlib.Path(os.environ['TREEGAMES_TEST_GATE']).exists():\n",
                          "    time.sleep(0.05)\n",
                          "print('opened')"]}],
    "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
    "nbformat": 4, "nbformat_minor": 5,
}
"""A page whose notebook runs until the test opens the gate: the first visitor holds the one slot while the test looks."""

HOLD_PATH = "/voila/render/hold.ipynb"
"""Where the class server serves HOLD (saved as hold.ipynb at its root)."""


def fetch_in_thread(base: str, results: dict, key: int, first: str | None = None) -> threading.Thread:
    """Fetch the held page as a browser would (following its waiting page, ``first`` if given) in a thread of
    its own; ``results[key]`` is then (the Page, when it came, on the monotonic clock)."""
    def fetch() -> None:
        page = fetch_page(base, HOLD_PATH, poll=0.1, first=first)
        results[key] = (page, time.monotonic())
    thread = threading.Thread(target=fetch)
    thread.start()
    return thread


def get_ms(url: str, timeout: float = 5.0) -> float:
    """Milliseconds an HTTP GET takes (inf if it fails or times out)."""
    t0 = time.perf_counter()
    try:
        with urllib.request.urlopen(url, timeout=timeout) as answer:
            answer.read()
    except OSError:
        return float("inf")
    return (time.perf_counter() - t0) * 1000


def worst_answer_ms(url: str, probes: int = 4, gap: float = 0.4, timeout: float = 5.0) -> float:
    """The slowest of a few GETs spaced ``gap`` apart: is the server still answering other visitors?"""
    worst = 0.0
    for _ in range(probes):
        worst = max(worst, get_ms(url, timeout))
        time.sleep(gap)  # not a wait: the probes sample the server over a stretch of time, ``gap`` apart
    return worst


def header(msg_type: str, session: str) -> dict:
    """A kernel message header as the browser's widget manager writes it."""
    return {"msg_id": uuid.uuid4().hex, "username": "visitor", "session": session, "msg_type": msg_type,
            "version": "5.3", "date": datetime.now(UTC).isoformat()}


def v1_message(msg_type: str, content: dict, session: str, channel: str = "shell",
               buffers: list[bytes] = (), raw_content: bytes | None = None, metadata: dict | None = None) -> bytes:
    """One well-formed v1 frame."""
    parts = [json.dumps(header(msg_type, session)).encode(), b"{}", json.dumps(metadata or {}).encode(),
             raw_content if raw_content is not None else json.dumps(content).encode(), *buffers]
    return pack_v1_frame(channel, parts)


def unpack_v1(frame: bytes) -> tuple[str, dict, dict, list[bytes]]:
    """A server frame: channel, header, content, buffers (server frames are trusted here)."""
    count = int.from_bytes(frame[:8], "little")
    offsets = [int.from_bytes(frame[8 * (i + 1):8 * (i + 2)], "little") for i in range(count)]
    pieces = [frame[a:b] for a, b in zip(offsets, offsets[1:], strict=False)]
    channel = pieces[0].decode()
    return channel, json.loads(pieces[1]), json.loads(pieces[4]), pieces[5:]


@dataclass
class KernelSocket:
    """One visitor's websocket to one kernel."""

    ws: WebSocketClientConnection
    session: str
    received: list = field(default_factory=list)

    async def send(self, frame: bytes | str) -> None:
        """Send one frame (binary for bytes)."""
        await self.ws.write_message(frame, binary=isinstance(frame, bytes))

    async def call(self, msg_type: str, content: dict, channel: str = "shell", metadata: dict | None = None) -> str:
        """Send a well-formed message; return its msg_id."""
        frame = v1_message(msg_type, content, self.session, channel, metadata=metadata)
        await self.send(frame)
        return json.loads(frame[int.from_bytes(frame[16:24], "little"):int.from_bytes(frame[24:32], "little")])["msg_id"]

    async def next_message(self, timeout: float) -> tuple[str, dict, dict, list[bytes]] | None:
        """The next message from the server, or None if the socket closed."""
        frame = await asyncio.wait_for(self.ws.read_message(), timeout)
        if frame is None:
            return None
        message = unpack_v1(frame) if isinstance(frame, bytes) else ("", {}, json.loads(frame), [])
        self.received.append(message)
        return message

    async def wait_for(self, predicate, timeout: float = harness.DEADLINE):
        """Read messages until one satisfies ``predicate(channel, header, content)``; None if the socket closes.

        The deadline (``timeout`` seconds, times harness.DEADLINE_SCALE) ends the wait with TimeoutError.
        """
        deadline = time.monotonic() + timeout * harness.DEADLINE_SCALE
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no matching kernel message")
            message = await self.next_message(left)
            if message is None:
                return None
            if predicate(*message[:3]):
                return message

    async def closed(self, timeout: float = harness.DEADLINE) -> bool:
        """True once the server has closed this socket (reading until it does); False after ``timeout`` s of silence."""
        try:
            while await self.next_message(timeout * harness.DEADLINE_SCALE) is not None:
                pass
        except TimeoutError:
            return False
        return True

    @property
    def close_code(self) -> int | None:
        """The close code the server sent (None while open)."""
        return self.ws.close_code

    async def kernel_info(self, timeout: float = harness.DEADLINE) -> dict | None:
        """Ask for kernel_info and wait for the reply (proves the socket and kernel work)."""
        msg_id = await self.call("kernel_info_request", {})
        found = await self.wait_for(lambda ch, h, c: h.get("msg_type") == "kernel_info_reply", timeout)
        return found and found[2] | {"_sent": msg_id}

    async def widget_states(self, timeout: float = harness.DEADLINE) -> dict:
        """Every widget model's state, fetched as the page's widget manager does (control comm)."""
        comm_id = uuid.uuid4().hex
        await self.call("comm_open", {"comm_id": comm_id, "target_name": "jupyter.widget.control", "data": {}},
                        metadata={"version": "1.0.0"})
        await self.call("comm_msg", {"comm_id": comm_id, "data": {"method": "request_states"}})
        found = await self.wait_for(lambda ch, h, c: h.get("msg_type") == "comm_msg"
                                    and c.get("data", {}).get("method") == "update_states", timeout)
        if found is None:
            raise AssertionError("socket closed before the widget states came")
        return found[2]["data"]["states"]

    async def widget_states_one_by_one(self, batch: int = 100, timeout: float = harness.DEADLINE) -> dict:
        """Every widget model's state, fetched as the widget manager does when its control comm answers late:
        the widget comms from comm_info, then one request_state each.

        The browser sends them all at once; here they go ``batch`` at a time, each batch answered before the next
        is sent (within a second or two in all, so a message allowance of 300 would still drop the ones past it).
        All at once, answers went missing once in eight runs beside the other serving tests, with nothing dropped
        by the server's limits; most likely the kernel's three messages per answer (busy, state, idle), about
        2,000, overran ZeroMQ's queue of 1,000 messages to a busy server. That is not what this test is about."""
        await self.call("comm_info_request", {"target_name": "jupyter.widget"})
        found = await self.wait_for(lambda ch, h, c: h.get("msg_type") == "comm_info_reply", timeout)
        if found is None:
            raise AssertionError("socket closed before the comm info came")
        comms = list(found[2]["comms"])
        states: dict = {}
        deadline = time.monotonic() + timeout * harness.DEADLINE_SCALE
        for start in range(0, len(comms), batch):
            for comm_id in comms[start:start + batch]:
                await self.call("comm_msg", {"comm_id": comm_id, "data": {"method": "request_state"}})
            await self._read_states(states, min(len(comms), start + batch), len(comms), deadline)
        return states

    async def _read_states(self, states: dict, want: int, total: int, deadline: float) -> None:
        """Read the server's messages into ``states`` until it holds ``want`` widget states."""
        while len(states) < want:
            try:
                message = await self.next_message(max(0.001, deadline - time.monotonic()))
            except TimeoutError:
                raise AssertionError(f"{len(states)} of {total} widget states came (the rest were not answered)") from None
            if message is None:
                raise AssertionError(f"socket closed after {len(states)} of {total} widget states")
            _, h, c, _ = message
            if h.get("msg_type") == "comm_msg" and c.get("data", {}).get("method") == "update":
                states[c["comm_id"]] = c["data"]["state"]

    async def click_canvas(self, model_id: str, x, y, raw: bool = False) -> None:
        """A mouse_down on a canvas model, as ipycanvas's front end sends it (raw: x, y written verbatim)."""
        if raw:
            event = {"comm_id": model_id, "data": {"method": "custom", "content":
                                                   {"event": "mouse_down", "x": "@X@", "y": "@Y@"}}}
            body = json.dumps(event).replace('"@X@"', str(x)).replace('"@Y@"', str(y)).encode()
            await self.send(v1_message("comm_msg", {}, self.session, raw_content=body))
        else:
            await self.call("comm_msg", {"comm_id": model_id, "data": {"method": "custom", "content":
                                                                       {"event": "mouse_down", "x": x, "y": y}}})

    async def drain(self) -> None:
        """Read (and keep in ``received``) whatever the server sends until the socket closes or this is cancelled."""
        while await self.next_message(None) is not None:
            pass

    def close(self) -> None:
        """Close from the client side."""
        self.ws.close()


async def connect(page: Page, protocol: str | None = V1, timeout: float = harness.DEADLINE) -> KernelSocket:
    """Open the page's kernel websocket (protocol None: the legacy protocol, no subprotocol asked)."""
    session = uuid.uuid4().hex
    ws_base = page.base.replace("http://", "ws://", 1)
    request = HTTPRequest(f"{ws_base}/api/kernels/{page.kernel_id}/channels?session_id={session}",
                          headers={"Cookie": page.cookies} if page.cookies else {}, request_timeout=timeout,
                          connect_timeout=timeout)
    ws = await websocket_connect(request, subprotocols=[protocol] if protocol else None,
                                 max_message_size=64 << 20)
    return KernelSocket(ws, session)


def canvases(states: dict) -> list[str]:
    """Model ids of the canvases among widget states."""
    return [mid for mid, s in states.items() if s.get("model_name") in ("CanvasModel", "MultiCanvasModel")]
