"""JupyterHub for a class: every student logs in and lands on the treegames dashboards (Voila).

Use it as it is (``jupyterhub -f deploy/jupyterhub_config.py``) or drop it into The Littlest JupyterHub's
``/opt/tljh/config/jupyterhub_config.d/``. Read deploy/README.md first: it sizes the server.

* Each user's server is jupyter_server with Voila as its extension, configured by
  ``treegames.serving.settings.server_args()``: the checked kernel websocket, at most 10 kernels per
  user, Voila's longer output timeout, idle kernels stopped after 15 minutes, and the class server's
  page template (no stylesheet from a public CDN: a school hub behind a firewall is offline too),
  found through the JUPYTER_PATH each user's server is given.
* The default URL is the landing dashboard, so a student who logs in sees the games, not JupyterLab.
* Resource limits per user (memory, CPU) where the spawner enforces them (TLJH's systemd spawner and
  Kubernetes' KubeSpawner do; a plain local process spawner does not), a cap on servers running at once
  and on spawns in flight (a class logging in together), and jupyterhub-idle-culler stopping servers
  idle for 30 minutes.

Environment (all optional; the loopback test sets them):
  TREEGAMES_NOTEBOOKS        folder of the dashboards every user's server serves (default: the ones installed
                             with treegames, ``treegames.dashboards.notebooks_folder()``)
  TREEGAMES_HUB_URL          public URL the proxy listens on (default http://:8000)
  TREEGAMES_HUB_API_URL      the hub's internal API (default http://127.0.0.1:8081)
  TREEGAMES_PROXY_API_URL    configurable-http-proxy's API (default http://127.0.0.1:8001)
  TREEGAMES_PROXY            the configurable-http-proxy program (default: on PATH)
  TREEGAMES_HUB_SPAWNER      "simple": SimpleLocalProcessSpawner (every user runs as the hub's own user;
                             for a test or a single-teacher demo), else JupyterHub's default spawner
  TREEGAMES_HUB_SHARED_PASSWORD  one password for the whole class (DummyAuthenticator: any user name,
                             this password; weak, for a test or one lesson). Unset: the system's accounts.
  TREEGAMES_TABLES_SERVICE_URL   where the shared-tables service listens (default http://127.0.0.1:10101)
  TREEGAMES_TABLES_DATA      the service's data folder: its SQLite file and teacher code
                             (default /srv/treegames/data)
  TREEGAMES_STORE_URL        postgresql://... to keep the tables in PostgreSQL instead (given to the service only)

Shared tables and class experiments run in one hub-managed service, ``treegames-tables``
(``python -m treegames.tables.service``), the only process that writes their store: students can run
code in their own kernels, so no kernel holds the database. Kernels call it with their hub token; the
service asks the hub whose token it is, and binds each seat to that hub user.
"""

import os
import sys

from treegames.dashboards import notebooks_folder
from treegames.serving.settings import jupyter_path, server_args

c = get_config()  # noqa: F821 -- JupyterHub provides it

env = os.environ.get

# Where it listens.
c.JupyterHub.bind_url = env("TREEGAMES_HUB_URL", "http://:8000")
c.JupyterHub.hub_bind_url = env("TREEGAMES_HUB_API_URL", "http://127.0.0.1:8081")
c.ConfigurableHTTPProxy.api_url = env("TREEGAMES_PROXY_API_URL", "http://127.0.0.1:8001")
c.ConfigurableHTTPProxy.command = [env("TREEGAMES_PROXY", "configurable-http-proxy")]

# Each user's server: jupyter_server with Voila, the class-server settings, the landing dashboard first.
c.Spawner.cmd = [sys.executable, "-m", "treegames.serving.singleuser"]  # jupyterhub.singleuser, started quicker
c.Spawner.notebook_dir = env("TREEGAMES_NOTEBOOKS") or str(notebooks_folder())
c.Spawner.default_url = "/voila/render/index.ipynb"
c.Spawner.args = server_args()
# Where the page template is, and where every kernel finds the shared tables (it calls with its hub token).
TABLES = "treegames-tables"
TABLES_URL = env("TREEGAMES_TABLES_SERVICE_URL", "http://127.0.0.1:10101").rstrip("/")
c.Spawner.environment = {"JUPYTER_PATH": jupyter_path(env("JUPYTER_PATH", "")),
                         "TREEGAMES_TABLES_URL": f"{TABLES_URL}/services/{TABLES}/api"}

# Resource limits.
c.Spawner.mem_limit = "2G"  # ten kernels of about 100 MB and the server itself, with room
c.Spawner.cpu_limit = 1.0
c.Spawner.start_timeout = 180  # a class logging in together starts many servers at once
c.Spawner.http_timeout = 120
c.JupyterHub.concurrent_spawn_limit = 10
c.JupyterHub.active_server_limit = 100

# Idle servers are stopped by jupyterhub-idle-culler (a hub service with just the rights it needs).
# Every user, and the token their server and kernels get, may use the shared-tables service (and only it).
USE_TABLES = f"access:services!service={TABLES}"
c.JupyterHub.load_roles = [
    {"name": "idle-culler",
     "scopes": ["list:users", "read:users:activity", "read:servers", "delete:servers"],
     "services": ["idle-culler"]},
    {"name": "user", "scopes": ["self", USE_TABLES]},
    {"name": "server", "scopes": ["users:activity!user", "access:servers!server", USE_TABLES]},
]
tables_env = {"TREEGAMES_DATA_DIR": env("TREEGAMES_TABLES_DATA", "/srv/treegames/data")}
if env("TREEGAMES_STORE_URL"):
    tables_env["TREEGAMES_STORE_URL"] = env("TREEGAMES_STORE_URL")
c.JupyterHub.services = [
    {"name": "idle-culler",
     "command": [sys.executable, "-m", "jupyterhub_idle_culler", "--timeout=1800", "--cull-every=300"]},
    {"name": TABLES, "url": TABLES_URL, "command": [sys.executable, "-m", "treegames.tables.service"],
     "environment": tables_env, "display": False},
]

if env("TREEGAMES_HUB_SPAWNER") == "simple":
    c.JupyterHub.spawner_class = "jupyterhub.spawner.SimpleLocalProcessSpawner"
    c.SimpleLocalProcessSpawner.home_dir_template = os.path.join(
        env("TREEGAMES_HUB_STATE", "/tmp/treegames-hub"), "{username}")
    if os.getuid() == 0:  # one account for everybody: a test machine or container run as root
        c.Spawner.args = [*server_args(), "--ServerApp.allow_root=True"]

if env("TREEGAMES_HUB_SHARED_PASSWORD"):
    c.JupyterHub.authenticator_class = "dummy"
    c.DummyAuthenticator.password = env("TREEGAMES_HUB_SHARED_PASSWORD")
    c.Authenticator.allow_all = True
