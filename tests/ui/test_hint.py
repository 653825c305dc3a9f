"""The Hint panel on a Play page: the coach's top moves in the engine's words, Think longer, Cancel, wrong clicks."""

from __future__ import annotations

import re

import pytest

import harness
from treegames import core
from treegames.lab.stats import wilson_interval
from treegames.search import Budget
from treegames.ui import hint
from treegames.ui.aspens.play import AspensPlay
from treegames.ui.bosk.play import BoskPlay
from treegames.ui.hint import HintState
from treegames.ui.mighty_trees.play import MightyTreesPlay
from treegames.ui.scene import Polygons

pytestmark = pytest.mark.slow  # seconds of search or processes per test: not in make test-quick


@pytest.fixture(autouse=True)
def small_budgets(monkeypatch):
    """Hints that think for a few dozen playouts, so the tests stay quick."""
    monkeypatch.setattr(hint, "HINT_BUDGET", Budget(iterations=48))
    monkeypatch.setattr(hint, "MORE_BUDGET", Budget(iterations=96))


def to_person(w) -> None:
    """Step until a person is to move."""
    for _ in range(200):
        if w.is_human_turn():
            return
        w.step()
    raise AssertionError("no person's turn")


PAGES = [
    lambda: AspensPlay(seed=1, aspen="human", pine="greedy"),
    lambda: BoskPlay(seed=1),
    lambda: MightyTreesPlay(seed=1),
]


@pytest.mark.parametrize("page", PAGES, ids=["aspens", "bosk", "mighty_trees"])
def test_hint_lists_the_coachs_top_moves_in_the_engines_notation_and_outlines_its_choice(page):
    w = page()
    to_person(w)
    panel = w.hint_panel
    assert panel.hint() and panel.wait(harness.DEADLINE)
    assert panel.status is HintState.SHOWN
    rows = panel.top_moves()
    assert 1 <= len(rows) <= hint.TOP_MOVES
    legal = w.state.legal_actions()
    for row in rows:
        assert row.action in legal and row.notation == str(row.action)
        assert (row.low, row.high) == wilson_interval(row.wins, row.visits)
        assert row.text() in panel.words.value  # "seed K6: wins 64% (58–70%) of 12 playouts"
    assert "48 playouts" in panel.words.value and "(the coach's choice)" in panel.words.value
    place = panel.choice_place
    if place is not None:
        assert rows[0].action in w.state.actions_at(place)
        tags = [t for op in w._board_picture().ops if isinstance(op, Polygons) for t in op.tags]
        assert ("hint", place) in tags


def test_think_longer_goes_on_with_the_same_search_and_the_intervals_narrow():
    w = AspensPlay(seed=1, aspen="human", pine="greedy")
    to_person(w)
    panel = w.hint_panel
    panel.hint()
    panel.wait(harness.DEADLINE)
    search = panel.search
    panel_rows_before = panel.top_moves()
    first = panel_rows_before[0]
    assert not panel.more_button.disabled
    assert panel.think_longer() and panel.wait(harness.DEADLINE)
    assert panel.search is search and search.iterations == 48 + 96
    assert "144 playouts" in panel.words.value
    again = next(r for r in search.statistics() if r.notation == first.notation)
    assert again.visits > first.visits
    narrowest_at_first = min(r.high - r.low for r in panel_rows_before)
    for _ in range(2):
        assert panel.think_longer() and panel.wait(harness.DEADLINE)
    top = panel.top_moves()[0]  # hundreds of playouts on: the most-searched move's interval is the narrowest yet
    assert search.iterations == 48 + 3 * 96 and top.visits > 3 * first.visits
    assert top.high - top.low < narrowest_at_first


def test_a_hint_during_a_bots_turn_or_after_the_game_says_why_and_starts_nothing():
    w = AspensPlay(seed=1, aspen="greedy", pine="greedy")
    to_bot = w.state
    while to_bot.current_player == core.CHANCE:
        w.step()
        to_bot = w.state
    assert not w.hint_panel.hint()
    assert "played by a bot" in w.hint_panel.note.value and w.hint_panel.search is None
    w.run_auto()
    assert w.state.is_terminal()
    assert not w.hint_panel.hint() and "game is over" in w.hint_panel.note.value
    assert not w.hint_panel.think_longer() and w.hint_panel.status is HintState.IDLE


def test_a_second_press_while_thinking_is_refused_and_cancel_keeps_what_was_found(monkeypatch):
    monkeypatch.setattr(hint, "HINT_BUDGET", Budget(iterations=1_000_000))
    w = MightyTreesPlay(seed=2)
    to_person(w)
    panel = w.hint_panel
    assert panel.hint()
    assert not panel.hint() and not panel.think_longer()
    assert "already thinking" in panel.note.value
    panel.cancel()
    assert panel.wait(harness.DEADLINE)
    assert panel.status is HintState.SHOWN and "(cancelled)" in panel.words.value
    assert panel.search.iterations < 1_000_000 and panel.cancel_button.disabled
    assert not panel._thread.is_alive()  # cancelling leaves no thinking thread behind


def test_a_new_position_cancels_the_search_and_clears_its_estimates(monkeypatch):
    monkeypatch.setattr(hint, "HINT_BUDGET", Budget(iterations=1_000_000))
    w = AspensPlay(seed=1, aspen="human", pine="greedy")
    to_person(w)
    panel = w.hint_panel
    panel.hint()
    searched = panel.search
    w.play(w.state.legal_actions()[0])
    assert panel.wait(harness.DEADLINE)
    assert panel.search is None and panel.words.value == "" and panel.choice_place is None
    assert searched.iterations < 1_000_000
    assert not any(("hint", p) in getattr(op, "tags", ()) for op in w._board_picture().ops for p in w.places())


def test_the_h_key_asks_for_a_hint_and_again_thinks_longer():
    w = BoskPlay(seed=3)
    to_person(w)
    w.key("h")
    assert w.hint_panel.wait(harness.DEADLINE) and w.hint_panel.search.iterations == 48
    w.key("H")
    assert w.hint_panel.wait(harness.DEADLINE) and w.hint_panel.search.iterations == 48 + 96


@pytest.mark.parametrize("page", PAGES, ids=["aspens", "bosk", "mighty_trees"])
def test_the_estimates_so_far_show_while_the_coach_thinks_and_the_final_list_replaces_them(page, monkeypatch):
    """A person never waits for the whole budget: the first estimates come after the first chunk of playouts."""
    monkeypatch.setattr(hint, "HINT_BUDGET", Budget(iterations=400))
    w = page()
    to_person(w)
    panel = w.hint_panel
    shown: list[str] = []
    real = panel._show

    def recording(*args, **kwargs):
        real(*args, **kwargs)
        shown.append(panel.words.value)
    monkeypatch.setattr(panel, "_show", recording)
    assert panel.hint() and panel.wait(harness.DEADLINE)
    live = [words for words in shown if "(still thinking)" in words]
    assert live, "estimates were shown while the coach thought"
    first = int(re.search(r"after (\d+) playouts", live[0]).group(1))
    assert 0 < first < 400
    assert "so far" in live[0] and "(leading so far)" in live[0] and "(the coach's choice)" not in live[0]
    final = panel.words.value
    assert "(still thinking)" not in final and "(the coach's choice)" in final and "after 400 playouts" in final


def test_hint_marks_the_coachs_choice_not_a_most_played_growth_that_hands_p2_the_habitat():
    """Our design (core.least_handing), in Hint's words: the most played move, growing a tree (3 Sols), ends P1's
    turn with P2 one growth from the habitat; the coach's choice removes its own understory tree instead, to
    plant an attacker on the tree P2 would grow."""
    w = MightyTreesPlay(seed=1)
    w.open_saved((harness.ROOT / "tests/search/positions/mighty_trees_p2_one_growth_from_the_habitat.json").read_text())
    assert w.is_human_turn()
    panel = w.hint_panel
    assert panel.hint() and panel.wait(harness.DEADLINE)
    rows = panel.top_moves()
    assert str(rows[0].action).startswith("grow "), [str(r.action) for r in rows]
    assert str(panel.choice).startswith("discard understory ")
    text = re.sub(r"<[^>]+>", "", panel.words.value)
    assert "would end the turn with a 100% chance that a rival wins at once or with one move" in text
    assert text.count("(the coach's choice)") == (1 if panel.choice in [r.action for r in rows] else 0)
