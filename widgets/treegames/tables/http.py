"""The shared tables as a service on the wire, for the class server and the hub service.

``service(authority)`` offers the authority methods in :data:`.client.METHODS` at
``<prefix>/tables/<method>`` with the rules of :mod:`treegames.service.wire` (key, status codes, pools,
long polls); :func:`treegames.service.routes` serves it beside the experiments. ``wait`` is a
long poll on the event loop: woken within 50 ms by a move made through this process (the store's change
notices; on PostgreSQL also other processes' moves, by LISTEN/NOTIFY) and asking the store once a second.
"""

from __future__ import annotations

from typing import Any

from ..service import wire
from .authority import Authority
from .client import METHODS, READ_METHODS, encode
from .errors import BadRequest, StoreError, TableError, TooLarge

__all__ = ["service", "service_for_store"]


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

        await wire.long_poll(lambda: authority.store.notices(channel) != mark, check,
                            min(max(0.0, float(timeout)), authority.limits.max_wait), authority.store.notices_)
        return await read(authority.view, token, visitor=visitor)

    return wait


def service(authority: Authority) -> wire.Service:
    """The shared tables as an RPC service over ``authority`` (the caller's identity goes in ``visitor``)."""
    return wire.Service(name="tables", target=authority, methods=METHODS, refusal=TableError,
                       bad_request=BadRequest, too_large=TooLarge, max_body=authority.limits.max_request_bytes,
                       down=(StoreError,), down_name="StoreUnavailable", reads=READ_METHODS,
                       polls={"wait": _waiter(authority)}, encode=encode,
                       error_json=lambda err: err.to_json() if isinstance(err, TableError)
                       else {"error": type(err).__name__, "message": str(err)},
                       who="visitor")


def service_for_store(store, teacher_code: str | None = None, source: str = "class-kernel") -> wire.Service:
    """The tables' service over ``store`` (its entry in the ``treegames.services`` group; ``source`` is unused)."""
    return service(Authority(store, teacher_code=teacher_code))
