"""Mighty Trees card set: the 72-card draw pile, the 10 habitats, and validation of the data files."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from treegames.mighty_trees import CardDataError, draw_pile_cards, habitat_cards
from treegames.mighty_trees import data as deck_module
from treegames.mighty_trees.data import (
    STEP_COSTS,
    STRENGTH_BUDGET_BASE,
    load_cards,
    parse_clouds,
    parse_disasters,
    parse_habitats,
    parse_trees,
)

CARDS = Path(deck_module.__file__).with_name("cards")


def test_game_layout_draw_pile_is_50_trees_8_clouds_4_trends_10_disasters():
    kinds = Counter(card.kind.value for card in draw_pile_cards())
    assert len(draw_pile_cards()) == 72
    assert kinds == {"tree": 50, "cloud": 8, "trend": 4, "disaster": 10}


def test_ten_habitat_cards():
    assert len(habitat_cards()) == 10


def test_card_names_are_unique_and_ids_follow_the_deck_order():
    cards = draw_pile_cards()
    assert len({c.name for c in cards}) == 72
    assert [c.id for c in cards] == list(range(72))


def test_quercus_marilandica_is_among_the_trees():
    trees = {c.name: c for c in draw_pile_cards() if c.kind.value == "tree"}
    blackjack = trees["Quercus marilandica"]
    assert blackjack.common == "blackjack oak" and blackjack.water_pref.value == "dry"


@pytest.mark.parametrize(
    ("name", "zones", "pref"),
    [
        ("Taxodium distichum", (4, 9), "wet"),
        ("Pinus palustris", (7, 9), "dry"),
        ("Acer saccharum", (3, 8), "balanced"),
        ("Quercus virginiana", (8, 9), "balanced"),
        ("Tsuga canadensis", (3, 7), "balanced"),  # a tree of moist slopes and coves, not of swamps
        ("Sabal palmetto", (8, 9), "balanced"),
        ("Acer rubrum", (3, 9), "balanced"),
        ("Carya illinoinensis", (5, 9), "balanced"),  # well-drained river bottoms
        ("Nyssa aquatica", (6, 9), "wet"),
    ],
)
def test_tree_cards_are_true_to_the_species(name, zones, pref):
    tree = next(c for c in draw_pile_cards() if c.name == name)
    assert (tree.temp_min, tree.temp_max) == zones and tree.water_pref.value == pref


@pytest.mark.parametrize(
    ("name", "water"),
    [
        ("Acer rubrum", (2, 9)),  # dry ridges to red maple swamps
        ("Tsuga canadensis", (4, 7)),
        ("Taxodium distichum", (7, 9)),
        ("Pinus palustris", (1, 6)),
    ],
)
def test_tree_water_ranges_follow_the_species_sites(name, water):
    tree = next(c for c in draw_pile_cards() if c.name == name)
    assert (tree.water_min, tree.water_max) == water


def test_trees_csv_names_its_references():
    header = (CARDS / "trees.csv").read_text().split("\nname,")[0]
    for source in ("USDA Plant Hardiness Zones", "Wetland Plant List", "Silvics of North America"):
        assert source in header


def test_tree_cards_obey_the_balance_rule():
    for tree in (c for c in draw_pile_cards() if c.kind.value == "tree"):
        total = tree.sun + tree.shade + tree.fire + tree.wind
        assert total == STRENGTH_BUDGET_BASE + 2 * (tree.plant + (tree.grow or 0)), tree.name


def test_every_tree_can_reach_the_canopy_and_each_step_costs_two_or_three_sols():
    """Issue 12: no dead tree cards, and no planting plus growing in one 3-Sol turn."""
    for tree in (c for c in draw_pile_cards() if c.kind.value == "tree"):
        assert tree.can_grow and tree.plant in STEP_COSTS and tree.grow in STEP_COSTS, tree.name
        assert tree.plant + tree.grow > 3


def test_every_habitat_has_plantable_trees_and_real_preferred_species():
    trees = [c for c in draw_pile_cards() if c.kind.value == "tree"]
    for habitat in habitat_cards():
        assert 1 <= habitat.temperature <= 9 and 1 <= habitat.water <= 9
        assert -1 <= habitat.fire_mod <= 1 and -1 <= habitat.wind_mod <= 1
        assert sum(t.fits(habitat.temperature, habitat.water) for t in trees) >= 10, habitat.name
        assert sum(habitat.prefers(t) for t in trees) >= 3, habitat.name


def test_every_preferred_species_can_be_planted_in_its_habitat():
    trees = [c for c in draw_pile_cards() if c.kind.value == "tree"]
    for habitat in habitat_cards():
        for tree in (t for t in trees if habitat.prefers(t)):
            assert tree.fits(habitat.temperature, habitat.water), (habitat.name, tree.name)


def plantable(habitat):
    """The tree cards that can be planted at the habitat's own temperature and water."""
    return [c for c in draw_pile_cards() if c.kind.value == "tree" and c.fits(habitat.temperature, habitat.water)]


def kills(disaster, habitat):
    """The plantable species of ``habitat`` that ``disaster`` kills there (fire/wind force, or its axis)."""
    element = disaster.element.value
    if element in ("water", "temperature"):
        t = max(1, min(9, habitat.temperature + (disaster.strength if element == "temperature" else 0)))
        w = max(1, min(9, habitat.water + (disaster.strength if element == "water" else 0)))
        if element == "temperature":
            return [x for x in plantable(habitat) if not x.temp_min <= t <= x.temp_max]
        return [x for x in plantable(habitat) if not x.water_min <= w <= x.water_max]
    force = disaster.strength + (habitat.fire_mod if element == "fire" else habitat.wind_mod)
    return [x for x in plantable(habitat) if getattr(x, element) + 2 * habitat.prefers(x) < force]


def test_no_disaster_kills_more_than_half_of_a_habitats_plantable_species():
    for disaster in (c for c in draw_pile_cards() if c.kind.value == "disaster"):
        assert disaster.needs_power is None, disaster.name  # every disaster can be unleashed anywhere
        for habitat in habitat_cards():
            assert 2 * len(kills(disaster, habitat)) <= len(plantable(habitat)), (disaster.name, habitat.name)


def test_every_non_tree_card_does_something_in_at_least_five_habitats():
    for card in (c for c in draw_pile_cards() if c.kind.value != "tree"):
        if card.kind.value == "disaster":
            useful = sum(bool(kills(card, h)) for h in habitat_cards())
        else:
            value = {"water": "water", "temperature": "temperature"}[card.affects.value]
            useful = sum(
                max(1, min(9, getattr(h, value) + card.change)) != getattr(h, value) for h in habitat_cards()
            )
        assert useful >= 5, card.name


def test_a_genus_entry_prefers_every_species_of_that_genus():
    piedmont = next(h for h in habitat_cards() if h.name == "Piedmont Oak-Hickory Forest")
    hickories = [c for c in draw_pile_cards() if c.name.startswith("Carya ")]
    assert "Carya" in piedmont.preferred and len(hickories) == 3
    assert all(piedmont.prefers(h) for h in hickories)


def test_load_cards_reads_the_shipped_files():
    deck, habitats = load_cards(CARDS)
    assert deck == draw_pile_cards() and habitats == habitat_cards()


TREE_HEADER = "name,common,water_pref,plant,grow,water_min,water_max,temp_min,temp_max,sun,shade,fire,wind\n"


@pytest.mark.parametrize(
    ("row", "words"),
    [
        ("Quercus alba,white oak,balanced,two,3,3,7,3,9,4,5,5,4", ["Quercus alba", "'plant'"]),
        ("Quercus alba,white oak,soggy,2,3,3,7,3,9,4,5,5,4", ["Quercus alba", "'water_pref'"]),
        ("Quercus alba,white oak,balanced,2,3,3,7,3,12,4,5,5,4", ["Quercus alba", "'temp_max'"]),
        ("Quercus alba,white oak,balanced,2,3,7,3,3,9,4,5,5,4", ["Quercus alba", "'water_max'"]),
        ("Quercus alba,white oak,balanced,2,3,3,7,3,9,4,5,5,5", ["Quercus alba", "balance rule"]),
        ("Quercus alba,white oak,dry,2,3,3,7,3,9,4,5,5,4", ["Quercus alba", "'water_pref'"]),
        ("quercus,white oak,balanced,2,3,3,7,3,9,4,5,5,4", ["quercus", "'name'"]),
        ("Quercus alba,white oak,balanced,2,,3,7,3,9,4,5,5,4", ["Quercus alba", "'grow'", "canopy"]),
        ("Quercus alba,white oak,balanced,1,3,3,7,3,9,3,5,5,3", ["Quercus alba", "'plant'", "2..3"]),
        ("Quercus alba,white oak,balanced,2,3,3,7", ["line 2"]),
    ],
)
def test_malformed_tree_row_names_the_card_and_field(row, words):
    with pytest.raises(CardDataError) as err:
        parse_trees(TREE_HEADER + row + "\n")
    for word in words:
        assert word in str(err.value)


def test_malformed_header_is_refused():
    with pytest.raises(CardDataError, match="header"):
        parse_trees("name,common\nQuercus alba,white oak\n")


def test_duplicate_card_is_refused():
    row = "Quercus alba,white oak,balanced,2,3,3,7,3,9,4,5,5,4\n"
    with pytest.raises(CardDataError, match="Quercus alba.*another card"):
        parse_trees(TREE_HEADER + row + row)


def test_malformed_weather_and_disaster_rows_name_the_card_and_field():
    with pytest.raises(CardDataError, match="Cirrus.*'affects'"):
        parse_clouds("name,affects,change\nCirrus,fire,1\n")
    with pytest.raises(CardDataError, match="Cirrus.*'change'"):
        parse_clouds("name,affects,change\nCirrus,water,0\n")
    header = "name,element,strength,cost,targets,sides,linger,needs_power\n"
    with pytest.raises(CardDataError, match="Wildfire.*'linger'"):
        parse_disasters(header + "Wildfire,fire,4,2,all,all,2,\n")
    with pytest.raises(CardDataError, match="Wildfire.*'needs_power'"):
        parse_disasters(header + "Wildfire,fire,4,2,all,all,0,volcano\n")


def test_comment_lines_are_skipped_and_line_numbers_still_count_them():
    text = "# a source note\n" + TREE_HEADER + "# another\nQuercus alba,white oak,balanced,2,3,3,7\n"
    with pytest.raises(CardDataError, match="line 4"):
        parse_trees(text)
    assert parse_trees("# note\n" + TREE_HEADER + "Quercus alba,white oak,balanced,2,3,3,7,3,9,4,5,5,4\n")


def test_habitat_preferring_a_species_it_cannot_grow_is_refused():
    trees = [c for c in draw_pile_cards() if c.kind.value == "tree"]
    header = "name,region,temperature,water,preferred,power,fire_mod,wind_mod\n"
    row = "Bog,a bog,5,9,Acer rubrum;Quercus alba;Taxodium distichum,floodplain,0,0\n"
    with pytest.raises(CardDataError, match="Bog.*'preferred'.*Quercus alba.*cannot be planted"):
        parse_habitats(header + row, trees)


def test_habitat_preferring_an_unknown_species_is_refused():
    trees = [c for c in draw_pile_cards() if c.kind.value == "tree"]
    header = "name,region,temperature,water,preferred,power,fire_mod,wind_mod\n"
    with pytest.raises(CardDataError, match="Bog.*'preferred'.*Picea rubens"):
        parse_habitats(header + "Bog,a bog,5,9,Picea rubens;Nyssa;Acer rubrum,floodplain,0,0\n", trees)


def test_a_malformed_data_file_fails_at_import(tmp_path):
    for f in CARDS.iterdir():
        (tmp_path / f.name).write_text(f.read_text())
    bad = (tmp_path / "trends.csv").read_text().replace("Warming Trend,temperature,1", "Warming Trend,heat,1")
    (tmp_path / "trends.csv").write_text(bad)
    with pytest.raises(CardDataError, match="Warming Trend.*'affects'"):
        load_cards(tmp_path)
    (tmp_path / "trends.csv").write_text("name,affects,change\nWarming Trend,temperature,1\n")
    with pytest.raises(CardDataError, match="4 trend cards"):
        load_cards(tmp_path)


def test_engine_imports_no_ui_modules():
    code = (
        "import sys, treegames.mighty_trees as m; m.new_game(3).new_initial_state().explain();"
        "bad = [n for n in ('ipywidgets', 'ipycanvas', 'IPython') if n in sys.modules];"
        "print(bad); sys.exit(1 if bad else 0)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr
