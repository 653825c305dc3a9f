"""The play dashboard shows the engine's reports as they are: explain(viewer), last_strike, litter_top."""

from __future__ import annotations

import re

from treegames import mighty_trees as mt
from treegames.ui.mighty_trees import scene as ts
from treegames.ui.mighty_trees.play import MightyTreesPlay
from treegames.ui.text import escape

PERSON = "human"
PIEDMONT = "Piedmont Oak-Hickory Forest"


def scripted(hands, *moves, **options):
    """A game after the habitat, the scripted deal (hands[p] = 3 card names), P1 first, then ``moves``."""
    state = mt.new_game(len(hands), **options).new_initial_state().apply(f"habitat {PIEDMONT}")
    for i in range(3):
        for hand in hands:
            state = state.apply(f"draw {hand[i]}")
    state = state.apply("first P1")
    for move in moves:
        state = state.apply(move)
    return state


def test_the_explanation_is_the_engines_explain_for_the_eyes_at_the_screen():
    w = MightyTreesPlay(seed=2, seats=(PERSON, PERSON))
    w.run_auto()
    s = w.state
    mover = s.mover
    assert w.reader(s) == mt.PUBLIC  # the hand cover is down
    assert escape(s.explain(mt.PUBLIC)).replace("\n", "<br>") in w.explanation.value
    assert "face down" in w.explanation.value
    on_habitat = set(s.habitat_card.preferred)  # the habitat card prints its preferred species
    assert not any(c.name in w.explanation.value for p in (0, 1) for c in s.hand(p) if c.name not in on_habitat)
    w.show_hand_button.click()
    assert w.reader(s) == mover
    assert all(card.name in w.explanation.value for card in s.hand(mover))
    assert not any(c.name in w.explanation.value for c in s.hand(1 - mover) if c.name not in on_habitat)
    w.teacher_box.value = True
    assert w.reader(s) is None


def test_the_strike_table_names_the_sides_struck_and_each_trees_verdict():
    hands = [
        ["Wildfire", "Acer rubrum", "Pinus taeda"],
        ["Prunus serotina", "Acer saccharum", "Quercus alba"],
        ["Ilex opaca", "Fagus grandifolia", "Quercus rubra"],
    ]
    state = scripted(hands, "plant Acer rubrum", "end", "draw Pinus echinata",
                     "plant Prunus serotina", "end", "draw Pinus virginiana",
                     "plant Ilex opaca", "end", "draw Quercus nigra", "disaster Wildfire at P2",
                     two_sided_disasters=True)
    w = MightyTreesPlay(seed=1, seats=("random",) * 3, players=3, answer=False)
    html = w.impact_html(state)
    strike = state.last_strike
    assert "struck <b>P1, P2</b>; not struck: P3" in html
    assert "fire force 4" in html
    for fate in strike.trees:
        assert fate.reason in html
    assert html.count(">died<") == len(strike.dead) == 2
    assert re.search(r"P3 understory 1</td><td>Ilex opaca</td><td>not struck", html)
    assert w.impact_html(state.apply(state.legal_actions()[0])) == ""  # only right after the strike


def test_the_litter_shows_the_engines_top_card():
    state = scripted([["Liriodendron tulipifera", "Prunus serotina", "Pinus taeda"],
                      ["Acer saccharum", "Ilex opaca", "Fagus grandifolia"]],
                     "discard Prunus serotina", "discard Liriodendron tulipifera")
    top = state.litter_top
    assert top.name == "Liriodendron tulipifera" and top.id != max(c.id for c in state.litter_cards)
    texts = ts.table_scene(state.view_for(1)).texts()
    assert "Liriodendron" in texts and "Prunus" not in texts
