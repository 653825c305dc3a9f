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


# ------------------------------------------------------------ two shares, many tests, peeking

def test_two_proportion_test_matches_r_prop_test_without_correction():
    # R: prop.test(c(15, 25), c(50, 50), correct = FALSE) -> X-squared = 4.1667, p-value = 0.04123
    result = stats.two_proportion_test(15, 50, 25, 50)
    assert result.z**2 == pytest.approx(4.1667, abs=1e-4)
    assert result.p_value == pytest.approx(0.04123, abs=1e-5)
    assert result.difference == pytest.approx(-0.2)
    assert result.first.text() == stats.share(15, 50).text() and result.second.k == 25


def test_two_proportion_test_by_hand():
    # pooled share 50/200 = 0.25; z = (0.3 - 0.2) / sqrt(0.25 * 0.75 * (2/100)) = 0.1 / 0.061237 = 1.63299
    result = stats.two_proportion_test(30, 100, 20, 100)
    assert result.z == pytest.approx(0.1 / math.sqrt(0.25 * 0.75 * 0.02))
    assert result.p_value == pytest.approx(math.erfc(result.z / math.sqrt(2)))
    assert stats.two_proportion_test(0, 10, 0, 10).p_value == 1.0
    assert stats.two_proportion_test(3, 10, 0, 0).p_value == 1.0
    with pytest.raises(ValueError):
        stats.two_proportion_test(11, 10, 1, 10)


def test_fisher_exact_lady_tasting_tea_and_wikipedias_example():
    assert stats.fisher_exact(3, 1, 1, 3) == pytest.approx(34 / 70)  # Fisher 1935: 0.4857
    assert stats.fisher_exact(1, 9, 11, 3) == pytest.approx(0.002759, abs=1e-6)  # Wikipedia, "Fisher's exact test"
    assert stats.fisher_exact(5, 0, 0, 5) == pytest.approx(2 / 252)
    assert stats.fisher_exact(2, 2, 2, 2) == 1.0
    with pytest.raises(ValueError, match="cell c"):
        stats.fisher_exact(1, 1, -1, 1)


def test_holm_and_bonferroni_match_r_p_adjust():
    ps = [0.01, 0.02, 0.03, 0.04, 0.05]
    assert stats.holm(ps) == pytest.approx([0.05, 0.08, 0.09, 0.09, 0.09])  # p.adjust(ps, "holm")
    assert stats.bonferroni(ps) == pytest.approx([0.05, 0.10, 0.15, 0.20, 0.25])
    assert stats.holm([0.04, 0.001, 0.5]) == pytest.approx([0.08, 0.003, 0.5]), "in the order given"
    assert stats.holm([0.9, 0.8]) == [1.0, 1.0] and stats.holm([]) == []


@given(st.lists(st.floats(0, 1), min_size=1, max_size=12))
def test_holm_lies_between_the_raw_p_values_and_bonferroni(ps):
    for raw, h, b in zip(ps, stats.holm(ps), stats.bonferroni(ps), strict=True):
        assert raw <= h + 1e-12 and h <= b + 1e-12


@given(st.integers(1, 300).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))))
def test_wilson_contains_is_the_interval_itself(kn):
    k, n = kn
    low, high = stats.wilson_interval(k, n)
    if abs(low - 0.5) > 1e-9 and abs(high - 0.5) > 1e-9:
        assert stats.wilson_contains(k, n) == (low <= 0.5 <= high)


def test_false_alarm_chance_with_one_look_is_near_five_percent():
    # 10 games: the interval excludes 50% only at 0-1 and 9-10 wins: 2 * (1 + 10) / 1024.
    assert stats.false_alarm_chance(10) == pytest.approx(22 / 1024)
    assert 0.04 < stats.false_alarm_chance(400) < 0.06


def test_peeking_after_every_game_raises_many_false_alarms():
    result = stats.optional_stopping(experiments=1000, max_games=500, first_look=10, seed=1)
    assert result == stats.optional_stopping(experiments=1000, max_games=500, first_look=10, seed=1), "seeded"
    assert result.alarms_peeking == len(result.stops) and all(10 <= s <= 500 for s in result.stops)
    assert result.peeking.low > 0.25, "stopping at the first interval that excludes 50% alarms far above 5%"
    assert result.once.low <= result.exact_once <= result.once.high, "one look: about the exact 5.4%"
    assert result.alarms_peeking >= result.alarms_once, "every alarm at the last look was also seen by peeking"


def test_peeking_simulation_agrees_with_the_wilson_interval_game_by_game():
    import random

    mine = stats.optional_stopping(experiments=40, max_games=120, first_look=5, seed=9)
    rng = random.Random(9)
    stops = []
    for _ in range(40):
        wins, stop = 0, None
        for n in range(1, 121):
            wins += rng.random() < 0.5
            low, high = stats.wilson_interval(wins, n)
            if stop is None and n >= 5 and not low <= 0.5 <= high:
                stop = n
        if stop is not None:
            stops.append(stop)
    assert mine.stops == tuple(stops)
