"""The experiments a class can pool, each one's domain: its outcomes and exact chances, and the kinds' registry.

* :class:`Tournament` -- lab games of a matchup (a :class:`treegames.lab.TournamentSpec`), in any
  game; each student plays whole blocks of seeds; the pooled records are the ones
  ``treegames.lab`` gives on one machine, game for game.
* A game's own experiments come from its plug-in (``GamePlugin.experiments``, :mod:`treegames.plugins`):
  Aspens' Sun die (``treegames.aspens.experiment``) and Mighty Trees' Regroup
  (``treegames.mighty_trees.experiment``). Each is a :class:`Domain` subclass that names its kind, its
  student page, its settings (:class:`Field`) and, if any, the physical dice a student may enter.

:func:`kinds` lists every kind, the games' first (in menu order), the tournament last. Every contributed
count is validated by :meth:`Domain.check_counts` (outcomes that do not exist, negative or non-whole
counts, a batch over :data:`MAX_BATCH`) before anything is stored.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Any, ClassVar, NamedTuple

from .. import core
from .errors import BadCount, BadOutcome, BadSettings, BatchTooLarge, NotYourBlock

__all__ = ["TOURNAMENT", "Source", "MAX_BATCH", "Field", "Domain", "Tournament", "kinds", "kind_label",
           "domain_for", "whole"]

MAX_BATCH = 1000
"""The most results one batch may carry (the student pages send 1, 10 or 100)."""

MAX_BLOCK = 200
"""The most tournament games one student block may hold."""


TOURNAMENT = "tournament"
"""The kind of the class tournament (every other kind comes from a game's plug-in)."""


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


def whole(value: object, name: str, low: int, high: int) -> int:
    """``value`` as a whole number in [low, high], else BadSettings naming ``name``."""
    if type(value) is not int or not low <= value <= high:
        raise BadSettings(f"setting '{name}' must be a whole number from {low} to {high}, not {core.quote(value)}")
    return value


class Field(NamedTuple):
    """One setting the teacher chooses for an experiment: a whole number, or a list of them (``many``)."""

    name: str
    label: str
    default: int | tuple[int, ...]
    low: int
    high: int
    many: bool = False


@dataclass(frozen=True)
class Domain:
    """What one experiment's results may be: its outcomes and their exact chances (see subclasses)."""

    kind: ClassVar[str] = ""
    """The kind's name, as the store keeps it ('sun-die')."""
    name: ClassVar[str] = ""
    """The experiment's name for pages ('The Sun die')."""
    page: ClassVar[str] = ""
    """The notebook a student opens for it, under the notebooks folder."""
    unit: ClassVar[str] = "rolls"
    """What one result is, plural ('rolls', 'draws')."""
    fields: ClassVar[tuple[Field, ...]] = ()
    """The settings the teacher's form asks for."""
    physical_dice: ClassVar[tuple[tuple[str, str], ...]] = ()
    """(value, words) of each real die a student may enter results from; none: no physical entries."""

    @classmethod
    def from_settings(cls, settings: Mapping) -> Domain:
        """The domain from its settings (BadSettings naming a bad one)."""
        raise NotImplementedError

    def headline(self, n: int, pooled: Mapping[int, int]) -> dict | None:
        """The projector's one question with its exact and observed answers, or None (the histogram alone)."""
        return None

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
            raise BadCount("no results arrived with that batch: roll again")
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
        raise BadSettings(f"{self.name} takes no physical dice entries")


def _outcome_key(key: object) -> int:
    """An outcome from a JSON key: an int, or a string of digits (no signs, spaces or decimals)."""
    if type(key) is int:
        return key
    if isinstance(key, str) and key.isascii() and key.isdigit() and len(key) <= 4:
        return int(key)
    raise BadOutcome(f"{core.quote(key)} is not a possible result of this experiment")


@dataclass(frozen=True)
class Tournament(Domain):
    """A lab tournament split into blocks of seeds, one block at a time per student."""

    spec_data: tuple = ()  # the TournamentSpec as sorted JSON-safe items (hashable)
    block: int = 10
    kind = TOURNAMENT
    name = "A class tournament"
    page = "lab/tournaments.ipynb"
    unit = "games"

    @classmethod
    def from_settings(cls, settings: Mapping) -> Tournament:
        """From {'game', 'bots', 'games', 'seed', 'rotate', 'options', 'block'} (a lab TournamentSpec plus block size)."""
        from ..lab import SpecError, TournamentSpec

        fields = {k: settings[k] for k in ("game", "bots", "games", "seed", "rotate", "options") if k in settings}
        try:
            spec = TournamentSpec(**fields)
        except (SpecError, TypeError) as err:
            raise BadSettings(str(err)) from None
        block = whole(settings.get("block", 10), "block", 1, MAX_BLOCK)
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


def kinds() -> dict[str, type[Domain]]:
    """Every experiment kind by name: the games' own (from their plug-ins, in menu order), then the tournament."""
    from ..plugins import plugins, resolve

    found: dict[str, type[Domain]] = {}
    for game in plugins().values():
        for reference in game.experiments:
            domain = resolve(reference, game.name)
            found[domain.kind] = domain
    return {**found, TOURNAMENT: Tournament}


def kind_label(kind: str) -> str:
    """An experiment kind's name for pages."""
    return kinds()[kind].name


def domain_for(kind: object, settings: Mapping) -> Domain:
    """The domain of an experiment of this kind with these settings (BadSettings when either is wrong)."""
    known = kinds()
    if not isinstance(kind, str) or kind not in known:
        raise BadSettings(f"{core.quote(kind)} is not an experiment; the experiments are {', '.join(known)}")
    if not isinstance(settings, Mapping):
        raise BadSettings("the settings must be a table of names and values")
    return known[kind].from_settings(settings)
