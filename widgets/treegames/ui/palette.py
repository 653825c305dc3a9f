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
BLUE = "#0072B2"
VERMILLION = "#D55E00"
REDDISH_PURPLE = "#CC79A7"
BLACK = "#000000"

BACKGROUND = "#FFFFFF"
INK = "#2B2B2B"
MUTED_INK = "#6B6B6B"
WATER = "#8CC8EE"
WATER_INK = "#1F5F8B"
HIGHLIGHT = YELLOW

# Quiet land tones, one per board tile, so tiles read apart without shouting.
LAND_TONES = ("#EFE6CF", "#E7EFD6", "#F1E4D8", "#E3ECE6", "#EEE9D9", "#E6E8F0", "#F0ECD2")
