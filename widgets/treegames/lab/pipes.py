"""Framed pickles between the tournament runner and its worker processes (both ends are ours)."""

from __future__ import annotations

import pickle
import struct
from typing import IO, Any

__all__ = ["HEADER", "send", "receive"]

HEADER = struct.Struct(">I")
"""Each message is a 4-byte big-endian length, then that many bytes of pickle."""


def send(stream: IO[bytes], message: Any) -> None:
    """Write one framed message and flush it."""
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(HEADER.pack(len(data)) + data)
    stream.flush()


def receive(stream: IO[bytes]) -> Any:
    """Read one framed message; EOFError when the other side has gone."""
    head = stream.read(HEADER.size)
    if len(head) < HEADER.size:
        raise EOFError("the other process closed the pipe")
    (size,) = HEADER.unpack(head)
    data = stream.read(size)
    if len(data) < size:
        raise EOFError("the other process closed the pipe mid-message")
    return pickle.loads(data)
