"""JupyterHub for real on loopback, with deploy/jupyterhub_config.py: students log in and play through the hub.

The hub (jupyterhub from PyPI), its proxy (configurable-http-proxy from npm, installed by ``make test``
under .venv/node), a local process spawner and one shared class password. Three users log in in Chromium,
land on the landing dashboard (the default URL), open a board dashboard, see it drawn and click it.
Everything the hub started (proxy, idle culler, user servers, kernels) is stopped at the end.
"""

from __future__ import annotations

import os
import random
import shutil
import sqlite3
import sys
from urllib.parse import urlparse

import psutil
import pytest

import harness
from treegames.service import wire
from treegames.serving import singleuser
from treegames.tables.client import HttpClient
from treegames.tables.errors import BadToken, TableError

WAIT_MS = harness.WAIT_MS

CONFIG = harness.ROOT / "deploy" / "jupyterhub_config.py"
PASSWORD = "treegames-class"
BOARD = "aspens/board-and-setups.ipynb"


def proxy_program() -> str | None:
    """configurable-http-proxy: the project's own (make test installs it), else one on PATH."""
    local = harness.ROOT / ".venv" / "node" / "node_modules" / ".bin" / "configurable-http-proxy"
    return str(local) if local.exists() else shutil.which("configurable-http-proxy")


@pytest.fixture(scope="module")
def hub(tmp_path_factory):
    """A JupyterHub on a free loopback port, stopped with its proxy, services, user servers and kernels."""
    proxy = proxy_program()
    if proxy is None:
        message = "the JupyterHub test needs configurable-http-proxy (make hub-proxy installs it)"
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(message)
        pytest.skip(message)
    pytest.importorskip("jupyterhub")
    state = tmp_path_factory.mktemp("hub")
    port = harness.free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("TREEGAMES_TABLES_")}
    env = dict(env,
               TREEGAMES_TABLES_SERVICE_URL=f"http://127.0.0.1:{harness.free_port()}",
               TREEGAMES_TABLES_DATA=str(state / "tables"),
               TREEGAMES_NOTEBOOKS=str(harness.NOTEBOOKS),
               TREEGAMES_HUB_URL=f"http://127.0.0.1:{port}",
               TREEGAMES_HUB_API_URL=f"http://127.0.0.1:{harness.free_port()}",
               TREEGAMES_PROXY_API_URL=f"http://127.0.0.1:{harness.free_port()}",
               TREEGAMES_PROXY=proxy,
               TREEGAMES_HUB_SPAWNER="simple",
               TREEGAMES_HUB_STATE=str(state),
               TREEGAMES_HUB_SHARED_PASSWORD=PASSWORD)
    argv = [sys.executable, "-m", "jupyterhub", "-f", str(CONFIG)]
    server = harness.Server(argv, port, cwd=state, ready_path="/hub/login", log_name="jupyterhub", env=env)
    server.tables_data = state / "tables"
    yield server
    server.stop()
    assert server.alive_pids() == [], "the hub, its proxy, a user's server or a kernel survived"


def block_off_server(context) -> list[str]:
    """Abort every request that leaves the loopback hub; the list fills with the URLs that tried."""
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
def test_students_log_in_land_on_the_dashboards_and_play_through_the_hub(browser, hub):
    for user in ("ada", "ben", "chloe"):
        context = browser.new_context(viewport=harness.VIEWPORT)
        blocked = block_off_server(context)  # a school hub behind a firewall is offline too
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda err, errors=errors: errors.append(str(err)))
        page.goto(f"{hub.base}/hub/login", timeout=WAIT_MS)
        page.fill("input[name=username]", user)
        page.fill("input[name=password]", PASSWORD)
        page.click("[type=submit]")
        page.wait_for_url(f"**/user/{user}/voila/render/index.ipynb**", timeout=2 * WAIT_MS)
        page.wait_for_selector("#rendered_cells", state="attached", timeout=WAIT_MS)
        page.wait_for_function("() => document.getElementById('loading') === null || "
                               "getComputedStyle(document.getElementById('loading')).display === 'none'",
                               timeout=WAIT_MS)
        assert "Aspens" in page.inner_text("body"), "the landing dashboard is each user's default page"
        harness.screenshot(page, f"hub-{user}-landing")
        stats = harness.open_dashboard(page, hub, BOARD, prefix=f"/user/{user}/voila/render/")
        assert stats["inked"] > 50_000, "the board is drawn through the hub"
        assert harness.time_to_redraw(page, None, 300, 300) >= 0, "a click on the board redraws it"
        harness.screenshot(page, f"hub-{user}-board")
        assert not [e for e in errors if "Traceback" in e]
        assert "cdn.jsdelivr.net" not in page.content(), "the class server's page template, not Voila's stock one"
        assert blocked == [], f"the hub's pages asked the network for {blocked}"
        context.close()
    log = hub.log_path.read_text(errors="replace")
    assert "idle-culler" in log, "the idle culler runs as a hub service"
    assert len([p for p in hub.children() if singleuser.MODULE in " ".join(p.cmdline())]) == 3


def log_in(browser, hub, user: str):
    """Log ``user`` in through the hub's login page, which starts their server; the browser context."""
    context = browser.new_context(viewport=harness.VIEWPORT)
    page = context.new_page()
    page.goto(f"{hub.base}/hub/login", timeout=WAIT_MS)
    page.fill("input[name=username]", user)
    page.fill("input[name=password]", PASSWORD)
    page.click("[type=submit]")
    page.wait_for_url(f"**/user/{user}/**", timeout=2 * WAIT_MS)
    return context


def kernel_credentials(hub, user: str) -> tuple[str, str]:
    """(tables URL, hub token) in ``user``'s server's environment: what every kernel of theirs inherits."""

    def found() -> tuple[str, str] | None:
        for p in hub.children():
            try:
                if singleuser.MODULE not in " ".join(p.cmdline()):
                    continue
                env = p.environ()
            except psutil.Error:
                continue
            if env.get("JUPYTERHUB_USER") == user:
                return env["TREEGAMES_TABLES_URL"], env[wire.HUB_TOKEN_ENV]
        return None

    return harness.wait_until(found, step=0.5, what=f"a server of {user}")


def test_two_hub_users_play_a_whole_game_through_the_tables_service(browser, hub):
    """Ada and Ben log in; over the service's HTTP API, each with their own server's hub token, they play
    a whole two-person Aspens game (random legal moves); seats are bound to the hub users."""
    contexts = [log_in(browser, hub, user) for user in ("ada", "ben")]
    try:
        (url, ada_token), (_, ben_token) = kernel_credentials(hub, "ada"), kernel_credentials(hub, "ben")
        assert "/services/treegames-tables/api" in url and ada_token != ben_token
        ada = HttpClient(url, {"Authorization": f"token {ada_token}"})
        ben = HttpClient(url, {"Authorization": f"token {ben_token}"})
        with pytest.raises(TableError, match="hub user"):
            HttpClient(url, {}).open_tables()
        with pytest.raises(TableError, match="hub user"):
            HttpClient(url, {"Authorization": "token not-a-real-token"}).open_tables()
        mine = ada.create_table("aspens", None, ["person", "person"], label="ada", visitor="someone-else")
        theirs = ben.join(mine.code, label="ben")
        with pytest.raises(BadToken, match="someone else"):
            ben.view(mine.token)  # Ada's seat token in Ben's hands: the seat is Ada's
        players = {mine.seat: (ada, mine.token), theirs.seat: (ben, theirs.token)}
        rng = random.Random(19)
        view, holder = ada.view(mine.token), mine.seat
        moves = 0
        while view.status == "playing":
            client, token = players[view.current_player]
            if view.current_player != holder:  # the other player's turn: their own view lists their moves
                view, holder = client.view(token), view.current_player
                continue
            view = client.move(token, view.version, rng.choice(view.legal))  # the mover's new view comes back
            moves += 1
            assert moves < 5000, "the game did not end"
        assert view.status == "finished" and view.winners
        final = ben.view(theirs.token)
        assert (final.status, final.scores, final.version) == ("finished", view.scores, view.version)
        with sqlite3.connect(hub.tables_data / "treegames.sqlite3") as db:
            holders = db.execute("SELECT visitor FROM tg_seats WHERE table_id = ? ORDER BY seat",
                                 (mine.table_id,)).fetchall()
        assert sorted(h[0] for h in holders) == ["ada", "ben"], "each seat is bound to its hub user"
        print(f"\n{moves} moves by two hub users through the service")
    finally:
        for context in contexts:
            context.close()
    assert "treegames tables service on" in hub.log_path.read_text(errors="replace")
