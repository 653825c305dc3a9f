"""The kit's accessibility parts without a browser: move box, board tables, announcements, the engines' words."""

from __future__ import annotations

import html
import re

import pytest

from treegames import aspens, bosk, core
from treegames import mighty_trees as mt
from treegames.ui import access
from treegames.ui.aspens.play import AspensPlay
from treegames.ui.bosk.play import BoskPlay
from treegames.ui.mighty_trees.play import MightyTreesPlay


def to_person(w) -> None:
    """Step until a person is to move."""
    for _ in range(50):
        if w.is_human_turn():
            return
        w.step()
    raise AssertionError("no person's turn")


def test_a_typed_move_is_played_as_a_click_and_logged_in_the_engines_words():
    w = AspensPlay(seed=1)
    to_person(w)
    notation, words = w.move_choices(w.state)[0]
    w.move_box.box.value = notation
    w.move_box._entered()  # Enter (no event loop here: played at once)
    assert w.timeline.cursor >= 2 and w.move_box.box.value == ""
    assert w.log_label(w.timeline.cursor if w.timeline.cursor == 2 else 2).endswith(words)


def test_an_enter_whose_text_arrives_late_still_plays_the_move_once():
    w = AspensPlay(seed=1)
    to_person(w)
    notation, _words = w.move_choices(w.state)[0]
    box = w.move_box
    box._entered()  # Enter reaches the kernel first, on an empty box: nothing is played yet
    before = w.state
    assert w.state is before, "an empty box plays nothing"
    box.box.value = notation  # the text arrives (after the wait on a busy server)
    assert w.state is not before and box.box.value == ""
    played = w.state
    box.box.value = notation  # more text without a new Enter is not played
    assert w.state is played


def test_a_picked_list_entry_is_read_back_as_its_notation():
    label = access.choice_label("seed H8", "Aspen seeds a starting tree on H8.")
    assert access.notation_of(label) == "seed H8"
    assert access.notation_of("  grow-up D5 ") == "grow-up D5"


def test_text_that_is_not_a_move_is_refused_with_the_engines_reason_and_nothing_changes():
    w = AspensPlay(seed=1)
    to_person(w)
    before = w.state
    w.move_box.box.value = "plant a tree please"
    assert not w.move_box.submit()
    assert w.state is before and "Not a move" in w.message.value
    assert w.move_box.box.value == "plant a tree please", "the text stays so it can be corrected"


@pytest.mark.parametrize("typed", ["plant a tree please", "", "   "])
def test_a_refused_typed_move_suggests_only_moves_this_person_can_play_now(typed):
    w = AspensPlay(seed=1)
    to_person(w)
    w.move_box.box.value = typed
    assert not w.move_box.submit()
    words = html.unescape(re.sub("<[^>]+>", "", w.message.value))
    legal = {str(a) for a in w.state.legal_actions()}
    suggested = set(re.findall(r"'([^']+)'", words)) - {typed}
    assert suggested and suggested <= legal, f"only moves playable now: {suggested - legal}"
    assert "sun " not in words and "wind " not in words and "first " not in words, "no chance outcome is suggested"
    assert f"all {len(legal)}" in words, "the box's list holds the rest"
    assert ("Type a move first" in words) == (not typed.strip())


def test_every_legal_move_is_listed_and_described_by_the_engine():
    w = BoskPlay(seed=1)
    to_person(w)
    s = w.state
    listed = dict(w.move_choices(s))
    assert set(listed) == {str(a) for a in s.legal_actions()}
    assert all(listed[str(a)] == s.describe(a) for a in s.legal_actions())
    assert f"{len(listed)} legal move" in w.move_box.count.value


def test_no_moves_are_listed_while_a_bot_or_the_dice_are_to_act():
    w = AspensPlay(seed=1)
    assert w.state.current_player == core.CHANCE
    assert w.move_choices(w.state) == [] and w.move_box.play_button.disabled


def test_each_moment_is_announced_once_and_a_refresh_does_not_repeat_it():
    w = AspensPlay(seed=1, aspen="greedy", pine="greedy")
    w.run_auto(6)
    said = list(w.announcer.said)
    w.refresh()
    w.refresh()
    assert w.announcer.said == said, "a refresh of the same moment says nothing new"
    w.back()
    assert len(w.announcer.said) == len(said) + 1 and w.announcer.said[-1].startswith(f"At step {w.timeline.cursor}")
    assert len(set(said)) == len(said)


def test_the_aspens_table_has_a_row_per_board_row_and_marks_where_the_mover_may_play():
    s = aspens.new_game().new_initial_state().apply(aspens.ChooseFirst(aspens.ASPEN))
    (caption, columns, rows), = aspens.words.describe_board(s)
    assert [r for r, _ in rows] == list("ABCDEFGHIJKLMNO") and columns == [str(c) for c in range(1, 16)]
    seeds = {f"{r}{columns[i]}" for r, cells in rows for i, c in enumerate(cells) if "(may seed)" in c}
    assert seeds == {aspens.cell_name(c) for c in s.legal_targets()["seed"]}
    assert "Aspen owns 0 spaces" in caption


def test_the_bosk_tables_name_every_tree_where_the_engine_has_it():
    w = BoskPlay(seed=1, seats=("greedy", "greedy"))
    w.run_auto(12)
    s = w.state
    trees, _squares = bosk.words.describe_board(s)
    words = {f"{col}{row}": cell for row, cells in trees[2] for col, cell in zip(trees[1], cells, strict=True)}
    for (r, c), (owner, value) in s.trees_on_board().items():
        assert words[bosk.intersection_name(r, c)] == f"{s.game.player_name(owner)} {value}"


def test_the_mighty_trees_tables_never_name_a_hand_the_viewer_may_not_see():
    w = MightyTreesPlay(seed=1)
    w.run_auto(30)
    s = w.state
    public = mt.words.describe_board(s, viewer=mt.PUBLIC)
    text = str(public)
    hidden = [card for p in range(s.game.num_players) for card in s.hand(p)]
    assert hidden
    for card in hidden:
        assert mt.words.card_words(card) not in text, card.name
    mine = mt.words.describe_board(s, viewer=0)
    assert any("P1's Command" in caption for caption, _c, _r in mine)
    assert not any("P2's Command" in caption for caption, _c, _r in mine)


def test_tables_are_html_tables_with_captions_and_headers():
    html = access.tables_html([("Cap <1>", ["a"], [("r", ["x & y"])])])
    assert "<caption>Cap &lt;1&gt;</caption>" in html and "<th scope='col'>a</th>" in html
    assert "<th scope='row'>r</th><td>x &amp; y</td>" in html


def test_the_skip_link_points_at_the_boards_anchor():
    w = AspensPlay(seed=1)
    target = access.anchor_id(w)
    assert f"href='#{target}'" in w.skip_link.value and f"id='{target}'" in w.board_anchor.value
    assert w.board_view.canvas.tooltip and w.board_view.canvas.description == ""
