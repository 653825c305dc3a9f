"""How a kernel reaches the shared-table authority: over HTTP (class server, hub service), or in process.

``connect()`` reads ``TREEGAMES_TABLES_URL`` and the credential (``TREEGAMES_TABLES_KEY`` on the class
server; on a hub, the kernel's ``JUPYTERHUB_API_TOKEN``) and calls ``<url>/tables/<method>``. The client
has the :class:`~.authority.Authority`'s methods with the same arguments; tickets, views and summaries
cross the wire as JSON (:mod:`.views`) and come back as the same objects, and a refusal comes back as the
same :class:`~.errors.TableError` subclass. ``local(authority)`` gives the same client in process (the
same JSON round trip). ``available()`` is False when no server is configured (Binder, plain JupyterLab).
"""

from __future__ import annotations

import inspect
import json
import os
from collections.abc import Callable
from typing import Any

from . import rpc
from .errors import StoreUnavailable, error_from_json
from .views import TableSummary, TableView, Ticket

__all__ = ["METHODS", "READ_METHODS", "HttpClient", "LocalClient", "connect", "local", "available", "encode",
           "decode"]

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


def _arguments(method: str, args: tuple, kwargs: dict) -> dict:
    """The call's arguments by name, as the authority's method names them (TypeError if they do not fit)."""
    from .authority import Authority

    bound = inspect.signature(getattr(Authority, method)).bind(None, *args, **kwargs)
    named = dict(bound.arguments)
    named.pop("self", None)
    return named


class _Methods:
    """The authority's methods by name; each goes through the client's ``call(method, **arguments)``."""

    def __getattr__(self, name: str):
        if name not in METHODS:
            raise AttributeError(name)
        return lambda *args, **kwargs: decode(name, self.call(name, **_arguments(name, args, kwargs)))


class HttpClient(_Methods, rpc.RpcClient):
    """The authority's methods as JSON POSTs to the server that runs it."""

    def __init__(self, url: str, headers: dict[str, str], timeout: float = 40.0):
        rpc.RpcClient.__init__(self, url, "tables", headers, METHODS, error_from_json, StoreUnavailable, timeout)


class LocalClient(_Methods):
    """The authority's methods called in this process, through the same JSON as over the wire."""

    def __init__(self, authority):
        self.authority = authority

    def call(self, method: str, **kwargs) -> Any:
        """The method's result as it would arrive over HTTP."""
        return json.loads(json.dumps(encode(getattr(self.authority, method)(**kwargs))))


def available() -> bool:
    """True when a server told this kernel where the tables are (and gave it a credential)."""
    return bool(os.environ.get(rpc.URL_ENV)) and bool(rpc.auth_headers())


def connect(url: str | None = None, key: str | None = None) -> HttpClient:
    """A client for the server named in the environment (or ``url`` with ``key``)."""
    url = url or os.environ.get(rpc.URL_ENV)
    headers = rpc.auth_headers(key)
    if not url or not headers:
        raise StoreUnavailable("No class server is configured here: each session is alone (on Binder, for instance).")
    return HttpClient(url, headers)


def local(authority) -> LocalClient:
    """A client calling ``authority`` in this process."""
    return LocalClient(authority)
