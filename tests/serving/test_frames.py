"""The v1 frame checks: every rule of the frame layout, and no frame can make the check slow or crash it."""

from __future__ import annotations

import json
import tracemalloc

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from treegames.serving.frames import BadFrame, check_v1_frame, pack_v1_frame

LIMIT = 1 << 20
HEADER = json.dumps({"msg_id": "1", "msg_type": "comm_msg", "session": "s", "username": "", "version": "5.3"})


def good(buffers: int = 0) -> bytes:
    """A frame as a browser sends it."""
    return pack_v1_frame("shell", [HEADER.encode(), b"{}", b"{}", b'{"comm_id": "x"}', *[b"\x01\x02"] * buffers])


def with_offsets(frame: bytes, offsets: list[int], count: int | None = None) -> bytes:
    """The same frame with its offset table rewritten."""
    n = int.from_bytes(frame[:8], "little")
    body = frame[8 * (n + 1):]
    count = len(offsets) if count is None else count
    return count.to_bytes(8, "little") + b"".join(o.to_bytes(8, "little") for o in offsets) + body


def offsets_of(frame: bytes) -> list[int]:
    n = int.from_bytes(frame[:8], "little")
    return [int.from_bytes(frame[8 * (i + 1):8 * (i + 2)], "little") for i in range(n)]


def test_a_browser_frame_passes_and_splits_into_channel_and_parts():
    frame = check_v1_frame(good(buffers=2), LIMIT, 16)
    assert frame.channel == "shell"
    assert frame.msg_type == "comm_msg"
    assert frame.parts[3] == b'{"comm_id": "x"}'
    assert frame.parts[4:] == [b"\x01\x02", b"\x01\x02"]


def test_the_server_serialiser_and_ours_agree():
    from jupyter_server.services.kernels.connection.base import deserialize_msg_from_ws_v1

    channel, parts = deserialize_msg_from_ws_v1(good(buffers=1))
    assert (channel, parts) == ("shell", check_v1_frame(good(buffers=1), LIMIT, 16).parts)


def test_a_huge_offset_count_is_refused_at_once():
    frame = (2 ** 34).to_bytes(8, "little") + good()[8:]
    with pytest.raises(BadFrame, match="offset count 17179869184"):
        assert peak_bytes(frame) < 10_000, "the count is bounded before any list is built"


def peak_bytes(frame: bytes) -> int:
    """Peak memory the check allocates for one frame (it raises BadFrame for a bad one)."""
    tracemalloc.start()
    try:
        check_v1_frame(frame, LIMIT, 16)
    finally:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        assert peak < 10_000 + 2 * len(frame), f"checking a {len(frame)}-byte frame took {peak} bytes"
    return peak


def test_an_offset_table_longer_than_the_frame_is_refused():
    frame = (22).to_bytes(8, "little") + b"\0" * 40
    with pytest.raises(BadFrame, match="runs past the frame"):
        check_v1_frame(frame, LIMIT, 16)


def test_offsets_going_backwards_are_refused():
    frame = good()
    offsets = offsets_of(frame)
    offsets[2], offsets[3] = offsets[3], offsets[2]
    with pytest.raises(BadFrame, match="backwards"):
        check_v1_frame(with_offsets(frame, offsets), LIMIT, 16)


def test_a_first_offset_not_after_the_table_is_refused():
    frame = good()
    offsets = offsets_of(frame)
    offsets[0] = 0
    with pytest.raises(BadFrame, match="first offset"):
        check_v1_frame(with_offsets(frame, offsets), LIMIT, 16)


def test_an_offset_past_the_end_is_refused():
    frame = good()
    offsets = offsets_of(frame)
    offsets[-1] = 10 ** 12
    with pytest.raises(BadFrame, match="truncated"):
        check_v1_frame(with_offsets(frame, offsets), LIMIT, 16)


@pytest.mark.parametrize("cut", [1, 7, 30, 60, -1])
def test_a_truncated_frame_is_refused(cut):
    with pytest.raises(BadFrame):
        check_v1_frame(good()[:cut], LIMIT, 16)


def test_a_text_frame_is_refused_on_the_binary_protocol():
    with pytest.raises(BadFrame, match="binary"):
        check_v1_frame('{"channel": "shell"}', LIMIT, 16)


def test_a_frame_over_the_size_limit_is_refused():
    big = pack_v1_frame("shell", [HEADER.encode(), b"{}", b"{}", b"x" * (LIMIT + 1)])
    with pytest.raises(BadFrame, match="over the"):
        check_v1_frame(big, LIMIT, 16)


def test_too_many_buffers_are_refused():
    with pytest.raises(BadFrame, match="offset count"):
        check_v1_frame(good(buffers=17), LIMIT, 16)


def test_the_iopub_channel_and_unknown_channels_are_refused():
    for channel in ("iopub", "shellx", "\u00e9"):
        frame = pack_v1_frame("shell", [HEADER.encode(), b"{}", b"{}", b"{}"]).replace(b"shell", channel.encode())
        with pytest.raises(BadFrame):
            check_v1_frame(with_offsets(frame, recount(frame, channel)), LIMIT, 16)


def recount(frame: bytes, channel: str) -> list[int]:
    """Offsets of a frame whose 5-byte channel name became ``channel``."""
    offsets = offsets_of(frame)
    grow = len(channel.encode()) - 5
    return [offsets[0]] + [o + grow for o in offsets[1:]]


def test_a_header_that_is_not_json_or_has_no_type_is_refused():
    for header in (b"\xff\xfe", b"[1, 2]", b'{"msg_id": "1"}'):
        with pytest.raises(BadFrame, match="header"):
            check_v1_frame(pack_v1_frame("shell", [header, b"{}", b"{}", b"{}"]), LIMIT, 16)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=400))
def test_random_bytes_are_either_refused_clearly_or_accepted_whole(data):
    try:
        frame = check_v1_frame(data, LIMIT, 16)
    except BadFrame:
        return
    assert pack_v1_frame(frame.channel, frame.parts) == data


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=2 ** 64 - 1), min_size=1, max_size=30), st.binary(max_size=200))
def test_any_offset_table_is_checked_in_memory_proportional_to_the_frame(offsets, tail):
    frame = b"".join(o.to_bytes(8, "little") for o in offsets) + tail
    with pytest.raises(BadFrame):
        peak_bytes(frame)


def comm_frame(content: bytes, msg_type: str = "comm_msg", buffers: int = 0):
    """A checked frame of ``msg_type`` carrying ``content``."""
    header = json.dumps({"msg_id": "1", "msg_type": msg_type, "session": "s", "username": "", "version": "5.3"})
    return check_v1_frame(pack_v1_frame("shell", [header.encode(), b"{}", b"{}", content, *[b"\x01"] * buffers]),
                          LIMIT, 16)


def test_a_widget_state_request_is_told_apart_from_other_comm_messages():
    request = b'{"comm_id": "abc", "data": {"method": "request_state"}}'
    assert comm_frame(request).is_state_request()
    assert not comm_frame(b'{"comm_id": "abc", "data": {"method": "custom", "content": {"event": "click"}}}'
                          ).is_state_request()
    assert not comm_frame(b'{"comm_id": "abc", "data": {"method": "request_state", "x": 1}}').is_state_request()
    assert not comm_frame(request, msg_type="comm_open").is_state_request()
    assert not comm_frame(request, buffers=1).is_state_request()
    assert not comm_frame(b'{"comm_id": "' + b"a" * 600 + b'", "data": {"method": "request_state"}}').is_state_request()
    assert not comm_frame(b"not json").is_state_request()
    assert not comm_frame(b'["a list"]').is_state_request()
