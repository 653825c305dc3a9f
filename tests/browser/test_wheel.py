"""``pip install treegames`` then ``treegames serve`` (issue 35): a wheel that carries its dashboards.

The wheel is built as a release would be (``python -m build``: the sdist first, then the wheel from the
sdist) from a copy of the sources, checked with ``twine check``, and installed into a fresh virtual
environment outside the repository.  Its third-party dependencies are not downloaded again: the fresh
environment sees this test environment's site-packages through a ``.pth`` line (a path, so the editable
install's own hook there is not run) and its Jupyter data files (Voila's templates, the widgets' JavaScript)
through ``JUPYTER_PATH``; ``pip check`` confirms that every requirement the wheel names is satisfied.  treegames itself comes from the wheel alone,
which the test checks (``treegames.__file__`` and the served folder), with ``PYTHONPATH`` cleared and the
repository nowhere on the path.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

import harness

WAIT_MS = harness.WAIT_MS
SOURCES = ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md", "widgets", "notebooks", "deploy")
"""What a release build reads (a copy, so that building leaves nothing in the repository)."""
SKIPPED = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info", ".ipynb_checkpoints")


def run(argv: list, **kwargs) -> str:
    """Run a command to the end; its output, or a failure that shows it."""
    done = subprocess.run([str(a) for a in argv], capture_output=True, text=True, **kwargs)
    assert done.returncode == 0, f"{argv} failed ({done.returncode}):\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done.stdout


@pytest.fixture(scope="module")
def release(tmp_path_factory) -> dict:
    """An sdist and a wheel built from a copy of the sources, and a fresh venv with the wheel installed."""
    work = tmp_path_factory.mktemp("release")
    source = work / "source"
    source.mkdir()
    for name in SOURCES:
        path = harness.ROOT / name
        if path.is_dir():
            shutil.copytree(path, source / name, ignore=SKIPPED)
        else:
            shutil.copy2(path, source / name)
    dist = work / "dist"
    run([sys.executable, "-m", "build", "--no-isolation", "--outdir", dist, source])
    wheel = next(dist.glob("treegames-*.whl"))
    sdist = next(dist.glob("treegames-*.tar.gz"))
    venv = work / "venv"
    run([sys.executable, "-m", "venv", venv])
    python = venv / "bin" / "python"
    site = Path(run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]).strip())
    (site / "zz-test-dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "JUPYTER_PATH")}
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env['PATH']}"
    env["JUPYTER_PATH"] = str(Path(sys.prefix) / "share" / "jupyter")  # the dependencies' data: Voila's templates,
    # the widgets' JavaScript (a pip install of them would put these in the fresh venv's own share/jupyter)
    run([python, "-m", "pip", "install", "--quiet", "--no-index", "--no-deps", "--force-reinstall", wheel],
        cwd=work, env=env)
    return {"work": work, "wheel": wheel, "sdist": sdist, "venv": venv, "python": python, "env": env}


def test_the_sdist_and_wheel_pass_twine_check_and_the_wheel_holds_the_dashboards_and_no_tests(release):
    out = run([sys.executable, "-m", "twine", "check", "--strict", release["sdist"], release["wheel"]])
    assert out.count("PASSED") == 2, out
    names = zipfile.ZipFile(release["wheel"]).namelist()
    notebooks = {n.removeprefix("treegames/notebooks/") for n in names if n.startswith("treegames/notebooks/")}
    wanted = {p.relative_to(harness.NOTEBOOKS).as_posix() for p in harness.NOTEBOOKS.rglob("*")
              if p.is_file() and ".ipynb_checkpoints" not in p.parts}
    assert notebooks == wanted, "every dashboard and image, nothing else"
    assert not [n for n in names if n.startswith(("tests/", "artifacts/")) or "/tests/" in n or "__pycache__" in n]
    assert "treegames/deploy/jupyterhub_config.py" in names, "the hub's configuration, for `treegames hub-config`"
    entry = next(n for n in names if n.endswith("entry_points.txt"))
    assert "treegames = treegames.cli:main" in zipfile.ZipFile(release["wheel"]).read(entry).decode()
    with zipfile.ZipFile(release["wheel"]) as wheel:
        assert json.loads(wheel.read("treegames/notebooks/aspens/play.ipynb"))["cells"]


def test_the_installed_wheel_knows_nothing_of_the_repository(release):
    where = run([release["python"], "-c", "import json, sys, treegames, treegames.dashboards as d; "
                 "print(treegames.__file__); print(d.notebooks_folder()); print(json.dumps(sys.path))"],
                cwd=release["work"], env=release["env"]).splitlines()
    assert Path(where[0]).is_relative_to(release["venv"]), where
    assert Path(where[1]).is_relative_to(release["venv"]), where
    # the test environment's site-packages (the dependencies) may sit inside the repository (.venv); nothing else may
    leaks = [p for p in json.loads(where[2]) if p and Path(p).resolve().is_relative_to(harness.ROOT)
             and not Path(p).resolve().is_relative_to(Path(sys.prefix).resolve())]
    assert leaks == [], f"the repository is on the fresh environment's path: {leaks}"
    run([release["python"], "-m", "pip", "check"], cwd=release["work"], env=release["env"])
    command = release["venv"] / "bin" / "treegames"
    version = run([command, "--version"], cwd=release["work"], env=release["env"])
    assert re.fullmatch(r"treegames \d+\.\d+\.\d+\S*\n", version), version
    config = Path(run([command, "hub-config"], cwd=release["work"], env=release["env"]).strip())
    assert config.is_relative_to(release["venv"]) and "c.Spawner.notebook_dir" in config.read_text()


def test_treegames_serve_from_the_wheel_draws_the_landing_page_and_aspens_and_a_click_redraws(release, browser):
    port = harness.free_port()
    env = {**release["env"], "TREEGAMES_DATA_DIR": str(release["work"] / "data")}
    server = harness.Server([release["venv"] / "bin" / "treegames", "serve", f"--port={port}", "--no-preheat"],
                            port, cwd=release["work"], log_name="wheel-serve", env=env)
    try:
        said = harness.wait_until(lambda: "Ctrl-C" in server.log_path.read_text() and server.log_path.read_text(),
                                  what="the launcher's announcement")
        assert f"Dashboards: http://127.0.0.1:{port}/voila/render/index.ipynb" in said, said
        assert str(release["work"] / "data") in said and "Teacher code" in said, said
        context = browser.new_context(viewport=harness.VIEWPORT)
        page = context.new_page()
        page.goto(f"{server.base}/voila/render/index.ipynb", timeout=WAIT_MS)
        page.locator(".treegames-pages").wait_for(timeout=WAIT_MS)  # read from the installed notebooks
        links = page.locator("a[href$='.ipynb']").evaluate_all("els => els.map(e => e.getAttribute('href'))")
        expected = sorted(str(p.relative_to(harness.NOTEBOOKS)) for p in harness.NOTEBOOKS.rglob("*.ipynb")
                          if p.name != "index.ipynb" and ".ipynb_checkpoints" not in p.parts)
        assert sorted(set(links)) == expected
        first = harness.open_dashboard(page, server, "aspens/play.ipynb")
        assert first["inked"] > 100_000
        harness.press(page, "Step")
        after = harness.wait_for_drawing(page, differs_from=first["hash"])
        assert after["hash"] != first["hash"]
        harness.screenshot(page, "wheel-serve-aspens")
        context.close()
    finally:
        server.stop()
    assert server.alive_pids() == []
