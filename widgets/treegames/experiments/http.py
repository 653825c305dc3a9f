"""The experiments' HTTP routes, mounted beside the shared tables' under ``/treegames/api/``.

``POST <prefix>/experiments/<method>`` with a JSON object of keyword arguments calls that
method of the authority (only the names in :data:`.client.METHODS`) and answers
``{"result": ...}``, or status 400 with ``{"error": <class name>, "message": <sentence>}``
for a refusal.  Every request must carry the per-server key in ``X-Treegames-Key``
(kernels have it in their environment; a page does not), compared in constant time.
Store calls run on a thread pool so the server's event loop never blocks; a long-poll
(``wait``) waits on the event loop, woken within 50 ms by writes through this process and checking the store once a second.
"""

from __future__ import annotations

import asyncio
import hmac
import inspect
import json
import time
from concurrent.futures import ThreadPoolExecutor

from tornado import web

from .client import KEY_HEADER, METHODS
from .errors import ExperimentError

__all__ = ["routes", "ExperimentHandler", "MAX_BODY"]

MAX_BODY = 256 * 1024
"""The largest request body accepted (a batch of 1000 results is far smaller)."""

_POOL = ThreadPoolExecutor(max_workers=8, thread_name_prefix="experiments")
_READS = ThreadPoolExecutor(max_workers=4, thread_name_prefix="experiments-read")
"""Snapshots and version checks run on their own threads, so a burst of batches never delays the projector."""
READ_METHODS = frozenset({"snapshot", "version", "wait", "me", "records", "teacher_view"})


class ExperimentHandler(web.RequestHandler):
    """One authority method per URL; JSON in, JSON out; refusals as 400 with the sentence."""

    def initialize(self, authority, key: str) -> None:
        self.authority = authority
        self.key = key

    def check_xsrf_cookie(self) -> None:
        """Kernels call with the server key, not a browser cookie: the key check below stands instead."""

    def _answer(self, status: int, data: dict) -> None:
        self.set_status(status)
        self.set_header("Content-Type", "application/json")
        self.set_header("Cache-Control", "no-store")
        self.finish(json.dumps(data))

    async def post(self, method: str) -> None:
        given = self.request.headers.get(KEY_HEADER, "")
        if not hmac.compare_digest(given.encode(), self.key.encode()):
            return self._answer(403, {"error": "NotAllowed", "message": "only the class server's kernels may call this"})
        if method not in METHODS:
            return self._answer(404, {"error": "NoSuchMethod", "message": f"no such call: {method[:40]}"})
        if len(self.request.body) > MAX_BODY:
            return self._answer(413, {"error": "BatchTooLarge", "message": "that request is too large"})
        try:
            kwargs = json.loads(self.request.body or b"{}")
            if not isinstance(kwargs, dict):
                raise ValueError
            inspect.signature(getattr(self.authority, method)).bind(**kwargs)
        except (ValueError, TypeError):
            return self._answer(400, {"error": "ExperimentError", "message": f"bad arguments for {method}"})
        loop = asyncio.get_running_loop()
        try:
            if method == "wait":
                result = await self._wait(loop, **kwargs)
            else:
                pool = _READS if method in READ_METHODS else _POOL
                result = await loop.run_in_executor(pool, lambda: getattr(self.authority, method)(**kwargs))
        except ExperimentError as err:
            return self._answer(400, {"error": type(err).__name__, "message": str(err)})
        except ValueError as err:  # the store's StoreUnavailable and friends are ValueErrors too
            return self._answer(503, {"error": "Unavailable", "message": str(err)})
        self._answer(200, {"result": result})

    async def _wait(self, loop, code: str, version: int, timeout: float = 10.0):
        """The long-poll on the event loop: the snapshot once the version differs, or at timeout."""
        timeout = max(0.0, min(float(timeout), self.authority.limits.longest_wait))
        deadline = time.monotonic() + timeout
        checked = 0.0
        while time.monotonic() < deadline:
            hint = self.authority.known_version(code)
            if hint is not None and hint != version:
                break
            if time.monotonic() - checked >= 1.0:  # writes from other processes: ask the store once a second
                checked = time.monotonic()
                if await loop.run_in_executor(_READS, self.authority.version, code) != version:
                    break
            await asyncio.sleep(0.05)
        return await loop.run_in_executor(_READS, self.authority.snapshot, code)


def routes(authority, key: str, prefix: str = "/treegames/api") -> list[tuple]:
    """The tornado routes of the experiments under ``prefix`` (one line in treegames.tables.http.routes)."""
    return [(rf"{prefix.rstrip('/')}/experiments/([a-z_]+)", ExperimentHandler,
             {"authority": authority, "key": key})]


def routes_for_store(store, key: str, prefix: str = "/treegames/api", source: str = "class-kernel",
                     teacher_code: str | None = None) -> list[tuple]:
    """The experiments' routes over the shared store: the one line ``treegames.tables.http.routes`` adds.

    ``source`` records which client type the batches come from: ``"class-kernel"`` on the class server,
    ``"hub-kernel"`` for the JupyterHub service (students there can run code).  The teacher code defaults
    to the class server's (``treegames.tables.codes.teacher_code`` in the store's data folder).
    """
    from .authority import ExperimentAuthority
    from .kinds import Source

    return routes(ExperimentAuthority(store, teacher_code, source=Source(source)), key, prefix)
