"""Arrivals without preparation: pages that must start a kernel take turns, first come first served.

A page with no preheated kernel waiting for it starts its own kernel and runs its whole notebook (about
a second of CPU for a Play page). When thirty such pages arrive together on two cores, Voilà starts thirty
kernels at once: every interpreter gets a thirtieth of the machine, so *every* visitor waits about as long
as the last one (processor sharing), and each sees a blank tab meanwhile.

:class:`ArrivalQueue` gives at most ``slots`` cold renders (a kernel's start and its notebook's run) the
machine at once, one per core by default; the others get a small waiting page at once (no kernel yet)
that says how many pages are ahead and about how long, and opens the real page by itself when its turn
comes. So the first visitors get their page after about one render, not after thirty, and the median
visitor after about half of the class's work (issue 34).

Our design, where Voilà is silent:

* **The turn is a ticket.** The waiting page carries a random ticket; it asks
  ``/treegames/arrivals?ticket=...`` every second (JavaScript) or reloads itself every few seconds
  (without JavaScript) and, when told its turn has come, opens the page with the ticket. The render
  claims the slot kept for it. A ticket not asked about for :data:`GONE_SECONDS` (the tab was closed) is
  dropped, and a slot kept for a ticket that is not claimed in :data:`CLAIM_SECONDS` passes to the next.
* **An unknown or stale ticket joins the back of the line**: a ticket is worth nothing but its place. Only a
  page request finds a place; asking about an unknown ticket sends the page back to ask for one, so the
  status address cannot be used to fill the line.
* **Pages served from a pool skip the line** when the pool has a kernel that has run its notebook. A pool
  still refilling (one kernel at a time, :mod:`.preparation`) does not make a page wait behind it: the
  page takes its turn in the line and starts a kernel of its own, unless a pooled kernel is ready by then.
* **A full line is refused** like a full server (HTTP 503, :data:`MOST_WAITING`).
"""

from __future__ import annotations

import html
import json
import os
import secrets
import time
import urllib.parse
from collections import OrderedDict
from dataclasses import dataclass

from tornado import web
from voila.tornado.handler import TornadoVoilaHandler

from ..service.preparation import page_title

__all__ = ["ArrivalQueue", "Turn", "QueuedVoilaHandler", "ArrivalsHandler", "waiting_page", "SLOTS",
           "TICKET", "STATUS_PATH"]

SLOTS = max(1, os.cpu_count() or 1)
"""Cold renders (a kernel's start and its notebook's run) at once: one per core."""
GONE_SECONDS = 12.0
"""A waiting ticket not asked about for this long belongs to a closed tab: it leaves the line."""
CLAIM_SECONDS = 12.0
"""A slot kept for a ticket whose turn came passes on if the page does not come for it in this long."""
MOST_WAITING = 200
"""Pages waiting at once; one more is refused as a full server is (HTTP 503)."""
FIRST_GUESS_SECONDS = 3.0
"""The render time assumed for the estimate on the waiting page before any render has been timed."""
TICKET = "treegames_ticket"
"""The query argument that carries a waiting page's ticket."""
STATUS_PATH = "treegames/arrivals"
"""Where a waiting page asks about its ticket (under the server's base URL)."""
POLL_MS = 1000
"""How often the waiting page asks (JavaScript)."""
REFRESH_SECONDS = 3
"""How often the waiting page reloads itself when JavaScript is off."""


@dataclass(frozen=True)
class Turn:
    """A page's place: render now (``admitted``), come back now with ``ticket`` (``ready``), or wait."""

    admitted: bool = False
    ready: bool = False
    ticket: str = ""
    ahead: int = 0
    seconds: float = 0.0


class ArrivalQueue:
    """First come, first served turns for cold renders: ``slots`` at once, the rest wait with a ticket."""

    def __init__(self, slots: int = SLOTS, clock=time.monotonic, gone_seconds: float = GONE_SECONDS,
                 claim_seconds: float = CLAIM_SECONDS, most_waiting: int = MOST_WAITING):
        self.slots = max(1, slots)
        self.clock = clock
        self.gone_seconds = gone_seconds
        self.claim_seconds = claim_seconds
        self.most_waiting = most_waiting
        self.running = 0
        self.waiting: OrderedDict[str, float] = OrderedDict()  # ticket -> when last asked about
        self.kept: dict[str, float] = {}  # ticket whose turn came -> until when its slot is kept
        self.render_seconds = FIRST_GUESS_SECONDS

    def busy(self) -> int:
        """Slots in use: renders running plus slots kept for tickets whose turn came."""
        return self.running + len(self.kept)

    def arrive(self, ticket: str | None = None) -> Turn:
        """A page asks to render: admitted (the caller now holds a slot, given back by :meth:`finish`), or its place."""
        self.tidy()
        if ticket and ticket in self.kept:
            del self.kept[ticket]
            self.running += 1
            return Turn(admitted=True)
        if not (ticket and ticket in self.waiting) and not self.waiting and self.busy() < self.slots:
            self.running += 1
            return Turn(admitted=True)
        return self.status(ticket or "")

    def status(self, ticket: str) -> Turn:
        """Where ``ticket`` stands (asking counts as still being there); a lost or unknown one joins the back."""
        self.tidy()
        if ticket in self.kept:
            return Turn(ready=True, ticket=ticket)
        if ticket not in self.waiting:
            if len(self.waiting) >= self.most_waiting:
                raise QueueFull(self.most_waiting)
            ticket = secrets.token_urlsafe(12)
            self.waiting[ticket] = self.clock()
            self.tidy()
            if ticket in self.kept:
                return Turn(ready=True, ticket=ticket)
        self.waiting[ticket] = self.clock()
        ahead = list(self.waiting).index(ticket) + len(self.kept)
        return Turn(ticket=ticket, ahead=ahead, seconds=self.estimate(ahead))

    def knows(self, ticket: str) -> bool:
        """Whether ``ticket`` still has a place or a kept turn (a lost one must come back by its page)."""
        self.tidy()
        return ticket in self.waiting or ticket in self.kept

    def leave(self, ticket: str | None) -> None:
        """A page with ``ticket`` opened another way (a preheated kernel was ready): its place or kept slot goes on."""
        if ticket:
            self.waiting.pop(ticket, None)
            self.kept.pop(ticket, None)
        self.tidy()

    def finish(self, seconds: float | None = None) -> None:
        """A render ended (it took ``seconds``, when timed): its slot goes to the next in line."""
        self.running = max(0, self.running - 1)
        if seconds is not None:
            self.render_seconds = 0.7 * self.render_seconds + 0.3 * seconds
        self.tidy()

    def estimate(self, ahead: int) -> float:
        """Seconds until a page with ``ahead`` pages before it opens, from the renders timed so far."""
        return (ahead // self.slots + 1) * self.render_seconds

    def tidy(self) -> None:
        """Drop gone tickets and unclaimed slots, then hand free slots to the first in line."""
        now = self.clock()
        for ticket in [t for t, until in self.kept.items() if until < now]:
            del self.kept[ticket]
        for ticket in [t for t, seen in self.waiting.items() if now - seen > self.gone_seconds]:
            del self.waiting[ticket]
        while self.waiting and self.busy() < self.slots:
            ticket, _seen = self.waiting.popitem(last=False)
            self.kept[ticket] = now + self.claim_seconds


class QueueFull(web.HTTPError):
    """More pages waiting than the line holds (HTTP 503, with a reason a visitor can read)."""

    def __init__(self, most: int):
        super().__init__(503, reason="The class server is full: try again in a minute",
                         log_message=f"refused a page: {most} pages already waiting")


def ahead_words(turn: Turn) -> str:
    """What the waiting page says about the line."""
    if turn.ahead == 0:
        return "Your page is next."
    pages = "page is" if turn.ahead == 1 else "pages are"
    return f"{turn.ahead} {pages} ahead of yours."


def wait_words(turn: Turn) -> str:
    """The waiting page's progress line: the line ahead and the time it should take."""
    return f"{ahead_words(turn)} It opens by itself in about {max(1, round(turn.seconds))} s."


def with_ticket(uri: str, ticket: str) -> str:
    """The page's own address with ``ticket`` as its ticket (any other ticket removed)."""
    parts = urllib.parse.urlsplit(uri)
    query = [(k, v) for k, v in urllib.parse.parse_qsl(parts.query, keep_blank_values=True) if k != TICKET]
    query.append((TICKET, ticket))
    return urllib.parse.urlunsplit(("", "", parts.path, urllib.parse.urlencode(query), ""))


WAITING_STYLE = """
body{font-family:system-ui,sans-serif;margin:0;color:#1a1a1a;background:#fff}
main{max-width:36rem;margin:3rem auto;padding:0 1rem}
h1{font-size:1.4rem}
.bar{height:.5rem;background:#d9e2ec;border-radius:.25rem;overflow:hidden}
.bar span{display:block;height:100%;width:30%;background:#005a8c;animation:go 1.5s ease-in-out infinite}
@keyframes go{0%{margin-left:0}50%{margin-left:70%}100%{margin-left:0}}
@media (prefers-reduced-motion: reduce){.bar span{animation:none;width:100%}}
"""

WAITING_SCRIPT = """
(function () {
  var status = document.getElementById('loading_text'), ask_url = STATUS_URL;
  function ask() {
    fetch(ask_url, {cache: 'no-store'}).then(function (r) { return r.json(); }).then(function (a) {
      if (a.ready) { window.location.replace(a.page); return; }
      if (status.textContent !== a.words) status.textContent = a.words;
      ask_url = a.status;
      setTimeout(ask, POLL_MS);
    }).catch(function () { setTimeout(ask, 2 * POLL_MS); });
  }
  setTimeout(ask, POLL_MS);
})();
"""


def is_page_path(page: str, base_url: str = "/") -> bool:
    """Whether ``page`` is a dashboard's address on this server (so the waiting page never leads elsewhere)."""
    parts = urllib.parse.urlsplit(page)
    return (not parts.scheme and not parts.netloc and "\\" not in page
            and parts.path.startswith(f"{base_url.rstrip('/')}/voila/render/"))


def status_query(status_url: str, ticket: str, page_uri: str) -> str:
    """Where the waiting page asks about ``ticket``."""
    return f"{status_url}?{urllib.parse.urlencode({'ticket': ticket, 'page': page_uri})}"


def waiting_page(turn: Turn, page_uri: str, status_url: str, title: str) -> str:
    """The waiting page: where the visitor stands, a moving bar, and the way on (script, or reload without it)."""
    page_url = with_ticket(page_uri, turn.ticket)
    asked = json.dumps(status_query(status_url, turn.ticket, page_uri)).replace("</", "<\\/")
    script = (WAITING_SCRIPT.replace("STATUS_URL", asked)
              .replace("POLL_MS", str(POLL_MS)))
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="treegames-ticket" content="{html.escape(turn.ticket)}">
<noscript><meta http-equiv="refresh" content="{REFRESH_SECONDS};url={html.escape(page_url)}"></noscript>
<title>Opening {html.escape(title)}</title><style>{WAITING_STYLE}</style></head>
<body><main><h1>Opening {html.escape(title)}</h1>
<p>Many pages are opening at once, so they take turns.</p>
<p id="loading_text" role="status" aria-live="polite">{html.escape(wait_words(turn))}</p>
<div class="bar" aria-hidden="true"><span></span></div>
</main><script>{script}</script></body></html>"""


class QueuedVoilaHandler(TornadoVoilaHandler):
    """Voilà's page handler, with cold renders taking turns (:class:`ArrivalQueue`)."""

    def initialize(self, arrivals: ArrivalQueue | None = None, **kwargs):
        """Voilà's own settings, and the line shared by the server's pages."""
        self.arrivals = arrivals
        self.notebook = ""
        super().initialize(**kwargs)

    def has_ready_kernel(self, notebook: str) -> bool:
        """Whether a preheated kernel that has run its whole notebook waits for this page (then it skips the line)."""
        if self.get_argument("template", None) or self.get_argument("theme", None):
            return False
        pool = (getattr(self.kernel_manager, "_pools", None) or {}).get(notebook) or []
        if not pool or not pool[0].done() or pool[0].cancelled() or pool[0].exception() is not None:
            return False
        render = pool[0].result().get("task")
        return render is None or render.done()

    def should_use_rendered_notebook(self, *args, **kwargs) -> bool:
        """Voilà's choice of a preheated kernel; with the line on, only one that is ready (else a turn and a kernel
        of the page's own, rather than a wait behind the pool's refills, which run one at a time)."""
        use = super().should_use_rendered_notebook(*args, **kwargs)
        return use and (self.arrivals is None or self.has_ready_kernel(self.notebook or ""))

    @web.authenticated
    async def get(self, path=None):
        """Render at once when a slot is free or the pool has a kernel; otherwise answer the waiting page."""
        notebook = self.notebook = self.notebook_path or path or ""
        if self.arrivals is None or not notebook.endswith(".ipynb"):
            return await super().get(path)
        ticket = self.get_argument(TICKET, None)
        if self.has_ready_kernel(notebook):
            self.arrivals.leave(ticket)
            return await super().get(path)
        turn = self.arrivals.arrive(ticket)
        if turn.ready:  # its turn came as it joined: on to the page with the ticket at once
            self.redirect(with_ticket(self.request.uri, turn.ticket))
            return None
        if not turn.admitted:
            self.set_header("Content-Type", "text/html; charset=utf-8")
            self.set_header("Cache-Control", "no-cache, no-store, must-revalidate")
            status_url = f"{self.base_url.rstrip('/')}/{STATUS_PATH}"
            self.write(waiting_page(turn, self.request.uri, status_url, page_title(notebook)))
            return None
        started = time.monotonic()
        try:
            return await super().get(path)
        finally:
            seconds = time.monotonic() - started
            self.arrivals.finish(seconds)
            self.log.info("Opened %s in %.1f s with a kernel of its own; %d still waiting", notebook, seconds,
                          len(self.arrivals.waiting))


class ArrivalsHandler(web.RequestHandler):
    """``GET /treegames/arrivals?ticket=T&page=URI``: where a waiting page stands, as JSON (no page data)."""

    def initialize(self, arrivals: ArrivalQueue):
        """The server's line."""
        self.arrivals = arrivals

    def get(self):
        """Ready (open the page now, with the ticket), or the words for the progress line and where to ask next."""
        page = self.get_argument("page", "")[:2000]
        if not is_page_path(page, self.settings.get("base_url", "/")):
            raise web.HTTPError(400, reason="page: a dashboard's path on this server")
        ticket = self.get_argument("ticket", "")[:64]
        self.set_header("Cache-Control", "no-store")
        if not self.arrivals.knows(ticket):  # lost: back to the page itself, which finds it a place (a read never adds one)
            self.finish({"ready": True, "page": with_ticket(page, ""), "words": "", "status": ""})
            return
        turn = self.arrivals.status(ticket)
        self.finish({"ready": turn.ready, "page": with_ticket(page, turn.ticket), "words": wait_words(turn),
                     "status": status_query(self.request.path, turn.ticket, page)})
