"""The experiment views: scenes drawn from snapshots, the teacher page and the Join box on an in-process authority."""

from __future__ import annotations

import subprocess
import sys

import pytest
from exp_helpers import TEACHER

import harness
from treegames.experiments import ExperimentAuthority, Source, domain_for, student_rng
from treegames.experiments.client import local
from treegames.ui import experiments as ui_experiments
from treegames.ui.experiments import (
    JoinBox,
    TeacherPage,
    join_url,
    projector_scene,
    qr_svg,
    student_scene,
    summary_html,
)
from treegames.ui.safety import unguarded_callbacks


@pytest.fixture
def client(store, clock):
    return local(ExperimentAuthority(store, TEACHER, clock=clock, source=Source.LOCAL))


def test_the_experiments_package_imports_no_ui_library():
    code = "import sys, treegames.experiments.http, treegames.experiments.client; " \
           "print([m for m in ('ipywidgets', 'ipycanvas', 'IPython') if m in sys.modules])"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def filled_class(client, students=3, rolls=20):
    code = client.open_experiment(teacher_code=TEACHER, kind="sun-die", settings={"stacks": [4, 3, 2]})["code"]
    domain = domain_for("sun-die", {"stacks": [4, 3, 2]})
    tokens = []
    for i in range(students):
        me = client.join(code=code)
        tokens.append(me["token"])
        client.contribute(token=me["token"], batch_id="a", counts=dict(domain.simulate(student_rng(seed=i), rolls)))
    return code, tokens


def test_projector_scene_shows_n_students_and_every_pseudonym(client):
    code, _ = filled_class(client)
    snap = client.snapshot(code=code)
    scene = projector_scene(snap)
    texts = " | ".join(scene.texts())
    assert "n = 60 rolls from 3 students" in texts
    for m in snap["members"]:
        assert f"{m['pseudonym']} (20)" in texts
    assert "1/√n guide (dashed)" in texts and "Chi-square" in texts
    tags = {t for op in scene.ops for t in getattr(op, "tags", ())}
    assert ("exact", 0) in tags and ("class", 0) in tags


def test_projector_bars_are_as_tall_as_the_shares(client):
    code, _ = filled_class(client)
    snap = client.snapshot(code=code)
    scene = projector_scene(snap)
    bars = next(op for op in scene.ops if getattr(op, "tags", ()) and op.tags[0] == ("class", 0))
    heights = [float(b[0][1] - b[2][1]) for b in bars.points]
    shares = [c / snap["n"] for c in snap["counts"] if c]
    assert heights == pytest.approx([heights[0] * s / shares[0] for s in shares])


def test_the_summary_text_carries_the_same_counts(client):
    code, _ = filled_class(client)
    snap = client.snapshot(code=code)
    text = summary_html(snap)
    for k, c in zip(snap["outcomes"], snap["counts"], strict=True):
        assert f"data-outcome='{k}'>{c}<" in text


def test_student_scene_puts_your_tally_beside_the_class(client):
    code, tokens = filled_class(client)
    scene = student_scene(client.snapshot(code=code), client.me(token=tokens[0]))
    assert "You: n = 20" in scene.texts() and "Class: n = 60" in scene.texts()
    assert scene.width == 400


def test_qr_code_is_inline_svg_of_the_join_link():
    url = join_url("K7MPX", "sun-die", base="http://10.0.0.5:8866")
    assert url == "http://10.0.0.5:8866/voila/render/aspens/sun-die-probability.ipynb?experiment=K7MPX"
    svg = qr_svg(url)
    assert svg.startswith("<svg") and "http" not in svg.split(">", 1)[1]


def test_teacher_page_refuses_a_wrong_code_and_opens_with_the_right_one(client):
    page = TeacherPage(client)
    assert unguarded_callbacks(page) == []
    page.teacher.value = "wrong"
    page.open_button.click()
    assert "teacher code is wrong" in page.message.value
    page.teacher.value = TEACHER
    page.fields["sun-die"]["stacks"].value = "5, 1, 1"
    page.open_button.click()
    assert "Round 1 is open" in page.message.value
    assert page.code in page.join_panel.value and "<svg" in page.join_panel.value
    page.feed.stop()


def test_teacher_page_says_what_is_wrong_with_the_stacks(client):
    page = TeacherPage(client)
    page.teacher.value = TEACHER
    page.fields["sun-die"]["stacks"].value = "4, x"
    page.open_button.click()
    assert "whole numbers" in page.message.value


def test_join_box_rolls_and_keeps_its_pseudonym_after_leaving(client):
    code, _ = filled_class(client, students=1)
    box = JoinBox(client, code=code)
    assert unguarded_callbacks(box) == []
    name = box.me["pseudonym"]
    box.roll_buttons[1].click()
    box.roll_buttons[1].click()
    assert box.me["n"] == 20
    box.faces.value = "2 9"
    box.enter_button.click()
    assert "faces 2 to 7" in box.message.value
    box.faces.value = "2 7"
    box.enter_button.click()
    box.feed.stop()
    again = JoinBox(client, code=code, token=box.token)  # a new kernel for the same student
    assert again.me["pseudonym"] == name and again.me["n"] == 20 and sum(again.me["physical"]) == 2
    assert "Welcome back" in again.message.value
    again.feed.stop()
    assert client.snapshot(code=code)["n"] == 40


def test_a_students_page_shows_the_class_with_its_own_batch_at_once_not_after_the_feeds_rest(client, monkeypatch):
    monkeypatch.setattr(ui_experiments, "STUDENT_FEED_INTERVAL", 600.0)  # a rest far longer than the wait below
    code, _ = filled_class(client, students=1)
    box = JoinBox(client, code=code)
    try:
        before = harness.wait_until(lambda: box.snap, timeout=10, what="the first class snapshot")["n"]
        box.roll_buttons[1].click()
        assert box.me["n"] == 10
        harness.wait_until(lambda: box.snap["n"] == before + 10, timeout=10,
                           what="the class's count with the page's own batch")
        assert f"The class: <span class='exp-class-n'>{before + 10}</span>" in box.status.value
    finally:
        box.feed.stop()


def test_join_box_refuses_a_wrong_code_in_words(client):
    box = JoinBox(client, code="ZZZZZ")
    assert "no class experiment has the code" in box.message.value


def test_a_tournament_block_from_the_box(client):
    code = client.open_experiment(teacher_code=TEACHER, kind="tournament",
                                  settings={"game": "aspens", "bots": ["greedy", "random"], "games": 8, "seed": 2,
                                            "block": 4})["code"]
    box = JoinBox(client, code=code)
    box.play_button.click()
    assert "4 new games counted" in box.message.value
    box.play_button.click()
    box.play_button.click()
    assert "complete" in box.message.value
    box.feed.stop()
    assert client.snapshot(code=code)["games_done"] == 8


def test_teacher_controls_run_the_round(client):
    page = TeacherPage(client)
    page.teacher.value = TEACHER
    page.open_button.click()
    code = page.code
    me = client.join(code=code)
    client.contribute(token=me["token"], batch_id="a", counts={"0": 4})
    page.freeze_button.click()
    assert client.snapshot(code=code)["status"] == "frozen"
    page.reopen_button.click()
    page.export_button.click()
    assert "data:text/csv;base64," in page.download.value and me["token"] not in page.csv_text
    page.delete_button.click()
    assert "again" in page.message.value and client.snapshot(code=code)["n"] == 4
    page.delete_button.click()
    assert client.snapshot(code=code)["n"] == 0
    page.kind.value = "regroup"
    page.new_round_button.click()
    assert "Round 2 is open" in page.message.value
    assert client.snapshot(code=code)["kind"] == "regroup"
    page.feed.stop()


def test_the_teacher_excludes_a_student_with_the_toggle(client):
    page = TeacherPage(client)
    page.teacher.value = TEACHER
    page.open_button.click()
    me = client.join(code=page.code)
    client.contribute(token=me["token"], batch_id="a", counts={"3": 5})
    page._show(client.snapshot(code=page.code))
    page._listed_at = 0.0
    page._show(client.snapshot(code=page.code))
    label, toggle = page.students.children[0].children
    assert me["pseudonym"] in label.value and "local-kernel" in label.value
    toggle.value = False
    assert client.snapshot(code=page.code)["n"] == 0
    assert "excluded" in page.message.value
    page.feed.stop()


def test_the_projector_and_student_charts_table_the_counts_their_bars_draw(client):
    code, tokens = filled_class(client)
    snap = client.snapshot(code=code)
    table = projector_scene(snap).numbers
    assert list(table.column("class count").values()) == snap["counts"]
    assert list(table.column("exact chance").values()) == snap["exact"]
    assert list(table.column("class share").values()) == [c / snap["n"] for c in snap["counts"]]
    me = client.me(token=tokens[0])
    mine = student_scene(snap, me).numbers
    assert list(mine.column("your count").values()) == me["counts"]
    assert list(mine.column("class count").values()) == snap["counts"]
