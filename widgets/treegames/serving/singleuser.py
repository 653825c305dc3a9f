"""``python -m treegames.serving.singleuser``: each student's server on JupyterHub, without the IRI grammar at start.

It is ``python -m jupyterhub.singleuser`` (the same arguments, environment and app), run after this package has
deferred jsonschema's IRI grammar (:mod:`.startup`), so that every student's server skips about 1.7
CPU-seconds of its start: the part a class logging in together pays once per student.
``deploy/jupyterhub_config.py`` names it as the spawner's command.
"""

from __future__ import annotations

MODULE = "treegames.serving.singleuser"
"""What the spawner runs with ``python -m`` (and how the tests find a student's server among the hub's children)."""


def main() -> None:
    """Run JupyterHub's single-user server in this process, with this process's arguments."""
    from jupyterhub.singleuser import main as singleuser_main

    singleuser_main()


if __name__ == "__main__":
    main()
