"""The tables' HTTP routes and client against a real tornado server: credentials, refusals, long polls, hostile bodies."""

from __future__ import annotations

import dataclasses
import json
import threading
import time
import urllib.error
import urllib.request

import pytest
from serve_helpers import KEY, TEACHER

import harness
from treegames.experiments.errors import NoSuchRound
from treegames.service import wire
from treegames.tables import client as tables_client
from treegames.tables.errors import (
    BadRequest,
    BadToken,
    IllegalMove,
    NoSuchTable,
    NotTeacher,
    NotYourTurn,
    SeatTaken,
    StaleVersion,
    TableError,
    TooLarge,
)
from treegames.tables.views import TableSummary, TableView, Ticket


def post(live, method: str, body: bytes, key: str | None = KEY, service: str = "tables"):
    """(status, JSON answer) of a raw POST to the routes."""
    headers = {"X-Treegames-Key": key} if key is not None else {}
    request = urllib.request.Request(f"{live.url}/{service}/{method}", data=body, method="POST", headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=harness.DEADLINE) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


def started(client):
    """A two-person Aspens table with both seats taken: (ticket of the seat to move, the other ticket, view)."""
    first = client.create_table("aspens", None, ["person", "person"], visitor="a", label="a")
    second = client.join(first.code, visitor="b")
    view = client.view(first.token)
    mover, other = (first, second) if view.current_player == first.seat else (second, first)
    return mover, other, client.view(mover.token)


def test_a_call_without_the_server_key_is_refused_and_reaches_nothing(live):
    assert post(live, "open_tables", b"{}", key=None)[0] == 403
    status, body = post(live, "open_tables", b"{}", key="wrong-key")
    assert status == 403 and body["error"] == "NotAllowed"
    with pytest.raises(TableError, match="only the class server's kernels"):
        tables_client.connect(live.url, "wrong-key").create_table("aspens", None, ["person", "person"])
    assert live.authority.overview(TEACHER) == []


@pytest.mark.parametrize("method", ["state_of", "log_of", "_holder", "_row", "nonsense"])
def test_only_the_listed_methods_are_reachable(live, method):
    status, body = post(live, method, b"{}")
    assert status == 404 and body["error"] == "NoSuchMethod"


def test_a_megabyte_move_is_refused_as_too_large_and_the_table_is_unchanged(live):
    client = tables_client.connect(live.url, KEY)
    mover, _other, view = started(client)
    before = live.authority.log_of(view.table_id)
    with pytest.raises(TooLarge, match="bytes"):
        client.move(mover.token, view.version, "x" * 1_000_000)
    status, body = post(live, "move", json.dumps({"token": mover.token, "version": view.version,
                                                  "action": "y" * 1_000_000}).encode())
    assert status == 413 and body["error"] == "TooLarge"
    assert live.authority.log_of(view.table_id) == before
    assert client.view(mover.token).version == view.version


def test_each_refusal_comes_back_as_its_own_class(live):
    client = tables_client.connect(live.url, KEY)
    mover, other, view = started(client)
    with pytest.raises(NotYourTurn):
        client.move(other.token, view.version, view.legal[0])
    with pytest.raises(IllegalMove):
        client.move(mover.token, view.version, "seed Z99")
    with pytest.raises(BadToken):
        client.view("not-a-token-anyone-holds")
    with pytest.raises(NoSuchTable):
        client.join("ZZZZZZ", visitor="c")
    with pytest.raises(NotTeacher):
        client.overview("WRONG-CODE")
    with pytest.raises(SeatTaken):
        client.join(view.code, visitor="c", seat=0)
    moved = client.move(mover.token, view.version, view.legal[0])
    with pytest.raises(StaleVersion) as stale:
        client.move(mover.token, view.version, view.legal[0])
    assert stale.value.current == moved.version


def test_answers_are_the_authoritys_own_objects_the_same_over_http_and_in_process(live, monkeypatch):
    remote = tables_client.connect(live.url, KEY)
    local = tables_client.local(live.authority)
    mover, _other, view = started(remote)
    # the views say how long ago each seat was seen (to 0.1 s): the authority's clock stands still from here, so
    # the two ways of asking are compared on what they answer, not on how much time passed between the asks
    now = time.time()
    monkeypatch.setattr(live.authority, "clock", lambda: now)
    assert isinstance(mover, Ticket) and isinstance(view, TableView)
    assert local.view(mover.token) == remote.view(mover.token)
    assert remote.overview(TEACHER) == local.overview(TEACHER)
    waiting = remote.create_table("bosk", None, ["person", "person"], visitor="z")
    found = remote.open_tables("bosk")
    assert [s.code for s in found] == [waiting.code] and isinstance(found[0], TableSummary)
    assert remote.reset_all(TEACHER) == 2


def first_looks(live, monkeypatch) -> list:
    """The versions the server's long polls saw at their first look (each looks once, then waits for a notice)."""
    looks: list = []
    real = live.authority.wait

    def wait(*args, **kwargs):
        view = real(*args, **kwargs)
        looks.append(view.version)
        return view

    monkeypatch.setattr(live.authority, "wait", wait)
    return looks


def outlasting_timeout(live, monkeypatch) -> float:
    """A long-poll timeout (seconds) longer than all of a test's waits together; the server allows it for this test.

    A long poll answers when something wakes it or at its timeout, and a timed-out poll on a table that has
    moved meanwhile answers with the new version too, so neither the answer alone nor its speed tells the two
    apart. With this timeout a poll that is not woken answers only after the test has stopped waiting for it:
    an answer within the test's waits proves the move woke the poll, however slow or busy the machine.
    """
    timeout = 4 * harness.DEADLINE * harness.DEADLINE_SCALE
    monkeypatch.setattr(live.authority, "limits", dataclasses.replace(live.authority.limits, max_wait=timeout))
    return timeout


def test_a_long_poll_wakes_when_the_other_player_moves(live, monkeypatch):
    client = tables_client.connect(live.url, KEY)
    mover, other, view = started(client)
    looks = first_looks(live, monkeypatch)
    timeout = outlasting_timeout(live, monkeypatch)
    woken: list = []
    poll = threading.Thread(target=lambda: woken.append(client.wait(other.token, view.version, timeout)),
                            daemon=True)
    poll.start()
    harness.wait_until(lambda: looks, what="the long poll waiting at the server")
    client.move(mover.token, view.version, view.legal[0])
    poll.join(harness.DEADLINE * harness.DEADLINE_SCALE)
    assert woken, "the poll did not answer before its timeout: the move did not wake it"
    woke = woken[0]
    assert woke.version > view.version and woke.log[-1]["version"] == woke.version


def test_a_move_wakes_the_long_poll_at_once_not_at_its_next_look(live, monkeypatch):
    """The move's change notice rings the waiting poll: with its periodic looks pushed past the test's deadline,
    only the notice can answer it in time (before, a poll looked every 50 ms: up to 50 ms added to each move)."""
    never = 10 * harness.DEADLINE * harness.DEADLINE_SCALE
    monkeypatch.setattr(wire, "POLL_STEP", never)
    monkeypatch.setattr(wire, "RECHECK", never)
    test_a_long_poll_wakes_when_the_other_player_moves(live, monkeypatch)


def test_thirty_long_polls_hold_no_thread_each_and_all_wake_on_one_move(live, monkeypatch):
    """More waiters than the server has threads: if each held one, most would only answer at the timeout."""
    client = tables_client.connect(live.url, KEY)
    mover, other, view = started(client)
    looks = first_looks(live, monkeypatch)
    timeout = outlasting_timeout(live, monkeypatch)
    answers: list[int] = []

    def watch() -> None:
        answers.append(client.wait(other.token, view.version, timeout).version)

    waiters = [threading.Thread(target=watch, daemon=True) for _ in range(30)]
    for w in waiters:
        w.start()
    harness.wait_until(lambda: len(looks) >= 30, what="thirty long polls waiting at the server")
    client.move(mover.token, view.version, view.legal[0])
    deadline = time.monotonic() + harness.DEADLINE * harness.DEADLINE_SCALE
    for w in waiters:
        w.join(max(0.0, deadline - time.monotonic()))
    # every poll answered before its timeout (see outlasting_timeout): the one move woke all thirty
    assert len(answers) == 30 and min(answers) > view.version


@pytest.mark.parametrize("body", [b"not json", b"[1, 2]", b'"text"', b"\xff\xfe", b'{"token": "x", "nonsense": 1}',
                                  b'{"tokn": "x", "version": 0, "action": "seed G4"}', b'{"version": "x"}'])
def test_a_hostile_body_is_a_clean_400_that_changes_nothing(live, body):
    client = tables_client.connect(live.url, KEY)
    mover, _other, view = started(client)
    before = live.authority.log_of(view.table_id)
    status, answer = post(live, "move", body)
    assert status == 400 and answer["error"] == "BadRequest" and answer["message"]
    assert "Traceback" not in json.dumps(answer)
    assert live.authority.log_of(view.table_id) == before and client.view(mover.token).version == view.version


def test_wrong_types_in_the_right_names_are_the_authoritys_refusals(live):
    client = tables_client.connect(live.url, KEY)
    mover, _other, view = started(client)
    status, answer = post(live, "move", json.dumps({"token": mover.token, "version": "1", "action": "x"}).encode())
    assert status == 400 and answer["error"] == "BadRequest"
    status, answer = post(live, "wait", json.dumps({"token": mover.token, "version": True}).encode())
    assert status == 400 and answer["error"] == "BadRequest"
    with pytest.raises(BadRequest):
        client.wait(mover.token, view.version, "soon")
    assert client.view(mover.token).version == view.version


def test_hint_allowed_crosses_the_wire_only_with_create_and_a_page_cannot_send_it_later(live):
    client = tables_client.connect(live.url, KEY)
    practice = client.create_table("aspens", None, ["person", "greedy"], visitor="p", hint_allowed=True)
    assert client.view(practice.token).hint_allowed is True
    mover, other, view = started(client)  # created without it
    assert view.hint_allowed is False
    status, answer = post(live, "create_table", json.dumps({"game": "aspens", "options": None,
                                                            "seats": ["person", "person"],
                                                            "hint_allowed": "true"}).encode())
    assert status == 400 and answer["error"] == "BadRequest" and "true or false" in answer["message"]
    waiting = client.create_table("aspens", None, ["person", "person"], visitor="w")
    forged = [("join", {"code": waiting.code, "visitor": "c", "hint_allowed": True}),
              ("move", {"token": mover.token, "version": view.version, "action": view.legal[0],
                        "hint_allowed": True}),
              ("view", {"token": other.token, "hint_allowed": True}),
              ("wait", {"token": other.token, "version": view.version, "timeout": 0, "hint_allowed": True}),
              ("resume", {"token": other.token, "hint_allowed": True})]
    for method, body in forged:
        status, answer = post(live, method, json.dumps(body).encode())
        assert (status, answer["error"]) == (400, "BadRequest"), (method, answer)
    assert [client.view(t.token).hint_allowed for t in (mover, other)] == [False, False]
    assert client.view(mover.token).version == view.version, "the forged move was not played"
    joined = client.join(waiting.code, visitor="c")  # the seat was still free: the forged join took nothing
    assert client.view(joined.token).hint_allowed is False


def test_the_experiments_are_served_beside_the_tables(live):
    from treegames.experiments.client import connect

    with pytest.raises(NoSuchRound):
        connect(live.url, KEY).snapshot(code="ZZZZZ")
    opened = connect(live.url, KEY).open_experiment(teacher_code=TEACHER, kind="sun-die",
                                                    settings={"stacks": [4, 3, 2]})
    assert connect(live.url, KEY).snapshot(code=opened["code"])["n"] == 0


def test_the_client_writes_out_every_method_with_the_authoritys_own_signature():
    import inspect

    from treegames.tables.authority import Authority

    api = tables_client.TablesApi
    assert set(tables_client.METHODS) == {name for name in vars(api) if not name.startswith("_")}
    for name in tables_client.METHODS:
        assert inspect.signature(getattr(api, name)) == inspect.signature(getattr(Authority, name)), name
    assert not hasattr(api, "__getattr__"), "no method is made up by name"
