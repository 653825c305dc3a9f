"""The Join box on a preheated kernel: the page's request (its class link) becomes known at any moment.

A preheated Voila kernel runs the lesson before anyone asks for it; Voila hands it the request later
(``voila.utils.wait_for_request``, on a thread). On a busy class server that moment came seconds after
the student had typed the code and pressed Join. Here the request is held back by hand: the kernel's
loop is an asyncio loop, as in ipykernel, and the request arrives exactly when the test says.
"""

from __future__ import annotations

import asyncio
import os
import sys
import threading
import types

import pytest
from exp_helpers import TEACHER

import harness
from treegames.experiments import ExperimentAuthority, Source
from treegames.experiments.client import local
from treegames.ui.experiments import JoinBox

SUN_DIE = {"stacks": [4, 3, 2]}


class Recording:
    """A client that remembers on which thread each join ran."""

    def __init__(self, inner):
        self.inner = inner
        self.join_threads: list[str] = []

    def join(self, **kwargs):
        self.join_threads.append(threading.current_thread().name)
        return self.inner.join(**kwargs)

    def __getattr__(self, name):
        return getattr(self.inner, name)


class HeldRequest:
    """Voila's request channel for a preheated kernel, held until :meth:`arrive` hands over the query string."""

    def __init__(self, monkeypatch):
        self.query = ""
        self.known = threading.Event()
        self.returned = threading.Event()
        monkeypatch.setenv("VOILA_PREHEAT", "True")
        monkeypatch.setenv("QUERY_STRING", "")  # restored (or removed) after the test
        monkeypatch.delenv("QUERY_STRING")
        module = types.ModuleType("voila.utils")
        module.wait_for_request = self.wait
        monkeypatch.setitem(sys.modules, "voila.utils", module)

    def wait(self, url: str | None = None) -> None:
        self.known.wait(harness.DEADLINE)
        os.environ["QUERY_STRING"] = self.query
        self.returned.set()

    async def arrive(self, query: str = "") -> None:
        """The visitor's request reaches the kernel; then the kernel's loop turns until its callbacks ran."""
        self.query = query
        self.known.set()
        assert await asyncio.to_thread(self.returned.wait, harness.DEADLINE), "the request reached the kernel"
        for thread in [t for t in threading.enumerate() if t.name == "experiment-request"]:
            await asyncio.to_thread(thread.join, harness.DEADLINE)
        for _ in range(3):  # not a wait: three turns of the loop run the callbacks the request queued (and theirs)
            await asyncio.sleep(0)


@pytest.fixture
def client(store, clock):
    return Recording(local(ExperimentAuthority(store, TEACHER, clock=clock, source=Source.LOCAL)))


@pytest.fixture
def code(client):
    return client.open_experiment(teacher_code=TEACHER, kind="sun-die", settings=SUN_DIE)["code"]


def on_the_kernels_loop(steps):
    """Run ``steps()`` (a coroutine function) as a cell's code runs: inside the kernel's asyncio loop, on this thread."""
    return asyncio.run(steps())


def test_a_request_without_a_class_link_leaves_the_students_own_join_alone(client, code, monkeypatch):
    request = HeldRequest(monkeypatch)

    async def steps():
        box = JoinBox(client)
        box.code_field.value = code  # the student typed the code before the request was known
        await request.arrive("")
        box.join_button.click()
        joined = box.message.value
        box.roll_buttons[1].click()
        box.feed.stop()
        return box, joined

    box, joined = on_the_kernels_loop(steps)
    assert "You joined" in joined and "Sent 10 result(s)" in box.message.value
    assert len(client.join_threads) == 1
    assert client.snapshot(code=code)["students"] == 1


def test_a_class_link_joins_once_on_the_kernels_own_thread(client, code, monkeypatch):
    request = HeldRequest(monkeypatch)
    loop_thread = threading.current_thread().name

    async def steps():
        box = JoinBox(client)
        await request.arrive(f"experiment={code}")
        joined = box.message.value
        box.roll_buttons[1].click()
        box.feed.stop()
        return joined

    assert "You joined" in on_the_kernels_loop(steps)
    assert client.join_threads == [loop_thread]
    assert client.snapshot(code=code)["students"] == 1


def test_a_class_link_after_the_student_joined_by_hand_changes_nothing(client, code, monkeypatch):
    request = HeldRequest(monkeypatch)

    async def steps():
        box = JoinBox(client)
        box.code_field.value = code
        box.join_button.click()
        await request.arrive(f"experiment={code}")
        box.feed.stop()
        return box

    box = on_the_kernels_loop(steps)
    assert "You joined" in box.message.value
    assert len(client.join_threads) == 1


def test_a_bad_code_in_the_class_link_is_refused_in_words(client, monkeypatch):
    request = HeldRequest(monkeypatch)

    async def steps():
        box = JoinBox(client)
        await request.arrive("experiment=ZZZZZ")
        return box

    box = on_the_kernels_loop(steps)
    assert "no class experiment has the code" in box.message.value
    assert box.me is None and box.feed is None


def test_the_come_back_link_rejoins_as_the_same_student(client, code, monkeypatch):
    first = JoinBox(client, code=code)  # no preheat yet: joins at once
    first.feed.stop()
    request = HeldRequest(monkeypatch)

    async def steps():
        box = JoinBox(client)
        await request.arrive(f"experiment={code}&me={first.token}")
        box.feed.stop()
        return box

    box = on_the_kernels_loop(steps)
    assert f"Welcome back: you are {first.me['pseudonym']}" in box.message.value
