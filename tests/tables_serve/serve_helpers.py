"""Helpers: a real tornado server in this process serving the tables' and experiments' routes over a fresh SQLite store."""

from __future__ import annotations

import asyncio
import threading

from tornado import httpserver, netutil, web

import harness
from treegames.service import routes

KEY = "a-test-key-for-the-table-routes"
TEACHER = "TEACHER9"


class LiveServer:
    """The routes on a loopback port, served by an event loop on a thread of its own (stopped by ``stop``)."""

    def __init__(self, store):
        self.store = store
        self.found = routes(store, KEY, teacher_code=TEACHER)
        self.authority = self.found[0][2]["services"]["tables"].target
        sockets = netutil.bind_sockets(0, "127.0.0.1")
        self.url = f"http://127.0.0.1:{sockets[0].getsockname()[1]}/treegames/api"
        self.loop = asyncio.new_event_loop()
        started = threading.Event()

        def run() -> None:
            asyncio.set_event_loop(self.loop)
            self.server = httpserver.HTTPServer(web.Application(self.found))
            self.server.add_sockets(sockets)
            self.loop.call_soon(started.set)
            self.loop.run_forever()

        self.thread = threading.Thread(target=run, name="table-routes", daemon=True)
        self.thread.start()
        assert started.wait(harness.DEADLINE), "the routes' event loop started"

    def stop(self) -> None:
        """Stop serving and end the loop's thread."""
        self.loop.call_soon_threadsafe(self.server.stop)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(harness.DEADLINE)
