"""Arrivals without preparation take turns (issue 34): the line itself, its waiting page, and a real class server.

The line (:class:`treegames.serving.arrivals.ArrivalQueue`) is tested on a clock the test moves; the server
test starts the class server with one slot and no preheated kernels, sends three visitors at once over
HTTP, and follows the two that wait as their waiting page would.
"""

from __future__ import annotations

import html
import json
import os
import re
import urllib.error
import urllib.parse
import urllib.request

import kernel_ws
import pytest

import harness
from treegames.serving.arrivals import (
    ArrivalQueue,
    QueueFull,
    Turn,
    is_page_path,
    wait_words,
    waiting_page,
    with_ticket,
)


class Clock:
    """A clock the test moves by hand."""

    def __init__(self):
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def line(slots: int = 1, **kwargs) -> tuple[ArrivalQueue, Clock]:
    """A line with ``slots`` slots on a hand-moved clock."""
    clock = Clock()
    return ArrivalQueue(slots, clock=clock, **kwargs), clock


def test_pages_render_at_once_while_a_slot_is_free_then_wait_in_the_order_they_came():
    queue, _ = line(slots=2)
    assert queue.arrive().admitted and queue.arrive().admitted
    first, second = queue.arrive(), queue.arrive()
    assert not first.admitted and not second.admitted
    assert (first.ahead, second.ahead) == (0, 1)
    assert queue.status(second.ticket).ahead == 1, "asking again keeps the place"


def test_a_finished_render_hands_its_slot_to_the_first_in_line_and_only_it_may_claim_it():
    queue, _ = line()
    assert queue.arrive().admitted
    first, second = queue.arrive(), queue.arrive()
    queue.finish(2.0)
    assert queue.status(first.ticket).ready and not queue.status(second.ticket).ready
    assert not queue.arrive(second.ticket).admitted, "the second cannot take the first's turn"
    assert not queue.arrive().admitted, "nor can a newcomer"
    assert queue.arrive(first.ticket).admitted
    assert queue.status(second.ticket).ahead == 0


def test_a_closed_tab_leaves_the_line_and_the_pages_behind_it_move_up():
    queue, clock = line(gone_seconds=10)
    queue.arrive()
    gone, staying = queue.arrive(), queue.arrive()
    for _ in range(3):
        clock.now += 4
        queue.status(staying.ticket)  # the staying page keeps asking; the gone one has stopped
    assert queue.status(staying.ticket).ahead == 0
    assert gone.ticket not in queue.waiting


def test_a_turn_not_claimed_in_time_passes_to_the_next_page():
    queue, clock = line(claim_seconds=5)
    queue.arrive()
    late, next_one = queue.arrive(), queue.arrive()
    queue.finish()
    assert queue.status(late.ticket).ready
    clock.now += 6
    queue.status(next_one.ticket)
    assert queue.status(next_one.ticket).ready
    assert not queue.arrive(late.ticket).admitted, "the late page has lost its turn"


def test_an_unknown_or_forged_ticket_is_worth_nothing_but_a_place_at_the_back():
    queue, _ = line()
    queue.arrive()
    first = queue.arrive()
    assert not queue.knows("made-up-ticket") and queue.knows(first.ticket)
    forged = queue.arrive("made-up-ticket")
    assert not forged.admitted and forged.ticket != "made-up-ticket"
    assert forged.ahead == 1 and queue.status(first.ticket).ahead == 0


def test_a_page_that_opens_another_way_gives_up_its_place_and_its_kept_slot():
    queue, _ = line()
    queue.arrive()
    kept, behind, last = queue.arrive(), queue.arrive(), queue.arrive()
    queue.finish()
    assert queue.status(kept.ticket).ready
    queue.leave(kept.ticket)  # a preheated kernel was ready when it came with its ticket
    assert queue.status(behind.ticket).ready, "the kept slot went to the next page at once"
    queue.leave(last.ticket)
    assert last.ticket not in queue.waiting and queue.busy() == 1


def test_the_estimate_follows_the_renders_timed_so_far():
    queue, _ = line(slots=2)
    for _ in range(5):
        queue.arrive()
        queue.finish(10.0)
    assert queue.estimate(0) == pytest.approx(queue.render_seconds)
    assert 8 < queue.render_seconds <= 10
    assert queue.estimate(3) == pytest.approx(2 * queue.render_seconds), "three ahead on two slots: two renders"
    assert wait_words(Turn(ticket="t", ahead=0, seconds=2.4)) == "Your page is next. It opens by itself in about 2 s."
    assert wait_words(Turn(ticket="t", ahead=1, seconds=5)).startswith("1 page is ahead of yours.")


def test_a_full_line_is_refused_as_a_full_server_is():
    queue, _ = line(most_waiting=3)
    queue.arrive()
    for _ in range(3):
        queue.arrive()
    with pytest.raises(QueueFull) as refused:
        queue.arrive()
    assert refused.value.status_code == 503 and "full" in refused.value.reason


def test_the_waiting_page_says_where_it_stands_and_leads_only_to_its_own_page():
    text = waiting_page(Turn(ticket="T1", ahead=2, seconds=4), '/voila/render/a.ipynb?x="</script>', "/treegames/arrivals",
                        "Aspens: play")
    assert text.startswith("<!DOCTYPE html>") and '<html lang="en">' in text
    assert "<title>Opening Aspens: play</title>" in text
    assert 'role="status" aria-live="polite">2 pages are ahead of yours.' in text
    assert text.count("</script>") == 1, "a hostile address cannot close the page's script"
    refresh = re.search(r'url=([^"]+)"', text).group(1)
    assert html.unescape(refresh).endswith("treegames_ticket=T1"), "without JavaScript it reloads with its ticket"
    assert with_ticket("/voila/render/a.ipynb?treegames_ticket=old&x=1", "new") == \
        "/voila/render/a.ipynb?x=1&treegames_ticket=new"
    assert is_page_path("/voila/render/bosk/play.ipynb")
    for elsewhere in ("//evil.example/voila/render/x", "/\\evil.example", "https://evil.example/voila/render/x",
                      "/voila/tree/", "javascript:alert(1)"):
        assert not is_page_path(elsewhere), elsewhere


@pytest.mark.server
@pytest.mark.slow
def test_with_one_slot_taken_later_pages_wait_their_turn_in_order_and_each_gets_its_own_kernel(tmp_path):
    (tmp_path / "hold.ipynb").write_text(json.dumps(kernel_ws.HOLD))
    gate = tmp_path / "gate"
    server = harness.start_class_server(tmp_path, preheat=False, extra=["--ClassroomVoila.arrivals_at_once=1"],
                                        env={**os.environ, "TREEGAMES_TEST_GATE": str(gate)})
    try:
        pages: dict[int, tuple] = {}
        threads = [kernel_ws.fetch_in_thread(server.base, pages, 0)]
        harness.wait_until(lambda: server.live_kernels(), what="the first page's kernel started (its slot taken)")
        # while the first page's notebook runs, two more arrive: each is answered at once with a waiting page
        answers = []
        for _ in range(2):
            with urllib.request.urlopen(f"{server.base}{kernel_ws.HOLD_PATH}", timeout=30) as answer:
                answers.append(answer.read().decode())
        for text, words in zip(answers, ("Your page is next.", "1 page is ahead of yours."), strict=True):
            assert kernel_ws.waiting_status_url(text), "a waiting page, not a blank wait"
            assert re.search(rf'role="status" aria-live="polite">{re.escape(words)}', text), text
        # both follow their waiting page (as its script does) and are let in one after the other, in turn
        threads += [kernel_ws.fetch_in_thread(server.base, pages, i, first=text) for i, text in enumerate(answers, 1)]
        harness.holds_for(lambda: len(server.live_kernels()) == 1 and 0 not in pages, 0.5, step=0.1,
                          what="no second kernel while the first page's notebook runs")
        gate.write_text("open")
        for thread in threads:
            thread.join(harness.DEADLINE)
        assert sorted(pages) == [0, 1, 2] and len({p.kernel_id for p, _when in pages.values()}) == 3
        (first, t0), (second, t1), (third, t2) = pages[0], pages[1], pages[2]
        assert not first.waited and second.waited and third.waited
        assert t0 < t1 < t2, "first come, first served"
        # asking about a lost ticket adds nobody to the line: the page is sent back to ask for a place itself
        query = urllib.parse.urlencode({"ticket": "forged", "page": kernel_ws.HOLD_PATH})
        with urllib.request.urlopen(f"{server.base}/treegames/arrivals?{query}", timeout=30) as answer:
            told = json.loads(answer.read())
        assert told["ready"] and told["page"] == f"{kernel_ws.HOLD_PATH}?treegames_ticket="
        # the status answers only for the server's own dashboards
        for bad in ("//evil.example/x", "/\\evil.example"):
            query = urllib.parse.urlencode({"ticket": "x", "page": bad})
            with pytest.raises(urllib.error.HTTPError) as refused:
                urllib.request.urlopen(f"{server.base}/treegames/arrivals?{query}", timeout=30)
            assert refused.value.code == 400
    finally:
        server.stop()
    assert server.alive_pids() == []
