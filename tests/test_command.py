"""The ``treegames`` command (issue 35): its subcommands, the bundled dashboards, and the one platform module."""

from __future__ import annotations

import filecmp
import io
import os
import subprocess
import sys
import types
from pathlib import Path

import pytest

from treegames import cli, dashboards, plugins, portable
from treegames.lab import slots

ROOT = Path(__file__).resolve().parent.parent


def files_under(folder: Path) -> set[str]:
    """Every file below ``folder``, as paths relative to it."""
    return {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()}


def test_version_prints_the_installed_version(capsys):
    with pytest.raises(SystemExit) as done:
        cli.main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out.strip() == f"treegames {cli.installed_version()}"
    assert cli.installed_version()[0].isdigit()


def test_no_subcommand_prints_the_help(capsys):
    assert cli.main([]) == 0
    out = capsys.readouterr().out
    assert "serve" in out and "copy-notebooks" in out


def test_serve_passes_the_class_server_the_bundled_dashboards_and_every_option():
    options, extra = cli.parser().parse_known_args(
        ["serve", "--host", "0.0.0.0", "--port", "9000", "--store", "postgresql://h/db",
         "--class", "bosk/play.ipynb=30", "--no-preheat", "--VoilaConfiguration.show_tracebacks=False"])
    argv = cli.serve_argv(options, extra)
    assert argv[0] == str(dashboards.notebooks_folder())
    assert argv[1:] == ["--host=0.0.0.0", "--port=9000", "--store=postgresql://h/db", "--no-preheat",
                        "--pool=bosk/play.ipynb=30", "--VoilaConfiguration.show_tracebacks=False"]


def test_serve_a_teachers_own_folder(tmp_path, capsys):
    options, extra = cli.parser().parse_known_args(["serve", "--notebooks", str(tmp_path)])
    assert cli.serve_argv(options, extra)[0] == str(tmp_path)
    assert cli.main(["serve", "--notebooks", str(tmp_path / "missing")]) == 2
    assert "is not a folder" in capsys.readouterr().err


@pytest.mark.parametrize("bad", ["bosk/play.ipynb", "bosk/play.ipynb=0", "bosk/play.ipynb=many", "=3", "bosk=3"])
def test_a_class_without_a_page_and_a_head_count_is_refused_with_an_example(bad, capsys):
    with pytest.raises(SystemExit) as done:
        cli.main(["serve", "--class", bad])
    assert done.value.code == 2
    assert f"e.g. {next(iter(plugins.plugins()))}/play.ipynb=30" in capsys.readouterr().err


def test_unknown_options_are_refused_outside_serve(capsys, tmp_path):
    with pytest.raises(SystemExit) as done:
        cli.main(["copy-notebooks", str(tmp_path / "x"), "--Voila.ip=0.0.0.0"])
    assert done.value.code == 2
    assert "unrecognised arguments" in capsys.readouterr().err
    assert not (tmp_path / "x").exists()


def test_an_editable_install_serves_the_repositorys_notebooks():
    assert dashboards.notebooks_folder() == ROOT / "notebooks"


def test_a_wheel_serves_its_own_copy_first(tmp_path, monkeypatch):
    bundled, repository = tmp_path / "package" / "notebooks", tmp_path / "notebooks"
    for folder in (bundled, repository):
        folder.mkdir(parents=True)
        (folder / "index.ipynb").write_text("{}")
    monkeypatch.setattr(dashboards, "candidates", lambda: [bundled, repository])
    assert dashboards.notebooks_folder() == bundled


def test_no_dashboards_anywhere_is_one_sentence_and_status_2(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(dashboards, "candidates", lambda: [tmp_path / "a", tmp_path / "b"])
    with pytest.raises(dashboards.NotebooksMissing, match="reinstall it from a wheel"):
        dashboards.notebooks_folder()
    assert cli.main(["serve"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("treegames: the dashboards were not found") and err.count("\n") == 1


def test_copy_notebooks_writes_every_dashboard_and_image_as_it_is(tmp_path, capsys):
    target = tmp_path / "my-lessons"
    assert cli.main(["copy-notebooks", str(target)]) == 0
    source = ROOT / "notebooks"
    wanted = {p for p in files_under(source) if ".ipynb_checkpoints" not in p and "__pycache__" not in p}
    assert files_under(target) == wanted
    assert "aspens/play.ipynb" in wanted and "images/aspens-play.png" in wanted
    match, mismatch, errors = filecmp.cmpfiles(source, target, sorted(wanted), shallow=False)
    assert mismatch == [] and errors == []
    assert f"treegames serve --notebooks {target}" in capsys.readouterr().out


def test_copy_notebooks_never_overwrites_a_folder_with_files(tmp_path, capsys):
    (tmp_path / "index.ipynb").write_text("mine")
    with pytest.raises(dashboards.CopyRefused, match="not an empty folder"):
        dashboards.copy_notebooks(tmp_path)
    assert isinstance(dashboards.CopyRefused("x"), ValueError)
    assert cli.main(["copy-notebooks", str(tmp_path)]) == 2
    assert (tmp_path / "index.ipynb").read_text() == "mine"
    assert files_under(tmp_path) == {"index.ipynb"}


def test_hub_config_prints_the_jupyterhub_configuration(capsys):
    assert cli.main(["hub-config"]) == 0
    assert Path(capsys.readouterr().out.strip()) == ROOT / "deploy" / "jupyterhub_config.py"


def test_copy_notebooks_into_an_empty_folder_is_fine(tmp_path):
    assert dashboards.copy_notebooks(tmp_path) == tmp_path.resolve()
    assert (tmp_path / "index.ipynb").is_file()


# ---- the one platform module --------------------------------------------------------------------------


class FakeMsvcrt(types.SimpleNamespace):
    """Windows' msvcrt as far as the locks use it: records each call; a held byte refuses a second lock."""

    LK_NBLCK, LK_UNLCK = 2, 0

    def __init__(self):
        super().__init__(calls=[], held=False)

    def locking(self, fileno, mode, nbytes):
        """Lock or unlock one byte; a second lock raises OSError, as Windows does."""
        self.calls.append((mode, nbytes))
        if mode == self.LK_NBLCK:
            if self.held:
                raise OSError("locked")
            self.held = True
        else:
            self.held = False


def finder(available: dict):
    """An import function that knows only the given modules."""

    def find(name):
        if name not in available:
            raise ImportError(name)
        return available[name]

    return find


def test_posix_uses_flock_and_a_second_holder_is_refused_at_once(tmp_path):
    locks = portable.locks_from()
    assert locks is not None and locks.kind == "fcntl"
    with open(tmp_path / "slot", "a+") as first, open(tmp_path / "slot", "a+") as second:
        assert locks.try_lock(first)
        assert not locks.try_lock(second), "flock is per open file: the second handle must wait its turn"
        locks.unlock(first)
        assert locks.try_lock(second)
        locks.unlock(second)


def test_windows_uses_msvcrt_on_the_first_byte():
    fake = FakeMsvcrt()
    locks = portable.locks_from(finder({"msvcrt": fake}))
    assert locks.kind == "msvcrt"
    handle = io.StringIO("")
    handle.fileno = lambda: 3
    assert locks.try_lock(handle)
    assert not locks.try_lock(handle)
    locks.unlock(handle)
    assert fake.calls == [(2, 1), (2, 1), (0, 1)]


def test_a_system_without_file_locks_says_so_and_the_lab_sets_no_limit(monkeypatch):
    assert portable.locks_from(finder({})) is None
    monkeypatch.setattr(portable, "LOCKS", None)
    assert "no file locks" in portable.lock_kind()
    monkeypatch.setattr(slots, "LOCKS", None)
    assert slots.acquire(3) == [None, None, None]
    slots.release([None, None, None])


def test_the_lab_slots_use_the_platform_locks():
    assert slots.LOCKS is portable.LOCKS
    assert "fcntl" in portable.lock_kind()


@pytest.mark.slow
def test_copied_notebooks_run_under_nbval_outside_the_repository(tmp_path):
    """The landing page and a Play page, copied out of the repository, run cell by cell (nbval) where they are."""
    target = dashboards.copy_notebooks(tmp_path / "lessons")
    pages = [target / "index.ipynb", target / "aspens" / "play.ipynb"]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "tests"), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "nbval_ipc", "-q",
                           "--nbval-lax", "-o", "addopts=", "--rootdir", str(target), *map(str, pages)],
                          cwd=target, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert " passed" in done.stdout and "failed" not in done.stdout, done.stdout[-1000:]


def test_a_class_larger_than_the_free_memory_is_refused_with_the_figures_before_any_server_starts():
    """A real run of the command: it must stop at once, in one sentence, with no kernel started."""
    done = subprocess.run([sys.executable, "-m", "treegames.cli", "serve", "--port", "0",
                           "--class", "bosk/play.ipynb=1000000"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 1
    assert "prepared kernels (" in done.stderr and "bosk/play.ipynb=1000000" in done.stderr
    assert "GB free" in done.stderr and "--no-preheat" in done.stderr
    assert "Traceback" not in done.stderr and "Voila" not in done.stdout


def test_the_memory_check_counts_every_page_and_refuses_only_past_the_free_memory():
    from treegames.serving.settings import KERNEL_MB, RESERVE_MB, ClassTooLarge, check_class_memory

    assert check_class_memory({"bosk/play.ipynb": 30}, available_mb=8000, pages=16) == 30 + 15
    room = RESERVE_MB + 45 * KERNEL_MB
    assert check_class_memory({"bosk/play.ipynb": 30}, available_mb=room, pages=16) == 45
    with pytest.raises(ClassTooLarge, match="prepare at most 44 kernels"):
        check_class_memory({"bosk/play.ipynb": 30}, available_mb=room - 1, pages=16)
