"""Mighty Trees Timber Party Game: one test per rule and per documented interpretation.

Positions are reached by scripting the chance outcomes (habitat, each card
dealt or drawn, the first player), so every test runs the real rules.  The
default habitat is the Piedmont Oak-Hickory Forest: temperature 7, water 5,
preferred Quercus alba / Carya / Liquidambar styraciflua, rich soil (growing
costs 1 Sol less, at least 2), fire and wind modifiers 0.  Every planting and
growth costs 2 or 3 Sols, so a turn holds one of them (plus a 1-Sol cloud or
discard); ``pass_turn`` lets a player discard a card and end.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from mt_positions import do, start

from treegames import core
from treegames.core import CHANCE, TERMINAL, IllegalAction
from treegames.mighty_trees import Phase, new_game

PIEDMONT = "Piedmont Oak-Hickory Forest"






def refused(state, text, *words):
    """Assert the action is refused with IllegalAction naming ``words`` and the state is unchanged."""
    before = state._key()
    history = state.history
    with pytest.raises(IllegalAction) as err:
        state.apply(state.parse_action(text))
    for word in words:
        assert word in str(err.value), str(err.value)
    assert state._key() == before and state.history == history
    return str(err.value)


def names(slots):
    """Card names in a tuple of slots (None for empty)."""
    return tuple(c.name if c is not None else None for c in slots)


HANDS_2 = [
    ["Liriodendron tulipifera", "Prunus serotina", "Pinus taeda"],
    ["Acer saccharum", "Ilex opaca", "Fagus grandifolia"],
]


def pass_turn(state, discard, draw):
    """The mover discards a card from the Command (1 Sol), ends, and draws one card."""
    return do(state, f"discard {discard}", "end", f"draw {draw}")


# ----------------------------------------------------------------------- Game Layout


def test_game_layout_habitat_is_drawn_by_chance():
    state = new_game(2).new_initial_state()
    assert state.current_player == CHANCE and state.phase is Phase.HABITAT
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 10 and sum(p for _, p in outcomes) == 1
    assert all(p == Fraction(1, 10) for _, p in outcomes)


def test_game_layout_draw_pile_has_72_cards_and_empty_litter():
    state = new_game(2).new_initial_state()
    assert state.draw_size == 72 and state.litter_cards == ()


def test_player_commands_each_player_is_dealt_three_cards():
    state = do(new_game(3).new_initial_state(), f"habitat {PIEDMONT}")
    assert state.phase is Phase.DEAL
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 72 and all(p == Fraction(1, 72) for _, p in outcomes)
    for _ in range(9):
        state = state.apply(state.legal_actions()[0])
    assert [len(state.hand(p)) for p in range(3)] == [3, 3, 3]
    assert state.draw_size == 72 - 9 and state.phase is Phase.FIRST_PLAYER


def test_game_turn_first_player_is_chosen_by_chance():
    state = do(new_game(4).new_initial_state(), f"habitat {PIEDMONT}")
    for _ in range(12):
        state = state.apply(state.legal_actions()[0])
    assert [(str(a), p) for a, p in state.chance_outcomes()] == [
        (f"first P{i}", Fraction(1, 4)) for i in (1, 2, 3, 4)
    ]
    state = do(state, "first P3")
    assert state.current_player == 2 and state.phase is Phase.BATTLE


def test_understory_and_canopy_each_player_has_two_slots():
    state = start(HANDS_2)
    assert state.understory(0) == (None, None) and state.canopy(1) == (None, None)


# ----------------------------------------------------------------------- Mobilization and Sol Laws


def test_mobilization_phase_starts_with_three_sols():
    state = start(HANDS_2)
    assert state.sols == 3 and state.spent == 0


def test_sol_laws_at_least_one_sol_per_turn():
    refused(start(HANDS_2), "end", "Sol Laws", "at least 1 Sol")


def test_sol_laws_unspent_sols_are_lost():
    state = do(start(HANDS_2), "discard Pinus taeda", "end")
    assert state.phase is Phase.REGROUP and state.sols == 0
    state = do(state, "draw Quercus rubra")
    assert state.current_player == 1 and state.sols == 3


def test_sol_laws_spending_more_than_remain_is_refused():
    hands = [["Quercus alba", "Quercus rubra", "Pinus taeda"], HANDS_2[1]]
    state = do(start(hands), "plant Pinus taeda")
    assert state.sols == 1
    refused(state, "plant Quercus rubra", "Sol Laws", "costs 2 Sols", "1 left")


def test_battle_phase_ends_when_no_sols_are_left():
    state = do(start(HANDS_2), "plant Liriodendron tulipifera", "discard Pinus taeda")
    assert state.phase is Phase.REGROUP and state.current_player == CHANCE


def test_sol_laws_one_sol_to_discard_from_command_understory_or_canopy():
    hands = [["Pinus virginiana", "Sassafras albidum", "Cumulonimbus"], HANDS_2[1]]
    state = do(start(hands), "plant Pinus virginiana", "discard Cumulonimbus")
    assert state.phase is Phase.REGROUP and "Cumulonimbus" in names(state.litter_cards)
    state = do(state, "draw Quercus rubra", "draw Quercus alba")
    state = pass_turn(state, "Ilex opaca", "Carya ovata")
    state = do(state, "grow 1")
    assert state.sols == 1 and names(state.canopy(0)) == ("Pinus virginiana", None)
    after = do(state, "discard canopy 1")
    assert after.canopy(0) == (None, None) and "Pinus virginiana" in names(after.litter_cards)
    assert after.current_player == 1  # 3 Sols spent; the Command still holds 3 cards: no draw
    state = do(start(hands), "plant Sassafras albidum", "discard understory 1")
    assert state.phase is Phase.REGROUP and names(state.litter_cards) == ("Sassafras albidum",)


# ----------------------------------------------------------------------- Plant Trees


def test_plant_trees_costs_planting_sols_and_fills_understory():
    hands = [["Quercus alba", "Prunus serotina", "Pinus taeda"], HANDS_2[1]]
    state = do(start(hands), "plant Pinus taeda")
    assert state.sols == 1 and names(state.understory(0)) == ("Pinus taeda", None)
    assert "Pinus taeda" not in names(state.hand(0))
    state = do(start(hands), "plant Quercus alba")  # 3 Sols: the whole turn
    assert state.phase is Phase.REGROUP and names(state.understory(0)) == ("Quercus alba", None)


def test_plant_trees_unsuitable_habitat_is_refused():
    hands = [["Taxodium distichum", "Pinus palustris", "Pinus taeda"], HANDS_2[1]]
    refused(start(hands), "plant Taxodium distichum", "Plant Trees", "water 5", "7-9")


def test_plant_trees_temperature_outside_range_is_refused():
    hands = [["Tsuga canadensis", "Sabal palmetto", "Pinus taeda"], HANDS_2[1]]
    refused(start(hands), "plant Sabal palmetto", "Plant Trees", "temperature 7", "8-9")


def test_plant_trees_full_understory_is_refused():
    state = do(start(HANDS_2), "plant Liriodendron tulipifera", "end", "draw Quercus rubra")
    state = pass_turn(state, "Ilex opaca", "Quercus alba")
    state = do(state, "plant Prunus serotina")
    refused(state, "plant Pinus taeda", "Plant Trees", "understory slots are full")


def test_plant_trees_card_must_be_in_command():
    refused(start(HANDS_2), "plant Quercus alba", "Player Commands", "not in your Command")


# ----------------------------------------------------------------------- Grow Trees


def grown_once(habitat, tree):
    """P1 plants ``tree`` (turn 1), P2 passes, and it is P1's second turn."""
    hands = [[tree, "Pinus echinata", "Cumulonimbus"], HANDS_2[1]]
    state = do(start(hands, habitat=habitat), f"plant {tree}", "end", "draw Quercus alba")
    return pass_turn(state, "Ilex opaca", "Carya ovata")


def test_grow_trees_costs_growth_sols():
    state = do(grown_once("Cumberland Plateau Oak Forest", "Pinus taeda"), "grow 1")  # growth 2
    assert state.sols == 1 and names(state.canopy(0)) == ("Pinus taeda", None)
    assert state.understory(0) == (None, None)
    state = do(grown_once("Cumberland Plateau Oak Forest", "Quercus rubra"), "grow 1")  # growth 3
    assert state.current_player == 1 and names(state.canopy(0)) == ("Quercus rubra", None)  # 3 Sols


def test_grow_trees_rich_soil_power_takes_one_sol_off_never_below_two():
    state = grown_once(PIEDMONT, "Quercus rubra")
    assert state.cost_of(state.parse_action("grow 1")) == 2  # growth 3 - 1
    state = grown_once(PIEDMONT, "Pinus taeda")
    assert state.cost_of(state.parse_action("grow 1")) == 2  # growth 2 stays 2


def test_grow_trees_empty_slot_is_refused():
    refused(start(HANDS_2), "grow 2", "Grow Trees", "slot 2 is empty")


def test_grow_trees_planting_and_growing_never_fit_in_one_turn():
    hands = [["Pinus virginiana", "Sassafras albidum", "Cumulonimbus"], HANDS_2[1]]
    state = do(start(hands), "plant Pinus virginiana")
    refused(state, "grow 1", "Sol Laws", "costs 2 Sols", "1 left")


# ----------------------------------------------------------------------- Tree Combat


def combat_position(extra="Liquidambar styraciflua"):
    """P2 (first) plants Ilex opaca (shade 7) and Quercus phellos (shade 3) over two turns; P1 to move.

    P1 holds Liriodendron tulipifera (sun 6), Pinus taeda (sun 6) and ``extra``.
    """
    hands = [["Liriodendron tulipifera", "Pinus taeda", "Cumulonimbus"], ["Ilex opaca", "Quercus phellos", "Fagus grandifolia"]]
    state = do(start(hands, first=2), "plant Ilex opaca", "end", "draw Quercus rubra")
    state = pass_turn(state, "Cumulonimbus", extra)
    state = do(state, "plant Quercus phellos", "end", "draw Quercus alba")
    assert state.current_player == 0 and state.tree_count(1) == 2
    return state


def test_initiate_tree_combat_attacker_wins_with_more_sun():
    state = do(combat_position(), "plant Liriodendron tulipifera attack P2 understory 2")  # sun 6 > shade 3
    assert names(state.understory(1)) == ("Ilex opaca", None)
    assert names(state.understory(0)) == ("Liriodendron tulipifera", None)
    assert "Quercus phellos" in names(state.litter_cards) and "dies" in state.last_event


def test_initiate_tree_combat_attacker_dies_with_less_sun():
    state = do(combat_position(), "plant Pinus taeda attack P2 understory 1")  # sun 6 < shade 7
    assert state.understory(0) == (None, None) and "Pinus taeda" in names(state.litter_cards)
    assert names(state.understory(1)) == ("Ilex opaca", "Quercus phellos")


def test_initiate_tree_combat_tie_leaves_both_standing():
    state = do(combat_position("Prunus serotina"), "plant Prunus serotina attack P2 understory 1")  # 7 = 7
    assert names(state.understory(1)) == ("Ilex opaca", "Quercus phellos")
    assert names(state.understory(0)) == ("Prunus serotina", None) and "tie" in state.last_event


def test_initiate_tree_combat_preferred_species_gets_two_more():
    state = do(combat_position(), "plant Liquidambar styraciflua attack P2 understory 1")  # 6 + 2 > 7
    assert names(state.understory(1)) == (None, "Quercus phellos")


def test_initiate_tree_combat_rule_1_only_when_first_planted():
    state = combat_position()
    attacks = [a for a in state.legal_actions() if a.player >= 0 and a.verb.value != "disaster"]
    assert attacks and all(str(a).startswith("plant ") for a in attacks)


def test_initiate_tree_combat_rule_2_canopy_trees_cannot_be_attacked():
    refused(combat_position(), "plant Liriodendron tulipifera attack P2 canopy 1", "rule 2", "understory")


def test_initiate_tree_combat_rule_3_player_needs_two_trees():
    hands = [["Liriodendron tulipifera", "Pinus taeda", "Prunus serotina"], HANDS_2[1]]
    state = do(start(hands, first=2), "plant Ilex opaca", "end", "draw Quercus rubra")
    refused(state, "plant Liriodendron tulipifera attack P2 understory 1", "rule 3", "at least 2 trees")


def test_initiate_tree_combat_rule_4_is_optional():
    legal = [str(a) for a in combat_position().legal_actions()]
    assert "plant Liriodendron tulipifera" in legal
    assert "plant Liriodendron tulipifera attack P2 understory 1" in legal


def test_initiate_tree_combat_own_trees_cannot_be_attacked():
    state = do(combat_position(), "plant Pinus taeda")
    refused(state, "plant Liriodendron tulipifera attack P1 understory 1", "not your own")


def test_initiate_tree_combat_costs_only_the_planting():
    state = do(combat_position(), "plant Liriodendron tulipifera attack P2 understory 2")
    assert state.sols == 1 and state.spent == 2


# ----------------------------------------------------------------------- Regroup Phase and the litter


def test_regroup_phase_draws_until_three_cards_then_next_turn():
    state = do(start(HANDS_2), "plant Liriodendron tulipifera", "discard Pinus taeda")
    assert state.phase is Phase.REGROUP
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 66 and all(p == Fraction(1, 66) for _, p in outcomes)
    state = do(state, "draw Quercus rubra")
    assert state.phase is Phase.REGROUP
    state = do(state, "draw Carya ovata")
    assert len(state.hand(0)) == 3 and state.current_player == 1 and state.sols == 3


def test_regroup_phase_no_draw_needed_with_full_command():
    hands = [["Pinus virginiana", "Sassafras albidum", "Cumulonimbus"], HANDS_2[1]]
    state = do(start(hands), "plant Pinus virginiana", "end", "draw Quercus rubra")
    state = pass_turn(state, "Ilex opaca", "Quercus alba")
    state = do(state, "grow 1", "end")  # the Command still holds 3 cards: no draw
    assert state.current_player == 1 and state.phase is Phase.BATTLE and len(state.hand(0)) == 3


def test_game_layout_litter_becomes_the_new_draw_pile():
    game = new_game(2, max_turns=1000)
    seen = False
    for seed in range(20):
        if seen:
            break
        rng = core.random.Random(seed)
        state = game.new_initial_state()
        bots = [core.RandomBot(rng), core.RandomBot(rng)]
        seen = litter_turns_over(state, bots, rng)
    assert seen


def litter_turns_over(state, bots, rng) -> bool:
    """Play the game out; whether the litter became the draw pile (checking cards at that moment)."""
    seen = False
    while not state.is_terminal():
        before = state
        state = core.step(state, bots, rng)
        if "litter pile becomes the new draw pile" in state.last_event:
            seen = True
            assert before.draw_size <= 1 and len(state.litter_cards) == 0
            assert state.draw_size > 0 and state.cards_in_play() == 72
    return seen


# ----------------------------------------------------------------------- Weather and climate


def test_cloud_card_costs_one_sol_and_changes_water_until_next_turn():
    hands = [["Cumulonimbus", "Betula nigra", "Pinus taeda"], HANDS_2[1]]
    state = start(hands)
    refused(state, "plant Betula nigra", "water 5")
    state = do(state, "cloud Cumulonimbus")
    assert state.sols == 2 and state.water == 7 and names(c for c, _, _ in state.weather) == ("Cumulonimbus",)
    state = do(state, "plant Betula nigra", "draw Quercus rubra", "draw Quercus alba")
    assert state.current_player == 1 and state.water == 7  # still in play on P2's turn
    state = pass_turn(state, "Ilex opaca", "Carya ovata")
    assert state.current_player == 0 and state.water == 5 and state.weather == ()
    assert "Cumulonimbus" in names(state.litter_cards)
    assert names(state.understory(0)) == ("Betula nigra", None)  # a card leaving play kills nothing


def test_trend_card_costs_two_sols_changes_for_good_and_unfit_trees_die():
    hands = [["Quercus stellata", "Wet Trend", "Pinus taeda"], HANDS_2[1]]
    state = do(start(hands), "plant Quercus stellata", "end", "draw Quercus rubra")
    state = pass_turn(state, "Ilex opaca", "Quercus alba")
    state = do(state, "trend Wet Trend")  # water 5 -> 7; its water range is 1-5
    assert state.water == 7 and state.understory(0) == (None, None) and state.sols == 1
    assert "Quercus stellata" in names(state.litter_cards) and names(state.trend_cards) == ("Wet Trend",)
    state = do(state, "end", "draw Carya ovata")
    state = pass_turn(state, "Fagus grandifolia", "Quercus nigra")
    assert state.water == 7 and state.weather == ()  # lasting


def test_climate_cards_kill_only_on_the_axis_they_change():
    """Issue 12: a tree planted under a cloud is not killed for water by a temperature card."""
    hands = [["Cumulonimbus", "Betula nigra", "Warming Trend"], HANDS_2[1]]
    state = do(start(hands), "cloud Cumulonimbus", "plant Betula nigra", "draw Quercus rubra", "draw Quercus alba")
    state = pass_turn(state, "Ilex opaca", "Carya ovata")
    assert state.water == 5 and not state.understory(0)[0].fits(*state.conditions())  # the cloud has gone
    state = do(state, "trend Warming Trend")  # temperature 7 -> 8: inside Betula nigra's 4-9
    assert names(state.understory(0)) == ("Betula nigra", None) and "No tree dies" in state.last_event
    hands = [["Cumulonimbus", "Betula nigra", "Dry Trend"], HANDS_2[1]]
    state = do(start(hands), "cloud Cumulonimbus", "plant Betula nigra", "draw Quercus rubra", "draw Quercus alba")
    state = do(pass_turn(state, "Ilex opaca", "Carya ovata"), "trend Dry Trend")  # water 5 -> 3: misses 6-9
    assert state.understory(0) == (None, None) and "Betula nigra dies" in state.last_event


def test_disaster_wildfire_burns_trees_with_low_fire_strength_on_every_side():
    hands = [["Wildfire", "Quercus stellata", "Cumulonimbus"], ["Acer saccharum", "Ilex opaca", "Quercus rubra"]]
    state = do(start(hands, first=2), "plant Ilex opaca", "end", "draw Pinus taeda")
    state = do(state, "plant Quercus stellata", "end", "draw Quercus alba")
    state = do(state, "plant Acer saccharum", "draw Carya ovata")
    state = do(state, "disaster Wildfire")  # force 4: fire 3 and 3 burn; fire 6 stands
    assert state.understory(1) == (None, None)
    assert names(state.understory(0)) == ("Quercus stellata", None)
    assert "force 4" in state.last_event and state.phase is Phase.REGROUP


def test_disaster_habitat_fire_modifier_lowers_the_force():
    cove = "Southern Appalachian Cove"  # fire -1
    hands = [["Wildfire", "Fagus grandifolia", "Acer rubrum"], ["Acer saccharum", "Ilex opaca", "Quercus rubra"]]
    state = do(start(hands, habitat=cove), "plant Fagus grandifolia", "draw Quercus alba")
    state = pass_turn(state, "Ilex opaca", "Carya ovata")
    state = do(state, "plant Acer rubrum", "end", "draw Pinus taeda")
    state = pass_turn(state, "Quercus rubra", "Quercus nigra")
    state = do(state, "disaster Wildfire")  # force 4 - 1 = 3: fire 2 burns, fire 3 stands
    assert names(state.understory(0)) == (None, "Acer rubrum") and "force 3" in state.last_event


def test_disaster_preferred_species_gets_two_more_strength():
    hands = [["Wildfire", "Carya illinoinensis", "Cumulonimbus"], HANDS_2[1]]
    state = do(start(hands), "plant Carya illinoinensis", "draw Quercus alba")  # 3 Sols
    state = do(state, "plant Ilex opaca", "end", "draw Quercus rubra")
    state = do(state, "disaster Wildfire")  # force 4: Carya fire 3 + 2 (Piedmont prefers Carya) stands
    assert names(state.understory(0)) == ("Carya illinoinensis", None)
    assert state.understory(1) == (None, None)  # Ilex opaca, fire 3, burns


def test_every_disaster_can_be_unleashed_in_every_habitat():
    hands = [["Hurricane", "Flood", "Ice Storm"], HANDS_2[1]]
    state = start(hands)
    for name in ("Hurricane", "Flood", "Ice Storm"):
        assert state.why_not(state.parse_action(f"disaster {name}")) is None


@pytest.mark.parametrize(
    ("habitat", "disaster", "cost"),
    [
        ("Longleaf Pine Sandhills", "Wildfire", 2),  # fire season: 3 - 1
        ("Gulf Coast Pine Flatwoods", "Hurricane", 1),  # hurricane coast: 2 - 1
        ("Okefenokee Cypress Swamp", "Drought", 1),  # floodplain: 2 - 1
        ("Blue Ridge High Slopes", "Hard Freeze", 1),  # high elevation: 2 - 1
        (PIEDMONT, "Hurricane", 2),  # rich soil: no discount on disasters
    ],
)
def test_habitat_power_takes_a_sol_off_its_element(habitat, disaster, cost):
    hands = [[disaster, "Pinus taeda", "Cumulonimbus"], HANDS_2[1]]
    state = start(hands, habitat=habitat)
    assert state.cost_of(state.parse_action(f"disaster {disaster}")) == cost
    assert do(state, f"disaster {disaster}").spent == cost


def test_disaster_tornado_strikes_one_chosen_side():
    blue_ridge = "Blue Ridge High Slopes"  # wind +1: force 5
    hands = [["Tornado", "Prunus serotina", "Cumulonimbus"], ["Liriodendron tulipifera", "Ilex opaca", "Quercus rubra"]]
    state = do(start(hands, habitat=blue_ridge, first=2), "plant Liriodendron tulipifera", "end", "draw Acer rubrum")
    state = do(state, "plant Prunus serotina", "end", "draw Quercus alba")
    state = pass_turn(state, "Ilex opaca", "Carya ovata")
    refused(state, "disaster Tornado", "choose another player's side")
    refused(state, "disaster Tornado at P1", "another player's")
    state = do(state, "disaster Tornado at P2")  # wind 4 < 5 falls on P2's side only
    assert state.understory(1) == (None, None) and state.phase is Phase.REGROUP
    assert names(state.understory(0)) == ("Prunus serotina", None)


def test_disaster_ground_fire_strikes_only_understory_and_crown_fire_only_canopy():
    hands = [["Ground Fire", "Prunus serotina", "Acer rubrum"], HANDS_2[1]]
    state = do(start(hands), "plant Prunus serotina", "end", "draw Crown Fire")
    state = pass_turn(state, "Ilex opaca", "Quercus alba")
    state = do(state, "grow 1", "end")
    state = pass_turn(state, "Fagus grandifolia", "Carya ovata")
    state = do(state, "plant Acer rubrum", "disaster Ground Fire")  # force 4, understory only: fire 3 burns
    assert names(state.canopy(0)) == ("Prunus serotina", None) and state.understory(0) == (None, None)
    state = do(state, "draw Quercus rubra", "draw Quercus nigra")
    state = pass_turn(state, "Acer saccharum", "Quercus phellos")
    state = do(state, "disaster Crown Fire")  # canopy only: Prunus serotina, fire 3, burns
    assert state.canopy(0) == (None, None)


def test_disaster_drought_lingers_two_rounds_and_kills_unfit_trees():
    hands = [["Drought", "Liriodendron tulipifera", "Quercus alba"], ["Magnolia virginiana", "Quercus marilandica", "Fagus grandifolia"]]
    state = do(start(hands), "plant Liriodendron tulipifera", "end", "draw Quercus rubra")  # water 4-7
    state = pass_turn(state, "Fagus grandifolia", "Carya ovata")
    state = do(state, "disaster Drought")  # water 5 - 2 = 3
    assert state.understory(0) == (None, None) and state.water == 3
    assert [(c.name, o, r) for c, o, r in state.lingering] == [("Drought", 0, 2)]
    state = do(state, "end", "draw Pinus echinata")
    refused(state, "plant Magnolia virginiana", "water 3")
    state = do(state, "plant Quercus marilandica", "end", "draw Quercus phellos")  # water 1-4: fits only now
    assert [(c.name, r) for c, _, r in state.lingering] == [("Drought", 1)]
    state = pass_turn(state, "Quercus rubra", "Quercus nigra")
    state = pass_turn(state, "Magnolia virginiana", "Juglans nigra")
    assert state.lingering == () and state.water == 5 and "Drought" in names(state.litter_cards)
    assert names(state.understory(1)) == ("Quercus marilandica", None)  # a card leaving play kills nothing


def test_game_variations_ignore_lingering():
    hands = [["Drought", "Liriodendron tulipifera", "Quercus alba"], HANDS_2[1]]
    state = do(start(hands, ignore_lingering=True), "plant Liriodendron tulipifera", "end", "draw Quercus rubra")
    state = do(pass_turn(state, "Ilex opaca", "Carya ovata"), "disaster Drought")
    assert state.understory(0) == (None, None)  # it still strikes once
    assert state.lingering == () and state.water == 5 and "Drought" in names(state.litter_cards)


def test_conditions_stay_within_one_to_nine():
    hands = [["Drought", "Pinus echinata", "Quercus laevis"], HANDS_2[1]]
    state = do(start(hands, habitat="Longleaf Pine Sandhills"), "disaster Drought")  # water 2 - 2
    assert state.water == 1


def test_disaster_hurricane_force_adds_the_wind_modifier():
    hands = [["Hurricane", "Pinus elliottii", "Sabal palmetto"], HANDS_2[1]]
    state = do(start(hands, habitat="Gulf Coast Pine Flatwoods"), "disaster Hurricane")  # wind 4 + 1
    assert "force 5" in state.last_event and state.sols == 2


def test_disaster_preferred_bonus_against_wind():
    hands = [["Hurricane", "Pinus taeda", "Sabal palmetto"], ["Pinus elliottii", "Ilex opaca", "Magnolia grandiflora"]]
    habitat = "Gulf Coast Pine Flatwoods"
    state = do(start(hands, habitat=habitat, first=2), "plant Pinus elliottii", "end", "draw Quercus rubra")
    state = do(state, "plant Pinus taeda", "disaster Hurricane")  # force 5: wind 4 falls, 4 + 2 (preferred) stands
    assert names(state.understory(1)) == ("Pinus elliottii", None) and state.understory(0) == (None, None)


# ----------------------------------------------------------------------- Capturing a Habitat and Winning

WIN_HANDS = [["Pinus virginiana", "Sassafras albidum", "Cumulonimbus"], HANDS_2[1]]


def one_grow_from_capture(hands=WIN_HANDS, p2_last_draw="Quercus phellos", **options):
    """P1 plants and grows a tree, plants a second, while P2 passes; P1 is to move with 3 Sols."""
    state = do(start(hands, **options), "plant Pinus virginiana", "end", "draw Quercus rubra")
    state = pass_turn(state, "Ilex opaca", "Quercus alba")
    state = do(state, "grow 1", "end")
    state = pass_turn(state, "Fagus grandifolia", "Carya ovata")
    state = do(state, "plant Sassafras albidum", "end", "draw Quercus nigra")
    return pass_turn(state, "Quercus alba", p2_last_draw)


def two_canopy(hands=WIN_HANDS, p2_last_draw="Quercus phellos", **options):
    """The same four turns; the last action grows P1's second canopy tree."""
    return do(one_grow_from_capture(hands, p2_last_draw, **options), "grow 1")


VARIANT = {"capture_at_round_end": True}
"""Our variant (a departure from the rule sheet): capture is settled when the round ends."""


def test_capturing_a_habitat_the_second_canopy_tree_captures_at_once_and_wins():
    state = two_canopy()
    assert state.history[-1] == state.parse_action("grow 1")
    assert state.is_terminal() and state.current_player == TERMINAL
    assert state.winners() == (0,) and state.scores() == (1, 0)
    assert "Capturing a Habitat" in state.last_event and "at once" in state.last_event
    assert "Winning" in state.last_event and "Winning" in state.explain() and "first to have 2" in state.explain()
    assert state.legal_actions() == [] and state.sols == 0
    refused(state, "end", "game is over")


def test_describe_and_explain_say_a_second_canopy_tree_captures_at_once():
    state = one_grow_from_capture()
    assert "your second canopy tree: you capture the habitat at once (Capturing a Habitat)" in state.describe("grow 1")
    assert "captures the habitat at once" in state.explain() and "One canopy tree now: P1" in state.explain()
    variant = one_grow_from_capture(**VARIANT)
    assert "round ends" in variant.describe("grow 1") and "capture_at_round_end" in variant.describe("grow 1")
    assert "our variant capture_at_round_end" in variant.explain()


def race_position(**options):
    """Both players hold one canopy and one understory tree that can grow; P1 (first in the round) is to move."""
    state = start(HANDS_2, **options)
    draft = state._draft()  # trees set directly: reaching this by play takes many turns
    card = {n: state.parse_action(f"draw {n}").card for n in ("Juglans nigra", "Carya ovata", "Quercus nigra",
                                                              "Quercus phellos", "Quercus falcata")}
    draft.canopy_slots = (card["Juglans nigra"], -1, card["Quercus nigra"], -1)
    draft.under = (card["Carya ovata"], -1, card["Quercus phellos"], card["Quercus falcata"])
    used = set(draft.canopy_slots) | set(draft.under)
    draft.draw = tuple(c for c in draft.draw if c not in used)
    assert draft.cards_in_play() == 72
    return draft


def test_capturing_a_habitat_the_first_to_two_canopy_trees_wins_before_anyone_else_moves():
    state = race_position()
    assert state.current_player == 0 and state.turn == 1  # P2, with more trees, never gets a turn
    final = do(state, "grow 1")
    assert final.is_terminal() and final.winners() == (0,) and final.turn == 1
    assert [str(a) for a in final.history[len(state.history):]] == ["grow 1"]
    assert final.tree_count(1) == 3 and final.canopy(1)[1] is None


def test_capture_at_round_end_variant_waits_for_the_round():
    state = two_canopy(**VARIANT)
    assert not state.is_terminal() and "when this round ends" in state.last_event
    assert "capture_at_round_end" in state.last_event
    state = do(state, "end")
    assert state.current_player == 1  # P2 still has the round's last turn
    state = pass_turn(state, "Carya ovata", "Juglans nigra")
    assert state.is_terminal() and state.current_player == TERMINAL
    assert state.winners() == (0,) and state.scores() == (1, 0) and "captures" in state.last_event
    assert "our variant" in state.last_event and "capture_at_round_end" in state.explain()
    refused(state, "end", "game is over")


def test_capture_at_round_end_variant_lets_a_rival_knock_a_canopy_tree_down():
    state = do(two_canopy(p2_last_draw="Wet Trend", **VARIANT), "end")
    state = do(state, "trend Wet Trend")  # water 5 -> 7: both of P1's canopy trees (water 1-5) die
    assert state.canopy(0) == (None, None)
    state = do(state, "end", "draw Juglans nigra")
    assert not state.is_terminal() and state.current_player == 0 and state.captured == (0, 0)


def test_capture_at_round_end_variant_lets_the_second_grower_with_more_trees_take_it():
    state = do(race_position(**VARIANT), "grow 1")
    assert not state.is_terminal()
    state = do(state, "end", "grow 1")  # P2 also reaches 2 canopy trees, with 3 trees
    assert not state.is_terminal() and state.current_player == 1
    state = do(state, "end")
    assert state.is_terminal() and state.winners() == (1,) and "also had 2" in state.last_event


def round_end_position(p2_extra_tree: bool):
    """An edge position at P2's last action of a round: both players hold 2 canopy trees (the variant)."""
    state = pass_turn(start(HANDS_2, **VARIANT), "Pinus taeda", "Quercus rubra")
    draft = state._draft()  # trees set directly: reaching this by play takes many turns
    card = {n: state.parse_action(f"draw {n}").card for n in ("Juglans nigra", "Carya ovata", "Quercus nigra",
                                                              "Quercus phellos", "Quercus falcata")}
    draft.canopy_slots = (card["Juglans nigra"], card["Carya ovata"], card["Quercus nigra"], card["Quercus phellos"])
    draft.under = (-1, -1, card["Quercus falcata"] if p2_extra_tree else -1, -1)
    used = set(draft.canopy_slots) | set(draft.under)
    draft.draw = tuple(c for c in draft.draw if c not in used)
    assert draft.cards_in_play() == 72
    return do(draft, "discard Ilex opaca", "end", "draw Quercus alba")


def test_capture_at_round_end_variant_ties_go_to_the_most_trees_then_the_earliest_in_the_round():
    state = round_end_position(p2_extra_tree=False)
    assert state.winners() == (0,) and "also had 2" in state.last_event  # equal trees: P1 opened the round
    state = round_end_position(p2_extra_tree=True)
    assert state.winners() == (1,)  # P2 has 3 trees to P1's 2


def test_game_variations_capture_two_habitats_the_next_habitat_follows_the_capture():
    state = two_canopy(habitats_to_win=2)  # P1's Command holds 3 cards: the Regroup Phase draws none
    assert not state.is_terminal() and state.captured == (1, 0) and "at once" in state.last_event
    assert state.phase is Phase.HABITAT and state.habitat_card is None
    assert state.understory(0) == (None, None) and state.canopy(0) == (None, None)
    assert PIEDMONT not in [str(a)[len("habitat ") :] for a in state.legal_actions()]
    state = do(state, "habitat Southern Appalachian Cove")
    assert state.habitat_card.name == "Southern Appalachian Cove" and state.cards_in_play() == 72
    assert state.current_player == 1 and state.phase is Phase.BATTLE  # the capturer's turn is over: P2 next


def test_game_variations_capture_two_habitats_the_capturer_regroups_first():
    hands = [["Pinus virginiana", "Sassafras albidum", "Cumulonimbus"], HANDS_2[1]]
    state = one_grow_from_capture(hands, habitats_to_win=2)
    state = do(state, "discard Cumulonimbus", "grow 1")  # 1 + 2 Sols; 2 cards left in the Command
    assert state.phase is Phase.REGROUP and state.captured == (1, 0) and state.habitat < 0
    state = do(state, "draw Juglans nigra")
    assert state.phase is Phase.HABITAT and len(state.hand(0)) == 3


def test_game_variations_capture_two_habitats_under_the_variant():
    state = pass_turn(do(two_canopy(habitats_to_win=2, **VARIANT), "end"), "Carya ovata", "Juglans nigra")
    assert not state.is_terminal() and state.captured == (1, 0)
    assert state.phase is Phase.HABITAT and state.habitat_card is None
    state = do(state, "habitat Southern Appalachian Cove")
    assert state.current_player == 0 and state.phase is Phase.BATTLE  # the next round begins with P1


def test_capture_clears_trees_weather_and_trends_for_the_next_habitat():
    hands = [WIN_HANDS[0], ["Warming Trend", "Ilex opaca", "Fagus grandifolia"]]
    state = do(two_canopy(hands, p2_last_draw="Cirrus", habitats_to_win=2, **VARIANT), "end")
    state = do(state, "trend Warming Trend", "cloud Cirrus", "draw Juglans nigra", "draw Quercus falcata")
    assert state.phase is Phase.HABITAT and state.captured == (1, 0)
    assert state.trend_cards == () and state.weather == () and state.canopy(0) == (None, None)
    assert state.cards_in_play() == 72


def test_capture_two_habitats_ends_in_a_draw_when_habitats_run_out():
    spent = one_grow_from_capture(habitats_to_win=2)._draft()  # an edge position: nine habitats already played
    spent.habitats_used = (1 << 10) - 1
    final = do(spent, "grow 1")
    assert final.is_terminal() and final.winners() == () and "ran out" in final.explain()


def test_capture_two_habitats_ends_in_a_draw_when_habitats_run_out_under_the_variant():
    spent = do(two_canopy(habitats_to_win=2, **VARIANT), "end")._draft()
    spent.habitats_used = (1 << 10) - 1
    final = pass_turn(spent, "Carya ovata", "Juglans nigra")
    assert final.is_terminal() and final.winners() == () and "ran out" in final.explain()


def test_max_turns_ends_the_game_as_a_draw():
    state = start(HANDS_2, max_turns=2)
    state = pass_turn(state, "Pinus taeda", "Quercus rubra")
    state = pass_turn(state, "Ilex opaca", "Quercus alba")
    assert state.is_terminal() and state.winners() == () and "max_turns" in state.explain()


def test_max_turns_default_is_thirty_turns_per_player():
    assert new_game(2).max_turns == 60 and new_game(6).max_turns == 180 and new_game(8).max_turns == 240
    assert new_game(3).options["max_turns"] == 0 and new_game(3, max_turns=7).max_turns == 7


def test_capture_at_round_end_variant_settles_a_capture_at_max_turns_before_the_draw():
    state = pass_turn(do(two_canopy(max_turns=8, **VARIANT), "end"), "Carya ovata", "Juglans nigra")
    assert state.is_terminal() and state.winners() == (0,)


def test_game_variations_without_quercus_marilandica():
    game = new_game(2, without_quercus_marilandica=True)
    state = do(game.new_initial_state(), f"habitat {PIEDMONT}")
    assert state.draw_size == 71
    refused(state, "draw Quercus marilandica", "not in the draw pile")


def test_game_variations_two_sided_disasters():
    hands = [
        ["Wildfire", "Acer rubrum", "Pinus taeda"],
        ["Prunus serotina", "Acer saccharum", "Quercus alba"],
        ["Ilex opaca", "Fagus grandifolia", "Quercus rubra"],
    ]
    state = do(start(hands, two_sided_disasters=True), "plant Acer rubrum", "end", "draw Pinus echinata")
    state = do(state, "plant Prunus serotina", "end", "draw Pinus virginiana")
    state = do(state, "plant Ilex opaca", "end", "draw Quercus nigra")
    refused(state, "disaster Wildfire", "Game Variations", "choose another player's side")
    state = do(state, "disaster Wildfire at P2")  # fire 3 trees burn on P1's and P2's sides only
    assert state.understory(0) == (None, None) and state.understory(1) == (None, None)
    assert names(state.understory(2)) == ("Ilex opaca", None)


# ----------------------------------------------------------------------- Options, words, views


def test_new_game_options_are_named_and_json_safe():
    import json

    game = new_game(3)
    assert game.name == "mighty_trees" and game.num_players == 3
    assert game.options == {
        "max_turns": 0,
        "habitats_to_win": 1,
        "without_quercus_marilandica": False,
        "ignore_lingering": False,
        "two_sided_disasters": False,
        "capture_at_round_end": False,
    }
    assert json.loads(json.dumps(game.options)) == game.options


@pytest.mark.parametrize(
    "bad",
    [
        {"players": 1},
        {"players": 9},
        {"capture_at_round_end": "no"},
        {"habitats_to_win": 3},
        {"max_turns": -1},
        {"colour": "red"},
        {"ignore_lingering": "yes"},
    ],
)
def test_new_game_bad_options_are_refused(bad):
    with pytest.raises(ValueError):
        new_game(**bad)


def test_explain_battle_names_sols_costs_and_reasons():
    hands = [["Quercus alba", "Taxodium distichum", "Hurricane"], HANDS_2[1]]
    text = start(hands).explain()
    assert "3 Sols left" in text and "Battle Phase" in text and "Sol Laws" in text
    assert "Quercus alba" in text and "costs 3 Sols" in text
    assert "water 5 is outside Taxodium distichum's water range 7-9" in text
    assert "disaster Hurricane: playing it costs 2 Sols" in text and "Initiate Tree Combat" in text
    assert "Rich soil" in text and "captures the habitat at once" in text


def test_explain_unaffordable_action_says_why():
    hands = [["Quercus alba", "Pinus taeda", "Hurricane"], HANDS_2[1]]
    state = do(start(hands), "plant Pinus taeda")
    assert "planting Quercus alba costs 3 Sols, but you have 1 left" in state.explain()


def test_explain_every_phase_names_a_rulebook_section():
    state = new_game(2).new_initial_state()
    assert "Game Layout" in state.explain()
    state = do(state, f"habitat {PIEDMONT}")
    assert "Player Commands" in state.explain()
    state = do(start(HANDS_2), "plant Liriodendron tulipifera", "discard Pinus taeda")
    assert "Regroup Phase" in state.explain()


def test_describe_tells_cost_and_combat_outcome():
    state = combat_position()
    text = state.describe(state.parse_action("plant Pinus taeda attack P2 understory 1"))
    assert "sun 6 against shade 7" in text and "lose" in text and "Cost: 2 Sols" in text


def test_view_for_hides_other_hands_and_the_draw_order():
    state = start(HANDS_2)
    view = state.view_for(0)
    assert [c.name for c in view.hand] == sorted(
        HANDS_2[0], key=lambda n: state.parse_action(f"draw {n}").card
    )
    assert view.hand_sizes == (3, 3) and view.draw_size == 66
    text = repr(view)
    assert not any(name in text for name in HANDS_2[1])
    assert not hasattr(view, "draw")


def test_view_for_unknown_player_is_refused():
    with pytest.raises(ValueError):
        start(HANDS_2).view_for(2)


def test_sol_laws_player_with_nothing_to_spend_may_end():
    state = start(HANDS_2)
    stuck = state._draft()  # an edge position: an empty Command, no trees (only when both piles run dry)
    stuck.hands = (0, state.hands[1])
    stuck.litter = state.hands[0]
    assert [str(a) for a in stuck.legal_actions()] == ["end"]
    assert stuck.why_not(stuck.parse_action("end")) is None


def test_game_follows_the_core_protocol():
    game = new_game(2)
    assert isinstance(game, core.Game) and isinstance(game.new_initial_state(), core.State)


def test_regroup_draws_nothing_when_draw_and_litter_are_empty():
    state = do(start(HANDS_2), "discard Pinus taeda")
    dry = state._draft()  # an edge position: every other card is somewhere else
    dry.draw, dry.litter = (), 0
    after = do(dry, "end")
    assert after.current_player == 1 and len(after.hand(0)) == 2


# ----------------------------------------------------------------------- Departures in one place (issue 18)


def flat(text: str) -> str:
    """Text with every run of whitespace made one space."""
    return " ".join(text.split())


def test_the_docstring_keeps_silent_designs_and_departures_in_two_lists_in_the_engines_words():
    import treegames.mighty_trees as mt

    doc = flat(mt.__doc__)
    silent_at = doc.index("Where the rule sheet is silent")
    depart_at = doc.index("Where we depart from the rule sheet's text")
    assert silent_at < depart_at
    for text in mt.words.SILENT.values():
        assert silent_at < doc.index(flat(text)) < depart_at, text[:40]
    for text in mt.words.DEPARTURES.values():
        assert doc.index(flat(text)) > depart_at, text[:40]


def test_every_departure_is_a_named_option_or_says_why_there_is_none():
    from treegames.mighty_trees import OPTIONS, words

    names = {o.name for o in OPTIONS}
    for key, text in words.DEPARTURES.items():
        assert key in names or "No option" in text, key


def test_the_capture_option_says_the_default_is_the_printed_rule_and_the_variant_departs():
    from treegames.mighty_trees import OPTIONS

    option = next(o for o in OPTIONS if o.name == "capture_at_round_end")
    assert option.default is False and option.values == (False, True)
    assert "printed rule" in option.meaning and "at once" in option.meaning
    assert "our variant for fairness" in option.meaning and "departs from the rule sheet" in option.meaning


def test_seven_and_eight_players_are_dealt_and_play_to_the_end():
    import random

    for players in (7, 8):
        game = new_game(players)
        rng = random.Random(players)
        state = do(game.new_initial_state(), f"habitat {PIEDMONT}")
        while state.phase is Phase.DEAL:
            state = state.apply(state.sample_chance(rng))
        assert [len(state.hand(p)) for p in range(players)] == [3] * players
        assert state.draw_size == 72 - 3 * players and state.phase is Phase.FIRST_PLAYER
        final = core.play(game, [core.RandomBot(rng) for _ in range(players)], rng)
        assert final.is_terminal() and final.cards_in_play() == 72
