"""The suite's tiers and how it shares the machine: markers by what a test starts, xdist groups by what it shares.

Every test gets the markers of what it really uses (registered in ``pyproject.toml``):

* ``browser``: drives Debian's Chromium (everything under ``tests/browser``);
* ``server``: starts a server process of its own (Voila, Jupyter, JupyterHub, the class server,
  the tables' or experiments' HTTP servers) or a fixture that does;
* ``postgres``: runs on the real PostgreSQL server (``tests/pgserver.py``);
* ``machine``: needs the whole machine (a class arriving at once, soaks): ``make test`` runs these
  after the rest, alone, one at a time.

``make test-quick`` runs what has none of these and is not ``slow``.

Under pytest-xdist (``make test``: ``-n auto --dist loadgroup --no-loadscope-reorder``) each worker
starts its own session servers (Voila, PostgreSQL). A notebook's cells (nbval) run in order on one
worker, and so do the tests of a module that share a module-scoped fixture (a loaded page, a server);
other tests spread one by one. ``machine`` tests share one group: they run one after another, never
two at once. The queue starts with the machine group, then the browser and server tests, and ends
with the short unit tests, so that both workers finish together.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
sys.path.insert(0, str(TESTS))  # harness.py and pgserver.py, for every test folder

PIG = TESTS / "plugins" / "pig"
"""A fourth game that is not part of the product (issue 31): Pig, a treegames plug-in with its own entry point."""


def install_test_games() -> Path:
    """Pig, pip-installed into a folder of this environment keyed by its sources' hash; the folder goes on the path.

    The product's games are registered by treegames' own entry points; Pig registers through its own
    ``pyproject.toml``, as a third party's game would. It is installed with ``pip install --target`` (not into
    the venv itself), so only the test processes see it: ``make serve`` lists the product's games alone.
    Servers and kernels the tests start inherit it through ``PYTHONPATH``.
    """
    import hashlib
    import subprocess

    sources = sorted(p for p in PIG.rglob("*") if p.is_file() and p.suffix in (".py", ".toml", ".ipynb")
                     and "__pycache__" not in p.parts and ".ipynb_checkpoints" not in p.parts)
    key = hashlib.sha256(b"".join(p.relative_to(PIG).as_posix().encode() + p.read_bytes() for p in sources))
    folder = Path(sys.prefix) / "treegames-test-games" / key.hexdigest()[:16]
    if not folder.exists() and "PYTEST_XDIST_WORKER" not in os.environ:  # the controller installs, once
        folder.parent.mkdir(parents=True, exist_ok=True)
        partial = Path(tempfile.mkdtemp(prefix="installing-", dir=folder.parent))
        source = partial / "source"  # built from a copy: the build leaves nothing in tests/
        for path in sources:
            (source / path.relative_to(PIG)).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, source / path.relative_to(PIG))
        subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target",
                        str(partial / "site"), str(source)], check=True)
        try:
            (partial / "site").rename(folder)
        except OSError:  # another run installed the same sources at the same moment
            pass
        shutil.rmtree(partial, ignore_errors=True)
        for old in folder.parent.iterdir():  # earlier versions of the sources
            if old != folder and not old.name.startswith("installing-"):
                shutil.rmtree(old, ignore_errors=True)
    sys.path.insert(0, str(folder))
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (str(folder), os.environ.get("PYTHONPATH")) if p)
    return folder


install_test_games()

SERVER_FIXTURES = {"voila", "served", "class_server", "moved", "live", "server", "classroom", "beacon_server", "hub"}
"""Fixtures that start a server process (the test folders' conftests and modules define them)."""

POSTGRES_FIXTURES = {"postgres_server", "postgres", "own_postgres"}
"""Fixtures that start or use the real PostgreSQL server."""


def _folder(item: pytest.Item) -> str | None:
    """The test's folder under tests/ ('' for tests/ itself, None outside tests/: the notebooks)."""
    path = Path(item.path).resolve()
    if not path.is_relative_to(TESTS):
        return None
    parts = path.relative_to(TESTS).parts
    return parts[0] if len(parts) > 1 else ""


def _fixtures(item: pytest.Item) -> set[str]:
    """The fixtures a test uses (none for a notebook's cell)."""
    return set(getattr(item, "fixturenames", ()))


def _on_postgres(item: pytest.Item) -> bool:
    """Whether the test runs on the real PostgreSQL server (a fixture, or a 'postgresql' parameter)."""
    if POSTGRES_FIXTURES & _fixtures(item):
        return True
    params = getattr(getattr(item, "callspec", None), "params", {})
    return any(value == "postgresql" for value in params.values())


def _shares_a_module_fixture(item: pytest.Item) -> bool:
    """Whether the test uses a module-scoped fixture besides Chromium (a loaded page, a server): its module stays together."""
    defs = getattr(getattr(item, "_fixtureinfo", None), "name2fixturedefs", {})
    return any(d[-1].scope in ("module", "package") for name, d in defs.items() if d and name != "browser")


def _rank(item: pytest.Item) -> int:
    """Where a test goes in the queue: the long ones first, so that short tests fill the end on every worker."""
    if item.get_closest_marker("machine"):
        return 0
    if item.get_closest_marker("browser") or item.get_closest_marker("server"):
        return 1 if item.get_closest_marker("xdist_group") else 2
    return 3


MACHINE_ONLY = "machine"
"""The mark expression of make test's second run: only the ``machine`` tests, alone on the machine."""


def _names_machine(path: Path) -> bool:
    """Whether a test file's text names the ``machine`` marker (every file holding a machine test does; see below)."""
    return b"machine" in path.read_bytes()


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """In the ``-m machine`` run, skip the test files that never name the marker (saves collecting the whole
    suite, about 8 s, for 8 tests); every other run checks that no machine test hides in such a file."""
    if config.getoption("markexpr", "") != MACHINE_ONLY or collection_path.suffix != ".py":
        return None
    if collection_path.name.startswith("test_") and not _names_machine(collection_path):
        return True
    return None


@pytest.hookimpl(tryfirst=True)  # before xdist reads the groups
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Add each test's tier markers and its xdist group, and queue the long tests first."""
    hidden = [item.nodeid for item in items if item.get_closest_marker("machine")
              and Path(item.path).suffix == ".py" and not _names_machine(Path(item.path))]
    if hidden:
        raise pytest.UsageError(f"{hidden[0]} is a machine test in a file that does not name the marker: "
                                f"'-m {MACHINE_ONLY}' (make test's second run) would not collect it")
    for item in items:
        folder = _folder(item)
        if folder == "browser":
            item.add_marker(pytest.mark.browser)
        if folder in ("browser", "serving", "tables_serve") or SERVER_FIXTURES & _fixtures(item):
            item.add_marker(pytest.mark.server)
        if _on_postgres(item):
            item.add_marker(pytest.mark.postgres)
        if folder is None:  # a notebook's cells (nbval): in order, in one kernel, on one worker
            item.add_marker(pytest.mark.xdist_group(f"notebook:{Path(item.path).parent.name}/{Path(item.path).name}"))
        elif item.get_closest_marker("machine"):
            item.add_marker(pytest.mark.xdist_group("machine"))
        elif _shares_a_module_fixture(item):
            item.add_marker(pytest.mark.xdist_group(Path(item.path).stem))
    items.sort(key=_rank)  # stable: a module's tests keep their order


class GroupCheck:
    """On an xdist worker with --dist loadgroup, stop at once if the groups did not take (a notebook split is chaos)."""

    @pytest.hookimpl(trylast=True)  # after xdist has written each grouped test's group into its node id
    def pytest_collection_modifyitems(self, config: pytest.Config, items: list[pytest.Item]) -> None:
        """Every test with an xdist group carries it in its node id, or the run stops with the reason."""
        if not config.getoption("loadgroup", False):
            return
        lost = [item.nodeid for item in items if item.get_closest_marker("xdist_group") and "@" not in item.nodeid]
        if lost:
            raise pytest.UsageError(f"pytest-xdist did not group {len(lost)} tests (first: {lost[0]}): this pytest "
                                    "and pytest-xdist do not work together; see the pin in pyproject.toml")


def pytest_configure(config: pytest.Config) -> None:
    """Check the xdist groups after collection; a SIGTERM stops the run as Ctrl-C does, servers and all."""
    config.pluginmanager.register(GroupCheck(), "treegames-group-check")
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _interrupted)
        os.register_at_fork(after_in_child=_default_sigterm)  # a forked worker still dies of SIGTERM


def _interrupted(signum: int, _frame: object) -> None:
    """SIGTERM (a timeout, a cancelled CI run): raise KeyboardInterrupt so that every fixture's teardown runs and
    the servers the tests started (PostgreSQL, Voila, the class server) are stopped, not left behind."""
    raise KeyboardInterrupt(f"stopped by signal {signum}")


def _default_sigterm() -> None:
    """In a process forked from a test: SIGTERM ends it, as it would have without this conftest."""
    with contextlib.suppress(ValueError):  # not the main thread: the handler cannot be changed there
        signal.signal(signal.SIGTERM, signal.SIG_DFL)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None):
    """Run a test that does not drive Chromium with Playwright's event loop hidden, so that its own ``asyncio.run`` works.

    The browser tests share one Playwright per process (tests/browser/conftest.py), whose sync API marks its
    loop as running in this thread between calls; every Playwright call marks it again.
    """
    import asyncio

    if "browser" in _fixtures(item):
        yield
        return
    loop = asyncio._get_running_loop()
    asyncio._set_running_loop(None)
    yield
    if loop is not None and not loop.is_closed() and asyncio._get_running_loop() is None:
        asyncio._set_running_loop(loop)


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """With TREEGAMES_TEST_LOG=FILE, append each test phase's outcome and seconds as it ends (for hunting flakes)."""
    log = os.environ.get("TREEGAMES_TEST_LOG")
    if "PYTEST_XDIST_WORKER" in os.environ:  # the controller writes what its workers report: once each
        return
    if log and (report.when == "call" or report.outcome != "passed"):
        with open(log, "a") as out:
            out.write(f"{time.strftime('%H:%M:%S')} {report.outcome} {report.when} {report.duration:.1f} {report.nodeid}\n")


import nbval_ipc  # noqa: E402,F401 - nbval's kernels on IPC sockets (tests/nbval_ipc.py)
