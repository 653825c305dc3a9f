"""Mighty Trees reports for views: viewer-aware words, the last strike's report, the litter's top card.

* ``explain(viewer)`` / ``describe(action, viewer)`` / ``last_event`` never name a card the
  viewer cannot see (another player's Command, the draw pile), checked against
  ``view_for(viewer)`` over many random positions;
* ``last_strike`` (a :class:`Strike`): after a disaster or trend, the sides struck, the
  force or the changed axis, and each reached tree's verdict with the engine's reason;
* ``litter_top``: the card that went onto the litter pile last.
"""

from __future__ import annotations

import random
import re

import pytest
from mt_positions import do, start

from treegames import core
from treegames import mighty_trees as mt
from treegames.mighty_trees.data import POWER_TEXT, Element

PIEDMONT = "Piedmont Oak-Hickory Forest"
HANDS_2 = [
    ["Liriodendron tulipifera", "Prunus serotina", "Pinus taeda"],
    ["Acer saccharum", "Ilex opaca", "Fagus grandifolia"],
]
NAMES = sorted((c.name for c in mt.draw_pile_cards()), key=len, reverse=True)
NAME_RE = re.compile("|".join(re.escape(n) for n in NAMES))






def named(text: str) -> set[str]:
    """The card names written in ``text`` (longest name first at each place)."""
    return set(NAME_RE.findall(text))


def seen_by(state, viewer: int) -> set[str]:
    """The card names ``viewer`` may see (PUBLIC: the public cards only), from ``view_for``."""
    view = state.view_for(viewer if viewer >= 0 else 0)
    cards = list(view.litter) + [c for c, _, _ in view.weather] + list(view.trends)
    for p in range(state.num_players):
        cards += [c for c in view.understory[p] + view.canopy[p] if c is not None]
    if viewer >= 0:
        cards += list(view.hand)
    return {c.name for c in cards}


def habitat_words(state) -> set[str]:
    """Card names printed on the habitat card in play (its preferred species, its power): public text."""
    h = state.habitat_card
    return set() if h is None else named(" ".join(h.preferred) + " " + POWER_TEXT[h.power])


def random_states(games: int = 10):
    """Every state of some seeded random games (2-4 players, the variations mixed in)."""
    for seed in range(games):
        rng = random.Random(seed)
        players = 2 + seed % 3
        options = {"two_sided_disasters": seed % 4 == 3, "habitats_to_win": 1 + (seed % 5 == 4)}
        state = mt.new_game(players, max_turns=12 * players, **options).new_initial_state()
        yield state
        while not state.is_terminal():
            if state.current_player == core.CHANCE:
                state = state.apply(state.sample_chance(rng))
            else:
                state = state.apply(state.random_action(rng))
            yield state


# ----------------------------------------------------------------------- hidden cards stay hidden


def test_no_word_for_a_viewer_names_a_card_hidden_from_that_viewer():
    """explain(viewer), describe(draw, viewer) and last_event name only cards view_for(viewer) shows."""
    before = None
    checked = 0
    for state in random_states():
        if state.last_action is None:  # a new game
            before = None
        public_now = habitat_words(state)
        for viewer in [*range(state.num_players), mt.PUBLIC]:
            allowed = seen_by(state, viewer) | public_now
            leaked = named(state.explain(viewer)) - allowed
            assert not leaked, (viewer, leaked, state.explain(viewer))
            # last_event tells the step just made: cards public just before it may be named too
            # (and a card played or discarded face up, even if a reshuffle then hides it in the draw pile)
            event_allowed = allowed | (seen_by(before, viewer) | habitat_words(before) if before else set())
            action = state.last_action
            if action is not None and action.verb not in (mt.Verb.DRAW, mt.Verb.HABITAT) and action.card >= 0:
                event_allowed.add(mt.draw_pile_cards()[action.card].name)
            assert not named(state.last_event) - event_allowed, (viewer, state.last_event)
            if viewer >= 0:
                assert state.view_for(viewer).last_event == state.last_event
            if state.phase in (mt.Phase.DEAL, mt.Phase.REGROUP):
                receiver = state.dealt % state.num_players if state.phase is mt.Phase.DEAL else state.mover
                for action in state.legal_actions()[:3]:
                    text = state.describe(action, viewer)
                    if viewer == receiver:
                        assert action.card >= 0 and mt.draw_pile_cards()[action.card].name in text
                    else:
                        assert not named(text), (viewer, text)
            checked += 1
        before = state
    assert checked > 2000


def test_the_hidden_card_check_can_fail_the_mover_reads_their_own_command():
    """The omniscient explain() names the mover's cards; another player's explain(viewer) gives only a count."""
    state = start(HANDS_2)
    assert set(HANDS_2[0]) <= named(state.explain())
    assert set(HANDS_2[0]) <= named(state.explain(0))
    for viewer in (1, mt.PUBLIC):
        text = state.explain(viewer)
        assert not named(text) & set(HANDS_2[0])
        assert "P1 holds 3 cards, face down" in text
    assert "Sol Laws" in state.explain(1) and "Initiate Tree Combat" in state.explain(1)


def test_explain_for_another_viewer_still_tells_the_movers_public_trees():
    state = do(start(HANDS_2), "plant Liriodendron tulipifera", "end", "draw Quercus rubra")
    state = do(state, "discard Ilex opaca", "end", "draw Carya ovata")
    text = state.explain(1)  # P1 to move; P2 reads it
    assert "Understory 1, Liriodendron tulipifera" in text
    assert not named(text) & {"Prunus serotina", "Pinus taeda", "Quercus rubra"}


def test_describe_a_draw_names_the_card_only_to_its_receiver():
    state = do(start(HANDS_2), "plant Liriodendron tulipifera", "end")
    action = state.parse_action("draw Quercus rubra")
    assert "Quercus rubra" in state.describe(action) and "Quercus rubra" in state.describe(action, 0)
    assert state.describe(action, 1) == "P1 draws a card from the draw pile (face down)."
    assert "Quercus rubra" not in state.describe(action, mt.PUBLIC)


# ----------------------------------------------------------------------- the last strike


def fates(strike):
    """(side, place, slot, tree, survived) of each tree a strike reached."""
    return [(f.player, f.place, f.slot, f.card.name, f.survived) for f in strike.trees]


def test_last_strike_wildfire_reports_each_tree_with_its_fire_strength_and_reason():
    hands = [["Wildfire", "Quercus stellata", "Cumulonimbus"], ["Acer saccharum", "Ilex opaca", "Quercus rubra"]]
    state = do(start(hands, first=2), "plant Ilex opaca", "end", "draw Pinus taeda")
    state = do(state, "plant Quercus stellata", "end", "draw Quercus alba")
    state = do(state, "plant Acer saccharum", "draw Carya ovata")
    assert state.last_strike is None
    state = do(state, "disaster Wildfire")  # force 4: fire 3 and 3 burn; fire 6 stands
    strike = state.last_strike
    assert strike.card.name == "Wildfire" and strike.player == 0 and strike.sides == (0, 1)
    assert strike.element is Element.FIRE and strike.force == 4 and strike.value is None
    assert fates(strike) == [
        (0, "understory", 0, "Quercus stellata", True),
        (1, "understory", 0, "Ilex opaca", False),
        (1, "understory", 1, "Acer saccharum", False),
    ]
    stood = strike.trees[0]
    assert stood.measure == "fire 6" and stood.reason == "its fire 6 holds against force 4: it stands"
    assert "below force 4: it dies" in strike.trees[1].reason
    assert [f.card.name for f in strike.dead] == ["Ilex opaca", "Acer saccharum"]
    assert all(f.card.name in state.last_event for f in strike.dead)
    assert do(state, "draw Quercus nigra").last_strike is None  # it reports the last action only


def test_last_strike_preferred_species_shows_its_bonus():
    hands = [["Wildfire", "Carya illinoinensis", "Cumulonimbus"], HANDS_2[1]]
    state = do(start(hands), "plant Carya illinoinensis", "draw Quercus alba")
    state = do(state, "plant Ilex opaca", "end", "draw Quercus rubra", "disaster Wildfire")
    carya = state.last_strike.trees[0]
    assert carya.card.name == "Carya illinoinensis" and carya.survived
    assert carya.measure == "fire 5 (preferred +2)"
    assert carya.reason == "its fire 5 (preferred +2) holds against force 4: it stands"


def test_last_strike_tornado_and_two_sided_disasters_name_only_the_sides_struck():
    blue_ridge = "Blue Ridge High Slopes"  # wind +1: force 5
    hands = [["Tornado", "Prunus serotina", "Cumulonimbus"], ["Liriodendron tulipifera", "Ilex opaca", "Quercus rubra"]]
    state = do(start(hands, habitat=blue_ridge, first=2), "plant Liriodendron tulipifera", "end", "draw Acer rubrum")
    state = do(state, "plant Prunus serotina", "end", "draw Quercus alba")
    state = do(state, "discard Ilex opaca", "end", "draw Carya ovata", "disaster Tornado at P2")
    strike = state.last_strike
    assert strike.sides == (1,) and strike.struck(1) and not strike.struck(0) and strike.force == 5
    assert fates(strike) == [(1, "understory", 0, "Liriodendron tulipifera", False)]
    hands = [
        ["Wildfire", "Acer rubrum", "Pinus taeda"],
        ["Prunus serotina", "Acer saccharum", "Quercus alba"],
        ["Ilex opaca", "Fagus grandifolia", "Quercus rubra"],
    ]
    state = do(start(hands, two_sided_disasters=True), "plant Acer rubrum", "end", "draw Pinus echinata")
    state = do(state, "plant Prunus serotina", "end", "draw Pinus virginiana")
    state = do(state, "plant Ilex opaca", "end", "draw Quercus nigra", "disaster Wildfire at P2")
    strike = state.last_strike
    assert strike.sides == (0, 1) and not strike.struck(2)
    assert {f.player for f in strike.trees} == {0, 1}  # P3's Ilex opaca was not reached


def test_last_strike_trend_reports_the_axis_and_each_range():
    hands = [["Quercus stellata", "Wet Trend", "Pinus taeda"], HANDS_2[1]]
    state = do(start(hands), "plant Quercus stellata", "end", "draw Quercus rubra")
    state = do(state, "plant Ilex opaca", "end", "draw Quercus alba", "trend Wet Trend")  # water 5 -> 7
    strike = state.last_strike
    assert strike.card.name == "Wet Trend" and strike.sides == (0, 1) and strike.force is None
    assert strike.element is Element.WATER and strike.value == 7
    stellata, ilex = strike.trees
    assert stellata.card.name == "Quercus stellata" and not stellata.survived
    assert stellata.measure == "water 1-5" and stellata.reason == "water 7 is outside its range 1-5: it dies"
    assert ilex.survived and "within its range" in ilex.reason


def test_last_strike_lingering_drought_reports_the_new_water():
    hands = [["Drought", "Liriodendron tulipifera", "Quercus alba"], HANDS_2[1]]
    state = do(start(hands), "plant Liriodendron tulipifera", "end", "draw Quercus rubra")
    state = do(state, "discard Fagus grandifolia", "end", "draw Carya ovata", "disaster Drought")
    strike = state.last_strike
    assert strike.value == 3 and strike.element is Element.WATER
    assert fates(strike) == [(0, "understory", 0, "Liriodendron tulipifera", False)]


def table(state):
    """{(side, place, slot): card id} of every tree on the table."""
    out = {}
    for p in range(state.num_players):
        for place, trees in (("understory", state.understory(p)), ("canopy", state.canopy(p))):
            out.update({(p, place, i): t.id for i, t in enumerate(trees) if t is not None})
    return out


def test_last_strike_matches_the_table_in_random_games():
    """After every disaster or trend: the dead trees are exactly those gone; nothing off the struck sides moved."""
    before, strikes = None, 0
    for state in random_states(14):
        action = state.last_action  # None at the start of each game
        if action is not None and action.verb in (mt.Verb.DISASTER, mt.Verb.TREND):
            strike = state.last_strike
            assert strike is not None and strike.card.id == action.card and strike.player == before.mover
            old, new = table(before), table(state)
            for f in strike.trees:
                where = (f.player, f.place, f.slot)
                assert old[where] == f.card.id and (where in new) == f.survived
            reached = {(f.player, f.place, f.slot) for f in strike.trees}
            assert {w: c for w, c in old.items() if w not in reached} == {
                w: c for w, c in new.items() if w not in reached
            }
            if action.verb is mt.Verb.TREND:
                assert strike.sides == tuple(range(state.num_players))
            strikes += 1
        else:
            assert state.last_strike is None
        before = state
    assert strikes > 20


# ----------------------------------------------------------------------- the litter's top card


def test_litter_top_is_the_card_discarded_last():
    state = start(HANDS_2)
    assert state.litter_top is None and state.view_for(0).litter_top is None
    state = do(state, "discard Pinus taeda")
    assert state.litter_top.name == "Pinus taeda"
    state = do(state, "discard Prunus serotina")
    assert state.litter_top.name == "Prunus serotina" and state.view_for(1).litter_top.name == "Prunus serotina"


def test_litter_top_after_a_fire_is_the_disaster_card_on_the_burnt_trees():
    hands = [["Wildfire", "Quercus stellata", "Cumulonimbus"], ["Acer saccharum", "Ilex opaca", "Quercus rubra"]]
    state = do(start(hands, first=2), "plant Ilex opaca", "end", "draw Pinus taeda")
    state = do(state, "plant Quercus stellata", "end", "draw Quercus alba")
    state = do(state, "plant Acer saccharum", "draw Carya ovata", "disaster Wildfire")
    assert state.litter_top.name == "Wildfire"


@pytest.mark.parametrize("games", [12])
def test_litter_top_is_always_on_the_litter_pile(games):
    """In random games the top card is on the litter (None when empty); a discarded card lands on top."""
    for state in random_states(games):
        top = state.litter_top
        assert (top is None) == (not state.litter_cards)
        if top is not None:
            assert top in state.litter_cards
        action = state.last_action
        if action is not None and action.verb is mt.Verb.DISCARD and action.place == "hand" and state.litter_cards:
            assert top.id == action.card
