"""Small text helpers for views: counted nouns and message boxes (the game's own words come from its engine)."""

from __future__ import annotations

import html
import math
from fractions import Fraction

from . import palette


def plural(count: int, noun: str, many: str | None = None) -> str:
    """'1 space', '2 spaces', '0 trees' (``many`` for irregular plurals)."""
    return f"{count} {noun if count == 1 else (many or noun + 's')}"


def wrap_words(text: str, width: float, px: float, glyph: float = 0.56, least: int = 8) -> list[str]:
    """``text`` broken at spaces into lines of about ``width`` pixels at a ``px`` font (``glyph`` em per letter)."""
    most = max(least, int(width / (px * glyph)))
    lines, line = [], ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > most:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    return lines + ([line] if line else [])


def escape(text: object) -> str:
    """HTML-escaped text."""
    return html.escape(str(text))


def message_box(text_html: str, error: bool = False) -> str:
    """A message under the buttons: errors framed in vermillion, notes in blue ('' for no message)."""
    if not text_html:
        return ""
    colour = palette.VERMILLION if error else palette.BLUE
    role = "alert" if error else "status"
    return f"<div role='{role}' style='border-left:4px solid {colour};padding:2px 8px;line-height:1.5'>{text_html}</div>"


def panel(text_html: str) -> str:
    """The grey-blue explanation panel."""
    return (f"<div style='background:#F4F7FB;padding:6px 10px;border-radius:4px;font-size:13px;"
            f"line-height:1.5'>{text_html}</div>")


def option_label(name: str) -> str:
    """'cascade_timing' -> 'Cascade timing'."""
    words = name.replace("_", " ").replace("-", " ")
    return words[:1].upper() + words[1:]


def value_label(value: object) -> str:
    """An option value for people: 'each-tree' -> 'each tree', 2 -> '2'."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value).replace("-", " ").replace("_", " ")


def fraction_text(value: Fraction) -> str:
    """A fraction in lowest terms as plain text: '0', '1', '2/3'."""
    value = Fraction(value)
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


def percent_text(value: Fraction, decimals: int = 1) -> str:
    """An exact fraction as a percent rounded half-up to ``decimals`` places: 1/6 -> '16.7%'."""
    scale = 10**decimals
    tenths = math.floor(Fraction(value) * 100 * scale + Fraction(1, 2))
    whole, part = divmod(tenths, scale)
    return f"{whole}.{part:0{decimals}d}%" if decimals else f"{whole}%"
