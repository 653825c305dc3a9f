"""The shared tables (and class experiments) mounted in the class server's own process.

The server opens the store (SQLite in the data folder, or ``--store postgresql://...`` /
``$TREEGAMES_STORE_URL``), makes a random key, and adds ``<server url>treegames/api/...`` to Voilà's
tornado application. Every kernel -- preheated ones too, whose environment Voilà copies when the pool
is filled, before the server listens -- finds the mount in ``TREEGAMES_TABLES_URL`` and the key in
``TREEGAMES_TABLES_KEY``. So the port is chosen, and its socket bound, before any kernel starts: the URL
names the port the server really listens on, even when the asked one was taken. The page never sees
the key (it is in no HTML, no frame); only kernels call the mount.
"""

from __future__ import annotations

import errno
import os
import secrets
import socket
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from tornado import httpserver, netutil

from ..service import services, wire
from ..service.store import Store, open_store

__all__ = ["STORE_ENV", "Mount", "bind_first_free", "open_mount", "serve_on", "loopback_host"]

STORE_ENV = "TREEGAMES_STORE_URL"
"""A store URL for the class server (``postgresql://...``); without it, SQLite in the data folder."""
API = "treegames/api"
MAX_REQUEST_BODY = 4 * 1024 * 1024
"""The largest HTTP request body the class server reads at all (tornado's default is 100 MB): a visitor
cannot make it buffer more. The mount's own limit (``wire.MAX_BODY``) is smaller still."""


def bind_first_free(ports: Iterable[int], host: str) -> tuple[int, list[socket.socket]]:
    """The first port of ``ports`` that ``host`` can listen on, with its bound sockets (OSError if none)."""
    last: OSError | None = None
    for port in ports:
        try:
            return port, netutil.bind_sockets(port, host or None)
        except OSError as err:
            if err.errno not in (errno.EADDRINUSE, errno.EACCES):
                raise
            last = err
    raise last or OSError(errno.EADDRINUSE, "no free port")


def loopback_host(ip: str) -> str:
    """The address a kernel on this machine uses to reach a server listening on ``ip``, as a URL writes it."""
    if ip in ("", "0.0.0.0", "localhost", "::"):
        return "127.0.0.1"
    return f"[{ip}]" if ":" in ip and not ip.startswith("[") else ip  # an IPv6 address goes in brackets


@dataclass
class Mount:
    """The opened store, the key and the routes, ready to be added to the server's application."""

    store: Store
    key: str
    prefix: str
    routes: list
    teacher_code: str
    check_teacher: Callable[..., None]
    """The tables' teacher check (wrong codes counted), shared by the server's other teacher controls."""

    def kernel_env(self, host: str, port: int) -> dict[str, str]:
        """What every kernel needs in its environment to reach the mount over loopback."""
        return {wire.URL_ENV: f"http://{loopback_host(host)}:{port}{self.prefix}", wire.KEY_ENV: self.key}

    def export(self, host: str, port: int) -> None:
        """Put the kernels' variables in this process's environment (kernels inherit a copy of it)."""
        os.environ.update(self.kernel_env(host, port))


def open_mount(server_url: str = "/", store_url: str | None = None) -> Mount:
    """Open the store (``store_url``, else ``$TREEGAMES_STORE_URL``, else the SQLite file) and build the routes."""
    store = open_store(store_url or os.environ.get(STORE_ENV) or None)
    key = secrets.token_urlsafe(32)
    prefix = server_url.rstrip("/") + "/" + API
    served = {s.name: s for s in services(store)}
    tables = served["tables"].target
    return Mount(store, key, prefix, wire.routes(list(served.values()), key, prefix), tables.teacher_code,
                 tables.check_teacher)


def serve_on(app, sockets: list[socket.socket]):
    """An ``app.listen`` that serves on ``sockets`` already bound (the port the kernels were told)."""

    def listen(port: int, address: str = "", **kwargs) -> httpserver.HTTPServer:
        kwargs.setdefault("max_body_size", MAX_REQUEST_BODY)
        server = httpserver.HTTPServer(app, **kwargs)
        server.add_sockets(sockets)
        return server

    return listen
