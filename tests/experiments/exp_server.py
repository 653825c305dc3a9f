"""A stand-alone experiment server for tests and the benchmark: the experiments' routes over a store file.

    python exp_server.py PORT STORE_URL_OR_PATH KEY TEACHER_CODE

Serves ``/treegames/api/experiments/<method>`` on 127.0.0.1:PORT (the same routes the class server
mounts) and prints "ready" once listening, over the shared tables' store (``treegames.service.store``).
"""

from __future__ import annotations

import asyncio
import logging
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))


def open_any_store(where: str):
    """The shared tables' store: a SQLite path, or a postgresql:// URL."""
    from exp_helpers import open_shared_store

    return open_shared_store(where if "://" in where else f"sqlite:///{Path(where).resolve()}")


async def main(port: int, where: str, key: str, teacher: str) -> None:
    from tornado import web

    from treegames.experiments import Source
    from treegames.experiments.http import routes_for_store

    logging.getLogger("tornado.access").setLevel(logging.WARNING)
    app = web.Application(routes_for_store(open_any_store(where), key, teacher_code=teacher,
                                           source=Source.CLASS_KERNEL.value))
    app.listen(port, address="127.0.0.1")
    print("ready", flush=True)
    await asyncio.Event().wait()


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]))
