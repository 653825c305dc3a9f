"""The Bosk park picture without a browser: what is drawn where, for each rule the board must show."""

from __future__ import annotations

import math

import numpy as np
import pytest
from bosk_moments import covering_moment, play_until

from treegames import bosk
from treegames.ui import palette
from treegames.ui.bosk.scene import (
    PATTERN_INK,
    PLAYER_COLOURS,
    PLAYER_SHAPES,
    REGION_STYLES,
    SQUIRREL_COLOUR,
    SQUIRREL_TARGET,
    TARGET,
    Marks,
    ParkGeometry,
    legend_scene,
    park_scene,
    supplies_scene,
    wind_board_spots,
)
from treegames.ui.palette import hex_to_rgb
from treegames.ui.scene import Circles, Polygons, Segments, Texts


def fills_of(scene, colour: str, kind=Polygons) -> list:
    """Every shape of ``kind`` filled with ``colour``: polygon tags, or circle centres."""
    rgb = np.array(hex_to_rgb(colour), dtype=np.uint8)
    found = []
    for op in scene.ops:
        if isinstance(op, kind) and op.fill is not None:
            hit = np.all(op.fill == rgb, axis=1)
            if kind is Polygons:
                found += [t for t, h in zip(op.tags, hit, strict=False) if h]
            else:
                found += [tuple(c) for c, h in zip(op.centres.tolist(), hit, strict=True) if h]
    return found


def texts_near(scene, x: float, y: float, radius: float = 8.0) -> list[str]:
    """Labels drawn within ``radius`` pixels of (x, y)."""
    return [t for op in scene.ops if isinstance(op, Texts) for tx, ty, t in op.items
            if math.hypot(tx - x, ty - y) <= radius]


# ------------------------------------------------------------------ the board itself


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_square_is_coloured_by_its_region(players):
    game = bosk.new_game(players)
    state = game.new_initial_state()
    park = state.park
    scene = park_scene(state)
    for region, name in enumerate(park.region_names):
        squares = {park.square_rc(s) for s in park.region_squares[region]}
        assert squares <= set(fills_of(scene, REGION_STYLES[name].fill)), name


def test_regions_differ_in_colour_and_in_pattern():
    fills = {s.fill for s in REGION_STYLES.values()}
    patterns = {s.pattern for s in REGION_STYLES.values()}
    assert len(REGION_STYLES) == 8 and len(fills) == 8 and len(patterns) == 8
    assert set(REGION_STYLES) == set(bosk.new_game(2).park.region_names) == set(bosk.new_game(4).park.region_names)


def test_every_square_carries_its_regions_pattern():
    state = bosk.new_game(2).new_initial_state()
    park = state.park
    geo = ParkGeometry.for_park(park)
    scene = park_scene(state)
    hatching = next(op for op in scene.ops if isinstance(op, Segments) and op.stroke == PATTERN_INK)
    mids = hatching.points.mean(axis=1)
    dots = [op for op in scene.ops if isinstance(op, Circles)
            and np.all(op.fill == np.array(hex_to_rgb(REGION_STYLES["Meadow"].ink), dtype=np.uint8))][0]
    for sq in range(park.num_squares):
        r, c = park.square_rc(sq)
        x0, y0 = geo.x0 + c * geo.cell, geo.y0 + r * geo.cell
        name = park.region_names[park.terrain[sq]]
        marks = dots.centres if REGION_STYLES[name].pattern == "dots" else mids
        inside = (marks[:, 0] > x0) & (marks[:, 0] < x0 + geo.cell) & (marks[:, 1] > y0) & (marks[:, 1] < y0 + geo.cell)
        assert inside.sum() >= 3, f"{bosk.square_name(r, c)} ({name}) has no {REGION_STYLES[name].pattern} pattern"


def test_legend_names_every_region_and_player_shape():
    park = bosk.new_game(4).park
    legend = legend_scene(park, 488, 4)
    for name in park.region_names:
        assert name in legend.texts()
    for name, shape in zip(bosk.PLAYER_NAMES, PLAYER_SHAPES, strict=True):
        assert f"{name} {shape}" in legend.texts()
    assert any("covering cost" in t for t in legend.texts())


def test_trails_are_named_rows_and_columns_and_squares_too():
    state = bosk.new_game(2).new_initial_state()
    scene = park_scene(state)
    texts = scene.texts()
    for k in range(2, 8):  # interior row trails 2-7, column trails b-g
        assert str(k) in texts
    for letter in "bcdefg":
        assert letter in texts
    for letter in "ABCDEFG":
        assert letter in texts, "square columns are named along the bottom"
    geo = ParkGeometry.for_park(state.park)
    x, y = geo.intersection_xy(0, 3)
    assert "d" in texts_near(scene, x, y - geo.label / 2, 3)


def test_the_three_player_park_shows_its_border_ring_greyed_and_out_of_play():
    state = bosk.new_game(3).new_initial_state()
    geo = ParkGeometry.for_park(state.park)
    assert geo.size == 7 and geo.border == 1 and geo.shown == 9
    scene = park_scene(state)
    washed = [op for op in scene.ops if isinstance(op, Polygons) and op.alpha < 1]
    assert len(washed) == 1 and len(washed[0].tags) == 9 * 9 - 7 * 7
    assert all(r in (-1, 7) or c in (-1, 7) for r, c in washed[0].tags)
    assert any("not in play with 3 players" in t for t in scene.texts())
    assert geo.square_at(*geo.square_centre(-1, 3)) is None, "the border ring is not clickable"


def test_the_two_and_four_player_parks_have_no_border_ring():
    for players, size in ((2, 7), (4, 9)):
        state = bosk.new_game(players).new_initial_state()
        scene = park_scene(state)
        assert ParkGeometry.for_park(state.park).size == size
        assert not [op for op in scene.ops if isinstance(op, Polygons) and op.alpha < 1]


# ------------------------------------------------------------------ pieces and targets


def test_spring_highlights_every_empty_inner_intersection(spring_start):
    state = spring_start
    scene = park_scene(state)
    geo = ParkGeometry.for_park(state.park)
    dots = fills_of(scene, TARGET, Circles)
    expected = {geo.intersection_xy(r, c) for r, c in state.park.interior_intersections()}
    assert set(dots) == expected and len(dots) == 36
    edge = geo.intersection_xy(0, 3)
    assert edge not in dots, "I. Spring note: never on the edge"


def test_a_grown_tree_shows_its_value_its_colour_and_its_shape(spring_start):
    state = spring_start
    mover = state.current_player
    state = state.apply(state.parse_action("tree 3 at d4"))
    scene = park_scene(state)
    geo = ParkGeometry.for_park(state.park)
    x, y = geo.intersection_xy(3, 3)
    assert "3" in texts_near(scene, x, y, 3)
    if PLAYER_SHAPES[mover] == "circle":
        assert (x, y) in fills_of(scene, PLAYER_COLOURS[mover], Circles)
    else:
        assert (3, 3) in fills_of(scene, PLAYER_COLOURS[mover])
    assert (x, y) not in fills_of(scene, TARGET, Circles), "an occupied intersection is no longer a target"


def test_leaf_piles_show_the_top_owner_and_the_height(mid_autumn):
    state = mid_autumn
    park = state.park
    geo = ParkGeometry.for_park(park)
    scene = park_scene(state)
    piles = [(park.square_rc(s), state.pile(*park.square_rc(s))) for s in range(park.num_squares)]
    piles = [(rc, p) for rc, p in piles if p and rc not in set(filter(None, state.squirrel_squares()))]
    assert piles
    for rc, pile in piles:
        owner = pile[-1]
        where = fills_of(scene, PLAYER_COLOURS[owner], Circles if PLAYER_SHAPES[owner] == "circle" else Polygons)
        assert (geo.square_centre(*rc) if PLAYER_SHAPES[owner] == "circle" else rc) in where
        assert str(len(pile)) in texts_near(scene, *geo.square_centre(*rc), 3)


def test_leaf_targets_are_the_engine_choices_with_covering_costs():
    state = covering_moment()
    geo = ParkGeometry.for_park(state.park)
    scene = park_scene(state)
    legal = {(a.row, a.col) for a in state.legal_actions()}
    assert {t for t in fills_of(scene, TARGET) if isinstance(t, tuple)} == legal
    for r, c in legal:
        pile = state.pile(r, c)
        cost = len(pile) if pile and pile[-1] != state.current_player else 0
        x, y = geo.square_centre(r, c)
        labels = texts_near(scene, x + geo.cell * 0.43 - 8.5, y - geo.cell * 0.43 + 6.5, 2)
        assert labels == ([f"-{cost}"] if cost else []), (r, c, pile)
    assert any(t.startswith("-") for t in scene.texts())


def test_targets_are_hidden_when_asked(spring_start):
    scene = park_scene(spring_start, marks=Marks(show_targets=False))
    assert not fills_of(scene, TARGET, Circles)


def test_autumn_highlights_only_trees_the_wind_board_allows():
    state = play_until(2, 3, lambda s: s.phase is bosk.Phase.FALLING_LEAVES)
    geo = ParkGeometry.for_park(state.park)
    scene = park_scene(state)
    halos = set(fills_of(scene, TARGET, Circles))
    allowed = {(a.row, a.col) for a in state.legal_actions()}
    assert {geo.intersection_xy(*rc) for rc in allowed} <= halos
    need = state.required_tree_value
    for rc, (owner, value) in state.trees_on_board().items():
        should = owner == state.current_player and (need == 0 or value == need)
        assert (geo.intersection_xy(*rc) in halos) == should, (rc, owner, value, need)


def test_squirrel_targets_and_squirrels():
    state = play_until(2, 5, lambda s: s.phase is bosk.Phase.SQUIRREL)
    scene = park_scene(state)
    legal = {(a.row, a.col) for a in state.legal_actions()}
    assert set(fills_of(scene, SQUIRREL_TARGET)) == legal
    after = state.apply(state.legal_actions()[0])
    geo = ParkGeometry.for_park(after.park)
    spot = after.squirrel_squares()[state.current_player]
    assert geo.square_centre(*spot) in fills_of(park_scene(after), SQUIRREL_COLOUR, Circles)


def test_the_wind_sides_are_offered_then_the_wind_board_is_drawn_on_its_side():
    state = play_until(2, 1, lambda s: s.phase is bosk.Phase.WIND)
    scene = park_scene(state)
    assert sorted(fills_of(scene, TARGET)) == [0, 1, 2, 3]
    assert any("blows south" in t for t in scene.texts())
    after = state.apply(state.parse_action("wind from north"))
    spots = wind_board_spots(after)
    assert [v for _, _, v in spots] == [1, 2, 3, 4, 0, 0, 0, 0]
    assert spots[0][1] == bosk.Direction.SOUTH.index, "the wind first blows away from the board's side"
    scene = park_scene(after)
    geo = ParkGeometry.for_park(after.park)
    board = [op for op in scene.ops if isinstance(op, Polygons) and op.tags == tuple(range(1, 9))]
    assert board, "eight wind board spots"
    ys = board[0].points[:, :, 1].mean(axis=1)
    assert np.all(ys < geo.y0), "on the north side"
    assert fills_of(scene, TARGET)[:1] == [1], "the marker's spot (1) is highlighted"
    assert scene.texts().count("*") == 4


def test_a_selected_trail_is_highlighted_along_its_line(spring_start):
    geo = ParkGeometry.for_park(spring_start.park)
    scene = park_scene(spring_start, marks=Marks(trail="column d"))
    lines = [op for op in scene.ops if isinstance(op, Segments) and op.stroke == TARGET]
    assert len(lines) == 1
    (x1, y1), (x2, y2) = lines[0].points[0]
    assert x1 == x2 == geo.intersection_xy(0, 3)[0] and y1 == geo.y0 and y2 == geo.y0 + 7 * geo.cell


def test_a_selected_region_is_outlined(spring_start):
    park = spring_start.park
    scene = park_scene(spring_start, marks=Marks(region=2))
    outlined = [op for op in scene.ops if isinstance(op, Polygons) and op.fill is None and op.line_width == 3.0 and op.tags]
    assert set(outlined[0].tags) == {park.square_rc(s) for s in park.region_squares[2]}


# ------------------------------------------------------------------ supplies


def test_supplies_grey_used_tiles_and_put_the_hiker_by_the_start_player(mid_autumn):
    state = mid_autumn
    scene = supplies_scene(state, 408)
    for p in range(state.num_players):
        assert state.game.player_name(p) in scene.texts()
    tiles = [op for op in scene.ops if isinstance(op, Polygons) and op.tags == tuple(bosk.LEAF_TILES)]
    assert len(tiles) == state.num_players
    for p, op in enumerate(tiles):
        greyed = [t for t, f in zip(op.tags, op.fill.tolist(), strict=True) if tuple(f) == hex_to_rgb("#D9D9D9")]
        assert set(greyed) == set(bosk.LEAF_TILES) - set(state.leaf_tiles(p))
    hiker = [op for op in scene.ops if isinstance(op, Polygons) and op.tags == ("hiker",)]
    row = int((hiker[0].points[0, :, 1].mean() - 4) // 46)
    assert row == state.start_player
    assert f"{state.scores()[0]} pt · {state.supply_of(0)} leaves" in " ".join(scene.texts()) or any(
        t.startswith(f"{state.scores()[0]} pt · {state.supply_of(0)} leaves") for t in scene.texts())


# ------------------------------------------------------------------ hit-testing


@pytest.mark.parametrize("players", [2, 3, 4])
def test_clicks_name_the_place_under_them(players):
    park = bosk.new_game(players).park
    geo = ParkGeometry.for_park(park)
    for r in range(park.size + 1):
        for c in range(park.size + 1):
            place = geo.intersection_at(*geo.intersection_xy(r, c))
            assert (place.row, place.col) == (r, c) and place.name == bosk.intersection_name(r, c)
    for r in range(park.size):
        for c in range(park.size):
            x, y = geo.square_centre(r, c)
            assert geo.place_at(x, y).name == bosk.square_name(r, c)
            assert geo.square_at(x + geo.cell * 0.45, y - geo.cell * 0.45).name == bosk.square_name(r, c)
    for side in range(4):
        x, y = geo.wind_spot_centre(side, 4)
        assert geo.side_at(x, y).col == side and geo.place_at(x, y).name == bosk.DIRECTIONS[side].value


@pytest.mark.parametrize("x, y", [(float("nan"), 10.0), (10.0, float("inf")), (-5.0, -5.0), (1e9, 3.0)])
def test_nonsense_clicks_name_nothing(x, y):
    geo = ParkGeometry.for_park(bosk.new_game(2).park)
    assert geo.place_at(x, y) is None or geo.place_at(x, y).kind == "side"
    if not (math.isfinite(x) and math.isfinite(y)):
        assert geo.place_at(x, y) is None


def test_the_scene_is_a_pure_function_of_the_state(mid_autumn):
    a, b = park_scene(mid_autumn), park_scene(mid_autumn)
    assert a.texts() == b.texts() and [type(o) for o in a.ops] == [type(o) for o in b.ops]
    assert a.width == ParkGeometry.for_park(mid_autumn.park).width == a.height


def test_colours_come_from_the_colour_blind_safe_set():
    okabe_ito = {palette.ORANGE, palette.SKY_BLUE, palette.BLUISH_GREEN, palette.YELLOW, palette.BLUE,
                 palette.VERMILLION, palette.REDDISH_PURPLE, palette.BLACK}
    assert set(PLAYER_COLOURS) <= okabe_ito and len(set(PLAYER_SHAPES)) == 4
