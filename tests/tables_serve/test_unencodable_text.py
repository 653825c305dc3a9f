"""A lone surrogate ("\\udcff": half of an emoji pasted into a box) is a clear refusal, never a 500 (issue 32).

In process the authorities refuse it as a TableError or ExperimentError naming what to do; over HTTP the
routes answer 400 with the field named, on SQLite and on PostgreSQL; nothing is stored.
"""

from __future__ import annotations

import json

import pytest
from serve_helpers import KEY, TEACHER, LiveServer
from test_table_routes import post

from pgserver import database_name, postgres_server  # noqa: F401 - the session's PostgreSQL fixture
from treegames.experiments import ExperimentAuthority, Source
from treegames.experiments.errors import ExperimentError
from treegames.service.store import open_store
from treegames.tables import client as tables_client
from treegames.tables.authority import Authority
from treegames.tables.errors import TableError

HALF = "\udcff"


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request, tmp_path, monkeypatch):
    """A fresh store on each backend."""
    monkeypatch.setenv("TREEGAMES_DATA_DIR", str(tmp_path))
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'treegames.sqlite3'}"
    else:
        url = request.getfixturevalue("postgres_server").new_database(database_name(request.node.nodeid))
    s = open_store(url)
    yield s
    s.close()


def test_in_process_every_text_a_visitor_types_is_refused_in_words(store):
    tables = Authority(store, teacher_code=TEACHER)
    ticket = tables.create_table("bosk", None, ["person", "person"], visitor="v", label="mine")
    calls = {
        "a join code": lambda: tables.join(HALF, visitor="w"),
        "a visitor id": lambda: tables.join(ticket.code, visitor=HALF),
        "a watcher's code": lambda: tables.watch(HALF),
        "a seat token": lambda: tables.view(HALF * 20),
        "a teacher code": lambda: tables.overview(HALF),
        "a seed": lambda: tables.create_table("bosk", None, ["person", "person"], visitor="v", seed=HALF),
        "a creator": lambda: tables.create_table("bosk", None, ["person", "person"], visitor=HALF),
        "a move": lambda: tables.move(ticket.token, tables.view(ticket.token).version, HALF),
    }
    for what, call in calls.items():
        with pytest.raises(TableError) as err:
            call()
        assert str(err.value) and "codec" not in str(err.value), what
    assert len(tables.open_tables()) == 1, "nothing was created"
    experiments = ExperimentAuthority(store, TEACHER, source=Source.CLASS_KERNEL)
    code = experiments.open_experiment(teacher_code=TEACHER, kind="sun-die", settings={"stacks": [4, 3, 2]})["code"]
    for what, call in {"a class code": lambda: experiments.join(HALF),
                       "a student token": lambda: experiments.me(token=HALF * 20),
                       "a teacher code": lambda: experiments.classes(HALF),
                       "a class code to watch": lambda: experiments.snapshot(HALF),
                       "a pseudonym": lambda: experiments.set_shown(TEACHER, code, HALF, False)}.items():
        with pytest.raises(ExperimentError) as err:
            call()
        assert str(err.value) and "codec" not in str(err.value), what


def test_over_http_a_lone_surrogate_anywhere_is_a_400_naming_the_field(store):
    live = LiveServer(store)
    try:
        client = tables_client.connect(live.url, KEY)
        first = client.create_table("aspens", None, ["person", "person"], visitor="a", label="a")
        before = live.authority.log_of(first.table_id)
        bodies = {
            ("tables", "join"): {"code": HALF, "visitor": "b"},
            ("tables", "create_table"): {"game": "aspens", "options": {HALF: 1}, "seats": ["person", "person"],
                                         "label": f"x{HALF}"},
            ("tables", "move"): {"token": first.token, "version": 0, "action": f"seed {HALF}"},
            ("experiments", "join"): {"code": HALF},
            ("experiments", "open_experiment"): {"teacher_code": TEACHER, "kind": "sun-die",
                                                 "settings": {"stacks": [4, HALF]}},
        }
        for (service, method), body in bodies.items():
            status, answer = post(live, method, json.dumps(body).encode(), service=service)  # JSON escapes it
            assert status == 400, (method, answer)
            assert "cannot be sent" in answer["message"] and "Traceback" not in json.dumps(answer)
        status, answer = post(live, "join", json.dumps({"code": HALF, "visitor": "b"}).encode())
        assert "The code holds" in answer["message"], "the field is named"
        assert live.authority.log_of(first.table_id) == before and len(live.authority.open_tables()) == 1
    finally:
        live.stop()
