"""The teacher's overview: every table, whose turn, results; close / bot / reset only with the teacher code."""

from __future__ import annotations

import json

import pytest

from treegames.service.store import open_store
from treegames.tables.authority import Authority
from treegames.tables.limits import Limits
from treegames.ui.tables.teacher import TeacherOverview, overview_html, waited_words

TEACHER = "TEACH-ONE"
EVIL = "<script>alert(1)</script>"


@pytest.fixture
def authority(tmp_path):
    """An authority on a fresh SQLite file, whose players count as gone at once."""
    store = open_store(f"sqlite:///{tmp_path}/tables.sqlite3")
    yield Authority(store, Limits(gone_after=0.0), teacher_code=TEACHER)
    store.close()


def two_tables(authority):
    """A waiting Aspens table with an HTML-like label and a playing Bosk table against a bot."""
    waiting = authority.create_table("aspens", {"setup": 2}, ["person", "person"], visitor="t1", label=EVIL)
    playing = authority.create_table("bosk", {}, ["person", "greedy"], visitor="t2", label="Bo")
    return waiting, playing


def test_a_wrong_code_shows_nothing(authority):
    """Without the teacher code no table is listed."""
    two_tables(authority)
    t = TeacherOverview(client=authority, follow=False)
    t.code_box.value = "WRONG-1"
    assert not t.show()
    assert "Not accepted" in t.note.value and t.tables.value == ""


def test_every_table_with_whose_turn_and_escaped_labels(authority):
    """Each table is a row: its code, what it waits for, labels as text only."""
    waiting, playing = two_tables(authority)
    t = TeacherOverview(client=authority, follow=False)
    t.code_box.value = TEACHER
    assert t.show()
    html = t.tables.value
    assert waiting.code in html and playing.code in html
    assert "Waiting for 1 player" in html and "to move" in html
    assert "&lt;script&gt;" in html and EVIL not in html


def test_close_and_bot_and_reset_need_the_code(authority):
    """Close a table, put a bot in a seat, reset everything: each with the code; reset asks to tick first."""
    waiting, playing = two_tables(authority)
    t = TeacherOverview(client=authority, follow=False)
    t.code_box.value = TEACHER
    t.show()
    t.table_box.value = waiting.code
    t.seat_box.value = 2
    assert t.replace(), t.note.value
    assert authority.overview(TEACHER)[1].seats[1]["kind"] == "greedy"
    t.table_box.value = playing.code
    assert t.close()
    assert {v.code: v.status for v in authority.overview(TEACHER)}[playing.code] == "closed"
    assert not t.reset() and "Tick" in t.note.value
    t.sure_box.value = True
    t.code_box.value = "WRONG-1"
    assert not t.reset() and len(authority.overview(TEACHER)) == 2
    t.code_box.value = TEACHER
    assert t.reset() and authority.overview(TEACHER) == []


def test_without_a_server_it_says_so(monkeypatch):
    """On Binder the overview says each session is alone."""
    monkeypatch.delenv("TREEGAMES_TABLES_URL", raising=False)
    t = TeacherOverview()
    assert t.client is None and "alone" in t.children[0].value


def test_waited_words():
    """Seconds, minutes, hours."""
    assert (waited_words(12), waited_words(600), waited_words(7200)) == ("12 s", "10 min", "2.0 h")


def test_a_students_wrong_codes_do_not_lock_the_teacher_out(authority, monkeypatch):
    """Each kernel names its own visitor, so wrong codes typed on one page pause only that page."""
    from treegames.ui.tables import panel

    two_tables(authority)
    monkeypatch.setattr(panel, "VISITOR", "kernel-student")
    student = TeacherOverview(client=authority, follow=False)
    student.code_box.value = "WRONG-1"
    for _ in range(authority.limits.teacher_failures + 1):
        student.show()
    student.code_box.value = TEACHER
    assert not student.show(), "the guessing page is paused"
    monkeypatch.setattr(panel, "VISITOR", "kernel-teacher")
    teacher = TeacherOverview(client=authority, follow=False)
    teacher.code_box.value = TEACHER
    assert teacher.show() and "Bo" in teacher.tables.value


def test_each_table_has_a_small_live_picture_drawn_once_per_version(authority, monkeypatch):
    from treegames.ui.tables import teacher

    two_tables(authority)
    mt = authority.create_table("mighty_trees", {}, ["person", "greedy"], visitor="t3", label="MT")
    views = authority.overview(TEACHER)
    html = overview_html(views)
    assert html.count("<svg") == 3 and html.count(f'width="{teacher.PICTURE_WIDTH}"') == 3
    drawn = []
    real = teacher._picture_scene
    monkeypatch.setattr(teacher, "_picture_scene", lambda v: drawn.append(v.code) or real(v))
    overview_html(views)
    assert drawn == [], "an unchanged table is not drawn again"
    view = authority.view(mt.token)
    authority.move(mt.token, view.version, view.legal[0])
    overview_html(authority.overview(TEACHER))
    assert drawn == [view.code], "only the table that changed is drawn again"
    hands = [c for s in range(2) for c in authority.state_of(view.table_id).hand(s)]
    seen = next(v for v in authority.overview(TEACHER) if v.code == view.code)
    assert teacher.table_picture(seen).startswith("<svg")
    public = seen.player_view if isinstance(seen.player_view, dict) else json.loads(seen.player_view)
    held = json.dumps(public)  # what the picture is drawn from: card names appear in it as whole JSON strings
    assert hands and public["hand"] == [], "the picture is drawn from the public view: no Command"
    assert not [c.name for c in hands if json.dumps(c.name) in held], "no card held in a hand is in what it draws"


def test_each_table_says_in_a_word_whether_hint_is_allowed_there(authority):
    practice = authority.create_table("bosk", {}, ["person", "greedy"], visitor="t4", label="Practice",
                                      hint_allowed=True)
    match = authority.create_table("bosk", {}, ["person", "greedy"], visitor="t5", label="Match")
    t = TeacherOverview(client=authority, follow=False)
    t.code_box.value = TEACHER
    assert t.show()
    rows = {code: row for row in t.tables.value.split("<tr")[2:] for code in (practice.code, match.code)
            if code in row}
    assert "data-label='Hint'>allowed</td>" in rows[practice.code]
    assert "data-label='Hint'>off</td>" in rows[match.code]
    assert "<th align=left>Hint</th>" in t.tables.value
