"""Checks on kernel-websocket frames, done before any parser trusts them.

The v1 kernel websocket protocol (``v1.kernel.websocket.jupyter.org``) packs one kernel message in a
binary frame: an 8-byte little-endian count ``n`` of offsets, then ``n`` 8-byte offsets, then the channel
name and the message parts (header, parent header, metadata, content, then any binary buffers). Offset
``i`` is where piece ``i`` starts; the last offset is the end of the frame.

jupyter_server's ``deserialize_msg_from_ws_v1`` builds a list of as many offsets as the first 8 bytes
say, so one frame claiming 2**34 offsets freezes the server's event loop. ``check_v1_frame`` reads the
count, bounds it by the frame's own length and by ``max_buffers``, and checks every offset (first one right
after the table, each no smaller than the one before, the last one exactly the frame's end) before a
single part is sliced, so its cost is proportional to the frame's length whatever the frame claims.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

CLIENT_CHANNELS = frozenset({"shell", "control", "stdin"})
"""Channels a browser may send on (iopub only flows from the kernel)."""

MESSAGE_PARTS = 4
"""Header, parent header, metadata and content: the parts every kernel message has."""

WORD = 8

STATE_REQUEST_BYTES = 512
"""A widget state request is a comm id and one method name: far shorter than this."""


class BadFrame(ValueError):
    """A kernel-websocket frame that breaks the protocol; the message says which rule."""


@dataclass(frozen=True)
class Frame:
    """A checked v1 frame: its channel, its raw parts and its decoded header."""

    channel: str
    parts: list[bytes]
    header: dict

    @property
    def msg_type(self) -> str:
        """The kernel message type named in the header (e.g. ``comm_msg``)."""
        return self.header["msg_type"]

    def is_state_request(self) -> bool:
        """Whether this is a widget manager's request for one widget's state (a small comm_msg, method request_state)."""
        if self.msg_type != "comm_msg" or len(self.parts[3]) > STATE_REQUEST_BYTES or len(self.parts) > MESSAGE_PARTS:
            return False
        try:
            content = json.loads(self.parts[3])
        except (UnicodeDecodeError, ValueError):
            return False
        data = content.get("data") if isinstance(content, dict) else None
        return isinstance(data, dict) and data.get("method") == "request_state" and len(data) == 1


def offset_count_limit(max_buffers: int) -> int:
    """Largest offset count a frame may carry: channel start and end, the four parts, the buffers."""
    return 2 + MESSAGE_PARTS + max_buffers


def read_offsets(data: bytes, max_buffers: int) -> list[int]:
    """The frame's offsets, each checked to lie inside the frame and in order; raises BadFrame."""
    if len(data) < WORD:
        raise BadFrame(f"frame of {len(data)} bytes is shorter than its 8-byte offset count")
    count = int.from_bytes(data[:WORD], "little")
    least, most = 2 + MESSAGE_PARTS, offset_count_limit(max_buffers)
    if not least <= count <= most:
        raise BadFrame(f"offset count {count} is outside {least}..{most}")
    table_end = WORD * (count + 1)
    if table_end > len(data):
        raise BadFrame(f"offset table of {count} entries runs past the frame's {len(data)} bytes")
    offsets = [int.from_bytes(data[WORD * (i + 1):WORD * (i + 2)], "little") for i in range(count)]
    if offsets[0] != table_end:
        raise BadFrame(f"first offset {offsets[0]} is not the end of the offset table ({table_end})")
    for before, after in zip(offsets, offsets[1:], strict=False):
        if after < before:
            raise BadFrame(f"offsets go backwards ({before} then {after})")
    if offsets[-1] != len(data):
        raise BadFrame(f"last offset {offsets[-1]} is not the frame's length {len(data)} (truncated or padded)")
    return offsets


def check_v1_frame(data: bytes | str, max_bytes: int, max_buffers: int) -> Frame:
    """Check one client frame of the v1 protocol and split it; raises BadFrame naming the broken rule."""
    if not isinstance(data, bytes | bytearray | memoryview):
        raise BadFrame("the v1 protocol sends kernel messages as binary frames, not text")
    data = bytes(data)
    if len(data) > max_bytes:
        raise BadFrame(f"frame of {len(data)} bytes is over the {max_bytes}-byte limit")
    offsets = read_offsets(data, max_buffers)
    try:
        channel = data[offsets[0]:offsets[1]].decode("ascii")
    except UnicodeDecodeError:
        raise BadFrame("channel name is not ASCII") from None
    if channel not in CLIENT_CHANNELS:
        raise BadFrame(f"channel {channel[:20]!r} is not one of {sorted(CLIENT_CHANNELS)}")
    parts = [data[start:end] for start, end in zip(offsets[1:], offsets[2:], strict=False)]
    try:
        header = json.loads(parts[0])
    except (UnicodeDecodeError, ValueError):
        raise BadFrame("message header is not JSON") from None
    if not isinstance(header, dict) or not isinstance(header.get("msg_type"), str):
        raise BadFrame("message header has no msg_type")
    return Frame(channel, parts, header)


def pack_v1_frame(channel: str, parts: list[bytes]) -> bytes:
    """A v1 frame for ``parts`` on ``channel`` (what a browser sends); the inverse of check_v1_frame."""
    pieces = [channel.encode("ascii"), *parts]
    count = len(pieces) + 1
    offsets = [WORD * (count + 1)]
    for piece in pieces:
        offsets.append(offsets[-1] + len(piece))
    table = b"".join(n.to_bytes(WORD, "little") for n in [count, *offsets])
    return table + b"".join(pieces)
