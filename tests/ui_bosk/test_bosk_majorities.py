"""Explained majorities (bosk.scoring): the tie cases, their clauses, and that the engine scores through them."""

from __future__ import annotations

from fractions import Fraction

import pytest
from bosk_moments import play_until
from hypothesis import given, settings
from hypothesis import strategies as st

from treegames import bosk
from treegames.bosk import scoring
from treegames.bosk.scoring import (
    SUMMER_POINTS,
    WINTER_POINTS,
    TieCase,
    classify,
    every_case,
    exact_case_odds,
    majority,
    majority_points,
)
from treegames.ui.bosk.tables import MajorityTable, summer_rows, table_html, totals, winter_rows

NAMES = ("Maple", "Oak", "Birch", "Ginkgo")


@pytest.mark.parametrize("values, case, firsts, seconds, summer, winter", [
    ((5, 3, 1), TieCase.CLEAR, (0,), (1,), (2, 1, 0), (5, 3, 0)),          # Summer Scoring 1 / Winter 2
    ((6, 2, 2), TieCase.TIED_SECOND, (0,), (1, 2), (2, 0, 0), (5, 1, 1)),  # Summer Scoring 2 / Winter 3
    ((0, 4, 0), TieCase.ALONE, (1,), (), (0, 3, 0), (0, 8, 0)),            # Summer Scoring 3 / Winter 4
    ((5, 5, 2), TieCase.TIED_FIRST, (0, 1), (), (1, 1, 0), (4, 4, 0)),     # Summer Scoring 4 / Winter 5
    ((0, 0, 0), TieCase.NOBODY, (), (), (0, 0, 0), (0, 0, 0)),
])
def test_each_case_of_the_rule(values, case, firsts, seconds, summer, winter):
    assert classify(values) == (case, firsts, seconds)
    assert majority(values, SUMMER_POINTS).points == summer
    assert majority(values, WINTER_POINTS).points == winter


def test_places_and_labels():
    m = majority((6, 2, 2, 0), WINTER_POINTS)
    assert m.places == (1, 2, 2, None)
    assert [m.place_label(p) for p in range(4)] == ["1st", "2nd (tied)", "2nd (tied)", ""]
    assert majority((3, 3, 1), SUMMER_POINTS).place_label(2) == "-", "behind second place: no place"


def test_explanations_cite_the_clause_and_name_the_players():
    text = majority((6, 2, 2), SUMMER_POINTS).explain(NAMES)
    assert text.startswith("Summer Scoring 2") and "Oak (2) and Birch (2) tie for second" in text
    assert majority((4, 4), WINTER_POINTS).explain(NAMES).startswith("IV. Winter 5")
    assert "nobody is second" in majority((0, 3), WINTER_POINTS).explain(NAMES)
    assert "8" in majority((0, 3), WINTER_POINTS).explain(NAMES)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=15), min_size=2, max_size=4))
def test_the_explained_result_always_gives_the_engines_points(values):
    for table in (SUMMER_POINTS, WINTER_POINTS):
        m = majority(values, table)
        assert m.points == majority_points(values, table)
        assert m.case is classify(values)[0]
        assert all((m.places[p] is None) == (p not in m.firsts + m.seconds) for p in range(len(values)))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_case_gives_one_true_example_per_possible_case(players):
    examples = every_case(players)
    assert all(classify(values)[0] is case and len(values) == players for case, values in examples)
    cases = {case for case, _ in examples}
    assert (TieCase.TIED_SECOND in cases) == (players >= 3), "with 2 players nobody can tie for second"
    assert len(cases) == (5 if players >= 3 else 4)


def test_exact_case_odds_count_every_outcome():
    odds = exact_case_odds(2, (0, 1))
    assert odds[TieCase.NOBODY] == Fraction(1, 4) and odds[TieCase.ALONE] == Fraction(1, 2)
    assert odds[TieCase.TIED_FIRST] == Fraction(1, 4) and odds[TieCase.CLEAR] == 0
    for n in (2, 3, 4):
        assert sum(exact_case_odds(n, range(5)).values()) == 1


def test_the_engine_scores_summer_and_winter_through_classify(monkeypatch):
    """The tables and the lesson use the very function the engine scores with."""
    spring_done = play_until(2, 1, lambda s: s.phase is bosk.Phase.SUMMER)
    calls = []
    real = scoring.classify
    monkeypatch.setattr(scoring, "classify", lambda values: calls.append(tuple(values)) or real(values))
    scoring._majority_points.cache_clear()  # the engine remembers each distinct set of totals' points
    after = spring_done.apply(spring_done.parse_action("score summer"))
    trail_totals = {row.totals for row in bosk.engine.summer_table(spring_done)}
    assert sorted(calls) == sorted(trail_totals), "each distinct trail's totals classified once, by classify"
    assert after.summer_scores == totals(summer_rows(spring_done), 2)


def test_summer_and_winter_rows_agree_with_the_engine(finished):
    before_winter = finished.previous
    assert before_winter.phase is bosk.Phase.WINTER
    rows = winter_rows(before_winter)
    assert [r.name for r in rows] == list(before_winter.park.region_names)
    assert totals(rows, 3) == finished.winter_scores
    summer_state = finished
    while summer_state.phase is not bosk.Phase.SUMMER:
        summer_state = summer_state.previous
    assert totals(summer_rows(summer_state), 3) == finished.summer_scores


def test_the_table_widget_selects_rows_and_explains_them(finished):
    state = finished.previous
    seen = []
    table = MajorityTable("Region", NAMES[:3], on_select=seen.append)
    table.show(winter_rows(state))
    assert len(table._buttons) == 8 and table._buttons[2].description == state.park.region_names[2]
    table._buttons[2].click()
    assert seen[-1].name == state.park.region_names[2] and table._buttons[2].button_style == "warning"
    assert seen[-1].result.clause.split()[0] == "IV." and "IV. Winter" in table.explanation.value
    table._buttons[2].click()
    assert seen[-1] is None and table.selected is None, "a second press clears the selection"
    html = table_html(winter_rows(state), NAMES[:3], "Region", selected=0)
    assert html.count("<tr") == 8 + 2 and "FFF3A0" in html
