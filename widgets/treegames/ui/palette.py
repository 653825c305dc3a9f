"""Colours shared by every view: a colour-blind-safe set (Okabe and Ito) plus quiet board tones."""

from __future__ import annotations

from functools import cache

RGB = tuple[int, int, int]


@cache
def hex_to_rgb(colour: str) -> RGB:
    """(r, g, b) for a '#rrggbb' colour string."""
    colour = colour.lstrip("#")
    return (int(colour[0:2], 16), int(colour[2:4], 16), int(colour[4:6], 16))


# Okabe-Ito: distinguishable under the common forms of colour blindness.
ORANGE = "#E69F00"
SKY_BLUE = "#56B4E9"
BLUISH_GREEN = "#009E73"
YELLOW = "#F0E442"
BLUE = "#005A8C"
"""Okabe-Ito blue (#0072B2) darkened so Pine's tokens reach 3:1 on their grey hexes and blue text 4.5:1."""
VERMILLION = "#D55E00"
REDDISH_PURPLE = "#CC79A7"
ERROR_INK = "#A84700"
"""Vermillion darkened for words (warnings, refusals): 4.5:1 on white; marks keep VERMILLION."""
BLACK = "#000000"

BACKGROUND = "#FFFFFF"
INK = "#2B2B2B"
MUTED_INK = "#6B6B6B"
WATER = "#8CC8EE"
WATER_INK = "#1A5078"
"""Waves and water labels: darkened from #1F5F8B to read at 4.5:1 on the water."""
HIGHLIGHT = YELLOW

# Quiet land tones, one per board tile, so tiles read apart without shouting.
LAND_TONES = ("#EFE6CF", "#E7EFD6", "#F1E4D8", "#E3ECE6", "#EEE9D9", "#E6E8F0", "#F0ECD2")

# --------------------------------------------------------------------------- contrast (WCAG 2.1)

TEXT_MIN = 4.5
"""WCAG 2.1 AA: the least contrast for text against its background."""
GRAPHIC_MIN = 3.0
"""WCAG 2.1 AA (1.4.11): the least contrast for the graphics needed to play (pieces, highlights)."""

TEXT_PAIRS: tuple[tuple[str, str, str], ...] = (
    ("ink on the page", INK, BACKGROUND),
    ("error words on the page", ERROR_INK, BACKGROUND),
    ("muted ink on the page", MUTED_INK, BACKGROUND),
    ("water ink on the page", WATER_INK, BACKGROUND),
    ("notes in blue on the page", BLUE, BACKGROUND),
    ("waves on water", WATER_INK, WATER),
    *((f"ink on land tone {i + 1}", INK, tone) for i, tone in enumerate(LAND_TONES)),
    ("ink on the highlight", INK, HIGHLIGHT),
    ("black numbers on an orange token", BLACK, ORANGE),
    ("white numbers on a blue token", BACKGROUND, BLUE),
)
"""(what, text colour, background) for every text colour the kit's pictures and pages use."""

EDGE = INK
"""Every piece and highlight on a board is outlined in ink, so its shape reads on any ground (WCAG 1.4.11)."""

MARKS: tuple[tuple[str, str], ...] = (
    ("Aspen / dry-weather orange piece", ORANGE),
    ("Pine / Oak / wet blue piece", BLUE),
    ("Birch / balanced green piece", BLUISH_GREEN),
    ("Maple vermillion piece", VERMILLION),
    ("Ginkgo reddish-purple piece", REDDISH_PURPLE),
    ("legal-move highlight", HIGHLIGHT),
    ("squirrel-target sky blue", SKY_BLUE),
)
"""(what, fill) for every essential mark drawn on a board: players' pieces and legal-move highlights."""

GROUNDS: tuple[str, ...] = (BACKGROUND, *LAND_TONES)
"""The backgrounds marks are drawn on (never water: nothing is played on water)."""


def relative_luminance(colour: str) -> float:
    """WCAG 2.1 relative luminance of a '#rrggbb' colour (0 black .. 1 white)."""

    def linear(channel: int) -> float:
        c = channel / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(c) for c in hex_to_rgb(colour))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_ratio(a: str, b: str) -> float:
    """WCAG 2.1 contrast ratio of two colours, 1 (same) .. 21 (black on white)."""
    la, lb = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def mark_contrast(fill: str, ground: str, edge: str = EDGE) -> float:
    """How well an outlined mark stands out: its fill against the ground, or its ink outline against both."""
    return max(contrast_ratio(fill, ground), min(contrast_ratio(edge, ground), contrast_ratio(edge, fill)))
