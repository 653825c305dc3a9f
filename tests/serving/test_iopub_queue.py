"""A busy server loses no kernel message: the class server's sockets queue ``LIMITS.iopub_queue`` messages.

A page on the widget-by-widget path (its all-at-once request answered late, tests/serving/test_attacks.py) asks
for hundreds of widget states at once; each answer is about three kernel messages. While the server is busy they
wait in its ZeroMQ socket, and past ZeroMQ's default queue (1,000, and 1,000 more on the kernel's side) the rest
were dropped without a word: the page kept "Loading widget..." for the lost ones. With the queue at ZeroMQ's
default, 1,998 of the flood's 2,500 displays below arrived.
"""

from __future__ import annotations

import asyncio
import json
import time

import psutil
import pytest
import zmq
from traitlets.config import Config

import harness
from treegames.serving.kernels import BoundedKernelManager
from treegames.serving.limits import LIMITS

FLOOD = 2500
"""Display messages the kernel sends while nobody reads them (16 kB each: about a widget state with its buffers)."""

CODE = f"from IPython.display import display\ns = 'x' * 16000\nfor i in range({FLOOD}): display(s)"


def test_the_queue_holds_the_largest_burst_of_answers_the_limits_let_through():
    assert LIMITS.iopub_queue >= 3 * LIMITS.state_request_burst


@pytest.mark.server
def test_a_kernel_flooding_an_unread_socket_loses_no_message():
    received, pid = asyncio.run(flood_unread())
    assert received == FLOOD, f"{received} of the {FLOOD} displays arrived"
    assert not psutil.pid_exists(pid) or psutil.Process(pid).status() == psutil.STATUS_ZOMBIE


async def flood_unread() -> tuple[int, int]:
    """Run the flood in a kernel of the class server's manager with its iopub socket unread; (messages, kernel pid)."""
    manager = BoundedKernelManager(config=Config({"KernelManager": {"transport": "ipc"}}))  # as the class server
    kernel_id = await manager.start_kernel(kernel_name="python3")
    kernel = manager.get_kernel(kernel_id)
    pid = kernel.provisioner.process.pid
    client = kernel.client()
    stream = kernel.connect_iopub()  # jupyter_server's manager wraps the socket; nobody reads it until the end
    iopub = zmq.Socket.shadow(stream.socket.underlying)
    try:
        client.start_channels()
        await client.wait_for_ready(timeout=120)
        deadline = time.monotonic() + harness.DEADLINE * harness.DEADLINE_SCALE
        while not iopub.poll(100):  # subscribed once the kernel's status messages reach this socket
            assert time.monotonic() < deadline, "the socket never heard the kernel"
            client.kernel_info()
        msg_id = client.execute(CODE)
        await client.get_shell_msg(timeout=120)  # the flood is over: every message is sent or dropped
        return await count_until_idle(iopub, msg_id, client, deadline), pid
    finally:
        stream.close(linger=0)
        client.stop_channels()
        await manager.shutdown_kernel(kernel_id, now=True)


async def count_until_idle(iopub: zmq.Socket, msg_id: str, client, deadline: float) -> int:
    """Read the displays on ``iopub`` until the execution ``msg_id``'s idle status, which the kernel sends after its
    last display, or the status of a request sent after the execution ended (the kernel's messages come in order:
    once one of those came, any display still missing was dropped). A pause in the stream on a loaded machine is not
    its end. How many displays came."""
    received, later, asked = 0, {client.kernel_info()}, time.monotonic()
    while time.monotonic() < deadline:
        if time.monotonic() - asked > 1:
            later.add(client.kernel_info())
            asked = time.monotonic()
        if not iopub.poll(100):
            continue
        parts = iopub.recv_multipart()
        start = parts.index(b"<IDS|MSG>")
        header, parent = json.loads(parts[start + 2]), json.loads(parts[start + 3])
        if header["msg_type"] == "display_data":
            received += 1
        elif header["msg_type"] == "status" and (parent.get("msg_id") == msg_id and
                                                 json.loads(parts[start + 5])["execution_state"] == "idle"
                                                 or parent.get("msg_id") in later):
            return received
    raise AssertionError(f"the kernel went silent ({received} displays before the deadline)")
