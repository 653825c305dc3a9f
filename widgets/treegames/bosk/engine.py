"""The Bosk game and its immutable states (the treegames.core protocol)."""

from __future__ import annotations

import json
import random
import re
from enum import IntEnum, StrEnum
from fractions import Fraction
from typing import Any, NamedTuple

from .. import core
from ..core import CHANCE, TERMINAL, IllegalAction
from .park import DIRECTIONS, Direction, Park, park_for_players, parse_coordinates
from .rules import (
    LEAF_TILES,
    LEAVES_PER_PLAYER,
    OPTION_CHOICES,
    OPTION_DEFAULTS,
    PLAYER_NAMES,
    ROUNDS,
    SQUIRREL,
    TREE_VALUES,
    WIND_PATTERNS,
    WIND_SPOT_TREE_VALUE,
    tile_name,
)
from .scoring import summer_points, winter_points

__all__ = [
    "Phase",
    "Kind",
    "Action",
    "BoskGame",
    "BoskState",
    "ScoreRow",
    "TurnEnd",
    "new_game",
    "summer_table",
    "winter_table",
    "closest_clockwise",
]


class Phase(StrEnum):
    """The rulebook step in force."""


    START_PLAYER = "start player"
    """Setup 4: a chance node picks the start player."""
    SPRING = "spring"
    """I. Spring: players grow trees one at a time."""
    SUMMER = "summer"
    """II. Summer: the start player scores the trails (one action)."""
    WIND = "initial wind"
    """III. Autumn, Initial Wind Direction: the new start player places the wind board."""
    FALLING_LEAVES = "falling leaves"
    """III. Autumn, Falling Leaves 1a-1c: select a tree and a leaf tile."""
    LEAF_PLACEMENT = "leaf placement"
    """III. Autumn, Leaf Placement: place the active leaves one at a time."""
    SQUIRREL = "squirrel"
    """III. Autumn, Squirrel: place the squirrel token."""
    WINTER = "winter"
    """IV. Winter: the final round's start player scores the regions (one action)."""
    GAME_OVER = "game over"
    """End of the Game."""


class Kind(StrEnum):
    """The kinds of action, named by their notation keyword."""


    START = "start player"
    TREE = "tree"
    SUMMER = "score summer"
    WIND = "wind from"
    CHOOSE = "autumn tree"
    LEAF = "leaf"
    SQUIRREL = "squirrel"
    WINTER = "score winter"


class Action(NamedTuple):
    """One Bosk action; ``str`` gives its notation.

    * ``START``: ``value`` = start player index.
    * ``TREE``: intersection (``row``, ``col``), ``value`` = tree value.
    * ``WIND``: ``value`` = side of the park the wind board is placed on (Direction index).
    * ``CHOOSE``: intersection of the tree (``row``, ``col``), ``value`` = leaf tile (0 = squirrel).
    * ``LEAF`` / ``SQUIRREL``: square (``row``, ``col``).
    """

    kind: Kind
    row: int = -1
    col: int = -1
    value: int = -1

    def __str__(self) -> str:
        kind = self.kind
        if kind is Kind.START:
            return f"start player {self.value + 1}"
        if kind is Kind.TREE:
            return f"tree {self.value} at {_inter_name(self.row, self.col)}"
        if kind is Kind.WIND:
            return f"wind from {DIRECTIONS[self.value].value}"
        if kind is Kind.CHOOSE:
            return f"autumn tree {_inter_name(self.row, self.col)} tile {tile_name(self.value)}"
        if kind is Kind.LEAF or kind is Kind.SQUIRREL:
            return f"{kind.value} {_square_name(self.row, self.col)}"
        return kind.value


def _inter_name(row: int, col: int) -> str:
    """Intersection notation that tolerates odd coordinates in malformed actions."""
    if 0 <= col < 26 and row >= 0:
        return f"{chr(97 + col)}{row + 1}"
    return f"<intersection {row},{col}>"


def _square_name(row: int, col: int) -> str:
    """Square notation that tolerates odd coordinates in malformed actions."""
    if 0 <= col < 26 and row >= 0:
        return f"{chr(65 + col)}{row + 1}"
    return f"<square {row},{col}>"


NOTATION = re.compile(
    r"^(?:start player (?P<start>\d+)"
    r"|tree (?P<tree>\d+) at (?P<tree_at>[a-z]\d+)"
    r"|(?P<summer>score summer)"
    r"|wind from (?P<wind>north|east|south|west)"
    r"|autumn tree (?P<choose_at>[a-z]\d+) tile (?P<tile>\d+|squirrel)"
    r"|leaf (?P<leaf>[a-z]\d+)"
    r"|squirrel (?P<squirrel>[a-z]\d+)"
    r"|(?P<winter>score winter))$"
)

NOTATION_HELP = (
    "Bosk notation is one of: 'start player 1', 'tree 3 at c4', 'score summer', 'wind from north', "
    "'autumn tree d5 tile 6', 'autumn tree d5 tile squirrel', 'leaf E6', 'squirrel F7', 'score winter'"
)

class TurnEnd(IntEnum):
    """Why the last action ended an autumn turn (``state.end_reason``), for the 'what just happened' text."""

    NONE = 0
    """The last action did not end a turn."""
    NO_LEAVES = 1
    """Leaf Placement 3: no active leaves remain."""
    EDGE = 2
    """Leaf Placement 3: the path reached the edge of the play area."""
    BLOCKED = 3
    """Our interpretation: no square ahead can take a leaf."""
    SQUIRREL_PLACED = 4
    """Squirrel 2: the squirrel is placed and the turn continues with removing the tree."""
    SQUIRREL_NOWHERE = 5
    """Our interpretation: no free square within the squirrel's reach."""


_NO_END, _NO_LEAVES, _EDGE, _BLOCKED, _SQUIRREL_PLACED, _SQUIRREL_NOWHERE = TurnEnd


class BoskGame:
    """The rules and options of one Bosk game; makes states."""

    name = "bosk"

    def __init__(self, players: int = 2, **options: Any):
        """A Bosk game for 2-4 players with the named interpretation options."""
        core.check_player_count(players, range(2, 5), "Bosk")
        core.check_options(options, OPTION_CHOICES)
        self.num_players = players
        self.options: dict[str, Any] = {"players": players, **OPTION_DEFAULTS, **options}
        self.park: Park = park_for_players(players)
        self.wind_pattern: tuple[int, ...] = WIND_PATTERNS[self.options["wind_pattern"]]
        self.squirrel_tile_value: int = self.options["squirrel_tile_value"]
        self.squirrel_may_pass_squirrels: bool = self.options["squirrel_may_pass_squirrels"]
        self.player_names = PLAYER_NAMES[:players]
        park = self.park
        self.start_actions = tuple(Action(Kind.START, value=p) for p in range(players))
        self.wind_actions = tuple(Action(Kind.WIND, value=d) for d in range(4))
        self.summer_action = Action(Kind.SUMMER)
        self.winter_action = Action(Kind.WINTER)
        self.leaf_actions = tuple(Action(Kind.LEAF, *park.square_rc(s)) for s in range(park.num_squares))
        self.squirrel_actions = tuple(
            Action(Kind.SQUIRREL, *park.square_rc(s)) for s in range(park.num_squares)
        )
        self.tree_actions = {
            (v, i): Action(Kind.TREE, *park.intersection_rc(i), v) for i in park.interior for v in range(1, 5)
        }
        self.choose_actions = {
            (i, t): Action(Kind.CHOOSE, *park.intersection_rc(i), t) for i in park.interior for t in LEAF_TILES
        }

    def __repr__(self) -> str:
        return f"BoskGame(players={self.num_players}, options={self.options!r})"

    def new_initial_state(self) -> BoskState:
        """The state before the first action: the start player chance node (Setup 4)."""
        return BoskState._initial(self)

    def state_from_json(self, text: str) -> BoskState:
        """Rebuild a saved state by replaying its history through the rules."""
        return core.load_json(self, text)  # type: ignore[return-value]

    def player_name(self, player: int) -> str:
        """The species name of a seat."""
        return self.player_names[player]


def new_game(players: int = 2, **options: Any) -> BoskGame:
    """A new Bosk game for 2-4 players; see the package docstring for the options."""
    return BoskGame(players, **options)


_CONTENT = (
    "phase", "current", "start", "trees", "hand", "tiles", "supply", "active", "piles", "squirrels",
    "round", "wind", "first_wind", "turn", "played", "tree_at", "tile", "head", "choices", "summer",
    "winter", "end_reason",
)


class BoskState:
    """One immutable moment of a Bosk game.

    Internal fields (read them through the accessors): ``trees`` per intersection
    (0 = none, else ``owner << 3 | value``), ``piles`` per square (owners bottom to
    top), ``squirrels`` per player (square or -1), ``hand`` per player (trees not yet
    grown), ``tiles`` per player (bitmask of unused leaf tiles), ``supply`` per player,
    ``active`` (the mover's active leaves).
    """

    __slots__ = ("game", "history", "_prev", *_CONTENT)

    # ------------------------------------------------------------------ making states

    @classmethod
    def _initial(cls, game: BoskGame) -> BoskState:
        """The state before Setup 4."""
        n = game.num_players
        park = game.park
        s = object.__new__(_Draft)
        s.game = game
        s.history = ()
        s._prev = None
        s.phase = Phase.START_PLAYER
        s.current = CHANCE
        s.start = -1
        s.trees = (0,) * park.num_intersections
        s.hand = (TREE_VALUES,) * n
        s.tiles = (sum(1 << t for t in LEAF_TILES),) * n
        s.supply = (LEAVES_PER_PLAYER,) * n
        s.active = 0
        s.piles = ((),) * park.num_squares
        s.squirrels = (-1,) * n
        s.round = 0
        s.wind = -1
        s.first_wind = -1
        s.turn = 0
        s.played = (-1,) * n
        s.tree_at = -1
        s.tile = -1
        s.head = -1
        s.choices = ()
        s.summer = (0,) * n
        s.winter = (0,) * n
        s.end_reason = _NO_END
        s.__class__ = cls
        return s

    def _child(self, action: Action) -> _Draft:
        """A writable copy with ``action`` appended to the history; apply() freezes it before returning."""
        s = object.__new__(_Draft)
        s.game = self.game
        s.history = self.history + (action,)
        s._prev = self
        s.phase = self.phase
        s.current = self.current
        s.start = self.start
        s.trees = self.trees
        s.hand = self.hand
        s.tiles = self.tiles
        s.supply = self.supply
        s.active = self.active
        s.piles = self.piles
        s.squirrels = self.squirrels
        s.round = self.round
        s.wind = self.wind
        s.first_wind = self.first_wind
        s.turn = self.turn
        s.played = self.played
        s.tree_at = self.tree_at
        s.tile = self.tile
        s.head = self.head
        s.choices = ()
        s.summer = self.summer
        s.winter = self.winter
        s.end_reason = _NO_END
        return s

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("a Bosk state is immutable; apply() returns a new state")

    # ------------------------------------------------------------------ equality

    def _key(self) -> tuple:
        """Everything that makes this state what it is."""
        return (self.game.options, self.history, *(getattr(self, f) for f in _CONTENT))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, BoskState):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        key = self._key()
        return hash((tuple(sorted(key[0].items())), *key[1:]))

    def __copy__(self) -> BoskState:
        return self  # immutable

    def __deepcopy__(self, memo: dict) -> BoskState:
        return self  # immutable

    def __reduce__(self) -> tuple:
        return (_from_saved, (self.to_json(),))

    def __repr__(self) -> str:
        return f"<BoskState {self.game.num_players}p {self.phase.value} after {len(self.history)} actions>"

    # ------------------------------------------------------------------ protocol

    @property
    def current_player(self) -> int:
        """The player to act, or CHANCE / TERMINAL."""
        return self.current

    @property
    def num_players(self) -> int:
        """How many players."""
        return self.game.num_players

    def is_terminal(self) -> bool:
        """Whether winter has been scored (End of the Game)."""
        return self.phase is Phase.GAME_OVER

    def scores(self) -> tuple[int, ...]:
        """Each player's points so far (summer plus winter)."""
        return tuple(a + b for a, b in zip(self.summer, self.winter, strict=False))

    def winners(self) -> tuple[int, ...]:
        """The single winner once the game is over (ties: closest clockwise to the final round's start player)."""
        if not self.is_terminal():
            return ()
        totals = self.scores()
        best = max(totals)
        return (closest_clockwise([p for p, v in enumerate(totals) if v == best], self.start, self.num_players),)

    def chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        """At the start player chance node (Setup 4): each player with equal odds."""
        if self.phase is not Phase.START_PLAYER:
            return []
        share = Fraction(1, self.game.num_players)
        return [(a, share) for a in self.game.start_actions]

    def legal_actions(self) -> list[Action]:
        """Every action allowed now (at the chance node: its outcomes)."""
        phase = self.phase
        game = self.game
        if phase is Phase.LEAF_PLACEMENT:
            return [game.leaf_actions[s] for s in self.choices]
        if phase is Phase.SQUIRREL:
            return [game.squirrel_actions[s] for s in self.choices]
        if phase is Phase.FALLING_LEAVES:
            return [game.choose_actions[i, t] for i in self._selectable_trees() for t in self._unused_tiles()]
        if phase is Phase.SPRING:
            values = sorted(set(self.hand[self.current]))
            empty = self._empty_interior()
            return [game.tree_actions[v, i] for v in values for i in empty]
        if phase is Phase.START_PLAYER:
            return list(game.start_actions)
        if phase is Phase.SUMMER:
            return [game.summer_action]
        if phase is Phase.WIND:
            return list(game.wind_actions)
        if phase is Phase.WINTER:
            return [game.winter_action]
        return []

    def random_action(self, rng: random.Random) -> Action:
        """A uniformly random legal action, drawn without listing them all (for RandomBot)."""
        phase = self.phase
        game = self.game
        if phase is Phase.LEAF_PLACEMENT:
            choices = self.choices
            return game.leaf_actions[choices[rng.randrange(len(choices))]]
        if phase is Phase.FALLING_LEAVES:
            trees = self._selectable_trees()
            tiles = self._unused_tiles()
            return game.choose_actions[trees[rng.randrange(len(trees))], tiles[rng.randrange(len(tiles))]]
        if phase is Phase.SPRING:
            values = sorted(set(self.hand[self.current]))
            empty = self._empty_interior()
            return game.tree_actions[values[rng.randrange(len(values))], empty[rng.randrange(len(empty))]]
        if phase is Phase.SQUIRREL:
            choices = self.choices
            return game.squirrel_actions[choices[rng.randrange(len(choices))]]
        legal = self.legal_actions()
        if not legal:
            raise IllegalAction("End of the Game: the game is over; no more actions")
        return legal[rng.randrange(len(legal))]

    def to_json(self) -> str:
        """A saved game: name, options and the history in notation."""
        return core.save_json(self.game, self.history)

    def parse_action(self, text: str) -> Action:
        """The action written in Bosk notation (see NOTATION_HELP); IllegalAction if unreadable."""
        if not isinstance(text, str):
            raise IllegalAction(f"notation must be text, not {type(text).__name__}")
        clean = " ".join(text.strip().lower().split())
        m = NOTATION.match(clean)
        if not m:
            raise IllegalAction(f"cannot read {text!r}. {NOTATION_HELP}")
        park = self.game.park
        g = m.groupdict()
        if g["start"] is not None:
            player = int(g["start"]) - 1
            if not 0 <= player < self.game.num_players:
                raise IllegalAction(f"there is no player {g['start']} in a {self.game.num_players}-player game")
            return Action(Kind.START, value=player)
        if g["tree"] is not None:
            value = int(g["tree"])
            if value not in (1, 2, 3, 4):
                raise IllegalAction(f"Setup 1.3: trees have values 1 to 4, not {value}")
            return Action(Kind.TREE, *self._parse_intersection(g["tree_at"]), value)
        if g["summer"]:
            return self.game.summer_action
        if g["wind"]:
            return Action(Kind.WIND, value=Direction(g["wind"]).index)
        if g["choose_at"] is not None:
            tile = SQUIRREL if g["tile"] == "squirrel" else int(g["tile"])
            if tile not in LEAF_TILES:
                raise IllegalAction(f"Setup 1.1: leaf tiles are 2 through 8 and squirrel, not {g['tile']}")
            return Action(Kind.CHOOSE, *self._parse_intersection(g["choose_at"]), tile)
        if g["leaf"] is not None or g["squirrel"] is not None:
            kind = Kind.LEAF if g["leaf"] is not None else Kind.SQUIRREL
            row, col = parse_coordinates(g["leaf"] or g["squirrel"])
            if not park.is_on_board_square(row, col):
                raise IllegalAction(f"{_square_name(row, col)} is not a terrain square of this park")
            return Action(kind, row, col)
        return self.game.winter_action

    def _parse_intersection(self, text: str) -> tuple[int, int]:
        """0-based (row, col) of an intersection name; IllegalAction if off this park."""
        row, col = parse_coordinates(text)
        if not self.game.park.is_on_board_intersection(row, col):
            raise IllegalAction(f"{_inter_name(row, col)} is not a trail intersection of this park")
        return row, col

    # ------------------------------------------------------------------ apply

    def apply(self, action: Action | str) -> BoskState:
        """The next state; IllegalAction naming the rule (and this state unchanged) if not allowed."""
        if isinstance(action, str):
            action = self.parse_action(action)
        if (
            not isinstance(action, Action)
            or not isinstance(action.kind, Kind)
            or not (type(action.row) is int and type(action.col) is int and type(action.value) is int)
        ):
            raise IllegalAction(f"not a Bosk action: {action!r}. {NOTATION_HELP}")
        phase = self.phase
        expected = _PHASE_KIND[phase]
        if action.kind is not expected:
            if phase is Phase.GAME_OVER:
                raise IllegalAction("End of the Game: the game is over; no more actions")
            raise IllegalAction(
                f"{_SECTION[phase]}: now is the {phase.value} step, which takes a {expected.value!r} action, "
                f"not {str(action)!r}"
            )
        child = _HANDLERS[phase](self, action)
        child.__class__ = BoskState
        return child

    def _apply_start(self, action: Action) -> BoskState:
        """Setup 4: the chance outcome names the start player, who takes the Hiker."""
        if not 0 <= action.value < self.game.num_players:
            raise IllegalAction(f"Setup 4: there is no player {action.value + 1} to be start player")
        s = self._child(self.game.start_actions[action.value])
        s.start = s.current = action.value
        s.phase = Phase.SPRING
        return s

    def _apply_tree(self, action: Action) -> BoskState:
        """I. Spring 1: grow one tree on an unoccupied interior intersection."""
        park = self.game.park
        p = self.current
        where = _inter_name(action.row, action.col)
        if not park.is_on_board_intersection(action.row, action.col):
            raise IllegalAction(f"I. Spring 1: {where} is not a trail intersection of this park")
        if not park.is_interior(action.row, action.col):
            raise IllegalAction(
                f"I. Spring 1, note: {where} lies on the park's edge; trees grow only at inner "
                f"intersections, away from edges, corners and the border"
            )
        i = park.intersection(action.row, action.col)
        if self.trees[i]:
            owner, value = divmod(self.trees[i], 8)
            raise IllegalAction(
                f"I. Spring 1: trees grow on an unoccupied intersection, and {where} already holds "
                f"{self.game.player_name(owner)}'s value-{value} tree"
            )
        if action.value not in self.hand[p]:
            left = ", ".join(str(v) for v in self.hand[p])
            raise IllegalAction(
                f"I. Spring 1: {self.game.player_name(p)} has no tree of value {action.value} left to grow "
                f"(left: {left})"
            )
        s = self._child(self.game.tree_actions[action.value, i])
        trees = list(self.trees)
        trees[i] = (p << 3) | action.value
        s.trees = tuple(trees)
        mine = list(self.hand[p])
        mine.remove(action.value)
        hand = list(self.hand)
        hand[p] = tuple(mine)
        s.hand = tuple(hand)
        s.turn = self.turn + 1
        if s.turn == len(TREE_VALUES) * self.game.num_players:
            s.phase = Phase.SUMMER
            s.current = self.start
            s.turn = 0
        else:
            s.current = (p + 1) % self.game.num_players
        return s

    def _apply_summer(self, action: Action) -> BoskState:
        """II. Summer: score every trail, then the fewest points becomes start player."""
        n = self.game.num_players
        totals = [0] * n
        for _, _, points in summer_table(self):
            for p in range(n):
                totals[p] += points[p]
        s = self._child(self.game.summer_action)
        s.summer = tuple(totals)
        fewest = min(totals)
        s.start = s.current = closest_clockwise([p for p in range(n) if totals[p] == fewest], self.start, n)
        s.phase = Phase.WIND
        return s

    def _apply_wind(self, action: Action) -> BoskState:
        """III. Autumn, Initial Wind Direction: the wind board's side sets the first wind."""
        if not 0 <= action.value < 4:
            raise IllegalAction("III. Autumn, Initial Wind Direction 1: the wind board goes on one of the 4 sides")
        s = self._child(self.game.wind_actions[action.value])
        s.first_wind = (action.value + 2) % 4
        s.round = 1
        s.wind = (s.first_wind + self.game.wind_pattern[0]) % 4
        s.turn = 0
        s.played = (-1,) * self.game.num_players
        s.phase = Phase.FALLING_LEAVES
        s.current = self.start
        return s

    def _apply_choose(self, action: Action) -> BoskState:
        """Falling Leaves 1a-1c: select a tree and a leaf tile; take the active leaves."""
        game = self.game
        park = game.park
        p = self.current
        where = _inter_name(action.row, action.col)
        if not park.is_on_board_intersection(action.row, action.col):
            raise IllegalAction(f"Falling Leaves 1a: {where} is not a trail intersection of this park")
        i = park.intersection(action.row, action.col)
        tree = self.trees[i]
        if not tree or tree >> 3 != p:
            raise IllegalAction(
                f"Falling Leaves 1a: select one of your own trees in the play area, and {where} holds "
                f"no tree of {game.player_name(p)}'s"
            )
        required = self.required_tree_value
        if required and tree & 7 != required:
            raise IllegalAction(
                f"Falling Leaves 1a.i: in round {self.round} the wind board spot requires a tree of value "
                f"{required}, and the tree at {where} has value {tree & 7}"
            )
        tile = action.value
        if tile not in LEAF_TILES:
            raise IllegalAction(f"Setup 1.1: leaf tiles are 2 through 8 and squirrel, not {tile}")
        if not self.tiles[p] >> tile & 1:
            raise IllegalAction(
                f"Falling Leaves 1b and 1f: leaf tile {tile_name(tile)} was played before and cannot be "
                f"selected again"
            )
        s = self._child(game.choose_actions[i, tile])
        s.tree_at = i
        s.tile = tile
        s.head = -1
        if tile == SQUIRREL:
            targets = self._squirrel_targets(i)
            if targets:
                s.phase = Phase.SQUIRREL
                s.choices = targets
            else:
                s._finish_turn(_SQUIRREL_NOWHERE)
            return s
        supply = list(self.supply)
        supply[p] -= tile
        s.supply = tuple(supply)
        s.active = tile
        options = _leaf_options(park.first_squares[self.wind][i], p, tile, self.piles, self.squirrels)
        if options:
            s.phase = Phase.LEAF_PLACEMENT
            s.choices = options
        else:
            s._finish_turn(_BLOCKED)
        return s

    def _apply_leaf(self, action: Action) -> BoskState:
        """Leaf Placement and Covering other leaves: place one active leaf on the path."""
        park = self.game.park
        p = self.current
        row, col = action.row, action.col
        if not park.is_on_board_square(row, col):
            raise IllegalAction(f"Leaf Placement: {_square_name(row, col)} is not a terrain square of this park")
        sq = row * park.size + col
        if sq not in self.choices:
            raise IllegalAction(self._why_not_leaf(sq))
        pile = self.piles[sq]
        cost = len(pile) if pile and pile[-1] != p else 0
        s = self._child(self.game.leaf_actions[sq])
        piles = list(self.piles)
        piles[sq] = pile + (p,)
        s.piles = tuple(piles)
        if cost:
            supply = list(self.supply)
            supply[p] += cost
            s.supply = tuple(supply)
        active = self.active - cost - 1
        s.active = active
        s.head = sq
        ahead = park.ahead_squares[self.wind][sq]
        if not active:
            s._finish_turn(_NO_LEAVES)
        elif not ahead:
            s._finish_turn(_EDGE)
        else:
            options = _leaf_options(ahead, p, active, s.piles, self.squirrels)
            if options:
                s.choices = options
            else:
                s._finish_turn(_BLOCKED)
        return s

    def _apply_squirrel(self, action: Action) -> BoskState:
        """Squirrel 1: place the squirrel token within 3 squares downwind along a leaf path."""
        park = self.game.park
        row, col = action.row, action.col
        if not park.is_on_board_square(row, col):
            raise IllegalAction(f"Squirrel 1: {_square_name(row, col)} is not a terrain square of this park")
        sq = row * park.size + col
        if sq not in self.choices:
            if sq in self.squirrels:
                owner = self.squirrels.index(sq)
                raise IllegalAction(
                    f"Squirrel 1 (our interpretation): one squirrel per square, and {_square_name(row, col)} "
                    f"already holds {self.game.player_name(owner)}'s squirrel"
                )
            reach = ", ".join(park.square_label(x) for x in self.choices)
            raise IllegalAction(
                f"Squirrel 1: the squirrel goes within 3 squares of its tree in the direction of the wind, "
                f"moving like a leaf path; {_square_name(row, col)} is not one of them ({reach})"
            )
        s = self._child(self.game.squirrel_actions[sq])
        squirrels = list(self.squirrels)
        squirrels[self.current] = sq
        s.squirrels = tuple(squirrels)
        s._finish_turn(_SQUIRREL_PLACED)
        return s

    def _apply_winter(self, action: Action) -> BoskState:
        """IV. Winter: score every region; the game ends."""
        n = self.game.num_players
        totals = [0] * n
        for _, _, points in winter_table(self):
            for p in range(n):
                totals[p] += points[p]
        s = self._child(self.game.winter_action)
        s.winter = tuple(totals)
        s.phase = Phase.GAME_OVER
        s.current = TERMINAL
        return s

    def _finish_turn(self, reason: int) -> None:
        """Falling Leaves 1d-1f and End of the Round, on a freshly made child state."""
        game = self.game
        n = game.num_players
        p = self.current
        self.end_reason = reason
        if self.active:
            supply = list(self.supply)
            supply[p] += self.active
            self.supply = tuple(supply)
            self.active = 0
        trees = list(self.trees)
        trees[self.tree_at] = 0
        self.trees = tuple(trees)
        tiles = list(self.tiles)
        tiles[p] &= ~(1 << self.tile)
        self.tiles = tuple(tiles)
        played = list(self.played)
        played[p] = game.squirrel_tile_value if self.tile == SQUIRREL else self.tile
        self.played = tuple(played)
        self.tree_at = -1
        self.tile = -1
        self.head = -1
        self.choices = ()
        turn = self.turn + 1
        if turn < n:
            self.turn = turn
            self.current = (self.start + turn) % n
            self.phase = Phase.FALLING_LEAVES
            return
        self.turn = 0
        if self.round == ROUNDS:
            self.phase = Phase.WINTER
            self.current = self.start
            return
        lowest = min(played)
        start = closest_clockwise([q for q in range(n) if played[q] == lowest], self.start, n)
        self.start = start
        self.current = start
        self.round = self.round + 1
        self.wind = (self.first_wind + game.wind_pattern[self.round - 1]) % 4
        self.played = (-1,) * n
        self.phase = Phase.FALLING_LEAVES

    # ------------------------------------------------------------------ rule helpers

    def _empty_interior(self) -> list[int]:
        """Interior intersections with no tree (where Spring trees may grow)."""
        trees = self.trees
        return [i for i in self.game.park.interior if not trees[i]]

    def _selectable_trees(self) -> list[int]:
        """Intersections of the mover's trees allowed by the current wind spot (Falling Leaves 1a)."""
        p = self.current
        required = WIND_SPOT_TREE_VALUE[self.round - 1]
        trees = self.trees
        if required:
            want = (p << 3) | required
            return [i for i in self.game.park.interior if trees[i] == want]
        return [i for i in self.game.park.interior if trees[i] and trees[i] >> 3 == p]

    def _unused_tiles(self) -> list[int]:
        """The mover's leaf tiles not played yet (Falling Leaves 1f)."""
        mask = self.tiles[self.current]
        return [t for t in LEAF_TILES if mask >> t & 1]

    def _squirrel_targets(self, intersection: int) -> tuple[int, ...]:
        """Squares within 3 steps downwind along leaf-path moves where the squirrel may sit (Squirrel 1)."""
        park = self.game.park
        ahead = park.ahead_squares[self.wind]
        squirrels = self.squirrels
        may_pass = self.game.squirrel_may_pass_squirrels
        targets: set[int] = set()
        level = set(park.first_squares[self.wind][intersection])
        for _ in range(3):
            nxt: set[int] = set()
            for sq in level:
                occupied = sq in squirrels
                if not occupied:
                    targets.add(sq)
                if may_pass or not occupied:
                    nxt.update(ahead[sq])
            level = nxt
        return tuple(sorted(targets))

    def _why_not_leaf(self, sq: int) -> str:
        """The rule that forbids a leaf on square ``sq`` now."""
        park = self.game.park
        name = park.square_label(sq)
        if self.head < 0:
            allowed = park.first_squares[self.wind][self.tree_at]
            if sq not in allowed:
                spots = " or ".join(park.square_label(x) for x in allowed)
                return (
                    f"Leaf Placement 1: the first leaf goes on one of the 2 squares beside the tree at "
                    f"{park.intersection_label(self.tree_at)} in the direction of the wind ({spots}), not {name}"
                )
        else:
            allowed = park.ahead_squares[self.wind][self.head]
            if sq not in allowed:
                spots = ", ".join(park.square_label(x) for x in allowed)
                return (
                    f"Leaf Placement 2: the next leaf goes on one of the squares ahead of "
                    f"{park.square_label(self.head)} in the direction of the wind ({spots}), not {name}"
                )
        if sq in self.squirrels:
            owner = self.game.player_name(self.squirrels.index(sq))
            return f"Squirrel 1b: squirrel tokens cannot be covered by leaf tokens, and {name} holds {owner}'s squirrel"
        cost = len(self.piles[sq])
        return (
            f"Covering other leaves 1 and note: covering the {cost}-leaf pile on {name} returns {cost} active "
            f"leaves to the supply and still needs one to place, but only {self.active} active leaves remain"
        )

    # ------------------------------------------------------------------ accessors for the UI

    @property
    def park(self) -> Park:
        """The park board in play."""
        return self.game.park

    @property
    def start_player(self) -> int:
        """Who holds the Hiker (-1 before Setup 4)."""
        return self.start

    @property
    def wind_direction(self) -> Direction | None:
        """The direction the wind blows now (None before autumn)."""
        return DIRECTIONS[self.wind] if self.wind >= 0 else None

    @property
    def wind_spot(self) -> int:
        """The wind board spot (1-8) of the current round; 0 before autumn."""
        return self.round

    @property
    def required_tree_value(self) -> int:
        """The tree value the current wind spot requires (0 = any remaining tree, or not autumn)."""
        return WIND_SPOT_TREE_VALUE[self.round - 1] if self.round else 0

    @property
    def active_leaves(self) -> int:
        """The mover's active leaves (taken from the supply, not yet placed)."""
        return self.active

    @property
    def summer_scores(self) -> tuple[int, ...]:
        """Points each player scored in summer (zeros before it)."""
        return self.summer

    @property
    def winter_scores(self) -> tuple[int, ...]:
        """Points each player scored in winter (zeros before it)."""
        return self.winter

    @property
    def selected_tree(self) -> tuple[int, int] | None:
        """(row, col) of the tree whose leaves are falling now, if any."""
        return self.game.park.intersection_rc(self.tree_at) if self.tree_at >= 0 else None

    @property
    def selected_tile(self) -> int | None:
        """The leaf tile chosen this turn (0 = squirrel), if any."""
        return self.tile if self.tile >= 0 else None

    @property
    def path_head(self) -> tuple[int, int] | None:
        """(row, col) of the last leaf placed on the current path, if any."""
        return self.game.park.square_rc(self.head) if self.head >= 0 else None

    def tree_at_intersection(self, row: int, col: int) -> tuple[int, int] | None:
        """(owner, value) of the tree at an intersection, or None."""
        t = self.trees[self.game.park.intersection(row, col)]
        return (t >> 3, t & 7) if t else None

    def trees_on_board(self) -> dict[tuple[int, int], tuple[int, int]]:
        """Every standing tree: {(row, col) of intersection: (owner, value)}."""
        park = self.game.park
        return {park.intersection_rc(i): (t >> 3, t & 7) for i, t in enumerate(self.trees) if t}

    def trees_in_hand(self, player: int) -> tuple[int, ...]:
        """Values of the trees a player has not grown yet (Spring)."""
        return self.hand[player]

    def trees_standing(self, player: int) -> tuple[int, ...]:
        """Values of a player's trees still on the board, sorted."""
        return tuple(sorted(t & 7 for t in self.trees if t and t >> 3 == player))

    def leaf_tiles(self, player: int) -> tuple[int, ...]:
        """A player's unused leaf tiles (0 = squirrel)."""
        mask = self.tiles[player]
        return tuple(t for t in LEAF_TILES if mask >> t & 1)

    def supply_of(self, player: int) -> int:
        """Leaf tokens in a player's supply."""
        return self.supply[player]

    def active_of(self, player: int) -> int:
        """A player's active leaves (only the mover can have any)."""
        return self.active if player == self.current else 0

    def pile(self, row: int, col: int) -> tuple[int, ...]:
        """Owners of the leaves on a square, bottom to top."""
        return self.piles[self.game.park.square(row, col)]

    def top_leaf(self, row: int, col: int) -> int | None:
        """Owner of the top leaf on a square, or None."""
        pile = self.pile(row, col)
        return pile[-1] if pile else None

    def squirrel_squares(self) -> tuple[tuple[int, int] | None, ...]:
        """Per player, (row, col) of their squirrel token on the board, or None."""
        park = self.game.park
        return tuple(park.square_rc(s) if s >= 0 else None for s in self.squirrels)

    def controller(self, row: int, col: int) -> int | None:
        """Who controls a square in winter: its squirrel's owner, else its top leaf's owner, else None."""
        sq = self.game.park.square(row, col)
        if sq in self.squirrels:
            return self.squirrels.index(sq)
        pile = self.piles[sq]
        return pile[-1] if pile else None

    def leaves_on_board(self, player: int) -> int:
        """How many of a player's leaf tokens lie on the park."""
        return sum(pile.count(player) for pile in self.piles)

    def explain(self) -> str:
        """Plain words on what the rules say now, naming the rulebook section."""
        from .words import explain

        return explain(self)

    def describe(self, action: Action | str) -> str:
        """One sentence for an event log: what ``action`` does if applied to this state."""
        from .words import describe

        if isinstance(action, str):
            action = self.parse_action(action)
        return describe(self, action)

    def last_event(self) -> str:
        """What the last action did, including any automatic consequences (path end, end of round)."""
        from .words import last_event

        return last_event(self)

    @property
    def previous(self) -> BoskState | None:
        """The state before the last action (None at the start)."""
        return self._prev


def _from_saved(text: str) -> BoskState:
    """Rebuild a pickled state from its saved-game text (game options included)."""
    options = dict(json.loads(text)["options"])
    players = options.pop("players")
    return new_game(players, **options).state_from_json(text)


class _Draft(BoskState):
    """A state still being filled in by apply(); it becomes a BoskState before anyone sees it."""

    __slots__ = ()
    __setattr__ = object.__setattr__


def _leaf_options(squares: tuple[int, ...], player: int, active: int, piles: tuple, squirrels: tuple) -> tuple:
    """Squares among ``squares`` that can take the next leaf: no squirrel, and affordable to cover."""
    out = []
    for sq in squares:
        if sq in squirrels:
            continue
        pile = piles[sq]
        if pile and pile[-1] != player and len(pile) >= active:
            continue
        out.append(sq)
    return tuple(out)


def closest_clockwise(candidates: list[int], origin: int, num_players: int) -> int:
    """Our tie-break: the candidate reached first going clockwise from ``origin``, origin itself included."""
    return min(candidates, key=lambda p: (p - origin) % num_players)


class ScoreRow(NamedTuple):
    """One line of a majority scoring table: a trail or a region."""

    name: str
    """'row 3', 'column d' or a region name."""
    totals: tuple[int, ...]
    """Each player's total tree value (summer) or controlled squares (winter); 0 = absent."""
    points: tuple[int, ...]
    """Each player's points there."""


def summer_table(state: BoskState) -> list[ScoreRow]:
    """Summer scoring per trail: (trail name, each player's total tree value, each player's points)."""
    n = state.game.num_players
    rows = []
    for name, intersections in state.game.park.trails():
        totals = [0] * n
        for i in intersections:
            t = state.trees[i]
            if t:
                totals[t >> 3] += t & 7
        rows.append(ScoreRow(name, tuple(totals), summer_points(totals)))
    return rows


def winter_table(state: BoskState) -> list[ScoreRow]:
    """Winter scoring per region: (region name, each player's controlled squares, each player's points)."""
    park = state.game.park
    n = state.game.num_players
    control = list(state.piles)
    for p, sq in enumerate(state.squirrels):
        if sq >= 0:
            control[sq] = (p,)
    rows = []
    for name, squares in zip(park.region_names, park.region_squares, strict=False):
        counts = [0] * n
        for sq in squares:
            if control[sq]:
                counts[control[sq][-1]] += 1
        rows.append(ScoreRow(name, tuple(counts), winter_points(counts)))
    return rows


_PHASE_KIND = {
    Phase.START_PLAYER: Kind.START,
    Phase.SPRING: Kind.TREE,
    Phase.SUMMER: Kind.SUMMER,
    Phase.WIND: Kind.WIND,
    Phase.FALLING_LEAVES: Kind.CHOOSE,
    Phase.LEAF_PLACEMENT: Kind.LEAF,
    Phase.SQUIRREL: Kind.SQUIRREL,
    Phase.WINTER: Kind.WINTER,
    Phase.GAME_OVER: None,
}

_SECTION = {
    Phase.START_PLAYER: "Setup 4",
    Phase.SPRING: "I. Spring",
    Phase.SUMMER: "II. Summer",
    Phase.WIND: "III. Autumn, Initial Wind Direction",
    Phase.FALLING_LEAVES: "III. Autumn, Falling Leaves",
    Phase.LEAF_PLACEMENT: "III. Autumn, Leaf Placement",
    Phase.SQUIRREL: "III. Autumn, Squirrel",
    Phase.WINTER: "IV. Winter",
    Phase.GAME_OVER: "End of the Game",
}
"""The rulebook section of each phase."""

_HANDLERS = {
    Phase.START_PLAYER: BoskState._apply_start,
    Phase.SPRING: BoskState._apply_tree,
    Phase.SUMMER: BoskState._apply_summer,
    Phase.WIND: BoskState._apply_wind,
    Phase.FALLING_LEAVES: BoskState._apply_choose,
    Phase.LEAF_PLACEMENT: BoskState._apply_leaf,
    Phase.SQUIRREL: BoskState._apply_squirrel,
    Phase.WINTER: BoskState._apply_winter,
}
