"""Games are plug-ins: each registers one GamePlugin under the entry point group ``treegames.games``."""

from __future__ import annotations

from importlib.metadata import EntryPoint, entry_points

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
