"""House rule 1: engines import nothing from ipywidgets, ipycanvas or IPython."""

from __future__ import annotations

import importlib.util
import subprocess
import sys

import pytest

UI_MODULES = ("ipywidgets", "ipycanvas", "IPython")
ENGINES = ["treegames.core", "treegames.aspens", "treegames.bosk", "treegames.mighty_trees", "treegames.search",
           "treegames.lab"]


@pytest.mark.parametrize("module", ENGINES)
def test_engine_import_leaves_ui_libraries_unloaded(module):
    if importlib.util.find_spec(module) is None:
        pytest.fail(f"{module} is missing")
    code = (
        f"import sys, {module}\n"
        f"loaded = [m for m in {UI_MODULES!r} if m in sys.modules]\n"
        "print(','.join(loaded))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "", f"{module} pulled in {out.stdout.strip()}"


def test_the_ui_does_load_them():
    """The check above can fail: importing a view does bring the UI libraries in."""
    code = "import sys, treegames.ui.aspens.board; print('ipycanvas' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "True"


GAME_PACKAGES = ["aspens", "bosk", "mighty_trees"]
SAME_JOBS = ("data", "actions", "words", "engine", "bots")


def sibling_imports(path) -> set[str]:
    """The sibling modules a game module imports at run time (``from .x import``, ``from . import x``)."""
    import ast

    tree = ast.parse(path.read_text())
    guarded = set()
    for node in ast.walk(tree):  # imports under ``if TYPE_CHECKING:`` are for type hints only
        if isinstance(node, ast.If) and getattr(node.test, "id", "") == "TYPE_CHECKING":
            guarded.update(id(n) for n in ast.walk(node))
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 1 and id(node) not in guarded:
            if node.module:
                out.add(node.module.split(".")[0])
            else:
                out.update(alias.name for alias in node.names)
    return out


@pytest.mark.parametrize("game", GAME_PACKAGES)
def test_every_game_has_the_same_modules_for_the_same_jobs_and_no_import_cycles(game):
    from pathlib import Path

    import treegames

    folder = Path(treegames.__file__).parent / game
    modules = {p.stem for p in folder.glob("*.py") if p.stem != "__init__"}
    assert set(SAME_JOBS) <= modules, f"{game} lacks {set(SAME_JOBS) - modules}"
    graph = {m: sibling_imports(folder / f"{m}.py") & modules for m in modules}
    order = {job: i for i, job in enumerate(SAME_JOBS)}
    for module, needs in graph.items():
        for other in needs:
            if module in order and other in order:
                assert order[other] < order[module], f"{game}.{module} imports {other}: imports go data <- actions <- words <- engine <- bots"

    def visit(module: str, path: tuple[str, ...]) -> None:
        assert module not in path, f"import cycle in {game}: {' -> '.join(path + (module,))}"
        for other in graph.get(module, ()):
            visit(other, path + (module,))

    for module in graph:
        visit(module, ())


ABOVE_THE_ENGINES = ("treegames.search", "treegames.lab", "treegames.ui", "treegames.plugins")


@pytest.mark.parametrize("game", GAME_PACKAGES)
def test_an_engine_imports_neither_the_coach_nor_the_ui_and_its_plugin_composes_them(game):
    code = (
        f"import sys, treegames.{game}\n"
        f"print(','.join(m for m in sys.modules if m.startswith({ABOVE_THE_ENGINES!r})))\n"
        f"import treegames.{game}.plugin\n"
        "print('treegames.search' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    engine_loaded, plugin_loaded_search = out.stdout.splitlines()
    assert engine_loaded == "", f"treegames.{game} pulled in {engine_loaded}"
    assert plugin_loaded_search == "True", "the plug-in adds the coach"


UI_SAME_JOBS = ("scene", "play", "walkthrough", "lesson")
"""The modules every game's UI package has, for the same jobs (issue 31: the lessons named one way)."""


@pytest.mark.parametrize("game", GAME_PACKAGES)
def test_every_games_ui_package_names_its_modules_the_same_way(game):
    from pathlib import Path

    import treegames.ui

    folder = Path(treegames.ui.__file__).parent / game
    modules = {p.stem for p in folder.glob("*.py")}
    assert set(UI_SAME_JOBS) <= modules, f"ui/{game} lacks {set(UI_SAME_JOBS) - modules}"
    assert not {m for m in modules if m.startswith("odds_view")}, "a lesson module is called lesson.py"


def treegames_imports(package: str) -> set[str]:
    """The treegames sub-packages that the modules of ``package`` import (absolute or relative), itself left out."""
    import ast
    from pathlib import Path

    import treegames

    found = set()
    for path in (Path(treegames.__file__).parent / package).rglob("*.py"):
        depth = len(path.relative_to(Path(treegames.__file__).parent).parts) - 1  # folders below treegames/
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                if node.level == 0 and (node.module or "").startswith("treegames."):
                    found.add(node.module.split(".")[1])
                elif node.level > depth and node.module:  # ``from ..tables import x`` reaches treegames/
                    found.add(node.module.split(".")[0])
                elif node.level > depth:  # ``from .. import core``
                    found.update(alias.name for alias in node.names)
            elif isinstance(node, ast.Import):
                found.update(a.name.split(".")[1] for a in node.names if a.name.startswith("treegames."))
    return found - {package}


def test_tables_and_experiments_share_the_service_layer_and_import_neither_each_other_nor_a_server():
    assert "experiments" not in treegames_imports("tables")
    assert "tables" not in treegames_imports("experiments")
    assert {"tables", "experiments"} <= treegames_imports("ui"), "the check reads imports at all"
    assert treegames_imports("service") <= {"core"}, treegames_imports("service")
    for package in ("tables", "experiments"):
        assert "service" in treegames_imports(package)
        assert not treegames_imports(package) & {"serving", "ui"}


def test_no_class_in_the_ui_is_longer_than_400_lines():
    import ast
    from pathlib import Path

    import treegames.ui

    long = []
    for path in Path(treegames.ui.__file__).parent.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ClassDef) and node.end_lineno - node.lineno + 1 > 400:
                long.append(f"{path.name}: {node.name} ({node.end_lineno - node.lineno + 1} lines)")
    assert long == [], "a class that has absorbed too many jobs: " + ", ".join(long)


def test_the_authorities_write_no_sql_they_ask_their_named_queries():
    import re
    from pathlib import Path

    import treegames

    sql = re.compile(r"\b(SELECT|INSERT INTO|UPDATE \w+ SET|DELETE FROM|CREATE (TABLE|INDEX))\b|\.execute\(")
    root = Path(treegames.__file__).parent
    authorities = sorted(root.rglob("authority.py"))
    assert {p.parent.name for p in authorities} >= {"tables", "experiments"}
    for path in authorities:
        found = [line.strip() for line in path.read_text().splitlines() if sql.search(line)]
        assert found == [], f"{path.parent.name}/authority.py runs SQL itself: {found[:3]}"
        assert (path.parent / "queries.py").exists() and "from . import queries" in path.read_text()
    assert sql.search((root / "tables" / "queries.py").read_text()), "the check finds SQL where it is"
