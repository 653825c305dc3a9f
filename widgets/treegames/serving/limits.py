"""The limits per visitor, in one place (documented in deploy/README.md, enforced by the serving code)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Limits:
    """What one visitor (one page, one kernel) may use, and what the whole server holds."""

    max_message_bytes: int = 1 << 20
    """A page's kernel messages are widget events and small state updates; 1 MiB leaves room for saves."""
    max_buffers: int = 16
    """Binary buffers in one message (a page sends none or one)."""
    max_comm_opens: int = 20
    """Widgets a page may open from its side: the widget manager opens one control comm."""
    max_messages_per_second: float = 100.0
    """Average messages per second from one page (a fast clicker sends about 10)."""
    message_burst: float = 300.0
    """Messages one page may send at once before the rate applies."""
    state_request_burst: float = 4000.0
    """Widget state requests one page may send at once, counted apart from its other messages. A page's widget
    manager asks for every widget's state in one message, but when that answer is late (over 4 s, on a loaded
    server) it asks widget by widget: the Bosk walkthrough's kernel holds about 650 widgets, and with those requests
    counted as messages the ones past 300 were dropped and the page kept "Loading widget..." for ever."""
    iopub_queue: int = 12_000
    """Messages from one kernel the server holds unread before ZeroMQ drops the rest (its own default is 1,000).
    Each answered state request is about three of them. On a quiet machine a 2,500-message flood into an unread
    socket lost about 500 at 1,000 and none at 12,000 (benchmarks/bench_iopub_queue.py). It is not the whole cause:
    in two full test-suite runs (ci79, ci80) the same flood still lost about 500 at 12,000, and 655 state requests
    sent at once lost 157 answers once (ci77); that cause is not found."""
    max_kernels: int = 60
    """Kernels the whole server runs at once (one per open page); a new page past it gets a clear error."""
    max_kernels_per_user: int = 10
    """Kernels one JupyterHub user's server runs at once (one per open dashboard or notebook)."""
    cull_idle_seconds: int = 900
    """A kernel with no open page and no activity for this long is stopped."""
    cull_interval_seconds: int = 60
    """How often idle kernels are looked for."""
    orphan_seconds: int = 120
    """A Voilà kernel whose page has gone (no websocket) for this long is stopped, even if the tab's
    close beacon never arrived (phones often skip it)."""


LIMITS = Limits()
