"""House rule 1: engines import nothing from ipywidgets, ipycanvas or IPython."""

from __future__ import annotations

import importlib.util
import subprocess
import sys

import pytest

UI_MODULES = ("ipywidgets", "ipycanvas", "IPython")
ENGINES = ["treegames.core", "treegames.aspens", "treegames.bosk", "treegames.mighty_trees"]


@pytest.mark.parametrize("module", ENGINES)
def test_engine_import_leaves_ui_libraries_unloaded(module):
    if importlib.util.find_spec(module) is None:
        pytest.fail(f"{module} is missing")
    code = (
        f"import sys, {module}\n"
        f"loaded = [m for m in {UI_MODULES!r} if m in sys.modules]\n"
        "print(','.join(loaded))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "", f"{module} pulled in {out.stdout.strip()}"


def test_the_ui_does_load_them():
    """The check above can fail: importing a view does bring the UI libraries in."""
    code = "import sys, treegames.ui.aspens.board; print('ipycanvas' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "True"
