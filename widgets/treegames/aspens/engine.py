"""The Aspens rules engine: the game, its option schema and the immutable state machine.

Rules live in the state's ``apply`` (one ``_apply_*`` method per action kind);
see the package docstring of :mod:`treegames.aspens` for our interpretations.  The
action values and notation live in :mod:`.actions`, the words in :mod:`.words`, the
board and the rulebook's numbers in :mod:`.data`, the exact odds in :mod:`.odds`.

Internally the board is a bitmask: hex ``(q, r)`` is bit ``(r + 7) * 16 + (q + 7)``
of a Python int (a spare 16th column keeps rows apart), so a player's spaces moved
one step in a direction are one shift, and "empty spaces next to my forest in the
Wind" is three shifts and two masks.  Heights are one byte per hex (the Sun die only
asks "at least 2-7?"); the rare stack of 255 trees or more keeps its exact height in
``_tall``, so Grow Up has no cap.
"""

from __future__ import annotations

import random
from fractions import Fraction
from functools import cache
from typing import Any

from .. import core
from ..core import CHANCE, TERMINAL, IllegalAction, Option, bits, draw_below
from . import words
from .actions import (
    END_TURN,
    Action,
    CascadeTiming,
    ChooseFirst,
    EndTurn,
    GrowOut,
    GrowUp,
    NotationError,
    Phase,
    RollSun,
    RollWind,
    Seed,
    malformed,
    parse_action,
)
from .data import (
    ASPEN,
    GROW_START_TREES,
    HOLD_LIMIT,
    PINE,
    PLAYER_NAMES,
    RADIUS,
    SETUPS,
    WATER_LAYOUTS,
    Board,
    Direction,
    Hex,
    cell_name,
    make_board,
)
from .odds import FACE_PROBABILITY, SUN_FACES, WIND_FACES
from .words import (
    RULE_END,
    RULE_FIRST,
    RULE_GROW_START,
    RULE_HOLD,
    RULE_OUT,
    RULE_OWNED,
    RULE_ROLL,
    RULE_SEED,
    RULE_UP,
)

__all__ = [
    "OPTIONS",
    "OPTION_DEFAULTS",
    "TALL",
    "AspensGame",
    "AspensState",
    "new_game",
]

OPTIONS: tuple[Option, ...] = (
    Option("setup", SETUPS, 2, "Board setup 2-7 (the rulebook's water layouts; 2 is the standard board)."),
    Option("cascade_timing", tuple(t.value for t in CascadeTiming), CascadeTiming.EACH_TREE.value,
           "When closed-off areas fill: after each tree (the rulebook's 'immediately') or at the end of the turn."),
    Option("trees_per_player", range(1, 10_001), 120,
           "Trees in each player's bag (our interpretation: replacement pieces once it is empty)."),
)
"""The option schema (GAME_TYPE.options): every named option, its allowed values, default and meaning."""

OPTION_DEFAULTS: dict[str, Any] = {o.name: o.default for o in OPTIONS}
"""Every named option of ``game.options`` and its default."""

TALL = 255
"""A stack of this many trees or more keeps its exact height in ``_tall`` (the byte saturates there)."""

_BYTE = tuple(bytes((v,)) for v in range(256))
"""Each byte value as a one-byte ``bytes``, for raising one stack's height."""

_PLANT = Phase.PLANT
_GROW_START = Phase.GROW_START

FIRST_OUTCOMES = ((ChooseFirst(ASPEN), Fraction(1, 2)), (ChooseFirst(PINE), Fraction(1, 2)))
SUN_OUTCOMES = tuple((RollSun(s), FACE_PROBABILITY) for s in SUN_FACES)
WIND_OUTCOMES = tuple((RollWind(d), FACE_PROBABILITY) for d in WIND_FACES)


# --------------------------------------------------------------------------
# Board geometry as bitmasks

ROW = 16
"""Bits per board row: 15 columns and one spare that is never on the board."""


def bit_of(cell: tuple[int, int]) -> int:
    """The bit index of a hex in the board masks."""
    return (cell[1] + RADIUS) * ROW + cell[0] + RADIUS


def step_of(direction: Direction) -> int:
    """How far a bit index moves for one step in ``direction``."""
    dq, dr = direction.delta
    return dq + ROW * dr


def shifted(mask: int, step: int) -> int:
    """Every bit of ``mask`` moved by ``step`` (one hex step in some direction)."""
    return mask << step if step > 0 else mask >> -step


def dilated(mask: int) -> int:
    """The hexes next to any hex of ``mask`` (not masked to the board)."""
    return (
        (mask << 1) | (mask >> 1) | (mask << ROW) | (mask >> ROW) | (mask << (ROW - 1)) | (mask >> (ROW - 1))
    )


def _nth_in_byte_table() -> tuple[tuple[int, ...], ...]:
    """For each byte value, the positions of its set bits."""
    return tuple(tuple(i for i in range(8) if (v >> i) & 1) for v in range(256))


NTH_IN_BYTE = _nth_in_byte_table()
_M128, _M64, _M32, _M16 = (1 << 128) - 1, (1 << 64) - 1, (1 << 32) - 1, (1 << 16) - 1


def nth_bit(mask: int, n: int) -> int:
    """The index of the ``n``-th set bit (0-based) of a mask below 2**256, by halving (unrolled)."""
    base = 0
    low = mask & _M128
    c = low.bit_count()
    if n >= c:
        n -= c
        base = 128
        mask >>= 128
    else:
        mask = low
    low = mask & _M64
    c = low.bit_count()
    if n >= c:
        n -= c
        base += 64
        mask >>= 64
    else:
        mask = low
    low = mask & _M32
    c = low.bit_count()
    if n >= c:
        n -= c
        base += 32
        mask >>= 32
    else:
        mask = low
    low = mask & _M16
    c = low.bit_count()
    if n >= c:
        n -= c
        base += 16
        mask >>= 16
    else:
        mask = low
    low = mask & 255
    c = low.bit_count()
    if n >= c:
        n -= c
        base += 8
        mask >>= 8
    else:
        mask = low
    return base + NTH_IN_BYTE[mask][n]


class Geometry:
    """One setup's board as masks, plus the cached action values for each hex."""

    def __init__(self, board: Board):
        self.board = board
        self.bit: dict[Hex, int] = {c: bit_of(c) for c in board.cells}
        self.cell: dict[int, Hex] = {b: c for c, b in self.bit.items()}
        self.playable = sum(1 << self.bit[c] for c in board.playable)
        self.water = sum(1 << self.bit[c] for c in board.water)
        self.waters: tuple[Hex, ...] = WATER_LAYOUTS[board.setup]
        self.water_rings: tuple[int, ...] = tuple(
            sum(1 << self.bit[n] for n in board.neighbors(w)) & self.playable for w in self.waters
        )
        self.wind_info = {
            d: (
                tuple(step_of(v) for v in d.wind_directions()),  # the three valid directions' steps
                tuple((v, step_of(v)) for v in (d, d.turned(-1), d.turned(1))),  # canonical source order
            )
            for d in Direction
        }
        """For each Wind roll: the steps of the valid directions, and the order sources are named in."""
        self.seed = {b: Seed(c) for b, c in self.cell.items()}
        self.up = {b: GrowUp(c) for b, c in self.cell.items()}
        self.out = {b: GrowOut(c) for b, c in self.cell.items()}
        self.out_from = {
            (b, d): GrowOut(c, Hex(c[0] - d.delta[0], c[1] - d.delta[1]), d)
            for b, c in self.cell.items()
            for d in Direction
        }

    def cells_of(self, mask: int) -> frozenset[Hex]:
        """The hexes whose bits are set in ``mask``."""
        return frozenset(self.cell[b] for b in bits(mask))


@cache
def geometry(setup: int) -> Geometry:
    """The (shared, read-only) geometry of a setup."""
    return Geometry(make_board(setup))


# Arcs of empty hexes around a placed tree: neighbour bits in a window of the
# empty mask shifted so the placed hex sits at bit ROW.  Ring order E NE NW W SW SE.
RING_OFFSETS = (1, -(ROW - 1), -ROW, -1, ROW - 1, ROW)
WINDOW = sum(1 << (ROW + o) for o in RING_OFFSETS)


def _arc_table() -> dict[int, int]:
    """Number of separate runs of empty neighbours for each window pattern."""
    table = {}
    for pattern in range(64):
        present = [(pattern >> j) & 1 for j in range(6)]
        arcs = sum(1 for j in range(6) if present[j] and not present[j - 1])
        if all(present):
            arcs = 1
        window = sum(1 << (ROW + RING_OFFSETS[j]) for j in range(6) if present[j])
        table[window] = arcs
    return table


ARCS = _arc_table()


def flood(start: int, inside: int) -> int:
    """The hexes of ``inside`` connected (through ``inside``) to hexes next to ``start``."""
    reach = dilated(start) & inside
    while True:
        grown = (reach | dilated(reach)) & inside
        if grown == reach:
            return reach
        reach = grown


def sealed_regions(mine: int, theirs: int, empty: int) -> int:
    """Empty hexes that ``theirs`` can no longer reach but ``mine`` can (both bordered by nobody else)."""
    if not empty:
        return 0
    return empty & ~flood(theirs, empty) & flood(mine, empty)


# --------------------------------------------------------------------------
# The game


class AspensGame(core.GameBase):
    """Aspens with its options; makes states (see :func:`new_game`)."""

    name = "aspens"
    num_players = 2

    def __init__(self, setup: int = 2, **options: Any):
        self.options: dict[str, Any] = core.merge_options(OPTIONS, {"setup": setup, **options})
        self.board: Board = make_board(setup)
        self.geometry = geometry(setup)
        self.cascade_timing = CascadeTiming(self.options["cascade_timing"])
        self.trees_per_player: int = self.options["trees_per_player"]
        self.water_count = len(self.geometry.waters)

    def new_initial_state(self) -> AspensState:
        """The state before the first player is chosen (a chance node)."""
        return AspensState._initial(self)

    @property
    def playable_count(self) -> int:
        """How many spaces can hold trees (148 with 3 water tiles, 147 with 4)."""
        return self.geometry.playable.bit_count()

    def __repr__(self) -> str:
        return f"AspensGame({self.options!r})"


def new_game(setup: int = 2, **options: Any) -> AspensGame:
    """An Aspens game: ``setup`` 2-7 and the named options of OPTIONS (OptionError if one is bad)."""
    return AspensGame(setup, **options)


# --------------------------------------------------------------------------
# The state

_FIELDS = (
    "current_player",
    "phase",
    "first_player",
    "turn_player",
    "_own",
    "_heights",
    "_tall",
    "_hand",
    "_supply",
    "_extra",
    "sun",
    "wind",
    "_gained",
    "_cascade",
)


class AspensState(core.FrozenState):
    """One immutable moment of an Aspens game (the machinery is :class:`treegames.core.FrozenState`)."""

    __slots__ = _FIELDS + ("_geo", "_winds")
    _FIELDS = _FIELDS
    _RESET = {"_gained": None, "_cascade": 0}

    # -- construction -------------------------------------------------------

    @classmethod
    def _initial(cls, game: AspensGame) -> AspensState:
        """The state before the first player is chosen."""
        s = cls._blank(game)
        s._geo = game.geometry
        s.current_player = CHANCE
        s.phase = Phase.CHOOSE_FIRST
        s.first_player = None
        s.turn_player = None
        s._own = (0, 0)
        empty = bytes(ROW * (2 * RADIUS + 1))
        s._heights = (empty, empty)
        s._tall = ((), ())
        s._hand = (0, 0)
        s._supply = (game.trees_per_player, game.trees_per_player)
        s._extra = (0, 0)
        s.sun = None
        s.wind = None
        s._gained = None
        s._cascade = 0
        s._winds = None
        s.__class__ = cls
        return s

    def __repr__(self) -> str:
        return f"<AspensState {self.summary()}>"

    # -- the protocol ---------------------------------------------------------

    def is_terminal(self) -> bool:
        """True once no empty playable space remains."""
        return self.current_player == TERMINAL

    def scores(self) -> tuple[int, int]:
        """Spaces owned by each player (Finishing & Scoring); at the end they sum to the playable count."""
        return (self._own[0].bit_count(), self._own[1].bit_count())

    def winners(self) -> tuple[int, ...]:
        """The player(s) with the most spaces once the game is over; a tie is a shared victory."""
        if self.current_player != TERMINAL:
            return ()
        a, b = self.scores()
        return (ASPEN,) if a > b else (PINE,) if b > a else (ASPEN, PINE)

    def chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        """At a chance node, its outcomes with exact probabilities; otherwise empty."""
        phase = self.phase
        if phase is Phase.ROLL_SUN:
            return list(SUN_OUTCOMES)
        if phase is Phase.ROLL_WIND:
            return list(WIND_OUTCOMES)
        if phase is Phase.CHOOSE_FIRST:
            return list(FIRST_OUTCOMES)
        return []

    def legal_actions(self) -> list[Action]:
        """Every action allowed now (one grow-out per target hex; chance outcomes at chance nodes)."""
        phase = self.phase
        geo = self._geo
        if self.current_player == CHANCE:
            return [a for a, _ in self.chance_outcomes()]
        if phase is Phase.SEED:
            return [geo.seed[b] for b in bits(self._seed_targets())]
        if phase is Phase.GROW_START:
            return [geo.up[b] for b in bits(self._up_targets())]
        if phase is Phase.PLANT:
            p = self.current_player
            if self._hand[p] == 0:
                return [END_TURN]
            ups = [geo.up[b] for b in bits(self._up_targets())]
            outs = [geo.out[b] for b in bits(self._out_targets())]
            ends = [END_TURN] if self._hand[p] <= HOLD_LIMIT else []
            return ups + outs + ends
        return []

    def random_action(self, rng: random.Random) -> Action:
        """A uniformly random legal action drawn with ``rng`` without listing them (used by RandomBot)."""
        if self.phase is not _PLANT:
            if self.current_player == CHANCE:
                return core.sample_chance(self, rng)
            return rng.choice(self.legal_actions())
        p = self.current_player
        hand = self._hand[p]
        if hand == 0:
            return END_TURN
        ups = self._own[p]
        geo = self._geo
        choices = self._plant_choices(p)
        count = choices.bit_count()
        pick = draw_below(rng, count + 1 if hand <= HOLD_LIMIT else count)
        if pick == count:
            return END_TURN
        bit = nth_bit(choices, pick)
        return geo.up[bit] if (ups >> bit) & 1 else geo.out[bit]

    def _plant_choices(self, p: int) -> int:
        """Where ``p`` may plant now, as one mask: their own spaces (grow up) and the Wind's empty targets (grow out)."""
        own = self._own[p]
        empty = self._geo.playable ^ (own | self._own[1 - p])
        a, b, c = self._winds[0]
        targets = (
            ((own << a) if a > 0 else (own >> -a))
            | ((own << b) if b > 0 else (own >> -b))
            | ((own << c) if c > 0 else (own >> -c))
        ) & empty
        return own | targets

    def winning_action(self) -> Action | None:
        """:func:`treegames.core.winning_action`, faster: the first grow-out that fills the board with the mover ahead.

        With cascades after each tree (the default), only a grow-out can end the game (Finishing & Scoring: no
        empty space left): onto the last empty space, or one after which :meth:`_may_seal` says a cascade could
        fill the rest. Only those are applied. With cascades at the end of the turn the generic search runs.
        """
        p = self.current_player
        if self.game.cascade_timing is not CascadeTiming.EACH_TREE:
            return core.first_winning_action(self)
        if p < 0 or self.phase is not _PLANT or self._hand[p] == 0:
            return None
        geo = self._geo
        empty = self._empty()
        for b in bits(self._out_targets()):
            left = empty & ~(1 << b)
            if left and not self._may_seal(p, b, left):
                continue
            action = geo.out[b]
            after = self.apply(action)
            if after.current_player == TERMINAL and after.winners() == (p,):
                return action
        return None

    def random_playout(self, rng: random.Random, limit: int) -> AspensState:
        """The game's end under uniformly random play from here: :func:`core.random_playout`, with the same draws.

        Most actions of a random Aspens game are grow-ups (a hand of trees spent a
        tree at a time on the mover's own spaces), and a grow-up changes neither the
        spaces owned nor the Wind's targets.  So a run of grow-ups is played on a
        copy of the mover's heights, with ``random_action``'s own draws, and only
        the next other action goes through ``apply``.  Tests check that the final
        state, its history and the random stream equal the one-action-at-a-time loop.
        """
        state, done = self, 0
        while done < limit:
            if state.current_player == TERMINAL:
                return state
            if state.phase is _PLANT:
                state, actions = state._random_turn_run(rng)
                done += actions
            elif state.current_player == CHANCE:
                state = state.apply(core.sample_chance(state, rng))
                done += 1
            else:
                state = state.apply(state.random_action(rng))
                done += 1
        if state.current_player == TERMINAL:
            return state
        raise RuntimeError(f"aspens: a random playout did not end after {limit} actions")

    def _random_turn_run(self, rng: random.Random) -> tuple[AspensState, int]:
        """Random planting actions from here: a run of grow-ups done in place, then one other action applied."""
        p = self.current_player
        hand = self._hand[p]
        own = self._own[p]
        geo = self._geo
        choices = self._plant_choices(p)  # fixed for the run: a grow-up changes no owner
        count = choices.bit_count()
        ups, trail, row, grown = geo.up, self._trail, None, 0
        while True:  # random_action's draws, one per action
            if hand == 0:
                action: Action = END_TURN
                break
            pick = draw_below(rng, count + 1 if hand <= HOLD_LIMIT else count)
            if pick == count:
                action = END_TURN
                break
            bit = nth_bit(choices, pick)
            if not (own >> bit) & 1:
                action = geo.out[bit]
                break
            if row is None:
                row = bytearray(self._heights[p])
            if row[bit] >= TALL - 1:  # a stack reaching the saturated byte: apply keeps its exact height
                action = ups[bit]
                break
            row[bit] += 1
            hand -= 1
            trail = (trail, ups[bit])
            grown += 1
        start = self
        if grown:
            start = self._child(None)  # what apply would have made of the run, in one copy
            start._trail = trail
            start._heights = (bytes(row), self._heights[1]) if p == ASPEN else (self._heights[0], bytes(row))
            start._hand = (hand, self._hand[1]) if p == ASPEN else (self._hand[0], hand)
            start.__class__ = AspensState
        return start.apply(action), grown + 1

    def apply(self, action: Action | str) -> AspensState:
        """The state after ``action``; IllegalAction naming the rule if it is not allowed now."""
        if isinstance(action, str):
            action = self.parse_action(action)
        kind = type(action)
        try:
            if kind is GrowUp:
                s = self._apply_grow_up(action)
            elif kind is GrowOut:
                s = self._apply_grow_out(action)
            elif kind is EndTurn:
                s = self._apply_end_turn(action)
            elif kind is RollSun:
                s = self._apply_sun(action)
            elif kind is RollWind:
                s = self._apply_wind(action)
            elif kind is Seed:
                s = self._apply_seed(action)
            elif kind is ChooseFirst:
                s = self._apply_first(action)
            else:
                raise IllegalAction(f"{action!r} is not an Aspens action; {self._expected()}")
        except (TypeError, AttributeError):  # a field of the wrong type that the rule checks tripped over
            problem = malformed(action) or "a field has the wrong type"
            raise IllegalAction(f"{action!r} is not a well-formed Aspens action: {problem}") from None
        problem = malformed(action)  # equal-looking values (1.0, True) would break the saved notation
        if problem:
            raise IllegalAction(f"{action!r} is not a well-formed Aspens action: {problem}")
        s.__class__ = AspensState
        return s

    # -- accessors for the UI ------------------------------------------------

    @property
    def board(self) -> Board:
        """The board of this game's setup."""
        return self.game.board

    def owner(self, cell: Hex) -> int | None:
        """The player who owns ``cell``, or None (empty, water or off the board)."""
        b = self._geo.bit.get(cell) if isinstance(cell, tuple) else None
        if b is None:
            return None
        if (self._own[0] >> b) & 1:
            return ASPEN
        if (self._own[1] >> b) & 1:
            return PINE
        return None

    def height(self, cell: Hex) -> int:
        """How many trees stand on ``cell`` (0 if empty)."""
        b = self._geo.bit.get(cell) if isinstance(cell, tuple) else None
        if b is None:
            return 0
        height = self._heights[0][b] + self._heights[1][b]
        if height == TALL:  # maybe more: the exact height of a tall stack
            for tall in self._tall:
                for bit, exact in tall:
                    if bit == b:
                        return exact
        return height

    def spaces(self, player: int) -> frozenset[Hex]:
        """The spaces ``player`` owns."""
        return self._geo.cells_of(self._own[player])

    def stacks(self, player: int) -> tuple[int, ...]:
        """The heights of ``player``'s spaces, in board order (for the odds functions)."""
        heights = self._heights[player]
        tall = dict(self._tall[player])
        return tuple(tall.get(b, heights[b]) for b in bits(self._own[player]))

    def empty_cells(self) -> frozenset[Hex]:
        """The empty playable spaces (water is never empty)."""
        geo = self._geo
        return geo.cells_of(geo.playable ^ (self._own[0] | self._own[1]))

    def hand(self, player: int) -> int:
        """Trees ``player`` holds in hand, waiting to be planted."""
        return self._hand[player]

    def supply(self, player: int) -> int:
        """Trees left in ``player``'s bag."""
        return self._supply[player]

    def replacements(self, player: int) -> int:
        """Replacement trees ``player`` has used after the bag ran out (our interpretation)."""
        return self._extra[player]

    def valid_winds(self) -> tuple[Direction, ...]:
        """The three directions the player may grow out in this turn (empty before the Wind roll)."""
        return self.wind.wind_directions() if self.wind is not None else ()

    def legal_targets(self) -> dict[str, frozenset[Hex]]:
        """The hexes the mover may use now, by kind: 'seed', 'grow-up' and 'grow-out'."""
        geo = self._geo
        none: frozenset[Hex] = frozenset()
        out = {"seed": none, "grow-up": none, "grow-out": none}
        if self.phase is Phase.SEED:
            out["seed"] = geo.cells_of(self._seed_targets())
        elif self.phase is Phase.GROW_START:
            out["grow-up"] = geo.cells_of(self._up_targets())
        elif self.phase is Phase.PLANT and self._hand[self.current_player] > 0:
            out["grow-up"] = geo.cells_of(self._up_targets())
            out["grow-out"] = geo.cells_of(self._out_targets())
        return out

    def can_end_turn(self) -> bool:
        """True if the mover may end the turn now (planting, holding at most 5 trees)."""
        return self.phase is Phase.PLANT and self._hand[self.current_player] <= HOLD_LIMIT

    @property
    def last_cascade(self) -> frozenset[Hex]:
        """The spaces filled for free by a cascade in the last action (empty if none)."""
        return self._geo.cells_of(self._cascade)

    @property
    def last_gain(self) -> tuple[int, int] | None:
        """Trees each player gained from its spaces at the last Wind roll (no bonus); else None."""
        return self._gained

    # -- rules: legality masks ------------------------------------------------

    def _empty(self) -> int:
        """Mask of empty playable spaces."""
        return self._geo.playable ^ (self._own[0] | self._own[1])

    def _seeded_waters(self, player: int) -> int:
        """How many water tiles already have one of ``player``'s trees next to them."""
        own = self._own[player]
        return sum(1 for ring in self._geo.water_rings if own & ring)

    def _seed_targets(self) -> int:
        """Empty spaces next to a water tile the mover has not yet seeded beside."""
        own = self._own[self.current_player]
        targets = 0
        for ring in self._geo.water_rings:
            if not own & ring:
                targets |= ring
        return targets & self._empty()

    def _up_targets(self) -> int:
        """Spaces the mover may grow up on: every space it owns (3A Grow Up has no limit)."""
        return self._own[self.current_player]

    def _out_targets(self) -> int:
        """Empty spaces next to the mover's spaces in one of the three valid Wind directions."""
        own = self._own[self.current_player]
        reach = 0
        for step in self._winds[0]:
            reach |= shifted(own, step)
        return reach & self._empty()

    # -- rules: applying actions -------------------------------------------

    def _expected(self) -> str:
        """What kind of action the phase wants, for error messages."""
        return {
            Phase.CHOOSE_FIRST: f"now the first player is chosen at random ({RULE_FIRST})",
            Phase.SEED: f"now {self._mover_name()} seeds a starting tree ({RULE_SEED})",
            Phase.GROW_START: f"now {self._mover_name()} grows a starting forest ({RULE_GROW_START})",
            Phase.ROLL_SUN: f"now the Sun die is rolled ({RULE_ROLL})",
            Phase.ROLL_WIND: f"now the Wind die is rolled ({RULE_ROLL})",
            Phase.PLANT: f"now {self._mover_name()} plants: grow up, grow out or end the turn",
            Phase.GAME_OVER: f"the game is over ({RULE_END})",
        }[self.phase]

    def _mover_name(self) -> str:
        """The name of the player to move (or of the player whose turn it is)."""
        p = self.current_player if self.current_player >= 0 else self.turn_player
        return PLAYER_NAMES[p] if p is not None and p >= 0 else "nobody"

    def _wrong_phase(self, action: Action, rule: str) -> IllegalAction:
        """The error for an action made at the wrong moment."""
        return IllegalAction(f"{action} is not allowed now: {self._expected()}; '{action}' belongs to {rule}")

    def _cell_bit(self, action: Seed | GrowUp | GrowOut) -> int:
        """The bit of the action's hex; IllegalAction if it names no hex of this board."""
        try:
            b = self._geo.bit.get(action.cell)
        except TypeError:  # an unhashable "cell"
            b = None
        if b is None:
            raise IllegalAction(f"{action.cell!r} is not a hex of the board")
        return b

    def _take(self, player: int, count: int) -> tuple[tuple[int, int], tuple[int, int]]:
        """New (supply, replacements) after ``player`` takes ``count`` trees from the bag."""
        supply = list(self._supply)
        extra = list(self._extra)
        taken = min(count, supply[player])
        supply[player] -= taken
        extra[player] += count - taken
        return (supply[0], supply[1]), (extra[0], extra[1])

    def _apply_first(self, action: ChooseFirst) -> AspensState:
        """Setup (d): the chosen player goes first; both take their seeding trees."""
        if self.phase is not Phase.CHOOSE_FIRST:
            raise self._wrong_phase(action, RULE_FIRST)
        if action.player not in (ASPEN, PINE):
            raise IllegalAction(f"player {action.player!r} does not exist: 0 is Aspen, 1 is Pine")
        s = self._child(action)
        n = self.game.water_count
        supply, extra = self._take(ASPEN, n)
        s._supply = supply
        s._extra = extra
        supply, extra = s._take(PINE, n)
        s._supply = supply
        s._extra = extra
        s._hand = (n, n)
        s.first_player = action.player
        s.current_player = action.player
        s.phase = Phase.SEED
        return s

    def _apply_seed(self, action: Seed) -> AspensState:
        """1. Seed: one tree on an empty space next to a water tile not yet seeded by this player."""
        if self.phase is not Phase.SEED:
            raise self._wrong_phase(action, RULE_SEED)
        b = self._cell_bit(action)
        p = self.current_player
        self._check_placeable(action, b, RULE_SEED)
        geo = self._geo
        ring = next((r for r in geo.water_rings if (r >> b) & 1), 0)
        if not ring:
            raise IllegalAction(
                f"{action}: {cell_name(action.cell)} is not next to a water tile; "
                f"starting trees go next to water ({RULE_SEED})"
            )
        if self._own[p] & ring:
            raise IllegalAction(
                f"{action}: {PLAYER_NAMES[p]} already has a tree next to that water tile; one player may not "
                f"place two trees next to the same water tile ({RULE_SEED})"
            )
        s = self._planted(action, p, b)
        if (s._own[0] | s._own[1]).bit_count() == 2 * self.game.water_count:
            hands = [0, 0]
            for player in (ASPEN, PINE):
                supply, extra = s._take(player, GROW_START_TREES)
                s._supply = supply
                s._extra = extra
                hands[player] = GROW_START_TREES
            s._hand = (hands[0], hands[1])
            s.phase = Phase.GROW_START
            s.current_player = self.first_player
        else:
            s.current_player = 1 - p
        return s

    def _check_placeable(self, action: Action, b: int, rule: str) -> None:
        """Refuse water, off-board, and spaces another player controls."""
        geo = self._geo
        p = self.current_player
        name = cell_name(geo.cell[b])
        if (geo.water >> b) & 1:
            raise IllegalAction(f"{action}: {name} is a water tile; water is never an empty space ({rule})")
        if (self._own[1 - p] >> b) & 1:
            raise IllegalAction(
                f"{action}: {name} belongs to {PLAYER_NAMES[1 - p]}; a space owned by the other player is never open to you "
                f"({RULE_OWNED})"
            )
        if (self._own[p] >> b) & 1:
            raise IllegalAction(f"{action}: {name} is already yours; a new space must be empty ({rule})")

    def _planted(self, action: Action, player: int, b: int) -> AspensState:
        """The child state after ``action`` put one tree of ``player`` (from the hand) on bit ``b``."""
        s = self._child(action)
        old = self._heights[player]
        height = old[b]
        if height < TALL:
            row = old[:b] + _BYTE[height + 1] + old[b + 1:]  # a new bytes with one byte raised (no bytearray)
        else:  # a stack of 255+ trees: the byte stays saturated, the exact height lives in _tall
            row = old
            tall = dict(self._tall[player])
            tall[b] = tall.get(b, TALL) + 1
            s._tall = (tuple(sorted(tall.items())), self._tall[1]) if player == ASPEN else (
                self._tall[0], tuple(sorted(tall.items())))
        o0, o1 = self._own
        h0, h1 = self._hand
        if player == ASPEN:
            s._own = (o0 | (1 << b), o1)
            s._heights = (row, self._heights[1])
            s._hand = (h0 - 1, h1)
        else:
            s._own = (o0, o1 | (1 << b))
            s._heights = (self._heights[0], row)
            s._hand = (h0, h1 - 1)
        return s

    def _apply_grow_up(self, action: GrowUp) -> AspensState:
        """3A Grow Up (and the growing stage): one more tree on a space the mover owns."""
        phase = self.phase
        if phase is not _PLANT and phase is not _GROW_START:
            raise self._wrong_phase(action, f"{RULE_GROW_START} or {RULE_UP}")
        b = self._cell_bit(action)
        p = self.current_player
        if not (self._own[p] >> b) & 1:
            self._refuse_grow_up(action, b)
        if self._hand[p] == 0:
            raise IllegalAction(f"{action}: {PLAYER_NAMES[p]} has no trees in hand; end the turn ({RULE_UP})")
        s = self._planted(action, p, b)
        if phase is _GROW_START and s._hand[p] == 0:
            if p == self.first_player:
                s.current_player = 1 - p
            else:
                s.phase = Phase.ROLL_SUN
                s.current_player = CHANCE
                s.turn_player = self.first_player
        return s

    def _refuse_grow_up(self, action: GrowUp, b: int) -> None:
        """Raise the error for growing up on a space the mover does not own."""
        p = self.current_player
        name = cell_name(action.cell)
        if (self._geo.water >> b) & 1:
            raise IllegalAction(f"{action}: {name} is a water tile; no tree can ever stand on water ({RULE_UP})")
        if (self._own[1 - p] >> b) & 1:
            raise IllegalAction(
                f"{action}: {name} belongs to {PLAYER_NAMES[1 - p]}; a space owned by the other player is never open to you "
                f"({RULE_OWNED})"
            )
        if self.phase is Phase.GROW_START:
            raise IllegalAction(
                f"{action}: {name} is empty; in this stage trees go only on your own seeded spaces, never on "
                f"an empty space ({RULE_GROW_START})"
            )
        raise IllegalAction(
            f"{action}: {name} is empty; grow up only on a space you own, or grow out onto it ({RULE_UP})"
        )

    def _apply_grow_out(self, action: GrowOut) -> AspensState:
        """3B Grow Out: plant on an empty space next to the mover's forest in a valid Wind direction."""
        phase = self.phase
        if phase is not _PLANT:
            if phase is Phase.GROW_START:
                raise IllegalAction(
                    f"{action}: empty spaces are closed while growing the starting forests; add your trees to your "
                    f"own seeded spaces ({RULE_GROW_START})"
                )
            raise self._wrong_phase(action, RULE_OUT)
        geo = self._geo
        b = self._cell_bit(action)
        p = self.current_player
        own = self._own[p]
        other = self._own[1 - p]
        empty = geo.playable ^ (own | other)
        if not (empty >> b) & 1:
            self._check_placeable(action, b, RULE_OUT)
        if self._hand[p] == 0:
            raise IllegalAction(f"{action}: {PLAYER_NAMES[p]} has no trees in hand; end the turn ({RULE_OUT})")
        if action.source is not None:
            recorded = self._checked_source(action, b)
        else:
            recorded = None
            for d, step in self._winds[1]:
                source = b - step
                if source >= 0 and (own >> source) & 1:
                    recorded = geo.out_from[(b, d)]
                    break
            if recorded is None:
                raise self._out_of_wind(action, b)
        s = self._planted(recorded, p, b)
        empty ^= 1 << b
        if self.game.cascade_timing is CascadeTiming.EACH_TREE and s._may_seal(p, b, empty):
            s._resolve_cascades(p)
            empty = geo.playable ^ (s._own[0] | s._own[1])
        if not empty:
            s._finish()
        return s

    def _checked_source(self, action: GrowOut, b: int) -> GrowOut:
        """The written source and direction, if they are the mover's and in the Wind; else IllegalAction."""
        geo = self._geo
        source, direction = action.source, action.direction
        sb = geo.bit.get(source) if isinstance(source, tuple) else None
        if direction is None or sb is None or Hex(source[0] + direction.delta[0], source[1] + direction.delta[1]) != action.cell:
            raise IllegalAction(f"{action}: {cell_name(action.cell)} is not the {direction} neighbour of that source")
        if not (self._own[self.current_player] >> sb) & 1:
            raise IllegalAction(
                f"{action}: {cell_name(source)} is not {self._mover_name()}'s space; grow out from a space you "
                f"own ({RULE_OUT})"
            )
        if direction not in self.wind.wind_directions():
            raise IllegalAction(
                f"{action}: {direction.name} is not a valid Wind direction; with Wind {self.wind.name} the valid "
                f"directions are {', '.join(d.name for d in self.valid_winds())} ({RULE_OUT})"
            )
        return geo.out_from[(b, direction)]

    def _out_of_wind(self, action: GrowOut, b: int) -> IllegalAction:
        """The error for a grow-out target not reachable in the Wind."""
        name = cell_name(action.cell)
        winds = ", ".join(d.name for d in self.valid_winds())
        if not dilated(1 << b) & self._own[self.current_player]:
            return IllegalAction(
                f"{action}: {name} is not adjacent to any space {self._mover_name()} owns; a new space must "
                f"be next to your forest ({RULE_OUT})"
            )
        return IllegalAction(
            f"{action}: {name} is out of the Wind; with Wind {self.wind.name} you may grow out only {winds} "
            f"from a space you own ({RULE_OUT})"
        )

    def _may_seal(self, p: int, b: int, empty: int) -> bool:
        """Cheap test: could planting on bit ``b`` have cut an empty area off from the opponent?"""
        window = ((empty << ROW) >> b) & WINDOW
        arcs = ARCS[window]
        if arcs == 0:
            return False
        if arcs >= 2:
            return True
        other = self._own[1 - p]
        if not dilated(1 << b) & other:
            return False
        beside = dilated(1 << b) & empty
        return not dilated(beside) & other

    def _resolve_cascades(self, p: int) -> None:
        """4. Cascades: fill every empty area one player alone can still reach, for that player."""
        geo = self._geo
        empty = geo.playable ^ (self._own[0] | self._own[1])
        filled = 0
        for player in (p, 1 - p):
            region = sealed_regions(self._own[player], self._own[1 - player], empty)
            if region:
                self._fill(player, region)
                empty ^= region
                filled |= region
        self._cascade = filled

    def _fill(self, player: int, region: int) -> None:
        """Put one tree from ``player``'s bag on every space of ``region`` (replacements if it runs out)."""
        own = list(self._own)
        own[player] |= region
        row = bytearray(self._heights[player])
        for b in bits(region):
            row[b] = 1
        heights = list(self._heights)
        heights[player] = bytes(row)
        supply, extra = self._take(player, region.bit_count())
        self._own = (own[0], own[1])
        self._heights = (heights[0], heights[1])
        self._supply = supply
        self._extra = extra

    def _finish(self) -> None:
        """Finishing & Scoring: no empty playable space remains."""
        self.phase = Phase.GAME_OVER
        self.current_player = TERMINAL

    def _apply_end_turn(self, action: EndTurn) -> AspensState:
        """End the turn (holding at most 5 trees) and pass the dice."""
        if self.phase is not Phase.PLANT:
            raise self._wrong_phase(action, RULE_UP)
        p = self.current_player
        held = self._hand[p]
        if held > HOLD_LIMIT:
            raise IllegalAction(
                f"end-turn: {PLAYER_NAMES[p]} holds {held} trees; you may keep at most {HOLD_LIMIT} for a future "
                f"turn, so plant at least {held - HOLD_LIMIT} more ({RULE_HOLD})"
            )
        s = self._child(action)
        if self.game.cascade_timing is CascadeTiming.END_OF_TURN:
            s._resolve_cascades(p)
            if not s._empty():
                s._finish()
                return s
        s.phase = Phase.ROLL_SUN
        s.current_player = CHANCE
        s.turn_player = 1 - p
        s.sun = None
        s.wind = None
        s._winds = None
        return s

    def _apply_sun(self, action: RollSun) -> AspensState:
        """1. Roll: the Sun die's value."""
        if self.phase is not Phase.ROLL_SUN:
            raise self._wrong_phase(action, RULE_ROLL)
        if action.value not in SUN_FACES:
            raise IllegalAction(f"{action}: the Sun die shows 2-7 ({RULE_ROLL})")
        s = self._child(action)
        s.sun = action.value
        s.phase = Phase.ROLL_WIND
        return s

    def _apply_wind(self, action: RollWind) -> AspensState:
        """1. Roll: the Wind die's direction; then 2. Gain Trees for both players at once."""
        if self.phase is not Phase.ROLL_WIND:
            raise self._wrong_phase(action, RULE_ROLL)
        if not isinstance(action.direction, Direction):
            raise IllegalAction(f"{action}: the Wind die shows one of E, NE, NW, W, SW, SE ({RULE_ROLL})")
        s = self._child(action)
        s.wind = action.direction
        s._winds = self._geo.wind_info[action.direction]
        table = GAIN_TABLES[self.sun]
        gained = tuple(self._heights[q].translate(table).count(1) for q in (ASPEN, PINE))
        mover = self.turn_player
        hand = list(self._hand)
        for q in (ASPEN, PINE):
            count = gained[q] + (1 if q == mover else 0)
            supply, extra = s._take(q, count)
            s._supply = supply
            s._extra = extra
            hand[q] += count
        s._hand = (hand[0], hand[1])
        s._gained = gained
        s.phase = Phase.PLANT
        s.current_player = mover
        return s

    # -- notation ---------------------------------------------------------------

    # -- notation and words (see .actions and .words) ------------------------

    def parse_action(self, text: str) -> Action:
        """The action written ``text`` (as ``str(action)`` writes it); NotationError if unreadable."""
        return parse_action(text, self._geo.bit)

    def actions_at(self, place: str) -> list[Action]:
        """The legal actions on one hex, named as in notation (``"D5"``): seed, grow up or grow out there.

        A hex with nothing to do now (water, the opponent's, a chance node) gives ``[]``;
        NotationError if ``place`` names no hex of this board.
        """
        core.check_notation(place, NotationError)
        cell = parse_action(f"seed {place.strip()}", self._geo.bit).cell
        return [a for a in self.legal_actions() if getattr(a, "cell", None) == cell]

    def describe(self, action: Action | str) -> str:
        """One sentence on what ``action`` (or its notation) does from this state (for the event log)."""
        if isinstance(action, str):
            action = self.parse_action(action)
        return words.describe(self, action)

    @property
    def last_event(self) -> str:
        """What just happened, in words (gain arithmetic and cascades included)."""
        return words.last_event(self)

    def explain(self) -> str:
        """What the rules say at this moment, in plain words, naming the rulebook section."""
        return words.explain(self)

    def summary(self) -> str:
        """One line on this state: phase, mover, dice, hands, supplies and scores."""
        return words.summary(self)

    def picture(self) -> str:
        """The board as text, every row on the same hex offsets (see :func:`.words.picture`)."""
        return words.picture(self)


GAIN_TABLES = {s: bytes(1 if h >= s else 0 for h in range(256)) for s in SUN_FACES}
"""For each Sun value, a byte table turning a height into 1 if the space produces."""


