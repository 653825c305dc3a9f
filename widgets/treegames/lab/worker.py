"""A tournament worker process: ``python -m treegames.lab.worker`` plays chunks of games sent on stdin.

The parent (:mod:`.runner`) writes length-prefixed pickles on the worker's stdin:
first the :class:`~.tournament.TournamentSpec`, then one ``(start, stop)`` chunk
at a time, then ``None``.  For each chunk the worker answers on stdout with
``("ok", start, records)`` or ``("error", start, traceback text)``.  A first
message with a ``serve`` method is a job that runs its own loop instead (a search
tree of :mod:`treegames.search.parallel`).  The worker
lowers its own priority first (``nice``).  A plain interpreter started with
``-m`` never re-imports the parent's main script, so it works the same from a
script, a test or a Jupyter kernel.
"""

from __future__ import annotations

import os
import sys
import traceback

from .pipes import receive, send
from .tournament import play_games

NICENESS = 5
"""How much a worker lowers its own scheduling priority."""


def main() -> int:
    """Serve chunks until None or end of input."""
    try:
        os.nice(NICENESS)
    except (AttributeError, OSError):  # pragma: no cover - not on every platform
        pass
    source, sink = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr  # nothing else may write on the message pipe
    try:
        spec = receive(source)
        if hasattr(spec, "serve"):  # a job that runs its own loop (a search tree: treegames.search.parallel)
            spec.serve(source, sink)
            return 0
        while (task := receive(source)) is not None:
            start, stop = task
            try:
                send(sink, ("ok", start, play_games(spec, start, stop)))
            except Exception:
                send(sink, ("error", start, traceback.format_exc(limit=6)))
                return 1
    except (EOFError, BrokenPipeError):  # the parent has gone (cancelled, or its kernel stopped): just leave
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
