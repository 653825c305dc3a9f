"""The lab's statistics against values computed independently: direct summation, the score test, published tables."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from treegames.lab import stats


def direct_two_sided(k: int, n: int, p: Fraction) -> Fraction:
    """Exact two-sided p-value by summing every count no more likely than k, written out independently."""
    probs = [Fraction(math.comb(n, i)) * p**i * (1 - p) ** (n - i) for i in range(n + 1)]
    return sum(q for q in probs if q <= probs[k])


def score_statistic(p: float, k: int, n: int) -> float:
    """The Wilson score statistic |k/n - p| / sqrt(p(1-p)/n); the interval's ends are where it equals z."""
    return abs(k / n - p) / math.sqrt(p * (1 - p) / n)


# ------------------------------------------------------------ Wilson interval

def test_wilson_interval_for_52_of_100():
    low, high = stats.wilson_interval(52, 100)
    # By hand: centre (0.52 + z²/200) / (1 + z²/100), half-width z/(1 + z²/100) sqrt(0.52·0.48/100 + z²/40000).
    assert low == pytest.approx(0.42317, abs=5e-5)
    assert high == pytest.approx(0.61535, abs=5e-5)


def test_wilson_interval_for_0_of_10_starts_at_zero():
    low, high = stats.wilson_interval(0, 10)
    assert low == 0.0
    assert high == pytest.approx(stats.Z95**2 / (10 + stats.Z95**2))  # k = 0: z²/(n + z²)
    assert high == pytest.approx(0.2775, abs=5e-5)


@pytest.mark.parametrize(
    ("k", "n", "low", "high"),
    [  # Newcombe (1998), Statistics in Medicine 17:857-872, Table I, method 3 (Wilson score, no correction)
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0000, 0.1611),
        (1, 29, 0.0061, 0.1718),
    ],
)
def test_wilson_interval_matches_newcombes_published_table(k, n, low, high):
    got = stats.wilson_interval(k, n)
    assert got[0] == pytest.approx(low, abs=6e-5)
    assert got[1] == pytest.approx(high, abs=6e-5)


@given(st.integers(1, 400).flatmap(lambda n: st.tuples(st.integers(1, n - 1) if n > 1 else st.just(0),
                                                        st.just(n))))
def test_wilson_ends_are_where_the_score_test_equals_z(kn):
    k, n = kn
    low, high = stats.wilson_interval(k, n)
    assert 0 <= low <= k / n <= high <= 1
    for end in (low, high):
        if 0 < end < 1:
            assert score_statistic(end, k, n) == pytest.approx(stats.Z95, rel=1e-7)


def test_wilson_interval_shrinks_like_one_over_root_n():
    widths = [stats.wilson_interval(n // 2, n) for n in (10, 100, 1000, 10_000)]
    widths = [h - lo for lo, h in widths]
    assert all(a > b for a, b in zip(widths, widths[1:], strict=False))
    assert widths[-2] / widths[-1] == pytest.approx(math.sqrt(10), rel=0.01)


def test_wilson_interval_refuses_impossible_counts():
    for k, n in ((5, 4), (-1, 3), (1.5, 3)):
        with pytest.raises(ValueError, match="k"):
            stats.wilson_interval(k, n)
    assert stats.wilson_interval(0, 0) == (0.0, 1.0)


# ------------------------------------------------------------ exact binomial test

def test_exact_binomial_9_heads_of_10_is_22_over_1024():
    assert stats.binomial_test(9, 10) == pytest.approx(22 / 1024, rel=1e-12)


def test_exact_binomial_matches_rs_binom_test_documentation():
    # R's ?binom.test example (Conover 1971): 682 of 925 plants "giant" under p = 3/4 gives p-value = 0.3825.
    assert stats.binomial_test(682, 925, Fraction(3, 4)) == pytest.approx(0.3825, abs=5e-5)
    # binom.test(52, 100) prints p-value = 0.7644.
    assert stats.binomial_test(52, 100) == pytest.approx(0.7644, abs=5e-5)


@pytest.mark.parametrize(("k", "n", "p"), [(0, 5, Fraction(1, 2)), (3, 17, Fraction(1, 2)), (60, 100, Fraction(1, 2)),
                                           (7, 20, Fraction(3, 10)), (2, 12, Fraction(1, 6)), (10, 10, Fraction(1, 3))])
def test_exact_binomial_equals_direct_summation(k, n, p):
    assert stats.binomial_test(k, n, p) == pytest.approx(float(min(1, direct_two_sided(k, n, p))), rel=1e-12)


def test_exact_binomial_middle_count_is_one():
    assert stats.binomial_test(50, 100) == 1.0
    assert stats.binomial_test(0, 0) == 1.0


def test_binomial_pmf_is_exact_and_sums_to_one():
    assert stats.binomial_pmf(2, 4) == Fraction(6, 16)
    assert sum(stats.binomial_pmf(i, 9, Fraction(1, 6)) for i in range(10)) == 1


# ------------------------------------------------------------ normal approximation

def test_normal_approximation_for_52_of_100():
    z, p = stats.normal_test(52, 100)
    assert z == pytest.approx(0.4)
    assert p == pytest.approx(0.689157, abs=1e-6)  # 2(1 - Φ(0.4)), Φ(0.4) = 0.655422 from a normal table
    z, p = stats.normal_test(52, 100, continuity=True)
    assert z == pytest.approx(0.3)
    assert p == pytest.approx(0.764177, abs=1e-6)  # 2(1 - Φ(0.3)), Φ(0.3) = 0.617911


def test_normal_approximation_approaches_the_exact_test_for_large_n():
    exact = stats.binomial_test(5300, 10_000)
    _z, approx = stats.normal_test(5300, 10_000, continuity=True)
    assert approx == pytest.approx(exact, rel=0.02)
    # ... but for a small n it can be far off:
    assert abs(stats.normal_test(9, 10)[1] - stats.binomial_test(9, 10)) > 0.01


def test_sign_test_drops_even_pairs():
    assert stats.sign_test(9, 1) == pytest.approx(stats.binomial_test(9, 10))
    assert stats.sign_test(0, 0) == 1.0


def test_share_text():
    s = stats.share(52, 100)
    assert s.text() == "52.0% (42.3–61.5)"
    assert stats.share(0, 0).text() == "-"


def test_mean_and_sd():
    assert stats.mean_and_sd([2, 4, 4, 4, 5, 5, 7, 9]) == pytest.approx((5.0, math.sqrt(32 / 7)))
    assert stats.mean_and_sd([]) == (0.0, 0.0)


@given(st.integers(0, 60), st.sampled_from([Fraction(1, 2), Fraction(1, 3), Fraction(1, 4), Fraction(2, 7)]))
def test_binomial_weights_are_the_exact_distribution(n, p):
    weights, total = stats.binomial_weights(n, p)
    assert sum(weights) == total
    assert [Fraction(w, total) for w in weights] == [stats.binomial_pmf(i, n, p) for i in range(n + 1)]


def test_binomial_test_at_the_edges_of_p():
    assert stats.binomial_test(0, 5, Fraction(0)) == 1.0
    assert stats.binomial_test(1, 5, Fraction(0)) == 0.0
    assert stats.binomial_test(5, 5, Fraction(1)) == 1.0
