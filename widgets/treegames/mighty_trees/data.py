"""The Mighty Trees data: the rulebook's numbers, and one record per card in ``cards/*.csv``, loaded and validated at import.

The draw pile holds 72 cards in a fixed order that gives each card its id:
the 50 tree cards (ids 0-49, in ``trees.csv`` order), the 8 cloud cards
(50-57), the 4 trend cards (58-61) and the 10 disaster cards (62-71).  The 10
habitat cards are a separate deck with ids 0-9.  Every card name is unique, so
notation can name a card by its name alone.

Species data (native range in the southeastern United States, USDA hardiness
zones, water preference) follow the species; the references are named in the
header of ``cards/trees.csv``.  Sol costs and the sun, shade, fire and wind
strengths are our own design, balanced by rules checked here:
``sun + shade + fire + wind == 8 + 2 * (planting Sols + growth Sols)``, and every
planting and growth cost is 2 or 3 Sols (``STEP_COSTS``), so no tree is planted
and grown in one 3-Sol turn: capturing a habitat takes at least four turns
(issue 12's balance pass; ``benchmarks/bench_mighty_trees_balance.py`` measures
the card set).  Every tree can reach the canopy, and every species a habitat
prefers can be planted in it.

Lines starting with ``#`` in a data file are comments (the files name their
sources and design notes there).

A malformed data file raises :class:`CardDataError` naming the file, the card
and the field.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from enum import Enum, StrEnum
from pathlib import Path

__all__ = [
    "CardDataError",
    "Kind",
    "WaterPref",
    "Element",
    "Targets",
    "Sides",
    "Power",
    "TreeCard",
    "CloudCard",
    "TrendCard",
    "DisasterCard",
    "HabitatCard",
    "Card",
    "parse_trees",
    "parse_habitats",
    "parse_clouds",
    "parse_trends",
    "parse_disasters",
    "draw_pile_cards",
    "habitat_cards",
    "card_by_name",
    "habitat_by_name",
    "printed_cost",
    "climate_change",
    "DECK",
    "HABITATS",
    "MIN_VALUE",
    "MAX_VALUE",
    "PREFERRED_BONUS",
    "STRENGTH_BUDGET_BASE",
    "SOLS_PER_TURN",
    "MIN_SOLS_SPENT",
    "DISCARD_COST",
    "CLOUD_COST",
    "TREND_COST",
    "COMMAND_SIZE",
    "SLOTS",
    "CLOUD_ROUNDS",
    "POWER_DISCOUNT",
    "POWER_ELEMENT",
    "GROW_COST_FLOOR",
    "STEP_COSTS",
    "TURNS_PER_PLAYER",
    "MAX_TURNS_LIMIT",
]

CARDS_DIR = Path(__file__).with_name("cards")

MIN_VALUE, MAX_VALUE = 1, 9
"""Habitat temperature (USDA hardiness zone) and water values lie in 1..9."""

PREFERRED_BONUS = 2
"""A preferred species gets +2 to each of its strengths in that habitat."""

STRENGTH_BUDGET_BASE = 8
"""The balance rule: total strength = 8 + 2 * (planting + growth Sols)."""

MAX_STRENGTH = 7
"""No single strength exceeds 7."""

EXPECTED_COUNTS = {"tree": 50, "cloud": 8, "trend": 4, "disaster": 10, "habitat": 10}

SOLS_PER_TURN = 3
"""Sol Laws: 3 Sols per turn (Mobilization Phase)."""
MIN_SOLS_SPENT = 1
"""Sol Laws: at least 1 Sol must be spent each turn."""
DISCARD_COST = 1
"""Sol Laws: 1 Sol to discard a card from the Command, understory or canopy."""
CLOUD_COST = 1
"""Mobilization Phase: cloud cards cost 1 Sol."""
TREND_COST = 2
"""Mobilization Phase: trend cards cost 2 Sols."""
COMMAND_SIZE = 3
"""Player Commands / Regroup Phase: a Command is filled to 3 cards."""
SLOTS = 2
"""Understory & Canopy: each player has 2 understory and 2 canopy slots."""
CLOUD_ROUNDS = 1
"""Our interpretation: a cloud stays in play until the start of its player's next turn."""
POWER_DISCOUNT = 1
"""Our interpretation: a habitat's power takes 1 Sol off growing (rich soil) or off one element's disasters."""
GROW_COST_FLOOR = 2
"""Our interpretation: rich soil never brings growing below 2 Sols (so planting and growing never share a turn)."""
STEP_COSTS = (2, 3)
"""Our design: every planting and growth cost is 2 or 3 Sols, so each of a capture's four steps takes a turn."""
TURNS_PER_PLAYER = 30
"""Our interpretation: the default ``max_turns`` is 30 turns per player (60 at 2 players, 180 at 6)."""

MAX_TURNS_LIMIT = 100_000
"""The largest allowed ``max_turns``: a bound keeps the promise that every game ends."""


class CardDataError(ValueError):
    """A card data file that is malformed; the message names the file, card and field."""


class Kind(StrEnum):
    """The kinds of card in the draw pile."""

    TREE = "tree"
    CLOUD = "cloud"
    TREND = "trend"
    DISASTER = "disaster"


class WaterPref(StrEnum):
    """A tree card's colour: its water preference."""

    BALANCED = "balanced"
    WET = "wet"
    DRY = "dry"


class Element(StrEnum):
    """What a weather or disaster card acts on."""

    FIRE = "fire"
    WIND = "wind"
    WATER = "water"
    TEMPERATURE = "temperature"


class Targets(StrEnum):
    """Which trees a disaster strikes."""

    ALL = "all"
    UNDERSTORY = "understory"
    CANOPY = "canopy"


class Sides(StrEnum):
    """Whose side of the habitat a disaster strikes: everyone's, or one chosen player's."""

    ALL = "all"
    ONE = "one"


class Power(StrEnum):
    """A habitat's power symbol: a Sol discount on growing or on one element's disasters (our design)."""

    RICH_SOIL = "rich_soil"  # growing into the canopy costs 1 Sol less (at least 2)
    HIGH_ELEVATION = "high_elevation"  # temperature disasters (Hard Freeze, Heat Wave) cost 1 Sol less
    FIRE_SEASON = "fire_season"  # fire disasters cost 1 Sol less (at least 1)
    HURRICANE_COAST = "hurricane_coast"  # wind disasters cost 1 Sol less (at least 1)
    FLOODPLAIN = "floodplain"  # water disasters (Flood, Drought) cost 1 Sol less


POWER_TEXT = {
    Power.RICH_SOIL: "Rich soil: growing a tree into the canopy costs 1 Sol less (at least 2)",
    Power.HIGH_ELEVATION: "High elevation: Hard Freeze and Heat Wave cost 1 Sol less (at least 1)",
    Power.FIRE_SEASON: "Fire season: fire disasters cost 1 Sol less (at least 1)",
    Power.HURRICANE_COAST: "Hurricane coast: wind disasters cost 1 Sol less (at least 1)",
    Power.FLOODPLAIN: "Floodplain: Flood and Drought cost 1 Sol less (at least 1)",
}

POWER_ELEMENT = {
    Power.FIRE_SEASON: Element.FIRE,
    Power.HURRICANE_COAST: Element.WIND,
    Power.FLOODPLAIN: Element.WATER,
    Power.HIGH_ELEVATION: Element.TEMPERATURE,
}
"""Our design: the disasters (by element) that a habitat's power makes 1 Sol cheaper."""


@dataclass(frozen=True)
class TreeCard:
    """A tree card: a native species with its costs, ranges and strengths."""

    id: int
    name: str
    common: str
    genus: str
    water_pref: WaterPref
    plant: int
    grow: int | None
    water_min: int
    water_max: int
    temp_min: int
    temp_max: int
    sun: int
    shade: int
    fire: int
    wind: int
    kind: Kind = Kind.TREE

    @property
    def can_grow(self) -> bool:
        """Whether this tree can ever reach the canopy."""
        return self.grow is not None

    def fits(self, temperature: int, water: int) -> bool:
        """Whether the given temperature and water lie within this tree's ranges."""
        return self.temp_min <= temperature <= self.temp_max and self.water_min <= water <= self.water_max

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class CloudCard:
    """A cloud card: changes the habitat's water or temperature for one round."""

    id: int
    name: str
    affects: Element
    change: int
    kind: Kind = Kind.CLOUD

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class TrendCard:
    """A trend card: changes the habitat's water or temperature for good."""

    id: int
    name: str
    affects: Element
    change: int
    kind: Kind = Kind.TREND

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class DisasterCard:
    """A disaster card: fire or wind against strengths, or water/temperature against ranges."""

    id: int
    name: str
    element: Element
    strength: int  # fire/wind: the disaster's force; water/temperature: the signed change
    cost: int
    targets: Targets
    sides: Sides
    linger: int  # rounds the card stays in play (its change in force); 0 = none
    needs_power: Power | None
    kind: Kind = Kind.DISASTER

    @property
    def is_climate(self) -> bool:
        """Whether it changes water or temperature (checked against ranges) rather than striking strengths."""
        return self.element in (Element.WATER, Element.TEMPERATURE)

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class HabitatCard:
    """A habitat card: a place in the southeastern US with its climate, preferred species and power."""

    id: int
    name: str
    region: str
    temperature: int
    water: int
    preferred: tuple[str, ...]  # species names, or a genus meaning any species of it
    power: Power
    fire_mod: int
    wind_mod: int

    def prefers(self, tree: TreeCard) -> bool:
        """Whether ``tree`` is one of this habitat's preferred species (by species or genus)."""
        return tree.name in self.preferred or tree.genus in self.preferred

    def __str__(self) -> str:
        return self.name


Card = TreeCard | CloudCard | TrendCard | DisasterCard


# --------------------------------------------------------------------------
# Parsing helpers


def _rows(text: str, source: str, columns: tuple[str, ...]) -> list[dict[str, str]]:
    """The CSV rows of ``text`` (``#`` lines are comments), checking the header is exactly ``columns``."""
    numbered = [(n, ln) for n, ln in enumerate(text.splitlines(), start=1) if not ln.lstrip().startswith("#")]
    reader = csv.DictReader(io.StringIO("\n".join(ln for _, ln in numbered)))
    header = tuple(reader.fieldnames or ())
    if header != columns:
        raise CardDataError(f"{source}: the header must be {','.join(columns)}, not {','.join(header)}")
    rows = []
    for index, row in enumerate(reader, start=1):
        if None in row or any(v is None for v in row.values()):
            line = numbered[index][0] if index < len(numbered) else index + 1
            raise CardDataError(f"{source} line {line}: expected {len(columns)} fields")
        rows.append({k: v.strip() for k, v in row.items()})
    return rows


def _int(row: dict[str, str], field: str, source: str, low: int, high: int) -> int:
    """Field ``field`` of ``row`` as an int in low..high, or CardDataError naming card and field."""
    text = row[field]
    try:
        value = int(text)
    except ValueError:
        raise CardDataError(
            f"{source}: card {row['name']!r} field {field!r} must be a whole number, not {text!r}"
        ) from None
    if not low <= value <= high:
        raise CardDataError(
            f"{source}: card {row['name']!r} field {field!r} must be {low}..{high}, not {value}"
        )
    return value


def _enum(row: dict[str, str], field: str, source: str, enum: type[Enum]):
    """Field ``field`` of ``row`` as a member of ``enum``, or CardDataError naming card and field."""
    try:
        return enum(row[field])
    except ValueError:
        allowed = ", ".join(m.value for m in enum)
        raise CardDataError(
            f"{source}: card {row['name']!r} field {field!r} must be one of {allowed}, not {row[field]!r}"
        ) from None


def _fail(source: str, row: dict[str, str], field: str, why: str) -> CardDataError:
    """A CardDataError for one card's field."""
    return CardDataError(f"{source}: card {row['name']!r} field {field!r} {why}")


def _check_name(row: dict[str, str], source: str, seen: set[str]) -> str:
    """The card's name, checked to be non-empty and unique across all cards."""
    name = row["name"]
    if not name:
        raise CardDataError(f"{source}: a card has an empty 'name' field")
    if name in seen:
        raise CardDataError(f"{source}: card {name!r} field 'name' is used by another card")
    seen.add(name)
    return name


# --------------------------------------------------------------------------
# One parser per file

TREE_COLUMNS = (
    "name",
    "common",
    "water_pref",
    "plant",
    "grow",
    "water_min",
    "water_max",
    "temp_min",
    "temp_max",
    "sun",
    "shade",
    "fire",
    "wind",
)


def _check_water_pref(tree: TreeCard, row: dict[str, str], source: str) -> None:
    """The tree's colour must match its water range: dry low, wet reaching 9, balanced in between."""
    lo, hi = tree.water_min, tree.water_max
    ok = {
        WaterPref.DRY: lo <= 2 and hi <= 6,
        WaterPref.WET: lo >= 4 and hi == MAX_VALUE,
        WaterPref.BALANCED: (2 <= lo <= 4 and 6 <= hi <= 8) or (lo <= 3 and hi == MAX_VALUE),
    }[tree.water_pref]
    if not ok:
        raise _fail(source, row, "water_pref", f"is {tree.water_pref.value} but the water range is {lo}-{hi}")


def parse_trees(
    text: str, source: str = "trees.csv", first_id: int = 0, seen: set[str] | None = None
) -> list[TreeCard]:
    """Tree cards from CSV text, validated."""
    seen = set() if seen is None else seen
    cards = []
    for index, row in enumerate(_rows(text, source, TREE_COLUMNS)):
        name = _check_name(row, source, seen)
        parts = name.split()
        if len(parts) != 2 or not parts[0][:1].isupper() or not parts[1].islower():
            raise _fail(source, row, "name", "must be a scientific name: Genus species")
        if row["grow"] in ("", "none"):
            raise _fail(source, row, "grow", "is empty, but every tree must be able to reach the canopy")
        low, high = STEP_COSTS[0], STEP_COSTS[-1]
        tree = TreeCard(
            id=first_id + index,
            name=name,
            common=row["common"],
            genus=parts[0],
            water_pref=_enum(row, "water_pref", source, WaterPref),
            plant=_int(row, "plant", source, low, high),
            grow=_int(row, "grow", source, low, high),
            water_min=_int(row, "water_min", source, MIN_VALUE, MAX_VALUE),
            water_max=_int(row, "water_max", source, MIN_VALUE, MAX_VALUE),
            temp_min=_int(row, "temp_min", source, MIN_VALUE, MAX_VALUE),
            temp_max=_int(row, "temp_max", source, MIN_VALUE, MAX_VALUE),
            **{f: _int(row, f, source, 1, MAX_STRENGTH) for f in ("sun", "shade", "fire", "wind")},
        )
        if not tree.common:
            raise _fail(source, row, "common", "must not be empty")
        if tree.water_min > tree.water_max:
            raise _fail(source, row, "water_max", "must not be below water_min")
        if tree.temp_min > tree.temp_max:
            raise _fail(source, row, "temp_max", "must not be below temp_min")
        _check_water_pref(tree, row, source)
        budget = STRENGTH_BUDGET_BASE + 2 * (tree.plant + (tree.grow or 0))
        total = tree.sun + tree.shade + tree.fire + tree.wind
        if total != budget:
            raise _fail(source, row, "sun", f"strengths total {total}, but the balance rule needs {budget}")
        cards.append(tree)
    return cards


WEATHER_COLUMNS = ("name", "affects", "change")


def _parse_weather(text: str, source: str, first_id: int, seen: set[str], cls: type, limit: int) -> list:
    """Cloud or trend cards from CSV text, validated."""
    cards = []
    for index, row in enumerate(_rows(text, source, WEATHER_COLUMNS)):
        name = _check_name(row, source, seen)
        affects = _enum(row, "affects", source, Element)
        if affects not in (Element.WATER, Element.TEMPERATURE):
            raise _fail(source, row, "affects", "must be water or temperature")
        change = _int(row, "change", source, -limit, limit)
        if change == 0:
            raise _fail(source, row, "change", "must not be 0")
        cards.append(cls(id=first_id + index, name=name, affects=affects, change=change))
    return cards


def parse_clouds(
    text: str, source: str = "clouds.csv", first_id: int = 0, seen: set[str] | None = None
) -> list[CloudCard]:
    """Cloud cards from CSV text, validated."""
    return _parse_weather(text, source, first_id, set() if seen is None else seen, CloudCard, 3)


def parse_trends(
    text: str, source: str = "trends.csv", first_id: int = 0, seen: set[str] | None = None
) -> list[TrendCard]:
    """Trend cards from CSV text, validated."""
    return _parse_weather(text, source, first_id, set() if seen is None else seen, TrendCard, 3)


DISASTER_COLUMNS = ("name", "element", "strength", "cost", "targets", "sides", "linger", "needs_power")


def parse_disasters(
    text: str, source: str = "disasters.csv", first_id: int = 0, seen: set[str] | None = None
) -> list[DisasterCard]:
    """Disaster cards from CSV text, validated."""
    seen = set() if seen is None else seen
    cards = []
    for index, row in enumerate(_rows(text, source, DISASTER_COLUMNS)):
        name = _check_name(row, source, seen)
        element = _enum(row, "element", source, Element)
        climate = element in (Element.WATER, Element.TEMPERATURE)
        strength = _int(row, "strength", source, -4 if climate else 1, 4 if climate else 9)
        if strength == 0:
            raise _fail(source, row, "strength", "must not be 0")
        linger = _int(row, "linger", source, 0, 3)
        if linger and not climate:
            raise _fail(source, row, "linger", "only water and temperature disasters linger")
        power = None if row["needs_power"] == "" else _enum(row, "needs_power", source, Power)
        cards.append(
            DisasterCard(
                id=first_id + index,
                name=name,
                element=element,
                strength=strength,
                cost=_int(row, "cost", source, 1, 3),
                targets=_enum(row, "targets", source, Targets),
                sides=_enum(row, "sides", source, Sides),
                linger=linger,
                needs_power=power,
            )
        )
    return cards


HABITAT_COLUMNS = ("name", "region", "temperature", "water", "preferred", "power", "fire_mod", "wind_mod")


def parse_habitats(text: str, trees: list[TreeCard], source: str = "habitats.csv") -> list[HabitatCard]:
    """Habitat cards from CSV text, validated against the tree cards (preferred species exist and fit)."""
    species = {t.name for t in trees}
    genera = {t.genus for t in trees}
    seen: set[str] = set()
    cards = []
    for index, row in enumerate(_rows(text, source, HABITAT_COLUMNS)):
        name = _check_name(row, source, seen)
        preferred = tuple(p.strip() for p in row["preferred"].split(";"))
        if len(preferred) != 3:
            raise _fail(source, row, "preferred", f"must list 3 species or genera, not {len(preferred)}")
        for entry in preferred:
            if entry not in species and entry not in genera:
                raise _fail(
                    source, row, "preferred", f"names {entry!r}, which is no tree card's species or genus"
                )
        habitat = HabitatCard(
                id=index,
                name=name,
                region=row["region"],
                temperature=_int(row, "temperature", source, MIN_VALUE, MAX_VALUE),
                water=_int(row, "water", source, MIN_VALUE, MAX_VALUE),
                preferred=preferred,
                power=_enum(row, "power", source, Power),
                fire_mod=_int(row, "fire_mod", source, -1, 1),
                wind_mod=_int(row, "wind_mod", source, -1, 1),
        )
        misfits = [
            t.name
            for t in trees
            if habitat.prefers(t) and not t.fits(habitat.temperature, habitat.water)
        ]
        if misfits:
            raise _fail(
                source,
                row,
                "preferred",
                f"covers {', '.join(misfits)}, which cannot be planted here "
                f"(temperature {habitat.temperature}, water {habitat.water})",
            )
        cards.append(habitat)
    return cards


def load_cards(directory: Path = CARDS_DIR) -> tuple[tuple[Card, ...], tuple[HabitatCard, ...]]:
    """The draw-pile cards (ids 0..71) and the habitat cards, read and validated from ``directory``."""

    def read(name: str) -> str:
        return (directory / name).read_text(encoding="utf-8")

    seen: set[str] = set()
    trees = parse_trees(read("trees.csv"), "trees.csv", 0, seen)
    clouds = parse_clouds(read("clouds.csv"), "clouds.csv", len(trees), seen)
    trends = parse_trends(read("trends.csv"), "trends.csv", len(trees) + len(clouds), seen)
    disasters = parse_disasters(
        read("disasters.csv"), "disasters.csv", len(trees) + len(clouds) + len(trends), seen
    )
    habitats = parse_habitats(read("habitats.csv"), trees)
    for kind, cards in (
        ("tree", trees),
        ("cloud", clouds),
        ("trend", trends),
        ("disaster", disasters),
        ("habitat", habitats),
    ):
        if len(cards) != EXPECTED_COUNTS[kind]:
            raise CardDataError(f"there must be {EXPECTED_COUNTS[kind]} {kind} cards, not {len(cards)}")
    return tuple(trees + clouds + trends + disasters), tuple(habitats)


DECK, HABITATS = load_cards()
_BY_NAME = {c.name.lower(): c for c in DECK}
_HABITAT_BY_NAME = {h.name.lower(): h for h in HABITATS}


def draw_pile_cards() -> tuple[Card, ...]:
    """The 72 draw-pile cards (50 trees, 8 clouds, 4 trends, 10 disasters), each with ``kind``."""
    return DECK


def habitat_cards() -> tuple[HabitatCard, ...]:
    """The 10 habitat cards."""
    return HABITATS


def printed_cost(card: Card) -> int:
    """The Sol cost printed on a card: a tree's planting cost, 1 for a cloud, 2 for a trend, a disaster's own.

    A habitat's power may take a Sol off in play (``state.cost_of`` / ``disaster_cost`` / ``grow_cost``).
    """
    if card.kind is Kind.TREE:
        return card.plant
    if card.kind is Kind.CLOUD:
        return CLOUD_COST
    if card.kind is Kind.TREND:
        return TREND_COST
    return card.cost


def climate_change(card: Card) -> tuple[Element, int] | None:
    """The axis a card moves and by how much (clouds, trends, water and temperature disasters), else None."""
    if card.kind in (Kind.CLOUD, Kind.TREND):
        return (card.affects, card.change)
    if card.kind is Kind.DISASTER and card.is_climate:
        return (card.element, card.strength)
    return None


def card_by_name(name: str) -> Card:
    """The draw-pile card called ``name`` (case-insensitive); KeyError if none."""
    return _BY_NAME[name.strip().lower()]


def habitat_by_name(name: str) -> HabitatCard:
    """The habitat card called ``name`` (case-insensitive); KeyError if none."""
    return _HABITAT_BY_NAME[name.strip().lower()]
