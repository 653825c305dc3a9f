"""How a kernel reaches the class-experiment authority: over HTTP on the class server, or in process.

``connect()`` reads ``TREEGAMES_TABLES_URL`` and ``TREEGAMES_TABLES_KEY`` (set by the class server
in every kernel's environment) and calls ``<url>/experiments/<method>`` with the key in the
``X-Treegames-Key`` header; a refusal comes back as the same :class:`~.errors.ExperimentError`
subclass.  ``local(authority)`` wraps an in-process authority with the same methods (tests,
JupyterLab).  ``available()`` is False when no class server is configured (Binder).
"""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.request

from . import errors
from .errors import ExperimentError

__all__ = ["STUDENT_METHODS", "TEACHER_METHODS", "METHODS", "HttpClient", "LocalClient", "connect", "local",
           "available", "Unavailable", "URL_ENV", "KEY_ENV", "KEY_HEADER"]

URL_ENV = "TREEGAMES_TABLES_URL"
KEY_ENV = "TREEGAMES_TABLES_KEY"
KEY_HEADER = "X-Treegames-Key"

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


class HttpClient:
    """The authority's methods as JSON POSTs to the class server (loopback, with the server key)."""

    def __init__(self, url: str, key: str, timeout: float = 40.0):
        self.url = url.rstrip("/")
        self.key = key
        self.timeout = timeout

    def call(self, method: str, **kwargs):
        """POST ``kwargs`` to ``<url>/experiments/<method>``; the result, or the authority's refusal raised."""
        if method not in METHODS:
            raise AttributeError(method)
        body = json.dumps(kwargs).encode("utf-8")
        request = urllib.request.Request(f"{self.url}/experiments/{method}", data=body, method="POST",
                                         headers={"Content-Type": "application/json", KEY_HEADER: self.key})
        timeout = self.timeout + float(kwargs.get("timeout", 0) or 0)
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:  # noqa: S310 - loopback URL from env
                return json.loads(response.read())["result"]
        except urllib.error.HTTPError as err:
            try:
                data = json.loads(err.read())
            except ValueError:
                raise Unavailable(f"the experiment service answered {err.code}: try again in a moment") from None
            raise error_from(data.get("error", ""), data.get("message", "refused")) from None
        except (urllib.error.URLError, OSError) as err:
            raise Unavailable(f"the class server's experiment service cannot be reached ({err}): "
                              "try again in a moment") from None

    def __getattr__(self, name: str):
        if name not in METHODS:
            raise AttributeError(name)
        return lambda **kwargs: self.call(name, **kwargs)


def available() -> bool:
    """True when a class server told this kernel where the experiment service is."""
    return bool(os.environ.get(URL_ENV)) and bool(os.environ.get(KEY_ENV))


def connect(url: str | None = None, key: str | None = None) -> HttpClient:
    """A client for the class server named in the environment (or ``url``/``key``)."""
    url = url or os.environ.get(URL_ENV)
    key = key or os.environ.get(KEY_ENV)
    if not url or not key:
        raise Unavailable("no class server is configured here: each session is alone (on Binder, for instance)")
    return HttpClient(url, key)


def local(authority) -> LocalClient:
    """A client calling ``authority`` in this process."""
    return LocalClient(authority)
