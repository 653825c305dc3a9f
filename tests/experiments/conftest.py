"""Fixtures for the class-experiment tests (helpers in exp_helpers.py, put on sys.path here)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from exp_helpers import TEACHER, Clock, InterimStore  # noqa: E402

from treegames.experiments import ExperimentAuthority, Source  # noqa: E402


@pytest.fixture
def store(tmp_path):
    """A fresh store in a temporary folder."""
    s = InterimStore(tmp_path / "treegames.sqlite3")
    yield s
    s.close()


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def authority(store, clock):
    """An experiment authority over the store, as a class-server kernel would reach it."""
    return ExperimentAuthority(store, TEACHER, clock=clock, source=Source.CLASS_KERNEL)
