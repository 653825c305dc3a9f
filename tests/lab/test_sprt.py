"""The sequential probability ratio test against published figures, exact cases and its promised error rates."""

from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from treegames.lab import TournamentSpec
from treegames.lab.sequential import (
    Tracker,
    block_outcomes,
    block_support,
    fixed_games,
    game_score,
    run_sequential,
    simulate,
)
from treegames.lab.sprt import (
    Decision,
    Sprt,
    SprtError,
    estimate,
    histogram_of,
    llr_expectation,
    llr_normalized,
    pentanomial,
    wald_bounds,
)
from treegames.lab.tournament import GameRecord, play_games

# ------------------------------------------------------------ published figures
# Each row: a count as engine testing prints it, its normalized-Elo bounds, and the LLR printed beside it
# (two decimals). Trinomial rows are [L, D, W]; pentanomial rows are Ptnml(0-2) [LL, LD, DD+WL, WD, WW].
PUBLISHED = [
    # fastchess's own unit tests (matchmaking/sprt tests): trinomial counts, normalized model
    ([36027, 68692, 36433], (0.0, 2.0), 0.92),
    ([10650, 20431, 10871], (-1.75, 0.25), 2.30),
    # fastchess match reports quoted in public repositories' READMEs and logs (pentanomial)
    ([0, 0, 1, 8, 1], (0.0, 50.0), 1.24),
    ([352, 579, 1264, 743, 464], (9.0, 16.0), 4.60),
    ([307, 619, 1202, 725, 353], (0.0, 5.0), 2.95),
    ([40, 67, 295, 123, 54], (0.0, 10.0), 2.95),
    ([120, 246, 645, 386, 302], (40.0, 45.0), 2.95),
    ([0, 0, 2, 0, 37], (0.0, 20.0), 2.96),
    ([29, 80, 142, 101, 60], (-5.0, 5.0), 2.97),
    # a GUI's SPRT tests (pentanomial), including the regularized corner cases
    ([0, 0, 0, 0, 3], (-1.75, 0.25), 0.02),
    ([10, 5, 2, 5, 10], (-1.75, 0.25), 0.00),
]


@pytest.mark.parametrize(("counts", "bounds", "printed"), PUBLISHED)
def test_the_llr_matches_engine_testings_printed_figure_to_its_two_decimals(counts, bounds, printed):
    assert f"{llr_normalized(counts, *bounds):.2f}" == f"{printed:.2f}"


def test_walds_bounds_for_five_percent_errors_are_the_printed_2_94():
    lower, upper = wald_bounds(0.05, 0.05)
    assert (f"{lower:.2f}", f"{upper:.2f}") == ("-2.94", "2.94")
    assert f"{wald_bounds(0.01, 0.01)[1]:.2f}" == "4.60"


# ------------------------------------------------------------ exact cases


@given(st.integers(1, 400), st.integers(1, 400),
       st.floats(0.05, 0.95), st.floats(0.05, 0.95))
def test_with_only_wins_and_losses_the_llr_is_the_bernoulli_likelihood_ratio(wins, losses, s0, s1):
    """Two outcomes and no regularization: the constrained fit is the Bernoulli itself, so the LLR is exact."""
    histogram = {Fraction(0): losses, Fraction(1): wins}
    exact = wins * math.log(s1 / s0) + losses * math.log((1 - s1) / (1 - s0))
    assert llr_expectation(histogram, s0, s1) == pytest.approx(exact, rel=1e-9, abs=1e-9)


@given(st.lists(st.integers(0, 50), min_size=5, max_size=5).filter(lambda c: sum(c) > 0))
def test_the_llr_changes_sign_when_the_hypotheses_swap(counts):
    histogram = pentanomial(counts)
    forward = llr_expectation(histogram, 0.5, 0.55, support=histogram)
    backward = llr_expectation(histogram, 0.55, 0.5, support=histogram)
    assert forward == pytest.approx(-backward, abs=1e-9)


@settings(max_examples=300)
@given(st.lists(st.integers(0, 60), min_size=5, max_size=5).filter(lambda c: sum(c) > 0))
@example([40, 41, 42, 3, 3])  # the fit's multiplier once stopped at a pole here (a tiny Newton step taken as convergence)
def test_more_wins_never_lower_the_llr(counts):
    """Moving one pair from the worst outcome it has to the best raises the evidence for 'better'."""
    worst = next(i for i, c in enumerate(counts) if c)
    better = list(counts)
    better[worst] -= 1
    better[4] += 1
    support = block_support(2)
    assert (llr_expectation(pentanomial(better), 0.5, 0.55, support)
            >= llr_expectation(pentanomial(counts), 0.5, 0.55, support) - 1e-9)


def test_no_blocks_means_no_evidence():
    assert llr_expectation({}, 0.5, 0.55) == 0.0
    assert llr_normalized([0, 0, 0, 0, 0], -1.75, 0.25) == 0.0


def test_a_test_decides_at_its_bounds_and_not_before():
    test = Sprt(0.5, 0.55)
    lower, upper = test.bounds
    assert test.decide(upper) is Decision.H1
    assert test.decide(lower) is Decision.H0
    assert test.decide(upper - 1e-9) is Decision.CONTINUE
    assert test.decide(0.0) is Decision.CONTINUE
    assert "bounds -2.94, +2.94" in test.describe()


def test_four_players_test_against_a_quarter():
    assert Sprt.fair_share(4) == Sprt(0.25, 0.30)
    assert Sprt.fair_share(2) == Sprt(0.5, 0.55)


@pytest.mark.parametrize(("settings_", "field"), [
    (dict(s0=0.5, s1=0.5), "s0 and s1"), (dict(s0=0.0), "s0"), (dict(s1=1.2), "s1"),
    (dict(alpha=0.0), "alpha"), (dict(beta=0.5), "beta"), (dict(alpha="0.05"), "alpha"),
])
def test_impossible_settings_are_refused_by_name(settings_, field):
    with pytest.raises(SprtError, match=field):
        Sprt(**settings_)


@pytest.mark.parametrize(("counts", "words"), [([1, 2], "3 entries"), ([1, 2, -1], "at least 0"),
                                               ([1, 2, 3, 4, 5.0], "whole number")])
def test_malformed_counts_are_refused_by_name(counts, words):
    with pytest.raises(SprtError, match=words):
        pentanomial(counts)


def test_outcomes_outside_zero_to_one_are_refused():
    with pytest.raises(SprtError, match="from 0 to 1"):
        histogram_of([0.5, 1.5])


def test_the_estimate_is_the_mean_score_with_a_normal_interval_over_blocks():
    histogram = pentanomial([10, 20, 40, 20, 10])  # symmetric: mean exactly a half
    result = estimate(histogram)
    assert result.mean == pytest.approx(0.5)
    assert result.low < 0.5 < result.high
    assert result.blocks == 100
    assert result.elo_text().startswith("+0 (")


def test_blocks_all_won_still_get_an_interval_that_is_not_a_point():
    result = estimate(pentanomial([0, 0, 0, 0, 12]), games_per_block=2)
    assert result.mean == 1.0
    assert result.low < 0.9 and result.high == 1.0


# ------------------------------------------------------------ blocks from a tournament


def record(index: int, lineup: tuple[int, ...], winners: tuple[int, ...]) -> GameRecord:
    """A made-up record: only the line-up and the winners matter to the test."""
    return GameRecord(index=index, seats=tuple("ab"[e % 2] for e in lineup), lineup=lineup, first=0,
                      scores=(0,) * len(lineup), winners=winners, moves=1, actions=1)


def test_a_games_score_is_one_a_share_of_a_tie_the_fair_share_of_a_draw_or_nothing():
    assert game_score(record(0, (0, 1), (0,))) == 1
    assert game_score(record(0, (1, 0), (0,))) == 0
    assert game_score(record(0, (1, 0), (1,))) == 1  # entry 0 sits in seat 1 here
    assert game_score(record(0, (0, 1, 2), (0, 2))) == Fraction(1, 2)
    assert game_score(record(0, (0, 1, 2, 3), ())) == Fraction(1, 4)


def test_only_the_complete_blocks_from_the_first_count_in_order():
    spec = TournamentSpec("aspens", ("greedy", "random"), games=8, seed=1)
    games = [record(0, (0, 1), (0,)), record(1, (1, 0), (1,)),  # block 0: won both
             record(2, (0, 1), (1,)), record(3, (1, 0), (1,)),  # block 1: won one
             record(5, (1, 0), (1,))]  # block 2 incomplete, so block 3 cannot count yet
    assert block_outcomes(spec, games) == [Fraction(1), Fraction(1, 2)]


def test_a_tracker_stops_counting_at_its_decision():
    tracker = Tracker(Sprt(0.5, 0.55), players=2, block_size=2, cap=1000)
    while tracker.decision is Decision.CONTINUE:
        tracker.add(Fraction(1))
    decided_at = tracker.blocks
    tracker.add(Fraction(0))
    assert tracker.blocks == decided_at and tracker.decision is Decision.H1
    assert tracker.status().llr >= Sprt().bounds[1]


def test_a_tracker_reports_a_cap_without_a_decision():
    tracker = Tracker(Sprt(0.5, 0.55), players=2, block_size=2, cap=3)
    for outcome in (Fraction(1, 2),) * 5:
        tracker.add(outcome)
    status = tracker.status()
    assert status.blocks == 3 and status.capped and status.decision is Decision.CONTINUE
    assert "cap was reached" in status.sentence()


# ------------------------------------------------------------ error rates, simulated


@pytest.mark.slow
def test_simulated_sprts_keep_their_error_rates_and_peeking_does_not():
    """Under H0 the SPRT says 'better' about alpha of the time; looking after every pair says it far more often."""
    test = Sprt(0.5, 0.55)
    null = simulate(test, 0.5, experiments=200, seed=11)
    good = simulate(test, 0.55, experiments=200, seed=12)
    # 200 runs: 5% is 10 expected (sd 3.1); 22 is four sds above, a broken test, not bad luck
    assert null.h1 <= 22
    assert null.peeking_h1 >= 3 * max(null.h1, null.fixed_h1)
    assert good.h1 >= 200 - 22  # power about 95%
    # the SPRT needs fewer games on average than the fixed test with the same error rates
    assert good.mean_games < fixed_games(test) and null.mean_games < fixed_games(test)


@lru_cache(maxsize=1)
def forty_games() -> tuple[TournamentSpec, list[GameRecord]]:
    """Twenty seeded pairs of GreedyBot against RandomBot in Bosk, played once for the tests below."""
    spec = TournamentSpec("bosk", ("greedy", "random"), games=40, seed=5)
    return spec, play_games(spec, 0, 40)


@settings(max_examples=25, deadline=None)
@given(st.permutations(range(40)))
def test_a_match_decides_the_same_whatever_order_its_games_come_back_in(order):
    spec, games = forty_games()
    forward = Tracker(Sprt(), 2, 2, 20)
    for outcome in block_outcomes(spec, games):
        forward.add(outcome)
    shuffled = Tracker(Sprt(), 2, 2, 20)
    seen: list[GameRecord] = []
    for i in order:  # as worker processes might send them
        seen.append(games[i])
        for outcome in block_outcomes(spec, seen)[shuffled.blocks:]:
            shuffled.add(outcome)
    assert forward.status() == shuffled.status()


@pytest.mark.slow
def test_greedy_bot_is_proved_better_than_random_play_in_a_few_pairs_and_random_is_not_better_than_itself():
    better = run_sequential(TournamentSpec("bosk", ("greedy", "random"), games=400, seed=3), workers=1)
    assert better.decision is Decision.H1 and better.games < 400
    same = run_sequential(TournamentSpec("mighty_trees", ("random", "random"), games=2000, seed=3), workers=1)
    assert same.decision is not Decision.H1


def test_a_match_refuses_unrotated_seats_and_part_blocks():
    from treegames.lab.sequential import SequentialMatch

    with pytest.raises(SprtError, match="rotate"):
        SequentialMatch(TournamentSpec("aspens", ("greedy", "random"), games=10, rotate=False))
    with pytest.raises(SprtError, match="whole blocks"):
        SequentialMatch(TournamentSpec("bosk", ("greedy", "random", "random"), games=10))


def test_a_four_player_match_reports_whole_blocks_only_by_default():
    """The runner's own chunk for 60 games on one worker is 6 games: it would split the blocks of 4."""
    from treegames.lab.sequential import SequentialMatch

    seen: list[int] = []
    match = SequentialMatch(TournamentSpec("bosk", ("greedy", "random", "random", "random"), games=60, seed=2),
                            workers=1, progress=lambda status: seen.append(len(match.run.records())))
    match.start().wait()
    assert seen and all(n % 4 == 0 for n in seen), seen
    assert match.status().blocks * 4 == len(match.run.records())


@settings(max_examples=300)
@given(st.lists(st.integers(0, 200), min_size=5, max_size=5).filter(lambda c: sum(c) > 0),
       st.floats(0.02, 0.98))
def test_the_constrained_fit_is_a_distribution_with_the_asked_mean(counts, mean):
    """The heart of the statistic: for any counts, the fitted probabilities sum to 1 and have the asked mean."""
    from treegames.lab.sprt import _distribution, _fit_with_mean

    _blocks, pdf = _distribution(pentanomial(counts), block_support(2))
    fitted = _fit_with_mean(pdf, mean)
    assert all(q > 0 for q in fitted)
    assert sum(fitted) == pytest.approx(1.0, abs=1e-9)
    assert sum(a * q for (a, _), q in zip(pdf, fitted, strict=True)) == pytest.approx(mean, abs=1e-9)
