"""How a kernel reaches the shared-table authority: over HTTP (class server, hub service), or in process.

``connect()`` reads ``TREEGAMES_TABLES_URL`` and the credential (``TREEGAMES_TABLES_KEY`` on the class
server; on a hub, the kernel's ``JUPYTERHUB_API_TOKEN``) and calls ``<url>/tables/<method>``. The client
has the :class:`~.authority.Authority`'s methods with the same arguments; tickets, views and summaries
cross the wire as JSON (:mod:`.views`) and come back as the same objects, and a refusal comes back as the
same :class:`~.errors.TableError` subclass. ``local(authority)`` gives the same client in process (the
same JSON round trip). ``available()`` is False when no server is configured (Binder, plain JupyterLab).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from typing import Any

from ..service import wire
from .errors import StoreUnavailable, error_from_json
from .views import TableSummary, TableView, Ticket

__all__ = ["METHODS", "READ_METHODS", "TablesApi", "HttpClient", "LocalClient", "connect", "local", "available",
           "encode", "decode"]

_TICKET = ("create_table", "join", "watch", "resume")
_VIEW = ("view", "wait", "move", "close_table", "replace_with_bot")
METHODS = (*_TICKET, *_VIEW, "open_tables", "overview", "reset_all")
"""Every authority method a client may call (nothing else is reachable over HTTP)."""
READ_METHODS = frozenset({"view", "wait", "open_tables", "overview", "resume"})


def encode(result: Any) -> Any:
    """A result as JSON-safe values (tickets, views and summaries by their ``to_json``)."""
    if isinstance(result, list | tuple):
        return [encode(r) for r in result]
    return result.to_json() if hasattr(result, "to_json") else result


def _decoder(method: str) -> Callable[[Any], Any]:
    """How ``method``'s JSON result becomes the authority's own kind of value again."""
    if method in _TICKET:
        return Ticket.from_json
    if method in _VIEW:
        return TableView.from_json
    if method == "overview":
        return lambda data: [TableView.from_json(d) for d in data]
    if method == "open_tables":
        return lambda data: [TableSummary.from_json(d) for d in data]
    return lambda data: data


def decode(method: str, data: Any) -> Any:
    """``method``'s result read back from JSON."""
    return _decoder(method)(data)


class TablesApi:
    """The authority's methods, written out: each posts its arguments by name through ``call(method, **arguments)``.

    Python checks a call's arguments against these signatures (the authority's own, kept equal by a
    test); the server checks them where they arrive, against the authority itself. A subclass supplies
    ``call``: over HTTP, or in process.
    """

    def _ask(self, method: str, **arguments) -> Any:
        """``method`` called and its result read back as the authority's own kind of value."""
        return decode(method, self.call(method, **arguments))

    def create_table(self, game: str, options: dict | None, seats: list[str], *, visitor: str = "",
                     label: str = "", hint_allowed: bool = False, seed: int | str | None = None) -> Ticket:
        """A new table; the creator's ticket."""
        return self._ask("create_table", game=game, options=options, seats=seats, visitor=visitor, label=label,
                         hint_allowed=hint_allowed, seed=seed)

    def join(self, code: str, *, visitor: str = "", label: str = "", seat: int | None = None) -> Ticket:
        """A seat at the table with join code ``code``."""
        return self._ask("join", code=code, visitor=visitor, label=label, seat=seat)

    def watch(self, code: str, *, visitor: str = "") -> Ticket:
        """A spectator's ticket for the table with join code ``code``."""
        return self._ask("watch", code=code, visitor=visitor)

    def resume(self, token: str, *, visitor: str | None = None) -> Ticket:
        """The ticket of a seat token held before (after a reload or a restart)."""
        return self._ask("resume", token=token, visitor=visitor)

    def view(self, token: str, *, visitor: str | None = None) -> TableView:
        """The table as the token's holder may see it."""
        return self._ask("view", token=token, visitor=visitor)

    def wait(self, token: str, version: int, timeout: float = 25.0, *, visitor: str | None = None) -> TableView:
        """The view once the table's version differs from ``version`` (or at the timeout)."""
        return self._ask("wait", token=token, version=version, timeout=timeout, visitor=visitor)

    def move(self, token: str, version: int, action: str, *, visitor: str | None = None) -> TableView:
        """The view after the token's seat plays ``action`` on ``version``."""
        return self._ask("move", token=token, version=version, action=action, visitor=visitor)

    def open_tables(self, game: str | None = None) -> list[TableSummary]:
        """The tables open to join (of ``game``, or every game)."""
        return self._ask("open_tables", game=game)

    def overview(self, teacher_code: str, *, visitor: str = "") -> list[TableView]:
        """Every table, for the teacher."""
        return self._ask("overview", teacher_code=teacher_code, visitor=visitor)

    def close_table(self, teacher_code: str, table_id: str, *, visitor: str = "") -> TableView:
        """The teacher closes a table."""
        return self._ask("close_table", teacher_code=teacher_code, table_id=table_id, visitor=visitor)

    def replace_with_bot(self, credential: str, table_id: str, seat: int, bot: str, *,
                         visitor: str = "") -> TableView:
        """A bot takes a person seat whose holder is gone."""
        return self._ask("replace_with_bot", credential=credential, table_id=table_id, seat=seat, bot=bot,
                         visitor=visitor)

    def reset_all(self, teacher_code: str, *, visitor: str = "") -> int:
        """The teacher removes every table; how many there were."""
        return self._ask("reset_all", teacher_code=teacher_code, visitor=visitor)


class HttpClient(TablesApi, wire.RpcClient):
    """The authority's methods as JSON POSTs to the server that runs it."""

    def __init__(self, url: str, headers: dict[str, str], timeout: float = 40.0):
        wire.RpcClient.__init__(self, url, "tables", headers, METHODS, error_from_json, StoreUnavailable, timeout)


class LocalClient(TablesApi):
    """The authority's methods called in this process, through the same JSON as over the wire."""

    def __init__(self, authority):
        self.authority = authority

    def call(self, method: str, **kwargs) -> Any:
        """The method's result as it would arrive over HTTP."""
        return json.loads(json.dumps(encode(getattr(self.authority, method)(**kwargs))))


def available() -> bool:
    """True when a server told this kernel where the tables are (and gave it a credential)."""
    return bool(os.environ.get(wire.URL_ENV)) and bool(wire.auth_headers())


def connect(url: str | None = None, key: str | None = None) -> HttpClient:
    """A client for the server named in the environment (or ``url`` with ``key``)."""
    url = url or os.environ.get(wire.URL_ENV)
    headers = wire.auth_headers(key)
    if not url or not headers:
        raise StoreUnavailable("No class server is configured here: each session is alone (on Binder, for instance).")
    return HttpClient(url, headers)


def local(authority) -> LocalClient:
    """A client calling ``authority`` in this process."""
    return LocalClient(authority)
