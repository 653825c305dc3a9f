"""What the Bosk engine tells a view: covering costs, the wind board, the park's sides, and who
takes the Hiker (or wins) and why -- one test per rule the accessor reports."""

from __future__ import annotations

import random

import pytest

from treegames import core
from treegames.bosk import (
    PLAYER_NAMES,
    TREE_VALUES,
    WIND_SPOT_TREE_VALUE,
    Direction,
    Kind,
    NotationError,
    Phase,
    new_game,
)

# ---------------------------------------------------------------- Covering other leaves


def test_covering_another_players_pile_costs_one_active_leaf_per_leaf_there(autumn, play):
    state = play(autumn, "autumn tree c3 tile 2", "leaf C3", "leaf C4")  # Maple's leaves on C3 and C4
    state = play(state, "autumn tree d3 tile 4")  # Oak: the first leaf goes on C3 or D3
    assert state.covering_cost(2, 2) == 1  # C3: Maple's pile of 1
    assert state.covering_cost(2, 3) == 0  # D3: empty terrain
    assert "C3 (covering costs 1) and D3" in state.explain()
    after = play(state, "leaf C3")
    assert after.supply_of(1) == state.supply_of(1) + state.covering_cost(2, 2)
    assert after.active_leaves == state.active_leaves - 1 - state.covering_cost(2, 2)


def test_covering_your_own_top_leaf_costs_nothing(autumn, play):
    state = play(autumn, "autumn tree c3 tile 2", "leaf C3", "leaf C4", "autumn tree d3 tile 4", "leaf C3")
    assert state.pile(2, 2) == (0, 1) and state.current_player == 1  # Oak's leaf tops a pile of 2
    assert state.covering_cost(2, 2) == 0, "Exception: the mover's own leaf is on top"
    assert state.covering_cost(3, 2) == 1, "C4 is still topped by Maple's single leaf"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_leaf_targets_cost_is_what_placing_the_leaf_returns(players):
    rng = random.Random(players)
    bots = [core.RandomBot(rng)] * players
    state = new_game(players).new_initial_state()
    checked = 0
    while not state.is_terminal():
        if state.phase is Phase.LEAF_PLACEMENT:
            for action in state.legal_actions():
                cost = state.covering_cost(action.row, action.col)
                after = state.apply(action)
                me = state.current_player
                returned = after.supply_of(me) - state.supply_of(me)
                if after.path_head is not None:  # the turn goes on: only the covering cost came back
                    assert returned == cost
                else:  # the turn ended: leftovers came back too
                    assert returned == state.active_leaves - 1
                checked += 1
        state = core.step(state, bots, rng)
    assert checked > 20


# ---------------------------------------------------------------- Initial Wind Direction: the wind board


def test_before_the_wind_board_is_placed_there_is_none(spring_done):
    assert spring_done.wind_board is None


def test_the_wind_board_lies_on_its_side_with_the_marker_on_spot_1(autumn):
    board = autumn.wind_board
    assert board.side is Direction.NORTH and board.marker == 1 == autumn.wind_spot
    assert [w.spot for w in board.spots] == [1, 2, 3, 4, 5, 6, 7, 8]
    assert tuple(w.required for w in board.spots) == WIND_SPOT_TREE_VALUE == (1, 2, 3, 4, 0, 0, 0, 0)
    assert board.spots[0].direction is Direction.SOUTH is autumn.wind_direction, "blows away from the board"
    # our interpretation "clockwise": each spot's arrow a quarter turn clockwise from the one before
    assert [w.direction.value for w in board.spots] == ["south", "west", "north", "east"] * 2


def test_each_round_the_marker_moves_one_spot_and_the_wind_follows_its_arrow(autumn, play):
    state = play(autumn, "autumn tree c3 tile 2", "leaf C3", "leaf C4", "autumn tree d3 tile 2", "leaf D3",
                 "leaf D4")
    board = state.wind_board
    assert state.round == 2 and board.marker == 2
    assert board.spots[board.marker - 1].direction is state.wind_direction is Direction.WEST
    assert board.spots[board.marker - 1].required == state.required_tree_value == 2


def test_the_crosswise_wind_pattern_is_on_the_board_too():
    game = new_game(2, wind_pattern="crosswise")
    spots = game.wind_spots(Direction.EAST)  # the first wind blows west
    assert [w.direction.value for w in spots] == ["west", "east", "north", "south"] * 2
    assert game.wind_spots(1) == spots


@pytest.mark.parametrize("side, blows", [("north", "south"), ("east", "west"), ("south", "north"), ("west", "east")])
def test_the_park_sides_are_places_for_the_wind_board(spring_done, play, side, blows):
    state = play(spring_done, "score summer")
    found = state.actions_at(side)
    assert [str(a) for a in found] == [f"wind from {side}"]
    assert state.actions_at(side.upper()) == found
    assert state.game.wind_spots(Direction(side))[0].direction is Direction(blows)
    assert state.apply(found[0]).wind_direction is Direction(blows)


def test_a_side_outside_the_initial_wind_step_has_nothing_to_do(spring_done, autumn):
    assert spring_done.actions_at("north") == [] and autumn.actions_at("west") == []
    assert autumn.actions_at("C3") == [] and spring_done.actions_at("C3") == []  # no leaves in spring
    with pytest.raises(NotationError, match="side of the park"):
        spring_done.actions_at("northwest")


# ---------------------------------------------------------------- Leaf Placement: the path so far


def test_the_leaf_path_of_this_turn_in_order(autumn, play):
    state = play(autumn, "autumn tree c3 tile 4")
    assert state.leaf_path() == ()
    state = play(state, "leaf C3", "leaf C4")
    assert state.leaf_path() == ((2, 2), (3, 2)) and state.path_head == (3, 2)
    assert play(state, "leaf C5").leaf_path() == ((2, 2), (3, 2), (4, 2))
    assert play(state, "leaf C5", "leaf C6").leaf_path() == (), "the turn ended: no path in progress"


# ---------------------------------------------------------------- Determine new start player


def test_summer_the_fewest_points_take_the_hiker_and_last_event_says_so(spring_done):
    after = spring_done.apply("score summer")
    decision = after.last_decision
    assert decision.rule == "II. Summer" and decision.values == (15, 18) and not decision.is_tie
    assert decision.chosen == after.start_player == 0
    assert "Maple has the fewest points (15) and becomes start player." in after.last_event
    assert "tie" not in after.last_event


def test_summer_a_tie_for_the_fewest_points_names_the_tie_break_in_last_event():
    # Both players put identical trees on mirrored trails: every trail is tied, points equal.
    spring = []
    for r in range(2, 6):
        spring += [f"tree {TREE_VALUES[2 * (r - 2)]} at b{r}", f"tree {TREE_VALUES[2 * (r - 2)]} at c{r}"]
        spring += [f"tree {TREE_VALUES[2 * (r - 2) + 1]} at e{r}", f"tree {TREE_VALUES[2 * (r - 2) + 1]} at f{r}"]
    state = core.replay(new_game(2), ["start player 2", *spring]).apply("score summer")
    decision = state.last_decision
    assert decision.is_tie and decision.candidates == (0, 1) and decision.origin == 1 == decision.chosen
    event = state.last_event
    assert "Maple and Oak tie for the fewest points" in event
    assert "broken clockwise from the previous start player, Oak, who counts first, so Oak becomes start player" \
        in event
    assert state.decision_text() in event


def test_end_of_the_round_a_tied_lowest_tile_is_broken_clockwise_from_the_start_player(autumn, play):
    state = play(autumn, "autumn tree c3 tile 2", "leaf C3", "leaf C4", "autumn tree d3 tile 2", "leaf D3",
                 "leaf D4")
    decision = state.last_decision
    assert decision.rule == "End of the Round" and decision.values == (2, 2) and decision.is_tie
    assert decision.origin == 0 == decision.chosen == state.start_player
    assert "tie for the lowest leaf tile played (2)" in state.last_event
    assert "clockwise from the previous start player, Maple, who counts first, so Maple starts round 2" \
        in state.last_event


def test_end_of_the_round_the_squirrel_tile_counts_as_its_option_value(autumn, play):
    state = play(autumn, "autumn tree c3 tile 3", "leaf C3", "leaf C4", "leaf C5", "autumn tree d3 tile squirrel")
    if state.phase is Phase.SQUIRREL:
        state = state.apply(state.legal_actions()[0])
    decision = state.last_decision
    assert decision.values == (3, 1) and decision.chosen == 1 == state.start_player
    assert "Oak has the lowest leaf tile played (squirrel, value 1) and starts round 2." in state.last_event


def test_no_decision_after_an_ordinary_move(autumn, spring_done):
    assert autumn.last_decision is None and spring_done.last_decision is None
    assert autumn.decision_text() == ""


# ---------------------------------------------------------------- End of the Game


@pytest.mark.parametrize("seed", range(6))
def test_the_winner_and_any_final_tie_break_are_in_last_event(seed):
    rng = random.Random(seed)
    state = core.play(new_game(3), [core.RandomBot(rng)] * 3, rng)
    decision = state.last_decision
    assert decision.rule == "End of the Game" and decision.values == state.scores()
    assert decision.chosen == state.winners()[0] and decision.origin == state.start_player
    assert set(decision.candidates) == {p for p, v in enumerate(state.scores()) if v == max(state.scores())}
    name = PLAYER_NAMES[decision.chosen]
    assert f"{name} wins with {max(state.scores())} points." in state.last_event
    if decision.is_tie:
        assert "tie for the most points" in state.last_event and "either way round the table" in state.last_event


def test_the_views_need_no_history_for_the_wind_board(autumn):
    assert autumn.history[-1].kind is Kind.WIND
    again = core.replay(autumn.game, [str(a) for a in autumn.history])
    assert again.wind_board == autumn.wind_board
