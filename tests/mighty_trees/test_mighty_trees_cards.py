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
        ("Tsuga canadensis", (3, 7), "wet"),
        ("Sabal palmetto", (8, 9), "balanced"),
    ],
)
def test_tree_cards_are_true_to_the_species(name, zones, pref):
    tree = next(c for c in draw_pile_cards() if c.name == name)
    assert (tree.temp_min, tree.temp_max) == zones and tree.water_pref.value == pref


def test_tree_cards_obey_the_balance_rule():
    for tree in (c for c in draw_pile_cards() if c.kind.value == "tree"):
        total = tree.sun + tree.shade + tree.fire + tree.wind
        assert total == STRENGTH_BUDGET_BASE + 2 * (tree.plant + (tree.grow or 0)), tree.name


def test_some_trees_cannot_reach_the_canopy():
    stuck = [c.name for c in draw_pile_cards() if c.kind.value == "tree" and not c.can_grow]
    assert "Cornus florida" in stuck and 0 < len(stuck) < 10


def test_every_habitat_has_plantable_trees_and_real_preferred_species():
    trees = [c for c in draw_pile_cards() if c.kind.value == "tree"]
    for habitat in habitat_cards():
        assert 1 <= habitat.temperature <= 9 and 1 <= habitat.water <= 9
        assert -1 <= habitat.fire_mod <= 1 and -1 <= habitat.wind_mod <= 1
        assert sum(t.fits(habitat.temperature, habitat.water) for t in trees) >= 10, habitat.name
        assert sum(habitat.prefers(t) for t in trees) >= 3, habitat.name


def test_a_genus_entry_prefers_every_species_of_that_genus():
    plateau = next(h for h in habitat_cards() if h.name == "Cumberland Plateau Oak Forest")
    oaks = [c for c in draw_pile_cards() if c.name.startswith("Quercus ")]
    assert "Quercus" in plateau.preferred and all(plateau.prefers(o) for o in oaks)


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
