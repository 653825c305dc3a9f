"""The Mighty Trees card table as a pure Scene, computed from one player's view.

Only a :class:`~treegames.mighty_trees.PlayerView` is drawn (``state.view_for(player)``),
so another player's Command can never reach the picture unless the caller passes
it on purpose (``revealed``: the Teacher view).  Everything is numpy and plain
data: tests look at the scene without a browser, and :func:`hit_at` turns a click
into what was clicked (a card in the Command, a slot, a side, the hand cover).

Layout, top to bottom, in a fixed width that fits a 420 px phone:
the habitat card with its temperature and water gauges; the draw pile, the
litter pile and the Sol budget; each side of the habitat (other players first,
the viewer's own side last) with 2 understory and 2 canopy slots; the viewer's
Command (or the hand cover between two people at one screen).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

import numpy as np

from ... import mighty_trees as mt
from ...mighty_trees import data as _cards
from .. import palette
from ..scene import Circles, Polygons, Scene, Segments, Texts, as_points, colours
from ..text import wrap_words

__all__ = [
    "WIDTH",
    "TableOptions",
    "table_scene",
    "hit_at",
    "gauge_parts",
    "PLAYER_MARKS",
    "WATER_COLOURS",
]

WIDTH = 400
"""Canvas width in pixels: fits a 420 px phone screen with its margins."""

MARGIN = 8
GAUGE_MIN, GAUGE_MAX = 1, 9
GAUGE_LINES = 3
"""Lines under each gauge for the card's value and every change in force."""

WATER_COLOURS = {
    mt.WaterPref.DRY: palette.ORANGE,
    mt.WaterPref.BALANCED: palette.BLUISH_GREEN,
    mt.WaterPref.WET: palette.BLUE,
}
"""A tree card's colour by water preference (Okabe-Ito), always with its letter too."""

WATER_LETTERS = {mt.WaterPref.DRY: "D", mt.WaterPref.BALANCED: "B", mt.WaterPref.WET: "W"}

KIND_COLOURS = {
    mt.Kind.CLOUD: "#CFE6F5",
    mt.Kind.TREND: "#E8DDF0",
    mt.Kind.DISASTER: "#F6D3C2",
}
KIND_INK = {mt.Kind.CLOUD: palette.WATER_INK, mt.Kind.TREND: "#6A3D8F", mt.Kind.DISASTER: "#9A3A00"}

PLAYER_MARKS = ("●", "▲", "■", "◆", "★", "✚", "▼", "✖")
"""One shape per seat beside its name, so sides differ by more than colour."""

SUN = palette.YELLOW
SUN_EDGE = "#B8A200"
SPENT = "#C8C8C8"
CARD_EDGE = "#7A7A7A"
SLOT_FILL = "#F2F2EE"
TABLE = "#FBFAF5"
SELECT = palette.VERMILLION
TARGET = palette.REDDISH_PURPLE
BACK = "#5B7F6A"


@dataclass(frozen=True)
class TableOptions:
    """What the widget wants on the table besides the view: selection, targets, cover, names, notes."""

    selected: int | None = None  # card id chosen in the Command
    targets: frozenset = frozenset()  # clickable tags to highlight, e.g. ("understory", 1, 0)
    covered: bool = False  # the hand cover is down (another person is about to look)
    cover_text: str = ""  # e.g. "Pass to P2 - press to show your hand"
    revealed: Mapping[int, tuple] = field(default_factory=dict)  # Teacher view: other players' Commands
    names: tuple[str, ...] = ()  # seat labels, e.g. ("P1 (you)", "P2 (bot)")
    sol_note: str = ""  # from the engine, e.g. why 'end' is not allowed yet
    show_captured: bool = False  # the capture-2-habitats variation: show each side's captured count
    fresh: frozenset = frozenset()  # card ids just drawn into the viewer's Command (marked "new")
    hidden_note: str = ""  # on the cover when nobody may look (a bot's Command); no button
    width: int = WIDTH


# ---------------------------------------------------------------- an accumulator of batched shapes


class _Paint:
    """Collects rectangles, lines, circles and labels by layer and style, then emits few batched ops."""

    def __init__(self) -> None:
        self.rects: dict[tuple, list] = defaultdict(list)
        self.segs: dict[tuple, list] = defaultdict(list)
        self.circles: dict[tuple, list] = defaultdict(list)
        self.texts: dict[tuple, list] = defaultdict(list)

    def rect(self, x, y, w, h, fill=None, stroke=None, lw=1.0, tag=None, layer=0) -> None:
        """A rectangle (a 4-corner polygon), optionally tagged for hit-testing."""
        key = (layer, fill is not None, stroke, lw)
        self.rects[key].append(([(x, y), (x + w, y), (x + w, y + h), (x, y + h)], fill, tag))

    def poly(self, points, fill=None, stroke=None, lw=1.0, tag=None, layer=2) -> None:
        """A polygon of any corner count (grouped by corner count)."""
        key = (layer, fill is not None, stroke, lw, len(points))
        self.rects[key].append((list(points), fill, tag))

    def seg(self, x0, y0, x1, y1, stroke=palette.INK, lw=1.0, layer=2) -> None:
        """A straight line."""
        self.segs[(layer, stroke, lw)].append([(x0, y0), (x1, y1)])

    def circle(self, x, y, r, fill, stroke=None, lw=1.0, layer=2) -> None:
        """A filled circle."""
        self.circles[(layer, stroke, lw)].append((x, y, r, fill))

    def text(self, x, y, s, font="11px sans-serif", colour=palette.INK, align="center", layer=4) -> None:
        """A label."""
        if s:
            self.texts[(layer, font, colour, align)].append((float(x), float(y), str(s)))

    def emit(self, scene: Scene) -> Scene:
        """Add every collected shape to ``scene``, layer by layer (shapes before labels in a layer)."""
        layers = sorted({k[0] for d in (self.rects, self.segs, self.circles, self.texts) for k in d})
        for layer in layers:
            for key, items in self.rects.items():
                if key[0] != layer:
                    continue
                filled, stroke, lw = key[1], key[2], key[3]
                points = as_points([p for p, _, _ in items])
                fill = colours([f for _, f, _ in items]) if filled else None
                scene.add(Polygons(points, fill, stroke=stroke, line_width=lw, tags=tuple(t for _, _, t in items)))
            for (lay, stroke, lw), items in self.segs.items():
                if lay == layer:
                    scene.add(Segments(as_points(items), stroke=stroke, line_width=lw))
            for (lay, stroke, lw), items in self.circles.items():
                if lay == layer:
                    scene.add(Circles(np.array([(x, y) for x, y, _, _ in items], dtype=np.float64),
                                      np.array([r for _, _, r, _ in items], dtype=np.float64),
                                      colours([f for *_, f in items]), stroke=stroke, line_width=lw))
            for (lay, font, colour, align), items in self.texts.items():
                if lay == layer:
                    scene.add(Texts(items, font=font, colour=colour, align=align))
        return scene


def _fit(text: str, width: float, px: float) -> str:
    """``text`` cut (with an ellipsis) to about ``width`` pixels at a ``px`` font."""
    most = max(3, int(width / (px * 0.56)))
    return text if len(text) <= most else text[: most - 1] + "…"


def _wrap(text: str, width: float, px: float) -> list[str]:
    """``text`` broken into lines of about ``width`` pixels at a ``px`` font."""
    return wrap_words(text, width, px)


def _sols(n: int) -> str:
    """'1 Sol' or 'n Sols'."""
    return f"{n} Sol" if n == 1 else f"{n} Sols"


# ---------------------------------------------------------------- the habitat and its gauges


def gauge_parts(view, element: _cards.Element) -> tuple[int, list[tuple[str, int, str]], int]:
    """(card value, [(card name, change, how long)], current value) of one gauge, from the view's cards."""
    habitat = view.habitat
    base = habitat.temperature if element is _cards.Element.TEMPERATURE else habitat.water
    parts: list[tuple[str, int, str]] = []
    for card in view.trends:
        change = mt.climate_change(card)
        if change is not None and change[0] is element:
            parts.append((card.name, change[1], "lasting"))
    for card, _owner, rounds in view.weather:
        change = mt.climate_change(card)
        if change is not None and change[0] is element:
            parts.append((card.name, change[1], f"{rounds} round{'s' if rounds != 1 else ''} left"))
    current = view.temperature if element is _cards.Element.TEMPERATURE else view.water
    return base, parts, current


def _gauge(p: _Paint, view, element: _cards.Element, x: float, y: float, width: float) -> float:
    """One 1-9 gauge: cells, the card's value (hollow mark), the current value (filled mark), the changes."""
    base, parts, current = gauge_parts(view, element)
    label = "Temperature" if element is _cards.Element.TEMPERATURE else "Water"
    tint = "#F4C9A8" if element is _cards.Element.TEMPERATURE else palette.WATER
    p.text(x, y + 9, label, "bold 12px sans-serif", align="left")
    gx, cell = x + 78, (width - 78 - 46) / 9
    for v in range(GAUGE_MIN, GAUGE_MAX + 1):
        cx = gx + (v - 1) * cell
        fill = tint if v <= current else "#FFFFFF"
        p.rect(cx, y, cell - 1, 16, fill=fill, stroke=CARD_EDGE, lw=1.0, tag=("gauge", element.value, v), layer=1)
        p.text(cx + cell / 2, y + 8.5, str(v), "9px sans-serif", palette.MUTED_INK, layer=4)
    bx = gx + (base - 0.5) * cell
    p.poly([(bx - 5, y + 25), (bx + 5, y + 25), (bx, y + 18)], fill="#FFFFFF", stroke=palette.INK, lw=1.0)
    nx = gx + (current - 0.5) * cell
    p.poly([(nx - 6, y - 8), (nx + 6, y - 8), (nx, y - 1)], fill=palette.INK, stroke=palette.INK)
    p.text(x + width - 2, y + 9, f"now {current}", "bold 12px sans-serif", align="right")
    changes = [f"card {base}"] + [f"{name} {change:+d} ({how})" for name, change, how in parts]
    lines = _wrap(" · ".join(changes), width, 10)
    if len(lines) > GAUGE_LINES:
        lines = lines[: GAUGE_LINES - 1] + [_fit(" ".join(lines[GAUGE_LINES - 1 :]), width, 10)]
    for i, line in enumerate(lines):
        p.text(x, y + 33 + 12 * i, line, "10px sans-serif", palette.MUTED_INK, align="left")
    return y + 30 + 12 * GAUGE_LINES


def _habitat(p: _Paint, view, o: TableOptions, y: float) -> float:
    """The shared habitat card: name, region, preferred species, modifiers, power and the two gauges."""
    w = o.width - 2 * MARGIN
    h = view.habitat
    top = y
    if h is None:
        p.rect(MARGIN, y, w, 40, fill="#FFFFFF", stroke=CARD_EDGE, tag=("habitat",))
        p.text(o.width / 2, y + 20, "The habitat card is about to be drawn", "italic 12px sans-serif")
        return y + 48
    p.text(MARGIN + 8, y + 14, _fit(h.name, w - 80, 14), "bold 14px sans-serif", align="left")
    p.text(MARGIN + w - 8, y + 14, f"fire {h.fire_mod:+d} · wind {h.wind_mod:+d}", "10px sans-serif",
           palette.MUTED_INK, align="right")
    p.text(MARGIN + 8, y + 29, _fit(h.region, w - 16, 10), "italic 10px sans-serif", palette.MUTED_INK,
           align="left")
    p.text(MARGIN + 8, y + 43, _fit("Prefers (+2): " + ", ".join(h.preferred), w - 16, 10), "10px sans-serif",
           palette.MUTED_INK, align="left")
    for i, line in enumerate(_wrap(_cards.POWER_TEXT[h.power], w - 16, 10)[:2]):
        p.text(MARGIN + 8, y + 57 + 12 * i, line, "10px sans-serif", palette.BLUE, align="left")
    y += 84
    y = _gauge(p, view, _cards.Element.TEMPERATURE, MARGIN + 8, y, w - 16)
    y = _gauge(p, view, _cards.Element.WATER, MARGIN + 8, y + 10, w - 16)
    p.rect(MARGIN, top, w, y - top + 2, fill="#FFFFFF", stroke=palette.INK, lw=1.5, tag=("habitat",), layer=0)
    if ("habitat",) in o.targets:
        p.rect(MARGIN - 2, top - 2, w + 4, y - top + 6, stroke=TARGET, lw=3.5, layer=5)
        p.text(MARGIN + w - 8, top + 29, "click here to play it", "bold 10px sans-serif", TARGET, align="right")
    return y + 10


# ---------------------------------------------------------------- piles and Sols


def _piles(p: _Paint, view, o: TableOptions, y: float) -> float:
    """Draw pile count, the litter's top card and size, and the three Sols (spent ones grey)."""
    x = MARGIN
    for i in range(3):  # a small stack of card backs
        p.rect(x + 2 * i, y + 2 * (2 - i), 38, 50, fill=BACK, stroke="#FFFFFF", lw=1.0, layer=1,
               tag=("draw",) if i == 2 else None)
    p.text(x + 23, y + 30, str(view.draw_size), "bold 14px sans-serif", "#FFFFFF", layer=3)
    p.text(x + 23, y + 66, "draw pile", "10px sans-serif", palette.MUTED_INK)
    lx = x + 56
    p.rect(lx, y, 76, 54, fill="#FFFFFF", stroke=CARD_EDGE, tag=("litter",), layer=1)
    if ("litter",) in o.targets:
        p.rect(lx - 3, y - 3, 82, 60, stroke=TARGET, lw=3.5, layer=5)
    top = view.litter_top  # the engine's: the card discarded last, face up
    if top is None:
        p.text(lx + 38, y + 27, "empty", "italic 10px sans-serif", palette.MUTED_INK)
    else:
        p.text(lx + 38, y + 12, top.kind.value, "9px sans-serif", palette.MUTED_INK, layer=4)
        words = top.name.split()
        p.text(lx + 38, y + 26, _fit(words[0], 72, 10), "bold 10px sans-serif")
        if len(words) > 1:
            p.text(lx + 38, y + 39, _fit(" ".join(words[1:]), 72, 10), "bold 10px sans-serif")
    p.text(lx + 38, y + 66, f"litter ({len(view.litter)})", "10px sans-serif", palette.MUTED_INK)
    sx = lx + 96
    battle = view.phase is mt.Phase.BATTLE
    for i in range(_cards.SOLS_PER_TURN):
        lit = battle and i < view.sols
        p.circle(sx + 14 + 30 * i, y + 18, 11, SUN if lit else SPENT, stroke=SUN_EDGE if lit else "#9A9A9A", lw=1.5)
        p.text(sx + 14 + 30 * i, y + 18.5, "☀" if lit else "", "12px sans-serif", "#8A7400")
    if battle:
        mover = _name(o, view.mover)
        p.text(sx, y + 42, f"{mover}: {_sols(view.sols)} left, {view.spent} spent", "bold 12px sans-serif",
               align="left")
    else:
        p.text(sx, y + 42, f"Sols: {view.phase.value}", "10px sans-serif", palette.MUTED_INK, align="left")
    if o.sol_note:
        for i, line in enumerate(_wrap(o.sol_note, o.width - sx - MARGIN, 9.5)[:2]):
            p.text(sx, y + 56 + 11 * i, line, "10px sans-serif", palette.VERMILLION, align="left")
    return y + 78


def _name(o: TableOptions, player: int) -> str:
    """A seat's label."""
    if 0 <= player < len(o.names):
        return o.names[player]
    return f"P{player + 1}"


# ---------------------------------------------------------------- cards


def _bar(p: _Paint, x: float, y: float, w: float, lo: int, hi: int, now: int | None, colour: str, label: str):
    """A range bar on the 1-9 scale (like the gauges), with the habitat's current value as a tick."""
    cell = w / 9
    p.rect(x, y, w, 6, fill="#FFFFFF", stroke=palette.INK, lw=0.6, layer=2)
    p.rect(x + (lo - 1) * cell, y, (hi - lo + 1) * cell, 6, fill=colour, stroke=palette.INK, lw=0.6, layer=2)
    if label:
        p.text(x - 5, y + 3.5, label, "9px sans-serif", palette.MUTED_INK, layer=4)
    if now is not None and now >= 1:
        tx = x + (now - 0.5) * cell
        p.seg(tx, y - 2, tx, y + 8, stroke=palette.INK if lo <= now <= hi else palette.VERMILLION, lw=2.0, layer=3)


def _tree_face(p: _Paint, tree, x, y, w, h, view, big: bool) -> None:
    """A tree card's face: colour strip with letter, names, costs, ranges as bars, strengths."""
    colour = WATER_COLOURS[tree.water_pref]
    p.rect(x + 1, y + 1, w - 2, 13, fill=colour, layer=1)
    cost = f"☀{tree.plant}" + (f"/{tree.grow}" if tree.grow is not None else "/–")
    p.text(x + 5, y + 8, f"{WATER_LETTERS[tree.water_pref]} {tree.water_pref.value} · {cost}",
           "bold 9px sans-serif", "#FFFFFF", align="left", layer=4)
    genus, _, species = tree.name.partition(" ")
    size = 10
    p.text(x + w / 2, y + 25, _fit(genus, w - 6, size), f"bold italic {size}px sans-serif", layer=4)
    p.text(x + w / 2, y + 37, _fit(species, w - 6, size), f"italic {size}px sans-serif", layer=4)
    p.text(x + w / 2, y + 49, _fit(tree.common, w - 6, 9), "9px sans-serif", palette.MUTED_INK, layer=4)
    habitat = view.habitat
    if habitat is not None and habitat.prefers(tree):
        p.text(x + w - 4, y + 25, f"+{_cards.PREFERRED_BONUS}", "bold 9px sans-serif", palette.BLUE, align="right", layer=4)
    now_t = view.temperature if habitat is not None else None
    now_w = view.water if habitat is not None else None
    bx, bw = (x + 16, w - 22) if big else (x + 8, w - 16)  # small cards: the colours say T (peach) and W (blue)
    _bar(p, bx, y + 58, bw, tree.temp_min, tree.temp_max, now_t, "#F4C9A8", "T" if big else "")
    _bar(p, bx, y + 70, bw, tree.water_min, tree.water_max, now_w, palette.WATER, "W" if big else "")
    row = y + 86
    p.text(x + w / 2, row, f"sun {tree.sun} · shade {tree.shade}", "9px sans-serif", palette.MUTED_INK, layer=4)
    p.text(x + w / 2, row + 11, f"fire {tree.fire} · wind {tree.wind}", "9px sans-serif", palette.MUTED_INK, layer=4)
    if big:
        grow = f"grow {tree.grow}" if tree.grow is not None else "never grows"
        p.text(x + w / 2, y + h - 24, f"plant {tree.plant} · {grow}", "bold 9px sans-serif", "#8A7400", layer=4)
        if habitat is not None:
            fits = tree.fits(view.temperature, view.water)
            p.text(x + w / 2, y + h - 10, "✓ fits the habitat now" if fits else "✗ does not fit now",
                   "bold 9px sans-serif", palette.BLUISH_GREEN if fits else palette.VERMILLION, layer=4)


def _other_face(p: _Paint, card, x, y, w, h, view) -> None:
    """A cloud, trend or disaster card's face: kind banner, cost, name, effect and reach."""
    kind = card.kind
    p.rect(x + 1, y + 1, w - 2, 13, fill=KIND_INK[kind], layer=1)
    p.text(x + 5, y + 8, f"{kind.value} · ☀{mt.printed_cost(card)}", "bold 9px sans-serif", "#FFFFFF", align="left", layer=4)
    words = card.name.split()
    half = (len(words) + 1) // 2
    p.text(x + w / 2, y + 27, _fit(" ".join(words[:half]), w - 6, 10), "bold 10px sans-serif", layer=4)
    p.text(x + w / 2, y + 39, _fit(" ".join(words[half:]), w - 6, 10), "bold 10px sans-serif", layer=4)
    lines: list[str]
    if kind is mt.Kind.CLOUD:
        lines = [f"{card.affects.value} {card.change:+d}", "until your next turn"]
    elif kind is mt.Kind.TREND:
        lines = [f"{card.affects.value} {card.change:+d}", "lasting"]
    elif card.is_climate:
        lines = [f"{card.element.value} {card.strength:+d}", f"linger {card.linger}" if card.linger else "at once"]
    else:
        lines = [f"{card.element.value} force {card.strength}", ""]
    reach = "one side" if card.kind is mt.Kind.DISASTER and card.sides is _cards.Sides.ONE else "every side"
    if kind is mt.Kind.DISASTER:
        lines.append(f"{card.targets.value} trees · {reach}")
        if card.needs_power is not None:
            lines.append("needs " + card.needs_power.value.replace("_", " "))
    for i, line in enumerate(lines):
        p.text(x + w / 2, y + 55 + 12 * i, _fit(line, w - 6, 9), "9px sans-serif", KIND_INK[kind], layer=4)


def _card(p: _Paint, card, x, y, w, h, view, tag=None, big=False, selected=False, target=False) -> None:
    """One face-up card with its outline (thick when selected, dashed-looking purple when a target)."""
    fill = "#FFFFFF" if card.kind is mt.Kind.TREE else KIND_COLOURS[card.kind]
    p.rect(x, y, w, h, fill=fill, stroke=CARD_EDGE, lw=1.0, tag=tag, layer=1)
    if card.kind is mt.Kind.TREE:
        _tree_face(p, card, x, y, w, h, view, big)
    else:
        _other_face(p, card, x, y, w, h, view)
    if selected:
        p.rect(x - 3, y - 3, w + 6, h + 6, stroke=SELECT, lw=3.5, layer=5)
    if target:
        p.rect(x - 2, y - 2, w + 4, h + 4, stroke=TARGET, lw=3.0, layer=5)


def _slot(p: _Paint, x, y, w, h, label, tag, target: bool) -> None:
    """An empty slot: a pale rounded place with its name (highlighted when it is a legal target)."""
    p.rect(x, y, w, h, fill="#FBF3C4" if target else SLOT_FILL, stroke=TARGET if target else "#C8C8C0",
           lw=2.5 if target else 1.0, tag=tag, layer=0)
    p.text(x + w / 2, y + h / 2, label, "10px sans-serif", palette.MUTED_INK, layer=4)


def _backs(p: _Paint, x, y, n: int, tag) -> None:
    """``n`` face-down cards (another player's Command, seen from outside)."""
    for i in range(n):
        p.rect(x + 9 * i, y, 12, 16, fill=BACK, stroke="#FFFFFF", lw=1.0, tag=tag, layer=1)


# ---------------------------------------------------------------- the sides and the Command


SLOT_W, SLOT_H = 88, 112
REVEAL_H = 28


def _side(p: _Paint, view, o: TableOptions, player: int, y: float) -> float:
    """One player's side: name and counts, then understory 1-2 and canopy 1-2."""
    w = o.width - 2 * MARGIN
    mine = player == view.player
    mover = player == view.mover and view.phase is mt.Phase.BATTLE
    head = f"{PLAYER_MARKS[player]} {_name(o, player)}"
    trees = view.trees(player)
    info = f"{trees} tree{'s' if trees != 1 else ''}"
    if o.show_captured:
        info += f" · captured {view.captured[player]}"
    if mover:
        head += "  ← to play"
    p.text(MARGIN + 6, y + 11, head, "bold 12px sans-serif", palette.VERMILLION if mover else palette.INK,
           align="left")
    p.text(MARGIN + w - 6, y + 11, info, "10px sans-serif", palette.MUTED_INK, align="right")
    if not mine:
        n = view.hand_sizes[player]
        shown = o.revealed.get(player)
        if shown is None:
            _backs(p, MARGIN + w - 70 - 9 * n, y + 3, n, ("side", player))
        else:
            names = ", ".join(c.name for c in shown) or "no cards"
            for i, line in enumerate(_wrap("Command (Teacher view): " + names, w - 12, 9.5)[:2]):
                p.text(MARGIN + 6, y + 27 + 12 * i, line, "italic 10px sans-serif", palette.REDDISH_PURPLE,
                       align="left")
    top = y + (22 + REVEAL_H if (not mine and o.revealed.get(player) is not None) else 22)
    bottom = top + SLOT_H + 18
    p.rect(MARGIN, y, w, bottom - y, fill="#FFF9E6" if mover else TABLE, stroke=palette.INK if mine else "#C8C8C0",
           lw=1.5 if mine else 1.0, tag=("side", player), layer=0)
    gap = (w - 4 * SLOT_W) / 5
    for i, (place, trees_) in enumerate((("understory", view.understory[player]), ("canopy", view.canopy[player]))):
        for s in range(2):
            x = MARGIN + gap + (2 * i + s) * (SLOT_W + gap)
            tag = (place, player, s)
            tree = trees_[s]
            is_target = tag in o.targets
            if tree is None:
                _slot(p, x, top, SLOT_W, SLOT_H, f"{place} {s + 1}", tag, is_target)
            else:
                _card(p, tree, x, top, SLOT_W, SLOT_H, view, tag=tag, target=is_target)
    mid = MARGIN + 2 * gap + 2 * SLOT_W + gap / 2  # a divider between the understory pair and the canopy pair
    p.seg(mid, top + 4, mid, top + SLOT_H - 4, stroke="#C8C8C0", lw=1.0, layer=0)
    if mine:  # the row names, once (the divider shows them on the other sides)
        p.text(MARGIN + gap + SLOT_W + gap / 2, top + SLOT_H + 10, "understory", "9px sans-serif", palette.MUTED_INK)
        p.text(MARGIN + 3 * gap + 3 * SLOT_W + gap / 2, top + SLOT_H + 10, "canopy", "9px sans-serif",
               palette.MUTED_INK)
    if ("side", player) in o.targets:
        p.rect(MARGIN - 2, y - 2, w + 4, bottom - y + 4, stroke=TARGET, lw=3.5, layer=5)
        p.text(MARGIN + w / 2, y + 11, "click this side", "bold 10px sans-serif", TARGET)
    return bottom + 8


HAND_W, HAND_H = 122, 150


def _command(p: _Paint, view, o: TableOptions, y: float) -> float:
    """The viewer's Command face up, or the hand cover while another person may be looking."""
    w = o.width - 2 * MARGIN
    if view.player < 0:  # a spectator's public view: no Command at all
        p.rect(MARGIN, y, w, HAND_H + 24, fill="#E4E4DE", stroke="#9A9A9A", lw=1.0, layer=1)
        p.text(o.width / 2, y + (HAND_H + 24) / 2, o.hidden_note or "Watching: every Command stays hidden",
               "italic 12px sans-serif", palette.INK)
        return y + HAND_H + 30
    title = f"Command of {_name(o, view.player)} ({len(view.hand)} card{'s' if len(view.hand) != 1 else ''})"
    if o.hidden_note:
        p.rect(MARGIN, y, w, HAND_H + 24, fill="#E4E4DE", stroke="#9A9A9A", lw=1.0, layer=1)
        _backs(p, o.width / 2 - 20, y + 30, len(view.hand), None)
        p.text(o.width / 2, y + (HAND_H + 24) / 2 + 14, o.hidden_note, "italic 12px sans-serif", palette.INK)
        return y + HAND_H + 30
    if o.covered:
        p.rect(MARGIN, y, w, HAND_H + 24, fill="#3E5C4B", stroke=palette.INK, lw=1.5, tag=("cover",), layer=1)
        p.text(o.width / 2, y + (HAND_H + 24) / 2 - 8, o.cover_text or "Press to show your hand",
               "bold 14px sans-serif", "#FFFFFF")
        p.text(o.width / 2, y + (HAND_H + 24) / 2 + 14, "(the others look away)", "12px sans-serif", "#E0E0E0")
        return y + HAND_H + 30
    p.text(MARGIN + 4, y + 9, title, "bold 12px sans-serif", align="left")
    top = y + 20
    gap = (w - 3 * HAND_W) / 4
    for i, card in enumerate(view.hand):
        x = MARGIN + gap + i * (HAND_W + gap)
        tag = ("hand", card.id)
        _card(p, card, x, top, HAND_W, HAND_H, view, tag=tag, big=True, selected=card.id == o.selected,
              target=tag in o.targets)
        if card.id in o.fresh:
            p.rect(x + HAND_W - 34, top - 8, 34, 14, fill=palette.YELLOW, stroke=palette.INK, lw=1.0, layer=6)
            p.text(x + HAND_W - 17, top - 1, "new", "bold 10px sans-serif", palette.INK, layer=7)
    if not view.hand:
        p.text(o.width / 2, top + HAND_H / 2, "no cards", "italic 12px sans-serif", palette.MUTED_INK)
    return top + HAND_H + 10


def table_scene(view, options: TableOptions | None = None) -> Scene:
    """The whole card table as seen by ``view.player`` (their Command only; others' as card backs).

    A spectator's public view (``player`` is ``mt.PUBLIC``) shows every side with card backs and no Command.
    """
    o = options or TableOptions()
    p = _Paint()
    y = _habitat(p, view, o, 8.0)
    y = _piles(p, view, o, y)
    n = len(view.hand_sizes)
    order = [q for q in range(n) if q != view.player] + ([view.player] if view.player >= 0 else [])
    for q in order:
        y = _side(p, view, o, q, y)
    y = _command(p, view, o, y)
    height = max(scene_height(n, len(o.revealed)), int(math.ceil(y + 4)))
    scene = Scene(o.width, height, background=TABLE)
    return p.emit(scene)


def scene_height(players: int, revealed: int = 0) -> int:
    """The table's height in pixels for a number of players (so the canvas size is fixed per game)."""
    habitat = 8 + 84 + 2 * (30 + 12 * GAUGE_LINES) + 10 + 10
    piles = 78
    sides = players * (22 + SLOT_H + 18 + 8) + REVEAL_H * revealed
    return int(habitat + piles + sides + HAND_H + 30 + 4)


# ---------------------------------------------------------------- clicks


CLICKABLE = frozenset({"hand", "understory", "canopy", "side", "cover", "draw", "litter", "habitat", "gauge"})


def hit_at(scene: Scene, x: float, y: float) -> tuple | None:
    """The tag of the topmost clickable shape under (x, y): ("hand", card), ("understory", p, s), ...; None if none."""
    if not (isinstance(x, int | float) and isinstance(y, int | float)) or not (math.isfinite(x) and math.isfinite(y)):
        return None
    found = None
    for op in scene.ops:
        if not isinstance(op, Polygons) or not op.tags:
            continue
        mins = op.points.min(axis=1)
        maxs = op.points.max(axis=1)
        inside = (mins[:, 0] <= x) & (x <= maxs[:, 0]) & (mins[:, 1] <= y) & (y <= maxs[:, 1])
        for i in np.flatnonzero(inside):
            tag = op.tags[i]
            if isinstance(tag, tuple) and tag and tag[0] in CLICKABLE:
                found = _prefer(found, tag)
    return found


_RANK = {"cover": 5, "hand": 4, "understory": 4, "canopy": 4, "draw": 3, "litter": 3, "gauge": 3, "side": 1,
         "habitat": 1}


def _prefer(old: tuple | None, new: tuple) -> tuple:
    """Of two tags under the pointer, the more specific (a card or slot beats the side it lies on)."""
    if old is None or _RANK[new[0]] >= _RANK[old[0]]:
        return new
    return old


def texts_in(scene: Scene) -> Iterable[str]:
    """Every label drawn (for tests: nothing hidden may appear here)."""
    return scene.texts()
