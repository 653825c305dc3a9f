"""How a page's kernel reaches the authority and the visitor's address bar: client, query string, seat URL, QR code.

A seat is kept across reload in the page's URL: after a join the page's address becomes
``...play.ipynb?table=CODE&seat=TOKEN`` (``history.replaceState``, no reload), so a reload, a reopened
tab or a new kernel after ``kill -9`` resumes the same seat. Voila hands the query string to the kernel
(``QUERY_STRING``; a preheated kernel gets it once its page is asked for, :func:`read_query`). The join
URL shown to others carries the code only, never a token.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Callable
from urllib.parse import parse_qs, urlencode, urlsplit

CODE_KEY = "table"
SEAT_KEY = "seat"
MAX_QUERY = 400
"""A longer query string than this is ignored (a code and a token are a few dozen characters)."""


def table_client():
    """The authority's client for this kernel (HTTP to the class server or hub service), or None when alone."""
    from ...tables import client

    try:
        return client.connect() if client.available() else None
    except ValueError:
        return None


def parse_query(query: str | None) -> dict[str, str]:
    """{'table': code, 'seat': token} from a query string (unknown keys and over-long strings ignored)."""
    if not query or len(query) > MAX_QUERY:
        return {}
    found = parse_qs(query.lstrip("?"), keep_blank_values=False)
    return {k: v[-1].strip() for k, v in found.items() if k in (CODE_KEY, SEAT_KEY) and v and v[-1].strip()}


def read_query(on_query: Callable[[dict], object]) -> threading.Thread | None:
    """Call ``on_query(parsed)`` once the page's query string is known (a thread waits for a preheated kernel)."""
    query = os.environ.get("QUERY_STRING")
    if query is not None or os.environ.get("VOILA_PREHEAT", "False") != "True":
        parsed = parse_query(query)
        if parsed:
            on_query(parsed)
        return None

    def wait() -> None:
        try:
            from voila.utils import wait_for_request

            wait_for_request()
        except Exception:  # noqa: BLE001 - no Voila request channel: no seat to resume
            return
        parsed = parse_query(os.environ.get("QUERY_STRING"))
        if parsed:
            on_query(parsed)

    thread = threading.Thread(target=wait, name="treegames-query", daemon=True)
    thread.start()
    return thread


def page_url() -> str:
    """This page's address without its query (from Voila's request), or '' when unknown."""
    full = os.environ.get("VOILA_REQUEST_URL", "")
    if full:
        parts = urlsplit(full)
        return f"{parts.scheme}://{parts.netloc}{parts.path}"
    host, port, path = (os.environ.get(k, "") for k in ("SERVER_NAME", "SERVER_PORT", "SCRIPT_NAME"))
    if host and path:
        return f"http://{host}{':' + port if port else ''}{path}"
    return ""


def join_url(code: str, base: str | None = None) -> str:
    """The address that opens this page at a table's code (no token: anyone may use it to join or watch)."""
    base = page_url() if base is None else base
    query = urlencode({CODE_KEY: code})
    return f"{base}?{query}" if base else f"?{query}"


def seat_script(code: str, token: str | None) -> str:
    """JavaScript that puts the seat in the address bar without reloading (None: the table only)."""
    query = {CODE_KEY: code, **({SEAT_KEY: token} if token else {})}
    return ("history.replaceState(null, '', location.pathname + " + json.dumps("?" + urlencode(query))
            + " + location.hash);")


def forget_script() -> str:
    """JavaScript that drops the table and seat from the address bar (after leaving a table)."""
    return "history.replaceState(null, '', location.pathname + location.hash);"


def qr_svg(text: str, scale: int = 4) -> str:
    """The QR code of ``text`` as inline SVG (segno; drawn in the page, no network)."""
    import segno

    return segno.make(text, error="m").svg_inline(scale=scale, dark="#000000", light="#FFFFFF",
                                                   title="QR code of the join address")
