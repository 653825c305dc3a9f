"""Where the dashboards are: inside the installed package (a wheel), else the repository's ``notebooks/``.

A wheel carries the notebooks as package data (``treegames/notebooks``, copied from ``notebooks/`` by
``setup.py`` at build time), so ``pip install treegames`` then ``treegames serve`` needs no clone.  An
editable install (``pip install -e .``, as ``make`` does) has no copy: the repository's folder is served.
The JupyterHub configuration travels the same way (``treegames/deploy/``, else the repository's ``deploy/``).
"""

from __future__ import annotations

import shutil
from pathlib import Path

__all__ = ["NotebooksMissing", "CopyRefused", "notebooks_folder", "copy_notebooks", "hub_config"]

LANDING = "index.ipynb"
"""The landing page every served folder starts from."""

SKIPPED = (".ipynb_checkpoints", "__pycache__", "*.pyc")
"""What a teacher's copy leaves out."""


class NotebooksMissing(FileNotFoundError):
    """Neither the package nor a repository around it holds the dashboards."""


class CopyRefused(ValueError):
    """A copy would overwrite a folder that already holds files."""


def candidates() -> list[Path]:
    """Where the dashboards may be, in order: inside the package, then the repository's folder."""
    package = Path(__file__).resolve().parent
    return [package / "notebooks", package.parent.parent / "notebooks"]


def notebooks_folder() -> Path:
    """The folder of dashboards to serve: the package's own copy, else the repository's ``notebooks/``."""
    for folder in candidates():
        if (folder / LANDING).is_file():
            return folder
    raise NotebooksMissing("the dashboards were not found: this treegames was installed without them "
                           f"(looked in {', '.join(str(c) for c in candidates())}); reinstall it from a wheel")


def copy_notebooks(target: Path | str) -> Path:
    """Copy every dashboard (with its images) into ``target`` for a teacher to adapt; the folder it wrote."""
    target = Path(target).expanduser().resolve()
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise CopyRefused(f"{target} already exists and is not an empty folder: name a new folder, "
                          "so that no file of yours is overwritten")
    shutil.copytree(notebooks_folder(), target, ignore=shutil.ignore_patterns(*SKIPPED), dirs_exist_ok=True)
    return target


def hub_config() -> Path:
    """The JupyterHub configuration file for a class (deploy/README.md): the package's copy, else the repository's."""
    package = Path(__file__).resolve().parent
    for path in (package / "deploy" / "jupyterhub_config.py", package.parent.parent / "deploy" / "jupyterhub_config.py"):
        if path.is_file():
            return path
    raise NotebooksMissing("the JupyterHub configuration was not found: reinstall treegames from a wheel")
