"""One set of serving settings for Voila, Binder and JupyterHub; the launcher's notes; the hub config file."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

from traitlets.config import Config
from traitlets.config.loader import KVArgParseConfigLoader

from treegames.serving import settings
from treegames.serving.__main__ import exposure_note
from treegames.serving.limits import LIMITS

ROOT = Path(__file__).resolve().parents[2]


def test_voila_and_the_jupyter_server_get_the_same_websocket_guard_and_output_timeout():
    voila, server = settings.voila_config(), settings.server_config()
    assert voila["Voila"]["kernel_websocket_connection_class"] == server["ServerApp"][
        "kernel_websocket_connection_class"] == settings.CONNECTION_CLASS
    assert voila["VoilaExecutor"] == server["VoilaExecutor"]
    assert voila["VoilaExecutor"]["iopub_timeout"] > 4, "longer than Voila's 4 s that blanked pages"
    assert voila["VoilaConfiguration"]["show_tracebacks"] is False
    assert voila["MappingKernelManager"]["cull_idle_timeout"] == LIMITS.cull_idle_seconds


def test_the_play_page_keeps_more_preheated_kernels_and_a_pool_can_be_set_per_page():
    pools = settings.voila_config()["VoilaKernelManager"]["kernel_pools_config"]
    assert pools["aspens/play.ipynb"]["pool_size"] > pools["default"]["pool_size"] >= 1
    custom = settings.voila_config(pool_sizes={"bosk/play.ipynb": 4})["VoilaKernelManager"]["kernel_pools_config"]
    assert custom["bosk/play.ipynb"] == {"pool_size": 4}
    assert settings.voila_config(preheat=False)["VoilaConfiguration"]["preheat_kernel"] is False


def test_the_command_line_form_reads_back_as_the_same_configuration():
    config = KVArgParseConfigLoader(settings.server_args()).load_config()
    assert config.ServerApp.kernel_websocket_connection_class == settings.CONNECTION_CLASS
    # Values stay strings until a trait reads them (the JupyterHub test runs a real server on them).
    assert int(config.GuardedKernelConnection.max_comm_opens) == LIMITS.max_comm_opens
    assert ast.literal_eval(str(config.ServerApp.tornado_settings)) == settings.server_tornado_settings()
    assert int(config.BoundedKernelManager.max_kernels) == LIMITS.max_kernels_per_user


def test_binder_gets_the_server_settings_as_json():
    out = subprocess.run([sys.executable, "-m", "treegames.serving.settings", "server"], capture_output=True,
                         text=True, check=True).stdout
    assert json.loads(out) == json.loads(json.dumps(settings.server_config()))
    assert "treegames.serving.settings server" in (ROOT / "binder" / "postBuild").read_text()


def test_the_hub_config_sends_students_to_the_landing_dashboard_with_limits_and_a_culler(monkeypatch):
    monkeypatch.setenv("TREEGAMES_HUB_SHARED_PASSWORD", "class")
    c = Config()
    code = (ROOT / "deploy" / "jupyterhub_config.py").read_text()
    exec(compile(code, "jupyterhub_config.py", "exec"), {"get_config": lambda: c, "__name__": "config"})
    assert c.Spawner.default_url == "/voila/render/index.ipynb"
    assert settings.CONNECTION_CLASS in " ".join(c.Spawner.args)
    assert c.Spawner.mem_limit and c.Spawner.cpu_limit
    assert c.JupyterHub.services[0]["name"] == "idle-culler"
    assert "jupyterhub_idle_culler" in c.JupyterHub.services[0]["command"]
    assert c.DummyAuthenticator.password == "class"


def test_serving_the_network_says_what_it_exposes_and_loopback_says_it_does_not():
    assert "Only this computer" in exposure_note("127.0.0.1", 8866)
    note = exposure_note("0.0.0.0", 8866)
    assert "no password" in note and "8866" in note and str(LIMITS.max_kernels) in note


# ---------------------------------------------------------------- one page template everywhere (issue 18)


def test_binder_and_the_hub_use_the_class_servers_page_template():
    assert settings.server_config()["VoilaConfiguration"]["template"] == settings.TEMPLATE
    assert settings.voila_config()["VoilaConfiguration"]["template"] == settings.TEMPLATE
    config = KVArgParseConfigLoader(settings.server_args()).load_config()
    assert config.VoilaConfiguration.template == settings.TEMPLATE
    assert "settings install-template" in (ROOT / "binder" / "postBuild").read_text()
    # Voila as a server extension would load MathJax from cdnjs; standalone Voila (the class server) loads none.
    assert settings.server_config()["ServerApp"]["tornado_settings"]["mathjax_url"] is None
    assert settings.server_config()["ServerApp"]["tornado_settings"]["mathjax_config"] is None
    assert ast.literal_eval(str(config.ServerApp.tornado_settings))["mathjax_url"] is None


def test_install_template_copies_the_template_that_drops_the_cdn_links(tmp_path):
    out = subprocess.run([sys.executable, "-m", "treegames.serving.settings", "install-template", str(tmp_path)],
                         capture_output=True, text=True, check=True).stdout.strip()
    target = tmp_path / "voila" / "templates" / settings.TEMPLATE
    assert Path(out) == target
    source = settings.TEMPLATE_ROOT / "voila" / "templates" / settings.TEMPLATE
    assert sorted(p.name for p in target.iterdir()) == sorted(p.name for p in source.iterdir())
    assert "fontawesome" in (target / "index.html.j2").read_text(), "the template names the links it drops"
    settings.install_template(tmp_path)  # a second run (a Binder rebuild) overwrites in place


def test_the_template_root_comes_first_on_jupyter_path_once():
    root = str(settings.TEMPLATE_ROOT)
    assert settings.jupyter_path("") == root
    assert settings.jupyter_path(f"/a:{root}:/b").split(":") == [root, "/a", "/b"]


def test_the_hub_gives_each_users_server_the_template_on_its_jupyter_path(monkeypatch):
    monkeypatch.setenv("JUPYTER_PATH", "/srv/extra")
    c = Config()
    code = (ROOT / "deploy" / "jupyterhub_config.py").read_text()
    exec(compile(code, "jupyterhub_config.py", "exec"), {"get_config": lambda: c, "__name__": "config"})
    assert c.Spawner.environment["JUPYTER_PATH"].split(":") == [str(settings.TEMPLATE_ROOT), "/srv/extra"]
    assert f"--VoilaConfiguration.template={settings.TEMPLATE}" in c.Spawner.args


def test_a_users_server_reads_the_command_line_settings_with_none_in_them():
    from jupyter_server.serverapp import ServerApp

    app = ServerApp()
    app.parse_command_line([a for a in settings.server_args() if a.startswith("--ServerApp.tornado_settings")])
    assert app.tornado_settings == settings.server_tornado_settings()
