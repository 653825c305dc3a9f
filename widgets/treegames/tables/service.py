"""``python -m treegames.tables.service``: the shared tables as a JupyterHub-managed service.

The hub starts it (``deploy/jupyterhub_config.py``) with ``JUPYTERHUB_SERVICE_URL`` (where to listen),
``JUPYTERHUB_SERVICE_PREFIX`` (``/services/treegames-tables/``) and its own API token. It serves
``<prefix>api/tables/<method>`` and ``<prefix>api/experiments/<method>`` (:mod:`treegames.service.wire`'s rules), and is
the only writer of the store: on a hub students can run code in their kernels, so nothing but this
process holds the database (SQLite in its data folder, ``$TREEGAMES_DATA_DIR``; or
``$TREEGAMES_STORE_URL`` for PostgreSQL).

Each call carries the caller's hub token (``Authorization: token $JUPYTERHUB_API_TOKEN``, which every
user's kernel has). The hub says whose token it is and whether it may use this service
(``access:services!service=treegames-tables``); the user's name is passed to the authority as
``visitor``, so a seat is bound to the hub user who took it: another user holding its token still
cannot move or look from it. Experiment batches are recorded as coming from "hub-kernel".
"""

from __future__ import annotations

import logging
import os
import sys
from urllib.parse import urlparse

from tornado import web
from tornado.ioloop import IOLoop

from ..service import services, wire
from ..service.codes import shown_code
from ..service.store import open_store

__all__ = ["HubHandler", "NAME", "make_app", "main"]

NAME = "treegames-tables"
STORE_ENV = "TREEGAMES_STORE_URL"
_LOG = logging.getLogger("treegames.tables.service")


class HubHandler(wire.RpcHandler):
    """The RPC handler identifying each caller by their hub token (a user allowed to use this service)."""

    def initialize(self, services: dict, hub_auth) -> None:
        super().initialize(services)
        self.hub_auth = hub_auth

    async def identify(self) -> str | None:
        """The hub user's name for the request's token, or None (no token, not a user, or not allowed here)."""
        token = self.hub_auth.get_token(self, in_cookie=False)
        if not token:
            return None
        try:
            model = await self.hub_auth.user_for_token(token, sync=False)
        except Exception:  # the hub did not answer or refused the token: nobody is identified
            _LOG.warning("the hub did not identify a caller", exc_info=True)
            return None
        if not model or model.get("kind", "user") != "user" or not model.get("name"):
            return None
        needed = self.hub_auth.access_scopes
        if needed and not self.hub_auth.check_scopes(needed, model):
            return None
        return str(model["name"])

    def refused(self) -> str:
        """The sentence sent with 403."""
        return "only a hub user's kernel with access to this service may call it (send its hub token)"


class Health(web.RequestHandler):
    """``GET <prefix>``: a plain answer saying the service runs (the hub and people may look)."""

    def get(self) -> None:
        self.set_header("Content-Type", "text/plain; charset=utf-8")
        self.finish("treegames tables: running\n")


def make_app(served: list[wire.Service], prefix: str, hub_auth) -> web.Application:
    """The service's application: the RPC routes under ``<prefix>api`` and a health page at ``prefix``."""
    prefix = prefix.rstrip("/") + "/"
    found = wire.routes(served, "", prefix + "api", HubHandler, hub_auth=hub_auth)
    return web.Application([*found, (prefix.rstrip("/") + "/?", Health)])


def main() -> None:
    """Start the service where the hub says, on the store the environment names."""
    from jupyterhub.services.auth import HubAuth

    logging.basicConfig(level=logging.INFO, format="[treegames-tables] %(message)s")
    url = urlparse(os.environ.get("JUPYTERHUB_SERVICE_URL", "http://127.0.0.1:10101"))
    prefix = os.environ.get("JUPYTERHUB_SERVICE_PREFIX", f"/services/{NAME}/")
    store = open_store(os.environ.get(STORE_ENV) or None)
    served = services(store, source="hub-kernel")
    make_app(served, prefix, HubAuth()).listen(url.port or 80, url.hostname or "127.0.0.1")
    teacher = next(s for s in served if s.name == "tables").target.teacher_code
    print(f"treegames tables service on {url.geturl()}{prefix}\n"
          f"  store: {store.describe()}\n  teacher code: {shown_code(teacher)}", file=sys.stderr, flush=True)
    try:
        IOLoop.current().start()
    finally:
        store.close()


if __name__ == "__main__":
    main()
