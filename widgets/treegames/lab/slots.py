"""Machine-wide worker slots: however many visitors run tournaments at once, at most one worker process per core.

Each slot is a lock file in the temporary folder, held with a file lock (:mod:`treegames.portable`) by the
process that runs the tournament (a kernel) for as long as its workers run.  A
lock held by a process that dies is released by the operating system, so a
killed kernel never leaves a slot taken.  A tournament that finds no free slot
plays in its own kernel instead (one core, like a small tournament).
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path
from typing import IO

from ..portable import LOCKS

__all__ = ["SLOT_DIR", "slot_count", "acquire", "release"]

SLOT_DIR = Path(tempfile.gettempdir()) / (
    "treegames-lab-slots-" + hashlib.sha256(str(Path(__file__).resolve().parent).encode()).hexdigest()[:12])
"""Where the slot lock files live: one set per installed copy of treegames (a class server shares one)."""


def slot_count() -> int:
    """Worker slots on this machine: one per core."""
    return max(1, os.cpu_count() or 1)


def acquire(wanted: int) -> list[IO]:
    """Take up to ``wanted`` free slots at once (never waiting); the open lock files held."""
    if LOCKS is None:
        return [None] * wanted  # type: ignore[list-item]
    SLOT_DIR.mkdir(parents=True, exist_ok=True)
    held: list[IO] = []
    for index in range(slot_count()):
        if len(held) >= wanted:
            break
        handle = open(SLOT_DIR / f"slot-{index}", "a+")  # noqa: SIM115 - kept open while the slot is held
        if not LOCKS.try_lock(handle):
            handle.close()
            continue
        held.append(handle)
    return held


def release(held: list[IO]) -> None:
    """Give slots back."""
    for handle in held:
        if handle is None:
            continue
        try:
            LOCKS.unlock(handle)
        finally:
            handle.close()
