"""Getting kernels ready for a class: the teacher names a page and a head count, the server prepares them.

Voilà's preheating starts every pooled kernel at once: thirty kernels asked for a class started thirty
interpreters together, pages already open froze, and refills after a class took its kernels ran into the
kernel ceiling and left failed entries in the pool. :class:`Preparation`, installed on the preheating
kernel manager (:class:`.kernels.BoundedKernelManager`), changes three things:

* **A few at a time.** A pooled kernel's start *and* its notebook run wait their turn: at most
  ``at_once`` run together (one on a 2-core machine), so open pages stay responsive while a class is
  prepared. A page that arrives takes the first kernel in its pool, as before.
* **Never past the ceiling.** A pooled kernel (a refill after a page took one, too) waits until the
  server runs fewer than ``max_kernels`` kernels, instead of failing.
* **Progress, and a lesson that ends.** :meth:`Preparation.progress` tells, per page, how many kernels
  are ready (notebook run), how many are being prepared and how many were asked for; the server log says
  "18 of 30 kernels ready for Aspens: play" as they come. :meth:`Preparation.prepare` changes a page's
  count while the server runs (the teacher pages' control, through the ``class`` service below). Our
  design, where Voilà keeps pooled kernels for ever: a page prepared beyond its usual count goes back to
  it once none of its kernels has been taken for ``idle_seconds`` (the lesson is over), and the unused
  kernels are shut down.

The ``class`` service (:func:`service`) is mounted beside the tables on the class server only: ``progress``
for any kernel of the server, ``prepare`` with the teacher code (checked, and wrong codes counted, by the
tables' authority). A teacher page's kernel asks it with :class:`treegames.service.preparation.PreparationClient`.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from typing import Any

from ..service import wire
from ..service.preparation import METHODS, MOST_PER_PAGE, PageProgress, PreparationRefused, page_title
from .settings import KERNEL_MB, RESERVE_MB

__all__ = ["Preparation", "ClassService", "service", "AT_ONCE", "LESSON_IDLE_SECONDS"]

AT_ONCE = max(1, (os.cpu_count() or 2) - 1)
"""Pooled kernels started (and their notebooks run) at the same time: one core stays for the open pages."""
LESSON_IDLE_SECONDS = 5400
"""A page prepared for a class goes back to its usual count after this long with none of its kernels taken."""
ROOM_CHECK_SECONDS = 1.0
"""How often a pooled kernel waiting for room under the kernel ceiling looks again."""

_LOG = logging.getLogger("treegames.serving")


class Preparation:
    """Bounds, watches and resizes the preheated pools of one Voilà kernel manager (see the module docstring)."""

    def __init__(self, manager: Any, at_once: int = AT_ONCE, idle_seconds: float = LESSON_IDLE_SECONDS,
                 clock=time.monotonic):
        self.manager = manager
        self.at_once = max(1, at_once)
        self.idle_seconds = idle_seconds
        self.clock = clock
        self.log = getattr(manager, "log", _LOG)  # Voilà's own log (the server's output)
        self.usual: dict[str, int] = {}  # the pool sizes configured at start (restored when a lesson ends)
        self.last_taken: dict[str, float] = {}
        self.announced: dict[str, int] = {}
        self._turn: asyncio.Semaphore | None = None
        self._initialize = manager._initialize
        manager._initialize = self.initialize
        self._get_rendered_notebook = getattr(manager, "get_rendered_notebook", None)
        if self._get_rendered_notebook is not None:
            manager.get_rendered_notebook = self.get_rendered_notebook

    async def get_rendered_notebook(self, notebook_name: str, *args, **kwargs):
        """Voilà's hand-over of a pooled kernel to a page, noting that the page's lesson goes on."""
        self.taken(notebook_name)
        return await self._get_rendered_notebook(notebook_name, *args, **kwargs)

    # ------------------------------------------------------------ the pools

    def pool_size(self, page: str) -> int:
        """How many kernels ``page``'s pool holds ready (Voilà's configuration, or its default)."""
        pools = self.manager.kernel_pools_config
        return int(pools.get(page, pools.get("default", {})).get("pool_size", 1))

    def _turns(self) -> asyncio.Semaphore:
        """The semaphore giving turns (made on the server's own loop, at first use)."""
        if self._turn is None:
            self._turn = asyncio.Semaphore(self.at_once)
        return self._turn

    async def _room(self) -> None:
        """Wait until the server runs fewer kernels than its ceiling."""
        manager = self.manager
        ceiling = getattr(manager, "max_kernels", None)
        while ceiling is not None and manager.running_and_starting() >= ceiling:
            await asyncio.sleep(ROOM_CHECK_SECONDS)

    async def initialize(self, notebook_path: str, kernel_id: str | None = None, **kwargs) -> dict:
        """Voilà's pooled-kernel start, in turn and under the ceiling; the turn ends when the notebook has run."""
        if kernel_id is not None:  # a restarted kernel keeps its place
            return await self._initialize(notebook_path, kernel_id, **kwargs)
        turns = self._turns()
        await turns.acquire()
        try:
            await self._room()
            content = await self._initialize(notebook_path, None, **kwargs)
        except BaseException:
            turns.release()
            raise
        content["task"].add_done_callback(lambda _task: self._finished(turns, notebook_path))
        return content

    def _finished(self, turns: asyncio.Semaphore, page: str) -> None:
        """A pooled kernel ran its notebook: give the turn on, and say how the page's preparation stands."""
        turns.release()
        progress = self.page_progress(page)
        if progress.asked > 1:  # a page kept ready for more than one visitor: its count is worth a line
            if self.announced.get(page) != progress.ready:
                self.announced[page] = progress.ready
                self.log.info("Getting the class ready: %s", progress.sentence())

    def taken(self, page: str) -> None:
        """Note that a page took one of ``page``'s kernels (the lesson goes on)."""
        self.last_taken[page] = self.clock()

    # ------------------------------------------------------------ progress

    def page_progress(self, page: str) -> PageProgress:
        """Ready, preparing and asked-for kernels of ``page``."""
        pool = list(getattr(self.manager, "_pools", {}).get(page, ()))
        ready = 0
        for entry in pool:
            if entry.done() and not entry.cancelled() and entry.exception() is None:
                render = entry.result().get("task")
                if render is None or render.done():
                    ready += 1
        return PageProgress(page, ready, len(pool) - ready, self.pool_size(page))

    def progress(self) -> list[PageProgress]:
        """Every page's preparation, in page order."""
        return [self.page_progress(page) for page in sorted(getattr(self.manager, "_pools", {}))]

    # ------------------------------------------------------------ the teacher's request

    def check(self, page: str, count: object, available_mb: float) -> int:
        """``count`` as an int if ``page`` is served and the machine holds the extra kernels; else PreparationRefused."""
        pools = getattr(self.manager, "_pools", {})
        if page not in pools:
            raise PreparationRefused(f"There is no page {page[:80]!r} on this server: choose one from the list.")
        if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MOST_PER_PAGE:
            raise PreparationRefused(f"The number of kernels must be a whole number from 1 to {MOST_PER_PAGE}.")
        ceiling = getattr(self.manager, "max_kernels", None)
        if ceiling is not None and count > ceiling:
            raise PreparationRefused(f"This server runs at most {ceiling} kernels at once (one per open page): "
                                     f"ask for {ceiling} or fewer.")
        extra = max(0, count - len(pools[page]))
        room = available_mb - RESERVE_MB
        if extra * KERNEL_MB > room:
            most = len(pools[page]) + max(0, int(room // KERNEL_MB))
            raise PreparationRefused(
                f"{extra} more kernels need about {extra * KERNEL_MB} MB ({KERNEL_MB} MB each), but this machine has "
                f"{available_mb:.0f} MB free and keeps {RESERVE_MB} MB for the server: ask for at most {most}.")
        return count

    def prepare(self, page: str, count: int, available_mb: float) -> PageProgress:
        """Make ``count`` the number of kernels kept ready for ``page`` from now on, and start preparing them."""
        count = self.check(page, count, available_mb)
        pools = self.manager.kernel_pools_config
        self.usual.setdefault(page, self.pool_size(page))
        pools[page] = {**pools.get(page, pools.get("default", {})), "pool_size": count}
        self.last_taken[page] = self.clock()
        self.manager.fill_if_needed(delay=0, notebook_name=page)
        self.log.info("Getting the class ready: %s (asked by the teacher)", self.page_progress(page).sentence())
        return self.page_progress(page)

    # ------------------------------------------------------------ the end of a lesson

    async def end_idle_lessons(self) -> list[str]:
        """Pages whose lesson is over go back to their usual count; their unused kernels are shut down."""
        ended = []
        now = self.clock()
        for page, usual in list(self.usual.items()):
            if now - self.last_taken.get(page, now) < self.idle_seconds or self.pool_size(page) <= usual:
                continue
            pools = self.manager.kernel_pools_config
            pools[page] = {**pools[page], "pool_size": usual}
            pool = self.manager._pools.get(page, [])
            surplus = []
            while len(pool) > usual:
                entry = pool[-1]
                if not entry.done():
                    break  # still being prepared: looked at again next time
                pool.pop()
                if entry.exception() is None:
                    surplus.append(entry.result()["kernel_id"])
            for kernel_id in surplus:
                await self.manager.shutdown_kernel(kernel_id)
            self.log.info("The lesson on %s is over: %d unused kernels stopped, %d kept ready",
                          page_title(page), len(surplus), len(pool))
            del self.usual[page]
            ended.append(page)
        return ended

    def remember_start_sizes(self, pages: dict[str, int]) -> None:
        """Sizes configured at start beyond a page's usual one (``--class``) end with the lesson too."""
        for page, usual in pages.items():
            if self.pool_size(page) > usual:
                self.usual.setdefault(page, usual)
                self.last_taken.setdefault(page, self.clock())


# ---------------------------------------------------------------------------------------------- the service


class ClassService:
    """What the ``class`` service answers: every page's progress, and the teacher's request."""

    def __init__(self, preparation: Preparation | None, check_teacher, available_mb):
        self.preparation = preparation
        self.check_teacher = check_teacher
        self.available_mb = available_mb

    def _need(self) -> Preparation:
        """The server's preparation, or PreparationRefused when it starts kernels only on arrival."""
        if self.preparation is None:
            raise PreparationRefused("This server starts each page's kernel when the page opens (--no-preheat): "
                                     "there is nothing to prepare.")
        return self.preparation

    async def progress(self, run=None, /) -> list[dict]:
        """Every page's prepared kernels (ready, preparing, asked)."""
        return [vars(p) for p in self._need().progress()]

    async def prepare(self, run=None, /, teacher_code: str = "", page: str = "", count: int = 0,
                      visitor: str = "") -> dict:
        """Keep ``count`` kernels ready for ``page`` (needs the teacher code)."""
        preparation = self._need()
        if not isinstance(page, str):
            raise PreparationRefused("The page must be named by its path in the served folder, ending in .ipynb.")
        try:
            self.check_teacher(teacher_code, visitor or "class-kernel")
        except ValueError as err:
            raise PreparationRefused(str(err)) from None
        return vars(preparation.prepare(page, count, self.available_mb()))


def service(target: ClassService) -> wire.Service:
    """The ``class`` service of the class server (both methods run on the server's loop)."""
    return wire.Service(name="class", target=target, methods=METHODS, refusal=PreparationRefused,
                        bad_request=PreparationRefused, too_large=PreparationRefused, max_body=4096,
                        polls={"progress": target.progress, "prepare": target.prepare})
