"""Mighty Trees balance benchmark (issue 12): every balance figure next to its target, PASS or FAIL.

Run as ``python benchmarks/bench_mighty_trees_balance.py`` (``--games N`` per player count,
``--quick`` for a short run).  Every game figure is measured under both capture rules, side by side:
the printed rule (Capturing a Habitat: the second canopy tree captures at once, the default) and our
variant ``capture_at_round_end=True``; each has its own PASS/FAIL against the same target (the
targets of issue 12's balance pass, unchanged).  A target the printed rule misses is shown as FAIL:
the default follows the rule sheet, not the targets.  It uses only the public API (``treegames.core``,
``treegames.mighty_trees``) and fixed seeds, so two runs print the same figures.

Measured (GreedyBot in every seat, seed ``s`` for game ``s``, ``--games`` games per player count 2-8;
the targets cover 2-6, the rule sheet's counts; 7 and 8 seats are measured for information):

* turns per player = turns started in the game / players (median and 10th percentile at 2 players);
* early wins = games won before every player has had 3 turns (a win in total turn < 3 x players);
* draws = games that reach ``max_turns`` with no winner;
* seat win shares = wins by seat, counted from the seat that plays first, over the games won;
* kinds played = share of 2-player games in which a card of each kind is *played* (a tree
  planted, a cloud placed, a trend or disaster played), not just discarded;
* wrong-axis kills = trees killed by a climate card (trend, or water/temperature disaster) whose
  range on the axis that card changes still holds the new value (they died for the other axis);
* attack-free games = 2-player games with no attack, disaster or trend at all (information);
* reshuffles = how often the litter pile became the draw pile, per game (information, with the
  draw pile left after the deal: does the 72-card deck carry 7 and 8 players?);
* unplantable trees = trees in the mover's Command at the start of a turn whose ranges do not
  hold the current conditions (information).

Static figures from the card data: in how many of the 10 habitats each non-tree card is
playable *and does something* at the habitat's own conditions (a cloud or trend moves the
value, not clamped away; a disaster is allowed there and kills at least one species that can
be planted there); the largest share of a habitat's plantable species one disaster kills there
(fire/wind: strength, +2 if preferred, below the disaster's strength + the habitat's modifier;
water/temperature: the range on the changed axis misses the shifted value); trees that can
never reach the canopy; preferred species that cannot be planted in their own habitat.

GreedyBot against RandomBot (2 players, seats alternating) must win at least 95%.  RandomBot
self-play figures are printed for information.  The exit status is 0 either way (``make
bench`` runs every script); the last line counts the targets met.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import Counter
from collections.abc import Callable

from treegames import core
from treegames.mighty_trees import GreedyBot, draw_pile_cards, habitat_cards, new_game

PLAYER_COUNTS = (2, 3, 4, 5, 6, 7, 8)
RULES = (("printed", {}), ("variant", {"capture_at_round_end": True}))
"""The two capture rules compared: the rule sheet's (the default) and our round-end variant."""
DEFAULT_GAMES = 2000
CLIMATE = ("water", "temperature")
PREFERRED_BONUS = 2


def make_bot(cls: Callable, rng: random.Random):
    """A bot built as ``cls(rng)`` (the protocol) or, for an older engine, ``cls()``."""
    try:
        return cls(rng)
    except TypeError:
        return cls()


def verb_of(action) -> str:
    """The first word of an action's notation."""
    return str(action).split(" ", 1)[0]


def card_named(action):
    """The draw-pile card an action's notation names (plant/cloud/trend/disaster), or None."""
    text = str(action)
    verb, _, rest = text.partition(" ")
    if verb == "plant":
        rest = rest.split(" attack ")[0]
    elif verb == "disaster":
        rest = rest.split(" at P")[0]
    elif verb not in ("cloud", "trend"):
        return None
    return CARDS_BY_NAME.get(rest)


CARDS = draw_pile_cards()
CARDS_BY_NAME = {c.name: c for c in CARDS}
HABITATS = habitat_cards()
TREES = [c for c in CARDS if c.kind.value == "tree"]


def changed_axis(card) -> str | None:
    """'water' or 'temperature' for a climate card (trend or climate disaster), else None."""
    if card is None:
        return None
    kind = card.kind.value
    if kind == "trend":
        return card.affects.value
    if kind == "disaster" and card.element.value in CLIMATE:
        return card.element.value
    return None


def holds_on(tree, axis: str, temperature: int, water: int) -> bool:
    """Whether the tree's range on ``axis`` holds the given value."""
    if axis == "temperature":
        return tree.temp_min <= temperature <= tree.temp_max
    return tree.water_min <= water <= tree.water_max


def trees_on_board(state) -> dict[tuple, object]:
    """(player, place, slot) -> tree card, for every tree in play."""
    out = {}
    for p in range(state.num_players):
        for place, slots in (("u", state.understory(p)), ("c", state.canopy(p))):
            for i, tree in enumerate(slots):
                if tree is not None:
                    out[(p, place, i)] = tree
    return out


class Tally:
    """Counters over a batch of games."""

    def __init__(self) -> None:
        self.turns_per_player: list[float] = []
        self.games = 0
        self.draws = 0
        self.early_wins = 0
        self.seat_wins: Counter = Counter()
        self.kinds_played: Counter = Counter()
        self.quiet_games = 0
        self.climate_kills = 0
        self.wrong_axis_kills = 0
        self.hand_trees = 0
        self.hand_trees_unplantable = 0
        self.actions = 0
        self.reshuffles = 0
        self.cpu = 0.0


def play_measured(game, bots, rng: random.Random, tally: Tally) -> None:
    """Play one game, adding its figures to ``tally``."""
    n = game.num_players
    state = game.new_initial_state()
    first = -1
    kinds: set[str] = set()
    loud = False
    last_turn = -1
    while not state.is_terminal():
        if state.current_player == core.CHANCE:
            action = core.sample_chance(state, rng)
            if verb_of(action) == "first":
                first = int(str(action).split("P")[1]) - 1
            state = state.apply(action)
            continue
        mover = state.current_player
        if state.turn != last_turn:  # the start of a turn's Battle Phase
            last_turn = state.turn
            t, w = state.conditions()
            for card in state.hand(mover):
                if card.kind.value == "tree":
                    tally.hand_trees += 1
                    tally.hand_trees_unplantable += not card.fits(t, w)
        action = bots[mover].choose(state)
        verb = verb_of(action)
        card = card_named(action)
        axis = changed_axis(card)
        before = trees_on_board(state) if axis else None
        pile = state.draw_size
        state = state.apply(action)
        tally.reshuffles += state.draw_size > pile
        tally.actions += 1
        if verb == "plant":
            kinds.add("tree")
            loud |= " attack " in str(action)
        elif verb in ("cloud", "trend", "disaster"):
            kinds.add(verb)
            loud |= verb != "cloud"
        if axis:
            t, w = state.conditions()
            after = trees_on_board(state)
            for where, tree in before.items():
                if after.get(where) is not tree:
                    tally.climate_kills += 1
                    tally.wrong_axis_kills += holds_on(tree, axis, t, w)
    tally.games += 1
    tally.turns_per_player.append(state.turn / n)
    winners = state.winners()
    if not winners:
        tally.draws += 1
    else:
        tally.seat_wins[(winners[0] - first) % n] += 1
        tally.early_wins += state.turn < 3 * n
    tally.kinds_played.update(kinds)
    tally.quiet_games += not loud


def run_batch(players: int, games: int, bot_classes: list[Callable], seed_base: int = 0, **options) -> Tally:
    """``games`` seeded games at ``players`` players with the given bot class in each seat."""
    game = new_game(players, **options)
    tally = Tally()
    start = time.process_time()
    for seed in range(seed_base, seed_base + games):
        rng = random.Random(seed)
        bots = [make_bot(bot_classes[i % len(bot_classes)], rng) for i in range(players)]
        play_measured(game, bots, rng, tally)
    tally.cpu = time.process_time() - start
    return tally


def greedy_vs_random(games: int, **options) -> float:
    """GreedyBot's win rate against RandomBot at 2 players, seats alternating, seeded."""
    game = new_game(2, **options)
    wins = 0
    for seed in range(games):
        rng = random.Random(10_000 + seed)
        seat = seed % 2
        bots = [core.RandomBot(rng), core.RandomBot(rng)]
        bots[seat] = make_bot(GreedyBot, rng)
        final = core.play(game, bots, rng)
        wins += final.winners() == (seat,)
    return wins / games


# --------------------------------------------------------------------------
# Static figures from the card data


def plantable(habitat) -> list:
    """The tree cards whose ranges hold the habitat's own temperature and water."""
    return [t for t in TREES if t.fits(habitat.temperature, habitat.water)]


def allowed_in(card, habitat) -> bool:
    """Whether a disaster's power requirement (if any) is met by the habitat."""
    needs = getattr(card, "needs_power", None)
    return needs is None or needs == habitat.power


def clamp(value: int) -> int:
    """A temperature or water value kept within 1..9."""
    return max(1, min(9, value))


def disaster_kills(card, habitat) -> list:
    """The plantable species of ``habitat`` that ``card`` (targets all) kills at its own conditions."""
    element = card.element.value
    trees = plantable(habitat)
    if element in CLIMATE:
        t, w = habitat.temperature, habitat.water
        if element == "temperature":
            t = clamp(t + card.strength)
        else:
            w = clamp(w + card.strength)
        return [tree for tree in trees if not holds_on(tree, element, t, w)]
    force = card.strength + (habitat.fire_mod if element == "fire" else habitat.wind_mod)
    return [
        tree
        for tree in trees
        if getattr(tree, element) + (PREFERRED_BONUS if habitat.prefers(tree) else 0) < force
    ]


def does_something(card, habitat) -> bool:
    """Whether a non-tree card is playable in ``habitat`` and has an effect at its own conditions."""
    kind = card.kind.value
    if kind in ("cloud", "trend"):
        now = habitat.temperature if card.affects.value == "temperature" else habitat.water
        return clamp(now + card.change) != now
    return allowed_in(card, habitat) and bool(disaster_kills(card, habitat))


def static_figures() -> dict:
    """Figures computed from the card data alone."""
    non_trees = [c for c in CARDS if c.kind.value != "tree"]
    useful = {c.name: sum(does_something(c, h) for h in HABITATS) for c in non_trees}
    worst_share, worst = 0.0, ""
    for card in (c for c in CARDS if c.kind.value == "disaster"):
        for h in HABITATS:
            if not allowed_in(card, h) or not plantable(h):
                continue
            share = len(disaster_kills(card, h)) / len(plantable(h))
            if share > worst_share:
                worst_share, worst = share, f"{card.name} in {h.name}"
    misfits = [
        f"{t.name} in {h.name}"
        for h in HABITATS
        for t in TREES
        if h.prefers(t) and not t.fits(h.temperature, h.water)
    ]
    fits = {h.name: len(plantable(h)) for h in HABITATS}
    return {
        "useful": useful,
        "worst_share": worst_share,
        "worst": worst,
        "no_canopy": [t.name for t in TREES if not t.can_grow],
        "misfits": misfits,
        "fits": fits,
    }


# --------------------------------------------------------------------------
# Printing


class Report:
    """Rows of figure, then value and PASS/FAIL under each capture rule, then the target."""

    def __init__(self) -> None:
        self.met = {name: 0 for name, _ in RULES}
        self.total = 0

    def row(self, figure: str, values: dict[str, str], target: str, oks: dict[str, bool | None]) -> None:
        """Print one figure under both rules; ok=None means information only."""
        cells = []
        for name, _ in RULES:
            ok = oks[name]
            mark = "info" if ok is None else "PASS" if ok else "FAIL"
            self.met[name] += bool(ok)
            cells.append(f"{values[name]:>17} {mark:<4}")
        self.total += any(ok is not None for ok in oks.values())
        print(f"{figure:<58} {'  '.join(cells)}   {target}")

    def same(self, figure: str, value: str, target: str, ok: bool | None) -> None:
        """A figure that does not depend on the capture rule (card data, RandomBot self-play)."""
        self.row(figure, {name: value for name, _ in RULES}, target, {name: ok for name, _ in RULES})


def percentile(values: list[float], q: float) -> float:
    """The q-quantile (0-1) of ``values`` by the nearest-rank method."""
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, int(round(q * len(ordered) + 0.5)) - 1))
    return ordered[k]


def game_rows(tallies: dict[int, Tally]) -> list[tuple[str, str, str, bool | None]]:
    """(figure, value, target, ok) for every self-play figure of one capture rule."""
    rows: list[tuple[str, str, str, bool | None]] = []
    two = tallies[2]
    tpp = two.turns_per_player
    med = statistics.median(tpp)
    rows.append(("2p median turns per player", f"{med:.1f}", ">= 5", med >= 5))
    p10 = percentile(tpp, 0.10)
    rows.append(("2p 10th percentile turns per player", f"{p10:.1f}", ">= 3", p10 >= 3))
    for n, tally in tallies.items():
        share = tally.early_wins / tally.games
        rows.append((f"{n}p games won before every player had 3 turns", f"{share:.1%}", "<= 5%",
                     share <= 0.05 if n <= 6 else None))
    for n, tally in tallies.items():
        share = tally.draws / tally.games
        rows.append((f"{n}p draw rate (max_turns {new_game(n).max_turns})", f"{share:.1%}", "<= 5%",
                     share <= 0.05 if n <= 6 else None))
    for n, tally in tallies.items():
        won = sum(tally.seat_wins.values()) or 1
        shares = [tally.seat_wins[s] / won for s in range(n)]
        text = "/".join(f"{100 * s:.0f}" for s in shares)
        if n == 2:
            rows.append(("2p first-seat win share", f"{shares[0]:.1%}", "45-55%", 0.45 <= shares[0] <= 0.55))
        elif n in (4, 6):
            worst = max(abs(s - 1 / n) for s in shares)
            rows.append((f"{n}p seat win shares, worst seat off fair", f"{100 * worst:.1f} pts",
                         "<= 6 pts off fair", worst <= 0.06))
            rows.append((f"{n}p seat win shares", text, "", None))
        else:
            rows.append((f"{n}p seat win shares", text, "", None))
    for kind in ("tree", "cloud", "trend", "disaster"):
        share = two.kinds_played[kind] / two.games
        rows.append((f"2p games where a {kind} card is played", f"{share:.1%}", ">= 20%", share >= 0.20))
    kills = sum(t.climate_kills for t in tallies.values())
    wrong = sum(t.wrong_axis_kills for t in tallies.values())
    rows.append(("wrong-axis climate kills (of all climate kills)", f"{wrong}/{kills}", "0", wrong == 0))
    rows.append(("2p games with no attack, disaster or trend", f"{two.quiet_games / two.games:.1%}", "", None))
    unfit = two.hand_trees_unplantable / max(1, two.hand_trees)
    rows.append(("2p trees in Command at turn start not plantable now", f"{unfit:.1%}", "", None))
    for n in (6, 7, 8):
        if n in tallies:
            t = tallies[n]
            med = statistics.median(t.turns_per_player)
            rows.append((f"{n}p median turns per player, reshuffles per game", f"{med:.1f}, {t.reshuffles / t.games:.2f}",
                         "", None))
    return rows


def main() -> None:
    """Run every measure under both capture rules and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=DEFAULT_GAMES, help="greedy games per player count")
    parser.add_argument("--quick", action="store_true", help="200 games per player count")
    args = parser.parse_args()
    games = 200 if args.quick else args.games
    report = Report()
    print(f"mighty_trees balance: GreedyBot in every seat, {games} seeded games per player count")
    print("printed = the rule sheet (capture at once, the default); variant = capture_at_round_end=True")
    heads = "  ".join(f"{name:>17} {'':<4}" for name, _ in RULES)
    print(f"{'figure':<58} {heads}   target")

    cpu = 0.0
    actions = 0
    per_rule: dict[str, list] = {}
    for name, options in RULES:
        tallies = {n: run_batch(n, games, [GreedyBot], **options) for n in PLAYER_COUNTS}
        cpu += sum(t.cpu for t in tallies.values())
        actions += sum(t.actions for t in tallies.values())
        per_rule[name] = game_rows(tallies)
    for i, (figure, _value, target, _ok) in enumerate(per_rule[RULES[0][0]]):
        report.row(
            figure,
            {name: per_rule[name][i][1] for name, _ in RULES},
            target,
            {name: per_rule[name][i][3] for name, _ in RULES},
        )

    vs_games = 100 if args.quick else 400
    rates = {name: greedy_vs_random(vs_games, **options) for name, options in RULES}
    report.row(
        f"GreedyBot win rate vs RandomBot ({vs_games} 2p games)",
        {name: f"{rate:.1%}" for name, rate in rates.items()},
        ">= 95%",
        {name: rate >= 0.95 for name, rate in rates.items()},
    )

    static = static_figures()
    few = {name: k for name, k in static["useful"].items() if k < 5}
    least = min(static["useful"].items(), key=lambda item: item[1])
    report.same(f"non-tree cards useful in < 5 habitats ({len(few)}; least {least[0]})",
                f"{least[1]}/10", ">= 5/10 each", not few)
    for name, k in sorted(few.items(), key=lambda item: item[1]):
        print(f"    {name}: does something in {k} of 10 habitats")
    worst = static["worst_share"]
    report.same("largest disaster kill share", f"{worst:.0%}", "<= 50%", worst <= 0.5)
    print(f"    ({static['worst']})")
    report.same("tree cards that can never reach the canopy", f"{len(static['no_canopy'])}", "0",
                not static["no_canopy"])
    report.same("preferred species not plantable in their habitat", f"{len(static['misfits'])}", "0",
                not static["misfits"])
    for misfit in static["misfits"]:
        print(f"    {misfit}")
    fits = static["fits"]
    lo = min(fits, key=fits.get)
    report.same(f"fewest plantable species ({lo})", f"{fits[lo]}/50", "", None)
    deal = {n: len(CARDS) - 3 * n for n in (6, 7, 8)}
    report.same("draw pile after the deal at 6 / 7 / 8 players", "/".join(str(v) for v in deal.values()), "", None)

    random_games = 50 if args.quick else 200
    for n in (2, 6, 8):
        values = {}
        for name, options in RULES:
            tally = run_batch(n, random_games, [core.RandomBot], seed_base=20_000, **options)
            values[name] = f"{statistics.median(tally.turns_per_player):.1f}, {tally.draws / tally.games:.0%}"
        report.row(f"RandomBot {n}p ({random_games} games): median turns/player, draws", values, "",
                   {name: None for name, _ in RULES})
    print(f"greedy self-play: {actions} actions in {cpu:.1f} s CPU")
    for name, _ in RULES:
        print(f"mighty_trees balance targets met ({name}): {report.met[name]} of {report.total}")


if __name__ == "__main__":
    main()
