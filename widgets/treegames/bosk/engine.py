"""The Bosk game, its option schema and its immutable states (the treegames.core protocol).

The vocabulary and notation live in :mod:`.actions`, the words in :mod:`.words`, the
park and the rulebook's numbers in :mod:`.data`, the majority tables in :mod:`.scoring`.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from fractions import Fraction
from typing import Any, NamedTuple

from .. import core
from ..core import CHANCE, PARENT, TERMINAL, IllegalAction, Option, draw_below
from . import words
from .actions import NOTATION_HELP, SUMMER, WINTER, Action, Kind, NotationError, Phase, TurnEnd, parse_action
from .actions import _inter_name as _inter_name
from .actions import _square_name as _square_name
from .data import (
    DIRECTIONS,
    LEAF_TILES,
    LEAVES_PER_PLAYER,
    PLAYER_NAMES,
    ROUNDS,
    SQUIRREL,
    TREE_VALUES,
    WIND_PATTERNS,
    WIND_SPOT_TREE_VALUE,
    Direction,
    Park,
    park_for_players,
    parse_coordinates,
    tile_name,
)
from .scoring import summer_points, winter_points

__all__ = [
    "BoskGame",
    "BoskState",
    "ScoreRow",
    "WindSpot",
    "WindBoard",
    "Decision",
    "new_game",
    "summer_table",
    "winter_table",
    "closest_clockwise",
    "closest_either_way",
    "OPTIONS",
    "OPTION_DEFAULTS",
    "PLAYERS",
]

PLAYERS = (2, 3, 4)
"""Bosk is for 2 to 4 players."""

OPTIONS: tuple[Option, ...] = (
    Option("players", PLAYERS, 2, "How many players (2-4; 3 players use the 4-player side's inner 7x7)."),
    Option("wind_pattern", tuple(WIND_PATTERNS), "clockwise",
           "Our interpretation of the wind board's arrows: turning clockwise, or crosswise."),
    Option("squirrel_tile_value", (1, 9), 1, "Our interpretation: the squirrel tile's turn-order value."),
    Option("squirrel_may_pass_squirrels", (True, False), True,
           "Our interpretation: a squirrel's route may pass over other squirrels."),
)
"""The option schema (GAME_TYPE.options): every named option, its allowed values, default and meaning."""

OPTION_DEFAULTS: dict[str, Any] = {o.name: o.default for o in OPTIONS}
"""Every named option of ``game.options`` and its default."""

_NO_END, _NO_LEAVES, _EDGE, _BLOCKED, _SQUIRREL_PLACED, _SQUIRREL_NOWHERE = TurnEnd
_PLACE = re.compile(r"[a-zA-Z][0-9]+", re.ASCII)
_SIDES = {d.value: d.index for d in DIRECTIONS}
"""The park's sides by name (where the wind board may go), for actions_at."""


class BoskGame(core.GameBase):
    """The rules and options of one Bosk game; makes states."""

    name = "bosk"

    def __init__(self, players: int = 2, **options: Any):
        """A Bosk game for 2-4 players with the named interpretation options (OptionError if one is bad)."""
        self.options: dict[str, Any] = core.merge_options(OPTIONS, {"players": players, **options})
        self.num_players = players
        self.park: Park = park_for_players(players)
        self.wind_pattern: tuple[int, ...] = WIND_PATTERNS[self.options["wind_pattern"]]
        self.squirrel_tile_value: int = self.options["squirrel_tile_value"]
        self.squirrel_may_pass_squirrels: bool = self.options["squirrel_may_pass_squirrels"]
        self.player_names = PLAYER_NAMES[:players]
        park = self.park
        self.start_actions = tuple(Action(Kind.START, value=p) for p in range(players))
        self.wind_actions = tuple(Action(Kind.WIND, value=d) for d in range(4))
        self.summer_action = SUMMER
        self.winter_action = WINTER
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
        # the same actions in rows (by value, by intersection), read by index where legal_actions lists them
        self.tree_action_rows: tuple[tuple[Action | None, ...], ...] = tuple(
            tuple(self.tree_actions.get((v, i)) for i in range(park.num_intersections)) for v in range(5))
        self.choose_action_rows: tuple[tuple[Action | None, ...], ...] = tuple(
            tuple(self.choose_actions.get((i, t)) for t in range(max(LEAF_TILES) + 1))
            for i in range(park.num_intersections))

    def __repr__(self) -> str:
        return f"BoskGame(players={self.num_players}, options={self.options!r})"

    def new_initial_state(self) -> BoskState:
        """The state before the first action: the start player chance node (Setup 4)."""
        return BoskState._initial(self)

    def player_name(self, player: int) -> str:
        """The species name of a seat."""
        return self.player_names[player]

    def wind_spots(self, side: int | Direction) -> tuple[WindSpot, ...]:
        """The wind board's 8 spots if it lies on ``side`` (a Direction or its index): each spot's wind and
        required tree value (III. Autumn, Initial Wind Direction; our interpretation: option wind_pattern)."""
        first = (Direction(side).index if isinstance(side, str) else side) + 2
        return tuple(
            WindSpot(k + 1, DIRECTIONS[(first + turn) % 4], WIND_SPOT_TREE_VALUE[k])
            for k, turn in enumerate(self.wind_pattern)
        )


def new_game(players: int = 2, **options: Any) -> BoskGame:
    """A new Bosk game for 2-4 players; see the package docstring for the options."""
    return BoskGame(players, **options)


_CONTENT = (
    "phase", "current", "start", "trees", "hand", "tiles", "supply", "active", "piles", "squirrels",
    "round", "wind", "first_wind", "turn", "played", "tree_at", "tile", "head", "choices", "summer",
    "winter", "end_reason",
)


class BoskState(core.FrozenState):
    """One immutable moment of a Bosk game (the machinery is :class:`treegames.core.FrozenState`).

    Internal fields (read them through the accessors): ``trees`` per intersection
    (0 = none, else ``owner << 3 | value``), ``piles`` per square (owners bottom to
    top), ``squirrels`` per player (square or -1), ``hand`` per player (trees not yet
    grown), ``tiles`` per player (bitmask of unused leaf tiles), ``supply`` per player,
    ``active`` (the mover's active leaves).
    """

    __slots__ = ("_prev", *_CONTENT)
    _FIELDS = _CONTENT
    _RESET = {"_prev": PARENT, "choices": (), "end_reason": _NO_END}

    # ------------------------------------------------------------------ making states

    @classmethod
    def _initial(cls, game: BoskGame) -> BoskState:
        """The state before Setup 4."""
        n = game.num_players
        park = game.park
        s = cls._blank(game)
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

    def __repr__(self) -> str:
        return f"<BoskState {self.game.num_players}p {self.phase.value} after {len(self.history)} actions>"

    # ------------------------------------------------------------------ protocol

    @property
    def current_player(self) -> int:
        """The player to act, or CHANCE / TERMINAL."""
        return self.current

    def is_terminal(self) -> bool:
        """Whether winter has been scored (End of the Game)."""
        return self.phase is Phase.GAME_OVER

    def scores(self) -> tuple[int, ...]:
        """Each player's points so far (summer plus winter)."""
        return tuple(a + b for a, b in zip(self.summer, self.winter, strict=False))

    def winners(self) -> tuple[int, ...]:
        """The single winner once the game is over.

        End of the Game: a tie goes to the tied player closest to the final round's start
        player, counting seats either way round the table; of two equally close (one each
        way), the one clockwise of the start player (:func:`closest_either_way`).
        """
        if not self.is_terminal():
            return ()
        totals = self.scores()
        best = max(totals)
        return (closest_either_way([p for p, v in enumerate(totals) if v == best], self.start, self.num_players),)

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
            return list(map(game.leaf_actions.__getitem__, self.choices))
        if phase is Phase.SQUIRREL:
            return list(map(game.squirrel_actions.__getitem__, self.choices))
        if phase is Phase.FALLING_LEAVES:
            tiles = self._unused_tiles()
            rows = game.choose_action_rows
            found: list[Action] = []
            for i in self._selectable_trees():
                found += map(rows[i].__getitem__, tiles)
            return found
        if phase is Phase.SPRING:
            empty = self._empty_interior()
            rows = game.tree_action_rows
            found = []
            for v in sorted(set(self.hand[self.current])):
                found += map(rows[v].__getitem__, empty)
            return found
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
            return game.leaf_actions[choices[draw_below(rng, len(choices))]]
        if phase is Phase.FALLING_LEAVES:
            trees = self._selectable_trees()
            tiles = self._unused_tiles()
            return game.choose_action_rows[trees[draw_below(rng, len(trees))]][tiles[draw_below(rng, len(tiles))]]
        if phase is Phase.SPRING:
            values = sorted(set(self.hand[self.current]))
            empty = self._empty_interior()
            return game.tree_action_rows[values[draw_below(rng, len(values))]][empty[draw_below(rng, len(empty))]]
        if phase is Phase.SQUIRREL:
            choices = self.choices
            return game.squirrel_actions[choices[draw_below(rng, len(choices))]]
        legal = self.legal_actions()
        if not legal:
            raise IllegalAction("End of the Game: the game is over; no more actions")
        return legal[draw_below(rng, len(legal))]

    def random_playout(self, rng: random.Random, limit: int) -> BoskState:
        """The game's end under uniformly random play from here: :func:`core.random_playout`, with the same draws.

        Most actions of a random Bosk game are leaf placements and Spring's trees. A run of placements
        that leaves the mover placing, and Spring's trees but its last, are played on copies of the piles,
        trees and hands with ``random_action``'s own draws; only the action that ends the run makes a
        state. So the run's inner states are never made (the final state's ``previous`` is right, the one
        before it skips the run). A drawn action goes straight to its rule, past ``apply``'s checks (a
        drawn leaf square or tree-and-tile choice is legal by construction). Tests check that the final
        state, its history and the random stream equal the one-action-at-a-time loop.
        """
        state, done = self, 0
        while done < limit:
            phase = state.phase
            if phase is Phase.GAME_OVER:
                return state
            if phase is Phase.LEAF_PLACEMENT or phase is Phase.SPRING:
                state, actions = (state._random_leaf_run if phase is Phase.LEAF_PLACEMENT
                                  else state._random_spring_run)(rng)
                done += actions
                continue
            if state.current == CHANCE:
                state = state.apply(core.sample_chance(state, rng))
            elif phase is Phase.FALLING_LEAVES:  # random_action's two draws, kept as indices
                trees, tiles = state._selectable_trees(), state._unused_tiles()
                i = trees[draw_below(rng, len(trees))]
                state = state._choose(i, tiles[draw_below(rng, len(tiles))])
                if state.phase is Phase.LEAF_PLACEMENT:  # the fresh draft takes the run's placements itself
                    state, actions = state._random_leaf_run(rng, draft=True)
                    done += 1 + actions
                    continue
                state.__class__ = BoskState
            else:
                state = _HANDLERS[phase](state, state.random_action(rng))
                state.__class__ = BoskState
            done += 1
        if state.is_terminal():
            return state
        raise RuntimeError(f"bosk: a random playout did not end after {limit} actions")

    def _random_spring_run(self, rng: random.Random) -> tuple[BoskState, int]:
        """Random Spring trees from here: all but the last grown on copies of the trees and hands, the last applied."""
        n = self.game.num_players
        tree_rows = self.game.tree_action_rows
        last = len(TREE_VALUES) * n - 1  # the tree that ends Spring goes through apply
        trees, hands, empty = list(self.trees), [list(h) for h in self.hand], self._empty_interior()
        turn, current, trail = self.turn, self.current, self._trail
        while True:  # random_action's draws: a value, then an empty interior intersection
            values = sorted(set(hands[current]))
            value = values[draw_below(rng, len(values))]
            k = draw_below(rng, len(empty))
            action = tree_rows[value][empty[k]]
            if turn == last:
                break
            trees[empty.pop(k)] = (current << 3) | value
            hands[current].remove(value)
            turn, current, trail = turn + 1, (current + 1) % n, (trail, action)
        start = self
        if turn != self.turn:
            start = self._child(None)  # what apply would have made of the run, in one copy
            start._trail = trail
            start.trees, start.hand = tuple(trees), tuple(tuple(h) for h in hands)
            start.turn, start.current = turn, current
            start.__class__ = BoskState
        return start.apply(action), turn - self.turn + 1

    def _random_leaf_run(self, rng: random.Random, draft: bool = False) -> tuple[BoskState, int]:
        """Random leaf placements from here: those that leave the mover placing on a copy, then the last one.

        ``draft``: this state is a draft just made by the playout and held nowhere else; the run and its
        last placement are written into it (then frozen) instead of into copies.
        """
        p = self.current
        leaf_actions = self.game.leaf_actions
        ahead_of = self.game.park.ahead_squares[self.wind]
        squirrels = self.squirrels
        piles, choices, active, supply = self.piles, self.choices, self.active, self.supply[p]
        trail, head, placed, copied = self._trail, self.head, 0, False
        getrandbits = rng.getrandbits
        while True:
            count = len(choices)  # random_action's draw (draw_below, inlined: the playout's hottest loop)
            width = count.bit_length()
            pick = getrandbits(width)
            while pick >= count:
                pick = getrandbits(width)
            sq = choices[pick]
            pile = piles[sq]
            cost = _pile_cost(pile, p)
            left = active - cost - 1
            ahead = ahead_of[sq]
            if not left or not ahead:
                break  # Leaf Placement: no leaf left, or the park's edge: the turn ends (applied below)
            if not copied:
                piles, copied = list(piles), True
            piles[sq] = pile + (p,)
            options = _leaf_options(ahead, p, left, piles, squirrels)
            if not options:
                piles[sq] = pile  # blocked: the turn ends (applied below)
                break
            choices, active, supply, head = options, left, supply + cost, sq
            trail = (trail, leaf_actions[sq])
            placed += 1
        start = self
        if placed:
            start = self if draft else self._child(None)  # what apply would have made of the run, in one state
            start._trail = trail
            start.piles = tuple(piles)
            start.supply = (*start.supply[:p], supply, *start.supply[p + 1 :])
            start.active, start.head, start.choices = active, head, choices
        if start is not self:
            start.__class__ = BoskState
        after = start._place_leaf(sq, in_place=draft)  # drawn from the choices: legal
        after.__class__ = BoskState
        return after, placed + 1

    def parse_action(self, text: str) -> Action:
        """The action written in Bosk notation (see NOTATION_HELP); NotationError (an IllegalAction) if unreadable."""
        return parse_action(text, self.game.park, self.game.num_players)

    def actions_at(self, place: str) -> list[Action]:
        """The legal actions at one place: an intersection ``"c4"`` (growing or selecting the tree
        there), a square ``"C4"`` (a leaf or the squirrel there) or a side of the park ``"north"``
        (placing the wind board there); NotationError if it names none of them."""
        core.check_notation(place, NotationError)
        text = place.strip()
        side = _SIDES.get(text.lower())
        if side is not None:
            return [self.game.wind_actions[side]] if self.phase is Phase.WIND else []
        if not _PLACE.fullmatch(text):
            raise NotationError(
                f"{core.quote(place)} is not a place: name an intersection (lower case, e.g. 'c4'), "
                f"a square (capital letter, e.g. 'C4') or a side of the park ('north', 'east', 'south', 'west')"
            )
        row, col = parse_coordinates(text)
        park = self.game.park
        if text[0].islower():
            if not park.is_on_board_intersection(row, col):
                raise NotationError(f"{core.quote(place)} is not a trail intersection of this park")
            if self.phase is not Phase.SPRING and self.phase is not Phase.FALLING_LEAVES:
                return []
            kinds = (Kind.TREE, Kind.CHOOSE)
        else:
            if not park.is_on_board_square(row, col):
                raise NotationError(f"{core.quote(place)} is not a terrain square of this park")
            if self.phase is not Phase.LEAF_PLACEMENT and self.phase is not Phase.SQUIRREL:
                return []
            kinds = (Kind.LEAF, Kind.SQUIRREL)
        return [a for a in self.legal_actions() if a.kind in kinds and a.row == row and a.col == col]

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
            raise IllegalAction(f"not a Bosk action: {core.quote(action)}. {NOTATION_HELP}")
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
        if not park.is_on_board_intersection(action.row, action.col):
            raise IllegalAction(
                f"I. Spring 1: {_inter_name(action.row, action.col)} is not a trail intersection of this park"
            )
        if not park.is_interior(action.row, action.col):
            raise IllegalAction(
                f"I. Spring 1, note: {_inter_name(action.row, action.col)} lies on the park's edge; trees grow "
                f"only at inner intersections, away from edges, corners and the border"
            )
        i = park.intersection(action.row, action.col)
        if self.trees[i]:
            owner, value = divmod(self.trees[i], 8)
            raise IllegalAction(
                f"I. Spring 1: trees grow on an unoccupied intersection, and "
                f"{_inter_name(action.row, action.col)} already holds {self.game.player_name(owner)}'s value-{value} tree"
            )
        if action.value not in self.hand[p]:
            left = ", ".join(str(v) for v in self.hand[p])
            raise IllegalAction(
                f"I. Spring 1: {self.game.player_name(p)} has no tree of value {action.value} left to grow "
                f"(left: {left})"
            )
        s = self._child(self.game.tree_action_rows[action.value][i])
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
        if not park.is_on_board_intersection(action.row, action.col):
            raise IllegalAction(
                f"Falling Leaves 1a: {_inter_name(action.row, action.col)} is not a trail intersection of this park"
            )
        i = park.intersection(action.row, action.col)
        tree = self.trees[i]
        if not tree or tree >> 3 != p:
            raise IllegalAction(
                f"Falling Leaves 1a: select one of your own trees in the play area, and "
                f"{_inter_name(action.row, action.col)} holds no tree of {game.player_name(p)}'s"
            )
        required = self.required_tree_value
        if required and tree & 7 != required:
            raise IllegalAction(
                f"Falling Leaves 1a.i: in round {self.round} the wind board spot requires a tree of value "
                f"{required}, and the tree at {_inter_name(action.row, action.col)} has value {tree & 7}"
            )
        tile = action.value
        if tile not in LEAF_TILES:
            raise IllegalAction(f"Setup 1.1: leaf tiles are 2 through 8 and squirrel, not {tile}")
        if not self.tiles[p] >> tile & 1:
            raise IllegalAction(
                f"Falling Leaves 1b and 1f: leaf tile {tile_name(tile)} was played before and cannot be "
                f"selected again"
            )
        return self._choose(i, tile)

    def _choose(self, i: int, tile: int) -> BoskState:
        """Falling Leaves 1a-1c for a legal choice: the tree at intersection ``i`` and ``tile`` (a draft)."""
        game = self.game
        park = game.park
        p = self.current
        s = self._child(game.choose_action_rows[i][tile])
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
        row, col = action.row, action.col
        if not park.is_on_board_square(row, col):
            raise IllegalAction(f"Leaf Placement: {_square_name(row, col)} is not a terrain square of this park")
        sq = row * park.size + col
        if sq not in self.choices:
            raise IllegalAction(self._why_not_leaf(sq))
        return self._place_leaf(sq)

    def _place_leaf(self, sq: int, in_place: bool = False) -> BoskState:
        """Leaf Placement and Covering other leaves for a legal square ``sq`` (a draft; ``in_place``: this draft)."""
        park = self.game.park
        p = self.current
        pile = self.piles[sq]
        cost = _pile_cost(pile, p)
        action = self.game.leaf_actions[sq]
        s = self._advance(action) if in_place else self._child(action)  # below, self is read before s is written
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

    def winning_action(self) -> Action | None:
        """:func:`treegames.core.winning_action`, faster: only Winter's scoring can end the game (IV. Winter)."""
        if self.phase is not Phase.WINTER:
            return None
        return core.first_winning_action(self)

    def _apply_winter(self, action: Action) -> BoskState:
        """IV. Winter: score every region; the game ends."""
        totals = [0] * self.game.num_players
        for counts in _region_counts(self):  # winter_table's points, summed without its rows
            for p, points in enumerate(winter_points(counts)):
                totals[p] += points
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
        lowest = p << 3  # the mover's trees are (p << 3) | value, value 1 to 4: one comparison finds them
        return [i for i in self.game.park.interior if lowest < trees[i] < lowest + 8]

    def _unused_tiles(self) -> tuple[int, ...]:
        """The mover's leaf tiles not played yet (Falling Leaves 1f)."""
        return _UNUSED_TILES[self.tiles[self.current]]

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
    def wind_board(self) -> WindBoard | None:
        """The wind board as it lies: its side, every spot's wind and required tree value, and the
        marker's spot (None before the wind board is placed)."""
        if self.first_wind < 0:
            return None
        side = (self.first_wind + 2) % 4
        return WindBoard(DIRECTIONS[side], self.game.wind_spots(side), self.round)

    def covering_cost(self, row: int, col: int) -> int:
        """Covering other leaves 1: the active leaves the mover's next leaf on square (row, col) sends back
        to the supply -- one per leaf in a pile another player tops; 0 on an empty pile or the mover's own."""
        return _pile_cost(self.piles[self.game.park.square(row, col)], self.current)

    def leaf_path(self) -> tuple[tuple[int, int], ...]:
        """(row, col) of the squares the mover's leaves fell on this turn, in order (during leaf placement)."""
        if self.phase is not Phase.LEAF_PLACEMENT:
            return ()
        path = []
        trail = self._trail
        while trail is not None and trail[1].kind is Kind.LEAF:
            path.append((trail[1].row, trail[1].col))
            trail = trail[0]
        return tuple(reversed(path))

    @property
    def last_decision(self) -> Decision | None:
        """How the last action chose a seat, if it did: the new start player after summer (fewest points)
        or after a round (lowest leaf tile), or the winner at the End of the Game (most points)."""
        prev = self._prev
        if prev is None:
            return None
        n = self.game.num_players
        if self.phase is Phase.GAME_OVER and prev.phase is Phase.WINTER:
            totals = self.scores()
            best = max(totals)
            return Decision("End of the Game", totals, tuple(p for p in range(n) if totals[p] == best),
                            self.start, self.winners()[0])
        if self.phase is Phase.WIND and prev.phase is Phase.SUMMER:
            totals = self.summer
            fewest = min(totals)
            return Decision("II. Summer", totals, tuple(p for p in range(n) if totals[p] == fewest),
                            prev.start, self.start)
        if prev.round and self.round != prev.round:
            played = list(prev.played)
            played[prev.current] = self.game.squirrel_tile_value if prev.tile == SQUIRREL else prev.tile
            lowest = min(played)
            return Decision("End of the Round", tuple(played), tuple(p for p in range(n) if played[p] == lowest),
                            prev.start, self.start)
        return None

    def decision_text(self) -> str:
        """The engine's sentence on the seat the last action chose (new start player or winner) and why,
        naming any tie-break; '' if it chose nobody."""
        return words.decision_sentence(self)

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
        return words.explain(self)

    def describe(self, action: Action | str) -> str:
        """One sentence for an event log: what ``action`` (or its notation) does if applied to this state."""
        if isinstance(action, str):
            action = self.parse_action(action)
        return words.describe(self, action)

    @property
    def last_event(self) -> str:
        """What the last action did, including any automatic consequences (path end, end of round)."""
        return words.last_event(self)

    @property
    def previous(self) -> BoskState | None:
        """The state before the last action (None at the start)."""
        return self._prev


_UNUSED_TILES = tuple(tuple(t for t in LEAF_TILES if mask >> t & 1) for mask in range(1 << (max(LEAF_TILES) + 1)))
"""For each mask of a player's tiles (bit t: tile t unplayed), the unplayed tiles in order: one lookup per turn."""


def _pile_cost(pile: tuple[int, ...], player: int) -> int:
    """Covering other leaves 1: the active leaves ``player``'s leaf on ``pile`` sends back (see covering_cost)."""
    return len(pile) if pile and pile[-1] != player else 0


def _leaf_options(squares: tuple[int, ...], player: int, active: int, piles: Sequence, squirrels: tuple) -> tuple:
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
    """Ties broken "clockwise from" a player (new start player): the candidate reached first going
    clockwise from ``origin``, origin itself included."""
    return min(candidates, key=lambda p: (p - origin) % num_players)


def closest_either_way(candidates: list[int], origin: int, num_players: int) -> int:
    """The final tie-break (End of the Game): the candidate fewest seats from ``origin`` either way
    round the table, origin itself first; of two equally close, the one clockwise of ``origin``."""

    def distance(p: int) -> tuple[int, int]:
        clockwise = (p - origin) % num_players
        counter = (origin - p) % num_players
        return (min(clockwise, counter), 0 if clockwise <= counter else 1)

    return min(candidates, key=distance)


class WindSpot(NamedTuple):
    """One spot of the wind board (III. Autumn): its number, its arrow and the tree value it requires."""

    spot: int
    """1-8; the marker is on spot k in round k."""
    direction: Direction
    """Where the wind blows while the marker is here."""
    required: int
    """The tree value a selected tree must have (Falling Leaves 1a.i); 0 = any remaining tree ('*')."""


class WindBoard(NamedTuple):
    """The wind board as placed: the park side it lies on, its spots and the marker."""

    side: Direction
    """The side of the park the board lies on (the first wind blows away from it)."""
    spots: tuple[WindSpot, ...]
    """Spots 1-8 in order."""
    marker: int
    """The spot the marker is on: the current round (1-8)."""


class Decision(NamedTuple):
    """How an action chose one seat: a new start player, or the winner, with any tie-break used."""

    rule: str
    """The rulebook section: 'II. Summer', 'End of the Round' or 'End of the Game'."""
    values: tuple[int, ...]
    """Per player: summer points, turn-order value of the tile played this round, or final score."""
    candidates: tuple[int, ...]
    """The players with the deciding value (fewest points, lowest tile, most points)."""
    origin: int
    """The start player the tie-break counts from (the previous one; at the end, the final round's)."""
    chosen: int
    """The player chosen."""

    @property
    def is_tie(self) -> bool:
        """True if more than one player had the deciding value, so a tie-break chose."""
        return len(self.candidates) > 1


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
    names = state.game.park.region_names
    return [ScoreRow(name, counts, winter_points(counts)) for name, counts in zip(names, _region_counts(state), strict=True)]


def _region_counts(state: BoskState) -> list[tuple[int, ...]]:
    """Per region (the park's order), each player's controlled squares: the top leaf's owner, or a squirrel's (IV. Winter)."""
    n = state.game.num_players
    control = list(state.piles)
    for p, sq in enumerate(state.squirrels):
        if sq >= 0:
            control[sq] = (p,)
    out = []
    for squares in state.game.park.region_squares:
        counts = [0] * n
        for sq in squares:
            pile = control[sq]
            if pile:
                counts[pile[-1]] += 1
        out.append(tuple(counts))
    return out


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
