"""Rewrite the "Every page" list of notebooks/index.ipynb from the notebooks themselves (titles = first heading).

Run after adding a notebook: python tools/update_index.py   (the landing-page browser test checks every
notebook is linked).
"""

from __future__ import annotations

import json
from pathlib import Path

from treegames.ui.landing import pages_markdown

INDEX = Path(__file__).resolve().parent.parent / "notebooks" / "index.ipynb"
MARK = "## Every page\n"


def main() -> None:
    nb = json.loads(INDEX.read_text(encoding="utf-8"))
    nb["cells"] = [c for c in nb["cells"] if "page_list()" not in "".join(c["source"])]
    first = nb["cells"][0]
    text = "".join(first["source"])
    head = text[: text.index(MARK) + len(MARK)] if MARK in text else text.rstrip() + "\n\n" + MARK
    first["source"] = (head + "\n" + pages_markdown(INDEX.parent)).splitlines(keepends=True)
    INDEX.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"updated {INDEX}")


if __name__ == "__main__":
    main()
