"""The Aspens engine imports no UI library."""

from __future__ import annotations

import subprocess
import sys


def test_importing_aspens_leaves_ui_libraries_unloaded():
    code = (
        "import sys, treegames.aspens, treegames.aspens.bots, treegames.aspens.odds;"
        "bad = [m for m in ('ipywidgets', 'ipycanvas', 'IPython') if m in sys.modules];"
        "print(','.join(bad))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == ""
