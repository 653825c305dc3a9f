"""The experiments' HTTP routes, mounted beside the shared tables' under ``/treegames/api/``.

``POST <prefix>/experiments/<method>`` with a JSON object of keyword arguments calls that method of the
authority (only the names in :data:`.client.METHODS`); the wire rules (the per-server key, status codes,
thread pools, long polls on the event loop) are the shared ones of :mod:`treegames.service.wire`.
``wait`` is a long poll woken within 50 ms by writes through this process, and looking at the store
once a second for writes from elsewhere.
"""

from __future__ import annotations

from ..service import wire
from ..service.errors import StoreError
from .client import KEY_HEADER, METHODS
from .errors import BatchTooLarge, ExperimentError

__all__ = ["routes", "service", "service_for_store", "routes_for_store", "ExperimentHandler", "MAX_BODY", "KEY_HEADER"]

MAX_BODY = 256 * 1024
"""The largest request body accepted (a batch of 1000 results is far smaller)."""
READ_METHODS = frozenset({"snapshot", "version", "wait", "me", "records", "teacher_view"})

ExperimentHandler = wire.KeyHandler
"""The handler (kept under its old name): the shared key-checked handler."""


def _waiter(authority):
    """The long poll of ``wait``: the snapshot once the class's version differs from ``version``, or at timeout."""

    async def wait(read, code: str, version: int, timeout: float = 10.0):
        try:
            timeout = max(0.0, min(float(timeout), authority.limits.longest_wait))
        except (TypeError, ValueError):
            raise ExperimentError("the timeout must be a number of seconds") from None

        def moved() -> bool:
            hint = authority.known_version(code) if isinstance(code, str) else None
            return hint is not None and hint != version

        async def check() -> bool:
            return await read(authority.version, code) != version

        await wire.long_poll(moved, check, timeout, authority.store.notices_)
        return await read(authority.snapshot, code)

    return wait


def service(authority) -> wire.Service:
    """The experiments as an RPC service over ``authority``."""
    return wire.Service(name="experiments", target=authority, methods=METHODS, refusal=ExperimentError,
                       bad_request=ExperimentError, too_large=BatchTooLarge, max_body=MAX_BODY,
                       down=(StoreError,), reads=READ_METHODS, polls={"wait": _waiter(authority)})


def routes(authority, key: str, prefix: str = "/treegames/api") -> list[tuple]:
    """The tornado routes of the experiments under ``prefix`` (the class server adds them beside the tables')."""
    return wire.routes([service(authority)], key, prefix)


def authority_for_store(store, source: str = "class-kernel", teacher_code: str | None = None):
    """The experiment authority over the shared store, recording batches as coming from ``source``."""
    from .authority import ExperimentAuthority
    from .kinds import Source

    return ExperimentAuthority(store, teacher_code, source=Source(source))


def service_for_store(store, teacher_code: str | None = None, source: str = "class-kernel") -> wire.Service:
    """The experiments' service over ``store``, recording batches as coming from ``source`` (its entry in the
    ``treegames.services`` group)."""
    return service(authority_for_store(store, source, teacher_code))


def routes_for_store(store, key: str, prefix: str = "/treegames/api", source: str = "class-kernel",
                     teacher_code: str | None = None) -> list[tuple]:
    """The experiments' routes alone over a store (a test's server; the class server serves every service).

    ``source`` records which client type the batches come from: ``"class-kernel"`` on the class server,
    ``"hub-kernel"`` for the JupyterHub service (students there can run code).  The teacher code defaults
    to the class server's (``treegames.service.codes.teacher_code`` in the store's data folder).
    """
    return routes(authority_for_store(store, source, teacher_code), key, prefix)
