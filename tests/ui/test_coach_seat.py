"""A coach seat in Play thinks on a worker thread: the page's event loop keeps answering meanwhile."""

from __future__ import annotations

import asyncio
import threading

import pytest

import harness
from treegames.ui.aspens.play import AspensPlay

pytestmark = pytest.mark.slow  # the coach thinks on a thread for seconds: not in make test-quick


def test_the_coach_chooses_on_a_worker_thread_and_moves_by_itself():
    w = AspensPlay(seed=3, aspen="coach-medium", pine="coach-medium")
    w.answer_box.value = False
    threads = []
    for bot in w.bots:
        real = bot.choose
        bot.choose = lambda s, real=real: threads.append(threading.current_thread()) or real(s)

    async def run() -> int:
        before = len(w.timeline.states)
        w.auto_button.value = True  # as the Auto-play button does, on this loop
        # chance, the coach, chance, the coach...: polled on a thread of its own, so this loop goes on running the page
        await asyncio.to_thread(harness.wait_until, lambda: len(w.timeline.states) >= before + 4, step=0.01,
                                what="four steps of auto-play")
        w.auto_button.value = False
        return len(w.timeline.states) - before

    assert asyncio.run(run()) >= 4
    assert threads and threading.main_thread() not in threads, "the page's loop never waits for the coach"


def test_a_coach_move_is_dropped_when_the_game_on_screen_changes_while_it_thinks():
    w = AspensPlay(seed=3, aspen="coach-medium", pine="coach-medium")
    w.answer_box.value = False
    while w.state.current_player < 0:  # the dice and the first player first
        w.step()

    async def run() -> bool | None:
        w.auto_button.value = True
        thinking = asyncio.ensure_future(w._think_off_the_loop())
        await asyncio.sleep(0)  # not a wait: one turn of the loop, in which the coach's task hands its choice to a thread
        assert w._thinking, "the coach is thinking on its thread"
        w.new_game(seats=("coach-medium", "coach-medium"), setup=2)  # the player starts over meanwhile
        return await thinking

    w.auto_button.value = False
    assert asyncio.run(run()) is False
    assert len(w.timeline.states) == 1, "nothing of the old game's coach reached the new game"
