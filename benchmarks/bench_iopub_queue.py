"""Kernel messages lost by a busy server: a kernel floods displays into a socket the server does not read.

    python benchmarks/bench_iopub_queue.py [--floods 3] [--displays 2500]

A page on the widget-by-widget path asks for hundreds of widget states at once; each answer is about three kernel
messages, and ZeroMQ drops the messages past a socket's queue without a word. For ZeroMQ's default queue (1,000)
and the class server's (``LIMITS.iopub_queue``), a kernel of the class server's manager (``BoundedKernelManager``,
IPC transport) sends ``--displays`` displays of 16 kB while its socket in this process is left unread; then the
displays that arrived are counted, up to the execution's idle status or the status of a request sent after the
execution ended (the kernel's messages come in order, so a display missing then was dropped, not late).
Run it on a loaded machine as well as a quiet one: the loss depends on the load.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time
from pathlib import Path

import zmq
from traitlets.config import Config

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "widgets"))

from treegames.serving.kernels import BoundedKernelManager  # noqa: E402
from treegames.serving.limits import LIMITS  # noqa: E402

DEADLINE = 120.0
"""Seconds a flood may take, start to end."""


async def flood_unread(queue: int, displays: int) -> int:
    """Flood ``displays`` displays into an unread socket with the manager's queue at ``queue``; how many arrived."""
    manager = BoundedKernelManager(config=Config({"KernelManager": {"transport": "ipc"},
                                                  "BoundedKernelManager": {"iopub_queue": queue}}))
    kernel_id = await manager.start_kernel(kernel_name="python3")
    kernel = manager.get_kernel(kernel_id)
    client = kernel.client()
    stream = kernel.connect_iopub()  # jupyter_server's manager wraps the socket; nobody reads it until the end
    iopub = zmq.Socket.shadow(stream.socket.underlying)
    try:
        client.start_channels()
        await client.wait_for_ready(timeout=DEADLINE)
        deadline = time.monotonic() + DEADLINE
        while not iopub.poll(100):  # subscribed once the kernel's status messages reach this socket
            if time.monotonic() > deadline:
                raise RuntimeError("the socket never heard the kernel")
            client.kernel_info()
        code = f"from IPython.display import display\ns = 'x' * 16000\nfor i in range({displays}): display(s)"
        msg_id = client.execute(code)
        await client.get_shell_msg(timeout=DEADLINE)  # the flood is over: every message is sent or dropped
        return count_until_idle(iopub, msg_id, client, deadline)
    finally:
        stream.close(linger=0)
        client.stop_channels()
        await manager.shutdown_kernel(kernel_id, now=True)


def count_until_idle(iopub: zmq.Socket, msg_id: str, client, deadline: float) -> int:
    """The displays read on ``iopub`` until the execution's idle status or the status of a later request."""
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
    raise RuntimeError(f"the kernel went silent ({received} displays before the deadline)")


def main() -> None:
    """Print the displays that arrived per flood, at the default queue and at the class server's."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--floods", type=int, default=3, help="floods per queue size")
    parser.add_argument("--displays", type=int, default=2500, help="displays per flood (16 kB each)")
    args = parser.parse_args()
    print(f"iopub load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    for queue in (1000, LIMITS.iopub_queue):
        counts = [asyncio.run(flood_unread(queue, args.displays)) for _ in range(args.floods)]
        print(f"iopub queue {queue:,}: of {args.displays:,} displays arrived " + ", ".join(f"{c:,}" for c in counts),
              flush=True)


if __name__ == "__main__":
    main()
