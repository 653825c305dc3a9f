"""A Scene written as SVG: the same shapes, colours and labels as the canvas, for printing and the README."""

from __future__ import annotations

from html import escape

from .scene import Circles, Polygons, Scene, Segments, Texts

ANCHOR = {"center": "middle", "left": "start", "start": "start", "right": "end", "end": "end"}
BASELINE = {"middle": "central", "top": "hanging", "hanging": "hanging", "bottom": "text-after-edge",
            "alphabetic": "alphabetic"}


def _num(value: float) -> str:
    """A coordinate with at most two decimals."""
    return f"{float(value):.2f}".rstrip("0").rstrip(".")


def _rgb(row) -> str:
    """'#rrggbb' from a (3,) uint8 row."""
    return "#{:02X}{:02X}{:02X}".format(*(int(v) for v in row[:3]))


def _polygons(op: Polygons) -> list[str]:
    """One <polygon> per shape."""
    out = []
    stroke = f' stroke="{op.stroke}" stroke-width="{_num(op.line_width)}" stroke-linejoin="round"' if op.stroke else ""
    opacity = f' fill-opacity="{_num(op.alpha)}"' if op.alpha != 1.0 else ""
    for i, shape in enumerate(op.points):
        points = " ".join(f"{_num(x)},{_num(y)}" for x, y in shape)
        fill = _rgb(op.fill[i]) if op.fill is not None else "none"
        out.append(f'<polygon points="{points}" fill="{fill}"{opacity}{stroke}/>')
    return out


def _segments(op: Segments) -> list[str]:
    """All segments of one layer as a single <path>."""
    d = " ".join(f"M{_num(a[0])} {_num(a[1])}L{_num(b[0])} {_num(b[1])}" for a, b in op.points)
    return [f'<path d="{d}" stroke="{op.stroke}" stroke-width="{_num(op.line_width)}" fill="none" '
            'stroke-linecap="butt"/>']


def _circles(op: Circles) -> list[str]:
    """One <circle> per disc."""
    stroke = f' stroke="{op.stroke}" stroke-width="{_num(op.line_width)}"' if op.stroke else ""
    return [f'<circle cx="{_num(c[0])}" cy="{_num(c[1])}" r="{_num(r)}" fill="{_rgb(f)}"{stroke}/>'
            for c, r, f in zip(op.centres, op.radii, op.fill, strict=True)]


def _texts(op: Texts) -> list[str]:
    """One <text> per label, in a group carrying the font, colour and alignment."""
    anchor = ANCHOR.get(op.align, "start")
    baseline = BASELINE.get(op.baseline, "alphabetic")
    body = "".join(f'<text x="{_num(x)}" y="{_num(y)}">{escape(str(t))}</text>' for x, y, t in op.items)
    return [f'<g style="font:{escape(op.font)}" fill="{op.colour}" text-anchor="{anchor}" '
            f'dominant-baseline="{baseline}">{body}</g>']


_WRITE = {Polygons: _polygons, Segments: _segments, Circles: _circles, Texts: _texts}


def scene_to_svg(scene: Scene) -> str:
    """The SVG document for a scene, drawn in the same order as on the canvas."""
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{scene.width}" height="{scene.height}" '
             f'viewBox="0 0 {scene.width} {scene.height}">',
             f'<rect width="{scene.width}" height="{scene.height}" fill="{scene.background}"/>']
    for op in scene.ops:
        parts.extend(_WRITE[type(op)](op))
    parts.append("</svg>")
    return "\n".join(parts)
