"""The Aspens board (our reconstruction of the missing diagrams): size, tiles, water layouts, names."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from treegames.aspens import SETUPS, Direction, Hex, cell_name, make_board, parse_cell
from treegames.aspens.data import distance


@pytest.mark.parametrize("setup", SETUPS)
def test_board_has_151_hexes_on_seven_tiles(setup):
    board = make_board(setup)
    assert len(board.cells) == 151 == len(set(board.cells))
    assert sorted(len(t) for t in board.tiles.values()) == [19] + [22] * 6
    assert set().union(*board.tiles.values()) == set(board.cells)
    assert board.tiles["centre"] == {c for c in board.cells if distance(c) <= 2}


def test_the_corners_and_their_neighbours_are_cut_off():
    board = make_board(2)
    for d in Direction:
        corner = Hex(7 * d.delta[0], 7 * d.delta[1])
        assert corner not in board
        inward = [n for n in (corner + e.delta for e in Direction) if n in board]
        assert inward == [Hex(6 * d.delta[0], 6 * d.delta[1])]  # only the ring-6 hex remains beside it


@pytest.mark.parametrize("setup, water, playable", [(2, 3, 148), (3, 3, 148), (4, 3, 148),
                                                     (5, 4, 147), (6, 4, 147), (7, 4, 147)])
def test_variable_starting_setups_water_count(setup, water, playable):
    board = make_board(setup)
    assert len(board.water) == water and len(board.playable) == playable
    assert not set(board.playable) & board.water


@pytest.mark.parametrize("setup", SETUPS)
def test_every_water_tile_has_six_playable_neighbours(setup):
    board = make_board(setup)
    for water in board.water:
        around = board.neighbors(water)
        assert len(around) == 6 and not any(board.is_water(n) for n in around)


@pytest.mark.parametrize("setup", SETUPS)
def test_no_space_touches_two_water_tiles(setup):
    board = make_board(setup)
    for cell in board.playable:
        assert sum(board.is_water(n) for n in board.neighbors(cell)) <= 1


def test_standard_setup_has_water_west_east_and_south():
    water = make_board(2).water
    assert {cell_name(w) for w in water} == {"H4", "H12", "L6"}


@pytest.mark.parametrize("bad", [1, 8, 0, "2", 2.0, True, None])
def test_unknown_setup_names_the_allowed_values(bad):
    with pytest.raises(ValueError, match="2, 3, 4, 5, 6, 7"):
        make_board(bad)


def test_neighbor_steps_in_each_wind_direction():
    board = make_board(2)
    centre = parse_cell("H8")
    assert {d.name: cell_name(board.neighbor(centre, d)) for d in Direction} == {
        "E": "H9", "NE": "G9", "NW": "G8", "W": "H7", "SW": "I7", "SE": "I8"}
    assert board.neighbor(parse_cell("A5"), Direction.NW) is None


def test_wind_roll_makes_three_valid_directions():
    assert Direction.E.wind_directions() == (Direction.SE, Direction.E, Direction.NE)
    assert Direction.SE.wind_directions() == (Direction.SW, Direction.SE, Direction.E)


@given(st.sampled_from(make_board(2).cells))
def test_hex_names_read_back(cell):
    assert parse_cell(cell_name(cell)) == cell
    assert parse_cell(cell_name(cell).lower()) == cell


@pytest.mark.parametrize("bad", ["", "Z3", "H", "H0", "H16", "88", "H8x"])
def test_bad_hex_names_are_refused(bad):
    with pytest.raises(ValueError):
        parse_cell(bad)


def test_tile_of_names_each_tile():
    board = make_board(2)
    assert board.tile_of(parse_cell("H8")) == "centre"
    assert board.tile_of(Hex(6, 0)) == "E" and board.tile_of(Hex(-6, 0)) == "W"
    with pytest.raises(ValueError, match="not on the board"):
        board.tile_of(Hex(7, 0))
