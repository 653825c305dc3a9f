"""Pig, the dice race, as a treegames engine: a test game that is not part of the product.

The rules (Pig is a folk game; these are our own words):

* a chance draw picks who starts, each player with equal odds;
* on a turn the mover rolls one die as often as they like: each roll adds its pips to the turn's total,
  but a 1 wipes that total out and ends the turn;
* instead of rolling, the mover may hold: the turn's total is banked and the turn passes on;
* the first to bank ``goal`` points (100 by default) wins at once.

Our interpretation, where folk rules differ: holding needs a turn total above zero (holding nothing is
not a move), and there is no last round for the players after the one who reaches the goal.

Notation: ``first P2`` (chance: who starts), ``roll``, ``hold``, ``die 5`` (chance: the roll).
Places (for a view that clicks): ``"roll"`` and ``"hold"``.
"""

from __future__ import annotations

import random
import re
from enum import StrEnum
from fractions import Fraction
from typing import Any, NamedTuple

from treegames import core
from treegames.core import CHANCE, PARENT, TERMINAL, GameType, IllegalAction, Option, RandomBot

__all__ = ["Phase", "Kind", "Action", "NotationError", "PigGame", "PigState", "GreedyBot", "GAME_TYPE",
           "PLAYER_NAMES", "OPTIONS", "new_game", "parse_action", "ROLL", "HOLD", "FACES"]

PLAYER_NAMES = ("Player 1", "Player 2", "Player 3", "Player 4")
"""The seats' names, in turn order."""

FACES = (1, 2, 3, 4, 5, 6)
"""The die's faces; a 1 ends the turn with nothing."""

HOLD_AT = 20
"""GreedyBot holds once its turn total reaches this (the classic 'hold at 20' strategy)."""

OPTIONS = (
    Option("players", (2, 3, 4), 2, "How many players race"),
    Option("goal", (20, 50, 100), 100, "Points to bank to win"),
)
"""The option schema."""


class NotationError(core.NotationError):
    """Text that is not Pig notation."""


class Phase(StrEnum):
    """The step in force."""

    FIRST = "first player"
    """A chance draw picks who starts."""
    DECIDE = "decide"
    """The mover rolls or holds."""
    ROLL = "roll"
    """The die is in the air (a chance node)."""
    OVER = "game over"
    """Someone banked the goal."""


class Kind(StrEnum):
    """The kinds of action."""

    FIRST = "first"
    ROLL = "roll"
    HOLD = "hold"
    DIE = "die"


class Action(NamedTuple):
    """One action: a kind and, for the chance outcomes, a number (the first player, the die)."""

    kind: Kind
    value: int = 0

    def __str__(self) -> str:
        if self.kind is Kind.FIRST:
            return f"first P{self.value + 1}"
        if self.kind is Kind.DIE:
            return f"die {self.value}"
        return self.kind.value


def is_action(value: object) -> bool:
    """Whether ``value`` is a well-formed Pig action (a Kind and a whole number, nothing else)."""
    return isinstance(value, Action) and isinstance(value.kind, Kind) and type(value.value) is int


ROLL = Action(Kind.ROLL)
HOLD = Action(Kind.HOLD)
NOTATION_HELP = "Pig notation is 'roll', 'hold', 'die 1' to 'die 6' or 'first P1'."
_NOTATION = re.compile(r"(roll|hold)|die ([1-6])|first P([1-4])")


def parse_action(text: str, players: int = 4) -> Action:
    """The action written in Pig notation; NotationError naming what is wrong."""
    core.check_notation(text, NotationError)
    found = _NOTATION.fullmatch(text.strip().lower().replace("first p", "first P"))
    if found is None:
        raise NotationError(f"{core.quote(text)} is not a Pig action. {NOTATION_HELP}")
    word, die, first = found.groups()
    if word:
        return ROLL if word == "roll" else HOLD
    if die:
        return Action(Kind.DIE, int(die))
    if int(first) > players:
        raise NotationError(f"{core.quote(text)} names a player this {players}-player game does not have")
    return Action(Kind.FIRST, int(first) - 1)


class PigGame(core.GameBase):
    """The rules with chosen options."""

    name = "pig"

    def __init__(self, players: int = 2, **options: Any):
        """A race for 2-4 players to ``goal`` points (OptionError if an option is bad)."""
        self.options: dict[str, Any] = core.merge_options(OPTIONS, {"players": players, **options})
        del self.options["players"]
        self.num_players = players
        self.goal: int = self.options["goal"]

    def __repr__(self) -> str:
        return f"PigGame(players={self.num_players}, goal={self.goal})"

    def new_initial_state(self) -> PigState:
        """The state before the first-player draw."""
        return PigState._initial(self)


def new_game(players: int = 2, **options: Any) -> PigGame:
    """A new game of Pig."""
    return PigGame(players, **options)


class PigState(core.FrozenState):
    """One immutable moment of a game of Pig."""

    __slots__ = ("_prev", "phase", "current", "mover", "banked", "turn", "rolled", "winner")
    _FIELDS = ("phase", "current", "mover", "banked", "turn", "winner")
    _RESET = {"_prev": PARENT, "rolled": 0}

    @classmethod
    def _initial(cls, game: PigGame) -> PigState:
        """Nobody has banked anything; the first player is drawn next."""
        s = cls._blank(game)
        s._prev, s.phase, s.current, s.mover = None, Phase.FIRST, CHANCE, -1
        s.banked, s.turn, s.rolled, s.winner = (0,) * game.num_players, 0, 0, -1
        s.__class__ = cls
        return s

    def __repr__(self) -> str:
        return f"<PigState {self.phase.value} banked={self.banked} turn={self.turn}>"

    @property
    def current_player(self) -> int:
        """The player to act, CHANCE or TERMINAL."""
        return self.current

    @property
    def previous(self) -> PigState | None:
        """The state before the last action."""
        return self._prev

    def is_terminal(self) -> bool:
        """Whether someone has banked the goal."""
        return self.phase is Phase.OVER

    def scores(self) -> tuple[int, ...]:
        """Each player's banked points."""
        return self.banked

    def winners(self) -> tuple[int, ...]:
        """The one who banked the goal, once the game is over."""
        return (self.winner,) if self.winner >= 0 else ()

    def chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        """The first-player draw or the die, each outcome with its exact odds."""
        if self.phase is Phase.FIRST:
            return [(Action(Kind.FIRST, p), Fraction(1, self.num_players)) for p in range(self.num_players)]
        if self.phase is Phase.ROLL:
            return [(Action(Kind.DIE, f), Fraction(1, len(FACES))) for f in FACES]
        return []

    def legal_actions(self) -> list[Action]:
        """The actions allowed now (at a chance node, its outcomes)."""
        if self.phase is Phase.DECIDE:
            return [ROLL, HOLD] if self.turn > 0 else [ROLL]
        return [a for a, _ in self.chance_outcomes()]

    def parse_action(self, text: str) -> Action:
        """The action written in notation."""
        return parse_action(text, self.num_players)

    def actions_at(self, place: str) -> list[Action]:
        """The legal action at a place: ``"roll"`` or ``"hold"``; NotationError for any other text."""
        core.check_notation(place, NotationError)
        word = place.strip().lower()
        if word not in ("roll", "hold"):
            raise NotationError(f"{core.quote(place)} is not a place in Pig: the places are 'roll' and 'hold'")
        return [a for a in self.legal_actions() if a.kind.value == word and self.phase is Phase.DECIDE]

    def apply(self, action: Action | str) -> PigState:
        """The next state; IllegalAction naming the rule (this state unchanged) if not allowed."""
        if isinstance(action, str):
            action = self.parse_action(action)
        if not is_action(action) or action not in self.legal_actions():
            raise IllegalAction(self.why_not(action))
        s = self._child(action)
        if action.kind is Kind.FIRST:
            s.phase, s.current, s.mover = Phase.DECIDE, action.value, action.value
        elif action.kind is Kind.ROLL:
            s.phase, s.current = Phase.ROLL, CHANCE
        elif action.kind is Kind.DIE:
            s.rolled = action.value
            if action.value == 1:
                s.turn = 0
                s._pass_turn()
            else:
                s.turn += action.value
                s.phase, s.current = Phase.DECIDE, s.mover
        else:
            banked = list(s.banked)
            banked[s.mover] += s.turn
            s.banked, s.turn = tuple(banked), 0
            if banked[s.mover] >= self.game.goal:
                s.phase, s.current, s.winner = Phase.OVER, TERMINAL, s.mover
            else:
                s._pass_turn()
        s.__class__ = PigState
        return s

    def _pass_turn(self) -> None:
        """The next player decides (on a draft inside apply)."""
        self.mover = (self.mover + 1) % self.num_players
        self.phase, self.current = Phase.DECIDE, self.mover

    def why_not(self, action: object) -> str:
        """The rule an action breaks here."""
        if not is_action(action):
            return f"not a Pig action: {core.quote(action)}. {NOTATION_HELP}"
        if self.phase is Phase.OVER:
            return "the game is over: someone banked the goal"
        if action == HOLD and self.phase is Phase.DECIDE:
            return "holding needs points to bank: roll at least once this turn first"
        if self.current_player == CHANCE:
            return f"the {self.phase.value} is chance's to decide: {core.quote(str(action))} is not one of its outcomes"
        if action.kind in (Kind.DIE, Kind.FIRST):
            return f"{core.quote(str(action))} is for chance to decide, not a player: {PLAYER_NAMES[self.mover]} rolls or holds"
        return f"{PLAYER_NAMES[self.mover]} is to roll or hold now"

    def explain(self) -> str:
        """What the rules say now."""
        if self.phase is Phase.FIRST:
            return "A chance draw picks who starts; each player is equally likely."
        if self.phase is Phase.OVER:
            return f"{PLAYER_NAMES[self.winner]} banked {self.banked[self.winner]} and wins the race to {self.game.goal}."
        name = PLAYER_NAMES[self.mover]
        at_risk = f"{self.turn} this turn at risk" if self.turn else "nothing at risk yet"
        if self.phase is Phase.ROLL:
            return f"The die is rolling for {name} ({at_risk}): a 1 ends the turn with nothing."
        hold = " or hold to bank it" if self.turn else ""
        return (f"{name} has banked {self.banked[self.mover]} of {self.game.goal}, with {at_risk}. "
                f"Roll again (a 1 in 6 chance of losing the turn's points){hold}.")

    def describe(self, action: Action | str) -> str:
        """One sentence on what ``action`` does from here."""
        if isinstance(action, str):
            action = self.parse_action(action)
        if action.kind is Kind.FIRST:
            return f"{PLAYER_NAMES[action.value]} starts."
        if action.kind is Kind.DIE:
            if action.value == 1:
                return f"{PLAYER_NAMES[self.mover]} rolls a 1 and loses the turn's {self.turn}."
            return f"{PLAYER_NAMES[self.mover]} rolls a {action.value}: {self.turn + action.value} this turn."
        if action.kind is Kind.ROLL:
            return f"{PLAYER_NAMES[self.mover]} rolls the die."
        return f"{PLAYER_NAMES[self.mover]} holds and banks {self.turn}, for {self.banked[self.mover] + self.turn}."

    @property
    def last_event(self) -> str:
        """What the last action did."""
        before = self._prev
        return before.describe(self.last_action) if before is not None else "The game is about to start."

    def random_action(self, rng: random.Random) -> Action:
        """A uniformly random legal action."""
        legal = self.legal_actions()
        return legal[rng.randrange(len(legal))]


class GreedyBot:
    """Holds once the turn's total reaches 20, or when holding wins; otherwise rolls."""

    def __init__(self, rng: random.Random):
        self.rng = rng

    def choose(self, state: PigState) -> Action:
        """Roll or hold by the hold-at-20 rule."""
        if state.turn and (state.turn >= HOLD_AT or state.banked[state.mover] + state.turn >= state.game.goal):
            return HOLD
        return ROLL


GAME_TYPE = GameType(
    name="pig",
    title="Pig",
    players=(2, 3, 4),
    has_chance=True,
    has_hidden_information=False,
    options=OPTIONS,
    bots={"greedy": GreedyBot, "random": RandomBot},
)
"""What Pig is (the plug-in adds the coach's bots)."""
