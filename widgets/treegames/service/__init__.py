"""What the shared tables and the class experiments share on a server, so that neither imports the other.

* :mod:`.store`: one storage interface on SQLite or PostgreSQL, with each feature's migrations;
* :mod:`.errors`: the store's errors (``StoreError``, ``SchemaTooNew``, ``StoreUnavailable``);
* :mod:`.wire`: JSON over HTTP (one tornado handler, one client, the status codes, pools and long polls);
* :mod:`.codes`: join codes, seat tokens and the teacher code, and text that cannot be sent;
* :func:`services` / :func:`routes`: every feature's service over one store. A feature registers a
  factory ``factory(store, teacher_code, source) -> wire.Service`` under the ``treegames.services``
  entry-point group (``pyproject.toml``), as a game registers under ``treegames.games``; the class
  server and the hub service ask for all of them here.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib.metadata import entry_points

from . import wire

__all__ = ["GROUP", "PREFIX", "factories", "services", "routes", "ServiceMissing"]

GROUP = "treegames.services"
"""The entry-point group of the services a server offers."""

PREFIX = "/treegames/api"
"""Where the class server mounts the services (``<prefix>/<service>/<method>``)."""

REQUIRED = ("experiments", "tables")
"""The services every server offers; a missing one means the package was not installed (pip install -e .)."""


class ServiceMissing(RuntimeError):
    """A service the server needs is not registered: the package's entry points are missing or stale."""


def factories() -> dict[str, Callable]:
    """Each registered service's factory by name, in name order."""
    found = {point.name: point.load() for point in entry_points(group=GROUP)}
    missing = [name for name in REQUIRED if name not in found]
    if missing:
        raise ServiceMissing(f"The {', '.join(missing)} service is not registered under {GROUP!r}: reinstall "
                             "treegames (pip install -e .), which writes its entry points.")
    return dict(sorted(found.items()))


def services(store, teacher_code: str | None = None, source: str = "class-kernel") -> list[wire.Service]:
    """Every registered service over one store (``source``: who the kernels are, "class-kernel" or "hub-kernel")."""
    return [factory(store, teacher_code, source) for factory in factories().values()]


def routes(store, key: str, prefix: str = PREFIX, teacher_code: str | None = None, source: str = "class-kernel",
           handler: type[wire.RpcHandler] = wire.KeyHandler, **settings) -> list[tuple]:
    """The tornado routes of every service under ``prefix`` (the class server adds these)."""
    return wire.routes(services(store, teacher_code, source), key, prefix, handler, **settings)
