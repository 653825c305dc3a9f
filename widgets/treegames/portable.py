"""What differs between operating systems, kept in this one module: a non-blocking lock on an open file.

The lab's machine-wide worker slots (:mod:`treegames.lab.slots`) hold one lock file per slot.  On Linux and
macOS that is ``fcntl.flock``; on Windows ``msvcrt.locking`` on the file's first byte.  Both are released by
the operating system when the holder dies, so a killed kernel never keeps a slot.  Where neither exists,
:data:`LOCKS` is ``None`` and the lab sets no machine-wide limit (it says so in :func:`lock_kind`).

Everything else on the serving path is plain Python (``subprocess``, ``psutil``, jupyter_client, tornado),
with no shell, ``setsid`` or ``make``.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import IO

__all__ = ["Locks", "LOCKS", "locks_from", "lock_kind"]


class Locks:
    """Non-blocking exclusive locks on open files, through the module this system provides."""

    def __init__(self, kind: str, module: ModuleType):
        self.kind = kind
        self.module = module

    def try_lock(self, handle: IO) -> bool:
        """Take the lock on ``handle`` now, or return False at once if another process holds it."""
        try:
            if self.kind == "fcntl":
                self.module.flock(handle, self.module.LOCK_EX | self.module.LOCK_NB)
            else:
                handle.seek(0)
                self.module.locking(handle.fileno(), self.module.LK_NBLCK, 1)
        except OSError:
            return False
        return True

    def unlock(self, handle: IO) -> None:
        """Release the lock on ``handle``."""
        if self.kind == "fcntl":
            self.module.flock(handle, self.module.LOCK_UN)
        else:
            handle.seek(0)
            self.module.locking(handle.fileno(), self.module.LK_UNLCK, 1)


def locks_from(find=importlib.import_module) -> Locks | None:
    """The file locks of this system: ``fcntl`` (POSIX), else ``msvcrt`` (Windows), else None."""
    for kind in ("fcntl", "msvcrt"):
        try:
            return Locks(kind, find(kind))
        except ImportError:
            continue
    return None


LOCKS = locks_from()
"""This system's file locks (None where there are none)."""


def lock_kind() -> str:
    """One sentence on how the lab limits worker processes on this system."""
    if LOCKS is None:
        return "This system has no file locks: the lab cannot share worker slots between kernels here."
    return f"Worker slots are held with {LOCKS.kind} locks, released by the system if a kernel dies."
