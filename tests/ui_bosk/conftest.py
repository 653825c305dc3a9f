"""Fixtures for the Bosk view tests; the helpers live in bosk_moments.py (put on sys.path here)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bosk_moments import play_until  # noqa: E402

from treegames import bosk  # noqa: E402


@pytest.fixture(scope="session")
def spring_start():
    """A 2-player game just after the start player is chosen."""
    return play_until(2, 1, lambda s: s.phase is bosk.Phase.SPRING)


@pytest.fixture(scope="session")
def mid_autumn():
    """A 2-player game in leaf placement in round 3."""
    return play_until(2, 2, lambda s: s.phase is bosk.Phase.LEAF_PLACEMENT and s.wind_spot == 3)


@pytest.fixture(scope="session")
def finished():
    """A finished 3-player game."""
    return play_until(3, 4, lambda s: s.is_terminal())
