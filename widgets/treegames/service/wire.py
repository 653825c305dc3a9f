"""JSON over HTTP for the authorities (shared tables, class experiments): one tornado handler, one client.

``POST <prefix>/<service>/<method>`` with a JSON object of keyword arguments calls ``method`` of the
service's authority (only the names the service lists) and answers ``{"result": ...}``. Otherwise:

* 403 ``NotAllowed`` when the caller is not identified (:meth:`RpcHandler.identify`: on the class server
  the per-server key in ``X-Treegames-Key``, compared in constant time; the hub service overrides it);
* 404 ``NoSuchMethod`` for a name the service does not list;
* 413 (the service's "too large" refusal) for a body over the service's limit;
* 400 with the service's "bad request" refusal for a body that is not a JSON object of the method's
  argument names, and ``{"error": <class name>, "message": <sentence>, ...}`` for any refusal;
* 503 with the service's "unavailable" name when the store does not answer.

Store calls run on a thread pool, so the event loop never blocks. A long poll (a method the service
names in ``polls``) is a coroutine on the event loop: it sleeps in short steps, looking at an in-memory
hint (change notices of this process) and, once a second, at the store; no thread is held per waiter.

:class:`RpcClient` is the other end: it posts with the caller's credential (the server key, or a hub
token as ``Authorization: token ...``) and raises each refusal again as the service's own error class.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import inspect
import json
import logging
import os
import time
import urllib.error
import urllib.request
from collections.abc import Awaitable, Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from tornado import web

from .codes import unencodable

__all__ = ["Service", "RpcHandler", "KeyHandler", "RpcClient", "routes", "long_poll", "auth_headers",
           "KEY_HEADER", "URL_ENV", "KEY_ENV", "HUB_TOKEN_ENV", "POLL_STEP", "RECHECK"]

KEY_HEADER = "X-Treegames-Key"
URL_ENV = "TREEGAMES_TABLES_URL"
KEY_ENV = "TREEGAMES_TABLES_KEY"
HUB_TOKEN_ENV = "JUPYTERHUB_API_TOKEN"
POLL_STEP = 0.05
"""How often a long poll looks at this process's change notices (seconds)."""
RECHECK = 1.0
"""How often a long poll asks the store itself (writes from other processes), in seconds."""

_WRITES = ThreadPoolExecutor(max_workers=8, thread_name_prefix="treegames-rpc")
_READS = ThreadPoolExecutor(max_workers=4, thread_name_prefix="treegames-rpc-read")
"""Reads run on their own threads, so a burst of writes never delays a projector or a page's redraw."""
_LOG = logging.getLogger("treegames.rpc")

Run = Callable[..., Awaitable[Any]]
"""``await run(fn, *args, **kwargs)``: ``fn`` called on the read pool."""


@dataclass(frozen=True)
class Service:
    """One authority behind ``<prefix>/<name>/<method>``: what may be called and how its answers look."""

    name: str
    target: Any
    methods: tuple[str, ...]
    refusal: type[Exception]
    """Errors answered 400 with their class name and sentence."""
    bad_request: type[Exception]
    """The refusal sent for a body that is not the method's arguments."""
    too_large: type[Exception]
    """The refusal sent (413) for a body over ``max_body`` bytes."""
    max_body: int
    down: tuple[type[Exception], ...] = ()
    """Errors meaning the store did not answer (503); checked before ``refusal``."""
    down_name: str = "Unavailable"
    reads: frozenset[str] = frozenset()
    """Methods that only read (they run on the read pool)."""
    polls: Mapping[str, Callable[..., Awaitable[Any]]] = field(default_factory=dict)
    """Long-poll methods: ``await poll(run, **kwargs)`` on the event loop instead of a thread."""
    encode: Callable[[Any], Any] = lambda result: result
    error_json: Callable[[Exception], dict] = lambda err: {"error": type(err).__name__, "message": str(err)}
    who: str | None = None
    """The keyword that carries the caller's identity, set from :meth:`RpcHandler.identify` when it names one."""

    def check(self, method: str, kwargs: object) -> dict:
        """``kwargs`` if they are a JSON object of ``method``'s argument names; else the bad-request refusal."""
        if not isinstance(kwargs, dict) or not all(isinstance(k, str) for k in kwargs):
            raise self.bad_request(f"The body of {method} must be a JSON object of its arguments.")
        try:
            inspect.signature(getattr(self.target, method)).bind(**kwargs)
        except TypeError:
            raise self.bad_request(f"Those are not the arguments of {method}.") from None
        where = unencodable(kwargs)
        if where is not None:
            raise self.bad_request(f"The {where} holds a character that cannot be sent (half of an emoji, perhaps): "
                                   "type it again.")
        return kwargs

    def with_identity(self, method: str, kwargs: dict, identity: str) -> dict:
        """``kwargs`` with the caller's identity in the ``who`` keyword (when ``method`` takes it)."""
        if identity and self.who and self.who in inspect.signature(getattr(self.target, method)).parameters:
            return {**kwargs, self.who: identity}
        return kwargs


async def _on(pool: ThreadPoolExecutor, fn: Callable, *args, **kwargs) -> Any:
    """``fn(*args, **kwargs)`` on ``pool``, awaited."""
    return await asyncio.get_running_loop().run_in_executor(pool, lambda: fn(*args, **kwargs))


async def read(fn: Callable, *args, **kwargs) -> Any:
    """``fn(*args, **kwargs)`` on the read pool (what long polls use)."""
    return await _on(_READS, fn, *args, **kwargs)


async def long_poll(moved: Callable[[], bool], check: Callable[[], Awaitable[bool]], timeout: float,
                    notices: Any = None) -> bool:
    """Wait on the event loop until ``moved()`` (cheap, in memory) or ``await check()`` (every RECHECK s) is true.

    ``check`` runs at once first (a change between reading and waiting is never missed), then every
    ``RECHECK`` seconds; True if something changed, False at the timeout.  With ``notices`` (the store's
    :class:`~treegames.service.store.Notices`), a notice posted in this process wakes the poll at once;
    without one, or for what posts no notice, ``moved()`` is looked at every ``POLL_STEP`` seconds.
    """
    deadline = time.monotonic() + max(0.0, timeout)
    checked = float("-inf")
    rung = asyncio.Event()
    loop = asyncio.get_running_loop()

    def wake() -> None:
        with contextlib.suppress(RuntimeError):  # the loop has closed (the server stopping): nobody to wake
            loop.call_soon_threadsafe(rung.set)

    stop = notices.listen(wake) if notices is not None else None
    try:
        while True:
            rung.clear()  # before looking: a notice posted from here on wakes the wait below
            now = time.monotonic()
            if moved():
                return True
            if now - checked >= RECHECK:
                checked = now
                if await check():
                    return True
            if time.monotonic() >= deadline:
                return False
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(rung.wait(), min(POLL_STEP, max(0.0, deadline - time.monotonic())))
    finally:
        if stop is not None:
            stop()


class RpcHandler(web.RequestHandler):
    """One authority method per URL; JSON in, JSON out; refusals as 400 with their sentence."""

    def initialize(self, services: dict[str, Service]) -> None:
        self.services = services

    def check_xsrf_cookie(self) -> None:
        """Kernels call with a credential of their own, not a browser cookie: :meth:`identify` stands instead."""

    def identify(self) -> str | None:
        """Who is calling: '' for a trusted caller whose own ``visitor`` stands, a name to bind, None to refuse."""
        return None

    def refused(self) -> str:
        """The sentence sent with 403."""
        return "Only this server's kernels may call this."

    def answer(self, status: int, data: dict) -> None:
        """Finish with ``data`` as JSON (never cached)."""
        self.set_status(status)
        self.set_header("Content-Type", "application/json")
        self.set_header("Cache-Control", "no-store")
        self.finish(json.dumps(data))

    def _refusal(self, status: int, service: Service, err: Exception) -> None:
        self.answer(status, service.error_json(err))

    async def post(self, name: str, method: str) -> None:
        identity = self.identify()
        if inspect.isawaitable(identity):
            identity = await identity
        if identity is None:
            return self.answer(403, {"error": "NotAllowed", "message": self.refused()})
        service = self.services.get(name)
        if service is None or method not in service.methods:
            return self.answer(404, {"error": "NoSuchMethod", "message": f"There is no call {name[:20]}/{method[:40]}."})
        if len(self.request.body) > service.max_body:
            return self._refusal(413, service, service.too_large(
                f"That request is {len(self.request.body)} bytes; at most {service.max_body} are accepted."))
        try:
            kwargs = service.check(method, json.loads(self.request.body or b"{}"))
        except ValueError as err:
            err = err if isinstance(err, service.bad_request) else service.bad_request(
                f"The body of {method} is not JSON.")
            return self._refusal(400, service, err)
        kwargs = service.with_identity(method, kwargs, identity)
        try:
            result = await self._call(service, method, kwargs)
        except service.down as err:  # checked first: the store's outage may also be a refusal class
            return self.answer(503, {**service.error_json(err), "error": service.down_name})
        except service.refusal as err:
            return self._refusal(400, service, err)
        except Exception:  # a fault of ours: logged here, never a traceback on the wire
            _LOG.exception("%s/%s failed", name, method)
            return self.answer(500, {"error": "ServerError", "message": "The server failed on that request."})
        self.answer(200, {"result": service.encode(result)})

    async def _call(self, service: Service, method: str, kwargs: dict) -> Any:
        """The method's result: a long poll on the event loop, else a call on a pool thread."""
        if method in service.polls:
            return await service.polls[method](read, **kwargs)
        pool = _READS if method in service.reads else _WRITES
        return await _on(pool, getattr(service.target, method), **kwargs)


class KeyHandler(RpcHandler):
    """The class server's handler: the caller must send the per-server key (kernels have it; pages never)."""

    def initialize(self, services: dict[str, Service], key: str) -> None:
        super().initialize(services)
        self.key = key

    def identify(self) -> str | None:
        """'' when ``X-Treegames-Key`` is the server key (constant-time compare), else None."""
        given = self.request.headers.get(KEY_HEADER, "")
        return "" if self.key and hmac.compare_digest(given.encode(), self.key.encode()) else None

    def refused(self) -> str:
        """The sentence sent with 403."""
        return "only the class server's kernels may call this (the page never does)"


def routes(services: list[Service], key: str, prefix: str = "/treegames/api",
           handler: type[RpcHandler] = KeyHandler, **settings) -> list[tuple]:
    """The tornado route serving ``services`` under ``prefix`` (one route for all of them)."""
    names = "|".join(s.name for s in services)
    args = {"services": {s.name: s for s in services}, **settings}
    if handler is KeyHandler or issubclass(handler, KeyHandler):
        args["key"] = key
    return [(rf"{prefix.rstrip('/')}/({names})/([a-z_]+)", handler, args)]


# ---------------------------------------------------------------------------------------------- the client


def auth_headers(key: str | None = None) -> dict[str, str]:
    """The credential header: the server key (given or ``TREEGAMES_TABLES_KEY``), else the hub token; {} if none."""
    key = key or os.environ.get(KEY_ENV)
    if key:
        return {KEY_HEADER: key}
    token = os.environ.get(HUB_TOKEN_ENV)
    return {"Authorization": f"token {token}"} if token else {}


class RpcClient:
    """Posts to ``<url>/<service>/<method>`` and returns the result, or raises the refusal as its own class."""

    def __init__(self, url: str, service: str, headers: dict[str, str], methods: tuple[str, ...],
                 error_from: Callable[[dict], Exception], unavailable: Callable[[str], Exception],
                 timeout: float = 40.0):
        self.url = url.rstrip("/")
        self.service = service
        self.headers = dict(headers)
        self.methods = methods
        self.error_from = error_from
        self.unavailable = unavailable
        self.timeout = timeout

    def call(self, method: str, **kwargs) -> Any:
        """POST ``kwargs`` as JSON; the decoded result, or the service's refusal raised."""
        if method not in self.methods:
            raise AttributeError(method)
        body = json.dumps(kwargs).encode("utf-8")
        request = urllib.request.Request(f"{self.url}/{self.service}/{method}", data=body, method="POST",
                                         headers={"Content-Type": "application/json", **self.headers})
        wait = kwargs.get("timeout", 0)
        timeout = self.timeout + (float(wait) if isinstance(wait, int | float) else 0.0)
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:  # noqa: S310 - URL from the server
                return json.loads(response.read())["result"]
        except urllib.error.HTTPError as err:
            try:
                data = json.loads(err.read())
                if not isinstance(data, dict):
                    raise ValueError
            except ValueError:
                raise self.unavailable(f"The {self.service} service answered {err.code}: try again in a moment.") \
                    from None
            raise self.error_from(data) from None
        except (urllib.error.URLError, OSError) as err:
            raise self.unavailable(f"The {self.service} service cannot be reached ({err}): try again in a moment.") \
                from None
