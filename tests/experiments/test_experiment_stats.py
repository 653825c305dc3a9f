"""Pooled statistics: total variation, the chi-square statistic and its p-value against known values."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from treegames.experiments import stats

FAIR = {k: Fraction(1, 6) for k in range(2, 8)}


# Printed chi-square tables: the 5% and 1% critical values (any statistics textbook's table).
CRITICAL = [(1, 3.841, 0.05), (2, 5.991, 0.05), (3, 7.815, 0.05), (5, 11.070, 0.05), (10, 18.307, 0.05),
            (1, 6.635, 0.01), (4, 13.277, 0.01), (20, 37.566, 0.01), (30, 43.773, 0.05)]


@pytest.mark.parametrize(("df", "x", "p"), CRITICAL)
def test_p_value_at_printed_critical_values(df, x, p):
    assert stats.chi_square_sf(x, df) == pytest.approx(p, abs=5e-5)


def even_df_tail(x: float, df: int) -> float:
    """For even df the tail is exactly exp(-x/2) * sum_{i < df/2} (x/2)^i / i!."""
    half = x / 2
    return math.exp(-half) * sum(half**i / math.factorial(i) for i in range(df // 2))


@given(st.floats(0.01, 200.0), st.integers(1, 40))
def test_p_value_equals_the_exact_finite_sum_for_even_df(x, k):
    df = 2 * k
    assert stats.chi_square_sf(x, df) == pytest.approx(even_df_tail(x, df), rel=1e-9, abs=1e-300)


def test_one_degree_of_freedom_is_the_normal_tail():
    # chi-square(1) >= z^2 exactly when |Z| >= z: P = erfc(z / sqrt 2)
    for z in (0.5, 1.0, 1.96, 3.0):
        assert stats.chi_square_sf(z * z, 1) == pytest.approx(math.erfc(z / math.sqrt(2)), rel=1e-9)


def test_p_value_against_scipy_when_it_is_installed():
    scipy_stats = pytest.importorskip("scipy.stats")
    for df in (1, 3, 5, 7, 12):
        for x in (0.1, 1.0, 4.0, 9.5, 30.0, 80.0):
            assert stats.chi_square_sf(x, df) == pytest.approx(scipy_stats.chi2.sf(x, df), rel=1e-9)


def test_p_value_refuses_nonsense_degrees_of_freedom():
    with pytest.raises(ValueError, match="degrees of freedom"):
        stats.chi_square_sf(1.0, 0)


def test_chi_square_of_a_worked_example():
    # 60 rolls of a fair die: 5, 8, 9, 8, 10, 20 -> sum of (o - 10)^2 / 10 = (25+4+1+4+0+100)/10 = 13.4
    counts = dict(zip(range(2, 8), (5, 8, 9, 8, 10, 20), strict=True))
    test = stats.chi_square(counts, FAIR)
    assert test.statistic == pytest.approx(13.4)
    assert test.df == 5
    assert test.p_value == pytest.approx(0.01990, abs=5e-5)
    assert test.is_reliable
    assert "does not prove" in stats.chi_square_sentence(test)


def test_a_result_of_zero_chance_makes_the_fit_impossible():
    test = stats.chi_square({2: 3, 9: 1}, FAIR)
    assert test.p_value == 0.0


def test_small_expected_counts_are_flagged():
    test = stats.chi_square({2: 1, 3: 2}, FAIR)
    assert not test.is_reliable
    assert "rough" in stats.chi_square_sentence(test)


def test_total_variation_examples():
    assert stats.total_variation({2: 10, 3: 10, 4: 10, 5: 10, 6: 10, 7: 10}, FAIR) == pytest.approx(0.0)
    assert stats.total_variation({2: 6}, FAIR) == pytest.approx(5 / 6)
    assert stats.total_variation({}, FAIR) == 1.0


@given(st.dictionaries(st.integers(2, 7), st.integers(0, 50), min_size=1))
def test_total_variation_is_between_0_and_1(counts):
    if sum(counts.values()):
        assert 0.0 <= stats.total_variation(counts, FAIR) <= 1.0


def test_trace_keeps_log_spaced_points_and_ends_at_the_latest_n():
    trace = stats.Trace(FAIR).extend([{2: 1}] * 1000)
    series = trace.series()
    assert series[-1][0] == 1000
    assert 50 < len(series) < 200
    ns = [n for n, _ in series]
    assert ns == sorted(ns)
    assert series[-1][1] == pytest.approx(5 / 6)
