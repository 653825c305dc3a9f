"""The rules walkthrough's script: a seeded 3-player game that shows every rule, with a note per step.

Pure Python (no widgets).  Chance (the habitat, the deal, the first player and
every draw) is sampled by the engine from a seeded generator; the players'
choices come from :class:`TourGuide`, which plays the engine's GreedyBot move
unless a legal action would show a rule not yet shown (combat, a cloud, a
trend, a lingering disaster, a fire or wind disaster, growing, a discard).  So
the walkthrough reaches every rule the rule sheet lists, whatever the card data.

Each state gets a :class:`Note`: the rule-sheet section it illustrates and a
short explanation in our own words; where the rule sheet is silent, the note
says that it is *our interpretation* (see the engine's module docstring).  The
game follows the printed capture rule (the second canopy tree captures at once);
the capture note names our ``capture_at_round_end`` variant in the engine's words.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ... import core
from ... import mighty_trees as mt
from ...mighty_trees import data as cards
from ...mighty_trees import words as mt_words

__all__ = ["Note", "Tour", "TourGuide", "FEATURES", "feature_of", "make_tour", "note_for"]

FEATURES = ("attack", "cloud", "trend", "linger", "strike", "grow", "discard")
"""Rules the tour must show at least once, besides planting, Regroups and the capture."""

DECK = mt.draw_pile_cards()


def feature_of(action) -> str | None:
    """Which rule an action shows off (None for planting without combat, 'end' and chance)."""
    verb = action.verb
    if verb is mt.Verb.PLANT:
        return "attack" if action.player >= 0 else None
    if verb is mt.Verb.CLOUD:
        return "cloud"
    if verb is mt.Verb.TREND:
        return "trend"
    if verb is mt.Verb.DISASTER:
        return "linger" if DECK[action.card].linger else "strike"
    if verb is mt.Verb.GROW:
        return "grow"
    if verb is mt.Verb.DISCARD:
        return "discard"
    return None


class TourGuide:
    """Chooses each move: one that shows a rule not yet shown, else the GreedyBot's (never capturing too early)."""

    def __init__(self, rng: random.Random):
        self.greedy = mt.GreedyBot(rng)
        self.shown: set[str] = set()

    def choose(self, state):
        """The move to play now."""
        legal = state.legal_actions()
        missing = [f for f in FEATURES if f not in self.shown]
        planting_first = state.tree_count(state.mover) == 0 and any(a.verb is mt.Verb.PLANT for a in legal)
        for feature in [] if planting_first else missing:
            shows = [a for a in legal if feature_of(a) == feature and not self._wasteful(state, a)]
            if shows:  # of the actions that show the rule, the one that leaves the mover best placed
                me = state.mover
                best = max(shows, key=lambda a: _standing(state.apply(a), me))
                self.shown.add(feature)
                return best
        action = self.greedy.choose(state)
        if missing and state.apply(action).is_terminal():
            calmer = [a for a in legal if not state.apply(a).is_terminal()]
            if calmer:
                action = next((a for a in calmer if a.verb is mt.Verb.END), calmer[0])
        if (f := feature_of(action)) is not None:
            self.shown.add(f)
        return action

    @staticmethod
    def _wasteful(state, action) -> bool:
        """A demonstration that would cost the mover one of their own trees is skipped."""
        if action.verb is mt.Verb.DISCARD and action.place != "hand":
            return True
        if action.verb in (mt.Verb.TREND, mt.Verb.DISASTER):
            return state.apply(action).tree_count(state.mover) < state.tree_count(state.mover)
        return False


def _standing(state, me: int) -> int:
    """The guide's taste: its own trees (canopy double) minus the best other side's."""
    def trees(p: int) -> int:
        return state.tree_count(p) + sum(t is not None for t in state.canopy(p))
    return trees(me) - max(trees(p) for p in range(state.num_players) if p != me)


@dataclass(frozen=True)
class Note:
    """What one step of the walkthrough shows: the rule-sheet section and our explanation."""

    section: str
    text: str
    interpretation: str = ""  # set where the rule sheet is silent and the engine follows our design


@dataclass(frozen=True)
class Tour:
    """The walkthrough's states (every action of the game) and a note for each."""

    seed: int
    states: tuple
    notes: tuple[Note, ...]

    def chapters(self) -> list[tuple[str, int]]:
        """(section, first state index) for every section, in game order (for the 'jump to' buttons)."""
        seen: dict[str, int] = {}
        for index, note in enumerate(self.notes):
            seen.setdefault(note.section, index)
        return list(seen.items())


def play_tour_game(seed: int, players: int = 3, max_turns: int = 80) -> tuple[list, TourGuide]:
    """A seeded game played by the tour guide for every seat; all its states."""
    rng = random.Random(seed)
    guide = TourGuide(random.Random(seed + 1))
    state = mt.new_game(players, max_turns=max_turns).new_initial_state()
    states = [state]
    while not state.is_terminal():
        action = core.sample_chance(state, rng) if state.current_player == core.CHANCE else guide.choose(state)
        state = state.apply(action)
        states.append(state)
    return states, guide


def make_tour(seed: int = 1, players: int = 3, tries: int = 200) -> Tour:
    """The first seeded game (from ``seed`` on) that shows every rule and ends with a capture, annotated."""
    for attempt in range(seed, seed + tries):
        states, guide = play_tour_game(attempt, players)
        if set(FEATURES) <= guide.shown and states[-1].winners():
            return Tour(attempt, tuple(states), tuple(annotate(states)))
    raise ValueError(f"no seed from {seed} to {seed + tries - 1} shows every rule")


# ---------------------------------------------------------------- the notes

INTERPRETATIONS = {key: mt_words.SILENT[key] for key in ("cards", "combat", "cloud", "trend", "linger", "strike")}
"""Our interpretations shown beside the steps, in the engine's words (mighty_trees.words.SILENT)."""

FIRST_TIME = {
    "Game Layout": (
        "One habitat card is drawn and all players compete in it. Each player has 2 understory and 2 canopy "
        "slots. The draw pile holds every tree, cloud, trend and disaster card, shuffled; discards go to the "
        "litter pile.", "cards"),
    "Player Commands": (
        f"Each player draws {cards.COMMAND_SIZE} cards: their Command. Only the owner sees it (the other players see card backs); "
        "this walkthrough shows every Command, like the Teacher view of the play page.", ""),
    "Game Turn": ("The first player is chosen at random, then turns go round the table in seat order.", ""),
    "Mobilization Phase": (
        f"Every turn starts with {cards.SOLS_PER_TURN} Sols, the suns on the table. Cards cost Sols: a tree's "
        "planting cost, later its growth cost; clouds 1, trends 2, a disaster its own cost.", ""),
    "Battle Phase: Plant Trees": (
        "A tree goes into an empty understory slot if the habitat's current temperature and water lie inside "
        "its ranges (see the bars on each card against the gauges).", ""),
    "Initiate Tree Combat": (
        "The four limits of the rule sheet: a tree attacks only as it is planted; only understory trees can be "
        "attacked; only a player with at least 2 trees can be attacked; combat is always optional.", "combat"),
    "Battle Phase: Grow Trees": (
        "An understory tree moves up into an empty canopy slot for its growth cost. The player who grows a "
        "second canopy tree captures the habitat at once (Capturing a Habitat).", ""),
    "Sol Laws (Party Game)": (
        "Sol Laws: 3 Sols per turn, at least 1 must be spent, and discarding a card from the Command, the "
        "understory or the canopy costs 1 Sol. Unspent Sols are lost.", ""),
    "Place a Weather Card: cloud": ("A cloud card (1 Sol) shifts the habitat's water or temperature.", "cloud"),
    "Place a Weather Card: trend": ("A trend card (2 Sols) shifts the climate for good.", "trend"),
    "Unleash a Disaster: fire and wind": ("Disasters strike the trees on the sides the card names.", "strike"),
    "Unleash a Disaster: lingering": (
        "This disaster changes the climate, and every tree struck whose range no longer fits dies.", "linger"),
    "Weather leaves play": ("A cloud or a lingering disaster has run its time and goes to the litter.", "cloud"),
    "Regroup Phase": (
        f"The player draws until {cards.COMMAND_SIZE} cards are in the Command; drawing ends the turn. Every card left in the draw "
        "pile is equally likely (the card-odds lesson computes these chances).", ""),
    "Capturing a Habitat": (
        f"{mt_words.CAPTURE_AT_ONCE} Not played here, the New game form offers {mt_words.CAPTURE_AT_ROUND_END}", ""),
}


def section_of(before, action, after) -> str:
    """The rule-sheet section a step illustrates."""
    verb = action.verb
    if verb is mt.Verb.HABITAT:
        return "Game Layout"
    if verb is mt.Verb.DRAW:
        return "Player Commands" if before.phase is mt.Phase.DEAL else "Regroup Phase"
    if verb is mt.Verb.FIRST:
        return "Game Turn"
    if after.is_terminal() and after.winners():
        return "Capturing a Habitat"
    if verb is mt.Verb.PLANT:
        return "Initiate Tree Combat" if action.player >= 0 else "Battle Phase: Plant Trees"
    if verb is mt.Verb.GROW:
        return "Battle Phase: Grow Trees"
    if verb in (mt.Verb.DISCARD, mt.Verb.END):
        return "Sol Laws (Party Game)"
    if verb is mt.Verb.CLOUD:
        return "Place a Weather Card: cloud"
    if verb is mt.Verb.TREND:
        return "Place a Weather Card: trend"
    if verb is mt.Verb.DISASTER:
        lingers = any(card.id == action.card for card, _owner, _rounds in after.lingering)  # the engine's say
        return "Unleash a Disaster: lingering" if lingers else "Unleash a Disaster: fire and wind"
    return "Battle Phase"


def note_for(before, action, after, seen: set[str]) -> Note:
    """The note for one step: the engine's own sentence for what happened, plus our explanation the first time."""
    section = section_of(before, action, after)
    extra = []
    if "leaves play" in after.last_event and "Weather leaves play" not in seen:
        extra.append(("Weather leaves play", FIRST_TIME["Weather leaves play"][0]))
        seen.add("Weather leaves play")
    if after.phase is mt.Phase.BATTLE and before.phase is not mt.Phase.BATTLE and "Mobilization Phase" not in seen:
        extra.append(("Mobilization Phase", FIRST_TIME["Mobilization Phase"][0]))
        seen.add("Mobilization Phase")
    text = after.last_event
    interpretation = ""
    if section not in seen:
        seen.add(section)
        words, key = FIRST_TIME.get(section, ("", ""))
        if words:
            text += " " + words
        interpretation = INTERPRETATIONS.get(key, "")
    for name, words in extra:
        text += f" [{name}] {words}"
    return Note(section, text, interpretation)


def annotate(states: list) -> list[Note]:
    """A note for every state of a game (the first one introduces the walkthrough)."""
    notes = [Note("Game Layout", "A new game for 3 players. Press Forward to see each step, with the rule it "
                                 "follows.", INTERPRETATIONS["cards"])]
    seen: set[str] = set()
    for before, after in zip(states, states[1:], strict=False):
        notes.append(note_for(before, after.history[-1], after, seen))
    return notes
