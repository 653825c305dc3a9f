"""Every dashboard file is a valid notebook by today's nbformat: no warning, every cell named by a unique id."""

from __future__ import annotations

import warnings
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted([*(ROOT / "notebooks").rglob("*.ipynb"), *(ROOT / "tests" / "plugins").rglob("*.ipynb")])


def test_the_notebooks_are_found():
    """The list below is not empty by accident (a moved folder would pass every check vacuously)."""
    assert len([p for p in NOTEBOOKS if "notebooks" in p.parts and "plugins" not in p.parts]) >= 16


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_a_notebook_validates_with_no_warning_and_unique_cell_ids(path):
    """nbformat 4.5 with an id on every cell: a missing id is a warning today and an error in nbformat to come."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # MissingIDFieldWarning and any other validator warning fail here
        notebook = nbformat.read(path, as_version=4)
        nbformat.validate(notebook)
    assert (notebook.nbformat, notebook.nbformat_minor) >= (4, 5)
    ids = [cell.get("id") for cell in notebook.cells]
    assert None not in ids, f"{path.name}: cells without an id"
    assert len(set(ids)) == len(ids), f"{path.name}: repeated cell ids"
