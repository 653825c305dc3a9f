"""Build hook: the dashboards in ``notebooks/`` ship inside the wheel as ``treegames/notebooks``, and the
JupyterHub configuration ``deploy/jupyterhub_config.py`` as ``treegames/deploy/jupyterhub_config.py``.

``notebooks/`` and ``deploy/`` stay the one source in git (Binder and the design need them at the top); a wheel
gets a copy at build time, so ``pip install treegames`` then ``treegames serve`` (or ``treegames hub-config``
for a hub) needs no clone.  An editable install copies nothing: :mod:`treegames.dashboards` finds the
repository's folders instead.
"""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
SOURCE = HERE / "notebooks"
HUB_CONFIG = HERE / "deploy" / "jupyterhub_config.py"
SKIPPED = (".ipynb_checkpoints", "__pycache__", "*.pyc")


class BuildWithNotebooks(build_py):
    """``build_py``, then the notebooks and their images copied into the built package."""

    def run(self):
        """Build the package as usual, then copy the dashboards beside it (not for an editable install)."""
        super().run()
        if getattr(self, "editable_mode", False) or not SOURCE.is_dir():
            return
        target = Path(self.build_lib) / "treegames" / "notebooks"
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(SOURCE, target, ignore=shutil.ignore_patterns(*SKIPPED))
        if HUB_CONFIG.is_file():
            (target.parent / "deploy").mkdir(exist_ok=True)
            shutil.copy2(HUB_CONFIG, target.parent / "deploy" / HUB_CONFIG.name)


setup(cmdclass={"build_py": BuildWithNotebooks})
