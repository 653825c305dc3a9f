"""``python -m treegames.serving [NOTEBOOKS] [--host H] [--port P] [--no-preheat] [voila options]``.

Starts the standalone Voilà server with ``settings.voila_config()`` and, once it listens, prints the URL
it really uses (Voilà moves to the next free port when the asked one is taken) and, for a host other than
loopback, what that exposes. Extra ``--Section.name=value`` options go to Voilà unchanged.
"""

from __future__ import annotations

import argparse
import socket
import sys

import psutil
from tornado.ioloop import IOLoop
from traitlets.config import Config
from voila.app import Voila

from .limits import LIMITS
from .settings import POOL_SIZES, use_template_root, voila_config

LOOPBACK = {"127.0.0.1", "localhost", "::1"}


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
    """Voilà that prints the URL it really listens on once the port is chosen."""

    asked_port = None

    def listen(self):
        """Listen as Voilà does (moving on if the port is taken); announce the URL when the loop starts."""
        self.asked_port = self.port
        IOLoop.current().add_callback(self.announce)
        super().listen()

    def announce(self) -> None:
        """Print where the dashboards are, and what the address exposes."""
        shown = "127.0.0.1" if self.ip in ("0.0.0.0", "", "localhost") else self.ip
        lines = ["", "=" * 72]
        if self.port != self.asked_port:
            lines.append(f"Port {self.asked_port} was already in use: serving on port {self.port} instead.")
        lines.append(f"Dashboards: http://{shown}:{self.port}{self.base_url}voila/render/index.ipynb")
        lines.append(exposure_note(self.ip, self.port))
        lines += ["Ctrl-C stops the server.", "=" * 72, ""]
        print("\n".join(lines), flush=True)


def parse(argv: list[str]) -> tuple[argparse.Namespace, list[str]]:
    """Our options, and the rest for Voilà."""
    parser = argparse.ArgumentParser(prog="python -m treegames.serving", description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="?", default="notebooks")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8866)
    parser.add_argument("--no-preheat", action="store_true", help="start each page's kernel on arrival")
    parser.add_argument("--pool", action="append", default=[], metavar="NOTEBOOK=SIZE",
                        help="preheated kernels for a notebook, e.g. bosk/play.ipynb=4 (today's lesson)")
    return parser.parse_known_args(argv)


def main(argv: list[str] | None = None) -> None:
    """Start the class server."""
    options, rest = parse(sys.argv[1:] if argv is None else argv)
    pools = dict(POOL_SIZES)
    for item in options.pool:
        name, _, size = item.partition("=")
        pools[name] = int(size)
    use_template_root()
    config = Config(voila_config(preheat=not options.no_preheat, pool_sizes=pools))
    voila_argv = [options.notebooks, "--no-browser", f"--port={options.port}", f"--Voila.ip={options.host}", *rest]
    ClassroomVoila.launch_instance(argv=voila_argv, config=config)


if __name__ == "__main__":
    main()
