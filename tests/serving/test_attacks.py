"""One visitor can neither freeze the server nor crash it: real websocket clients against the class server.

Each attack comes from its own page (its own kernel); another visitor's socket keeps working and the
server keeps answering ``/voila/tree`` within a second. The server is ``make serve``'s (treegames.serving).
"""

from __future__ import annotations

import asyncio
import contextlib
import json

import kernel_ws as kw
import psutil
import pytest
from tornado.httpclient import HTTPClientError
from tornado.websocket import WebSocketClosedError

from treegames.serving.frames import pack_v1_frame
from treegames.serving.limits import LIMITS

PAGE = "/voila/render/aspens/board-and-setups.ipynb"
ANSWER_MS = 1000


def still_serving(server) -> float:
    """The slowest answer to /voila/tree over a couple of seconds, in ms."""
    return kw.worst_answer_ms(server.base + "/voila/tree")


@pytest.fixture(scope="module")
def pages(class_server) -> dict[str, kw.Page]:
    """Two visitors' pages (two kernels): the attacker's, whose sockets send the bad frames, and a bystander's."""
    return {who: kw.fetch_page(class_server.base, PAGE) for who in ("attacker", "bystander")}


async def bystander(pages) -> kw.KernelSocket:
    """Another visitor's socket to their own kernel, connected and answered."""
    socket = await kw.connect(pages["bystander"])
    assert await socket.kernel_info() is not None
    return socket


async def attacker(pages) -> kw.KernelSocket:
    """A fresh v1 socket to the attacker's page, ready to send bad frames."""
    return await kw.connect(pages["attacker"])


def run(coro):
    return asyncio.run(coro)


def test_a_browser_like_client_fetches_widgets_and_a_canvas_click_redraws(class_server, pages):
    async def scenario():
        socket = await attacker(pages)
        states = await socket.widget_states()
        board = kw.canvases(states)
        assert board, "the board canvas is among the page's widgets"
        await socket.click_canvas(board[0], 300, 300)
        managers = [mid for mid, st in states.items() if st.get("model_name") == "CanvasManagerModel"]
        redraw = await socket.wait_for(lambda ch, h, c: h.get("msg_type") == "comm_msg"
                                       and c.get("comm_id") in managers, timeout=30)
        assert redraw is not None, "the click's redraw comes back over the checked socket"
        socket.close()
    run(scenario())


def test_a_legacy_protocol_socket_is_refused_and_the_server_keeps_answering(class_server, pages):
    async def scenario():
        page = pages["attacker"]
        with pytest.raises(HTTPClientError) as refused:
            await kw.connect(page, protocol=None)
        assert refused.value.code == 400
        socket = await kw.connect(page)  # the same page over v1 is served
        states = await socket.widget_states()
        await socket.click_canvas(kw.canvases(states)[0], 300, 300)
        assert await socket.kernel_info() is not None
        socket.close()
    run(scenario())
    assert still_serving(class_server) < ANSWER_MS


def bad_frames() -> dict[str, bytes]:
    """Hand-made frames that break the v1 layout, by name."""
    header = json.dumps({"msg_id": "1", "msg_type": "comm_msg", "session": "s", "username": "",
                         "version": "5.3"}).encode()
    frame = pack_v1_frame("shell", [header, b"{}", b"{}", b"{}"])
    count = int.from_bytes(frame[:8], "little")
    offsets = [int.from_bytes(frame[8 * (i + 1):8 * (i + 2)], "little") for i in range(count)]
    body = frame[8 * (count + 1):]

    def table(values, n=None):
        return (len(values) if n is None else n).to_bytes(8, "little") + b"".join(
            v.to_bytes(8, "little") for v in values) + body

    backwards = offsets[:]
    backwards[2], backwards[3] = backwards[3], backwards[2]
    return {
        "offset count 2**34": (2 ** 34).to_bytes(8, "little") + frame[8:],
        "offset count 2**63, nothing else": (2 ** 63).to_bytes(8, "little"),
        "offsets backwards": table(backwards),
        "offset past the end": table(offsets[:-1] + [2 ** 40]),
        "truncated frame": frame[: len(frame) // 2],
        "eight bytes only": frame[:8],
        "text on the binary protocol": b"",  # sent as text below
    }


@pytest.mark.parametrize("name", list(bad_frames()))
def test_a_malformed_frame_closes_only_that_socket(class_server, pages, name):
    async def scenario():
        other = await bystander(pages)
        socket = await attacker(pages)
        frame = bad_frames()[name]
        await socket.send('{"channel": "shell"}' if name.startswith("text") else frame)
        assert await socket.closed(timeout=10), "the bad frame's socket is closed"
        assert socket.close_code == 1002
        assert await other.kernel_info() is not None, "another visitor's socket still works"
        other.close()
    run(scenario())
    assert still_serving(class_server) < ANSWER_MS


def test_a_10_mb_comm_message_closes_that_socket_only(class_server, pages):
    async def scenario():
        other = await bystander(pages)
        socket = await attacker(pages)
        big = kw.v1_message("comm_msg", {"comm_id": "x", "data": {"method": "update", "state": {"v": "x" * 10_000_000}}},
                            socket.session)
        assert len(big) > 10_000_000
        with contextlib.suppress(WebSocketClosedError):  # the server may hang up while the frame is sent
            await socket.send(big)
        assert await socket.closed(timeout=20)
        # Tornado drops the connection once the frame passes its size limit (code 1009, often unread).
        assert socket.close_code in (None, 1002, 1009)
        assert await other.kernel_info() is not None
        other.close()
    run(scenario())
    assert still_serving(class_server) < ANSWER_MS


def kernel_rss(kernel_id: str, server) -> int:
    """Resident memory of the kernel process with this id (its connection file names it)."""
    for process in server.children():
        try:
            if any(kernel_id in part for part in process.cmdline()):
                return process.memory_info().rss
        except psutil.Error:
            continue
    raise AssertionError(f"kernel {kernel_id} not found")


def test_2000_widget_creations_stop_at_the_limit_and_leave_the_kernel_small(class_server):
    async def scenario():
        page = kw.fetch_page(class_server.base, PAGE)
        socket = await kw.connect(page)
        await socket.kernel_info()
        before = kernel_rss(page.kernel_id, class_server)
        sent = 0
        for i in range(2000):
            try:
                await socket.call("comm_open", {"comm_id": f"flood{i}", "target_name": "jupyter.widget",
                                                "data": {"state": {"_model_name": "IntSliderModel",
                                                                   "_model_module": "@jupyter-widgets/controls",
                                                                   "_model_module_version": "2.0.0",
                                                                   "_view_name": "IntSliderView"},
                                                         "buffer_paths": []}},
                                  metadata={"version": "2.1.0"})
                sent += 1
            except WebSocketClosedError:
                break
        assert await socket.closed(timeout=20)
        assert socket.close_code == 1008
        assert sent < 2000 or socket.close_code == 1008
        await asyncio.sleep(2)
        grown = kernel_rss(page.kernel_id, class_server) - before
        assert grown < 30 * 2 ** 20, f"kernel grew {grown / 2**20:.0f} MB"
        # The page itself can reconnect and its widgets still answer (the kernel is alive).
        again = await kw.connect(page)
        with pytest.raises(AssertionError):  # its comm_open allowance is spent: refused, not crashed
            await again.widget_states(timeout=10)
    run(scenario())
    assert still_serving(class_server) < ANSWER_MS
    assert LIMITS.max_comm_opens < 2000


def test_a_flood_of_clicks_is_thinned_and_the_server_keeps_answering(class_server, pages):
    async def scenario():
        socket = await attacker(pages)
        board = kw.canvases(await socket.widget_states())[0]
        for _ in range(3000):
            await socket.click_canvas(board, 300, 300)
        assert still_serving(class_server) < ANSWER_MS, "answering while the kernel works through the clicks"
        await asyncio.sleep(LIMITS.message_burst / LIMITS.max_messages_per_second)  # the allowance refills
        assert await socket.kernel_info(timeout=60) is not None
        socket.close()
    run(scenario())
    assert still_serving(class_server) < ANSWER_MS


@pytest.mark.parametrize("x", ["NaN", "Infinity", "-Infinity", "null", '"left"'])
def test_a_nan_click_sends_no_traceback_to_the_page(class_server, pages, x):
    async def scenario():
        socket = await attacker(pages)
        board = kw.canvases(await socket.widget_states())[0]
        await socket.click_canvas(board, x, 300, raw=True)
        await socket.kernel_info()
        await asyncio.sleep(1.0)
        await socket.kernel_info()
        everything = " ".join(json.dumps(content) for _, _, content, _ in socket.received)
        assert "Traceback" not in everything
        said = " ".join(json.dumps(content) for _, h, content, _ in socket.received
                        if h.get("msg_type") in ("stream", "error", "display_data", "execute_result"))
        for leak in ('File \\"', ".py", "Error:", "line "):
            assert leak not in said, f"{leak!r} reached the page: {said[:600]}"
        socket.close()
    run(scenario())
    assert still_serving(class_server) < ANSWER_MS
