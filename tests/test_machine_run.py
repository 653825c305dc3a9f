"""make test's second run (``-m machine``) reads only the test files that name the marker; nothing is lost."""

from __future__ import annotations

from pathlib import Path

import conftest

TESTS = Path(__file__).resolve().parent


class Options:
    """A pytest config as the hook reads it: only the mark expression."""

    def __init__(self, markexpr: str):
        self.markexpr = markexpr

    def getoption(self, name: str, default=None):
        return self.markexpr if name == "markexpr" else default


def silent_file() -> Path:
    """A test file whose text never names the marker."""
    return next(p for p in sorted(TESTS.glob("test_*.py")) if b"machine" not in p.read_bytes())


def test_the_machine_run_skips_test_files_that_never_name_the_marker():
    assert conftest.pytest_ignore_collect(silent_file(), Options("machine")) is True


def test_the_machine_run_reads_every_file_holding_a_machine_test():
    for path in (TESTS / "tables/test_soak.py", TESTS / "tables/test_races.py",
                 TESTS / "browser/test_serving_pages.py", TESTS / "experiments/test_experiment_server.py"):
        assert conftest.pytest_ignore_collect(path, Options("machine")) is None, path


def test_every_other_run_reads_every_file():
    for expr in ("", "not machine", "machine and browser", "browser"):
        assert conftest.pytest_ignore_collect(silent_file(), Options(expr)) is None


def test_helpers_and_folders_are_never_skipped():
    assert conftest.pytest_ignore_collect(TESTS / "harness.py", Options("machine")) is None
    assert conftest.pytest_ignore_collect(TESTS / "tables", Options("machine")) is None
