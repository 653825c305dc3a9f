"""The experiments over real HTTP processes: refusals on the wire, a killed kernel, a restarted server, a class of 30."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time

import pytest
from exp_helpers import HERE, KEY, TEACHER, ExperimentServer, free_port, wait_until

import harness
from treegames.experiments import BadOutcome, ExperimentError, NotTeacher, domain_for
from treegames.experiments.client import HttpClient, Unavailable
from treegames.experiments.limits import Limits

pytestmark = pytest.mark.slow


@pytest.fixture(params=["sqlite", "postgresql"])
def where(request, tmp_path):
    """Where the store lives: a SQLite file, or a fresh database on the session's PostgreSQL server."""
    if request.param == "sqlite":
        return str(tmp_path / "treegames.sqlite3")
    import psycopg

    server = request.getfixturevalue("postgres")
    name = f"s{abs(hash(request.node.nodeid)) % 10**12}"
    with psycopg.connect(server.url, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    return server.url.rsplit("/", 1)[0] + f"/{name}"


@pytest.fixture
def server(where):
    s = ExperimentServer(where)
    yield s
    s.stop()


def open_sun(client):
    return client.open_experiment(teacher_code=TEACHER, kind="sun-die", settings={"stacks": [4, 3, 2]})["code"]


def test_refusals_come_back_as_the_same_errors(server):
    client = server.client()
    with pytest.raises(NotTeacher):
        client.open_experiment(teacher_code="guess", kind="sun-die", settings={})
    code = open_sun(client)
    me = client.join(code=code)
    with pytest.raises(BadOutcome, match="not a possible result"):
        client.contribute(token=me["token"], batch_id="x", counts={"9": 1})
    assert client.snapshot(code=code)["n"] == 0


def test_without_the_server_key_nothing_is_reachable(server):
    stranger = HttpClient(server.url, "wrong-key")
    with pytest.raises(ExperimentError, match="only the class server's kernels"):
        stranger.snapshot(code="AAAAA")
    with pytest.raises(Unavailable):
        HttpClient(f"http://127.0.0.1:{free_port()}/treegames/api", KEY).snapshot(code="AAAAA")


def test_a_long_poll_returns_as_soon_as_a_batch_lands(server):
    client = server.client()
    code = open_sun(client)
    me = client.join(code=code)
    version = client.snapshot(code=code)["version"]
    # modelled time: a student's batch lands 0.3 s into the poll (the server is another process: the test cannot
    # see its poll waiting; should the batch land first, the poll returns at once and all still holds)
    threading.Timer(0.3, lambda: server.client().contribute(token=me["token"], batch_id="a",
                                                            counts={"0": 2})).start()
    # The poll asks for longer than the test would wait; the server holds a poll at most ``longest_wait`` seconds,
    # counted from when it took the request, which is after ``asked``. A poll the batch did not wake answers only
    # at that timeout (with the batch in it too), so answering sooner is what proves the batch woke it: the bound
    # is the poll's own timeout, not a guess at the machine's speed, and the batch has all of it to wake the poll.
    longest = Limits().longest_wait
    asked = time.monotonic()
    snap = client.wait(code=code, version=version, timeout=harness.DEADLINE * harness.DEADLINE_SCALE)
    answered = time.monotonic()
    assert snap["n"] == 2 and snap["version"] != version
    assert answered - asked < longest, "the poll ran to its timeout: the batch did not wake it"


def run_student(server, code, token, seed, batches, log, pause):
    return subprocess.Popen([sys.executable, str(HERE / "student_proc.py"), server.url, KEY, code, token, seed,
                             str(batches), str(log), str(pause)], start_new_session=True)


def acks(log):
    lines = [json.loads(line) for line in log.read_text().splitlines() if line.strip()]
    return lines[0], [line for line in lines[1:] if "accepted" in line]


def test_a_kernel_killed_mid_batch_counts_each_acknowledged_batch_once_after_rejoining(server, tmp_path):
    client = server.client()
    code = open_sun(client)
    log = tmp_path / "student.log"
    proc = run_student(server, code, "-", "kill", 60, log, 0.02)
    wait_until(lambda: log.exists() and len(acks(log)[1]) >= 10)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(harness.DEADLINE)
    who, before = acks(log)
    assert len(before) < 60, "the student finished before the kill: nothing was tested"
    domain = domain_for("sun-die", {"stacks": [4, 3, 2]})
    from student_proc import batch

    acked = sum(sum(batch(domain, "kill", a["i"]).values()) for a in before)
    n_after_kill = client.snapshot(code=code)["n"]
    assert acked <= n_after_kill <= acked + 10  # at most the one batch in flight when killed
    again = run_student(server, code, who["token"], "kill", 60, log, 0)
    assert again.wait(harness.DEADLINE) == 0
    snap = client.snapshot(code=code)
    expected = [0, 0, 0, 0]
    for i in range(60):
        for k, v in batch(domain, "kill", i).items():
            expected[k] += v
    assert snap["counts"] == expected and snap["n"] == 600 and snap["students"] == 1
    rejoined = acks(log)[1][len(before):]
    assert [a["i"] for a in rejoined] == list(range(60))
    assert all(a["duplicate"] for a in rejoined[:len(before)])


def test_restarting_the_server_mid_round_keeps_the_round_and_its_data(where):
    first = ExperimentServer(where)
    try:
        client = first.client()
        code = open_sun(client)
        me = client.join(code=code)
        client.contribute(token=me["token"], batch_id="a", counts={"0": 3, "1": 1})
        before = client.snapshot(code=code)
    finally:
        first.stop(kill=True)
    second = ExperimentServer(where)
    try:
        client = second.client()
        after = client.snapshot(code=code)
        assert (after["counts"], after["round_no"], after["status"]) == (before["counts"], 1, "open")
        assert client.join(code=code, token=me["token"])["pseudonym"] == me["pseudonym"]
        assert client.contribute(token=me["token"], batch_id="a", counts={"0": 3, "1": 1})["duplicate"]
        client.contribute(token=me["token"], batch_id="b", counts={"2": 1})
        assert client.snapshot(code=code)["n"] == 5
    finally:
        second.stop()


@pytest.mark.machine  # a soak: one at a time (tests/conftest.py)
def test_a_class_of_30_for_a_few_seconds_pools_exactly_what_was_acknowledged(server):
    """A bounded version of benchmarks/bench_experiments.py (30 students, 10 rolls a second each, ~8 s)."""
    client = server.client()
    code = open_sun(client)
    domain = domain_for("sun-die", {"stacks": [4, 3, 2]})
    accepted, errors = [0] * 30, []
    stop = time.monotonic() + 8.0  # modelled time: the class rolls for 8 s

    def student(i):
        import random

        c = server.client()
        me = c.join(code=code)
        rng = random.Random(i)
        b = 0
        while time.monotonic() < stop:
            try:
                ack = c.contribute(token=me["token"], batch_id=f"s{i}b{b}", counts=dict(domain.simulate(rng, 1)))
                accepted[i] += ack["accepted"]
            except Exception as err:  # noqa: BLE001 - counted and reported below
                errors.append(repr(err))
            b += 1
            time.sleep(0.1)  # modelled time: a student rolls ten times a second

    updates = []

    def projector():
        v = -1
        while time.monotonic() < stop + 1:
            snap = client.wait(code=code, version=v, timeout=1.0)
            v = snap["version"]
            updates.append(time.monotonic())

    threads = [threading.Thread(target=student, args=(i,)) for i in range(30)]
    watcher = threading.Thread(target=projector)
    watcher.start()
    for t in threads:
        t.start()
    for t in threads:
        t.join(harness.DEADLINE)
    watcher.join(harness.DEADLINE)
    assert not any(t.is_alive() for t in [*threads, watcher]), "every student and the projector stopped"
    assert errors == []
    snap = client.snapshot(code=code)
    assert snap["n"] == sum(accepted) and snap["students"] == 30
    gaps = [b - a for a, b in zip(updates, updates[1:], strict=False)]
    print(f"\n30 students, 8 s: {sum(accepted)} rolls pooled, {len(updates)} projector updates, "
          f"longest gap {max(gaps):.2f} s")


def test_malformed_requests_are_refused_in_words(server):
    import urllib.error
    import urllib.request

    def post(method, body, key=KEY):
        request = urllib.request.Request(f"{server.url}/experiments/{method}", data=body, method="POST",
                                         headers={"X-Treegames-Key": key})
        try:
            with urllib.request.urlopen(request, timeout=harness.DEADLINE) as answer:
                return answer.status, json.loads(answer.read())
        except urllib.error.HTTPError as err:
            return err.code, json.loads(err.read())

    assert post("snapshot", b"not json")[0] == 400
    assert post("snapshot", b"[1, 2]")[0] == 400
    assert post("snapshot", json.dumps({"code": "A", "nonsense": 1}).encode())[0] == 400
    assert post("_check_teacher", b"{}")[0] == 404  # only the listed methods are reachable
    assert post("snapshot", b"x" * (300 * 1024))[0] == 413
    status, body = post("snapshot", json.dumps({"code": "ZZZZZ"}).encode())
    assert status == 400 and body["error"] == "NoSuchRound" and "ZZZZZ" in body["message"]
    assert "Traceback" not in json.dumps(body)
