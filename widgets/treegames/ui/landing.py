"""The landing page's list of every dashboard, read from the notebooks themselves (a new page is linked at once)."""

from __future__ import annotations

import html
import json
from pathlib import Path

from .. import core

OTHER_SECTIONS = {"lab": "The strategy lab", "class": "The class (teacher pages)"}
"""Folders that are not a game's -> section title; they come after the games."""


def sections() -> dict[str, str]:
    """Folder -> section title, in page order: each registered game's folder (its name) by title, then the others."""
    return {**{name: game.title for name, game in core.games().items()}, **OTHER_SECTIONS}


def notebook_title(path: Path) -> str:
    """The first '# ' heading of a notebook, or its file name."""
    try:
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    except (OSError, ValueError, KeyError):
        return path.stem
    for cell in cells:
        if cell.get("cell_type") == "markdown":
            for line in "".join(cell.get("source", "")).splitlines():
                if line.startswith("# "):
                    return line[2:].strip()
    return path.stem.replace("-", " ")


def find_root(start: Path | None = None) -> Path:
    """The notebooks folder: the working directory (Voila and nbval run there) or a 'notebooks' folder above it."""
    here = (start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        if (folder / "index.ipynb").exists():
            return folder
        if (folder / "notebooks" / "index.ipynb").exists():
            return folder / "notebooks"
    return here


FIRST = ("rules-walkthrough", "play")
"""Within a game, these pages come first (learn the rules, then play); the rest by name."""


def pages_of(root: Path, folder: str) -> list[Path]:
    """A folder's notebooks, rules walkthrough and Play first."""
    found = [p for p in (root / folder).glob("*.ipynb") if ".ipynb_checkpoints" not in p.parts]
    return sorted(found, key=lambda p: (FIRST.index(p.stem) if p.stem in FIRST else len(FIRST), p.name))


def folders_in_order(root: Path) -> list[str]:
    """The folders holding notebooks: the games in menu order, then the lab and the class, then others by name."""
    order = list(sections())
    return sorted({p.parent.name for p in root.glob("*/*.ipynb") if ".ipynb_checkpoints" not in p.parts},
                  key=lambda f: (order.index(f) if f in order else len(order), f))


def pages_html(root: Path | None = None) -> str:
    """Every dashboard as linked HTML lists, one per game folder."""
    root = find_root(root)
    titles = sections()
    parts = []
    for folder in folders_in_order(root):
        items = "".join(
            f"<li><a href='{html.escape(folder)}/{html.escape(p.name)}'>{html.escape(notebook_title(p))}</a></li>"
            for p in pages_of(root, folder))
        parts.append(f"<h3 style='margin:10px 0 4px'>{html.escape(titles.get(folder, folder))}</h3><ul>{items}</ul>")
    return "<div class='treegames-pages' style='font-size:15px;line-height:1.6'>" + "".join(parts) + "</div>"


def page_list(root: Path | None = None):
    """The list as a widget (plain links: a click opens the page, as in a Markdown cell)."""
    import ipywidgets as widgets

    return widgets.HTML(pages_html(root))
