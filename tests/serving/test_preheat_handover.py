"""A page gets a preheated kernel only once that kernel has run its whole notebook (serving.kernels)."""

from __future__ import annotations

import asyncio

import harness
from treegames.serving.kernels import hand_over_finished_kernels


class Pool:
    """Voilà's pool as the handler sees it: notebook -> tasks giving {kernel_id, task}; what a page was handed."""

    def __init__(self):
        self._pools: dict[str, list] = {}
        self.handed: list[tuple[str, bool]] = []

    async def get_rendered_notebook(self, notebook_name, extra_kernel_env_variables=None):
        """Voilà's own: take the first kernel, whatever its notebook run has reached."""
        content = await self._pools[notebook_name].pop(0)
        self.handed.append((content["kernel_id"], content["task"].done()))
        return content["task"], [], content["kernel_id"]


def pooled(kernel_id: str, run_seconds: float) -> asyncio.Task:
    """A pooled kernel whose notebook run takes ``run_seconds``."""
    async def start():  # the sleep is the notebook run itself (modelled time), not a wait of the test
        return {"kernel_id": kernel_id, "task": asyncio.ensure_future(asyncio.sleep(run_seconds))}
    return asyncio.ensure_future(start())


def test_a_page_arriving_while_the_kernel_still_runs_its_notebook_waits_for_the_whole_run():
    async def visit():
        manager = Pool()
        hand_over_finished_kernels(manager)
        manager._pools["lesson.ipynb"] = [pooled("k1", 0.2)]
        task, _cache, kernel_id = await manager.get_rendered_notebook("lesson.ipynb", extra_kernel_env_variables={})
        return manager.handed, task.done()
    handed, done = asyncio.run(visit())
    assert handed == [("k1", True)] and done


def test_a_finished_kernel_is_handed_over_at_once_and_two_pages_get_two_kernels():
    async def visit():
        manager = Pool()
        hand_over_finished_kernels(manager)
        manager._pools["play.ipynb"] = [pooled("k1", 0), pooled("k2", 0.1)]
        k1 = await asyncio.wait_for(manager._pools["play.ipynb"][0], harness.DEADLINE)
        await asyncio.wait_for(k1["task"], harness.DEADLINE)  # k1 has run its whole notebook before the pages come
        first, second = await asyncio.gather(manager.get_rendered_notebook("play.ipynb"),
                                             manager.get_rendered_notebook("play.ipynb"))
        return manager.handed, first[2], second[2]
    handed, first, second = asyncio.run(visit())
    assert {first, second} == {"k1", "k2"}
    assert all(finished for _kernel, finished in handed)


def test_without_preheating_there_is_nothing_to_wrap():
    class NoPool:
        pass
    manager = NoPool()
    hand_over_finished_kernels(manager)
    assert not hasattr(manager, "get_rendered_notebook")


SLIDER = {"cells": [{"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [],
                     "source": ["import ipywidgets\n", "ipywidgets.IntSlider(value=3, description='preheated')"]}],
          "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
          "nbformat": 4, "nbformat_minor": 5}


def test_a_preheated_kernel_killed_in_its_pool_is_replaced_and_the_page_gets_a_working_one(tmp_path):
    import json
    import os
    import re
    import signal

    import kernel_ws as kw

    (tmp_path / "slider.ipynb").write_text(json.dumps(SLIDER))
    server = harness.start_class_server(tmp_path, preheat=True)
    try:
        harness.wait_until(lambda: "Kernel pool of slider.ipynb is filled" in server.log_path.read_text(),
                           what="the pool filled")
        (pooled_kernel,) = server.live_kernels()
        assert harness.kernel_environ(pooled_kernel) is not None, "the pooled kernel has run its notebook"
        os.kill(pooled_kernel, signal.SIGKILL)
        harness.wait_until(lambda: "died before a page took it: a new one replaces it" in server.log_path.read_text(),
                           what="the server noticing the pooled kernel's death")
        page = kw.fetch_page(server.base, "/voila/render/slider.ipynb")
        assert pooled_kernel not in server.live_kernels()
        shown = set(re.findall(r'"model_id": "([0-9a-f]{32})"', page.html))
        assert shown, "the page shows its slider"

        async def states():
            socket = await kw.connect(page)
            found = await socket.widget_states()
            socket.close()
            return found

        found = asyncio.run(states())
        assert shown <= set(found), "every widget on the page lives in the page's kernel"
        assert any(st.get("state", {}).get("description") == "preheated" for st in found.values())
    finally:
        server.stop()
    assert server.alive_pids() == []
