"""The Mighty Trees play dashboard through its real handlers: clicks on the canvas, buttons, the hand cover."""

from __future__ import annotations

import random

import pytest

from treegames import core
from treegames import mighty_trees as mt
from treegames.ui import safety
from treegames.ui.canvas import client_event
from treegames.ui.mighty_trees.clicks import source_of, targets_of
from treegames.ui.mighty_trees.play import MightyTreesPlay, place_of, tag_of
from treegames.ui.scene import Polygons
from treegames.ui.text import escape

PERSON = "human"


def boxes(scene) -> dict:
    """{tag: (x0, y0, x1, y1)} of every tagged polygon."""
    out = {}
    for op in scene.ops:
        if isinstance(op, Polygons) and op.tags:
            for pts, tag in zip(op.points, op.tags, strict=True):
                if isinstance(tag, tuple):
                    out.setdefault(tag, (pts[:, 0].min(), pts[:, 1].min(), pts[:, 0].max(), pts[:, 1].max()))
    return out


def click_tag(w: MightyTreesPlay, tag) -> None:
    """Click the middle of a tagged place, as the page's canvas would report it."""
    box = boxes(w.board_view.last_scene)[tag]
    x, y = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    client_event(w.board_view.canvas, {"event": "mouse_down", "x": x, "y": y})


def drawn_text(w: MightyTreesPlay) -> str:
    """Every label on the table as drawn last."""
    return " ".join(w.board_view.last_scene.texts())


def private_words(card) -> str:
    """Words only a face-up copy of the card puts on the table."""
    return card.common if card.kind is mt.Kind.TREE else card.name


def do_by_clicks(w: MightyTreesPlay, action) -> None:
    """Make ``action`` the way a person would: the End turn button, or a card/tree then its target."""
    s = w.state
    if action.verb is mt.Verb.END:
        w.end_turn_button.click()
        return
    view = s.view_for(s.mover)
    click_tag(w, source_of(action, s.mover))
    target = sorted(targets_of(action, view))[0]
    click_tag(w, target)
    if action.verb is mt.Verb.PLANT and action.player >= 0:
        assert w.preview_box.layout.display is None
        assert "sun" in w.preview.value and "shade" in w.preview.value
        w.confirm_button.click()


@pytest.mark.slow  # whole games by clicks: make test runs them, test-quick does not
@pytest.mark.parametrize("chooser,opponent", [("greedy", "greedy"), ("random", "random")])
def test_a_person_plays_a_whole_two_player_game_by_clicks(chooser, opponent):
    w = MightyTreesPlay(seed=3, seats=(PERSON, opponent), max_turns=80)
    pick = mt.GreedyBot(random.Random(5)) if chooser == "greedy" else core.RandomBot(random.Random(3))
    moves = 0
    while not w.state.is_terminal() and moves < 400:
        if not w.is_human_turn():
            w.run_auto()
            continue
        action = pick.choose(w.state)
        before = len(w.timeline.states)
        do_by_clicks(w, action)
        assert len(w.timeline.states) == before + 1, w.message.value
        assert w.state.history[-1] == action
        moves += 1
    assert w.state.is_terminal()
    assert moves > 3
    assert safety.unguarded_callbacks(w) == []


def test_an_attack_is_previewed_then_confirmed_or_cancelled():
    for seed in range(1, 80):
        w = MightyTreesPlay(seed=seed, seats=(PERSON, "random"), max_turns=80)
        pick = core.RandomBot(random.Random(seed))
        attack = None
        for _ in range(200):
            if w.state.is_terminal():
                break
            if not w.is_human_turn():
                w.run_auto()
                continue
            attacks = [a for a in w.state.legal_actions() if a.verb is mt.Verb.PLANT and a.player >= 0]
            if attacks:
                attack = attacks[0]
                break
            do_by_clicks(w, pick.choose(w.state))
        if attack is not None:
            break
    else:
        pytest.skip("no attack came up")
    s = w.state
    click_tag(w, ("hand", attack.card))
    click_tag(w, ("understory", attack.player, attack.slot))
    assert w.state is s and w.pending == attack
    assert w.preview_box.layout.display is None
    assert s.describe(attack).split(":")[0] in w.preview.value.replace("&#x27;", "'")
    w.cancel_button.click()
    assert w.state is s and w.pending is None and w.preview_box.layout.display == "none"
    click_tag(w, ("hand", attack.card))
    click_tag(w, ("understory", attack.player, attack.slot))
    w.confirm_button.click()
    assert w.state.history[-1] == attack
    assert "sun" in w.state.last_event and "shade" in w.state.last_event


def test_the_hand_cover_comes_down_between_two_people():
    w = MightyTreesPlay(seed=2, seats=(PERSON, PERSON))
    w.run_auto()
    s = w.state
    first = s.mover
    other = 1 - first
    assert "press to show your hand" in drawn_text(w)
    for p in (0, 1):
        for card in s.hand(p):
            assert private_words(card) not in drawn_text(w)
    assert w.action_list.options == ()
    click_tag(w, ("cover",))
    assert all(card.name.split()[0] in drawn_text(w) for card in s.hand(first))
    assert not any(private_words(card) in drawn_text(w) for card in s.hand(other))
    assert len(w.action_list.options) == len(s.legal_actions())
    # first plays until the turn passes
    chooser = mt.GreedyBot(random.Random(1))
    while w.state.mover == first or w.state.current_player == core.CHANCE:
        if w.state.current_player == core.CHANCE:
            w.run_auto()
            continue
        do_by_clicks(w, chooser.choose(w.state))
    s = w.state
    assert s.mover == other
    text = drawn_text(w)
    assert f"Pass to P{other + 1}" in text
    for p in (0, 1):
        for card in s.hand(p):
            assert private_words(card) not in text, card.name
    assert "- " + s.hand(other)[0].name not in w.explanation.value
    assert w.odds_panel.body.value == ""
    w.show_hand_button.click()
    assert all(card.name.split()[0] in drawn_text(w) for card in s.hand(other))
    assert not any(private_words(card) in drawn_text(w) for card in s.hand(first))


def test_a_bots_hand_is_never_drawn_unless_the_teacher_view_is_on():
    w = MightyTreesPlay(seed=4, seats=(PERSON, "greedy", "greedy"), players=3)
    w.run_auto()
    s = w.state
    for bot in (1, 2):
        for card in s.hand(bot):
            assert private_words(card) not in drawn_text(w)
    w.teacher_box.value = True
    text = drawn_text(w)
    for bot in (1, 2):
        for card in s.hand(bot):
            assert card.name in text
    assert w.board_view.canvas.height == w.board_view.last_scene.height


def test_an_illegal_choice_is_explained_by_the_engine_and_nothing_changes():
    for seed in range(1, 40):
        w = MightyTreesPlay(seed=seed, seats=(PERSON, "greedy"))
        w.run_auto()
        s = w.state
        t, wat = s.conditions()
        unfit = [c for c in s.hand(s.mover) if c.kind is mt.Kind.TREE and not c.fits(t, wat)]
        if unfit and w.is_human_turn():
            break
    else:
        pytest.skip("no unfit tree in a first hand")
    steps = len(w.timeline.states)
    click_tag(w, ("hand", unfit[0].id))
    assert w.selected == ("hand", unfit[0].id)
    empty = [i for i, tree in enumerate(s.understory(s.mover)) if tree is None][0]
    click_tag(w, ("understory", s.mover, empty))
    assert "Not allowed" in w.message.value
    assert "temperature" in w.message.value or "water" in w.message.value
    assert len(w.timeline.states) == steps and w.state is s


def test_clicks_on_a_bots_turn_or_off_the_table_change_nothing():
    w = MightyTreesPlay(seed=1, seats=("greedy", "greedy"))
    steps = len(w.timeline.states)
    client_event(w.board_view.canvas, {"event": "mouse_down", "x": 5000, "y": 5000})
    client_event(w.board_view.canvas, {"event": "mouse_down", "x": float("nan"), "y": 3})
    assert len(w.timeline.states) == steps


def test_place_names_round_trip():
    for tag in [("hand", 3), ("understory", 1, 0), ("canopy", 2, 1), ("side", 4), ("litter",), ("habitat",),
                ("cover",)]:
        assert tag_of(place_of(tag)) == tag
    assert tag_of("no such place") is None


def test_new_game_with_more_players_resizes_the_table():
    w = MightyTreesPlay(seed=1, seats=("greedy", "greedy"))
    small = w.board_view.canvas.height
    w.new_game(seed=2, seats=("greedy",) * 5, players=5)
    w.run_auto(max_steps=30)
    assert w.board_view.canvas.height > small
    assert w.board_view.last_scene.height == w.board_view.canvas.height


def test_the_odds_tab_shows_the_movers_odds_only_to_the_mover():
    w = MightyTreesPlay(seed=6, seats=(PERSON, "greedy"))
    w.run_auto()
    assert w.is_human_turn()
    assert "Odds for P" in w.odds_panel.heading.value
    assert "%" in w.odds_panel.body.value


def test_the_keyboard_chooses_a_card_and_plays_it():
    w = MightyTreesPlay(seed=6, seats=(PERSON, "greedy"))
    w.run_auto()
    assert w.is_human_turn()
    w.key("Tab")
    assert w.cursor is not None and tag_of(w.cursor)[0] in ("hand", "understory", "canopy")
    w.key("Enter")
    assert w.selected == tag_of(w.cursor) or w.selected is not None
    targets = w.keyboard_targets()
    assert targets and all(tag_of(t) in w.highlights(w.state) or tag_of(t) == w.selected for t in targets)
    steps = len(w.timeline.states)
    target = next(t for t in targets if tag_of(t) != w.selected)
    w.cursor = target
    w.key("Enter")
    if w.pending is not None:
        w.confirm_button.click()
    assert len(w.timeline.states) == steps + 1


def test_during_a_bots_turn_no_panel_names_the_bots_cards():
    w = MightyTreesPlay(seed=5, seats=(PERSON, "greedy"))
    w.run_auto()
    w.play(mt.Action(mt.Verb.DISCARD, w.state.hand(w.state.mover)[0].id, place="hand"))
    w.end_turn()
    while not (w.state.phase is mt.Phase.BATTLE and w.state.mover == 1):
        assert w.step()
    s = w.state
    bot_cards = [private_words(c) for c in s.hand(1)]
    pages = [w.explanation.value, w.message.value, w.words.value, w.odds_panel.body.value, drawn_text(w),
             " ".join(label for label, _ in w.event_log.options), str(w.action_list.options)]
    for words in bot_cards:
        for page in pages:
            assert words not in page, (words, page[:200])
    assert "Battle Phase" in w.explanation.value  # the public lines are still there


def test_after_a_disaster_each_tree_is_listed_with_its_strength_and_fate():
    for seed in range(1, 120):
        w = MightyTreesPlay(seed=seed, seats=("random", "random"), answer=False)
        found = None
        for _ in range(600):
            if w.state.is_terminal():
                break
            before = w.state
            w.step()
            last = w.state.history[-1] if w.state.history else None
            if (last is not None and last.verb is mt.Verb.DISASTER and before.current_player != core.CHANCE
                    and sum(before.tree_count(p) for p in range(2)) > 0):
                found = before
                break
        if found is not None:
            break
    else:
        pytest.skip("no disaster with trees on the table")
    after = w.state
    text = w.explanation.value
    assert "What it did to each tree" in text
    for p in range(2):
        for tree in found.understory(p) + found.canopy(p):
            if tree is not None:
                assert tree.name in text
    died = [t for p in range(2) for t in found.understory(p) + found.canopy(p) if t is not None
            and t.id not in {u.id for q in range(2) for u in after.understory(q) + after.canopy(q) if u is not None}]
    assert text.count(">died<") == len(died)


def test_an_eight_seat_game_plays_to_the_end_on_a_400_pixel_table():
    w = MightyTreesPlay(seed=3, seats=("greedy",) * 8, players=8)
    w.run_auto()
    s = w.state
    assert s.num_players == 8 and s.is_terminal()
    scene = w.board_view.last_scene
    assert scene.width == 400 and scene.height == w.board_view.canvas.height
    text = drawn_text(w)
    assert all(f"P{p + 1}" in text for p in range(8)) and "✖" in text and "▼" in text
    assert len(w.form.seat_boxes) == 8 and w.form.option_boxes["players"].options[-1][1] == 8


def test_the_new_game_form_says_what_the_capture_rule_and_the_seat_count_mean():
    w = MightyTreesPlay(seed=1, seats=("human", "greedy"))
    note = w.rules_note.value
    assert "at once" in note and "printed rule" in note and "our variant for fairness" in note
    assert "more can play" in note and "7 and 8" in note
    for text in mt.words.DEPARTURES.values():  # every departure, in the engine's words
        assert escape(text) in note
    assert "capture_at_round_end" in w.form.option_boxes
    assert len(w.form.seat_boxes) == 8  # two seats given: the form still offers every seat, the rest bots
    w.form.option_boxes["capture_at_round_end"].value = True
    w.form.option_boxes["players"].value = 7
    w.form.start_button.click()
    assert w.state.game.capture_at_round_end is True and w.state.num_players == 7 and len(w.seats) == 7


def test_the_page_says_a_second_canopy_tree_captured_at_once():
    w = MightyTreesPlay(seed=1, seats=("greedy", "greedy"))
    w.run_auto()
    final = w.state
    assert final.winners() and final.history[-1].verb is mt.Verb.GROW
    shown = w.explanation_html(final)
    assert "Capturing a Habitat" in shown and "at once" in shown and "Winning" in shown
