"""Summer Scoring and Winter scoring tables, every case of the rulebook text for 2, 3 and 4 players."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from treegames.bosk import SUMMER_POINTS, WINTER_POINTS, summer_points, winter_points

# (totals, summer points, winter points)
CASES = {
    # Summer Scoring 1 / Winter 2: single first and single second
    "single first and second, 2 players": ((5, 3), (2, 1), (5, 3)),
    "single first and second, 3 players": ((5, 3, 1), (2, 1, 0), (5, 3, 0)),
    "single first and second, 4 players": ((1, 7, 4, 2), (0, 2, 1, 0), (0, 5, 3, 0)),
    # Summer Scoring 2 / Winter 3: two or more tied for second
    "tie for second, 3 players": ((6, 2, 2), (2, 0, 0), (5, 1, 1)),
    "tie for second, 4 players": ((3, 3, 9, 3), (0, 0, 2, 0), (1, 1, 5, 1)),
    "tie for second of two, 4 players": ((4, 8, 0, 4), (0, 2, 0, 0), (1, 5, 0, 1)),
    # Summer Scoring 3 / Winter 4: single first, nobody second
    "alone, 2 players": ((4, 0), (3, 0), (8, 0)),
    "alone, 3 players": ((0, 0, 2), (0, 0, 3), (0, 0, 8)),
    "alone, 4 players": ((0, 1, 0, 0), (0, 3, 0, 0), (0, 8, 0, 0)),
    # Summer Scoring 4 / Winter 5: tied for first, no second place
    "tie for first, 2 players": ((4, 4), (1, 1), (4, 4)),
    "tie for first with a third behind, 3 players": ((5, 5, 2), (1, 1, 0), (4, 4, 0)),
    "three-way tie for first, 4 players": ((3, 3, 3, 1), (1, 1, 1, 0), (4, 4, 4, 0)),
    "four-way tie, 4 players": ((2, 2, 2, 2), (1, 1, 1, 1), (4, 4, 4, 4)),
    # A player with nothing there does not place
    "nobody there, 2 players": ((0, 0), (0, 0), (0, 0)),
    "nobody there, 4 players": ((0, 0, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0)),
}


@pytest.mark.parametrize("case", list(CASES))
def test_summer_scoring_cases(case):
    totals, summer, _ = CASES[case]
    assert summer_points(totals) == summer


@pytest.mark.parametrize("case", list(CASES))
def test_winter_scoring_cases(case):
    counts, _, winter = CASES[case]
    assert winter_points(counts) == winter


def test_scoring_tables_match_the_rulebook_numbers():
    assert tuple(SUMMER_POINTS) == (2, 1, 0, 3, 1)
    assert tuple(WINTER_POINTS) == (5, 3, 1, 8, 4)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=12), min_size=2, max_size=4))
def test_majority_properties(values):
    for points, table in ((summer_points(values), SUMMER_POINTS), (winter_points(values), WINTER_POINTS)):
        assert len(points) == len(values)
        # absent players never score; equal totals score equally; more never scores less
        for p, v in enumerate(values):
            if v == 0:
                assert points[p] == 0
            for q, w in enumerate(values):
                if v == w:
                    assert points[p] == points[q]
                if v > w > 0:
                    assert points[p] >= points[q]
        assert sum(points) <= max(table.alone, table.first + table.second, table.tied_first * len(values),
                                  table.first + table.tied_second * (len(values) - 1))
