"""A kernel manager with a ceiling: the whole server runs at most ``max_kernels`` kernels at once.

One page is one kernel (about 70-100 MB). A class that opens more pages than the machine holds would
otherwise swap the machine to a halt for everybody; past the ceiling a new page gets a short error
("the server is full, try again in a minute") while every open page keeps working.

A preheated kernel is handed to a page only once it has run its whole notebook
(:func:`hand_over_finished_kernels`). Voilà would hand over a kernel still running its notebook and let the
page's request run the remaining cells; under a loaded machine (the full test suite, a class arriving) the
widgets of those remaining cells then came out as "Error displaying widget: model not found" on the page (seen
in the class-experiment browser test: the lesson's last widgets, its Join box among them, never appeared). A
visitor arriving during a refill waits the rest of that notebook's run, as a kernel started on arrival would.

The kernels' sockets share one ZeroMQ context that queues ``LIMITS.iopub_queue`` unread messages a socket, not
ZeroMQ's 1,000, which dropped messages past it without a word (benchmarks/bench_iopub_queue.py). On a loaded
machine messages are still lost at times (a flood in a full test-suite run, a page asking for hundreds of widget
states at once); that cause is not found.

A preheated kernel that dies in its pool (killed, out of memory) would be restarted by jupyter_client under the
same id, without its notebook: a page handed it would show widgets its kernel never made. So such a kernel
leaves its pool at once, is stopped once its restart is over, and the pool starts a new one
(:meth:`BoundedKernelManager.kernel_restarting`).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging

import zmq.asyncio
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from tornado import web
from traitlets import Int, default

from .limits import LIMITS
from .preparation import AT_ONCE, LESSON_IDLE_SECONDS, Preparation


class ServerFull(web.HTTPError):
    """Raised instead of starting a kernel past the ceiling (HTTP 503, with a reason a visitor can read)."""

    def __init__(self, limit: int):
        super().__init__(503, reason="The class server is full: try again in a minute",
                         log_message=f"refused a kernel: {limit} kernels already running")


class BoundedKernelManager(AsyncMappingKernelManager):
    """AsyncMappingKernelManager that refuses to start a kernel once ``max_kernels`` are running."""

    max_kernels = Int(LIMITS.max_kernels, config=True,
                      help="Most kernels running at once, counting the ones still starting.")

    prepare_at_once = Int(AT_ONCE, config=True,
                          help="Pooled kernels started (and their notebooks run) at once when preheating.")
    lesson_idle_seconds = Int(LESSON_IDLE_SECONDS, config=True,
                              help="A page prepared for a class goes back to its usual count after this long "
                                   "with none of its kernels taken.")

    iopub_queue = Int(LIMITS.iopub_queue, config=True,
                      help="Messages from one kernel held unread before ZeroMQ drops the rest (its default: 1,000).")

    @default("context")
    def _context_default(self) -> zmq.asyncio.Context:
        """The ZeroMQ context every kernel's sockets share, queueing ``iopub_queue`` messages a socket."""
        self._created_context = True
        context = zmq.asyncio.Context()
        context.setsockopt(zmq.RCVHWM, self.iopub_queue)
        return context

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._starting = 0
        self.preparation: Preparation | None = None
        if hasattr(self, "_initialize"):  # Voilà's preheating manager: its pools are filled a few at a time
            self.preparation = Preparation(self, at_once=self.prepare_at_once, idle_seconds=self.lesson_idle_seconds)

    def running_and_starting(self) -> int:
        """Kernels running now plus those whose start is under way."""
        return len(self.list_kernel_ids()) + self._starting

    async def start_kernel(self, *args, **kwargs) -> str:
        """Start a kernel unless the ceiling is reached (then raise ServerFull)."""
        kernel_id = kwargs.get("kernel_id")
        if (kernel_id is None or kernel_id not in self) and self.running_and_starting() >= self.max_kernels:
            self.log.warning("Kernel ceiling of %s reached; refusing a new kernel", self.max_kernels)
            raise ServerFull(self.max_kernels)
        self._starting += 1
        try:
            kernel_id = await super().start_kernel(*args, **kwargs)
        finally:
            self._starting -= 1
        if self.preparation is not None:
            self.add_restart_callback(kernel_id, functools.partial(self.kernel_restarting, kernel_id), "restart")
        return kernel_id

    def kernel_restarting(self, kernel_id: str) -> None:
        """A kernel died and jupyter_client restarts it: one still waiting in a pool is replaced by a new one.

        The restarted process has not run the notebook the pool's page was rendered from, so no page may take it.
        """
        notebook = take_from_pool(self._pools, kernel_id)
        if notebook is None:  # a page's own kernel: restarted as jupyter does, the page hears of it
            return
        self.log.warning("A preheated kernel for %s died before a page took it: a new one replaces it", notebook)
        asyncio.ensure_future(self.replace_pooled(kernel_id, notebook, self.get_kernel(kernel_id).ready))

    async def replace_pooled(self, kernel_id: str, notebook: str, before) -> None:
        """Once the restart is over, stop that kernel and refill the notebook's pool."""
        manager = self.get_kernel(kernel_id)
        deadline = asyncio.get_running_loop().time() + RESTART_SECONDS
        while (manager.ready is before or not manager.ready.done()) and asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(0.1)
        with contextlib.suppress(KeyError, RuntimeError):
            await self.shutdown_kernel(kernel_id, now=True)
        self.fill_if_needed(delay=0, notebook_name=notebook)


_LOG = logging.getLogger("treegames.serving")

RESTART_SECONDS = 60.0
"""How long a dead pooled kernel's restart is awaited before it is stopped anyway."""


def take_from_pool(pools: dict, kernel_id: str) -> str | None:
    """Remove ``kernel_id``'s entry from Voilà's pools (``notebook -> [task]``); its notebook, or None if not pooled."""
    for notebook, pool in pools.items():
        for item in list(pool):
            if item.done() and not item.cancelled() and item.exception() is None \
                    and item.result().get("kernel_id") == kernel_id:
                pool.remove(item)
                return notebook
    return None


def hand_over_finished_kernels(kernel_manager) -> None:
    """Make Voilà's preheated pool give a page a kernel only after that kernel has run its whole notebook."""
    handed_over = getattr(kernel_manager, "get_rendered_notebook", None)
    if handed_over is None:  # preheating is off: every page starts its own kernel
        return

    async def get_rendered_notebook(notebook_name: str, *args, **kwargs):
        """Wait for the first pooled kernel's notebook run to end, then take it as Voilà does."""
        loop = asyncio.get_running_loop()
        asked = loop.time()
        while True:
            pool = kernel_manager._pools.get(notebook_name) or []
            if not pool:
                break
            content = await pool[0]
            render = content.get("task")
            if render is None or render.done():
                break
            await asyncio.wait([render])
            getattr(kernel_manager, "log", _LOG).info("A page waited %.1f s for kernel %s to finish running %s",
                                                      loop.time() - asked, content.get("kernel_id"), notebook_name)
        return await handed_over(notebook_name, *args, **kwargs)

    kernel_manager.get_rendered_notebook = get_rendered_notebook
