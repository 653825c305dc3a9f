"""One test per Aspens rule and worked example, named after the rulebook section."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from treegames import core
from treegames.aspens import (
    ASPEN,
    END_TURN,
    PINE,
    PLAYER_NAMES,
    ChooseFirst,
    Direction,
    GreedyBot,
    GrowOut,
    GrowUp,
    Phase,
    RollSun,
    Seed,
    expected_gain,
    gain_distribution,
    make_board,
    new_game,
    parse_cell,
)
from treegames.aspens.data import WATER_LAYOUTS
from treegames.core import CHANCE, TERMINAL, IllegalAction


def cells(*names: str) -> frozenset:
    """Hexes from their names."""
    return frozenset(parse_cell(n) for n in names)


def play_random(game, seed: int, keep: bool = False):
    """A whole seeded RandomBot game."""
    rng = random.Random(seed)
    return core.play(game, [core.RandomBot(rng), core.RandomBot(rng)], rng, keep=keep)


# --------------------------------------------------------------------------- Setup


def test_setup_d_randomly_choose_a_first_player(game):
    state = game.new_initial_state()
    assert state.current_player == CHANCE and state.phase is Phase.CHOOSE_FIRST
    assert state.chance_outcomes() == [(ChooseFirst(ASPEN), Fraction(1, 2)), (ChooseFirst(PINE), Fraction(1, 2))]
    for player in (ASPEN, PINE):
        after = state.apply(ChooseFirst(player))
        assert after.first_player == player and after.current_player == player
        assert after.phase is Phase.SEED
    assert "Setup (d)" in state.explain()


def test_components_120_trees_per_bag(game):
    state = game.new_initial_state()
    assert state.supply(ASPEN) == state.supply(PINE) == 120
    assert game.options["trees_per_player"] == 120


# --------------------------------------------------------------------------- How to Get Started


def test_seed_your_starting_forests_alternate_first_player_first(game):
    state = game.new_initial_state().apply("first Pine")
    assert state.hand(PINE) == state.hand(ASPEN) == 3, "each player takes 3 trees from the bag"
    movers = []
    for name in ("H5", "H3", "H11", "H13", "K7", "M5"):
        movers.append(state.current_player)
        state = state.apply(Seed(parse_cell(name)))
    assert movers == [PINE, ASPEN] * 3
    assert state.phase is Phase.GROW_START


def test_seed_your_starting_forests_only_next_to_water(game):
    state = game.new_initial_state().apply("first Aspen")
    water_neighbours = set()
    for w in WATER_LAYOUTS[2]:
        water_neighbours |= set(game.board.neighbors(w))
    assert state.legal_targets()["seed"] == frozenset(water_neighbours)
    with pytest.raises(IllegalAction, match="next to a water tile"):
        state.apply("seed H8")


def test_seed_your_starting_forests_one_tree_per_water_tile_each(game):
    state = core.replay(game, ["first Aspen", "seed H5", "seed H3"])
    with pytest.raises(IllegalAction, match="same water tile"):
        state.apply("seed G5")  # G5 is also beside the West water H4
    assert parse_cell("G5") not in state.legal_targets()["seed"]
    after = state.apply("seed G12")  # beside the East water: fine
    assert after.owner(parse_cell("G12")) == ASPEN


def test_grow_your_starting_forests_four_trees_on_own_seeded_spaces(game):
    state = core.replay(game, ["first Aspen", "seed H5", "seed H3", "seed H11", "seed H13", "seed K7", "seed M5"])
    assert state.phase is Phase.GROW_START and state.current_player == ASPEN
    assert state.hand(ASPEN) == state.hand(PINE) == 4
    assert state.legal_targets()["grow-up"] == cells("H5", "H11", "K7")
    assert state.legal_targets()["grow-out"] == frozenset()
    for _ in range(4):
        assert state.current_player == ASPEN
        state = state.apply("grow-up K7")  # all 4 on one space is allowed
    assert state.height(parse_cell("K7")) == 5
    assert state.current_player == PINE, "then the other player grows"
    for name in ("H3", "H13", "M5", "H3"):
        state = state.apply(f"grow-up {name}")
    assert state.phase is Phase.ROLL_SUN and state.turn_player == ASPEN, "turns start with the first player"


def test_grow_your_starting_forests_example_step_2(game):
    """Aspen puts 2 trees West and 2 East ("boom-or-bust"); Pine puts all 4 South ("slow-and-steady")."""
    state = core.replay(game, [
        "first Aspen", "seed H5", "seed H3", "seed H11", "seed H13", "seed K7", "seed M5",
        "grow-up H5", "grow-up H5", "grow-up H11", "grow-up H11",
        "grow-up M5", "grow-up M5", "grow-up M5", "grow-up M5",
    ])  # fmt: skip
    assert sorted(state.stacks(ASPEN)) == [1, 3, 3] and sorted(state.stacks(PINE)) == [1, 1, 5]
    aspen, pine = gain_distribution(state.stacks(ASPEN)), gain_distribution(state.stacks(PINE))
    assert aspen == {0: Fraction(4, 6), 2: Fraction(2, 6)}, "two trees at once, on a 2 or a 3"
    assert pine == {0: Fraction(2, 6), 1: Fraction(4, 6)}, "one tree, but on 2, 3, 4 or 5"
    assert expected_gain(state.stacks(ASPEN)) == expected_gain(state.stacks(PINE)) == Fraction(2, 3)


def test_grow_your_starting_forests_never_on_an_empty_space(game):
    state = core.replay(game, ["first Aspen", "seed H5", "seed H3", "seed H11", "seed H13", "seed K7", "seed M5"])
    with pytest.raises(IllegalAction, match="Grow Your Starting Forests"):
        state.apply("grow-up H6")
    with pytest.raises(IllegalAction, match="Grow Your Starting Forests"):
        state.apply("grow-out H6")


def test_summary_of_getting_started_three_spaces_and_seven_trees(started):
    for player in (ASPEN, PINE):
        assert len(started.spaces(player)) == 3
        assert sum(started.stacks(player)) == 7
        assert started.hand(player) == 0
        assert started.supply(player) == 120 - 7
        for space in started.spaces(player):
            assert any(started.board.is_water(n) for n in started.board.neighbors(space))


@pytest.mark.parametrize("setup", [5, 6, 7])
def test_variable_starting_setups_four_forests(setup):
    game = new_game(setup)
    state = play_random(game, seed=setup, keep=True)
    grown = next(s for s in state if s.phase is Phase.ROLL_SUN)
    for player in (ASPEN, PINE):
        assert len(grown.spaces(player)) == 4
        assert sum(grown.stacks(player)) == 8
    assert sum(state[-1].scores()) == 147


# --------------------------------------------------------------------------- Taking a Turn


def test_roll_for_sun_and_wind_two_fair_dice(started):
    assert started.current_player == CHANCE and started.phase is Phase.ROLL_SUN
    sun = started.chance_outcomes()
    assert [str(a) for a, _ in sun] == ["sun 2", "sun 3", "sun 4", "sun 5", "sun 6", "sun 7"]
    assert all(p == Fraction(1, 6) for _, p in sun)
    rolled = started.apply("sun 5")
    assert rolled.phase is Phase.ROLL_WIND and rolled.sun == 5
    wind = rolled.chance_outcomes()
    assert [a.direction for a, _ in wind] == list(Direction)
    assert all(p == Fraction(1, 6) for _, p in wind)


def test_roll_for_sun_and_wind_three_valid_directions(started):
    state = started.apply("sun 2").apply("wind E")
    assert set(state.valid_winds()) == {Direction.NE, Direction.E, Direction.SE}, "rulebook: a roll of E"


def test_gain_trees_example_sun_3(gain_example):
    before = (gain_example.hand(ASPEN), gain_example.hand(PINE))
    state = gain_example.apply("wind NE")
    assert state.last_gain == (3, 4)
    assert state.hand(ASPEN) - before[0] == 4, "3 spaces with at least 3 trees, and the bonus"
    assert state.hand(PINE) - before[1] == 4, "4 spaces with at least 3 trees, held for Pine's turn"
    assert "Aspen has 3 spaces with 3 or more trees: +3, and +1 bonus" in state.last_event
    assert state.current_player == ASPEN, "only the current player plants"


def test_gain_trees_come_from_the_bag(gain_example):
    before = (gain_example.supply(ASPEN), gain_example.supply(PINE))
    state = gain_example.apply("wind NE")
    assert (state.supply(ASPEN), state.supply(PINE)) == (before[0] - 4, before[1] - 4)


def test_example_turns_aspen_rolls_sun_4(example_turns):
    assert example_turns.hand(ASPEN) == 0
    state = example_turns.apply("sun 4").apply("wind NE")
    assert state.hand(ASPEN) == 4, "3 spaces with at least 4 trees, plus the bonus"
    assert state.hand(PINE) == 0, "Pine has no space with 4 or more trees"
    # 1, 2, 3: East, North East, then East again from the West forest; 4: North West near the East water
    for text in ("grow-out E from H5 to H6", "grow-out NE from H6 to G7", "grow-out E from G7 to G8",
                 "grow-out NW from H11 to G11"):  # fmt: skip
        state = state.apply(text)
    assert state.hand(ASPEN) == 0
    assert cells("H6", "G7", "G8", "G11") <= state.spaces(ASPEN)


def test_example_turns_pine_rolls_sun_2_grows_up_and_out(example_turns):
    state = core.replay(
        example_turns.game,
        [str(a) for a in example_turns.history]
        + ["sun 4", "wind NE", "grow-out H6", "grow-out G7", "grow-out G8", "grow-out G11", "end-turn"],
    )
    state = state.apply("sun 2").apply("wind W")
    assert state.last_gain == (3, 5)
    assert state.hand(PINE) == 6, "5 spaces with 2 or more trees, plus the bonus"
    assert state.hand(ASPEN) == 3, "Aspen holds its 3 trees for its own turn"
    heights_before = {c: state.height(c) for c in cells("H3", "H13")}
    for text in ("grow-up H3", "grow-up H13",  # 1, 2: grow up on spaces that had 3 trees
                 "grow-out NW from H13 to G13", "grow-out W from G13 to G12", "grow-out SW from H13 to I12",
                 "grow-out NW from M5 to L5"):  # fmt: skip
        state = state.apply(text)
    assert all(state.height(c) == h + 1 == 4 for c, h in heights_before.items())
    assert cells("G13", "G12", "I12", "L5") <= state.spaces(PINE)
    assert state.hand(PINE) == 0 and state.can_end_turn()


def test_plant_a_grow_up_on_any_own_space_wind_irrelevant(planting):
    assert planting.legal_targets()["grow-up"] == planting.spaces(ASPEN)
    state = planting.apply("grow-up K7")  # K7 is not reachable in the Wind from anything
    assert state.height(parse_cell("K7")) == 2
    assert state.hand(ASPEN) == planting.hand(ASPEN) - 1


def test_plant_b_grow_out_adjacent_in_a_valid_wind_direction(planting):
    # Wind E: valid NE, E, SE.  From H5 (-3,0): E is H6, NE is G6, SE is I5; W (H4) is water.
    targets = planting.legal_targets()["grow-out"]
    assert cells("H6", "G6", "I5") <= targets
    assert parse_cell("G5") not in targets, "NW of H5 is out of the Wind"
    state = planting.apply("grow-out NE from H5 to G6")
    assert state.owner(parse_cell("G6")) == ASPEN and state.height(parse_cell("G6")) == 1
    with pytest.raises(IllegalAction, match="out of the Wind"):
        planting.apply("grow-out G5")


def test_plant_b_grow_out_chain_from_trees_planted_this_turn(planting):
    assert parse_cell("H7") not in planting.legal_targets()["grow-out"]
    state = planting.apply("grow-out H6")
    assert parse_cell("H7") in state.legal_targets()["grow-out"], "H6 was planted this turn"
    state = state.apply("grow-out E from H6 to H7")
    assert state.owner(parse_cell("H7")) == ASPEN


def test_plant_b_water_is_never_an_empty_space(planting):
    water = parse_cell("H12")
    assert water not in planting.legal_targets()["grow-out"]
    with pytest.raises(IllegalAction, match="water"):
        planting.apply(GrowOut(water))
    with pytest.raises(IllegalAction, match="water"):
        planting.apply(GrowUp(water))


def test_important_reminders_never_on_the_other_players_space(started):
    state = started.apply("sun 2").apply("wind W")  # W is valid: from H5 the West is water, from H11 it is H10
    for action in (GrowOut(parse_cell("H3")), GrowUp(parse_cell("H3"))):
        with pytest.raises(IllegalAction, match="owned by the other player"):
            state.apply(action)


def test_important_reminders_hold_up_to_five_trees(started):
    state = core.replay(started.game, [str(a) for a in started.history] + ["sun 2", "wind E", "end-turn"])
    assert state.hand(ASPEN) == 3, "Aspen kept all 3 trees"
    assert state.hand(PINE) == 2
    state = state.apply("sun 2").apply("wind E").apply("end-turn")  # Pine keeps 2 + 3 = 5: allowed
    assert state.hand(PINE) == 5
    state = state.apply("sun 2").apply("wind E")
    assert state.hand(ASPEN) == 3 + 2 + 3, "held 3, +2 on Pine's roll, +2 and the bonus on its own"
    assert not state.can_end_turn()
    with pytest.raises(IllegalAction, match="at most 5"):
        state.apply(END_TURN)
    for _ in range(3):
        state = state.apply("grow-up H5")
    assert state.hand(ASPEN) == 5 and state.can_end_turn()
    assert state.apply(END_TURN).turn_player == PINE


def test_turn_summary_turns_alternate(planting):
    state = planting
    while state.hand(ASPEN):
        state = state.apply("grow-up H5")
    state = state.apply(END_TURN)
    assert state.phase is Phase.ROLL_SUN and state.turn_player == PINE
    assert state.sun is None and state.wind is None


def test_cascades_fill_closed_off_areas_for_free():
    game = new_game()
    found = 0
    for seed in range(6):
        states = play_random(game, seed, keep=True)
        for before, after in zip(states, states[1:], strict=False):
            if not after.last_cascade:
                continue
            found += 1
            mover = before.current_player
            area = after.last_cascade
            assert all(after.owner(c) == mover and after.height(c) == 1 for c in area)
            assert all(before.owner(c) is None for c in area)
            taken = (before.supply(mover) - after.supply(mover)) + (after.replacements(mover) - before.replacements(mover))
            assert taken == len(area), "one tree from the bag (or a replacement) per space"
            assert after.hand(mover) == before.hand(mover) - 1, "only the planted tree came from the hand"
            # nothing of the area touches the opponent: it can no longer be reached
            touching = {after.owner(n) for c in area for n in after.board.neighbors(c)}
            assert 1 - mover not in touching
            assert "Cascade!" in after.last_event
    assert found > 5


def test_cascades_are_not_checked_before_the_turns_start(game):
    state = core.replay(game, ["first Aspen", "seed H5"])
    assert not state.last_cascade and len(state.empty_cells()) == 147


def test_cascade_timing_end_of_turn_option():
    game = new_game(cascade_timing="end-of-turn")
    states = play_random(game, seed=3, keep=True)
    filled = [s for s in states if s.last_cascade]
    assert filled and all(str(s.last_action) == "end-turn" or s.is_terminal() for s in filled)
    assert sum(states[-1].scores()) == 148


def test_running_out_of_trees_uses_replacements():
    game = new_game(trees_per_player=20)
    final = play_random(game, seed=1)
    assert final.is_terminal() and sum(final.scores()) == 148
    for player in (ASPEN, PINE):
        assert final.supply(player) == 0
        assert final.replacements(player) > 0
        on_board = sum(final.stacks(player))
        assert on_board + final.hand(player) == 20 + final.replacements(player)


# --------------------------------------------------------------------------- Finishing & Scoring


@pytest.mark.parametrize("setup, playable", [(2, 148), (3, 148), (4, 148), (5, 147), (6, 147), (7, 147)])
def test_finishing_and_scoring_scores_sum_to_playable_spaces(setup, playable):
    game = new_game(setup)
    assert game.playable_count == playable == len(make_board(setup).playable)
    final = play_random(game, seed=setup)
    assert final.is_terminal() and final.current_player == TERMINAL and final.phase is Phase.GAME_OVER
    assert not final.empty_cells()
    assert sum(final.scores()) == playable
    assert final.legal_actions() == []
    a, b = final.scores()
    assert final.winners() == ((ASPEN,) if a > b else (PINE,) if b > a else (ASPEN, PINE))
    assert "Finishing & Scoring" in final.explain()


def test_finishing_and_scoring_tie_is_a_shared_victory():
    game = new_game()
    for seed in range(400):
        final = play_random(game, seed)
        if final.scores() == (74, 74):
            assert final.winners() == (ASPEN, PINE)
            assert "shared victory" in final.explain()
            return
    pytest.fail("no tied game among 400 seeds")


def test_no_winner_before_the_end(started):
    assert started.winners() == ()
    assert started.scores() == (3, 3)


def test_explain_names_the_rulebook_section(game, started, planting):
    assert "Seed Your Starting Forests" in game.new_initial_state().apply("first Aspen").explain()
    assert "Roll for Sun and Wind" in started.explain()
    assert "Plant Your New Trees" in planting.explain()
    assert "(SE, E, NE)" in planting.explain(), "the three valid Wind directions are named"
    assert PLAYER_NAMES[ASPEN] in planting.explain()


def test_options_setup_and_interpretations():
    game = new_game()
    assert game.name == "aspens" and game.num_players == 2
    assert game.options == {"setup": 2, "cascade_timing": "each-tree", "trees_per_player": 120}
    with pytest.raises(ValueError, match="2, 3, 4, 5, 6, 7"):
        new_game(8)
    with pytest.raises(ValueError, match="each-tree"):
        new_game(cascade_timing="sometimes")
    with pytest.raises(ValueError, match="options are"):
        new_game(colour="green")
    with pytest.raises(ValueError, match="trees_per_player"):
        new_game(trees_per_player=0)
    with pytest.raises(ValueError):
        new_game(True)
    seeding = game.new_initial_state().apply("first Aspen")
    assert seeding.chance_outcomes() == [], "no dice while seeding"
    with pytest.raises(IllegalAction, match="Roll for Sun and Wind"):
        seeding.apply(RollSun(4))


SECTION_OF_PHASE = {
    Phase.CHOOSE_FIRST: "Setup (d)",
    Phase.SEED: "1. Seed Your Starting Forests",
    Phase.GROW_START: "2. Grow Your Starting Forests",
    Phase.ROLL_SUN: "1. Roll for Sun and Wind",
    Phase.ROLL_WIND: "1. Roll for Sun and Wind",
    Phase.PLANT: "3. Plant Your New Trees",
    Phase.GAME_OVER: "Finishing & Scoring",
}


def test_explain_names_the_section_of_every_phase():
    seen = set()
    for state in play_random(new_game(), seed=11, keep=True):
        assert SECTION_OF_PHASE[state.phase] in state.explain()
        assert state.last_event
        seen.add(state.phase)
    assert seen == set(Phase)


# --------------------------------------------------------------------------- 3A Grow Up has no cap


def test_3a_grow_up_works_on_any_space_you_own_however_tall(started):
    """3A Grow Up: a player may add a tree to any space they own; no stack is ever full.

    With every Sun roll a 2 and every tree grown up on one stack, Aspen's H5 passes
    255 trees (where the engine once stopped offering Grow Up and, in a blocked
    position, left the player with no legal action at all).
    """
    state = started
    tall, other = parse_cell("H5"), parse_cell("H3")
    while state.height(tall) <= 300:
        state = state.apply("sun 2").apply("wind E")
        target = tall if state.current_player == ASPEN else other
        while state.hand(state.current_player):
            assert GrowUp(target) in state.legal_actions(), f"grow up offered at {state.height(target)} trees"
            state = state.apply(GrowUp(target))
        state = state.apply(END_TURN)
    assert state.height(tall) > 300 and max(state.stacks(ASPEN)) == state.height(tall)
    assert core.replay(state.game, [str(a) for a in state.history]) == state, "a tall stack saves and loads"
    # A turn can always be finished: grow up (or out) until at most 5 are held, then end the turn.
    for seed in range(3):
        rng = random.Random(seed)
        turn = state.apply("sun 2").apply("wind E")
        for bot in (core.RandomBot(rng), GreedyBot(rng)):
            now = turn
            while now.phase is Phase.PLANT:
                assert now.legal_actions()
                now = now.apply(bot.choose(now))
            assert now.phase in (Phase.ROLL_SUN, Phase.GAME_OVER)


def test_3a_grow_up_on_a_tall_stack_in_a_blocked_position_still_leaves_a_move(planting):
    """Taking a Turn, 3.: a player holding more than 5 trees on stacks of 255 can still grow up."""
    state = planting
    edge = state._draft()  # an edge position: every Aspen stack at 255 and far more trees in hand than 5
    heights = bytearray(edge._heights[ASPEN])
    for cell in state.spaces(ASPEN):
        heights[state._geo.bit[cell]] = 255
    edge._heights = (bytes(heights), edge._heights[PINE])
    edge._hand = (40, edge._hand[PINE])
    ups = [a for a in edge.legal_actions() if isinstance(a, GrowUp)]
    assert {a.cell for a in ups} == set(state.spaces(ASPEN)) and not edge.can_end_turn()
    after = edge.apply(ups[0])
    assert after.height(ups[0].cell) == 256 and after.apply(ups[0]).height(ups[0].cell) == 257
    assert core.RandomBot(random.Random(1)).choose(edge) in edge.legal_actions()


# --------------------------------------------------------------------------- the text picture


def test_picture_draws_every_row_on_the_same_hex_offsets_so_neighbours_touch():
    """Our text picture: a hex's E/W neighbour is 4 columns along its line, its SE/SW neighbour
    2 columns right/left on the next line (pointy-top hexes, each row half a hex over)."""
    state = play_random(new_game(), 3)
    lines = state.picture().splitlines()
    board = state.board
    assert len(lines) == 15
    where = {}
    for r, line in zip(range(-7, 8), lines, strict=True):
        row = sorted((c for c in board.cells if c.r == r), key=lambda c: c.q)
        columns = [i for i in range(0, len(line), 1) if line[i] != " " and (i == 0 or line[i - 1] == " ")]
        assert len(columns) == len(row), f"row {r}: one mark per hex"
        where.update({cell: (r, col) for cell, col in zip(row, columns, strict=True)})
    for cell, (line, col) in where.items():
        for direction, shift in ((Direction.E, 4), (Direction.SE, 2), (Direction.SW, -2)):
            dq, dr = direction.delta
            neighbour = type(cell)(cell.q + dq, cell.r + dr)
            if neighbour in where:
                assert where[neighbour] == (line + dr, col + shift), f"{cell} and its {direction.name} neighbour"
    f12, g11 = parse_cell("F12"), parse_cell("G11")
    assert abs(where[f12][1] - where[g11][1]) == 2 and abs(where[f12][0] - where[g11][0]) == 1
