"""A stand-alone experiment server for tests and the benchmark: the experiments' routes over a store file.

    python exp_server.py PORT STORE_URL_OR_PATH KEY TEACHER_CODE

Serves ``/treegames/api/experiments/<method>`` on 127.0.0.1:PORT (the same routes the class server
mounts) and prints "ready" once listening.  It uses the shared tables' store when it is installed
(``treegames.tables.store.open_store``), else the interim SQLite store of exp_helpers.
"""

from __future__ import annotations

import asyncio
import logging
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))


def open_any_store(where: str):
    """The tables store when it exists (SQLite path or postgresql:// URL), else the interim SQLite store."""
    try:
        from treegames.tables.store import open_store

        from treegames.experiments import schema

        schema.register()
        url = where if "://" in where else f"sqlite:///{Path(where).resolve()}"
        return open_store(url)
    except ImportError:
        from exp_helpers import InterimPostgresStore, InterimStore

        return InterimPostgresStore(where) if where.startswith("postgresql://") else InterimStore(where)


async def main(port: int, where: str, key: str, teacher: str) -> None:
    from tornado import web

    from treegames.experiments import ExperimentAuthority, Source
    from treegames.experiments.http import routes

    logging.getLogger("tornado.access").setLevel(logging.WARNING)
    authority = ExperimentAuthority(open_any_store(where), teacher, source=Source.CLASS_KERNEL)
    app = web.Application(routes(authority, key))
    app.listen(port, address="127.0.0.1")
    print("ready", flush=True)
    await asyncio.Event().wait()


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]))
