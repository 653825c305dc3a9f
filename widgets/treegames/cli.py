"""``treegames``: the one command after ``pip install treegames``.

* ``treegames serve [--host H] [--port P] [--store URL] [--class PAGE=N] [--notebooks DIR]`` starts the class
  server on the bundled dashboards (or on a teacher's folder) exactly as ``make serve`` does: it prints the
  URL, the data folder and the teacher code.  Extra ``--Section.name=value`` options go to Voila.
* ``treegames copy-notebooks DIR`` writes an editable copy of every dashboard, to adapt in JupyterLab.
* ``treegames hub-config`` prints where the JupyterHub configuration for a class is (deploy/README.md).
* ``treegames --version``.
"""

from __future__ import annotations

import argparse
import sys
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from .dashboards import CopyRefused, NotebooksMissing, copy_notebooks, hub_config, notebooks_folder

__all__ = ["main", "parser", "installed_version"]


def installed_version() -> str:
    """This treegames' version, as installed (the source tree's own when not installed)."""
    try:
        return version("treegames")
    except PackageNotFoundError:  # pragma: no cover - run from a source tree never installed
        return "0+unknown"


def example_class() -> str:
    """An example ``--class`` value: the first registered game's Play page for a class of thirty."""
    from .plugins import plugins

    return f"{next(iter(plugins()), 'GAME')}/play.ipynb=30"


def page_count(text: str) -> str:
    """Check one ``--class PAGE=N`` value: a notebook path ending in .ipynb and a count from 1."""
    page, _, count = text.partition("=")
    if not page.endswith(".ipynb") or not count.isdigit() or int(count) < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: give a page and a head count, e.g. {example_class()}")
    return f"{page}={int(count)}"


def parser() -> argparse.ArgumentParser:
    """The command line: ``serve``, ``copy-notebooks`` and ``--version``."""
    top = argparse.ArgumentParser(prog="treegames", description="The treegames teaching dashboards: serve them or copy them.")
    top.add_argument("--version", action="version", version=f"treegames {installed_version()}")
    commands = top.add_subparsers(dest="command", metavar="COMMAND")
    serve = commands.add_parser("serve", help="start the class server on the dashboards",
                                description="Start the class server (Voila with shared tables and class experiments).")
    serve.add_argument("--host", default="127.0.0.1", help="interface to listen on (0.0.0.0: every one)")
    serve.add_argument("--port", type=int, default=8866, help="port (the next free one if taken)")
    serve.add_argument("--store", default="", metavar="URL", help="postgresql://... (default: SQLite in the data folder)")
    serve.add_argument("--class", dest="classes", action="append", default=[], type=page_count, metavar="PAGE=N",
                       help="kernels to get ready for a page before the class arrives, e.g. GAME/play.ipynb=30")
    serve.add_argument("--notebooks", default=None, metavar="DIR",
                       help="serve this folder of notebooks (default: the dashboards that come with treegames)")
    serve.add_argument("--no-preheat", action="store_true", help="start each page's kernel when a visitor arrives")
    copy = commands.add_parser("copy-notebooks", help="copy every dashboard into a folder, to adapt",
                               description="Write an editable copy of every dashboard into DIR (a new or empty folder).")
    copy.add_argument("folder", metavar="DIR")
    commands.add_parser("hub-config", help="print where the JupyterHub configuration for a class is",
                        description="Print the path of the JupyterHub configuration file (see deploy/README.md).")
    return top


def serve_argv(options: argparse.Namespace, extra: list[str]) -> list[str]:
    """The class server's own command line for these options."""
    if options.notebooks and not Path(options.notebooks).is_dir():
        raise NotebooksMissing(f"{options.notebooks} is not a folder: name the folder of notebooks to serve")
    folder = options.notebooks or str(notebooks_folder())
    argv = [folder, f"--host={options.host}", f"--port={options.port}"]
    if options.store:
        argv.append(f"--store={options.store}")
    if options.no_preheat:
        argv.append("--no-preheat")
    argv += [f"--pool={item}" for item in options.classes]
    return argv + extra


def main(argv: list[str] | None = None) -> int:
    """Run one subcommand; a missing folder or a refused copy is one sentence and exit status 2."""
    top = parser()
    options, extra = top.parse_known_args(sys.argv[1:] if argv is None else argv)
    if extra and options.command != "serve":
        top.error(f"unrecognised arguments: {' '.join(extra)}")
    try:
        if options.command == "serve":
            from .serving.__main__ import main as serve

            serve(serve_argv(options, extra))
        elif options.command == "copy-notebooks":
            written = copy_notebooks(options.folder)
            print(f"Copied the dashboards into {written}. Open them in JupyterLab, or serve them with:\n"
                  f"    treegames serve --notebooks {written}")
        elif options.command == "hub-config":
            print(hub_config())
        else:
            top.print_help()
    except (NotebooksMissing, CopyRefused) as refused:
        print(f"treegames: {refused}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
