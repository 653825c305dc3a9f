"""The majority-scoring lesson's widgets through their real handlers (no browser)."""

from __future__ import annotations

from treegames.bosk.scoring import SUMMER_POINTS, WINTER_POINTS, TieCase, majority
from treegames.ui.bosk.lesson import Exercises, Experiment, WhatIf, exercises, run_experiment


def test_what_if_shows_the_engines_places_and_points():
    w = WhatIf(players=3)
    w.set_values((6, 2, 2))
    assert "tie for second" in w.result.value and "Summer Scoring 2" in w.result.value
    w.season.value = "Winter (a region)"
    assert "IV. Winter 3" in w.result.value
    expected = majority((6, 2, 2), WINTER_POINTS).points
    assert all(f"<b>{p}</b>" in w.result.value for p in expected)


def test_sliding_one_total_changes_the_case():
    w = WhatIf(players=2, values=(4, 0))
    assert "alone" in w.result.value
    w.sliders[1].value = 4
    assert "tie for first" in w.result.value


def test_every_example_button_sets_up_its_case():
    for players in (2, 3, 4):
        w = WhatIf(players=3)
        w.players.value = players
        for button in w.examples.children:
            button.click()
            assert f"Case: {button.description}." in w.result.value
        assert sum(s.layout.display != "none" for s in w.sliders) == players


def test_exercise_answers_hide_until_asked():
    ex = Exercises()
    assert all(a.layout.display == "none" for a in ex.answers)
    ex.buttons[0].value = True
    assert ex.answers[0].layout.display == "" and ex.buttons[0].description == "Hide answer"
    assert "Never" in exercises()[0].answer
    assert str(majority((4, 4), WINTER_POINTS).points[0]) in exercises()[0].answer
    assert str(majority((5, 3), SUMMER_POINTS).points[1]) in exercises()[0].answer


def test_the_experiment_counts_every_trail_and_region_with_progress():
    tally = run_experiment(3, 20, "random", seed=5)
    trails = 2 * 6
    assert tally.games == 20 and sum(tally.summer.values()) == 20 * trails
    assert sum(tally.winter.values()) == 20 * 8
    assert tally.summer[TieCase.CLEAR] > 0
    again = run_experiment(3, 20, "random", seed=5)
    assert again.summer == tally.summer, "seeded: a run repeats exactly"


def test_the_experiment_widget_runs_and_shows_the_model():
    e = Experiment(players=2, games=10)
    e.run()
    assert e.progress.value == 10 and "tie for first" in e.summer.value
    assert "exact (model)" in e.model.value and not e.run_button.disabled


def test_every_lesson_callback_is_guarded():
    from treegames import bosk
    from treegames.ui import safety
    from treegames.ui.bosk.tables import MajorityTable, winter_rows

    table = MajorityTable("Region", bosk.PLAYER_NAMES[:2])
    table.show(winter_rows(bosk.new_game(2).new_initial_state()))
    for widget in (WhatIf(), Exercises(), Experiment(games=10), table):
        assert safety.unguarded_callbacks(widget) == []


def test_a_run_with_a_greedy_bot_is_capped_to_keep_the_server_quick(monkeypatch):
    import treegames.ui.bosk.lesson as lesson

    played = []
    real = lesson.run_experiment
    monkeypatch.setattr(lesson, "run_experiment",
                        lambda players, n, bots, progress=None: played.append(n) or real(players, 2, bots))
    e = Experiment(players=2, games=10)
    e.bots.value = "mixed"
    e.games.value = 400
    e.run()
    assert played == [lesson.MAX_GREEDY_GAMES] and e.games.value == lesson.MAX_GREEDY_GAMES
