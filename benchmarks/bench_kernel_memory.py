"""Kernel memory: what one kernel costs once it has run a dashboard, in USS and PSS as well as RSS, and how long it takes.

Run as ``python benchmarks/bench_kernel_memory.py`` (what ``make bench`` runs) or name pages
(``notebooks/bosk/play.ipynb ...``).  For each page it starts a fresh kernel (jupyter_client, the
venv's Python), runs the page's code cells as a preheated kernel does, and reads the kernel
process's memory with psutil:

* **USS** -- memory only this kernel holds: what one more kernel really adds;
* **PSS** -- USS plus its share of pages shared with other processes (libraries mapped by many);
* **RSS** -- everything mapped in, shared pages counted in full (what ``top`` shows).

Then it starts ``--more`` (default 3) more kernels on the same page and gives the mean USS of the
extra ones, and the largest class a machine of ``--machine-gib`` (24) could hold, keeping 2 GiB
for the server, Chromium-free: ``(machine - 2 GiB) / USS``.  Every kernel is shut down at the end.

It does all this twice, side by side: kernels started as new Pythons (``cold``), then kernels forked from
the class server's fork server (``forked``, :mod:`treegames.serving.forked`, which the class server uses),
whose preloaded pages are shared copy-on-write. ``--only cold`` or ``--only forked`` runs one.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

import psutil
from jupyter_client import KernelManager
from jupyter_client.provisioning import KernelProvisionerFactory

from treegames.serving import forked
from treegames.serving.settings import PROVISIONER

ROOT = Path(__file__).resolve().parents[1]
PAGES = ["notebooks/aspens/play.ipynb", "notebooks/bosk/play.ipynb", "notebooks/mighty_trees/play.ipynb",
         "notebooks/lab/is-the-new-bot-better.ipynb"]


def code_cells(path: Path) -> list[str]:
    """The page's code cells, in order."""
    notebook = json.loads(path.read_text())
    return ["".join(c["source"]) for c in notebook["cells"] if c["cell_type"] == "code"]


def start_page_kernel(path: Path, provisioner: str = "local-provisioner") -> tuple[KernelManager, float]:
    """A kernel that has run every code cell of ``path`` (cwd: the page's folder); with the seconds it took."""
    started = time.perf_counter()
    KernelProvisionerFactory.instance().default_provisioner_name = provisioner
    manager = KernelManager(kernel_name="python3")
    manager.kernel_cmd = [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"]
    manager.start_kernel(cwd=str(path.parent))
    client = manager.client()
    client.start_channels()
    client.wait_for_ready(timeout=120)
    for source in code_cells(path):
        reply = client.execute_interactive(source, timeout=300, output_hook=lambda _msg: None)
        if reply["content"]["status"] != "ok":
            raise RuntimeError(f"{path.name}: a cell failed: {reply['content'].get('ename')}")
    client.stop_channels()
    return manager, time.perf_counter() - started


def memory_mb(manager: KernelManager) -> tuple[float, float, float]:
    """(USS, PSS, RSS) of the kernel process in MB."""
    info = psutil.Process(manager.provisioner.pid).memory_full_info()
    return info.uss / 2**20, info.pss / 2**20, info.rss / 2**20


def measure(pages: list[str], more: int, machine_gib: float, provisioner: str, label: str) -> None:
    """Each page's kernel, then ``more`` extra kernels on the first page, started through ``provisioner``."""
    managers = []
    try:
        for page in pages:
            manager, seconds = start_page_kernel(ROOT / page, provisioner)
            managers.append(manager)
            uss, pss, rss = memory_mb(manager)
            print(f"{label} kernel {page}: ready in {seconds:.1f} s, USS {uss:.0f} MB, PSS {pss:.0f} MB, "
                  f"RSS {rss:.0f} MB", flush=True)
        extra = []
        for _ in range(more):
            manager, _seconds = start_page_kernel(ROOT / pages[0], provisioner)
            managers.append(manager)
            extra.append(memory_mb(manager))
        if extra:
            uss = sum(e[0] for e in extra) / len(extra)
            pss = sum(e[1] for e in extra) / len(extra)
            room = (machine_gib - 2) * 1024
            print(f"{label} kernel {pages[0]} x{len(extra)} more: mean USS {uss:.0f} MB, PSS {pss:.0f} MB; "
                  f"a {machine_gib:g} GiB server keeping 2 GiB for itself holds about {int(room / uss)} "
                  f"such kernels", flush=True)
    finally:
        for manager in managers:
            manager.shutdown_kernel(now=True)


def main() -> None:
    """Measure cold kernels, then forked ones."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("pages", nargs="*", default=PAGES)
    parser.add_argument("--more", type=int, default=3, help="extra kernels on the first page")
    parser.add_argument("--machine-gib", type=float, default=24.0)
    parser.add_argument("--only", choices=("cold", "forked"), default=None)
    args = parser.parse_args()
    print(f"kernel memory: load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    if args.only in (None, "cold"):
        measure(args.pages, args.more, args.machine_gib, "local-provisioner", "cold")
    if args.only in (None, "forked"):
        client = forked.ForkClient(ROOT / "notebooks")
        forked.use(client)
        try:
            measure(args.pages, args.more, args.machine_gib, PROVISIONER, "forked")
            server = psutil.Process(client.process.pid).memory_full_info()
            print(f"forked: the fork server itself (paid once) USS {server.uss / 2**20:.0f} MB, "
                  f"RSS {server.rss / 2**20:.0f} MB", flush=True)
        finally:
            forked.use(None)
            client.stop()


if __name__ == "__main__":
    main()
