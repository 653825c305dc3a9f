"""Data written before games became plug-ins still opens: a store and saved games made by main at 895402b.

``tests/fixtures/written-by-895402b/make.py`` wrote them with that commit's treegames (``PYTHONPATH`` set to its
``widgets/``): three shared tables part-played (Aspens, a three-seat Bosk with a bot, Mighty Trees with hidden hands),
a class experiment with one student's batch, and one saved game per game. The committed files are copied before use.
"""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import pytest

from treegames import core
from treegames.experiments import ExperimentAuthority, Source
from treegames.service.store import open_store
from treegames.tables.authority import Authority, replay_table

WRITTEN = Path(__file__).parent / "fixtures" / "written-by-895402b"
FACTS = json.loads((WRITTEN / "written.json").read_text())


@pytest.fixture
def store(tmp_path):
    """The old store, copied (the fixture is never written)."""
    shutil.copy(WRITTEN / "treegames.sqlite3", tmp_path / "treegames.sqlite3")
    s = open_store(f"sqlite:///{tmp_path / 'treegames.sqlite3'}")
    yield s
    s.close()


@pytest.mark.parametrize("game", sorted(FACTS["tables"]))
def test_an_older_shared_table_shows_its_log_and_takes_the_next_move(store, game):
    facts = FACTS["tables"][game]
    authority = Authority(store, teacher_code="TEACH-2345", clock=lambda: 1_000_100.0)
    assert authority.log_of(facts["table_id"]) == facts["log"]
    views = {int(seat): authority.view(token) for seat, token in facts["tokens"].items()}
    assert {v.version for v in views.values()} == {facts["version"]} and {v.game for v in views.values()} == {game}
    state = replay_table(game, views[0].options, facts["log"])
    assert authority.state_of(facts["table_id"]) == state
    mover = views.get(int(state.current_player))
    assert mover is not None and mover.status == "playing" and mover.legal
    after = authority.move(facts["tokens"][str(mover.seat)], mover.version, random.Random(1).choice(mover.legal))
    assert after.version > facts["version"] and len(authority.log_of(facts["table_id"])) > len(facts["log"])


def test_an_older_class_experiment_keeps_its_student_and_counts(store):
    facts = FACTS["experiment"]
    authority = ExperimentAuthority(store, "teacher-code-for-tests", source=Source.CLASS_KERNEL)
    again = authority.join(facts["code"], token=facts["token"])
    assert again["rejoined"] and again["pseudonym"] == facts["pseudonym"]
    assert authority.snapshot(facts["code"])["n"] == facts["n"]


@pytest.mark.parametrize("game", sorted(FACTS["saved_games"]))
def test_an_older_saved_game_opens_and_saves_the_same(game):
    text = json.dumps(FACTS["saved_games"][game])
    saved = json.loads(text)
    state = core.load_json(core.games()[game].new_game(**saved.get("options", {})), text)
    assert json.loads(state.to_json()) == saved
