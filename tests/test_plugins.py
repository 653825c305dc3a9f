"""Games are plug-ins: each registers one GamePlugin under the entry point group ``treegames.games``."""

from __future__ import annotations

import ast
import io
import re
import tokenize
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path

import pytest

import treegames
from treegames import core, plugins
from treegames.search.bots import COACH_BOTS


def test_every_game_is_found_through_its_entry_point_in_menu_order():
    points = {p.name: p.value for p in entry_points(group=plugins.ENTRY_POINT_GROUP)}
    assert {"aspens", "bosk", "mighty_trees"} <= set(points)
    found = plugins.plugins()
    assert set(found) == set(points)
    assert list(found) == sorted(found, key=lambda n: (found[n].order, n))
    assert core.game_names() == tuple(found) == tuple(treegames.games())
    for name, plugin in found.items():
        assert points[name] == f"{plugin.engine.__name__}.plugin:GAME"
        assert plugin.name == name and plugin.title == plugin.game_type.title
        assert core.game_module(name) is plugin.engine
        assert plugin.game_type.bots == {**plugin.engine.GAME_TYPE.bots, **COACH_BOTS}
        assert plugin.engine.new_game().game_type is plugin.game_type


def test_an_unknown_game_is_refused_naming_the_games():
    with pytest.raises(core.OptionError, match="there is no game 'chess'; the games are: aspens, bosk"):
        plugins.plugin("chess")


def fake_points(monkeypatch, *points: EntryPoint) -> None:
    """Make the entry point group hold exactly ``points`` (and forget what was read before)."""
    monkeypatch.setattr(plugins, "entry_points", lambda group: [p for p in points if p.group == group])
    plugins.plugins.cache_clear()


@pytest.fixture
def registry(monkeypatch):
    """The registry, read again under this test's entry points, and read afresh after it."""
    yield lambda *points: fake_points(monkeypatch, *points)
    plugins.plugins.cache_clear()


def point(name: str, value: str) -> EntryPoint:
    return EntryPoint(name=name, value=value, group=plugins.ENTRY_POINT_GROUP)


def test_a_plugin_that_fails_to_load_is_named(registry):
    registry(point("broken", "treegames.no_such_module:GAME"))
    with pytest.raises(plugins.PluginError, match=r"'broken' \(treegames.no_such_module:GAME\) failed to load"):
        plugins.plugins()


def test_an_object_that_is_not_a_plugin_is_refused(registry):
    registry(point("aspens", "treegames.aspens:GAME_TYPE"))
    with pytest.raises(plugins.PluginError, match="is a GameType, not a GamePlugin"):
        plugins.plugins()


def test_a_plugin_registered_under_another_name_is_refused(registry):
    registry(point("pine", "treegames.aspens.plugin:GAME"))
    with pytest.raises(plugins.PluginError, match="is the game 'aspens'"):
        plugins.plugins()


def test_no_registered_game_says_how_to_register_them(registry):
    registry()
    with pytest.raises(plugins.PluginError, match=r"pip install -e \."):
        plugins.plugins()


def test_a_plugin_error_is_a_value_error_the_views_already_show():
    assert issubclass(plugins.PluginError, core.OptionError) and issubclass(plugins.PluginError, ValueError)


def test_the_coach_review_and_lab_take_their_game_words_and_budgets_from_the_plugin(monkeypatch):
    from dataclasses import replace

    from treegames.lab import shared_chance
    from treegames.search import Level, Rollout, iterations_for, iterations_for_review, rollout_for

    for name, plugin in plugins.plugins().items():
        assert iterations_for_review(name) == plugin.review_iterations
        assert shared_chance(name) == plugin.shared_chance
        assert rollout_for(name) is Rollout(plugin.coach_rollout)
    tuned = replace(plugins.plugin("aspens"), coach_scale={2: 3}, coach_rollout="greedy", review_iterations=7,
                    shared_chance="the same weather")
    monkeypatch.setitem(plugins.plugins(), "aspens", tuned)
    assert iterations_for(Level.EASY, "aspens", 2) == 3 * iterations_for(Level.EASY, "bosk", 99)
    assert rollout_for("aspens") is Rollout.GREEDY and iterations_for_review("aspens") == 7
    assert shared_chance("aspens") == "the same weather"


def test_a_game_with_hidden_information_and_only_such_a_game_brings_an_observer():
    for plugin in plugins.plugins().values():
        assert (plugin.observer is not None) == plugin.game_type.has_hidden_information, plugin.name
        if plugin.observer is not None:
            state = plugin.engine.new_game().new_initial_state()
            for seat in (None, 0):
                view = plugin.observer.view(state, seat)
                assert plugin.observer.view_from_json(plugin.observer.view_to_json(view)) == view


def test_each_plugin_names_the_picture_of_a_table_and_loading_it_needs_no_ui_until_asked():
    import subprocess
    import sys

    from treegames.ui.scene import Scene

    for plugin in plugins.plugins().values():
        assert plugin.picture is not None and ":" in plugin.picture
        state = plugin.engine.new_game().new_initial_state()
        seen = plugin.observer.view(state, None) if plugin.observer is not None else state
        assert isinstance(plugin.load(plugin.picture)(seen), Scene)
    code = "import sys, treegames; treegames.games(); print('ipywidgets' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False", "reading the plug-ins loads no UI"


def test_a_reference_that_cannot_load_names_the_game_and_the_reference():
    plugin = plugins.plugin("bosk")
    with pytest.raises(plugins.PluginError, match="'bosk' names 'treegames.ui.nowhere:picture'"):
        plugin.load("treegames.ui.nowhere:picture")
    with pytest.raises(plugins.PluginError, match="AttributeError"):
        plugin.load("treegames.core:no_such_thing")


GAME_WORD = re.compile(r"aspens|bosk|mighty.?trees", re.IGNORECASE)
STILL_NAMING: dict[str, str] = {}
"""Modules outside the game packages whose code still names a game, and why: issue 31's remaining work."""


def _docstring_lines(tree: ast.AST) -> set[int]:
    """The lines of every docstring in a module, attribute docstrings too (words for people, not code)."""
    return {line for node in ast.walk(tree)
            if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)
            for line in range(node.lineno, node.end_lineno + 1)}


def names_of_games_in_code(path: Path) -> list[tuple[int, str]]:
    """(line, token) for every name or string literal (not a docstring or comment) that names a game."""
    text = path.read_text()
    docs = _docstring_lines(ast.parse(text))
    return [(tok.start[0], tok.string) for tok in tokenize.generate_tokens(io.StringIO(text).readline)
            if tok.type in (tokenize.NAME, tokenize.STRING) and tok.start[0] not in docs
            and GAME_WORD.search(tok.string)]


def test_outside_the_game_packages_no_code_names_a_game_but_the_listed_remainder():
    root = Path(treegames.__file__).parent
    games = set(plugins.plugins())
    naming = {}
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root).parts
        if parts[0] in games or (parts[0] == "ui" and len(parts) > 1 and parts[1] in games):
            continue
        if found := names_of_games_in_code(path):
            naming["/".join(parts)] = found
    unexpected = {k: v for k, v in naming.items() if k not in STILL_NAMING}
    assert unexpected == {}, f"shared code names a game (ask the game's plug-in instead): {unexpected}"
    assert set(STILL_NAMING) <= set(naming), f"no longer naming a game, drop from the list: {set(STILL_NAMING) - set(naming)}"


def test_the_check_for_game_names_finds_one(tmp_path):
    """The grep above can fail: a module that names a game in code is found, its docstring and comments are not."""
    sample = Path(plugins.__file__).with_name("lab") / "tournament.py"
    assert names_of_games_in_code(sample) == []
    module = tmp_path / "module.py"
    module.write_text('"""Bosk and Aspens in words."""\n\nPAGES = {"kind": "aspens/sun-die-probability.ipynb"}  # Bosk\n')
    assert names_of_games_in_code(module) == [(3, '"aspens/sun-die-probability.ipynb"')]
