"""The shared tables' HTTP routes (and the experiments' beside them), for the class server and the hub service.

``routes(store, key)`` gives one tornado route, ``<prefix>/(tables|experiments)/<method>``: the tables'
authority methods in :data:`.client.METHODS` and the experiments' (:mod:`treegames.experiments.http`),
over one store, with the wire rules of :mod:`.rpc` (key, status codes, pools, long polls). ``wait`` is a
long poll on the event loop: woken within 50 ms by a move made through this process (the store's change
notices; on PostgreSQL also other processes' moves, by LISTEN/NOTIFY) and asking the store once a second.
"""

from __future__ import annotations

from typing import Any

from ..experiments import http as experiments_http
from . import rpc
from .authority import Authority
from .client import METHODS, READ_METHODS, encode
from .errors import BadRequest, StoreError, TableError, TooLarge

__all__ = ["routes", "services", "service", "PREFIX"]

PREFIX = "/treegames/api"


def _waiter(authority: Authority):
    """The long poll of ``wait``: the view once the table's version differs from ``version``, or at timeout."""

    async def wait(read, token: str, version: int, timeout: float = 25.0, *, visitor: str | None = None) -> Any:
        number = isinstance(timeout, int | float) and not isinstance(timeout, bool)
        # the authority checks the arguments (a timeout that is not a number is refused there) and looks once
        view = await read(authority.wait, token, version, 0 if number else timeout, visitor=visitor)
        if view.version != version:
            return view
        channel = f"table:{view.table_id}"
        mark = authority.store.notices(channel)

        async def check() -> bool:
            return (await read(authority.view, token, visitor=visitor)).version != version

        await rpc.long_poll(lambda: authority.store.notices(channel) != mark, check,
                            min(max(0.0, float(timeout)), authority.limits.max_wait))
        return await read(authority.view, token, visitor=visitor)

    return wait


def service(authority: Authority) -> rpc.Service:
    """The shared tables as an RPC service over ``authority`` (the caller's identity goes in ``visitor``)."""
    return rpc.Service(name="tables", target=authority, methods=METHODS, refusal=TableError,
                       bad_request=BadRequest, too_large=TooLarge, max_body=authority.limits.max_request_bytes,
                       down=(StoreError,), down_name="StoreUnavailable", reads=READ_METHODS,
                       polls={"wait": _waiter(authority)}, encode=encode,
                       error_json=lambda err: err.to_json() if isinstance(err, TableError)
                       else {"error": type(err).__name__, "message": str(err)},
                       who="visitor")


def services(store, teacher_code: str | None = None, source: str = "class-kernel") -> list[rpc.Service]:
    """The tables' and the experiments' services over one store (``source``: who the kernels are)."""
    tables = Authority(store, teacher_code=teacher_code)
    experiments = experiments_http.authority_for_store(store, source, tables.teacher_code)
    return [service(tables), experiments_http.service(experiments)]


def routes(store, key: str, prefix: str = PREFIX, teacher_code: str | None = None,
           source: str = "class-kernel", handler: type[rpc.RpcHandler] = rpc.KeyHandler, **settings) -> list[tuple]:
    """The tornado routes of the tables and the experiments under ``prefix`` (the class server adds these)."""
    return rpc.routes(services(store, teacher_code, source), key, prefix, handler, **settings)
