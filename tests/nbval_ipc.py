"""nbval's kernels talk over IPC sockets, not TCP ports: no port race with the servers' kernels beside them.

jupyter_client picks a kernel's TCP ports, releases them and lets the kernel bind them; with the suite's
servers starting kernels on both workers, another process can take a port in that window and the kernel
dies at start ("Kernel died before replying to kernel_info", jupyter_client #154).  Importing this module
patches nbval (tests/conftest.py does; a pytest run outside tests/ loads it with ``-p nbval_ipc``).
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile


def kernels_on_ipc() -> None:
    """Make nbval start its kernels on the ipc transport (nothing to do without nbval)."""
    try:
        import nbval.kernel
    except ImportError:
        return
    from jupyter_client.manager import KernelManager

    class IpcKernelManager(KernelManager):
        """A kernel manager on the ipc transport (socket files beside the connection file)."""

        def __init__(self, **kwargs):
            folder = tempfile.mkdtemp(prefix="treegames-nbval-ipc-")  # absolute: the kernel runs in the notebook's folder
            atexit.register(shutil.rmtree, folder, True)
            super().__init__(transport="ipc", ip=os.path.join(folder, "kernel"), **kwargs)

    nbval.kernel.KernelManager = IpcKernelManager


kernels_on_ipc()
