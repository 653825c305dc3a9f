"""GreedyBot plans its whole Battle Phase (issue 12): it plays clouds, trends and disasters when they pay."""

from __future__ import annotations

import random

from mt_positions import do, start

from treegames import core
from treegames.mighty_trees import GreedyBot, new_game
from treegames.mighty_trees.bots import CANOPY_VALUE, ONE_GROW_VALUE, UNDERSTORY_VALUE, progress


def test_greedy_bot_places_a_cloud_to_plant_a_tree_that_needs_it():
    # Piedmont water 5: Betula nigra (water 6-9) fits only under Cumulonimbus (+2); 1 + 2 Sols
    state = start([["Cumulonimbus", "Betula nigra", "Wildfire"], ["Acer saccharum", "Ilex opaca", "Fagus grandifolia"]])
    bot = GreedyBot(random.Random(0))
    first = bot.choose(state)
    assert str(first) == "cloud Cumulonimbus"
    assert str(bot.choose(state.apply(first))) == "plant Betula nigra"


def test_greedy_bot_knocks_down_a_rival_about_to_capture_under_the_round_end_variant():
    # P1 holds 2 canopy trees of water range 1-5; P2 has the round's last turn and a Wet Trend (water +2)
    hands = [["Pinus virginiana", "Sassafras albidum", "Cumulonimbus"], ["Wet Trend", "Ilex opaca", "Fagus grandifolia"]]
    state = do(start(hands, capture_at_round_end=True), "plant Pinus virginiana", "end", "draw Quercus rubra")
    state = do(state, "discard Ilex opaca", "end", "draw Quercus alba")
    state = do(state, "grow 1", "end", "discard Fagus grandifolia", "end", "draw Carya ovata")
    state = do(state, "plant Sassafras albidum", "end", "draw Quercus nigra")
    state = do(state, "discard Quercus alba", "end", "draw Quercus phellos", "grow 1", "end")
    assert state.current_player == 1
    assert str(GreedyBot(random.Random(0)).choose(state)) == "trend Wet Trend"


def test_greedy_bot_grows_its_second_canopy_tree_to_capture_at_once():
    hands = [["Pinus virginiana", "Sassafras albidum", "Cumulonimbus"], ["Wet Trend", "Ilex opaca", "Fagus grandifolia"]]
    state = do(start(hands), "plant Pinus virginiana", "end", "draw Quercus rubra")
    state = do(state, "discard Ilex opaca", "end", "draw Quercus alba")
    state = do(state, "grow 1", "end", "discard Fagus grandifolia", "end", "draw Carya ovata")
    state = do(state, "plant Sassafras albidum", "end", "draw Quercus nigra")
    state = do(state, "discard Quercus alba", "end", "draw Quercus phellos")
    assert state.current_player == 0
    move = GreedyBot(random.Random(0)).choose(state)
    assert str(move) == "grow 1" and state.apply(move).winners() == (0,)


def test_greedy_bot_strikes_a_rival_one_growth_from_capture():
    # P1 has a canopy tree (water 1-5) and an understory tree: next turn's growth captures at once.
    # P2 holds a Wet Trend (water 5 -> 7), which kills both; nothing else P2 holds does as much.
    hands = [["Pinus virginiana", "Sassafras albidum", "Cumulonimbus"], ["Wet Trend", "Ilex opaca", "Fagus grandifolia"]]
    state = do(start(hands), "plant Pinus virginiana", "end", "draw Quercus rubra")
    state = do(state, "discard Ilex opaca", "end", "draw Quercus alba")
    state = do(state, "grow 1", "end", "discard Fagus grandifolia", "end", "draw Carya ovata")
    state = do(state, "plant Sassafras albidum", "end", "draw Quercus nigra")
    assert state.current_player == 1
    assert str(GreedyBot(random.Random(0)).choose(state)) == "trend Wet Trend"
    # a canopy tree with an understory tree beside it is valued as one growth from a capture
    assert progress(state, 0) == CANOPY_VALUE + UNDERSTORY_VALUE + ONE_GROW_VALUE and ONE_GROW_VALUE > 0


def test_greedy_bot_discards_a_tree_that_fits_nowhere_with_a_spare_sol():
    # After planting Pinus taeda (2 Sols), the spare Sol goes on Taxodium distichum (water 7-9 in water 5)
    state = start([["Pinus taeda", "Taxodium distichum", "Drought"], ["Acer saccharum", "Ilex opaca", "Fagus grandifolia"]])
    bot = GreedyBot(random.Random(0))
    state = state.apply(bot.choose(state))
    assert [str(a) for a in state.history[-1:]] == ["plant Pinus taeda"]
    assert str(bot.choose(state)) == "discard Taxodium distichum"


def test_greedy_bot_beats_random_bot_in_at_least_nine_games_of_ten():
    game = new_game(2)
    wins = 0
    for seed in range(40):
        rng = random.Random(seed)
        seat = seed % 2
        bots = [core.RandomBot(rng), core.RandomBot(rng)]
        bots[seat] = GreedyBot(rng)
        wins += core.play(game, bots, rng).winners() == (seat,)
    assert wins >= 36
