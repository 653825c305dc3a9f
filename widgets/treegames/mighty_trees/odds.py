"""Card-draw odds for Mighty Trees: exact hypergeometric Fractions from the cards actually left.

Pure Python (no UI imports).  Every number a lesson or an Odds tab shows comes
from here, computed from a real state.

How drawing works in the engine (rulebook: Game Layout, Regroup Phase)
----------------------------------------------------------------------
The draw pile has no order: each draw is equally likely to be any card left in
it, so ``k`` draws are a random ``k``-card subset -- drawing *without
replacement*.  The chance of exactly ``h`` wanted cards among them is the
**hypergeometric** number ``C(K, h) C(N - K, k - h) / C(N, k)`` (``N`` cards,
``K`` of them wanted).  When the draw pile runs out during a Regroup, the
face-up litter pile is turned over and becomes the new draw pile; later draws
come from those (known) cards.

Two points of view (:func:`pool_for`)
-------------------------------------
* The table's (``player=None``, the Teacher view): the draw pile exactly as it
  is.  Unknown cards = the draw pile.
* A player's: every card that player cannot see -- the draw pile *and* the
  other players' Commands -- is unknown.  Our model (the rulebook says nothing
  about it): for that player the draw pile is a random ``draw_size``-card
  subset of their unknown cards, all subsets equally likely.  Then ``k`` draws
  (``k`` at most the draw pile) are a random ``k``-subset of the unknown cards,
  and the same hypergeometric formula holds with ``N`` = unknown cards.

Nothing in this module changes a state.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import comb

from ..core import plural
from . import Kind, Phase, draw_pile_cards
from .data import COMMAND_SIZE

DECK = draw_pile_cards()

__all__ = [
    "NoSuchPosition",
    "first_regroup",
    "short_pile_regroup",
    "lesson_playout",
    "DrawPool",
    "OddsLine",
    "hypergeometric",
    "hypergeometric_distribution",
    "binomial_distribution",
    "at_least_one",
    "at_least_one_with_replacement",
    "pool_for",
    "hits_distribution",
    "chance_of_hit",
    "chance_with_replacement",
    "expected_hits",
    "fits_habitat",
    "is_disaster",
    "is_tree",
    "draws_at_regroup",
    "regroup_odds",
    "simulate_hits",
    "engine_regroup_draws",
    "composition",
    "replacement_gaps",
    "gap_sentence",
    "Band",
    "binomial_cdf_weights",
    "simulation_band",
]

Card = object  # a draw-pile card (TreeCard, CloudCard, TrendCard or DisasterCard)
Wanted = Callable[[object], bool]


# ---------------------------------------------------------------- the formulas


def hypergeometric(population: int, successes: int, draws: int, hits: int) -> Fraction:
    """P(exactly ``hits`` wanted cards in ``draws`` draws without replacement from ``population``)."""
    _check_counts(population, successes, draws)
    if not 0 <= hits <= draws:
        return Fraction(0)
    return Fraction(comb(successes, hits) * comb(population - successes, draws - hits), comb(population, draws))


def hypergeometric_distribution(population: int, successes: int, draws: int) -> dict[int, Fraction]:
    """{hits: probability} for ``draws`` draws without replacement; the values sum to exactly 1."""
    _check_counts(population, successes, draws)
    dist = {h: hypergeometric(population, successes, draws, h) for h in range(draws + 1)}
    return {h: p for h, p in dist.items() if p}


def binomial_distribution(population: int, successes: int, draws: int) -> dict[int, Fraction]:
    """{hits: probability} if each card drawn were put back and the pile reshuffled (with replacement)."""
    if population <= 0:
        raise ValueError("drawing with replacement needs at least one card")
    _check_counts(population, successes, 0)
    if draws < 0:
        raise ValueError(f"the number of draws must be 0 or more, not {draws}")
    p = Fraction(successes, population)
    dist = {h: comb(draws, h) * p**h * (1 - p) ** (draws - h) for h in range(draws + 1)}
    return {h: q for h, q in dist.items() if q}


def at_least_one(population: int, successes: int, draws: int) -> Fraction:
    """P(at least one wanted card) in ``draws`` draws without replacement: 1 - C(N-K, k) / C(N, k)."""
    _check_counts(population, successes, draws)
    return 1 - Fraction(comb(population - successes, draws), comb(population, draws))


def at_least_one_with_replacement(population: int, successes: int, draws: int) -> Fraction:
    """P(at least one wanted card) in ``draws`` draws with replacement: 1 - (1 - K/N)^k."""
    if population <= 0:
        raise ValueError("drawing with replacement needs at least one card")
    _check_counts(population, successes, 0)
    return 1 - (1 - Fraction(successes, population)) ** draws


def _check_counts(population: int, successes: int, draws: int) -> None:
    """ValueError unless 0 <= successes <= population and 0 <= draws <= population."""
    if not 0 <= successes <= population:
        raise ValueError(f"wanted cards must be 0 to {population} (the cards there are), not {successes}")
    if not 0 <= draws <= population:
        raise ValueError(f"draws must be 0 to {population} (the cards there are), not {draws}")


def _convolve(a: dict[int, Fraction], b: dict[int, Fraction]) -> dict[int, Fraction]:
    """The distribution of the sum of two independent counts."""
    out: dict[int, Fraction] = {}
    for x, p in a.items():
        for y, q in b.items():
            out[x + y] = out.get(x + y, Fraction(0)) + p * q
    return dict(sorted(out.items()))


# ---------------------------------------------------------------- what is left to draw


@dataclass(frozen=True)
class DrawPool:
    """What one viewer knows about the coming draws: unknown cards, the draw pile's size, the litter."""

    unknown: tuple  # cards the viewer cannot see; the draw pile is a random pile_size-subset of them
    pile_size: int  # cards in the draw pile now
    litter: tuple  # the face-up litter pile: the new draw pile after a reshuffle
    viewer: int | None  # the player whose view this is, or None for the table (Teacher view)

    @property
    def most_draws(self) -> int:
        """The most cards that can still be drawn (the draw pile, then the reshuffled litter)."""
        return self.pile_size + len(self.litter)

    def count(self, wanted: Wanted, cards: Iterable | None = None) -> int:
        """How many of ``cards`` (default: the unknown cards) are wanted."""
        return sum(1 for c in (self.unknown if cards is None else cards) if wanted(c))


def _pile_ids(state) -> tuple[int, ...]:
    """The card ids in the draw pile (the engine knows them; only the Teacher view uses this)."""
    return tuple(state.draw)


def pool_for(state, player: int | None = None) -> DrawPool:
    """The draw pool seen by ``player`` (their unknown cards), or by the whole table when ``player`` is None."""
    litter = tuple(state.litter_cards)
    if player is None:
        pile = tuple(DECK[c] for c in _pile_ids(state))
        return DrawPool(pile, len(pile), litter, None)
    view = state.view_for(player)
    seen = {c.id for c in view.hand} | {c.id for c in view.litter} | {c.id for c in view.trends}
    seen |= {c.id for c, _owner, _rounds in view.weather}
    for side in view.understory + view.canopy:
        seen |= {t.id for t in side if t is not None}
    deck_mask = state.game.deck_mask
    unknown = tuple(c for c in DECK if deck_mask >> c.id & 1 and c.id not in seen)
    others = sum(n for p, n in enumerate(view.hand_sizes) if p != player)
    if len(unknown) != view.draw_size + others:
        raise ValueError(
            f"card count mismatch: {len(unknown)} unknown cards, but draw pile {view.draw_size} "
            f"+ other Commands {others}"
        )
    return DrawPool(unknown, view.draw_size, litter, player)


def composition(cards: Iterable) -> dict[Kind, int]:
    """How many cards of each kind (tree, cloud, trend, disaster), in that order."""
    counts = Counter(c.kind for c in cards)
    return {kind: counts.get(kind, 0) for kind in Kind}


# ---------------------------------------------------------------- what a player may want


def is_tree(card) -> bool:
    """Any tree card."""
    return card.kind is Kind.TREE


def is_disaster(card) -> bool:
    """Any disaster card."""
    return card.kind is Kind.DISASTER


def fits_habitat(temperature: int, water: int) -> Wanted:
    """'A tree that could be planted in these conditions' (the engine's TreeCard.fits), as a test on cards."""

    def fits(card) -> bool:
        return card.kind is Kind.TREE and card.fits(temperature, water)

    fits.__doc__ = f"A tree whose ranges hold temperature {temperature} and water {water}."
    return fits


# ---------------------------------------------------------------- odds of the coming draws


def hits_distribution(pool: DrawPool, wanted: Wanted, draws: int) -> dict[int, Fraction]:
    """{wanted cards among the next ``draws`` draws: exact probability}, the litter reshuffle included."""
    if not 0 <= draws <= pool.most_draws:
        raise ValueError(f"draws must be 0 to {pool.most_draws} (draw pile plus litter), not {draws}")
    first = min(draws, pool.pile_size)
    dist = hypergeometric_distribution(len(pool.unknown), pool.count(wanted), first)
    later = draws - first
    if later:  # the draw pile ran out: the known litter is the new pile
        dist = _convolve(dist, hypergeometric_distribution(len(pool.litter), pool.count(wanted, pool.litter), later))
    return dist


def chance_of_hit(pool: DrawPool, wanted: Wanted, draws: int) -> Fraction:
    """P(at least one wanted card in the next ``draws`` draws), the litter reshuffle included."""
    return 1 - hits_distribution(pool, wanted, draws).get(0, Fraction(0))


def chance_with_replacement(pool: DrawPool, wanted: Wanted, draws: int) -> Fraction:
    """The same question if every card drawn went back into the pile (a comparison, not the game)."""
    if not pool.unknown:
        return Fraction(0)
    return at_least_one_with_replacement(len(pool.unknown), pool.count(wanted), draws)


def expected_hits(pool: DrawPool, wanted: Wanted, draws: int) -> Fraction:
    """The exact expected number of wanted cards in the next ``draws`` draws."""
    return sum((h * p for h, p in hits_distribution(pool, wanted, draws).items()), Fraction(0))


def draws_at_regroup(state, player: int) -> int:
    """How many cards ``player`` would draw in a Regroup with the Command they hold now (Regroup Phase)."""
    return max(0, COMMAND_SIZE - len(state.view_for(player).hand))


@dataclass(frozen=True)
class OddsLine:
    """One question about the coming draws, with its exact answer and the counts behind it."""

    question: str
    chance: Fraction
    with_replacement: Fraction
    wanted: int  # wanted cards among the unknown cards
    unknown: int  # unknown cards
    draws: int
    note: str = ""


def regroup_odds(state, player: int | None = None) -> list[OddsLine]:
    """The Odds tab's questions for a Regroup of 1, 2 or 3 cards, from ``player``'s view (default: the mover's).

    A Regroup fills the Command to 3 cards, so it draws as many cards as were played
    or discarded this turn: every size from 1 to 3 is shown (``draws_at_regroup`` says
    which one the Command held now would give).
    """
    if state.habitat_card is None or state.phase is Phase.GAME_OVER:
        return []
    viewer = state.mover if player is None else player
    if viewer < 0:
        return []
    pool = pool_for(state, viewer)
    t, w = state.conditions()
    questions = [
        (f"at least one tree that fits the habitat now (temperature {t}, water {w})", fits_habitat(t, w)),
        ("at least one tree of any kind", is_tree),
        ("at least one disaster", is_disaster),
    ]
    lines = []
    for words, wanted in questions:
        for n in range(1, min(COMMAND_SIZE, pool.most_draws) + 1):
            note = ""
            if n > pool.pile_size:
                note = (
                    f"only {plural(pool.pile_size, 'card')} left in the draw pile: then the litter pile "
                    f"({len(pool.litter)} face-up cards) becomes the new draw pile (Game Layout)"
                )
            lines.append(
                OddsLine(
                    question=words,
                    chance=chance_of_hit(pool, wanted, n),
                    with_replacement=chance_with_replacement(pool, wanted, n),
                    wanted=pool.count(wanted),
                    unknown=len(pool.unknown),
                    draws=n,
                    note=note,
                )
            )
    return lines


# ---------------------------------------------------------------- with or without replacement, in words


def replacement_gaps(population: int, successes: int, most: int) -> list[Fraction]:
    """For k = 1..most draws: P(at least one) without replacement minus the same with replacement."""
    return [at_least_one(population, successes, k) - at_least_one_with_replacement(population, successes, k)
            for k in range(1, most + 1)]


def gap_sentence(population: int, successes: int, most: int) -> str:
    """How the gap between the two chances changes from 1 to ``most`` draws, read off the exact numbers."""
    gaps = replacement_gaps(population, successes, most)
    points = [float(g * 100) for g in gaps]
    equal = [k for k, g in enumerate(gaps, start=1) if g == 0]
    higher = [k for k, g in enumerate(gaps, start=1) if g > 0]
    sentences = []
    if equal == [1]:
        sentences.append("With 1 card the two chances are exactly equal: a single draw has nothing to remember")
    elif equal:
        sentences.append(f"With {', '.join(map(str, equal))} cards the two chances are exactly equal")
    if higher:
        first, last = higher[0], higher[-1]
        peak = max(higher, key=lambda k: gaps[k - 1])
        rising = all(gaps[k] >= gaps[k - 1] for k in range(first, peak))
        falling = all(gaps[k] <= gaps[k - 1] for k in range(peak, last))
        span = f"From {first} cards on" if last == most else f"For {first} to {last} cards"
        shape = (f"{span} the chance without replacement is higher; the gap {'grows' if rising else 'moves'} "
                 f"to its largest, {points[peak - 1]:.2f} points, at {peak} cards")
        if peak < last:
            shape += (f", then {'shrinks' if falling else 'changes'} to {points[last - 1]:.2f} points at "
                      f"{last} cards, as both chances close in on certainty")
        sentences.append(shape)
    return ". ".join(sentences or ["The two chances agree"]) + "."


# ---------------------------------------------------------------- where simulations land


@dataclass(frozen=True)
class Band:
    """The central range of a binomial count: ``low`` to ``high`` successes hold at least ``level`` of the chance."""

    trials: int
    low: int
    high: int
    coverage: Fraction  # the exact chance of a count from low to high
    level: Fraction

    def holds(self, count: int) -> bool:
        """True if ``count`` successes lie inside the band."""
        return self.low <= count <= self.high


def binomial_cdf_weights(trials: int, chance: Fraction) -> tuple[list[int], int]:
    """Whole numbers w_0..w_n with P(i successes in ``trials``) = w_i / total exactly (chance = a/b, total = b^n)."""
    chance = Fraction(chance)
    if not 0 <= chance <= 1:
        raise ValueError(f"a chance lies between 0 and 1, not {chance}")
    if type(trials) is not int or trials < 0:
        raise ValueError(f"the number of simulated Regroups must be a whole number 0 or more, not {trials!r}")
    a, b = chance.numerator, chance.denominator
    c = b - a
    if a == 0 or c == 0:
        weights = [0] * (trials + 1)
        weights[0 if a == 0 else trials] = 1
        return weights, 1
    weights = [c**trials]
    for i in range(trials):
        weights.append(weights[-1] * (trials - i) * a // ((i + 1) * c))
    return weights, b**trials


def simulation_band(chance: Fraction, trials: int, level: Fraction = Fraction(95, 100)) -> Band:
    """Where ``level`` of all runs of ``trials`` simulated Regroups land: exact binomial quantiles around the chance.

    ``low`` is the smallest count whose cumulative chance reaches (1 - level)/2 and
    ``high`` the smallest whose cumulative chance reaches (1 + level)/2, so at most
    (1 - level)/2 of the runs fall below the band and at most that many above it.
    """
    level = Fraction(level)
    if not 0 < level < 1:
        raise ValueError(f"the band's level lies strictly between 0 and 1, not {level}")
    weights, total = binomial_cdf_weights(trials, chance)
    tail = (1 - level) / 2
    low_target, high_target = tail * total, (1 - tail) * total
    low = high = None
    running = 0
    for i, w in enumerate(weights):
        running += w
        if low is None and running >= low_target:
            low = i
        if running >= high_target:
            high = i
            break
    coverage = Fraction(sum(weights[low:high + 1]), total)
    return Band(trials, low, high, coverage, level)


# ---------------------------------------------------------------- simulation


def simulate_hits(pool: DrawPool, wanted: Wanted, draws: int, rng: random.Random, trials: int) -> Counter:
    """Counts of wanted cards drawn over ``trials`` simulated Regroups of ``draws`` cards (seeded rng)."""
    if not 0 <= draws <= pool.most_draws:
        raise ValueError(f"draws must be 0 to {pool.most_draws} (draw pile plus litter), not {draws}")
    first = min(draws, pool.pile_size)
    later = draws - first
    unknown_flags = [wanted(c) for c in pool.unknown]
    litter_flags = [wanted(c) for c in pool.litter]
    counts: Counter = Counter()
    for _ in range(trials):
        hits = sum(rng.sample(unknown_flags, first))
        if later:
            hits += sum(rng.sample(litter_flags, later))
        counts[hits] += 1
    return counts


def engine_regroup_draws(state, rng: random.Random) -> list:
    """The cards the real engine deals the mover in one sampled Regroup (state must be in its Regroup Phase)."""
    if state.phase is not Phase.REGROUP:
        raise ValueError(f"a Regroup is sampled from the Regroup Phase, not the {state.phase.value} phase")
    mover = state.mover
    before = {c.id for c in state.hand(mover)}
    while state.phase is Phase.REGROUP and state.mover == mover:
        state = state.apply(state.sample_chance(rng))
    return [c for c in state.hand(mover) if c.id not in before]


def sample_counts(samples: Sequence[Sequence], wanted: Wanted) -> Counter:
    """How many wanted cards each sampled hand of draws held, counted."""
    return Counter(sum(1 for c in drawn if wanted(c)) for drawn in samples)


# ---------------------------------------------------------------- lesson positions (seeded games by random bots)


class NoSuchPosition(ValueError):
    """No seeded game within reach has the position asked for."""


SEARCHED_SEEDS = 200
"""How many seeds from the one asked for are tried before a position is declared not found."""


def lesson_playout(seed: int, players: int, stop: Callable[[object], bool], limit: int = 4000):
    """A seeded game between random bots, up to the first state where ``stop`` holds (None if it never does)."""
    from .. import core
    from . import new_game

    rng = random.Random(seed)
    bot = core.RandomBot(rng)
    state = new_game(players).new_initial_state()
    for _ in range(limit):
        if stop(state):
            return state
        if state.is_terminal():
            return None
        state = state.apply(state.sample_chance(rng) if state.current_player == core.CHANCE else bot.choose(state))
    return None


def _first_position(seed: int, players: int, stop: Callable[[object], bool], what: str):
    """The first state where ``stop`` holds in the game of ``seed`` or one of the next seeds."""
    for attempt in range(seed, seed + SEARCHED_SEEDS):
        state = lesson_playout(attempt, players, stop)
        if state is not None:
            return state
    raise NoSuchPosition(f"no {what} found in the {SEARCHED_SEEDS} games from seed {seed}")


def first_regroup(seed: int = 1, players: int = 3, draws: int = 2):
    """The first Regroup (of a seeded game, or the next seeds') in which the mover draws ``draws`` cards."""
    return _first_position(seed, players, lambda s: s.phase is Phase.REGROUP
                           and draws_at_regroup(s, s.mover) == draws, f"Regroup of {draws} cards")


def short_pile_regroup(seed: int = 1, players: int = 2):
    """A Regroup where the draw pile holds fewer cards than the mover must draw: the litter will be reshuffled."""
    return _first_position(seed, players, lambda s: s.phase is Phase.REGROUP and 0 < s.draw_size
                           < draws_at_regroup(s, s.mover) and len(s.litter_cards) > 8, "Regroup from a short pile")
