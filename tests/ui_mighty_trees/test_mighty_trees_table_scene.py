"""The Mighty Trees card table scene and its clicks, without a browser."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mt_positions import play_until

from treegames import core
from treegames import mighty_trees as mt
from treegames.ui.mighty_trees import scene as ts
from treegames.ui.mighty_trees.clicks import (
    ClickPlanner,
    CoverKeeper,
    Outcome,
    source_of,
    targets_of,
    viewer_for,
)
from treegames.ui.scene import Circles, Polygons


def battle(seed=3, players=3, turn=1):
    """A Battle Phase at or after ``turn``."""
    return play_until(seed, players, lambda s: s.phase is mt.Phase.BATTLE and s.turn >= turn)


def tag_boxes(scene):
    """{tag: (x0, y0, x1, y1)} of every tagged polygon."""
    out = {}
    for op in scene.ops:
        if isinstance(op, Polygons) and op.tags:
            for pts, tag in zip(op.points, op.tags, strict=True):
                if tag is not None:
                    out.setdefault(tag, (pts[:, 0].min(), pts[:, 1].min(), pts[:, 0].max(), pts[:, 1].max()))
    return out


def centre(box):
    return ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)


def private_words(card) -> str:
    """Words that only a face-up copy of this card would put on the table (its common name, or its name)."""
    return card.common if card.kind is mt.Kind.TREE else card.name


def test_only_the_viewers_command_is_drawn():
    state = battle()
    me = state.mover
    scene = ts.table_scene(state.view_for(me))
    text = " ".join(scene.texts())
    for card in state.hand(me):
        assert card.name.split()[0] in text
    for other in range(state.num_players):
        if other != me:
            for card in state.hand(other):
                assert private_words(card) not in text, card.name
    hands = {t[1] for t in tag_boxes(scene) if t[0] == "hand"}
    assert hands == {c.id for c in state.hand(me)}


def test_the_hand_cover_hides_the_viewers_command_too():
    state = battle()
    me = state.mover
    scene = ts.table_scene(state.view_for(me), ts.TableOptions(covered=True, cover_text="Pass to P2"))
    text = " ".join(scene.texts())
    assert "Pass to P2" in text
    for card in state.hand(me):
        assert private_words(card) not in text
    assert ("cover",) in tag_boxes(scene)
    assert not [t for t in tag_boxes(scene) if t[0] == "hand"]


def test_teacher_view_reveals_the_other_commands():
    state = battle()
    me = state.mover
    revealed = {p: state.hand(p) for p in range(state.num_players) if p != me}
    text = " ".join(ts.table_scene(state.view_for(me), ts.TableOptions(revealed=revealed)).texts())
    for cards in revealed.values():
        for card in cards:
            assert card.name in text


def test_every_side_has_two_understory_and_two_canopy_slots_that_a_click_finds():
    state = battle(players=4)
    scene = ts.table_scene(state.view_for(state.mover))
    boxes = tag_boxes(scene)
    for p in range(4):
        for place in ("understory", "canopy"):
            for s in range(2):
                tag = (place, p, s)
                assert tag in boxes
                assert ts.hit_at(scene, *centre(boxes[tag])) == tag
    for card in state.hand(state.mover):
        assert ts.hit_at(scene, *centre(boxes[("hand", card.id)])) == ("hand", card.id)


def test_non_finite_or_off_table_clicks_hit_nothing():
    scene = ts.table_scene(battle().view_for(0))
    assert ts.hit_at(scene, math.nan, 10) is None
    assert ts.hit_at(scene, 10, math.inf) is None
    assert ts.hit_at(scene, -50, -50) is None
    assert ts.hit_at(scene, "10", 3) is None


@pytest.mark.parametrize("players", [2, 3, 6])
def test_the_table_fits_a_phone_and_keeps_one_height_per_game(players):
    state = battle(players=players)
    scene = ts.table_scene(state.view_for(state.mover))
    assert scene.width <= 420
    assert scene.height == ts.scene_height(players)
    for op in scene.ops:
        if isinstance(op, Polygons):
            assert op.points[:, :, 0].max() <= scene.width and op.points[:, :, 1].max() <= scene.height


def test_draw_pile_litter_and_sols_show_the_views_numbers():
    state = play_until(5, 2, lambda s: s.phase is mt.Phase.BATTLE and s.spent == 1 and s.litter_cards)
    view = state.view_for(state.mover)
    scene = ts.table_scene(view)
    texts = scene.texts()
    assert str(view.draw_size) in texts
    assert f"litter ({len(view.litter)})" in texts
    suns = [op for op in scene.ops if isinstance(op, Circles)]
    lit = sum(int(tuple(f) == (0xF0, 0xE4, 0x42)) for op in suns for f in op.fill)
    assert lit == view.sols == 2


def test_tree_cards_say_whether_they_fit_as_the_engine_decides():
    state = battle()
    view = state.view_for(state.mover)
    texts = ts.table_scene(view).texts()
    trees = [c for c in view.hand if c.kind is mt.Kind.TREE]
    fits = sum(c.fits(view.temperature, view.water) for c in trees)
    assert texts.count("✓ fits the habitat now") == fits
    assert texts.count("✗ does not fit now") == len(trees) - fits


def test_gauges_list_every_trend_cloud_and_lingering_disaster_with_its_rounds():
    state = play_until(
        0, 3, lambda s: s.phase is mt.Phase.BATTLE and s.lingering and s.trend_cards
        and any(c.kind is mt.Kind.CLOUD for c, _, _ in s.weather)
    )
    view = state.view_for(state.mover)
    text = " ".join(ts.table_scene(view).texts())
    for card, _owner, rounds in view.weather:
        assert card.name[:8] in text
        assert f"{rounds} round" in text
    for card in view.trends:
        assert card.name[:8] in text
    assert f"now {view.temperature}" in text and f"now {view.water}" in text
    base_t, parts_t, now_t = ts.gauge_parts(view, ts._cards.Element.TEMPERATURE)
    assert now_t == max(1, min(9, base_t + sum(c for _, c, _ in parts_t)))


def test_the_chosen_card_and_its_targets_are_outlined():
    state = battle()
    me = state.mover
    view = state.view_for(me)
    card = view.hand[0]
    plain = ts.table_scene(view)
    chosen = ts.table_scene(view, ts.TableOptions(selected=card.id, targets=frozenset({("understory", me, 0)})))
    def strokes(scene, colour):
        return sum(len(op.points) for op in scene.ops if isinstance(op, Polygons) and op.stroke == colour)
    assert strokes(chosen, ts.SELECT) == strokes(plain, ts.SELECT) + 1
    assert strokes(chosen, ts.TARGET) > strokes(plain, ts.TARGET)
    for place in [("litter",), ("habitat",), ("side", (me + 1) % state.num_players)]:
        lit = ts.table_scene(view, ts.TableOptions(selected=card.id, targets=frozenset({place})))
        assert strokes(lit, ts.TARGET) == strokes(plain, ts.TARGET) + 1, place


# ---------------------------------------------------------------- clicks


def test_choosing_a_plantable_tree_lights_the_empty_understory_and_a_click_plants_it():
    state = play_until(3, 2, lambda s: s.phase is mt.Phase.BATTLE and any(
        a.verb is mt.Verb.PLANT and a.player < 0 for a in s.legal_actions()))
    me = state.mover
    plant = next(a for a in state.legal_actions() if a.verb is mt.Verb.PLANT and a.player < 0)
    planner = ClickPlanner(state, ("hand", plant.card))
    assert ("understory", me, 0) in planner.targets() or ("understory", me, 1) in planner.targets()
    target = sorted(planner.targets() & {("understory", me, 0), ("understory", me, 1)})[0]
    result = planner.click(target)
    assert result.outcome is Outcome.APPLY and result.action == plant
    assert state.apply(result.action).tree_count(me) == state.tree_count(me) + 1


def test_an_unfit_tree_is_refused_with_the_engines_reason():
    state = play_until(1, 2, lambda s: s.phase is mt.Phase.BATTLE and any(
        c.kind is mt.Kind.TREE and not c.fits(*s.conditions()) for c in s.hand(s.mover)))
    me = state.mover
    tree = next(c for c in state.hand(me) if c.kind is mt.Kind.TREE and not c.fits(*state.conditions()))
    planner = ClickPlanner(state, ("hand", tree.id))
    empty = [s for s, t in enumerate(state.understory(me)) if t is None]
    result = planner.click(("understory", me, empty[0]) if empty else ("habitat",))
    assert result.outcome is Outcome.REFUSE
    assert result.message == state.why_not(mt.Action(mt.Verb.PLANT, tree.id))
    assert "Plant Trees" in result.message


def test_an_attack_is_previewed_with_the_combat_sum_before_it_happens():
    state = play_until(2, 2, lambda s: s.phase is mt.Phase.BATTLE and any(
        a.verb is mt.Verb.PLANT and a.player >= 0 for a in s.legal_actions()), limit=6000)
    attack = next(a for a in state.legal_actions() if a.verb is mt.Verb.PLANT and a.player >= 0)
    result = ClickPlanner(state, ("hand", attack.card)).click(("understory", attack.player, attack.slot))
    assert result.outcome is Outcome.PREVIEW and result.action == attack
    assert "sun" in result.message and "shade" in result.message
    assert result.message == state.describe(attack)


def test_attacking_a_canopy_tree_is_refused_by_rule_2():
    state = play_until(2, 2, lambda s: s.phase is mt.Phase.BATTLE and any(
        c.kind is mt.Kind.TREE and c.fits(*s.conditions()) for c in s.hand(s.mover))
        and any(t is not None for t in s.canopy(1 - s.mover)), limit=6000)
    me = state.mover
    tree = next(c for c in state.hand(me) if c.kind is mt.Kind.TREE and c.fits(*state.conditions()))
    slot = next(i for i, t in enumerate(state.canopy(1 - me)) if t is not None)
    result = ClickPlanner(state, ("hand", tree.id)).click(("canopy", 1 - me, slot))
    assert result.outcome is Outcome.REFUSE
    assert result.message  # the engine's reason, naming the rule


VARIATIONS = [{}, {"two_sided_disasters": True}, {"habitats_to_win": 2}, {"ignore_lingering": True},
              {"without_quercus_marilandica": True}]


@given(st.integers(0, 300), st.integers(2, 5), st.integers(10, 200), st.sampled_from(VARIATIONS))
@settings(max_examples=40, deadline=None)
def test_every_legal_action_can_be_made_by_two_clicks(seed, players, steps, variation):
    rng = random.Random(seed)
    bot = core.RandomBot(rng)
    state = mt.new_game(players, **variation).new_initial_state()
    for _ in range(steps):
        if state.is_terminal():
            return
        state = state.apply(state.sample_chance(rng) if state.current_player == core.CHANCE else bot.choose(state))
    while state.current_player == core.CHANCE:
        state = state.apply(state.sample_chance(rng))
    if state.is_terminal():
        return
    view = state.view_for(state.mover)
    for action in state.legal_actions():
        if action.verb is mt.Verb.END:
            continue
        source = source_of(action, state.mover)
        planner = ClickPlanner(state, source)
        assert source in ClickPlanner(state).sources()
        made = {planner.click(t).action for t in targets_of(action, view)}
        assert action in made, (str(action), made)


def test_clicks_outside_the_battle_phase_do_nothing():
    state = play_until(3, 2, lambda s: s.phase is mt.Phase.REGROUP)
    assert ClickPlanner(state).click(("hand", 0)).outcome is Outcome.NOTHING


def test_the_cover_comes_down_between_two_people_and_never_for_one():
    cover = CoverKeeper((0, 1))
    assert cover.update(0) and cover.text(0).startswith("Pass to P1")
    cover.reveal(0)
    assert not cover.update(0)
    assert cover.update(1)
    alone = CoverKeeper((0,))
    assert not alone.update(0)


def test_the_viewer_is_the_person_to_move_or_the_last_person():
    state = battle(players=3)
    assert viewer_for(state, (state.mover,), None) == state.mover
    other = (state.mover + 1) % 3
    assert viewer_for(state, (other,), None) == other
    assert viewer_for(state, (other,), other) == other
