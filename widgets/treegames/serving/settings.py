"""Every serving setting, written once and handed to Voilà (``make serve``) and jupyter_server (Binder, Hub).

``voila_config()`` is the configuration of the standalone Voilà server (``make serve``);
``server_config()`` is the jupyter_server configuration used where Voilà runs as a server extension
(Binder's ``postBuild`` writes it as ``jupyter_server_config.json``; JupyterHub passes it to each user's
server as command-line options, see ``server_args()``).

All three use the same page template (:data:`TEMPLATE`, no stylesheet from a public CDN), so a school
network behind a firewall gets the same offline pages: ``make serve`` puts it on ``JUPYTER_PATH``
(``use_template_root()``), Binder's ``postBuild`` copies it into the environment's Jupyter data
folder (``install-template``), and the hub gives each user's server that ``JUPYTER_PATH``
(``jupyter_path()``).

Run ``python -m treegames.serving.settings server`` (or ``voila``) to print the JSON, and
``python -m treegames.serving.settings install-template`` to copy the page template into this Python's
``share/jupyter`` (Binder).

Why these values (measured by ``benchmarks/bench_classroom.py``; see deploy/README.md):

* ``VoilaExecutor.iopub_timeout``: Voilà waits 4 s by default for a cell's output once the kernel has
  answered; kernels starting under a class's load miss that and the page comes out blank (no board, no
  error). 60 s makes a slow page late, never blank.
* ``VoilaExecutor.startup_timeout`` / ``timeout``: a kernel may take long to start while 30 others start;
  a cell never runs longer than 120 s.
* Preheated kernels (standalone Voilà only): each notebook keeps ``pool_size`` kernels that have already
  run it, so the first visitors of the play pages get a drawn page at once; every kernel costs memory,
  so the lessons keep one and the play pages a few.
* Kernels talk to the class server over Unix sockets (``KernelManager.transport = "ipc"``), not TCP
  ports: with TCP the server picks free ports and the kernel binds them a moment later, and when thirty
  kernels start at once a port can be taken in between; the kernel then restarts on new ports while
  Voila's notebook runner still sends to the old ones, and that send blocked the server's event loop
  for every visitor (seen in the classroom benchmark). Socket files in the server's own temporary
  folder cannot collide. (Binder and JupyterHub start a server per user and keep TCP.)
* Kernels are forked from a warm process (``KernelProvisionerFactory.default_provisioner_name``: the
  ``treegames-forked`` provisioner, :mod:`.forked`): the fork server has already imported ipykernel and
  every module the served notebooks import, so a page's kernel costs about a third of the CPU of a new
  Python (measured by ``benchmarks/bench_classroom.py --no-fork`` against the default). Anything it cannot
  fork exactly starts the usual way. (Binder and JupyterHub keep jupyter_client's own provisioner.)
* The class server's log lines start with the time (``Voila.log_format``, to the millisecond): a page that
  went wrong is matched with its kernel's start, hand-over and connection.
* Culling: a kernel with no page open and no activity for 15 min is stopped; a Voilà kernel whose page
  went away is stopped after 2 min (``orphan_seconds``) even when the close beacon never came.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

from .limits import LIMITS

CONNECTION_CLASS = "treegames.serving.connection.GuardedKernelConnection"
IDENTITY_CLASS = "treegames.serving.identity.XsrfCookieIdentityProvider"
KERNEL_MANAGER_CLASS = "treegames.serving.kernels.BoundedKernelManager"
PROVISIONER = "treegames-forked"
"""The class server's kernel provisioner (``treegames.serving.forked``, registered in pyproject.toml)."""

TEMPLATE = "treegames"
"""The class server's page template: Voila's lab template with no stylesheet from a public CDN."""

TEMPLATE_ROOT = Path(__file__).resolve().parent / "jupyter"
"""A Jupyter data directory holding ``voila/templates/treegames``."""


def jupyter_path(existing: str = "") -> str:
    """A JUPYTER_PATH value with TEMPLATE_ROOT first, then the folders of ``existing`` (where Voila finds templates)."""
    paths = [p for p in existing.split(os.pathsep) if p and p != str(TEMPLATE_ROOT)]
    return os.pathsep.join([str(TEMPLATE_ROOT), *paths])


def use_template_root() -> None:
    """Put TEMPLATE_ROOT on JUPYTER_PATH (where Voila looks for templates) for this process."""
    os.environ["JUPYTER_PATH"] = jupyter_path(os.environ.get("JUPYTER_PATH", ""))


def install_template(data_dir: Path | None = None) -> Path:
    """Copy the page template into a Jupyter data folder (default: this Python's share/jupyter); its new place."""
    base = Path(sys.prefix) / "share" / "jupyter" if data_dir is None else Path(data_dir)
    target = base / "voila" / "templates" / TEMPLATE
    shutil.copytree(TEMPLATE_ROOT / "voila" / "templates" / TEMPLATE, target, dirs_exist_ok=True)
    return target

def game_pool_sizes() -> dict[str, int]:
    """Preheated kernels per notebook beyond the default of one: each game's Play page as its plug-in asks."""
    from ..plugins import plugins

    return {f"{name}/play.ipynb": game.preheat for name, game in plugins().items() if game.preheat != DEFAULT_POOL_SIZE}


DEFAULT_POOL_SIZE = 1

KERNEL_MB = 80
"""Memory one prepared kernel holds of its own (USS), rounded up from benchmarks/bench_kernel_memory.py (52-80 MB)."""
RESERVE_MB = 1024
"""Memory kept free for the server, the store and the visitors' first pages when kernels are prepared."""


class ClassTooLarge(ValueError):
    """More prepared kernels than the machine's free memory can hold: says how many and why."""


def check_class_memory(pools: dict[str, int], available_mb: float, pages: int = 0) -> int:
    """The kernels to prepare (``pools``, plus one for each of ``pages`` other pages); ClassTooLarge if they do not fit."""
    kernels = sum(pools.values()) + max(0, pages - len(pools))
    room = available_mb - RESERVE_MB
    if kernels * KERNEL_MB > room:
        most = max(0, int(room // KERNEL_MB))
        asked = ", ".join(f"{name}={size}" for name, size in pools.items())
        raise ClassTooLarge(
            f"{kernels} prepared kernels ({asked}) need about {kernels * KERNEL_MB / 1024:.1f} GB ({KERNEL_MB} MB "
            f"each), but this machine has {available_mb / 1024:.1f} GB free and keeps {RESERVE_MB / 1024:.0f} GB "
            f"for the server: prepare at most {most} kernels, or start with --no-preheat")
    return kernels


def executor_config() -> dict:
    """How Voilà runs a notebook's cells (both standalone and as a server extension)."""
    return {"iopub_timeout": 60, "startup_timeout": 180, "timeout": 120, "raise_on_iopub_timeout": False}


def culling_config() -> dict:
    """When idle kernels are stopped."""
    return {"cull_idle_timeout": LIMITS.cull_idle_seconds, "cull_interval": LIMITS.cull_interval_seconds,
            "cull_connected": False}


def connection_config() -> dict:
    """The per-visitor limits of the kernel websocket."""
    return {"max_message_bytes": LIMITS.max_message_bytes, "max_buffers": LIMITS.max_buffers,
            "max_comm_opens": LIMITS.max_comm_opens,
            "max_messages_per_second": LIMITS.max_messages_per_second, "message_burst": LIMITS.message_burst,
            "state_request_burst": LIMITS.state_request_burst,
            "orphan_seconds": LIMITS.orphan_seconds}


def tornado_settings() -> dict:
    """Tornado drops a websocket message over this size before buffering it whole."""
    return {"websocket_max_message_size": LIMITS.max_message_bytes + 4096}


def server_tornado_settings() -> dict:
    """A user's server (Binder, hub): the websocket size limit, and no MathJax from a public CDN.

    Standalone Voila leaves ``mathjax_url`` and ``mathjax_config`` unset (None), and its page script then
    loads no MathJax; as a server extension the config falls back to a default string and the script then
    fetches MathJax from cdnjs.cloudflare.com. Both None make the two the same page. (JupyterLab's own
    pages are not affected: they bring their own default.)
    """
    return {**tornado_settings(), "mathjax_url": None, "mathjax_config": None}


LOG_FORMAT = "%(asctime)s.%(msecs)03d [%(name)s]%(highlevel)s %(message)s"
"""The class server's log line: the time, then what Voilà writes."""


def voila_config(preheat: bool = True, pool_sizes: dict | None = None) -> dict:
    """Configuration of the standalone Voilà server (``make serve``), as a traitlets config dict."""
    pools = {"default": {"pool_size": DEFAULT_POOL_SIZE}}
    pools.update({name: {"pool_size": size} for name, size in (game_pool_sizes() if pool_sizes is None
                                                               else pool_sizes).items()})
    return {
        "Voila": {"log_format": LOG_FORMAT, "log_datefmt": "%H:%M:%S",
                  "kernel_websocket_connection_class": CONNECTION_CLASS,
                  "identity_provider_class": IDENTITY_CLASS,
                  "tornado_settings": tornado_settings()},
        "VoilaConfiguration": {"show_tracebacks": False, "preheat_kernel": preheat, "template": TEMPLATE,
                               "default_pool_size": DEFAULT_POOL_SIZE,
                               "multi_kernel_manager_class": KERNEL_MANAGER_CLASS},
        "VoilaKernelManager": {"kernel_pools_config": pools},
        "VoilaExecutor": executor_config(),
        "MappingKernelManager": culling_config(),
        "KernelManager": {"transport": "ipc"},
        "KernelProvisionerFactory": {"default_provisioner_name": PROVISIONER},
        "BoundedKernelManager": {"max_kernels": LIMITS.max_kernels},
        "GuardedKernelConnection": connection_config(),
    }


def server_config() -> dict:
    """Configuration of a jupyter_server with Voilà as its extension (Binder, each JupyterHub user)."""
    return {
        "ServerApp": {"kernel_websocket_connection_class": CONNECTION_CLASS,
                      "kernel_manager_class": KERNEL_MANAGER_CLASS,
                      "tornado_settings": server_tornado_settings()},
        "VoilaConfiguration": {"show_tracebacks": False, "template": TEMPLATE},
        "VoilaExecutor": executor_config(),
        "MappingKernelManager": culling_config(),
        "BoundedKernelManager": {"max_kernels": LIMITS.max_kernels_per_user},
        "GuardedKernelConnection": connection_config(),
    }


def as_args(config: dict) -> list[str]:
    """The same configuration as ``--Section.name=value`` command-line options."""
    args = []
    for section, values in config.items():
        for name, value in values.items():
            # traitlets reads a dict or list on the command line as a Python literal (None, not null)
            text = repr(value) if isinstance(value, dict | list) else str(value)
            args.append(f"--{section}.{name}={text}")
    return args


def server_args() -> list[str]:
    """``server_config()`` as options for a user's server started by JupyterHub."""
    return as_args(server_config())


def main(argv: list[str]) -> None:
    """Print the voila or server configuration as JSON, or install the page template (``install-template [DIR]``)."""
    which = argv[0] if argv else "server"
    if which == "install-template":
        print(install_template(Path(argv[1]) if len(argv) > 1 else None))
        return
    config = {"voila": voila_config, "server": server_config}[which]()
    print(json.dumps(config, indent=1, sort_keys=True))


if __name__ == "__main__":
    main(sys.argv[1:])
