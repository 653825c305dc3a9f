"""Bosk rules, one test per rulebook section (and per interpretation we chose)."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from treegames import core
from treegames.bosk import (
    LEAF_TILES,
    LEAVES_PER_PLAYER,
    OPTION_DEFAULTS,
    PLAYER_NAMES,
    SQUIRREL,
    TREE_VALUES,
    Direction,
    GreedyBot,
    Phase,
    TurnEnd,
    new_game,
    park_for_players,
    summer_table,
    winter_table,
)
from treegames.core import CHANCE, TERMINAL, IllegalAction

# ---------------------------------------------------------------- Components and Setup


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_1_each_player_takes_trees_tiles_leaves_and_a_squirrel(players):
    state = new_game(players).new_initial_state()
    for p in range(players):
        assert state.trees_in_hand(p) == (1, 1, 2, 2, 3, 3, 4, 4) == TREE_VALUES
        assert state.leaf_tiles(p) == (2, 3, 4, 5, 6, 7, 8, SQUIRREL) == LEAF_TILES
        assert state.supply_of(p) == LEAVES_PER_PLAYER == 36
        assert state.squirrel_squares()[p] is None
    assert state.scores() == (0,) * players


def test_setup_1_board_side_depends_on_player_count():
    assert park_for_players(2).size == 7 and park_for_players(2).inset == 0
    assert park_for_players(4).size == 9 and park_for_players(4).inset == 0
    three = park_for_players(3)
    assert three.size == 7 and three.inset == 1  # the 4-player side inside its white border
    four_rows = park_for_players(4).to_text().splitlines()
    assert three.to_text().splitlines() == [row[1:-1] for row in four_rows[1:-1]]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_parks_have_8_regions_that_all_matter(players):
    park = park_for_players(players)
    assert len(park.region_names) == 8
    assert all(len(squares) >= 3 for squares in park.region_squares)
    assert sum(len(s) for s in park.region_squares) == park.size**2


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_4_start_player_is_a_uniform_chance_node(players):
    state = new_game(players).new_initial_state()
    assert state.current_player == CHANCE and state.phase is Phase.START_PLAYER
    outcomes = state.chance_outcomes()
    assert [str(a) for a, _ in outcomes] == [f"start player {p + 1}" for p in range(players)]
    assert all(prob == Fraction(1, players) for _, prob in outcomes)
    assert sum(prob for _, prob in outcomes) == 1
    after = state.apply(outcomes[-1][0])
    assert after.start_player == after.current_player == players - 1


def test_new_game_exposes_name_players_options_and_park():
    game = new_game(3, wind_pattern="crosswise")
    assert game.name == "bosk" and game.num_players == 3
    assert game.options == {**OPTION_DEFAULTS, "players": 3, "wind_pattern": "crosswise"}
    assert game.park.size == 7 and len(PLAYER_NAMES) >= 4
    with pytest.raises(ValueError, match="wind_pattern"):
        new_game(2, wind_pattern="spiral")
    with pytest.raises(ValueError, match="2 to 4"):
        new_game(5)


# ---------------------------------------------------------------- I. Spring


def test_spring_1_start_player_grows_first_then_clockwise(game2, play):
    state = play(game2.new_initial_state(), "start player 2")
    assert state.phase is Phase.SPRING and state.current_player == 1
    state = play(state, "tree 4 at d4")
    assert state.current_player == 0
    assert state.tree_at_intersection(3, 3) == (1, 4)
    assert state.trees_in_hand(1) == (1, 1, 2, 2, 3, 3, 4)


def test_spring_1_note_no_trees_on_edges_or_corners(game2, play):
    state = play(game2.new_initial_state(), "start player 1")
    for where in ("a1", "a4", "h8", "d1", "d8", "h5"):
        with pytest.raises(IllegalAction, match="edges, corners"):
            state.apply(state.parse_action(f"tree 1 at {where}"))
    legal = {str(a).split(" at ")[1] for a in state.legal_actions()}
    assert legal == {f"{c}{r}" for c in "bcdefg" for r in range(2, 8)}


def test_spring_1_intersection_must_be_unoccupied(game2, play):
    state = play(game2.new_initial_state(), "start player 1", "tree 1 at c3")
    with pytest.raises(IllegalAction, match="unoccupied"):
        state.apply(state.parse_action("tree 2 at c3"))


def test_spring_1_only_trees_left_in_hand(game2, play):
    state = play(game2.new_initial_state(), "start player 1", "tree 4 at c3", "tree 1 at d3", "tree 4 at e3",
                 "tree 1 at f3")
    with pytest.raises(IllegalAction, match="no tree of value 4"):
        state.apply(state.parse_action("tree 4 at g3"))


def test_spring_3_after_all_trees_summer_comes(spring_done):
    assert spring_done.phase is Phase.SUMMER
    assert spring_done.current_player == spring_done.start_player == 0
    assert all(not spring_done.trees_in_hand(p) for p in range(2))
    assert len(spring_done.trees_on_board()) == 16
    assert spring_done.legal_actions() == [spring_done.parse_action("score summer")]


# ---------------------------------------------------------------- II. Summer


def test_summer_scoring_worked_example(spring_done):
    table = {name: (totals, points) for name, totals, points in summer_table(spring_done)}
    assert table["row 3"] == ((2, 1), (2, 1))  # single first 2, single second 1
    assert table["row 5"] == ((4, 4), (1, 1))  # tie for first: 1 each
    assert table["row 7"] == ((0, 6), (0, 3))  # alone on the trail: 3
    assert table["column d"] == ((3, 5), (1, 2))
    assert len(table) == 12  # the 6 interior row trails and 6 interior column trails
    after = spring_done.apply(spring_done.parse_action("score summer"))
    assert after.summer_scores == (15, 18) == after.scores()


def test_summer_determine_new_start_player_fewest_points(spring_done):
    after = spring_done.apply(spring_done.parse_action("score summer"))
    assert after.start_player == after.current_player == 0  # Maple has 15 < 18
    assert after.phase is Phase.WIND


def test_summer_new_start_player_ties_clockwise_from_previous_start():
    # Both players put identical trees on mirrored trails: every trail is tied, points equal.
    game = new_game(2)
    spring = []
    for r in range(2, 6):
        spring += [f"tree {TREE_VALUES[2 * (r - 2)]} at b{r}", f"tree {TREE_VALUES[2 * (r - 2)]} at c{r}"]
        spring += [f"tree {TREE_VALUES[2 * (r - 2) + 1]} at e{r}", f"tree {TREE_VALUES[2 * (r - 2) + 1]} at f{r}"]
    state = core.replay(game, ["start player 2", *spring])
    assert state.phase is Phase.SUMMER
    after = state.apply(state.parse_action("score summer"))
    assert after.summer_scores[0] == after.summer_scores[1]
    assert after.start_player == 1  # the previous start player counts first


# ---------------------------------------------------------------- III. Autumn


def test_autumn_initial_wind_direction_blows_away_from_the_wind_board(spring_done, play):
    state = play(spring_done, "score summer")
    assert [str(a) for a in state.legal_actions()] == [f"wind from {d}" for d in ("north", "east", "south", "west")]
    for side, blows in (("north", "south"), ("east", "west"), ("south", "north"), ("west", "east")):
        after = play(state, f"wind from {side}")
        assert after.wind_direction is Direction(blows)
        assert after.round == after.wind_spot == 1 and after.phase is Phase.FALLING_LEAVES


def test_falling_leaves_1a_rounds_1_to_4_require_the_wind_spots_tree_value(autumn):
    assert autumn.required_tree_value == 1
    trees = {str(a).split(" tile ")[0] for a in autumn.legal_actions()}
    assert trees == {"autumn tree c3", "autumn tree f3"}  # Maple's two value-1 trees
    with pytest.raises(IllegalAction, match="value 1"):
        autumn.apply(autumn.parse_action("autumn tree c5 tile 3"))
    with pytest.raises(IllegalAction, match="own trees"):
        autumn.apply(autumn.parse_action("autumn tree d3 tile 3"))  # Oak's tree


def test_falling_leaves_1c_take_active_leaves_from_supply(autumn, play):
    state = play(autumn, "autumn tree c3 tile 5")
    assert state.active_leaves == 5 and state.supply_of(0) == 31
    assert state.phase is Phase.LEAF_PLACEMENT


def test_leaf_placement_1_first_leaf_beside_the_tree_downwind(autumn, play):
    state = play(autumn, "autumn tree c3 tile 3")
    assert [str(a) for a in state.legal_actions()] == ["leaf B3", "leaf C3"]
    with pytest.raises(IllegalAction, match="Leaf Placement 1"):
        state.apply(state.parse_action("leaf B2"))


def test_leaf_placement_2_next_leaf_straight_or_diagonal_ahead(autumn, play):
    state = play(autumn, "autumn tree c3 tile 3", "leaf C3")
    assert [str(a) for a in state.legal_actions()] == ["leaf B4", "leaf C4", "leaf D4"]
    with pytest.raises(IllegalAction, match="Leaf Placement 2"):
        state.apply(state.parse_action("leaf C5"))
    state = play(state, "leaf D4")
    assert state.pile(2, 2) == (0,) and state.pile(3, 3) == (0,)


def test_leaf_placement_3_path_ends_when_no_active_leaves_remain_and_tree_is_removed(autumn, play):
    state = play(autumn, "autumn tree c3 tile 2", "leaf B3", "leaf A4")
    assert state.tree_at_intersection(2, 2) is None
    assert state.trees_standing(0) == (1, 2, 2, 3, 3, 4, 4)
    assert state.leaf_tiles(0) == (3, 4, 5, 6, 7, 8, SQUIRREL)
    assert state.supply_of(0) == 34 and state.leaves_on_board(0) == 2
    assert state.current_player == 1 and state.phase is Phase.FALLING_LEAVES
    assert "no active leaves remain" in state.last_event


def test_leaf_placement_3_path_ends_at_the_edge_and_unused_leaves_return(autumn, play):
    state = play(autumn, "autumn tree f3 tile 8", "leaf F3", "leaf F4", "leaf F5", "leaf F6")
    assert state.active_leaves == 4 and state.current_player == 0
    state = play(state, "leaf F7")  # row 7 is the south edge
    assert state.current_player == 1 and state.active_leaves == 0
    assert state.supply_of(0) == 36 - 5 and state.leaves_on_board(0) == 5
    assert "edge" in state.last_event and "3 unused active leaves return" in state.last_event


def test_covering_other_leaves_1_costs_one_active_leaf_per_leaf_there(autumn, play):
    state = play(autumn, "autumn tree c3 tile 2", "leaf C3", "leaf C4")  # Maple's leaves on C3, C4
    state = play(state, "autumn tree d3 tile 4")  # Oak: first squares C3, D3
    assert [str(a) for a in state.legal_actions()] == ["leaf C3", "leaf D3"]
    state = play(state, "leaf C3")  # covers Maple's pile of 1: 1 returned + 1 placed
    assert state.pile(2, 2) == (0, 1) and state.top_leaf(2, 2) == 1
    assert state.active_leaves == 2 and state.supply_of(1) == 36 - 4 + 1
    state = play(state, "leaf C4")  # covers again: 1 returned + 1 placed, none left
    assert state.pile(3, 2) == (0, 1) and state.current_player == 0
    assert state.supply_of(1) == 34 and state.leaves_on_board(1) == 2


def test_covering_other_leaves_in_a_later_round_with_the_wind_turned(autumn, play):
    state = play(autumn, "autumn tree c3 tile 2", "leaf C3", "leaf C4", "autumn tree d3 tile 2", "leaf D3",
                 "leaf D4")
    # round 2 (value 2 trees): Maple starts again (tile 2 tie, clockwise from Maple)
    assert state.round == 2 and state.current_player == 0
    assert state.wind_direction is Direction.WEST  # clockwise pattern: south turned a quarter clockwise
    state = play(state, "autumn tree f5 tile 3")  # Maple's value-2 tree at f5; wind west: squares E4, E5
    assert [str(a) for a in state.legal_actions()] == ["leaf E4", "leaf E5"]
    state = play(state, "leaf E4", "leaf D4")  # D4 topped by Oak's single leaf: costs 1 more
    assert state.top_leaf(3, 3) == 0 and state.current_player == 1
    assert state.leaves_on_board(0) == 4 and state.supply_of(0) == 36 - 4


def test_covering_other_leaves_exception_own_top_leaf_is_free(autumn, play):
    state = play(autumn, "autumn tree f3 tile 3", "leaf F3", "leaf E4", "leaf E5",
                 "autumn tree d3 tile 2", "leaf D3", "leaf D4")
    assert state.start_player == 1 and state.round == 2  # Oak played the lower tile
    state = play(state, "autumn tree g6 tile 3", "leaf F5", "leaf E6", "leaf D6")
    state = play(state, "autumn tree f5 tile 4")  # wind west: E4 and E5, both Maple's
    assert state.supply_of(0) == 36 - 3 - 4
    state = play(state, "leaf E4")
    assert state.pile(3, 4) == (0, 0) and state.active_leaves == 3 and state.supply_of(0) == 29


def test_covering_other_leaves_note_a_leaf_must_remain_to_place(autumn, play):
    state = play(autumn, "autumn tree c3 tile 2", "leaf C3", "leaf C4", "autumn tree d3 tile 3", "leaf C3")
    assert state.active_leaves == 1  # covering C3 cost 1 returned + 1 placed
    # C4 holds Maple's leaf: covering needs 1 to return and 1 to place, Oak has only 1 active leaf.
    assert [str(a) for a in state.legal_actions()] == ["leaf B4", "leaf D4"]
    before = state.to_json()
    with pytest.raises(IllegalAction, match="Covering other leaves"):
        state.apply(state.parse_action("leaf C4"))
    assert state.to_json() == before and state.active_leaves == 1


def test_squirrel_1_placed_within_3_squares_downwind(autumn, play):
    state = play(autumn, "autumn tree c3 tile squirrel")
    assert state.phase is Phase.SQUIRREL and state.active_leaves == 0 and state.supply_of(0) == 36
    targets = {str(a)[len("squirrel "):] for a in state.legal_actions()}
    expected = {"B3", "C3", "A4", "B4", "C4", "D4", "A5", "B5", "C5", "D5", "E5"}
    assert targets == expected
    with pytest.raises(IllegalAction, match="within 3 squares"):
        state.apply(state.parse_action("squirrel C6"))
    state = play(state, "squirrel C5")
    assert state.squirrel_squares()[0] == (4, 2) and state.current_player == 1
    assert state.leaf_tiles(0) == (2, 3, 4, 5, 6, 7, 8)
    assert state.tree_at_intersection(2, 2) is None


def test_squirrel_1a_covers_piles_of_any_size_and_1b_is_never_covered(autumn, play):
    state = play(autumn, "autumn tree c3 tile 3", "leaf C3", "leaf C4", "leaf C5")
    state = play(state, "autumn tree d3 tile squirrel", "squirrel C4")  # on Maple's leaf
    assert state.controller(3, 2) == 1 and state.top_leaf(3, 2) == 0
    # Round 2: Oak (squirrel value 1) starts; Maple later cannot put a leaf on C4.
    assert state.start_player == 1
    state = play(state, "autumn tree g6 tile 2", "leaf F5", "leaf E5")
    state = play(state, "autumn tree c5 tile 4")  # wind west from c5: B4, B5
    state = play(state, "leaf B4")
    assert "leaf A5" in [str(a) for a in state.legal_actions()]


def test_squirrel_tokens_cannot_be_covered_by_leaves(autumn, play):
    state = play(autumn, "autumn tree c3 tile squirrel", "squirrel C3")
    state = play(state, "autumn tree d3 tile 3")  # Oak: C3 holds Maple's squirrel
    assert [str(a) for a in state.legal_actions()] == ["leaf D3"]
    with pytest.raises(IllegalAction, match="Squirrel 1b"):
        state.apply(state.parse_action("leaf C3"))


def test_squirrel_counts_for_its_owner_in_winter(autumn, play):
    state = play(autumn, "autumn tree c3 tile 3", "leaf C3", "leaf C4", "leaf C5",
                 "autumn tree d3 tile squirrel", "squirrel C3")
    assert state.controller(2, 2) == 1
    region = state.park.region_of(2, 2)
    row = next(r for r in winter_table(state) if r[0] == region)
    assert row[1][1] >= 1


def test_end_of_round_wind_moves_and_lowest_tile_starts(autumn, play):
    state = play(autumn, "autumn tree c3 tile 5", "leaf C3", "leaf C4", "leaf C5", "leaf C6", "leaf C7")
    state = play(state, "autumn tree d3 tile 4", "leaf D3", "leaf D4", "leaf D5", "leaf D6")
    assert state.round == 2 and state.start_player == 1 and state.current_player == 1
    assert state.wind_direction is Direction.WEST and state.required_tree_value == 2
    assert "End of round 1" in state.last_event


def test_end_of_round_ties_go_clockwise_from_current_start(autumn, play):
    state = play(autumn, "autumn tree c3 tile 2", "leaf C3", "leaf C4", "autumn tree d3 tile 2", "leaf D3",
                 "leaf D4")
    assert state.start_player == 0  # tie on 2: the current start player counts first


def test_wind_pattern_option_crosswise(spring_done, play):
    game = new_game(2, wind_pattern="crosswise")
    state = core.replay(game, [str(a) for a in spring_done.history] + ["score summer", "wind from north"])
    state = play(state, "autumn tree c3 tile 2", "leaf C3", "leaf C4", "autumn tree d3 tile 2", "leaf D3",
                 "leaf D4")
    assert state.wind_direction is Direction.NORTH  # second spot: half a turn


def test_squirrel_tile_value_option_changes_turn_order(spring_done):
    history = [str(a) for a in spring_done.history] + ["score summer", "wind from north",
                                                       "autumn tree c3 tile squirrel", "squirrel C3",
                                                       "autumn tree d3 tile 2", "leaf D3", "leaf D4"]
    low = core.replay(new_game(2), history)
    high = core.replay(new_game(2, squirrel_tile_value=9), history)
    assert low.start_player == 0 and high.start_player == 1


def _squirrel_from_d3_in_round_5(game, spring_history):
    """Maple's squirrel sits on C3 (round 1); Oak calls its squirrel from d3 in round 5 (wind south again)."""
    state = core.replay(game, spring_history + [
        "score summer", "wind from north", "autumn tree c3 tile squirrel", "squirrel C3",
        "autumn tree e4 tile 2", "leaf E4", "leaf E5",
    ])
    while not (state.round == 5 and state.current_player == 1):
        state = state.apply(state.legal_actions()[0])  # first legal: trees by value, smallest tiles
    assert state.wind_direction is Direction.SOUTH and state.squirrel_squares()[1] is None
    return state.apply(state.parse_action("autumn tree d3 tile squirrel"))


def test_squirrel_may_pass_squirrels_option(spring_done):
    history = [str(a) for a in spring_done.history]
    passing = _squirrel_from_d3_in_round_5(new_game(2), history)
    blocked = _squirrel_from_d3_in_round_5(new_game(2, squirrel_may_pass_squirrels=False), history)
    reach_passing = {str(a) for a in passing.legal_actions()}
    reach_blocked = {str(a) for a in blocked.legal_actions()}
    assert "squirrel C3" not in reach_passing | reach_blocked  # one squirrel per square
    assert {"squirrel B4", "squirrel A5"} <= reach_passing  # only reachable through C3
    assert not {"squirrel B4", "squirrel A5"} & reach_blocked
    assert reach_blocked < reach_passing
    with pytest.raises(IllegalAction, match="one squirrel per square"):
        passing.apply(passing.parse_action("squirrel C3"))


def test_blocked_path_ends_and_returns_active_leaves():
    # Our interpretation: a path with no legal square ahead ends like at the edge. Search seeded random
    # games for blocked paths and check each one against the rules.
    seen = 0
    for seed in range(40):
        rng = random.Random(seed)
        game = new_game(2 + seed % 3)
        states = core.play(game, [core.RandomBot(rng)] * game.num_players, rng, keep=True)
        for before, after in zip(states, states[1:], strict=False):
            if after.end_reason is not TurnEnd.BLOCKED:
                continue
            seen += 1
            action = after.history[-1]
            park = before.park
            mover = before.current_player
            if action.kind.value == "leaf":
                head = park.square(action.row, action.col)
                ahead = park.ahead_squares[before.wind_direction.index][head]
                pile = before.piles[head]
                left = before.active_leaves - 1 - (len(pile) if pile and pile[-1] != mover else 0)
            else:
                ahead = park.first_squares[before.wind_direction.index][park.intersection(action.row, action.col)]
                left = action.value
            assert ahead and left > 0  # neither the edge nor out of leaves
            for sq in ahead:
                top = after.piles[sq]
                assert sq in after.squirrels or (top and top[-1] != mover and len(top) >= left)
            assert after.active_leaves == 0 and after.leaves_on_board(mover) + after.supply_of(mover) == 36
            assert "no square ahead can take a leaf" in after.last_event
    assert seen > 0


# ---------------------------------------------------------------- IV. Winter and End of the Game


def test_winter_scores_regions_and_ends_the_game():
    rng = random.Random(7)
    game = new_game(2)
    state = core.play(game, [core.RandomBot(rng)] * 2, rng)
    assert state.is_terminal() and state.current_player == TERMINAL and state.phase is Phase.GAME_OVER
    before_winter = state.previous
    assert before_winter.phase is Phase.WINTER and before_winter.current_player == before_winter.start_player
    table = winter_table(before_winter)
    assert len(table) == 8
    assert state.winter_scores == tuple(sum(row[2][p] for row in table) for p in range(2))
    assert state.scores() == tuple(a + b for a, b in zip(state.summer_scores, state.winter_scores, strict=False))
    for name, counts, _ in table:
        squares = before_winter.park.region_squares[before_winter.park.region_names.index(name)]
        controlled = [before_winter.controller(*before_winter.park.square_rc(s)) for s in squares]
        assert counts == tuple(controlled.count(p) for p in range(2))


def test_winter_1_only_the_top_token_controls_a_square(autumn, play):
    state = play(autumn, "autumn tree c3 tile 2", "leaf C3", "leaf C4", "autumn tree d3 tile 2", "leaf C3")
    assert state.pile(2, 2) == (0, 1) and state.controller(2, 2) == 1


@pytest.mark.parametrize("players", [2, 3, 4])
def test_end_of_the_game_single_winner_with_highest_score(players):
    for seed in range(5):
        rng = random.Random(seed)
        state = core.play(new_game(players), [core.RandomBot(rng)] * players, rng)
        (winner,) = state.winners()
        assert state.scores()[winner] == max(state.scores())


def test_end_of_the_game_ties_go_to_closest_to_final_start_player():
    from treegames.bosk import closest_clockwise

    assert closest_clockwise([0, 2], 2, 4) == 2
    assert closest_clockwise([0, 1], 2, 4) == 0
    assert closest_clockwise([1, 3], 2, 4) == 3


def tied_final(players: int, start: int, totals: tuple[int, ...]):
    """A finished game whose final round's start player and final scores are set by hand (an edge position)."""
    rng = random.Random(7)
    final = core.play(new_game(players), [core.RandomBot(rng)] * players, rng)
    edge = final._draft()
    edge.start = start
    edge.summer = (0,) * players
    edge.winter = totals
    return edge


def test_end_of_the_game_tie_goes_to_the_closest_player_either_way_round_the_table():
    from treegames.bosk import closest_either_way

    # 4 players, final start player P1 (seat 0): seat 3 sits directly counter-clockwise of it,
    # seat 2 two seats clockwise; the closer one, seat 3, wins the tie.
    assert tied_final(4, 0, (5, 9, 20, 20)).winners() == (3,)
    assert closest_either_way([2, 3], 0, 4) == 3
    # One each way and equally close: the one clockwise of the start player wins.
    assert tied_final(4, 0, (5, 20, 9, 20)).winners() == (1,)
    assert closest_either_way([1, 3], 0, 4) == 1 and closest_either_way([0, 2], 1, 4) == 2
    # The final start player, if tied, is closest of all.
    assert tied_final(3, 2, (20, 20, 20)).winners() == (2,)
    assert closest_either_way([0, 1], 2, 3) == 0  # seat 0 is one step clockwise of seat 2, seat 1 one back
    assert "either way" in tied_final(4, 0, (5, 9, 20, 20)).explain()


def test_autumn_lasts_8_rounds_and_every_tree_and_tile_is_used():
    rng = random.Random(3)
    states = core.play(new_game(3), [core.RandomBot(rng)] * 3, rng, keep=True)
    winter = next(s for s in states if s.phase is Phase.WINTER)
    assert winter.round == 8 and not winter.trees_on_board()
    assert all(winter.leaf_tiles(p) == () for p in range(3))


# ---------------------------------------------------------------- Bots


def test_greedy_bot_beats_random_bot_clearly():
    wins = 0
    games = 20
    for seed in range(games):
        rng = random.Random(seed)
        seat = seed % 2
        bots = [core.RandomBot(rng), core.RandomBot(rng)]
        bots[seat] = GreedyBot()
        state = core.play(new_game(2), bots, rng)
        wins += state.winners() == (seat,)
    assert wins >= 16


# ---------------------------------------------------------------- Words: explain, describe, last event

SECTIONS = {
    Phase.START_PLAYER: "Setup 4",
    Phase.SPRING: "I. Spring",
    Phase.SUMMER: "II. Summer",
    Phase.WIND: "III. Autumn, Initial Wind Direction",
    Phase.FALLING_LEAVES: "III. Autumn, Falling Leaves",
    Phase.LEAF_PLACEMENT: "III. Autumn, Leaf Placement",
    Phase.SQUIRREL: "III. Autumn, Squirrel",
    Phase.WINTER: "IV. Winter",
    Phase.GAME_OVER: "End of the Game",
}


def test_explain_names_the_rulebook_section_in_every_phase():
    seen = set()
    for seed in range(6):
        rng = random.Random(seed)
        for state in core.play(new_game(2 + seed % 3), [core.RandomBot(rng)] * (2 + seed % 3), rng, keep=True):
            assert state.explain().startswith(SECTIONS[state.phase])
            seen.add(state.phase)
    assert seen == set(Phase)


def test_describe_and_last_event_tell_the_story(autumn, play):
    state = play(autumn, "autumn tree c3 tile 2", "leaf C3")
    action = state.parse_action("leaf C4")
    assert state.describe(action) == f"Maple drops a leaf on C4 ({state.park.region_of(3, 2)})."
    after = state.apply(action)
    assert after.last_event.startswith(state.describe(action))
    assert "The tree at c3 is removed." in after.last_event
    covering = play(after, "autumn tree d3 tile 3")
    assert covering.describe("leaf C3").startswith("Oak covers Maple's pile of 1 on C3")
    assert autumn.previous.last_event.startswith("Summer is scored on every trail.")


def test_end_of_the_game_tied_scores_go_to_the_final_round_start_player_side():
    ties = 0
    for seed in range(400):
        rng = random.Random(seed)
        players = 2 + seed % 3
        state = core.play(new_game(players), [core.RandomBot(rng)] * players, rng)
        scores = state.scores()
        tied = [p for p, v in enumerate(scores) if v == max(scores)]
        if len(tied) > 1:
            ties += 1
            start = state.start_player
            assert state.winners() == (min(tied, key=lambda p: (p - start) % players),)
            assert state.previous.start_player == start  # no new start player after round 8
    assert ties > 0
