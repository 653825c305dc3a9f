"""make test's second run (``-m machine``) reads only the test files that name the marker; nothing is lost."""

from __future__ import annotations

from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent


@pytest.fixture
def conftest(pytestconfig):
    """tests/conftest.py as pytest loaded it (other folders' conftest modules share its name)."""
    for plugin in pytestconfig.pluginmanager.get_plugins():
        if Path(getattr(plugin, "__file__", "") or "").resolve() == TESTS / "conftest.py":
            return plugin
    raise AssertionError("tests/conftest.py is not loaded")


class Options:
    """A pytest config as the hook reads it: only the mark expression."""

    def __init__(self, markexpr: str):
        self.markexpr = markexpr

    def getoption(self, name: str, default=None):
        return self.markexpr if name == "markexpr" else default


def silent_file() -> Path:
    """A test file whose text never names the marker."""
    return next(p for p in sorted(TESTS.glob("test_*.py")) if b"machine" not in p.read_bytes())


def test_the_machine_run_skips_test_files_that_never_name_the_marker(conftest):
    assert conftest.pytest_ignore_collect(silent_file(), Options("machine")) is True


def test_the_machine_run_reads_every_file_holding_a_machine_test(conftest):
    for path in (TESTS / "tables/test_soak.py", TESTS / "tables/test_races.py",
                 TESTS / "browser/test_serving_pages.py", TESTS / "experiments/test_experiment_server.py"):
        assert conftest.pytest_ignore_collect(path, Options("machine")) is None, path


def test_every_other_run_reads_every_file(conftest):
    for expr in ("", "not machine", "machine and browser", "browser"):
        assert conftest.pytest_ignore_collect(silent_file(), Options(expr)) is None


def test_helpers_and_folders_are_never_skipped(conftest):
    assert conftest.pytest_ignore_collect(TESTS / "harness.py", Options("machine")) is None
    assert conftest.pytest_ignore_collect(TESTS / "tables", Options("machine")) is None
