"""The majority-scoring lesson's widgets through their real handlers (no browser)."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

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
    assert "model: measured totals" in e.summer.value and "model: uniform 0–4" in e.winter.value
    assert "Two exact models" in e.model.value and not e.run_button.disabled


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


# ---------------------------------------------------------------- the experiment's statistics (issue 18)


def test_shares_use_the_labs_wilson_interval_never_wald():
    import treegames.ui.bosk.lesson as lesson
    from treegames.lab import stats

    assert lesson.share is stats.share, "the lesson imports the lab's Wilson interval instead of a copy"
    counts = Counter({TieCase.CLEAR: 40, TieCase.TIED_FIRST: 0, TieCase.ALONE: 1})
    text = lesson.share_html(counts)
    assert "±" not in text, "no Wald margins"
    assert stats.share(0, 41).text() in text and stats.share(1, 41).text() in text
    low, _ = stats.wilson_interval(1, 41)
    assert low > 0 and "0.0% (0.0–8.6)" in text  # Wald gave 0.0% ± 0.0% here, and intervals below 0 for 1/41


def test_the_measured_model_uses_the_real_totals_and_is_exact():
    import treegames.ui.bosk.lesson as lesson
    from treegames.bosk.scoring import exact_case_odds

    uniform = {v: Fraction(1, 5) for v in range(5)}
    assert lesson.independent_case_odds(3, uniform) == exact_case_odds(3, range(5))
    dist = lesson.measured_distribution(Counter({0: 2, 7: 1, 14: 1}))
    assert dist == {0: Fraction(1, 2), 7: Fraction(1, 4), 14: Fraction(1, 4)}
    odds = lesson.independent_case_odds(2, dist)
    assert sum(odds.values()) == 1
    assert odds[TieCase.NOBODY] == Fraction(1, 4) and odds[TieCase.TIED_FIRST] == 2 * Fraction(1, 16)


def test_trail_totals_run_far_past_4_and_the_measured_model_is_much_closer_than_the_uniform_one():
    import treegames.ui.bosk.lesson as lesson

    tally = run_experiment(3, 40, "random", seed=0)
    assert max(tally.summer_totals) > 4, "real trail totals run past the uniform model's 0-4"
    assert sum(tally.summer_totals.values()) == 3 * sum(tally.summer.values())
    models = lesson.models_for(3, tally.summer_totals)
    measured, uniform = (lesson.mean_gap(tally.summer, models[name]) for name in lesson.MODEL_NAMES)
    assert measured < uniform / 2
    text = lesson.model_html(tally)
    assert "chase and dodge each other" not in text and "leaves out" in text
    assert "not from tactics" in text and f"up to {max(tally.summer_totals)}, not 4" in text


def test_with_a_greedy_bot_the_note_does_not_rule_out_tactics():
    import treegames.ui.bosk.lesson as lesson

    tally = run_experiment(2, 3, "mixed", seed=0)
    assert "not from tactics" not in lesson.model_html(tally)


def test_the_lesson_page_drops_wald_and_the_chase_explanation():
    import json

    lesson = json.load(open("notebooks/bosk/majority-scoring.ipynb"))
    text = "".join("".join(c["source"]) for c in lesson["cells"])
    assert "± 1.96 standard errors)" not in text.replace("unlike ± 1.96 standard errors", "")
    assert "players react to each other" not in text and "Wilson" in text and "measured" in text
