"""The experiments a class can pool, as an enum, and each one's domain: its outcomes and exact chances.

* :class:`SunDie` -- the Aspens Sun die for a stack configuration the teacher picks; an
  outcome is the number of trees produced on one roll; exact chances from
  :func:`treegames.aspens.odds.gain_distribution`.  Physical dice may be entered as
  Sun faces 2-7 or as ordinary six-sided dice, face ``f`` read as Sun ``f + 1``
  (our mapping: 1 -> 2, ..., 6 -> 7); they are kept apart from simulated rolls.
* :class:`Regroup` -- Mighty Trees: fitting trees among the next ``k`` cards of the
  first Regroup of ``k`` cards in a seeded game the teacher picks (the table's view);
  exact chances from :func:`treegames.mighty_trees.odds.hits_distribution`; the
  headline is "at least one" (1 - P(0)).
* :class:`Tournament` -- lab games of a matchup (a :class:`treegames.lab.TournamentSpec`);
  each student plays whole blocks of seeds; the pooled records are the ones
  ``treegames.lab`` gives on one machine, game for game.

Every contributed count is validated by :meth:`Domain.check_counts` (outcomes that do not
exist, negative or non-whole counts, a batch over :data:`MAX_BATCH`) before anything is stored.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from functools import lru_cache
from typing import Any

from .. import core
from .errors import BadCount, BadOutcome, BadSettings, BatchTooLarge, NotYourBlock

__all__ = [
    "Kind", "Source", "MAX_BATCH", "MAX_STACKS", "Die", "Domain", "SunDie", "Regroup", "Tournament",
    "domain_for", "regroup_position",
]

MAX_BATCH = 1000
"""The most results one batch may carry (the student pages send 1, 10 or 100)."""

MAX_STACKS = 12
"""The most stacks a Sun-die configuration may have (each of 0 to 12 trees)."""

MAX_BLOCK = 200
"""The most tournament games one student block may hold."""


class Kind(StrEnum):
    """The experiments a class can run."""

    SUN_DIE = "sun-die"
    REGROUP = "regroup"
    TOURNAMENT = "tournament"

    @property
    def label(self) -> str:
        """The experiment's name for pages."""
        return {"sun-die": "The Sun die", "regroup": "Mighty Trees Regroup",
                "tournament": "A class tournament"}[self.value]


class Source(StrEnum):
    """Which kind of client a result came from (recorded per result; a hub kernel runs students' code)."""

    CLASS_KERNEL = "class-kernel"
    HUB_KERNEL = "hub-kernel"
    LOCAL = "local-kernel"
    PHYSICAL = "physical"

    @property
    def label(self) -> str:
        """Words for the teacher's table."""
        return {"class-kernel": "class-server kernel", "hub-kernel": "hub kernel",
                "local-kernel": "local kernel (JupyterLab or tests)", "physical": "physical dice entry"}[self.value]

    @property
    def is_simulated(self) -> bool:
        """True for rolls a kernel simulated (pooled together); physical entries are kept apart."""
        return self is not Source.PHYSICAL


class Die(StrEnum):
    """The physical dice a student may enter."""

    SUN = "sun"  # a printed Sun die: faces 2-7
    D6 = "d6"  # an ordinary die: face f read as Sun f + 1

    def sun_face(self, face: object) -> int:
        """The Sun value a face of this die stands for (BadOutcome for a face the die does not have)."""
        faces = range(2, 8) if self is Die.SUN else range(1, 7)
        if type(face) is not int or face not in faces:
            raise BadOutcome(f"a {self.label} has faces {faces.start} to {faces.stop - 1}; "
                             f"{core.quote(face)} is not one of them")
        return face if self is Die.SUN else face + 1

    @property
    def label(self) -> str:
        """Words for the die."""
        return "Sun die" if self is Die.SUN else "six-sided die"


def _whole(value: object, name: str, low: int, high: int) -> int:
    """``value`` as a whole number in [low, high], else BadSettings naming ``name``."""
    if type(value) is not int or not low <= value <= high:
        raise BadSettings(f"setting '{name}' must be a whole number from {low} to {high}, not {core.quote(value)}")
    return value


@dataclass(frozen=True)
class Domain:
    """What one experiment's results may be: its outcomes and their exact chances (see subclasses)."""

    kind = Kind.SUN_DIE

    @property
    def exact(self) -> dict[int, Fraction]:
        """{outcome: exact chance}, outcomes of nonzero chance only, in order."""
        raise NotImplementedError

    @property
    def outcomes(self) -> tuple[int, ...]:
        """The outcomes a result may have."""
        return tuple(self.exact)

    def settings(self) -> dict[str, Any]:
        """The settings as JSON-safe data (what the store keeps)."""
        raise NotImplementedError

    def title(self) -> str:
        """One line saying what is being counted."""
        raise NotImplementedError

    def label(self, outcome: int) -> str:
        """An outcome in words (for axes and CSV)."""
        return str(outcome)

    def simulate(self, rng: random.Random, n: int) -> Counter:
        """``n`` results simulated with the student's generator, counted."""
        raise NotImplementedError

    def check_counts(self, counts: object) -> dict[int, int]:
        """Contributed {outcome: count} validated and normalised (JSON keys may be digit strings)."""
        if not isinstance(counts, Mapping) or not counts:
            raise BadCount("a batch is a non-empty table of outcome -> count")
        out: dict[int, int] = {}
        for key, count in counts.items():
            outcome = _outcome_key(key)
            if outcome not in self.exact:
                allowed = ", ".join(map(str, self.outcomes))
                raise BadOutcome(f"{core.quote(key)} is not a possible result of this experiment; "
                                 f"the results are {allowed}")
            if type(count) is not int or count < 0:
                raise BadCount(f"the count for result {outcome} must be a whole number of 0 or more, "
                               f"not {core.quote(count)}")
            out[outcome] = out.get(outcome, 0) + count
        total = sum(out.values())
        if total > MAX_BATCH:
            raise BatchTooLarge(f"a batch may hold at most {MAX_BATCH} results, not {total}")
        if total == 0:
            raise BadCount("a batch must hold at least one result")
        return {k: v for k, v in sorted(out.items()) if v}

    def from_physical(self, die: object, faces: object) -> dict[int, int]:
        """Counts from physically rolled faces (only the Sun die has physical entries)."""
        raise BadSettings(f"{self.kind.label} takes no physical dice entries")


def _outcome_key(key: object) -> int:
    """An outcome from a JSON key: an int, or a string of digits (no signs, spaces or decimals)."""
    if type(key) is int:
        return key
    if isinstance(key, str) and key.isascii() and key.isdigit() and len(key) <= 4:
        return int(key)
    raise BadOutcome(f"{core.quote(key)} is not a possible result of this experiment")


@dataclass(frozen=True)
class SunDie(Domain):
    """Trees produced on one Sun roll by the teacher's stack configuration (rulebook: 2. Gain Trees)."""

    stacks: tuple[int, ...] = (4, 3, 2)
    kind = Kind.SUN_DIE

    @classmethod
    def from_settings(cls, settings: Mapping) -> SunDie:
        """From {'stacks': [4, 3, 2]} (1 to 12 stacks of 0 to 12 trees)."""
        stacks = settings.get("stacks", [4, 3, 2])
        if not isinstance(stacks, list | tuple) or not 1 <= len(stacks) <= MAX_STACKS:
            raise BadSettings(f"setting 'stacks' must list 1 to {MAX_STACKS} stack heights")
        return cls(tuple(_whole(h, "stacks", 0, 12) for h in stacks))

    @property
    def exact(self) -> dict[int, Fraction]:
        """The exact distribution of trees gained (treegames.aspens.odds)."""
        from ..aspens.odds import gain_distribution

        return gain_distribution(self.stacks)

    def settings(self) -> dict[str, Any]:
        """{'stacks': [...]}."""
        return {"stacks": list(self.stacks)}

    def title(self) -> str:
        """What is counted."""
        return f"Trees produced per Sun roll by stacks {', '.join(map(str, self.stacks))}"

    def label(self, outcome: int) -> str:
        """'2 trees'."""
        return core.plural(outcome, "tree")

    def simulate(self, rng: random.Random, n: int) -> Counter:
        """``n`` Sun rolls, each turned into trees produced."""
        from ..aspens.odds import gain_on_sun, roll_sun

        return Counter(gain_on_sun(self.stacks, roll_sun(rng)) for _ in range(n))

    def from_physical(self, die: object, faces: object) -> dict[int, int]:
        """Counts of trees produced from real dice: faces validated against the die, then read as Sun values."""
        from ..aspens.odds import gain_on_sun

        try:
            kind = Die(die)
        except ValueError:
            raise BadOutcome(f"{core.quote(die)} is not a die we know; use 'sun' or 'd6'") from None
        if not isinstance(faces, list | tuple) or not faces:
            raise BadCount("enter at least one face")
        if len(faces) > MAX_BATCH:
            raise BatchTooLarge(f"a batch may hold at most {MAX_BATCH} results, not {len(faces)}")
        counts = Counter(gain_on_sun(self.stacks, kind.sun_face(face)) for face in faces)
        return dict(sorted(counts.items()))


@lru_cache(maxsize=16)
def regroup_position(seed: int, players: int, draws: int):
    """The first Regroup of ``draws`` cards in the seeded game ``seed`` (or the next seeds')."""
    from ..mighty_trees import odds

    try:
        return odds.first_regroup(seed, players, draws)
    except odds.NoSuchPosition as err:
        raise BadSettings(str(err)) from None


@dataclass(frozen=True)
class Regroup(Domain):
    """Fitting trees among the cards of one Regroup, in a seeded Mighty Trees position (the table's view)."""

    seed: int = 1
    players: int = 3
    draws: int = 2
    kind = Kind.REGROUP

    @classmethod
    def from_settings(cls, settings: Mapping) -> Regroup:
        """From {'seed': 1, 'players': 3, 'draws': 2}."""
        return cls(_whole(settings.get("seed", 1), "seed", 0, 10**6),
                   _whole(settings.get("players", 3), "players", 2, 6),
                   _whole(settings.get("draws", 2), "draws", 1, 3))

    def position(self):
        """The Mighty Trees state at the Regroup."""
        return regroup_position(self.seed, self.players, self.draws)

    def wanted(self):
        """'A tree that fits the habitat now' as a test on cards."""
        from ..mighty_trees import odds

        return odds.fits_habitat(*self.position().conditions())

    @property
    def exact(self) -> dict[int, Fraction]:
        """{fitting trees drawn: exact chance} (hypergeometric, treegames.mighty_trees.odds)."""
        from ..mighty_trees import odds

        return odds.hits_distribution(odds.pool_for(self.position()), self.wanted(), self.draws)

    @property
    def at_least_one(self) -> Fraction:
        """The headline: P(at least one fitting tree in the next ``draws`` cards)."""
        return 1 - self.exact.get(0, Fraction(0))

    def settings(self) -> dict[str, Any]:
        """The position's seed, players and draws."""
        return {"seed": self.seed, "players": self.players, "draws": self.draws}

    def title(self) -> str:
        """What is counted."""
        t, w = self.position().conditions()
        return (f"Fitting trees in the next {core.plural(self.draws, 'card')} (temperature {t}, water {w}; "
                f"seeded game {self.seed}, {self.players} players)")

    def label(self, outcome: int) -> str:
        """'1 fitting tree'."""
        return core.plural(outcome, "fitting tree")

    def simulate(self, rng: random.Random, n: int) -> Counter:
        """``n`` Regroups dealt by the engine itself, each counted as fitting trees drawn."""
        from ..mighty_trees import odds

        state, wanted = self.position(), self.wanted()
        return Counter(sum(1 for c in odds.engine_regroup_draws(state, rng) if wanted(c)) for _ in range(n))


@dataclass(frozen=True)
class Tournament(Domain):
    """A lab tournament split into blocks of seeds, one block at a time per student."""

    spec_data: tuple = ()  # the TournamentSpec as sorted JSON-safe items (hashable)
    block: int = 10
    kind = Kind.TOURNAMENT

    @classmethod
    def from_settings(cls, settings: Mapping) -> Tournament:
        """From {'game', 'bots', 'games', 'seed', 'rotate', 'options', 'block'} (a lab TournamentSpec plus block size)."""
        from ..lab import SpecError, TournamentSpec

        fields = {k: settings[k] for k in ("game", "bots", "games", "seed", "rotate", "options") if k in settings}
        try:
            spec = TournamentSpec(**fields)
        except (SpecError, TypeError) as err:
            raise BadSettings(str(err)) from None
        block = _whole(settings.get("block", 10), "block", 1, MAX_BLOCK)
        if block % spec.block_size:
            raise BadSettings(f"setting 'block' must be a multiple of {spec.block_size} (one game per seat "
                              f"with the same seeds), not {block}")
        data = spec.to_dict()
        data["options"] = dict(spec.options)
        return cls(_freeze(data), block)

    def spec(self):
        """The lab's TournamentSpec."""
        from ..lab import TournamentSpec

        data = _thaw(self.spec_data)
        return TournamentSpec(game=data["game"], bots=tuple(data["bots"]), games=data["games"], seed=data["seed"],
                              rotate=data["rotate"], options=data["options"])

    @property
    def exact(self) -> dict[int, Fraction]:
        """A tournament has no exact distribution: the pooled records are checked against treegames.lab instead."""
        return {}

    @property
    def blocks(self) -> int:
        """How many blocks of seeds the tournament has."""
        return -(-self.spec().games // self.block)

    def block_range(self, block: int) -> range:
        """The game numbers of one block."""
        return range(block * self.block, min((block + 1) * self.block, self.spec().games))

    def settings(self) -> dict[str, Any]:
        """The spec's fields plus the block size."""
        return {**_thaw(self.spec_data), "block": self.block}

    def title(self) -> str:
        """What is played."""
        spec = self.spec()
        return f"{spec.game}: {' vs '.join(spec.bots)}, {spec.games} games from seed {spec.seed}"

    def play_block(self, block: int) -> list[dict]:
        """Play one block of games with treegames.lab, as JSON-safe records."""
        from ..lab import play_games

        span = self.block_range(block)
        return [record_to_json(r) for r in play_games(self.spec(), span.start, span.stop)]

    def check_records(self, records: object, block: int) -> list[dict]:
        """Contributed game records validated: in this block, the spec's seating, well-formed numbers."""
        spec = self.spec()
        if not isinstance(records, list | tuple) or not records:
            raise BadCount("a batch of games is a non-empty list of game records")
        if len(records) > MAX_BLOCK:
            raise BatchTooLarge(f"a batch may hold at most {MAX_BLOCK} games, not {len(records)}")
        span = self.block_range(block)
        out, seen = [], set()
        for record in records:
            if not isinstance(record, Mapping):
                raise BadOutcome("each game record is a table of its fields")
            index = record.get("index")
            if type(index) is not int or index not in span:
                raise NotYourBlock(f"game {core.quote(index)} is not in your block of seeds "
                                   f"(games {span.start} to {span.stop - 1})")
            if index in seen:
                raise BadOutcome(f"game {index} appears twice in one batch")
            seen.add(index)
            out.append(_check_record(spec, record))
        return sorted(out, key=lambda r: r["index"])


def _check_record(spec, record: Mapping) -> dict:
    """One game record normalised, or BadOutcome naming the field."""
    index = record["index"]
    lineup = list(spec.seating(index))
    seats = [spec.bots[e] for e in lineup]
    players = spec.players
    if list(record.get("lineup", ())) != lineup or list(record.get("seats", ())) != seats:
        raise BadOutcome(f"game {index}: the seats are not the tournament's seating for that game")
    scores = record.get("scores")
    winners = record.get("winners")
    if not isinstance(scores, list | tuple) or len(scores) != players or any(type(s) is not int for s in scores):
        raise BadOutcome(f"game {index}: 'scores' must be {players} whole numbers")
    if not isinstance(winners, list | tuple) or any(type(w) is not int or not 0 <= w < players for w in winners) \
            or len(set(winners)) != len(winners):
        raise BadOutcome(f"game {index}: 'winners' must be distinct seats from 0 to {players - 1}")
    first = record.get("first")
    if type(first) is not int or not -1 <= first < players:
        raise BadOutcome(f"game {index}: 'first' must be a seat or -1")
    for name in ("moves", "actions"):
        if type(record.get(name)) is not int or record[name] < 0:
            raise BadOutcome(f"game {index}: '{name}' must be a whole number of 0 or more")
    return {"index": index, "seats": seats, "lineup": lineup, "first": first, "scores": list(scores),
            "winners": list(winners), "moves": record["moves"], "actions": record["actions"]}


def record_to_json(record) -> dict:
    """A lab GameRecord as JSON-safe data."""
    return {"index": record.index, "seats": list(record.seats), "lineup": list(record.lineup),
            "first": record.first, "scores": list(record.scores), "winners": list(record.winners),
            "moves": record.moves, "actions": record.actions}


def record_from_json(data: Mapping):
    """A lab GameRecord from its JSON form."""
    from ..lab import GameRecord

    return GameRecord(index=data["index"], seats=tuple(data["seats"]), lineup=tuple(data["lineup"]),
                      first=data["first"], scores=tuple(data["scores"]), winners=tuple(data["winners"]),
                      moves=data["moves"], actions=data["actions"])


def _freeze(value):
    """JSON-safe data as nested tuples (hashable)."""
    if isinstance(value, dict):
        return ("__dict__", tuple(sorted((k, _freeze(v)) for k, v in value.items())))
    if isinstance(value, list | tuple):
        return ("__list__", tuple(_freeze(v) for v in value))
    return value


def _thaw(value):
    """The inverse of _freeze."""
    if isinstance(value, tuple) and len(value) == 2 and value[0] == "__dict__":
        return {k: _thaw(v) for k, v in value[1]}
    if isinstance(value, tuple) and len(value) == 2 and value[0] == "__list__":
        return [_thaw(v) for v in value[1]]
    return value


def domain_for(kind: object, settings: Mapping) -> Domain:
    """The domain of an experiment of this kind with these settings (BadSettings when either is wrong)."""
    try:
        kind = Kind(kind)
    except ValueError:
        raise BadSettings(f"{core.quote(kind)} is not an experiment; the experiments are "
                          f"{', '.join(k.value for k in Kind)}") from None
    if not isinstance(settings, Mapping):
        raise BadSettings("the settings must be a table of names and values")
    return {Kind.SUN_DIE: SunDie, Kind.REGROUP: Regroup, Kind.TOURNAMENT: Tournament}[kind].from_settings(settings)
