"""Getting kernels ready for a class (serving.preparation): a few at a time, under the ceiling, with progress,
asked for by the teacher while the server runs, and given back when the lesson is over.

The first tests drive :class:`Preparation` over a model of Voilà's pool (its ``_initialize``, ``_pools`` and
``fill_if_needed``, as ``voila_kernel_manager`` has them); the last ones start the real class server.
"""

from __future__ import annotations

import asyncio
import json
import re

import pytest

import harness
from treegames.service import preparation as client_side
from treegames.service.preparation import PageProgress, PreparationRefused, page_title
from treegames.serving.preparation import ClassService, Preparation
from treegames.serving.settings import KERNEL_MB, RESERVE_MB


class Pool:
    """Voilà's preheating kernel manager as Preparation sees it; a notebook run takes ``run_seconds`` (modelled)."""

    def __init__(self, run_seconds: float = 0.02, max_kernels: int = 60, running: int = 0):
        self.kernel_pools_config = {"default": {"pool_size": 1}}
        self._pools: dict[str, list] = {}
        self.run_seconds = run_seconds
        self.max_kernels = max_kernels
        self.running = running
        self.busy = self.peak = self.started = 0
        self.stopped: list[str] = []

    def running_and_starting(self) -> int:
        return self.running

    async def _initialize(self, notebook_path: str, kernel_id: str | None = None, **kwargs) -> dict:
        """Start a kernel and its notebook run; the run's end is the task's."""
        self.busy += 1
        self.peak = max(self.peak, self.busy)
        self.started += 1
        self.running += 1
        kernel = f"{notebook_path}#{self.started}"

        async def run():
            await asyncio.sleep(self.run_seconds)
            self.busy -= 1
        return {"kernel_id": kernel, "task": asyncio.ensure_future(run())}

    def fill_if_needed(self, delay=None, notebook_name=None, **kwargs) -> None:
        size = self.kernel_pools_config.get(notebook_name, self.kernel_pools_config["default"])["pool_size"]
        pool = self._pools.setdefault(notebook_name, [])
        for _ in range(size - len(pool)):
            pool.append(asyncio.ensure_future(self._initialize(notebook_name)))

    async def get_rendered_notebook(self, notebook_name: str, *args, **kwargs):
        content = await self._pools[notebook_name].pop(0)
        return content["task"], [], content["kernel_id"]

    async def shutdown_kernel(self, kernel_id: str) -> None:
        self.stopped.append(kernel_id)
        self.running -= 1


async def settle(preparation: Preparation, page: str, ready: int) -> PageProgress:
    """Wait (on the model's own loop) until ``page`` has ``ready`` kernels ready; its progress."""
    async def ready_now():
        while preparation.page_progress(page).ready < ready:
            await asyncio.sleep(0.01)
    await asyncio.wait_for(ready_now(), harness.DEADLINE)
    return preparation.page_progress(page)


def asked_for(page: str, size: int, at_once: int = 1) -> tuple[Pool, Preparation]:
    """A model pool with ``size`` kernels asked for ``page``, being prepared ``at_once`` at a time (on a running loop)."""
    pool = Pool()
    preparation = Preparation(pool, at_once=at_once)
    pool.kernel_pools_config[page] = {"pool_size": size}
    pool.fill_if_needed(notebook_name=page)
    return pool, preparation


def test_a_class_of_kernels_is_prepared_one_at_a_time_and_progress_counts_them():
    async def prepare():
        pool, preparation = asked_for("aspens/play.ipynb", 6)
        early = preparation.page_progress("aspens/play.ipynb")
        done = await settle(preparation, "aspens/play.ipynb", 6)
        return pool.peak, early, done
    peak, early, done = asyncio.run(prepare())
    assert peak == 1, "never two kernels prepared at once"
    assert early.asked == 6 and early.ready == 0 and early.preparing == 6
    assert done == PageProgress("aspens/play.ipynb", 6, 0, 6) and done.is_ready()
    assert done.sentence() == "6 of 6 kernels ready for Aspens: play"


def test_two_at_once_when_the_machine_has_the_cores_for_it():
    async def prepare():
        pool, preparation = asked_for("bosk/play.ipynb", 5, at_once=2)
        await settle(preparation, "bosk/play.ipynb", 5)
        return pool.peak
    assert asyncio.run(prepare()) == 2


def test_a_refill_waits_for_room_under_the_kernel_ceiling_instead_of_failing(monkeypatch):
    monkeypatch.setattr("treegames.serving.preparation.ROOM_CHECK_SECONDS", 0.01)

    async def refill():
        pool = Pool(max_kernels=3, running=3)  # the server is full
        preparation = Preparation(pool, at_once=1)
        pool.fill_if_needed(notebook_name="lesson.ipynb")
        for _ in range(20):  # the model's loop turns: the kernel is not started while the server is full
            await asyncio.sleep(0.01)
        waiting = (pool.started, pool._pools["lesson.ipynb"][0].done())
        pool.running = 2  # a page closed
        done = await settle(preparation, "lesson.ipynb", 1)
        return waiting, done
    waiting, done = asyncio.run(refill())
    assert waiting == (0, False)
    assert done.ready == 1


def test_a_page_takes_a_prepared_kernel_and_the_refill_follows():
    async def visit():
        pool, preparation = asked_for("p.ipynb", 2)
        await settle(preparation, "p.ipynb", 2)
        _task, _cache, kernel = await pool.get_rendered_notebook("p.ipynb")
        taken = "p.ipynb" in preparation.last_taken
        pool.fill_if_needed(notebook_name="p.ipynb")  # Voilà refills after a hand-over
        return kernel, taken, await settle(preparation, "p.ipynb", 2), pool.started
    kernel, taken, after, started = asyncio.run(visit())
    assert kernel == "p.ipynb#1" and taken
    assert after.ready == 2 and started == 3


def test_the_teachers_request_is_checked_page_count_ceiling_and_memory():
    async def check():
        pool = Pool(max_kernels=60)
        preparation = Preparation(pool, at_once=1)
        pool.fill_if_needed(notebook_name="aspens/play.ipynb")
        await settle(preparation, "aspens/play.ipynb", 1)
        refusals = {}
        for name, page, count, free in [("unknown page", "nope.ipynb", 5, 10_000),
                                        ("zero", "aspens/play.ipynb", 0, 10_000),
                                        ("text", "aspens/play.ipynb", "30", 10_000),
                                        ("a bool", "aspens/play.ipynb", True, 10_000),
                                        ("past the ceiling", "aspens/play.ipynb", 61, 100_000),
                                        ("memory", "aspens/play.ipynb", 30, RESERVE_MB + 10 * KERNEL_MB)]:
            with pytest.raises(PreparationRefused) as refused:
                preparation.prepare(page, count, free)
            refusals[name] = str(refused.value)
        accepted = preparation.prepare("aspens/play.ipynb", 11, RESERVE_MB + 10 * KERNEL_MB)  # 10 more fit
        return refusals, accepted, pool.kernel_pools_config["aspens/play.ipynb"]["pool_size"]
    refusals, accepted, size = asyncio.run(check())
    assert "no page 'nope.ipynb'" in refusals["unknown page"]
    assert "from 1 to" in refusals["zero"] and "from 1 to" in refusals["text"] and "from 1 to" in refusals["a bool"]
    assert "at most 60 kernels" in refusals["past the ceiling"]
    assert f"29 more kernels need about {29 * KERNEL_MB} MB" in refusals["memory"]
    assert "ask for at most 11" in refusals["memory"]
    assert accepted.asked == 11 and size == 11


def test_when_the_lesson_is_over_the_unused_kernels_stop_and_the_page_keeps_its_usual_count():
    async def lesson():
        now = [0.0]
        pool = Pool()
        preparation = Preparation(pool, at_once=1, idle_seconds=1800, clock=lambda: now[0])
        pool.fill_if_needed(notebook_name="bosk/play.ipynb")
        await settle(preparation, "bosk/play.ipynb", 1)
        preparation.prepare("bosk/play.ipynb", 4, 100_000)
        await settle(preparation, "bosk/play.ipynb", 4)
        now[0] = 1700.0
        early = await preparation.end_idle_lessons()
        await pool.get_rendered_notebook("bosk/play.ipynb")  # a late student: the lesson goes on
        pool.fill_if_needed(notebook_name="bosk/play.ipynb")
        await settle(preparation, "bosk/play.ipynb", 4)
        now[0] = 1700.0 + 1799
        still = await preparation.end_idle_lessons()
        now[0] = 1700.0 + 1801
        ended = await preparation.end_idle_lessons()
        return early, still, ended, pool, preparation.page_progress("bosk/play.ipynb")
    early, still, ended, pool, after = asyncio.run(lesson())
    assert early == [] and still == [] and ended == ["bosk/play.ipynb"]
    assert len(pool.stopped) == 3 and after == PageProgress("bosk/play.ipynb", 1, 0, 1)


def test_pages_are_named_as_people_say_them():
    assert page_title("aspens/play.ipynb") == "Aspens: play"
    assert page_title("mighty_trees/card-odds.ipynb") == "Mighty trees: card odds"
    assert page_title("index.ipynb") == "Index"


def test_without_preheating_the_service_says_there_is_nothing_to_prepare():
    service = ClassService(None, lambda code, visitor: None, lambda: 10_000.0)
    with pytest.raises(PreparationRefused, match="nothing to prepare"):
        asyncio.run(service.progress())


def test_a_kernel_outside_a_class_server_has_no_client(monkeypatch):
    monkeypatch.delenv("TREEGAMES_TABLES_URL", raising=False)
    monkeypatch.delenv("TREEGAMES_TABLES_KEY", raising=False)
    assert client_side.connect() is None


# ---------------------------------------------------------------------------------------------- the real server

SMALL = {"cells": [{"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [],
                    "source": ["print('small page')"]}],
         "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
         "nbformat": 4, "nbformat_minor": 5}


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """A class server over two small pages, one prepared for a class of 3 at start (``--pool``); (server, data)."""
    root = tmp_path_factory.mktemp("pages")
    (root / "lesson").mkdir()
    for name in ("lesson/small.ipynb", "other.ipynb"):
        (root / name).write_text(json.dumps(SMALL))
    data = tmp_path_factory.mktemp("data")
    env = {k: v for k, v in harness.os.environ.items() if not k.startswith("TREEGAMES_TABLES_")}
    server = harness.start_class_server(root, extra=["--pool=lesson/small.ipynb=3"],
                                        env={**env, "TREEGAMES_DATA_DIR": str(data)})
    yield server, data
    server.stop()
    assert server.alive_pids() == [], "the server or one of its kernels survived stop()"


def kernel_client(server) -> client_side.PreparationClient:
    """The client a teacher page's kernel on this server would make (its URL and key, read from a kernel)."""
    def found():
        for env in server.kernel_environs():
            if "TREEGAMES_TABLES_KEY" in env:
                return env
        return None
    env = harness.wait_until(found, step=0.2, what="a kernel with the server's key")
    return client_side.PreparationClient(env["TREEGAMES_TABLES_URL"], {"X-Treegames-Key": env["TREEGAMES_TABLES_KEY"]})


def progress_of(client, page: str) -> PageProgress:
    """One page's progress, as the server tells it."""
    return next(p for p in client.progress() if p.page == page)


@pytest.mark.server
def test_the_class_asked_for_at_start_is_prepared_and_the_log_counts_it(served):
    server, _data = served
    client = kernel_client(server)
    done = harness.wait_until(lambda: progress_of(client, "lesson/small.ipynb").is_ready(), step=0.3,
                              what="3 kernels ready for the lesson")
    assert done
    assert progress_of(client, "lesson/small.ipynb") == PageProgress("lesson/small.ipynb", 3, 0, 3)
    assert "Getting the class ready: 3 of 3 kernels ready for Lesson: small" in server.log_path.read_text()


@pytest.mark.server
def test_the_teacher_asks_for_more_kernels_while_the_server_runs_and_a_wrong_code_changes_nothing(served):
    server, data = served
    client = kernel_client(server)
    harness.wait_until(lambda: all(p.is_ready() for p in client.progress()), step=0.3,
                       what="every page's kernels ready before counting them")
    before = progress_of(client, "other.ipynb")
    with pytest.raises(PreparationRefused, match="not the teacher code"):
        client.prepare("WRONG-CODE", "other.ipynb", 4)
    with pytest.raises(PreparationRefused, match="from 1 to"):
        client.prepare((data / "teacher-code.txt").read_text().strip(), "other.ipynb", 10**9)
    assert progress_of(client, "other.ipynb").asked == before.asked == 1
    kernels = len(server.live_kernels())
    asked = client.prepare((data / "teacher-code.txt").read_text().strip(), "other.ipynb", 4)
    assert asked.asked == 4
    harness.wait_until(lambda: progress_of(client, "other.ipynb").ready == 4, step=0.3, what="4 kernels ready")
    assert len(server.live_kernels()) == kernels + 3
    log = server.log_path.read_text()
    assert "Getting the class ready: 4 of 4 kernels ready for Other" in log
    assert re.search(r"kernels ready for Other \(asked by the teacher\)", log)


@pytest.mark.server
def test_a_page_cannot_call_the_class_service(served):
    import urllib.error
    import urllib.request

    server, _data = served
    request = urllib.request.Request(f"{server.base}/treegames/api/class/prepare", method="POST",
                                     data=b'{"teacher_code": "x", "page": "other.ipynb", "count": 40}')
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=harness.DEADLINE)
    assert refused.value.code == 403
