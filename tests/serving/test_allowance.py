"""A page's message allowance (the token bucket of the kernel websocket): a burst at once, then the rate."""

from __future__ import annotations

from treegames.serving.connection import Allowance


class Clock:
    """A clock the test moves."""

    def __init__(self):
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_burst_passes_at_once_and_the_next_one_waits_for_the_rate():
    clock = Clock()
    allowance = Allowance(burst=300, rate=100, clock=clock)
    assert sum(allowance.take() for _ in range(400)) == 300
    clock.now += 0.5  # half a second at 100 a second: 50 more
    assert sum(allowance.take() for _ in range(400)) == 50


def test_an_idle_page_never_saves_more_than_its_burst():
    clock = Clock()
    allowance = Allowance(burst=300, rate=100, clock=clock)
    clock.now += 3600
    assert sum(allowance.take() for _ in range(1000)) == 300


def test_state_requests_and_messages_are_counted_apart():
    clock = Clock()
    messages, states = Allowance(300, 100, clock), Allowance(4000, 100, clock)
    assert sum(states.take() for _ in range(655)) == 655  # the Bosk walkthrough, widget by widget
    assert sum(messages.take() for _ in range(10)) == 10  # and its clicks still pass
