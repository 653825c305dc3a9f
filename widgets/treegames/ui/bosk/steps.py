"""The rules walkthrough's script: a seeded 3-player game, every step with its rulebook section and notes.

Pure (no widgets).  The moves come from the engine's bots on a fixed seed, so the
script always follows the rules in force; the words on each step are the
engine's (``last_event``, ``explain()``) plus, at the first time something
happens, a short note of ours saying what to look at and which of our
interpretations (``treegames.bosk`` docstring) is at work.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ... import bosk, core
from ...bosk import Kind, Phase, TurnEnd
from .targets import last_event_of


def plural(count: int, one: str, many: str) -> str:
    """'1 active leaf', '3 active leaves'."""
    return f"{count} {one if count == 1 else many}"

WALKTHROUGH_SEED = 91
"""The chance seed of the walkthrough game (who starts)."""
WALKTHROUGH_LINEUP = ("greedy", "random", "greedy")
"""Maple and Birch play the greedy bot, Oak plays at random: a game with every case worth showing."""

CHAPTERS = ("Setup", "I. Spring", "II. Summer", "III. Autumn", "IV. Winter")
"""The walkthrough's chapters, named like the rulebook's parts (the final result closes IV. Winter)."""

@dataclass(frozen=True)
class Step:
    """One moment of the walkthrough: the state, the move that led to it, its chapter and our note."""

    index: int
    state: object
    notation: str
    chapter: str
    note: str = ""
    interpretation: str = ""
    """The name of our interpretation drawn at this step ('' if none)."""

    @property
    def event(self) -> str:
        """The engine's sentence on what the move did."""
        return last_event_of(self.state)

    @property
    def rule(self) -> str:
        """The engine's words on the rule in force now (with its rulebook section)."""
        return self.state.explain()


def chapter_of(state, action) -> str:
    """The chapter a step belongs to: the rulebook part of the move that led to it."""
    if action is None:
        return "Setup"
    kind = action.kind
    if kind is Kind.START:
        return "Setup"
    if kind is Kind.TREE:
        return "I. Spring"
    if kind is Kind.SUMMER:
        return "II. Summer"
    if kind is Kind.WINTER:
        return "IV. Winter"
    return "III. Autumn"


def seeded_game(seed: int = WALKTHROUGH_SEED, lineup=WALKTHROUGH_LINEUP, players: int = 3) -> list:
    """Every state of a seeded game from setup to the final result."""
    game = bosk.new_game(players)
    rng = random.Random(seed)
    bots = [bosk.GreedyBot(random.Random(seed * 10 + p)) if kind == "greedy"
            else core.RandomBot(random.Random(seed * 10 + p)) for p, kind in enumerate(lineup)]
    states = [game.new_initial_state()]
    while not states[-1].is_terminal():
        states.append(core.step(states[-1], bots, rng))
    return states


def _list(items: list[str]) -> str:
    """'a, b and c'."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _name(state, player: int) -> str:
    """A seat's species name."""
    return state.game.player_name(player)


class _Notes:
    """Notes for the first time each thing happens (so a long game is not a wall of repeats)."""

    def __init__(self):
        self.seen: set[str] = set()

    def first(self, key: str) -> bool:
        """True the first time ``key`` is asked about."""
        if key in self.seen:
            return False
        self.seen.add(key)
        return True


def note_for(prev, state, notes: _Notes) -> tuple[str, str]:
    """(note, interpretation name) for the move from ``prev`` to ``state``: the move's own note, then the round's."""
    text, interp = move_note(prev, state, notes)
    if state.round != prev.round and prev.round:
        more, more_interp = end_of_round_note(state)
        text = f"{text} {more}".strip()
        interp = interp or more_interp
    return text, interp


def move_note(prev, state, notes: _Notes) -> tuple[str, str]:
    """(note, interpretation name) on the move itself, the first time each kind of thing happens."""
    action = state.history[-1]
    kind = action.kind
    if kind is Kind.START:
        return (f"Setup 4 picks the start player at random; {_name(state, action.value)} takes the Hiker (drawn "
                f"beside their name under the park) and grows the first tree.", "")
    if kind is Kind.TREE:
        if notes.first("tree"):
            return ("The yellow dots are the empty inner crossings: the edge and corner crossings never take a tree "
                    "(I. Spring, note). The number on a tree is its value; bigger trees are drawn bigger.", "")
        if state.phase is Phase.SUMMER:
            return ("All 24 trees are grown. Press Forward to score summer: the trail table will show every row "
                    "and column.", "")
        return "", ""
    if kind is Kind.SUMMER:
        return ("Every trail is scored (the table below: one row per trail). Press a row's name to see that trail "
                "on the park. " + summer_start_note(prev, state),
                "ties clockwise from" if is_summer_tie(state) else "")
    if kind is Kind.WIND:
        return ("The wind board now lies on its side of the park. Spots 1-4 ask for a tree of value 1, 2, 3 and 4; "
                "spots 5-8 (marked *) allow any tree. Each spot's arrow turns a quarter clockwise from the one before "
                "(our interpretation of the missing wind board picture: option wind_pattern). The marker (thick "
                "frame) is on spot 1.", "the wind board's pattern")
    if kind is Kind.CHOOSE:
        if action.value == bosk.SQUIRREL and notes.first("squirrel tile"):
            return ("The squirrel tile: no leaves this turn. The blue squares are where the squirrel may go: up to "
                    "3 leaf-path steps downwind of the tree, never onto another squirrel (our reading of 'within 3 "
                    "spaces').", "the squirrel's reach")
        if notes.first("choose"):
            need = prev.required_tree_value
            return (f"Falling Leaves: the wind board's spot {prev.wind_spot} asks for a value-{need} tree, so only "
                    f"those were ringed. The chosen leaf tile (framed under the park) gives that many active leaves; "
                    f"the yellow squares are where the first leaf may fall: the two squares touching the tree on "
                    f"its downwind side.", "")
        if prev.required_tree_value == 0 and notes.first("any tree"):
            return "From spot 5 on the wind board shows *: any of the player's trees may drop its leaves.", ""
        return "", ""
    if kind is Kind.LEAF:
        pile = prev.pile(action.row, action.col)
        if prev.covering_cost(action.row, action.col) and notes.first("cover"):
            return (f"Covering: the pile on {bosk.square_name(action.row, action.col)} was topped by "
                    f"{_name(prev, pile[-1])}, so {plural(len(pile), 'active leaf', 'active leaves')} went back to the supply before one was "
                    f"placed on top (Covering other leaves 1-2). The -n tags on the yellow squares show that cost "
                    f"before you choose.", "")
        if state.end_reason == TurnEnd.BLOCKED and notes.first("blocked"):
            return ("No square ahead could take a leaf, so the path ends here and the unused leaves go back (our "
                    "interpretation: a blocked path ends as if it reached the edge).", "blocked paths")
        if state.end_reason == TurnEnd.EDGE and notes.first("edge"):
            return ("The path reached the edge of the play area: the leaves still active return to the supply "
                    "(Leaf Placement 3), and the tree is removed.", "")
        if notes.first("leaf"):
            return ("Each next leaf goes on one of the three squares ahead, straight or diagonal, in the direction "
                    "of the wind (Leaf Placement 2). The framed squares are this turn's path.", "")
    if kind is Kind.SQUIRREL and notes.first("squirrel"):
        return ("The squirrel (brown disc with its owner's shape) controls its square for winter and can never be "
                "covered.", "")
    if kind is Kind.WINTER:
        return ("Every region is scored (the table below). Only the top leaf or a squirrel counts; the pile's "
                "height does not (IV. Winter 1). " + final_note(state),
                "ties clockwise from" if state.last_decision.is_tie else "")
    if state.phase is Phase.WINTER and prev.phase is not Phase.WINTER:
        return ("That was the eighth and last round. Winter comes: the trees are bare and the regions are scored "
                "next (the region table below shows them as they stand).", "")
    return "", ""


def is_summer_tie(state) -> bool:
    """True if the engine says two or more players tied for the fewest summer points."""
    decision = state.last_decision
    return decision is not None and decision.rule == "II. Summer" and decision.is_tie


def summer_start_note(prev, state) -> str:
    """Who takes the Hiker after summer and why, with the tie-break when there is a tie (the engine's words)."""
    return state.decision_text()


def end_of_round_note(state) -> tuple[str, str]:
    """What the end of a round did: the marker, the new wind and the new start player (with a tie, why)."""
    decision = state.last_decision
    text = (f"End of the Round: the marker moves to spot {state.wind_spot}, so the wind now blows "
            f"{state.wind_direction.value}; the lowest leaf tile played ({min(decision.values)}) starts round "
            f"{state.round}, so {_name(state, decision.chosen)} takes the Hiker.")
    if decision.is_tie:
        text += (" The lowest tile was tied, so the tie went to the closest player clockwise from the previous start "
                 "player (who counts first: our interpretation).")
    return text, "ties clockwise from" if decision.is_tie else ""


def walkthrough_steps(seed: int = WALKTHROUGH_SEED, lineup=WALKTHROUGH_LINEUP, players: int = 3) -> list[Step]:
    """The walkthrough: every state of the seeded game with its chapter and our notes."""
    states = seeded_game(seed, lineup, players)
    notes = _Notes()
    steps = [Step(0, states[0], "", "Setup",
                  "The 3-player park: the 4-player side of the board with its outer ring of squares (greyed, the "
                  "'white border') out of play, leaving 7 x 7 squares and 8 regions (our interpretation of the board "
                  "sides; the 2-player side is 7 x 7 too, the 4-player side 9 x 9). Each region has its own colour "
                  "AND pattern; the legend names them.", "board sizes and regions")]
    for i in range(1, len(states)):
        prev, state = states[i - 1], states[i]
        action = state.history[-1]
        note, interp = note_for(prev, state, notes)
        steps.append(Step(i, state, str(action), chapter_of(state, action), note, interp))
    return steps


def chapter_starts(steps: list[Step]) -> dict[str, int]:
    """The first step index of each chapter."""
    found: dict[str, int] = {}
    for step in steps:
        found.setdefault(step.chapter, step.index)
    return found


def final_note(state) -> str:
    """The final result with the tie-break explained (the engine picks the winner and says how)."""
    return state.decision_text()
