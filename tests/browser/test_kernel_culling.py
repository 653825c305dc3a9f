"""The known trap: closing a Voila tab does not stop its kernel. Idle culling (as make serve sets it) does."""

from __future__ import annotations

import contextlib

import harness


def test_a_closed_pages_kernel_is_stopped_by_idle_culling(browser):
    server = harness.start_voila(preheat=False, extra=["--MappingKernelManager.cull_idle_timeout=4",
                                                       "--MappingKernelManager.cull_interval=1"])
    try:
        assert server.live_kernels() == set()
        context = browser.new_context(viewport=harness.VIEWPORT)
        page = context.new_page()
        harness.open_dashboard(page, server, "aspens/board-and-setups.ipynb")
        kernels = server.live_kernels()
        assert len(kernels) == 1, "the page runs in a kernel of its own"
        context.close()
        with contextlib.suppress(AssertionError):  # the assertion below names the survivors
            harness.wait_until(lambda: not harness.running_pids(kernels), step=0.5, what="the closed page's kernel culled")
        survivors = harness.running_pids(kernels)
        assert survivors == [], "the closed page's kernel must be culled once idle"
    finally:
        server.stop()
    assert server.alive_pids() == []
