"""The kernel-websocket connection every treegames server uses: checked frames, bounded visitors.

Configured as ``kernel_websocket_connection_class`` of Voilà (``make serve``) and of jupyter_server
(Binder, JupyterHub). It changes nothing a browser does; it refuses what only a broken or hostile client
sends, and a refusal closes only that visitor's socket:

* A socket that does not ask for the v1 protocol is refused before the upgrade (HTTP 400). Voilà 0.5's
  websocket handler reads every outgoing binary message as v1, so on a legacy-protocol socket one widget
  click made it loop on the server's event loop; every browser front end speaks v1.
* Every incoming frame is checked by ``frames.check_v1_frame`` (size, offset count, offsets in range and
  increasing, channel, header) before jupyter_server's parser sees it.
* A dashboard page never receives a traceback: errors and stderr text its kernel sends (from widget
  callbacks) reach the page as one short sentence and go to the server log in full. Notebook kernels
  (JupyterLab on Binder or a hub) are left alone.
* Per kernel, at most ``max_comm_opens`` comm_open messages from the page (the widget manager needs one;
  a client creating thousands of widgets fills the kernel's memory), and at most ``max_messages_per_second``
  messages on average (bursts of ``message_burst``); messages over the rate are dropped, not forwarded.
  A widget manager's requests for one widget's state each (how it loads a page's widgets when its
  all-at-once request is answered late) draw on an allowance of their own, ``state_request_burst``, so a
  page of 650 widgets loads while its clicks stay thinned as before.
"""

from __future__ import annotations

import asyncio
import time

from jupyter_server.services.kernels.connection.channels import ZMQChannelsWebsocketConnection
from tornado import web
from tornado.ioloop import IOLoop
from traitlets import Float, Int

from .frames import BadFrame, check_v1_frame
from .limits import LIMITS

V1_PROTOCOL = "v1.kernel.websocket.jupyter.org"
HIDDEN = "Something went wrong on the server; the details are in its log."
"""What a page is shown in place of a traceback or stderr text from its kernel."""
CLOSE_PROTOCOL_ERROR = 1002
CLOSE_POLICY_VIOLATION = 1008


class GuardedKernelConnection(ZMQChannelsWebsocketConnection):
    """A kernel websocket connection that speaks only v1 and checks every frame before parsing it."""

    max_message_bytes = Int(LIMITS.max_message_bytes, config=True,
                            help="Largest kernel message a page may send, in bytes.")
    max_buffers = Int(LIMITS.max_buffers, config=True, help="Most binary buffers in one message.")
    max_comm_opens = Int(LIMITS.max_comm_opens, config=True,
                         help="Most comm_open messages (widgets created from the page) per kernel.")
    max_messages_per_second = Float(LIMITS.max_messages_per_second, config=True,
                                    help="Average rate of messages a page may send; the excess is dropped.")
    message_burst = Float(LIMITS.message_burst, config=True, help="Messages a page may send in one burst.")
    state_request_burst = Float(LIMITS.state_request_burst, config=True,
                                help="Widget state requests a page may send in one burst (an allowance of their own).")
    orphan_seconds = Float(LIMITS.orphan_seconds, config=True,
                           help="Stop a Voila kernel this long after its last page disconnected (0: never).")

    @property
    def requested_protocols(self) -> list[str]:
        """The websocket subprotocols the client asked for in its upgrade request."""
        header = self.websocket_handler.request.headers.get("Sec-WebSocket-Protocol", "")
        return [p.strip() for p in header.split(",") if p.strip()]

    async def prepare(self):
        """Refuse a legacy-protocol socket before the upgrade, then prepare as jupyter_server does."""
        if V1_PROTOCOL not in self.requested_protocols:
            self.log.warning("Refused a kernel websocket without the %s protocol (kernel %s)",
                             V1_PROTOCOL, self.kernel_id)
            raise web.HTTPError(400, f"kernel websockets must use the {V1_PROTOCOL} protocol")
        self._messages = Allowance(self.message_burst, self.max_messages_per_second)
        self._state_requests = Allowance(self.state_request_burst, self.max_messages_per_second)
        await super().prepare()

    def _refuse(self, code: int, reason: str) -> None:
        """Log why, and close this visitor's socket only."""
        self.log.warning("Closing kernel websocket of kernel %s: %s", self.kernel_id, reason)
        self.websocket_handler.close(code, reason[:120])

    def _count_comm_open(self) -> bool:
        """Count a comm_open against this kernel's allowance; False once it is used up."""
        count = getattr(self.kernel_manager, "_treegames_comm_opens", 0) + 1
        self.kernel_manager._treegames_comm_opens = count
        return count <= self.max_comm_opens

    def handle_incoming_message(self, incoming_msg) -> None:
        """Check the frame and the visitor's limits, then hand it to jupyter_server."""
        if self.subprotocol != V1_PROTOCOL:  # refused in prepare(); kept as a second lock
            self._refuse(CLOSE_PROTOCOL_ERROR, "legacy kernel websocket protocol")
            return
        try:
            frame = check_v1_frame(incoming_msg, self.max_message_bytes, self.max_buffers)
        except BadFrame as bad:
            self._refuse(CLOSE_PROTOCOL_ERROR, f"bad frame: {bad}")
            return
        if frame.msg_type == "comm_open" and not self._count_comm_open():
            self._refuse(CLOSE_POLICY_VIOLATION, f"more than {self.max_comm_opens} comm_open messages")
            return
        if not (self._state_requests if frame.is_state_request() else self._messages).take():
            self.log.debug("Dropped a %s message over the rate limit (kernel %s)", frame.msg_type, self.kernel_id)
            return
        super().handle_incoming_message(incoming_msg)

    def _on_error(self, channel, msg, msg_list):
        """Replace tracebacks and stderr text on a dashboard's iopub with HIDDEN, logging the original."""
        super()._on_error(channel, msg, msg_list)
        if channel != "iopub" or not is_voila_kernel(self.kernel_manager):
            return
        msg["header"] = self.get_part("header", msg["header"], msg_list)
        kind = msg["header"].get("msg_type")
        if kind not in ("error", "stream"):
            return
        msg["content"] = content = self.get_part("content", msg["content"], msg_list)
        if kind == "error":
            self.log.warning("Kernel %s: error hidden from the page: %s: %s\n%s", self.kernel_id,
                             content.get("ename"), content.get("evalue"), "\n".join(content.get("traceback", [])))
            content.update(ename="Error", evalue=HIDDEN, traceback=[HIDDEN])
        elif content.get("name") == "stderr":
            self.log.warning("Kernel %s: stderr hidden from the page:\n%s", self.kernel_id, content.get("text"))
            content["text"] = HIDDEN + "\n"
        else:
            return
        if self.subprotocol == V1_PROTOCOL:
            msg_list[3] = self.session.pack(content)

    def disconnect(self):
        """Disconnect as jupyter_server does; if this was a Voila page's last socket, watch for an orphan."""
        kernel_id, mkm = self.kernel_id, self.multi_kernel_manager
        super().disconnect()
        if self.orphan_seconds > 0 and is_voila_kernel(self.kernel_manager) and not connections(mkm, kernel_id):
            IOLoop.current().call_later(self.orphan_seconds, stop_if_orphan, mkm, kernel_id, self.log)


class Allowance:
    """A token bucket: up to ``burst`` at once, refilled at ``rate`` a second."""

    def __init__(self, burst: float, rate: float, clock=time.monotonic):
        self.burst, self.rate, self.clock = burst, rate, clock
        self.left, self.checked_at = burst, clock()

    def take(self) -> bool:
        """True (and one token spent) if one more fits now."""
        now = self.clock()
        self.left = min(self.burst, self.left + (now - self.checked_at) * self.rate)
        self.checked_at = now
        if self.left < 1:
            return False
        self.left -= 1
        return True


def is_voila_kernel(kernel_manager) -> bool:
    """True for a kernel Voila started for a dashboard page (not a JupyterLab notebook's kernel)."""
    env = (getattr(kernel_manager, "_launch_args", None) or {}).get("env") or {}
    return "VOILA_PREHEAT" in env or "VOILA_REQUEST_URL" in env


def connections(mkm, kernel_id: str) -> int:
    """Open websockets of a kernel (0 when it has none or is gone)."""
    return mkm._kernel_connections.get(kernel_id, 0)


def stop_if_orphan(mkm, kernel_id: str, log) -> None:
    """Stop the kernel if it still runs and no page has reconnected to it."""
    if kernel_id in mkm and not connections(mkm, kernel_id):
        log.info("Stopping kernel %s: its page has gone", kernel_id)
        asyncio.ensure_future(mkm.shutdown_kernel(kernel_id))
