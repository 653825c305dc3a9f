"""The rules walkthrough: a seeded game that shows every rule, a note per step naming its rule-sheet section."""

from __future__ import annotations

from treegames import mighty_trees as mt
from treegames.ui.mighty_trees.tour import FEATURES, feature_of, make_tour
from treegames.ui.mighty_trees.walkthrough import MightyTreesWalkthrough

SECTIONS = {
    "Game Layout", "Player Commands", "Game Turn", "Battle Phase: Plant Trees", "Battle Phase: Grow Trees",
    "Initiate Tree Combat", "Sol Laws (Party Game)", "Place a Weather Card: cloud", "Place a Weather Card: trend",
    "Unleash a Disaster: fire and wind", "Unleash a Disaster: lingering", "Regroup Phase", "Capturing a Habitat",
}


def test_the_tour_game_shows_every_rule_and_ends_with_a_capture():
    tour = make_tour(1)
    shown = {feature_of(a) for a in tour.states[-1].history} - {None}
    assert set(FEATURES) <= shown
    assert tour.states[-1].winners()
    assert len(tour.notes) == len(tour.states)
    assert {name for name, _ in tour.chapters()} == SECTIONS


def test_every_note_starts_with_the_engines_own_words():
    tour = make_tour(1)
    for state, note in zip(tour.states[1:], tour.notes[1:], strict=True):
        assert note.text.startswith(state.last_event)


def test_our_interpretations_appear_where_they_matter():
    tour = make_tour(1)
    first = dict(tour.chapters())
    for section in ("Initiate Tree Combat", "Place a Weather Card: cloud", "Place a Weather Card: trend",
                    "Unleash a Disaster: lingering", "Unleash a Disaster: fire and wind"):
        assert tour.notes[first[section]].interpretation, section
    assert "Mobilization Phase" in " ".join(n.text for n in tour.notes)


def test_the_combat_step_shows_the_sun_against_shade_sum():
    tour = make_tour(1)
    index = dict(tour.chapters())["Initiate Tree Combat"]
    assert "sun" in tour.notes[index].text and "shade" in tour.notes[index].text


def test_walkthrough_widget_steps_and_jumps():
    w = MightyTreesWalkthrough(seed=1)
    assert w.timeline.cursor == 0 and "Step 0 of" in w.note.value
    w.forward_button.click()
    assert w.timeline.cursor == 1 and "Rule sheet: Game Layout" in w.note.value
    combat = dict(w.tour.chapters())["Initiate Tree Combat"]
    w.chapter.value = combat
    assert w.timeline.cursor == combat
    assert "Initiate Tree Combat" in w.note.value and "Our interpretation" in w.note.value
    assert w.chapter.value == -1
    w.back_button.click()
    assert w.timeline.cursor == combat - 1
    # every Command is shown in the walkthrough (Teacher view)
    s = w.state
    text = " ".join(w.board_view.last_scene.texts())
    for p in range(3):
        for card in s.hand(p):
            assert card.name.split()[0] in text
    assert not w.auto_button.value
    assert w.state.phase is not None and isinstance(w.state, mt.MightyTreesState)


def test_the_capture_step_describes_the_printed_rule_and_names_the_variant():
    tour = make_tour(1)
    index = dict(tour.chapters())["Capturing a Habitat"]
    note = tour.notes[index]
    final = tour.states[-1]
    assert index == len(tour.states) - 1 and final.history[-1].verb is mt.Verb.GROW  # the grow itself captured
    assert "at once" in note.text and mt.words.CAPTURE_AT_ONCE in note.text
    assert "capture_at_round_end" in note.text and "our variant" in note.text
    assert "round ends capture" not in " ".join(n.text for n in tour.notes)
