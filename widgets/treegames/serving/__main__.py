"""``python -m treegames.serving [NOTEBOOKS] [--host H] [--port P] [--store URL] [--no-preheat] [voila options]``.

Starts the standalone Voilà server with ``settings.voila_config()``, with the shared tables and class
experiments mounted in it (:mod:`.mount`: the store in the data folder, or ``--store`` /
``$TREEGAMES_STORE_URL``), and once it listens prints the URL it really uses (the next free port when the
asked one is taken), where the store is, the teacher code, and, for a host other than loopback, what
that exposes. Extra ``--Section.name=value`` options go to Voilà unchanged.
"""

from __future__ import annotations

import argparse
import socket
import sys
from pathlib import Path

import psutil
from tornado.ioloop import IOLoop, PeriodicCallback
from traitlets import Bool, Int, Unicode
from traitlets.config import Config
from voila.app import Voila
from voila.tornado.handler import TornadoVoilaHandler

from ..service import wire
from ..service.codes import shown_code
from . import forked
from .arrivals import SLOTS, STATUS_PATH, ArrivalQueue, ArrivalsHandler, QueuedVoilaHandler
from .kernels import hand_over_finished_kernels
from .limits import LIMITS
from .mount import Mount, bind_first_free, open_mount, serve_on
from .preparation import ClassService
from .preparation import service as class_service
from .settings import (
    DEFAULT_POOL_SIZE,
    ClassTooLarge,
    check_class_memory,
    game_pool_sizes,
    use_template_root,
    voila_config,
)

LOOPBACK = {"127.0.0.1", "localhost", "::1"}
LESSON_CHECK_SECONDS = 60
"""How often the server looks for prepared pages whose lesson is over."""


def available_mb() -> float:
    """Memory this machine has free now, in MB (for the teacher's request for more kernels)."""
    return psutil.virtual_memory().available / 2**20


def lan_addresses() -> list[str]:
    """IPv4 addresses of this machine's network interfaces other than loopback."""
    found = []
    for addresses in psutil.net_if_addrs().values():
        for address in addresses:
            if address.family == socket.AF_INET and not address.address.startswith("127."):
                found.append(address.address)
    return found


def exposure_note(host: str, port: int) -> str:
    """What listening on ``host`` makes reachable, for the person starting the server."""
    if host in LOOPBACK:
        return "Only this computer can open it (listening on loopback)."
    hosts = lan_addresses() if host in ("0.0.0.0", "") else [host]
    urls = "\n".join(f"    http://{h}:{port}/voila/render/index.ipynb" for h in hosts) or "    (no address found)"
    return (f"Listening on {host or 'every interface'}: anyone who can reach this computer on port {port}\n"
            f"can open every dashboard under the served folder, with no password:\n{urls}\n"
            f"Each open page starts a kernel (up to {LIMITS.max_kernels} at once, about 70 MB each, idle ones\n"
            "stopped after 15 min). Visitors cannot run code they type, read files or see tracebacks,\n"
            "but only serve on a network you trust (a classroom LAN); for logins and more visitors use\n"
            "JupyterHub (deploy/README.md).")


class ClassroomVoila(Voila):
    """Voilà with the tables mounted, kernels told where they are, and the real URL printed once listening."""

    store_url = Unicode("", config=True, help="The table store: postgresql://... (default: SQLite in the data folder).")
    arrivals_at_once = Int(SLOTS, config=True,
                           help="Pages starting their own kernel at once; the others wait their turn on a small "
                                "waiting page (0: no line, every page starts at once).")
    fork_kernels = Bool(True, config=True,
                        help="Fork each kernel from a process that has already imported what the pages import "
                             "(treegames.serving.forkserver); False starts every kernel as a new Python.")
    asked_port = None
    mount: Mount | None = None
    class_service: ClassService | None = None
    arrivals: ArrivalQueue | None = None
    _sockets: list = []

    def start(self):
        """Open the store, bind the port, tell the kernels (before the pool fills), start the fork server, then Voilà."""
        self.mount = open_mount(self.server_url or self.base_url, self.store_url or None)
        self.asked_port = self.port
        self.port, self._sockets = bind_first_free(self.random_ports(self.port, self.port_retries + 1), self.ip)
        self.mount.export(self.ip, self.port)
        if self.fork_kernels:
            root = Path(self.root_dir or Path(self.notebook_path).parent)
            forked.use(forked.ForkClient(root, log=self.log))
        super().start()

    def init_handlers(self) -> list:
        """The tables' and the class preparation's routes first, then Voilà's, its pages taking turns."""
        routes = []
        if self.mount is not None:
            self.class_service = ClassService(None, self.mount.check_teacher, available_mb)
            routes = [*self.mount.routes,
                      *wire.routes([class_service(self.class_service)], self.mount.key, self.mount.prefix)]
        voila = super().init_handlers()
        if self.arrivals_at_once > 0:
            self.arrivals = ArrivalQueue(self.arrivals_at_once)
            voila = [(r[0], QueuedVoilaHandler, {**r[2], "arrivals": self.arrivals})
                     if len(r) > 2 and r[1] is TornadoVoilaHandler else r for r in voila]
            routes.append((f"{self.server_url.rstrip('/')}/{STATUS_PATH}", ArrivalsHandler, {"arrivals": self.arrivals}))
        return [*routes, *voila]

    def listen(self):
        """Listen on the socket bound in :meth:`start` (pooled kernels handed over finished); announce the URL."""
        self.app.listen = serve_on(self.app, self._sockets)
        hand_over_finished_kernels(self.kernel_manager)
        preparation = getattr(self.kernel_manager, "preparation", None)
        if preparation is not None:
            usual = game_pool_sizes()
            preparation.remember_start_sizes({page: usual.get(page, DEFAULT_POOL_SIZE)
                                              for page in preparation.manager.kernel_pools_config if page != "default"})
            if self.class_service is not None:
                self.class_service.preparation = preparation
            PeriodicCallback(preparation.end_idle_lessons, LESSON_CHECK_SECONDS * 1000).start()
        IOLoop.current().add_callback(self.announce)
        super().listen()

    def stop(self):
        """Stop Voilà (and so its kernels), then the fork server, then close the store."""
        super().stop()
        client = forked.current()
        if client is not None:
            forked.use(None)
            client.stop()
        if self.mount is not None:
            self.mount.store.close()

    def announce(self) -> None:
        """Print where the dashboards are, where the tables are kept, the teacher code, and what is exposed."""
        shown = "127.0.0.1" if self.ip in ("0.0.0.0", "", "localhost") else self.ip
        lines = ["", "=" * 72]
        if self.port != self.asked_port:
            lines.append(f"Port {self.asked_port} was already in use: serving on port {self.port} instead.")
        lines.append(f"Dashboards: http://{shown}:{self.port}{self.base_url}voila/render/index.ipynb")
        if self.mount is not None:
            lines.append(f"Shared tables and class experiments are kept in {self.mount.store.describe()}")
            lines.append(f"Teacher code (for class/tables.ipynb and the experiments): "
                         f"{shown_code(self.mount.teacher_code)}")
        lines.append(exposure_note(self.ip, self.port))
        lines += ["Ctrl-C stops the server.", "=" * 72, ""]
        print("\n".join(lines), flush=True)


def parse(argv: list[str]) -> tuple[argparse.Namespace, list[str]]:
    """Our options, and the rest for Voilà."""
    parser = argparse.ArgumentParser(prog="python -m treegames.serving", description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="?", default="notebooks")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8866)
    parser.add_argument("--store", default="", metavar="URL",
                        help="postgresql://... for the shared tables (default: $TREEGAMES_STORE_URL, else SQLite "
                             "in the data folder)")
    parser.add_argument("--no-preheat", action="store_true", help="start each page's kernel on arrival")
    parser.add_argument("--pool", action="append", default=[], metavar="NOTEBOOK=SIZE",
                        help="preheated kernels for a notebook, e.g. GAME/play.ipynb=30 (today's lesson)")
    return parser.parse_known_args(argv)


def main(argv: list[str] | None = None) -> None:
    """Start the class server."""
    options, rest = parse(sys.argv[1:] if argv is None else argv)
    pools = game_pool_sizes()
    for item in options.pool:
        name, _, size = item.partition("=")
        pools[name] = int(size)
    if not options.no_preheat:
        pages = sum(1 for p in Path(options.notebooks).rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)
        try:
            check_class_memory(pools, psutil.virtual_memory().available / 2**20, pages)
        except ClassTooLarge as refused:
            raise SystemExit(f"treegames: {refused}") from None
    use_template_root()
    config = Config(voila_config(preheat=not options.no_preheat, pool_sizes=pools))
    voila_argv = [options.notebooks, "--no-browser", f"--port={options.port}", f"--Voila.ip={options.host}", *rest]
    if options.store:
        voila_argv.append(f"--ClassroomVoila.store_url={options.store}")
    ClassroomVoila.launch_instance(argv=voila_argv, config=config)


if __name__ == "__main__":
    main()
