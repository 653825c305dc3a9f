"""How a kernel reaches the class-experiment authority: over HTTP on the class server, or in process.

``connect()`` reads ``TREEGAMES_TABLES_URL`` and ``TREEGAMES_TABLES_KEY`` (set by the class server
in every kernel's environment) and calls ``<url>/experiments/<method>`` with the key in the
``X-Treegames-Key`` header; a refusal comes back as the same :class:`~.errors.ExperimentError`
subclass.  ``local(authority)`` wraps an in-process authority with the same methods (tests,
JupyterLab).  ``available()`` is False when no class server is configured (Binder).
"""

from __future__ import annotations

import os

from ..service import wire
from . import errors
from .errors import ExperimentError

__all__ = ["STUDENT_METHODS", "TEACHER_METHODS", "METHODS", "HttpClient", "LocalClient", "connect", "local",
           "available", "Unavailable", "URL_ENV", "KEY_ENV", "KEY_HEADER"]

URL_ENV = wire.URL_ENV
KEY_ENV = wire.KEY_ENV
KEY_HEADER = wire.KEY_HEADER

STUDENT_METHODS = ("join", "me", "contribute", "contribute_physical", "claim_block", "contribute_games",
                   "snapshot", "wait", "version", "records")
TEACHER_METHODS = ("open_experiment", "freeze", "reopen", "reset", "new_round", "delete_round", "delete_class",
                   "set_shown", "classes", "teacher_view", "export_csv")
METHODS = STUDENT_METHODS + TEACHER_METHODS
"""Every authority method a client may call (nothing else is reachable over HTTP)."""


class Unavailable(ExperimentError):
    """The class server's experiment service cannot be reached (try again in a moment)."""


def error_from(name: str, message: str) -> ExperimentError:
    """The ExperimentError subclass called ``name`` (or the base class) with ``message``."""
    cls = getattr(errors, name, None)
    if name == "Unavailable":
        cls = Unavailable
    if not (isinstance(cls, type) and issubclass(cls, ExperimentError)):
        cls = ExperimentError
    return cls(message)


class LocalClient:
    """The authority's methods, called in this process (the same names and JSON-safe values)."""

    def __init__(self, authority):
        self.authority = authority

    def __getattr__(self, name: str):
        if name not in METHODS:
            raise AttributeError(name)
        return getattr(self.authority, name)


class HttpClient(wire.RpcClient):
    """The authority's methods as JSON POSTs to the class server (loopback, with the server key)."""

    def __init__(self, url: str, key: str, timeout: float = 40.0):
        super().__init__(url, "experiments", {KEY_HEADER: key} if key else wire.auth_headers(), METHODS,
                         lambda data: error_from(str(data.get("error", "")), str(data.get("message", "refused"))),
                         Unavailable, timeout)
        self.key = key

    def __getattr__(self, name: str):
        if name not in METHODS:
            raise AttributeError(name)
        return lambda **kwargs: self.call(name, **kwargs)


def available() -> bool:
    """True when a class server told this kernel where the experiment service is."""
    return bool(os.environ.get(URL_ENV)) and bool(wire.auth_headers())


def connect(url: str | None = None, key: str | None = None) -> HttpClient:
    """A client for the class server named in the environment (or ``url``/``key``)."""
    url = url or os.environ.get(URL_ENV)
    key = key or os.environ.get(KEY_ENV) or ""
    if not url or not (key or wire.auth_headers()):
        raise Unavailable("no class server is configured here: each session is alone (on Binder, for instance)")
    return HttpClient(url, key)


def local(authority) -> LocalClient:
    """A client calling ``authority`` in this process."""
    return LocalClient(authority)
