"""The same dashboard in JupyterLab (run all) and behind a Binder-style URL served by a Jupyter server with Voila."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from urllib.parse import urlparse

import pytest

import binder_env
import harness

WAIT_MS = harness.WAIT_MS

NOTEBOOK = "notebooks/aspens/board-and-setups.ipynb"


def test_notebook_runs_in_jupyterlab_and_draws(browser, tmp_path):
    # JupyterLab autosaves what it runs: give it a copy, never the repository's notebooks.
    shutil.copytree(harness.NOTEBOOKS, tmp_path / "notebooks")
    server = harness.start_jupyter("lab", root=tmp_path)
    try:
        context = browser.new_context(viewport=harness.VIEWPORT)
        page = context.new_page()
        page.goto(f"{server.base}/lab/tree/{NOTEBOOK}", timeout=WAIT_MS)
        page.locator(".jp-Notebook").first.wait_for(timeout=WAIT_MS)
        page.get_by_text("Python 3 (ipykernel) | Idle").wait_for(timeout=WAIT_MS)
        page.get_by_role("menuitem", name="Run", exact=True).click()
        page.get_by_text("Run All Cells", exact=True).click()
        stats = harness.wait_for_drawing(page)
        assert stats["inked"] > 50_000
        harness.screenshot(page, "jupyterlab-board")
        context.close()
    finally:
        server.stop()
    assert server.alive_pids() == []


def binder_environment() -> tuple[str, dict]:
    """The Binder stand-in environment (binder/requirements.txt alone; built by ``make test``'s set-up, see
    tests/binder_env.py), with ``binder/postBuild`` run in it now so that the package is current."""
    home = binder_env.build()  # already there after `make test`'s set-up: only a bare pytest run builds it here
    python = home / "bin" / "python"
    env = dict(os.environ, PATH=f"{home / 'bin'}:{os.environ['PATH']}", VIRTUAL_ENV=str(home),
               JUPYTER_CONFIG_DIR=str(home / "jupyter-config"))  # postBuild writes there, not in ~/.jupyter
    subprocess.run(["bash", "binder/postBuild"], cwd=harness.ROOT, env=env, check=True,
                   stdout=subprocess.DEVNULL)
    return str(python), env


def block_off_server(context) -> list[str]:
    """Abort every request that leaves the loopback server; the list fills with the URLs that tried."""
    blocked: list[str] = []

    def only_loopback(route):
        if urlparse(route.request.url).hostname in ("127.0.0.1", "localhost"):
            route.continue_()
        else:
            blocked.append(route.request.url)
            route.abort()

    context.route("**/*", only_loopback)
    return blocked


@pytest.mark.slow
def test_binder_urlpath_opens_the_dashboard_with_no_request_off_the_server(browser):
    python, env = binder_environment()
    config = json.loads((Path(env["JUPYTER_CONFIG_DIR"]) / "jupyter_server_config.json").read_text())
    assert config["MappingKernelManager"]["cull_idle_timeout"] > 0, "postBuild turns on idle-kernel culling"
    assert config["VoilaConfiguration"]["template"] == "treegames", "the class server's offline page template"
    check = subprocess.run([python, "-c", "import treegames, sys; print(treegames.__file__)"],
                           capture_output=True, text=True, check=True, cwd="/")
    assert "site-packages" in check.stdout, "the Binder env must use its own installed copy"
    server = harness.start_jupyter("server", python=python, env=env)
    try:
        context = browser.new_context(viewport=harness.VIEWPORT)
        blocked = block_off_server(context)
        page = context.new_page()
        stats = harness.open_dashboard(page, server, NOTEBOOK, prefix="/voila/render/")
        assert stats["inked"] > 50_000
        # Voila's stock lab template links two Font Awesome stylesheets from a CDN; ours drops them.
        assert "cdn.jsdelivr.net" not in page.content()
        assert blocked == [], f"the Binder page asked the network for {blocked}"
        harness.screenshot(page, "binder-board")
        context.close()
    finally:
        server.stop()
    assert server.alive_pids() == []
