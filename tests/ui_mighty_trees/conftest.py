"""Puts tests/mighty_trees on sys.path for the shared position helpers (mt_positions.py)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "mighty_trees"))
