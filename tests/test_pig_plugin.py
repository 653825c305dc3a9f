"""A fourth game, Pig, works everywhere through its own entry point, with no edit to any treegames module (issue 31).

Pig lives under ``tests/plugins/pig`` (an engine, a plug-in object, a Play page and its notebook) and is
pip-installed for the test processes only (``tests/conftest.py``). These tests take it through what the
product's games get: the registry, the landing page, the Play page with its Hint and Review, the lab, the
coach and OpenSpiel. The conformance test (``test_conformance.py``), the tables (``tables/test_tables_pig.py``)
and the browser (``browser/test_pig_in_chromium.py``) cover the rest.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from importlib.metadata import entry_points
from pathlib import Path

import pytest

import harness
from treegames import core, plugins
from treegames.lab import Results, TournamentRun, TournamentSpec, play_games
from treegames.search import Budget
from treegames.ui import hint, landing

ROOT = Path(__file__).resolve().parents[1]
PIG_SOURCE = ROOT / "tests" / "plugins" / "pig"


def test_pig_is_registered_by_its_own_entry_point_not_by_treegames():
    point = next(p for p in entry_points(group=plugins.ENTRY_POINT_GROUP) if p.name == "pig")
    assert point.value == "pig_game.plugin:GAME" and point.dist.name == "treegames-pig-test-game"
    game = plugins.plugin("pig")
    assert game.title == "Pig" and game.engine.__name__ == "pig_game"
    assert core.game_names()[-1] == "pig", "menus list it after the product's games (its order is 50)"
    assert set(game.game_type.bots) == {"greedy", "random", "coach-easy", "coach-medium", "coach-hard"}


def test_no_treegames_module_names_pig_and_the_product_does_not_list_it():
    package = ROOT / "widgets" / "treegames"
    naming = [p for p in package.rglob("*.py") if "pig" in p.read_text(encoding="utf-8").lower()]
    assert naming == [], "Pig came in through its entry point alone"
    code = "import treegames; print(','.join(treegames.games()))"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    shown = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    assert shown.stdout.strip() == "aspens,bosk,mighty_trees", "outside the tests, the product's games alone"


def test_the_landing_page_lists_pig_with_its_play_page(tmp_path):
    (tmp_path / "index.ipynb").write_text((ROOT / "notebooks" / "index.ipynb").read_text())
    (tmp_path / "pig").mkdir()
    (tmp_path / "pig" / "play.ipynb").write_bytes((PIG_SOURCE / "notebooks" / "pig" / "play.ipynb").read_bytes())
    (tmp_path / "aspens").mkdir()
    (tmp_path / "aspens" / "play.ipynb").write_bytes((ROOT / "notebooks" / "aspens" / "play.ipynb").read_bytes())
    page = landing.pages_html(tmp_path)
    assert "<h3 style='margin:10px 0 4px'>Pig</h3>" in page and "href='pig/play.ipynb'" in page
    assert page.index(">Aspens<") < page.index(">Pig<"), "sections follow the plug-ins' order"
    assert "Pig: play" in page, "the link reads the notebook's own title"


def test_a_lab_tournament_of_pig_runs_in_worker_processes_and_adds_up(tmp_path, monkeypatch):
    from treegames.lab import slots

    monkeypatch.setattr(slots, "SLOT_DIR", tmp_path / "slots")
    spec = TournamentSpec("pig", ("greedy", "random"), games=40, seed=5, options={"goal": 50})
    run = TournamentRun(spec, workers=2)
    results = run.run()
    assert results.records == play_games(spec, 0, 40), "the workers played the same games as this process"
    assert results.games == 40 and all(r.first in (0, 1) for r in results.records)
    tally = Results(spec, results.records).by_bot["greedy"]
    assert tally.wins > 25, f"hold-at-20 beats random play at Pig ({tally.wins} of 40)"


def test_the_coach_takes_a_certain_win_and_holds_rather_than_risk_it():
    from pig_game import HOLD, ROLL, new_game

    state = new_game(goal=20).new_initial_state().apply("first P1")
    for face in (6, 6, 5, 4):  # 21 this turn: holding wins at once, rolling risks a 1
        state = state.apply(ROLL).apply(f"die {face}")
    coach = core.games()["pig"].bots["coach-easy"]
    assert coach(random.Random(1)).choose(state) == HOLD
    behind = new_game(goal=20).new_initial_state().apply("first P1")
    for face in (6, 6, 6):
        behind = behind.apply(ROLL).apply(f"die {face}")
    behind = behind.apply(HOLD).apply(ROLL).apply("die 2")  # P1 banked 18 of 20; P2 has 2 at risk
    rolls = sum(coach(random.Random(seed)).choose(behind) == ROLL for seed in range(10))
    assert rolls >= 9, f"2 points banked cannot catch 18 of 20: the coach rolls on ({rolls} of 10 seeds)"


def test_the_pig_play_page_plays_by_click_and_keyboard_and_the_coach_hints(monkeypatch):
    from pig_game.play import PigPlay

    monkeypatch.setattr(hint, "HINT_BUDGET", Budget(iterations=48))
    w = PigPlay(seed=2, seats=("human", "greedy"))
    for _ in range(20):
        if w.is_human_turn():
            break
        w.step()
    assert w.is_human_turn() and w.keyboard_targets() == ["roll"], "only Roll is lit with nothing at risk"
    w.click(*w.place_centre("hold"))
    assert "roll at least once" in w.message.value, "the engine's refusal, and nothing changes"
    before = len(w.timeline.states)
    w.click(*w.place_centre("roll"))
    assert len(w.timeline.states) > before, "a click on Roll rolls"
    while not w.is_human_turn() and not w.state.is_terminal():
        w.step()
    panel = w.hint_panel
    assert panel.hint() and panel.wait(harness.DEADLINE)
    rows = panel.top_moves()
    assert {r.notation for r in rows} <= {"roll", "hold"} and "48 playouts" in panel.words.value
    saved = w.save_text()
    again = PigPlay(seed=9)
    again.open_saved(saved)
    assert again.state == w.state, "Save and Open give the same game back"
    svg = w.picture_svg()
    assert svg.startswith("<svg") and "Roll" in svg and "Hold" in svg


def test_pig_plays_through_openspiel_and_passes_its_random_simulation_test():
    pyspiel = pytest.importorskip("pyspiel")
    from treegames import openspiel as adapter

    assert "treegames_pig" in adapter.register()
    for spec in ("treegames_pig", "treegames_pig(players=3)"):
        pyspiel.random_sim_test(pyspiel.load_game(spec), num_sims=2, serialize=False, verbose=False)
