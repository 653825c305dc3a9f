"""Mighty Trees Timber Party Game: one test per rule and per documented interpretation.

Positions are reached by scripting the chance outcomes (habitat, each card
dealt or drawn, the first player), so every test runs the real rules.  The
default habitat is the Piedmont Oak-Hickory Forest: temperature 7, water 5,
preferred Quercus alba / Carya / Liquidambar styraciflua, rich soil (growing
costs 1 Sol less, at least 1), fire and wind modifiers 0.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from treegames import core
from treegames.core import CHANCE, TERMINAL, IllegalAction
from treegames.mighty_trees import Phase, new_game

PIEDMONT = "Piedmont Oak-Hickory Forest"


def start(hands, habitat=PIEDMONT, first=1, **options):
    """A game after the habitat, the scripted deal (hands[p] = 3 card names) and the first player."""
    game = new_game(len(hands), **options)
    state = game.new_initial_state()
    state = state.apply(state.parse_action(f"habitat {habitat}"))
    for i in range(3):
        for hand in hands:
            state = state.apply(state.parse_action(f"draw {hand[i]}"))
    return state.apply(state.parse_action(f"first P{first}"))


def do(state, *texts):
    """Apply actions written in notation, one after another."""
    for text in texts:
        state = state.apply(state.parse_action(text))
    return state


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
    ["Acer saccharum", "Cornus florida", "Fagus grandifolia"],
]


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
    state = do(start(hands), "plant Pinus taeda", "discard understory 1")
    assert state.sols == 1
    refused(state, "plant Quercus alba", "Sol Laws", "costs 2 Sols", "1 left")


def test_battle_phase_ends_when_no_sols_are_left():
    state = do(
        start(HANDS_2), "plant Liriodendron tulipifera", "plant Prunus serotina", "discard Pinus taeda"
    )
    assert state.phase is Phase.REGROUP and state.current_player == CHANCE


def test_sol_laws_one_sol_to_discard_from_command_understory_or_canopy():
    hands = [["Pinus virginiana", "Sassafras albidum", "Cumulonimbus"], HANDS_2[1]]
    state = do(start(hands), "plant Pinus virginiana", "grow 1")
    assert state.sols == 1 and names(state.canopy(0)) == ("Pinus virginiana", None)
    after = do(state, "discard canopy 1")
    assert after.canopy(0) == (None, None) and "Pinus virginiana" in names(after.litter_cards)
    assert after.spent == 3
    state = do(start(hands), "plant Sassafras albidum", "discard understory 1", "discard Cumulonimbus")
    assert state.phase is Phase.REGROUP and len(state.litter_cards) == 2


# ----------------------------------------------------------------------- Plant Trees


def test_plant_trees_costs_planting_sols_and_fills_understory():
    hands = [["Quercus alba", "Prunus serotina", "Pinus taeda"], HANDS_2[1]]
    state = do(start(hands), "plant Quercus alba")
    assert state.sols == 1 and names(state.understory(0)) == ("Quercus alba", None)
    assert "Quercus alba" not in names(state.hand(0))


def test_plant_trees_unsuitable_habitat_is_refused():
    hands = [["Taxodium distichum", "Pinus palustris", "Pinus taeda"], HANDS_2[1]]
    state = start(hands)
    refused(state, "plant Taxodium distichum", "Plant Trees", "water 5", "6-9")


def test_plant_trees_temperature_outside_range_is_refused():
    hands = [["Tsuga canadensis", "Sabal palmetto", "Pinus taeda"], HANDS_2[1]]
    refused(start(hands), "plant Sabal palmetto", "Plant Trees", "temperature 7", "8-9")


def test_plant_trees_full_understory_is_refused():
    state = do(start(HANDS_2), "plant Liriodendron tulipifera", "plant Prunus serotina")
    refused(state, "plant Pinus taeda", "Plant Trees", "understory slots are full")


def test_plant_trees_card_must_be_in_command():
    refused(start(HANDS_2), "plant Quercus alba", "Player Commands", "not in your Command")


# ----------------------------------------------------------------------- Grow Trees


def test_grow_trees_costs_growth_sols():
    hands = [["Quercus rubra", "Pinus taeda", "Pinus echinata"], HANDS_2[1]]
    state = do(start(hands, habitat="Cumberland Plateau Oak Forest"), "plant Pinus taeda", "grow 1")
    assert state.phase is Phase.REGROUP  # 1 + 2 Sols
    assert names(state.canopy(0)) == ("Pinus taeda", None) and state.understory(0) == (None, None)


def test_grow_trees_rich_soil_power_takes_one_sol_off():
    hands = [["Quercus rubra", "Pinus taeda", "Pinus echinata"], HANDS_2[1]]
    state = do(start(hands), "plant Pinus taeda", "grow 1")  # Piedmont: 2 - 1 = 1
    assert state.sols == 1


def test_grow_trees_tree_without_growth_cost_cannot_grow():
    hands = [["Cornus florida", "Fagus grandifolia", "Quercus rubra"], HANDS_2[0]]
    state = do(start(hands), "plant Cornus florida")
    refused(state, "grow 1", "Grow Trees", "cannot reach the canopy")


def test_grow_trees_empty_slot_is_refused():
    refused(start(HANDS_2), "grow 2", "Grow Trees", "slot 2 is empty")


# ----------------------------------------------------------------------- Tree Combat


def combat_position(p1_hand=("Liriodendron tulipifera", "Pinus taeda", "Liquidambar styraciflua")):
    """P2 (first) plants Cornus florida and Acer saccharum; then it is P1's turn, P2 having 2 trees."""
    hands = [list(p1_hand), ["Acer saccharum", "Cornus florida", "Fagus grandifolia"]]
    state = do(
        start(hands, first=2),
        "plant Cornus florida",
        "plant Acer saccharum",
        "draw Quercus rubra",
        "draw Quercus alba",
    )
    assert state.current_player == 0 and state.tree_count(1) == 2
    return state


def test_initiate_tree_combat_attacker_wins_with_more_sun():
    state = do(combat_position(), "plant Liriodendron tulipifera attack P2 understory 1")  # sun 7 > shade 5
    assert names(state.understory(1)) == (None, "Acer saccharum")
    assert names(state.understory(0)) == ("Liriodendron tulipifera", None)
    assert "Cornus florida" in names(state.litter_cards) and "dies" in state.last_event


def test_initiate_tree_combat_attacker_dies_with_less_sun():
    state = do(combat_position(), "plant Pinus taeda attack P2 understory 2")  # sun 6 < shade 7
    assert state.understory(0) == (None, None) and "Pinus taeda" in names(state.litter_cards)
    assert names(state.understory(1)) == ("Cornus florida", "Acer saccharum")


def test_initiate_tree_combat_tie_leaves_both_standing():
    state = do(combat_position(), "plant Liriodendron tulipifera attack P2 understory 2")  # 7 = 7
    assert names(state.understory(1)) == ("Cornus florida", "Acer saccharum")
    assert names(state.understory(0)) == ("Liriodendron tulipifera", None) and "tie" in state.last_event


def test_initiate_tree_combat_preferred_species_gets_two_more():
    state = do(combat_position(), "plant Liquidambar styraciflua attack P2 understory 2")  # 6 + 2 > 7
    assert names(state.understory(1)) == ("Cornus florida", None)


def test_initiate_tree_combat_rule_1_only_when_first_planted():
    state = combat_position()
    attacks = [a for a in state.legal_actions() if a.player >= 0 and a.verb.value != "disaster"]
    assert attacks and all(str(a).startswith("plant ") for a in attacks)


def test_initiate_tree_combat_rule_2_canopy_trees_cannot_be_attacked():
    refused(combat_position(), "plant Liriodendron tulipifera attack P2 canopy 1", "rule 2", "understory")


def test_initiate_tree_combat_rule_3_player_needs_two_trees():
    hands = [["Liriodendron tulipifera", "Pinus taeda", "Prunus serotina"], HANDS_2[1]]
    state = do(start(hands, first=2), "plant Cornus florida", "end", "draw Quercus rubra")
    refused(state, "plant Liriodendron tulipifera attack P2 understory 1", "rule 3", "at least 2 trees")


def test_initiate_tree_combat_rule_4_is_optional():
    state = combat_position()
    legal = [str(a) for a in state.legal_actions()]
    assert "plant Liriodendron tulipifera" in legal
    assert "plant Liriodendron tulipifera attack P2 understory 1" in legal


def test_initiate_tree_combat_own_trees_cannot_be_attacked():
    state = do(combat_position(), "plant Pinus taeda")
    refused(state, "plant Liriodendron tulipifera attack P1 understory 1", "not your own")


# ----------------------------------------------------------------------- Regroup Phase and the litter


def test_regroup_phase_draws_until_three_cards_then_next_turn():
    state = do(
        start(HANDS_2), "plant Liriodendron tulipifera", "plant Prunus serotina", "discard Pinus taeda"
    )
    assert state.phase is Phase.REGROUP
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 66 and all(p == Fraction(1, 66) for _, p in outcomes)
    state = do(state, "draw Quercus rubra", "draw Quercus alba")
    assert state.phase is Phase.REGROUP
    state = do(state, "draw Carya ovata")
    assert len(state.hand(0)) == 3 and state.current_player == 1 and state.sols == 3


def test_regroup_phase_no_draw_needed_with_full_command():
    hands = [["Pinus virginiana", "Sassafras albidum", "Cumulonimbus"], HANDS_2[1]]
    state = do(start(hands), "plant Pinus virginiana", "end", "draw Quercus rubra")
    state = do(state, "discard Cornus florida", "end", "draw Quercus alba")
    state = do(state, "grow 1", "end")  # the Command still holds 3 cards: no draw
    assert state.current_player == 1 and state.phase is Phase.BATTLE and len(state.hand(0)) == 3


def test_game_layout_litter_becomes_the_new_draw_pile():
    rng = core.random.Random(3)
    game = new_game(2)
    state = game.new_initial_state()
    bots = [core.RandomBot(rng), core.RandomBot(rng)]
    seen = False
    while not state.is_terminal():
        before = state
        state = core.step(state, bots, rng)
        if "litter pile becomes the new draw pile" in state.last_event:
            seen = True
            assert before.draw_size <= 1 and len(state.litter_cards) == 0
            assert state.draw_size > 0 and state.cards_in_play() == 72
    assert seen


# ----------------------------------------------------------------------- Weather and climate


def test_cloud_card_costs_one_sol_and_changes_water_until_next_turn():
    hands = [["Cumulonimbus", "Taxodium distichum", "Pinus taeda"], HANDS_2[1]]
    state = start(hands)
    refused(state, "plant Taxodium distichum", "water 5")
    state = do(state, "cloud Cumulonimbus")
    assert state.sols == 2 and state.water == 7 and names(c for c, _, _ in state.weather) == ("Cumulonimbus",)
    state = do(state, "plant Taxodium distichum", "draw Quercus rubra", "draw Quercus alba")
    assert state.current_player == 1 and state.water == 7  # still in play on P2's turn
    state = do(state, "discard Cornus florida", "end", "draw Carya ovata")
    assert state.current_player == 0 and state.water == 5 and state.weather == ()
    assert "Cumulonimbus" in names(state.litter_cards)
    assert names(state.understory(0)) == ("Taxodium distichum", None)  # clouds never kill


def test_trend_card_costs_two_sols_changes_for_good_and_unfit_trees_die():
    hands = [["Quercus stellata", "Wet Trend", "Pinus taeda"], HANDS_2[1]]
    state = do(start(hands), "plant Quercus stellata", "trend Wet Trend")  # water 5 -> 7, its range 1-5
    assert state.water == 7 and state.understory(0) == (None, None) and state.phase is Phase.REGROUP
    assert "Quercus stellata" in names(state.litter_cards) and names(state.trend_cards) == ("Wet Trend",)
    state = do(
        state, "draw Quercus rubra", "draw Quercus alba", "discard Cornus florida", "end", "draw Carya ovata"
    )
    state = do(state, "discard Quercus rubra", "end", "draw Quercus nigra")
    assert state.water == 7 and state.weather == ()  # lasting


def test_disaster_wildfire_burns_trees_with_low_fire_strength_on_every_side():
    hands = [
        ["Wildfire", "Quercus stellata", "Acer rubrum"],
        ["Acer saccharum", "Cornus florida", "Quercus rubra"],
    ]
    state = do(
        start(hands, first=2),
        "plant Cornus florida",
        "plant Acer saccharum",
        "draw Pinus taeda",
        "draw Quercus alba",
    )
    state = do(state, "plant Quercus stellata", "disaster Wildfire")  # force 4: fire 1, 3 burn; 5 stands
    assert state.understory(1) == (None, None)
    assert names(state.understory(0)) == ("Quercus stellata", None)
    assert state.phase is Phase.REGROUP


def test_disaster_habitat_fire_modifier_and_fire_season_power():
    hands = [["Wildfire", "Pinus echinata", "Carya tomentosa"], HANDS_2[1]]
    state = do(
        start(hands, habitat="Longleaf Pine Sandhills"), "plant Pinus echinata", "plant Carya tomentosa"
    )
    state = do(state, "disaster Wildfire")  # force 4 + 1 = 5, cost 2 - 1 = 1 (fire season)
    assert names(state.understory(0)) == ("Pinus echinata", None)  # fire 5 stands, fire 4 burns
    assert "force 5" in state.last_event and state.phase is Phase.REGROUP


def test_disaster_preferred_species_gets_two_more_strength():
    hands = [["Wildfire", "Liquidambar styraciflua", "Prunus serotina"], HANDS_2[1]]
    state = do(start(hands), "plant Liquidambar styraciflua")  # fire 2 + 2 (preferred here) = 4, not below 4
    state = do(state, "disaster Wildfire")
    assert names(state.understory(0)) == ("Liquidambar styraciflua", None)


def test_disaster_needs_its_habitat_power():
    hands = [["Hurricane", "Flood", "Ice Storm"], HANDS_2[1]]
    state = start(hands)
    refused(state, "disaster Hurricane", "hurricane coast")
    refused(state, "disaster Flood", "floodplain")
    refused(state, "disaster Ice Storm", "high elevation")


def test_disaster_tornado_strikes_one_chosen_side():
    hands = [
        ["Tornado", "Pinus taeda", "Pinus echinata"],
        ["Acer saccharum", "Cornus florida", "Quercus rubra"],
    ]
    state = do(
        start(hands, first=2),
        "plant Cornus florida",
        "plant Acer saccharum",
        "draw Pinus virginiana",
        "draw Quercus alba",
    )
    refused(state, "disaster Tornado", "choose another player's side")
    refused(state, "disaster Tornado at P1", "another player's")
    state = do(state, "disaster Tornado at P2")  # wind 6: wind 2 and 5 fall
    assert state.understory(1) == (None, None) and state.phase is Phase.REGROUP


def test_disaster_ground_fire_strikes_only_understory_and_crown_fire_only_canopy():
    hands = [["Ground Fire", "Pinus virginiana", "Sassafras albidum"], HANDS_2[1]]
    state = do(start(hands), "plant Pinus virginiana", "grow 1", "plant Sassafras albidum")  # fire 3 and 3
    state = do(state, "draw Crown Fire", "draw Quercus rubra")
    state = do(state, "discard Cornus florida", "end", "draw Carya ovata")
    state = do(state, "disaster Ground Fire")  # force 4, understory only
    assert names(state.canopy(0)) == ("Pinus virginiana", None) and state.understory(0) == (None, None)
    refused(state, "disaster Crown Fire", "Sol Laws", "costs 3 Sols")


def test_disaster_drought_lingers_two_rounds_and_kills_unfit_trees():
    hands = [["Drought", "Pinus taeda", "Quercus alba"], HANDS_2[1]]
    state = do(start(hands), "plant Pinus taeda")  # water 3-7
    state = do(state, "disaster Drought")  # water 5 - 3 = 2
    assert state.understory(0) == (None, None) and state.water == 2
    assert [(c.name, o, r) for c, o, r in state.lingering] == [("Drought", 0, 2)]
    state = do(state, "draw Quercus rubra", "draw Carya ovata")
    refused(state, "plant Acer saccharum", "water 2")
    state = do(state, "discard Cornus florida", "end", "draw Pinus echinata")
    assert [(c.name, r) for c, _, r in state.lingering] == [("Drought", 1)]
    state = do(state, "discard Quercus rubra", "end", "draw Quercus phellos")
    state = do(state, "discard Fagus grandifolia", "end", "draw Quercus nigra")
    assert state.lingering == () and state.water == 5 and "Drought" in names(state.litter_cards)


def test_game_variations_ignore_lingering():
    hands = [["Drought", "Pinus taeda", "Quercus alba"], HANDS_2[1]]
    state = do(start(hands, ignore_lingering=True), "plant Pinus taeda", "disaster Drought")
    assert state.understory(0) == (None, None)  # it still strikes once
    assert state.lingering == () and state.water == 5 and "Drought" in names(state.litter_cards)


# ----------------------------------------------------------------------- Capturing a Habitat and Winning


def win_script(**options):
    """P1 plants and grows two trees over two turns: Pinus virginiana then Sassafras albidum."""
    hands = [["Pinus virginiana", "Sassafras albidum", "Cumulonimbus"], HANDS_2[1]]
    state = do(
        start(hands, **options),
        "plant Pinus virginiana",
        "grow 1",
        "plant Sassafras albidum",
        "draw Quercus rubra",
        "draw Quercus alba",
    )
    return do(state, "discard Cornus florida", "end", "draw Carya ovata", "grow 1")


def test_capturing_a_habitat_two_canopy_trees_win():
    state = win_script()
    assert state.is_terminal() and state.current_player == TERMINAL
    assert state.winners() == (0,) and state.scores() == (1, 0)
    assert "Winning" in state.explain() and state.legal_actions() == []
    refused(state, "end", "game is over")


def test_game_variations_capture_two_habitats():
    state = win_script(habitats_to_win=2)
    assert not state.is_terminal() and state.captured == (1, 0)
    assert state.phase is Phase.HABITAT and state.habitat_card is None
    assert state.understory(0) == (None, None) and state.canopy(0) == (None, None)
    assert PIEDMONT not in [str(a)[len("habitat ") :] for a in state.legal_actions()]
    state = do(state, "habitat Southern Appalachian Cove")
    assert state.habitat_card.name == "Southern Appalachian Cove" and state.cards_in_play() == 72
    assert state.current_player == 1 and state.phase is Phase.BATTLE  # P1 held 3 cards: no draw


def test_max_turns_ends_the_game_as_a_draw():
    state = start(HANDS_2, max_turns=2)
    state = do(state, "discard Pinus taeda", "end", "draw Quercus rubra")
    state = do(state, "discard Cornus florida", "end", "draw Quercus alba")
    assert state.is_terminal() and state.winners() == () and "max_turns" in state.explain()


def test_game_variations_without_quercus_marilandica():
    game = new_game(2, without_quercus_marilandica=True)
    state = do(game.new_initial_state(), f"habitat {PIEDMONT}")
    assert state.draw_size == 71
    refused(state, "draw Quercus marilandica", "not in the draw pile")


def test_game_variations_two_sided_disasters():
    hands = [
        ["Wildfire", "Cornus florida", "Pinus taeda"],
        ["Cercis canadensis", "Acer rubrum", "Quercus alba"],
        ["Chionanthus virginicus", "Acer saccharum", "Quercus rubra"],
    ]
    state = do(
        start(hands, first=2, two_sided_disasters=True),
        "plant Cercis canadensis",
        "end",
        "draw Pinus echinata",
        "plant Chionanthus virginicus",
        "end",
        "draw Pinus virginiana",
    )
    state = do(state, "plant Cornus florida")
    refused(state, "disaster Wildfire", "Game Variations", "choose another player's side")
    state = do(state, "disaster Wildfire at P2")
    assert state.understory(0) == (None, None) and state.understory(1) == (None, None)
    assert names(state.understory(2)) == ("Chionanthus virginicus", None)


# ----------------------------------------------------------------------- Options, words, views


def test_new_game_options_are_named_and_json_safe():
    import json

    game = new_game(3)
    assert game.name == "mighty_trees" and game.num_players == 3
    assert game.options == {
        "max_turns": 200,
        "habitats_to_win": 1,
        "without_quercus_marilandica": False,
        "ignore_lingering": False,
        "two_sided_disasters": False,
    }
    assert json.loads(json.dumps(game.options)) == game.options


@pytest.mark.parametrize(
    "bad",
    [
        {"players": 1},
        {"players": 7},
        {"habitats_to_win": 3},
        {"max_turns": 0},
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
    assert "Quercus alba" in text and "costs 2 Sols" in text
    assert "water 5 is outside Taxodium distichum's water range 6-9" in text
    assert "hurricane coast" in text and "Initiate Tree Combat" in text


def test_explain_unaffordable_action_says_why():
    hands = [["Quercus alba", "Pinus taeda", "Hurricane"], HANDS_2[1]]
    state = do(start(hands), "plant Pinus taeda", "discard Hurricane")
    assert "planting Quercus alba costs 2 Sols, but you have 1 left" in state.explain()


def test_explain_every_phase_names_a_rulebook_section():
    state = new_game(2).new_initial_state()
    assert "Game Layout" in state.explain()
    state = do(state, f"habitat {PIEDMONT}")
    assert "Player Commands" in state.explain()
    state = do(
        start(HANDS_2), "plant Liriodendron tulipifera", "plant Prunus serotina", "discard Pinus taeda"
    )
    assert "Regroup Phase" in state.explain()


def test_describe_tells_cost_and_combat_outcome():
    state = combat_position()
    text = state.describe(state.parse_action("plant Pinus taeda attack P2 understory 2"))
    assert "sun 6 against shade 7" in text and "lose" in text and "Cost: 1 Sol" in text


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


# ----------------------------------------------------------------------- more interpretations


def test_initiate_tree_combat_costs_only_the_planting():
    state = do(combat_position(), "plant Liriodendron tulipifera attack P2 understory 1")
    assert state.sols == 2 and state.spent == 1


def test_conditions_stay_within_one_to_nine():
    hands = [["Drought", "Pinus echinata", "Quercus laevis"], HANDS_2[1]]
    state = do(start(hands, habitat="Longleaf Pine Sandhills"), "disaster Drought")  # water 2 - 3
    assert state.water == 1


def test_disaster_hurricane_in_a_hurricane_coast_habitat():
    hands = [["Hurricane", "Pinus elliottii", "Sabal palmetto"], HANDS_2[1]]
    state = do(start(hands, habitat="Gulf Coast Pine Flatwoods"), "disaster Hurricane")  # wind 5 + 1
    assert "force 6" in state.last_event and state.phase is Phase.REGROUP


def test_disaster_preferred_bonus_against_wind():
    hands = [
        ["Hurricane", "Pinus elliottii", "Sabal palmetto"],
        ["Ilex opaca", "Pinus taeda", "Magnolia grandiflora"],
    ]
    habitat = "Gulf Coast Pine Flatwoods"
    state = do(start(hands, habitat=habitat, first=2), "plant Ilex opaca", "plant Pinus taeda", "end")
    state = do(state, "draw Quercus rubra", "draw Quercus alba")
    state = do(state, "disaster Hurricane")  # force 5 + 1: Ilex (preferred) wind 4 + 2 stands
    assert names(state.understory(1)) == ("Ilex opaca", None)


def test_capture_clears_trees_weather_and_trends_for_the_next_habitat():
    hands = [
        ["Pinus virginiana", "Sassafras albidum", "Cirrus"],
        ["Warming Trend", "Cornus florida", "Pinus taeda"],
    ]
    state = do(
        start(hands, first=2, habitats_to_win=2),
        "trend Warming Trend",
        "plant Cornus florida",
        "draw Quercus rubra",
        "draw Quercus alba",
    )
    state = do(
        state, "plant Pinus virginiana", "grow 1", "cloud Cirrus", "draw Carya ovata", "draw Quercus nigra"
    )
    assert state.temperature == 9 and state.trend_cards and state.weather
    state = do(state, "discard Quercus rubra", "end", "draw Quercus phellos")
    state = do(state, "plant Sassafras albidum", "grow 1")
    assert state.phase is Phase.HABITAT and state.captured == (1, 0)
    assert state.trend_cards == () and state.weather == () and state.understory(1) == (None, None)
    assert state.cards_in_play() == 72


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


@pytest.mark.parametrize(
    ("habitat", "disaster", "tree"),
    [
        ("Okefenokee Cypress Swamp", "Flood", "Taxodium distichum"),
        ("Blue Ridge High Slopes", "Ice Storm", "Quercus rubra"),
        ("Barrier Island Maritime Forest", "Hurricane", "Quercus virginiana"),
    ],
)
def test_habitat_power_enables_its_disaster(habitat, disaster, tree):
    hands = [[disaster, tree, "Cumulonimbus"], HANDS_2[1]]
    state = start(hands, habitat=habitat)
    assert state.why_not(state.parse_action(f"disaster {disaster}")) is None
    assert do(state, f"disaster {disaster}").spent >= 2


def test_regroup_draws_nothing_when_draw_and_litter_are_empty():
    state = do(start(HANDS_2), "discard Pinus taeda")
    dry = state._draft()  # an edge position: every other card is somewhere else
    dry.draw, dry.litter = (), 0
    after = do(dry, "end")
    assert after.current_player == 1 and len(after.hand(0)) == 2


def test_capture_two_habitats_ends_in_a_draw_when_habitats_run_out():
    hands = [["Pinus virginiana", "Sassafras albidum", "Cumulonimbus"], HANDS_2[1]]
    state = do(
        start(hands, habitats_to_win=2),
        "plant Pinus virginiana",
        "grow 1",
        "plant Sassafras albidum",
        "draw Quercus rubra",
        "draw Quercus alba",
        "discard Cornus florida",
        "end",
        "draw Carya ovata",
    )
    spent = state._draft()  # an edge position: the other nine habitats were already played
    spent.habitats_used = (1 << 10) - 1
    final = do(spent, "grow 1")
    assert final.is_terminal() and final.winners() == () and "ran out" in final.explain()
