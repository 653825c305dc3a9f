"""The Mighty Trees Timber Party Game: the game, its option schema and the immutable state machine.

The rules and our interpretations are described in the package docstring
(:mod:`treegames.mighty_trees`).  Rulebook section names used in messages:
"Game Layout", "Player Commands", "Mobilization Phase", "Battle Phase",
"Sol Laws (Party Game)", "Initiate Tree Combat", "Regroup Phase",
"Capturing a Habitat", "Winning" and "Game Variations".  The vocabulary and
notation live in :mod:`.actions`, the words in :mod:`.words`, the cards and the
rulebook's numbers in :mod:`.data`.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .. import core
from ..core import CHANCE, TERMINAL, IllegalAction, Option, bits, plural
from . import words
from .actions import (
    CHANCE_VERBS,
    CLOUD_ACTIONS,
    DISASTER_ACTIONS,
    DISCARD_CANOPY_ACTIONS,
    DISCARD_HAND_ACTIONS,
    DISCARD_UNDER_ACTIONS,
    DRAW_ACTIONS,
    DRAW_PHASES,
    END,
    GROW_ACTIONS,
    HABITAT_ACTIONS,
    PLANT_ACTIONS,
    TREND_ACTIONS,
    Action,
    NotationError,
    Phase,
    Verb,
    parse_action,
    player_name,
)
from .data import (
    CLOUD_COST,
    CLOUD_ROUNDS,
    COMMAND_SIZE,
    DECK,
    DISCARD_COST,
    GROW_COST_FLOOR,
    HABITATS,
    MAX_TURNS_LIMIT,
    MAX_VALUE,
    MIN_SOLS_SPENT,
    MIN_VALUE,
    POWER_DISCOUNT,
    POWER_ELEMENT,
    PREFERRED_BONUS,
    SLOTS,
    SOLS_PER_TURN,
    TREND_COST,
    TURNS_PER_PLAYER,
    DisasterCard,
    Element,
    HabitatCard,
    Kind,
    Power,
    Sides,
    Targets,
    TreeCard,
    TrendCard,
    card_by_name,
    climate_change,
)

__all__ = [
    "MightyTreesGame",
    "MightyTreesState",
    "PlayerView",
    "Strike",
    "TreeFate",
    "PUBLIC",
    "new_game",
    "OPTIONS",
    "OPTION_DEFAULTS",
    "PLAYERS",
]

PLAYERS = (2, 3, 4, 5, 6, 7, 8)
"""# of Players: 2 to 6, "more can play": we allow 7 and 8 (the 72-card deck deals 24 and leaves 48)."""

OPTIONS: tuple[Option, ...] = (
    Option("players", PLAYERS, 2, f"How many players. {words.SEATS}"),
    Option("max_turns", range(0, MAX_TURNS_LIMIT + 1), 0,
           f"Our departure (the rule sheet sets no limit and has no draws): after this many turns in all, a "
           f"game nobody has won is a draw, so every game ends; 0 (the default) means {TURNS_PER_PLAYER} turns "
           f"per player."),
    Option("habitats_to_win", (1, 2), 1, "Game Variations: capture 1 habitat, or 2, to win."),
    Option("without_quercus_marilandica", (False, True), False,
           "Game Variations: play without the Quercus marilandica card (71 cards)."),
    Option("ignore_lingering", (False, True), False,
           "Game Variations: water and temperature disasters strike once and never linger."),
    Option("two_sided_disasters", (False, True), False,
           "Game Variations: a disaster strikes only your side and one other side you choose."),
    Option("capture_at_round_end", (False, True), False,
           f"No (the default) follows the printed rule. {words.CAPTURE_AT_ONCE} Yes plays "
           f"{words.CAPTURE_AT_ROUND_END}"),
)
"""The option schema (GAME_TYPE.options): every named option, its allowed values, default and meaning."""

OPTION_DEFAULTS: dict[str, Any] = {o.name: o.default for o in OPTIONS if o.name != "players"}
"""Every named option of ``game.options`` and its default (habitats_to_win to two_sided_disasters are the
rulebook's Game Variations; capture_at_round_end is our departure from its text, off by default)."""

QUERCUS_MARILANDICA = card_by_name("Quercus marilandica").id

# Per-card data in flat tuples, for speed.
IS_TREE = tuple(c.kind is Kind.TREE for c in DECK)
SHIFT_T = tuple(
    change[1] if (change := climate_change(c)) is not None and change[0] is Element.TEMPERATURE else 0 for c in DECK
)
SHIFT_W = tuple(
    change[1] if (change := climate_change(c)) is not None and change[0] is Element.WATER else 0 for c in DECK
)
KIND = tuple((Kind.TREE, Kind.CLOUD, Kind.TREND, Kind.DISASTER).index(c.kind) for c in DECK)
PLANT_COST = tuple(c.plant if isinstance(c, TreeCard) else 0 for c in DECK)
GROW_COST = tuple(c.grow if isinstance(c, TreeCard) else None for c in DECK)
FITS = tuple(
    tuple(
        tuple(isinstance(c, TreeCard) and c.fits(t, w) for w in range(MAX_VALUE + 1))
        for t in range(MAX_VALUE + 1)
    )
    for c in DECK
)
"""FITS[card][temperature][water]: whether a tree's ranges hold those conditions."""
NEEDS_POWER = tuple(c.needs_power if isinstance(c, DisasterCard) else None for c in DECK)
ONE_SIDE = tuple(isinstance(c, DisasterCard) and c.sides is Sides.ONE for c in DECK)
PREFERRED_MASK = tuple(
    sum(1 << t.id for t in DECK if isinstance(t, TreeCard) and h.prefers(t)) for h in HABITATS
)


PUBLIC = -1
"""A viewer who sees only the public cards (``explain(PUBLIC)``: e.g. a screen whose hand is covered)."""

FRACTIONS = tuple(Fraction(1, n) if n else None for n in range(len(DECK) + 1))


def clamp(value: int) -> int:
    """A temperature or water value kept within 1..9."""
    return MIN_VALUE if value < MIN_VALUE else MAX_VALUE if value > MAX_VALUE else value


# --------------------------------------------------------------------------
# The game


class MightyTreesGame(core.GameBase):
    """The rules and options of one Mighty Trees Timber Party Game; makes states."""

    name = "mighty_trees"

    def __init__(self, players: int = 2, **options: Any):
        merged = core.merge_options(OPTIONS, {"players": players, **options})
        del merged["players"]
        self.num_players = players
        self.options = merged
        self.max_turns: int = merged["max_turns"] or TURNS_PER_PLAYER * players
        """The turn limit in force: the option, or (option 0, the default) 30 turns per player."""
        self.habitats_to_win: int = merged["habitats_to_win"]
        self.lingering: bool = not merged["ignore_lingering"]
        self.two_sided: bool = merged["two_sided_disasters"]
        self.capture_at_round_end: bool = merged["capture_at_round_end"]
        """Our variant: capture is settled when a round ends (False, the default: at once, as printed)."""
        deck = (1 << len(DECK)) - 1
        if merged["without_quercus_marilandica"]:
            deck &= ~(1 << QUERCUS_MARILANDICA)
        self.deck_mask = deck
        self.deck_size = deck.bit_count()
        self.first_fractions = Fraction(1, players)

    def new_initial_state(self) -> MightyTreesState:
        """The state before the habitat is drawn."""
        return MightyTreesState._initial(self)

    def __repr__(self) -> str:
        return f"new_game(players={self.num_players}, **{self.options!r})"


def new_game(players: int = 2, **options: Any) -> MightyTreesGame:
    """A Mighty Trees Timber Party Game for 2-8 players with the named options (see OPTION_DEFAULTS)."""
    return MightyTreesGame(players, **options)


# --------------------------------------------------------------------------
# A player's view


@dataclass(frozen=True)
class PlayerView:
    """What one player may see: their own Command, every public card, but no other hand or draw order."""

    player: int
    phase: Phase
    current_player: int
    mover: int
    turn: int
    habitat: HabitatCard | None
    temperature: int
    water: int
    sols: int
    spent: int
    hand: tuple
    hand_sizes: tuple[int, ...]
    understory: tuple[tuple, ...]
    canopy: tuple[tuple, ...]
    draw_size: int
    litter: tuple
    weather: tuple[tuple, ...]
    trends: tuple
    captured: tuple[int, ...]
    winners: tuple[int, ...]
    last_event: str
    litter_top: Any = None
    """The litter pile's top card (the one discarded last, face up), or None when the pile is empty."""

    def trees(self, player: int) -> int:
        """How many trees ``player`` has (understory plus canopy)."""
        return sum(t is not None for t in self.understory[player] + self.canopy[player])


# --------------------------------------------------------------------------
# What the last disaster or trend did


@dataclass(frozen=True)
class TreeFate:
    """One tree a disaster or climate change reached: where it stood, what was measured, and whether it stands."""

    player: int
    place: str  # "understory" or "canopy"
    slot: int  # 0 or 1
    card: TreeCard
    measure: str  # the engine's words for what was compared, e.g. "fire 5" or "water 3-7"
    survived: bool
    reason: str  # the engine's words for the verdict, e.g. "fire 5 is below the force 6: it dies"


@dataclass(frozen=True)
class Strike:
    """The last disaster or trend card played: the sides it struck, the force or changed axis, each tree's fate."""

    card: Any  # the DisasterCard or TrendCard
    player: int  # who played it
    sides: tuple[int, ...]  # the sides struck (a trend: every side)
    targets: Targets  # which slots it reaches (understory, canopy or all)
    element: Element  # fire or wind, or the axis changed (temperature or water)
    force: int | None  # fire or wind: the card's strength with the habitat's modifier; else None
    value: int | None  # temperature or water: the axis's value after the change; else None
    trees: tuple[TreeFate, ...]  # every tree on a struck side in a reached slot, in the engine's order

    @property
    def dead(self) -> tuple[TreeFate, ...]:
        """The trees it killed."""
        return tuple(f for f in self.trees if not f.survived)

    def struck(self, player: int) -> bool:
        """Whether ``player``'s side was struck."""
        return player in self.sides


# --------------------------------------------------------------------------
# States

_FIELDS = (
    "habitat",
    "habitats_used",
    "captured",
    "trends",
    "draw",
    "litter",
    "hands",
    "under",
    "canopy_slots",
    "weather_items",
    "phase",
    "mover",
    "sols",
    "spent",
    "turn",
    "dealt",
    "winner",
)


class MightyTreesState(core.FrozenState):
    """One immutable moment of a Mighty Trees game (the machinery is :class:`treegames.core.FrozenState`)."""

    __slots__ = _FIELDS + ("last_event", "litter_top_id", "_strike", "_legal", "_cond", "_picked")
    _FIELDS = _FIELDS
    _RESET = {"_legal": None, "_picked": None, "_strike": None}  # _cond checks its own validity

    game: MightyTreesGame
    habitat: int  # habitat id, -1 while none is drawn
    habitats_used: int  # bitmask of habitat ids drawn so far
    captured: tuple[int, ...]  # habitats captured by each player
    trends: tuple[int, ...]  # trend cards in play beside the habitat (their change lasts)
    draw: tuple[int, ...]  # card ids in the draw pile, ascending (a draw picks any with equal odds)
    litter: int  # bitmask of card ids in the litter pile
    hands: tuple[int, ...]  # each player's Command as a bitmask
    under: tuple[int, ...]  # understory slots, 2 per player, card id or -1
    canopy_slots: tuple[int, ...]  # canopy slots, 2 per player, card id or -1
    weather_items: tuple[tuple[int, int, int], ...]  # (card id, owner, rounds left) in play
    phase: Phase
    mover: int  # whose turn it is (or -1 before the first player is chosen)
    sols: int
    spent: int
    turn: int  # turns started so far
    dealt: int  # cards dealt during the deal
    winner: int  # the winner, or -1
    last_event: str  # one sentence on what the last action did (written by apply; not part of equality)
    litter_top_id: int  # the litter's top card (discarded last), -1 if empty (follows litter; not in equality)
    _strike: Any  # what the last action's disaster or trend did (raw, then its Strike), else None

    # ----------------------------------------------------------------- making

    @classmethod
    def _initial(cls, game: MightyTreesGame) -> MightyTreesState:
        """The state before the habitat is drawn."""
        s = cls._blank(game)
        n = game.num_players
        s.habitat, s.habitats_used, s.captured = -1, 0, (0,) * n
        s.trends = ()
        s.draw, s.litter, s.hands = tuple(bits(game.deck_mask)), 0, (0,) * n
        s.under = s.canopy_slots = (-1,) * (SLOTS * n)
        s.weather_items = ()
        s.phase, s.mover, s.sols, s.spent, s.turn, s.dealt, s.winner = Phase.HABITAT, -1, 0, 0, 0, 0, -1
        s.last_event = "A new game: the habitat card is drawn first."
        s._strike, s.litter_top_id = None, -1
        s._legal = s._cond = s._picked = None
        s.__class__ = cls
        return s

    @classmethod
    def from_view(cls, game: MightyTreesGame, view: PlayerView, hands: Sequence[int] | None = None,
                  draw: Sequence[int] = (), habitats_used: int | None = None) -> MightyTreesState:
        """A state holding what ``view`` shows, and for what it hides only what the caller supplies.

        ``hands`` gives every Command as a bitmask (the viewer's own must be the one the view shows); left
        out, every other Command is empty. ``draw`` is the draw pile's card ids (empty by default: the viewer
        knows only its size). ``habitats_used`` defaults to the habitat in play. Such a state answers the
        viewer's own questions (legal moves, their words, why not); with hidden cards filled in it is a
        world a searching player may imagine. Raises ``ValueError`` if the view does not fit the game.
        """
        n = game.num_players
        if len(view.hand_sizes) != n or not 0 <= view.player < n:
            raise ValueError(f"a {len(view.hand_sizes)}-player view does not fit a {n}-player game")
        own = sum(1 << c.id for c in view.hand)
        if hands is None:
            hands = tuple(own if p == view.player else 0 for p in range(n))
        if len(hands) != n or hands[view.player] != own:
            raise ValueError("the Commands given do not fit the view (the viewer's own Command is shown)")
        s = cls._blank(game)
        s.habitat = view.habitat.id if view.habitat is not None else -1
        s.habitats_used = habitats_used if habitats_used is not None else (
            1 << s.habitat if s.habitat >= 0 else 0)
        s.captured = tuple(int(c) for c in view.captured)
        s.trends = tuple(c.id for c in view.trends)
        s.draw = tuple(sorted(draw))
        s.litter = sum(1 << c.id for c in view.litter)
        s.hands = tuple(hands)
        s.under = tuple(-1 if c is None else c.id for p in range(n) for c in view.understory[p])
        s.canopy_slots = tuple(-1 if c is None else c.id for p in range(n) for c in view.canopy[p])
        s.weather_items = tuple((c.id, int(owner), int(rounds)) for c, owner, rounds in view.weather)
        s.phase, s.mover, s.sols, s.spent, s.turn = view.phase, view.mover, view.sols, view.spent, view.turn
        s.dealt, s.winner = 0, (view.winners[0] if view.winners else -1)
        s.last_event = view.last_event
        s.litter_top_id = view.litter_top.id if view.litter_top is not None else -1
        s._strike = s._legal = s._cond = s._picked = None
        s.__class__ = cls
        return s

    # ----------------------------------------------------------------- protocol

    @property
    def current_player(self) -> int:
        """The player to act, or CHANCE, or TERMINAL."""
        phase = self.phase
        if phase is Phase.BATTLE:
            return self.mover
        if phase is Phase.GAME_OVER:
            return TERMINAL
        return CHANCE

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self.phase is Phase.GAME_OVER

    def winners(self) -> tuple[int, ...]:
        """The winner as a 1-tuple, or () (game not over, or a draw at max_turns)."""
        return (self.winner,) if self.winner >= 0 else ()

    def scores(self) -> tuple[int, ...]:
        """Habitats captured by each player."""
        return self.captured

    def __repr__(self) -> str:
        return f"<MightyTreesState turn {self.turn} {self.phase.value} history={len(self.history)}>"

    # ----------------------------------------------------------------- public accessors

    @property
    def habitat_card(self) -> HabitatCard | None:
        """The habitat card in play, or None while it is being drawn."""
        return HABITATS[self.habitat] if self.habitat >= 0 else None

    def conditions(self) -> tuple[int, int]:
        """The habitat's current (temperature, water) after trends, clouds and lingering disasters."""
        if self.habitat < 0:
            return (0, 0)
        cached = self._cond  # (habitat, trends, weather, result): valid while those are the same objects
        if cached is not None and cached[0] == self.habitat and cached[1] is self.trends:
            if cached[2] is self.weather_items:
                return cached[3]
        h = HABITATS[self.habitat]
        t, w = h.temperature, h.water
        for card in self.trends:
            t += SHIFT_T[card]
            w += SHIFT_W[card]
        for card, _owner, _rounds in self.weather_items:
            t += SHIFT_T[card]
            w += SHIFT_W[card]
        result = (clamp(t), clamp(w))
        self._remember("_cond", (self.habitat, self.trends, self.weather_items, result))
        return result

    @property
    def temperature(self) -> int:
        """The habitat's current temperature (hardiness zone, 1-9)."""
        return self.conditions()[0]

    @property
    def water(self) -> int:
        """The habitat's current water value (1 driest - 9 wettest)."""
        return self.conditions()[1]

    def understory(self, player: int) -> tuple[TreeCard | None, ...]:
        """``player``'s two understory slots (a tree card or None)."""
        return tuple(DECK[c] if c >= 0 else None for c in self.under[SLOTS * player : SLOTS * player + SLOTS])

    def canopy(self, player: int) -> tuple[TreeCard | None, ...]:
        """``player``'s two canopy slots (a tree card or None)."""
        return tuple(
            DECK[c] if c >= 0 else None for c in self.canopy_slots[SLOTS * player : SLOTS * player + SLOTS]
        )

    def hand(self, player: int) -> tuple:
        """``player``'s Command (the engine knows every hand; widgets should use view_for)."""
        return tuple(DECK[c] for c in bits(self.hands[player]))

    def tree_count(self, player: int) -> int:
        """Trees on ``player``'s side (understory plus canopy)."""
        lo = SLOTS * player
        return sum(c >= 0 for c in self.under[lo : lo + SLOTS]) + sum(
            c >= 0 for c in self.canopy_slots[lo : lo + SLOTS]
        )

    @property
    def draw_size(self) -> int:
        """Cards left in the draw pile."""
        return len(self.draw)

    @property
    def litter_cards(self) -> tuple:
        """The litter (discard) pile's cards, face up."""
        return tuple(DECK[c] for c in bits(self.litter))

    @property
    def last_strike(self) -> Strike | None:
        """What the last action's disaster or trend did (sides struck, force or axis, each tree's fate), else None."""
        raw = self._strike
        if raw is None or isinstance(raw, Strike):
            return raw
        card, player, sides, targets, element, force, value, reached, habitat = raw
        fates = []
        for p, place, slot, tree, survived in reached:
            if force is None:
                c = DECK[tree]
                low, high = (c.temp_min, c.temp_max) if element is Element.TEMPERATURE else (c.water_min, c.water_max)
                _ok, measure, reason = words.range_fate(element, low, high, value)
            else:
                kind = element.value  # the habitat it struck in (a capture may have cleared it since)
                preferred = bool(PREFERRED_MASK[habitat] >> tree & 1)
                strength = getattr(DECK[tree], kind) + (PREFERRED_BONUS if preferred else 0)
                _ok, measure, reason = words.strength_fate(kind, strength, force, preferred)
            fates.append(TreeFate(p, place, slot, DECK[tree], measure, survived, reason))
        strike = Strike(DECK[card], player, sides, targets, element, force, value, tuple(fates))
        self._remember("_strike", strike)
        return strike

    @property
    def litter_top(self) -> Any:
        """The litter pile's top card (the one that went there last, face up), or None when it is empty."""
        return DECK[self.litter_top_id] if self.litter_top_id >= 0 else None

    @property
    def weather(self) -> tuple[tuple, ...]:
        """Cloud cards and lingering disasters in play: (card, owner, rounds left)."""
        return tuple((DECK[c], owner, rounds) for c, owner, rounds in self.weather_items)

    @property
    def trend_cards(self) -> tuple:
        """Trend cards in play beside the habitat (each change lasts while the habitat is in play)."""
        return tuple(DECK[c] for c in self.trends)

    @property
    def lingering(self) -> tuple[tuple, ...]:
        """Lingering disasters in play: (card, owner, rounds left)."""
        return tuple(item for item in self.weather if item[0].kind is Kind.DISASTER)

    def cards_in_play(self) -> int:
        """Draw + litter + hands + slots + weather: always the deck size (card conservation)."""
        return (
            len(self.draw)
            + self.litter.bit_count()
            + sum(h.bit_count() for h in self.hands)
            + sum(c >= 0 for c in self.under)
            + sum(c >= 0 for c in self.canopy_slots)
            + len(self.weather_items)
            + len(self.trends)
        )

    def view_for(self, player: int) -> PlayerView:
        """What ``player`` may see: their own Command; other hands and the draw pile only as sizes."""
        n = self.game.num_players
        if not 0 <= player < n:
            raise ValueError(f"there is no player {player} in a {n}-player game")
        t, w = self.conditions()
        return PlayerView(
            player=player,
            phase=self.phase,
            current_player=self.current_player,
            mover=self.mover,
            turn=self.turn,
            habitat=self.habitat_card,
            temperature=t,
            water=w,
            sols=self.sols,
            spent=self.spent,
            hand=self.hand(player),
            hand_sizes=tuple(h.bit_count() for h in self.hands),
            understory=tuple(self.understory(p) for p in range(n)),
            canopy=tuple(self.canopy(p) for p in range(n)),
            draw_size=self.draw_size,
            litter=self.litter_cards,
            weather=self.weather,
            trends=self.trend_cards,
            captured=self.captured,
            winners=self.winners(),
            last_event=self.last_event,
            litter_top=self.litter_top,
        )

    # ----------------------------------------------------------------- costs and checks

    def _prefers(self, card: int) -> bool:
        """Whether the habitat in play prefers this tree (+2 to its strengths)."""
        return self.habitat >= 0 and bool(PREFERRED_MASK[self.habitat] >> card & 1)

    def strength(self, card: int, kind: str) -> int:
        """A tree's sun/shade/fire/wind strength here, with the preferred-species bonus."""
        return getattr(DECK[card], kind) + (PREFERRED_BONUS if self._prefers(card) else 0)

    def grow_cost(self, card: int) -> int:
        """Sols to grow this tree into the canopy here (rich soil takes 1 off, never below 2)."""
        cost = DECK[card].grow
        if self.habitat >= 0 and HABITATS[self.habitat].power is Power.RICH_SOIL and cost > GROW_COST_FLOOR:
            cost = max(GROW_COST_FLOOR, cost - POWER_DISCOUNT)
        return cost

    def disaster_cost(self, card: int) -> int:
        """Sols to unleash this disaster here (a habitat power takes 1 off its element, never below 1)."""
        d = DECK[card]
        cost = d.cost
        if self.habitat >= 0 and POWER_ELEMENT.get(HABITATS[self.habitat].power) is d.element:
            cost = max(1, cost - POWER_DISCOUNT)
        return cost

    def cost_of(self, action: Action) -> int:
        """The Sols an action costs (0 for end and chance outcomes); assumes a well-formed action."""
        verb = action.verb
        if verb is Verb.PLANT:
            return DECK[action.card].plant
        if verb is Verb.GROW:
            return self.grow_cost(self.under[SLOTS * self.mover + action.slot])
        if verb is Verb.DISCARD:
            return DISCARD_COST
        if verb is Verb.CLOUD:
            return CLOUD_COST
        if verb is Verb.TREND:
            return TREND_COST
        if verb is Verb.DISASTER:
            return self.disaster_cost(action.card)
        return 0

    def _in_hand(self, card: int) -> bool:
        """Whether the mover holds this card in their Command."""
        return 0 <= card < len(DECK) and bool(self.hands[self.mover] >> card & 1)

    def why_not(self, action: object) -> str | None:
        """None if ``action`` is legal now, else the reason, naming the rulebook rule."""
        if (
            not isinstance(action, Action)
            or not isinstance(action.verb, Verb)
            or not all(type(v) is int for v in (action.card, action.player, action.slot))
            or not isinstance(action.place, str)
        ):
            return f"{action!r} is not a Mighty Trees action (use parse_action on notation)"
        phase = self.phase
        if phase is Phase.GAME_OVER:
            return "Winning: the game is over; no more actions"
        if phase is not Phase.BATTLE:
            return self._why_not_chance(action)
        if action.verb in (Verb.HABITAT, Verb.DRAW, Verb.FIRST):
            return (
                f"{action.verb.value} is a chance outcome, but it is {player_name(self.mover)}'s Battle Phase"
            )
        return self._why_not_battle(action)

    def _why_not_chance(self, action: Action) -> str | None:
        """Why a chance outcome is not possible now (None if it is)."""
        phase = self.phase
        expected, section = CHANCE_VERBS[phase]
        if action.verb is not expected:
            return (
                f"{section}: this is a chance node ({phase.value}); "
                f"only a '{expected.value}' outcome can happen"
            )
        if expected is Verb.HABITAT:
            if not (0 <= action.card < len(HABITATS)) or action != HABITAT_ACTIONS[action.card]:
                return "Game Layout: no such habitat card"
            if self.habitats_used >> action.card & 1:
                return f"Game Layout: {HABITATS[action.card].name} has already been played"
            return None
        if expected is Verb.FIRST:
            if (
                action != Action(Verb.FIRST, player=action.player)
                or not 0 <= action.player < self.num_players
            ):
                return f"Game Turn: the first player must be one of P1-P{self.num_players}"
            return None
        if not (0 <= action.card < len(DECK)) or action != DRAW_ACTIONS[action.card]:
            return f"{section}: no such card to draw"
        if action.card not in self.draw:
            return f"{section}: {DECK[action.card].name} is not in the draw pile"
        return None

    def _why_not_battle(self, action: Action) -> str | None:
        """Why a Battle Phase action is not allowed now (None if it is)."""
        verb, card = action.verb, action.card
        if verb is Verb.END:
            if action != END:
                return "'end' takes no card, player or slot"
            if self.spent < MIN_SOLS_SPENT and self._can_spend():
                return "Sol Laws (Party Game): you must spend at least 1 Sol before ending your turn"
            return None
        if verb is Verb.GROW:
            return self._why_not_grow(action)
        if verb is Verb.DISCARD:
            return self._why_not_discard(action)
        if not (0 <= card < len(DECK)):
            return f"Battle Phase: no such card (id {card})"
        name = DECK[card].name
        if not self._in_hand(card):
            return f"Player Commands: {name} is not in your Command"
        want = {
            Verb.PLANT: Kind.TREE,
            Verb.CLOUD: Kind.CLOUD,
            Verb.TREND: Kind.TREND,
            Verb.DISASTER: Kind.DISASTER,
        }[verb]
        if DECK[card].kind is not want:
            return f"Battle Phase: {name} is a {DECK[card].kind.value} card, not a {want.value} card"
        if verb is Verb.PLANT:
            return self._why_not_plant(action)
        if verb is Verb.DISASTER:
            return self._why_not_disaster(action)
        if action.player != -1 or action.place or action.slot != -1:
            return f"'{verb.value}' takes only a card"
        return self._why_not_afford(self.cost_of(action), f"playing {name}")

    def _why_not_afford(self, cost: int, what: str) -> str | None:
        """Why a cost cannot be paid from the Sols left (None if it can)."""
        if cost > self.sols:
            return (
                f"Sol Laws (Party Game): {what} costs {cost} Sol{'s' if cost != 1 else ''}, "
                f"but you have {self.sols} left"
            )
        return None

    def _why_not_plant(self, action: Action) -> str | None:
        """Why this planting (and attack) is not allowed (None if it is)."""
        tree: TreeCard = DECK[action.card]
        lo = SLOTS * self.mover
        if -1 not in self.under[lo : lo + SLOTS]:
            return "Battle Phase, Plant Trees: both your understory slots are full"
        t, w = self.conditions()
        if not tree.temp_min <= t <= tree.temp_max:
            return (
                f"Battle Phase, Plant Trees: the habitat's temperature {t} is outside {tree.name}'s "
                f"temperature range {tree.temp_min}-{tree.temp_max}"
            )
        if not tree.water_min <= w <= tree.water_max:
            return (
                f"Battle Phase, Plant Trees: the habitat's water {w} is outside {tree.name}'s "
                f"water range {tree.water_min}-{tree.water_max}"
            )
        if action.player != -1 or action.place or action.slot != -1:
            reason = self._why_not_attack(action)
            if reason:
                return reason
        return self._why_not_afford(tree.plant, f"planting {tree.name}")

    def _why_not_attack(self, action: Action) -> str | None:
        """Why the attack named with a planting is not allowed (None if it is)."""
        target, n = action.player, self.num_players
        if not 0 <= target < n:
            return f"Initiate Tree Combat: there is no player P{target + 1} in this {n}-player game"
        if target == self.mover:
            return "Initiate Tree Combat: a tree attacks another player's tree, not your own"
        if action.place == "canopy":
            return "Initiate Tree Combat, rule 2: only understory trees can be attacked (canopy trees cannot)"
        if action.place != "understory":
            return "Initiate Tree Combat: name the understory slot attacked"
        if not 0 <= action.slot < SLOTS:
            return f"Initiate Tree Combat: understory slots are 1-{SLOTS}"
        if self.tree_count(target) < 2:
            return (
                f"Initiate Tree Combat, rule 3: {player_name(target)} has "
                f"{plural(self.tree_count(target), 'tree')}; only a player with at least 2 trees can be attacked"
            )
        if self.under[SLOTS * target + action.slot] < 0:
            return f"Initiate Tree Combat: {player_name(target)}'s understory slot {action.slot + 1} is empty"
        return None

    def _why_not_grow(self, action: Action) -> str | None:
        """Why growing this understory tree into the canopy is not allowed (None if it is)."""
        if action.card != -1 or action.player != -1 or action.place:
            return "'grow' takes only an understory slot number"
        if not 0 <= action.slot < SLOTS:
            return f"Battle Phase, Grow Trees: understory slots are 1-{SLOTS}"
        lo = SLOTS * self.mover
        card = self.under[lo + action.slot]
        if card < 0:
            return f"Battle Phase, Grow Trees: your understory slot {action.slot + 1} is empty"
        if not DECK[card].can_grow:
            return (
                f"Battle Phase, Grow Trees: {DECK[card].name} has no growth cost, "
                "so it cannot reach the canopy"
            )
        if -1 not in self.canopy_slots[lo : lo + SLOTS]:
            return "Battle Phase, Grow Trees: both your canopy slots are full"
        return self._why_not_afford(self.grow_cost(card), f"growing {DECK[card].name}")

    def _why_not_discard(self, action: Action) -> str | None:
        """Why this discard is not allowed (None if it is)."""
        if action.player != -1:
            return "'discard' removes your own cards only"
        if action.place == "hand":
            if action.slot != -1:
                return "'discard' from the Command names a card, not a slot"
            if not self._in_hand(action.card):
                shown = DECK[action.card].name if 0 <= action.card < len(DECK) else f"card {action.card}"
                return f"Player Commands: {shown} is not in your Command"
        elif action.place in ("understory", "canopy"):
            if action.card != -1:
                return "'discard' from a slot names the slot, not a card"
            if not 0 <= action.slot < SLOTS:
                return f"Battle Phase, Discard: {action.place} slots are 1-{SLOTS}"
            slots = self.under if action.place == "understory" else self.canopy_slots
            if slots[SLOTS * self.mover + action.slot] < 0:
                return f"Battle Phase, Discard: your {action.place} slot {action.slot + 1} is empty"
        else:
            return "'discard' takes a card from your Command or an understory/canopy slot"
        return self._why_not_afford(DISCARD_COST, "discarding")

    def _why_not_disaster(self, action: Action) -> str | None:
        """Why unleashing this disaster (on these sides) is not allowed (None if it is)."""
        d: DisasterCard = DECK[action.card]
        h = HABITATS[self.habitat]
        if d.needs_power is not None and h.power is not d.needs_power:
            return (
                f"Battle Phase, Unleash a Disaster: {d.name} needs a habitat with the "
                f"{d.needs_power.value.replace('_', ' ')} power; "
                f"{h.name} has {h.power.value.replace('_', ' ')}"
            )
        if action.place or action.slot != -1:
            return "'disaster' takes a card and, if needed, 'at P<n>'"
        needs_side = d.sides is Sides.ONE or self.game.two_sided
        n = self.num_players
        if needs_side:
            rule = (
                "Game Variations (two-sided disasters)"
                if d.sides is Sides.ALL
                else f"Battle Phase, Unleash a Disaster: {d.name} strikes one player's side"
            )
            if action.player == -1:
                return f"{rule}: choose another player's side with 'at P<n>'"
            if not 0 <= action.player < n:
                return f"{rule}: there is no player P{action.player + 1} in this {n}-player game"
            if action.player == self.mover:
                return f"{rule}: the side chosen must be another player's"
        elif action.player != -1:
            return f"Battle Phase, Unleash a Disaster: {d.name} strikes every side; do not choose one"
        return self._why_not_afford(self.disaster_cost(action.card), f"unleashing {d.name}")

    def _can_spend(self) -> bool:
        """Whether the mover has any Sol-spending action (so ending with 0 spent is not allowed)."""
        if self._legal is not None:
            return any(a.verb is not Verb.END for a in self._legal)
        return bool(self._paid_candidates())

    # ----------------------------------------------------------------- legal actions

    def _candidates(self) -> list[Action]:
        """The actions allowed now (chance outcomes at chance nodes), computed afresh."""
        phase = self.phase
        if phase is Phase.GAME_OVER:
            return []
        if phase is Phase.HABITAT:
            return [HABITAT_ACTIONS[i] for i in range(len(HABITATS)) if not self.habitats_used >> i & 1]
        if phase is Phase.FIRST_PLAYER:
            return [Action(Verb.FIRST, player=p) for p in range(self.num_players)]
        if phase is not Phase.BATTLE:
            return [DRAW_ACTIONS[c] for c in self.draw]
        paid = self._paid_candidates()
        return paid + [END] if self.spent >= MIN_SOLS_SPENT or not paid else paid

    def _paid_candidates(self) -> list[Action]:
        """The Sol-spending actions allowed now (the same checks as why_not, written for speed)."""
        out: list[Action] = []
        sols = self.sols
        if sols <= 0:
            return out
        me, n = self.mover, self.game.num_players
        lo = SLOTS * me
        under, canopy = self.under, self.canopy_slots
        room = under[lo] < 0 or under[lo + 1] < 0
        t, w = self.conditions()
        power = HABITATS[self.habitat].power
        targets = None
        hand = self.hands[me]
        while hand:
            low = hand & -hand
            hand ^= low
            card = low.bit_length() - 1
            kind = KIND[card]
            if kind == 0:  # a tree
                if room and PLANT_COST[card] <= sols and FITS[card][t][w]:
                    out.append(PLANT_ACTIONS[card])
                    if targets is None:
                        targets = self._attack_targets()
                    out.extend(Action(Verb.PLANT, card, p, "understory", i) for p, i in targets)
            elif kind == 3:  # a disaster
                needs = NEEDS_POWER[card]
                if (needs is None or needs is power) and self.disaster_cost(card) <= sols:
                    if ONE_SIDE[card] or self.game.two_sided:
                        out.extend(Action(Verb.DISASTER, card, p) for p in range(n) if p != me)
                    else:
                        out.append(DISASTER_ACTIONS[card])
            elif kind == 1:
                if CLOUD_COST <= sols:
                    out.append(CLOUD_ACTIONS[card])
            elif TREND_COST <= sols:
                out.append(TREND_ACTIONS[card])
            if DISCARD_COST <= sols:
                out.append(DISCARD_HAND_ACTIONS[card])
        if canopy[lo] < 0 or canopy[lo + 1] < 0:
            for i in range(SLOTS):
                card = under[lo + i]
                if card >= 0 and GROW_COST[card] is not None and self.grow_cost(card) <= sols:
                    out.append(GROW_ACTIONS[i])
        if DISCARD_COST <= sols:
            for i in range(SLOTS):
                if under[lo + i] >= 0:
                    out.append(DISCARD_UNDER_ACTIONS[i])
            for i in range(SLOTS):
                if canopy[lo + i] >= 0:
                    out.append(DISCARD_CANOPY_ACTIONS[i])
        return out

    def _attack_targets(self) -> list[tuple[int, int]]:
        """(player, understory slot) pairs the mover's newly planted tree may attack."""
        me, under, canopy = self.mover, self.under, self.canopy_slots
        out = []
        for p in range(self.game.num_players):
            if p == me:
                continue
            lo = SLOTS * p
            slots = under[lo : lo + SLOTS]
            trees = (slots[0] >= 0) + (slots[1] >= 0) + (canopy[lo] >= 0) + (canopy[lo + 1] >= 0)
            if trees >= 2:
                out.extend((p, i) for i in range(SLOTS) if slots[i] >= 0)
        return out

    def legal_actions(self) -> list[Action]:
        """The actions allowed now (at a chance node: its outcomes)."""
        if self._legal is None:
            self._remember("_legal", self._candidates())
        return list(self._legal)

    def winning_action(self) -> Action | None:
        """:func:`treegames.core.winning_action`, faster: only a grow that fills the mover's canopy can win now.

        Capturing a Habitat: with the printed rule only :meth:`_grow` captures, so only a grow, with one
        canopy slot left and this capture the last one needed (Winning), is applied. With
        ``capture_at_round_end`` (our variant) a turn's end may capture: the generic search runs.
        """
        if self.game.capture_at_round_end:
            return core.first_winning_action(self)
        me = self.current_player
        lo = SLOTS * me
        if me < 0 or self.captured[me] + 1 < self.game.habitats_to_win:
            return None
        if self.canopy_slots[lo : lo + SLOTS].count(-1) != 1:
            return None
        for action in self.legal_actions():
            if action.verb is Verb.GROW:
                after = self._apply(action)
                if after.is_terminal() and after.winners() == (me,):
                    return action
        return None

    def can_rival_win_soon(self, me: int) -> bool:
        """Whether a rival of ``me`` has a canopy tree standing and one capture left to win (Capturing a Habitat).

        Without such a rival no move of ``me``'s this turn can hand one a win in one: ``me``'s moves only
        remove rivals' trees, and ``me``'s own capture clears the table.
        """
        to_win = self.game.habitats_to_win
        canopy, captured = self.canopy_slots, self.captured
        return any(
            p != me and captured[p] + 1 >= to_win and canopy[SLOTS * p : SLOTS * p + SLOTS].count(-1) < SLOTS
            for p in range(self.game.num_players)
        )

    def handed_win_chance(self, me: int) -> Fraction:
        """:func:`treegames.core.handed_win_chance`, faster: only the Regroup draws stand between two turns.

        Those draws fill nothing but ``me``'s Command, and a win in one needs no card in hand (a grow, or with
        ``capture_at_round_end`` the end of a round, fills or keeps a canopy: Capturing a Habitat), so one path
        of draws decides it. No one wins in one without a canopy tree standing and one capture left to win;
        no chance event grows a tree, and a capture that does not end the game clears the table (a new habitat
        is drawn on an empty one). So most positions are answered without a draw. A rival's capture at the
        round's end (our variant) that ends the game happens on the path and counts as a game won.
        """
        if self.phase is Phase.GAME_OVER:
            return core.exact_handed_win_chance(self, me)
        if not self.can_rival_win_soon(me):
            return Fraction(0)
        state = self
        while state.current_player == CHANCE:
            if state.phase is not Phase.REGROUP:  # a new habitat: the table was cleared by a capture
                return Fraction(0)
            state = state._apply(DRAW_ACTIONS[state.draw[0]])  # one of the Regroup draws: any one decides
        return core.exact_handed_win_chance(state, me)

    def random_action(self, rng: random.Random) -> Action:
        """A uniformly random legal action (used by core.RandomBot)."""
        if self._legal is None:
            self.legal_actions()
        picked = rng.choice(self._legal)
        self._remember("_picked", picked)  # apply need not check it again
        return picked

    def chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        """At chance nodes, (outcome, probability) pairs summing to 1; [] elsewhere."""
        if self.current_player != CHANCE:
            return []
        acts = self._candidates()
        p = FRACTIONS[len(acts)]
        return [(a, p) for a in acts]

    def sample_chance(self, rng: random.Random) -> Action:
        """A chance outcome drawn with its exact probability (all outcomes here are equally likely)."""
        if self.current_player != CHANCE:
            raise IllegalAction(f"there is no chance event now (phase {self.phase.value!r})")
        if self.phase is Phase.REGROUP or self.phase is Phase.DEAL:
            picked = DRAW_ACTIONS[rng.choice(self.draw)]
            self._remember("_picked", picked)
            return picked
        return rng.choice(self._candidates())

    # ----------------------------------------------------------------- applying

    def _is_known_legal(self, action: object) -> bool:
        """A quick yes for a listed legal action or a plain draw of a card in the pile (else: check fully)."""
        if action is self._picked and action is not None:
            return True
        if action.__class__ is not Action:
            return False
        if type(action.card) is not int or type(action.player) is not int or type(action.slot) is not int:
            return False  # look-alikes such as 1.0 or True go through the full check, which refuses them
        if action.verb is Verb.DRAW and self.phase in DRAW_PHASES:
            return action.card in self.draw and action == DRAW_ACTIONS[action.card]
        return self._legal is not None and action in self._legal

    def apply(self, action: Action | str) -> MightyTreesState:
        """The next state; IllegalAction naming the rule if ``action`` is not allowed (self unchanged).

        ``action`` may be notation text, which is parsed first (NotationError if unreadable).
        """
        if not self._is_known_legal(action):
            if isinstance(action, str):
                action = parse_action(action)
                if self._is_known_legal(action):
                    return self._apply(action)
            reason = self.why_not(action)
            if reason is not None:
                raise IllegalAction(reason)
        return self._apply(action)

    def _apply(self, action: Action) -> MightyTreesState:
        """The next state after a legal ``action``."""
        s = self._child(action)
        verb = action.verb
        if verb is Verb.DRAW:
            s._do_draw(action.card)
        elif verb is Verb.HABITAT:
            s._do_habitat(action.card)
        elif verb is Verb.FIRST:
            s.last_event = f"{player_name(action.player)} is chosen to play first."
            s._start_turn(action.player)
        elif verb is Verb.END:
            s.last_event = (
                f"{player_name(s.mover)} ends the Battle Phase with {plural(s.sols, 'Sol')} unspent (lost)."
            )
            s._regroup()
        else:
            s._do_battle(action)
        s.__class__ = MightyTreesState
        return s

    def _do_habitat(self, habitat: int) -> None:
        """Put the drawn habitat card in play."""
        self.habitat = habitat
        self.habitats_used |= 1 << habitat
        self.last_event = f"The habitat is {HABITATS[habitat].name}."
        if self.turn == 0:
            self.phase = Phase.DEAL
        else:  # a new habitat after a capture (Game Variations: capture 2 habitats): the next round begins
            self._start_turn((self.mover + 1) % self.game.num_players)

    def _do_draw(self, card: int) -> None:
        """Move a drawn card into the receiving player's Command."""
        pile = self.draw
        i = pile.index(card)
        self.draw = pile[:i] + pile[i + 1 :]
        if self.phase is Phase.DEAL:
            receiver = self.dealt % self.game.num_players
            self.dealt += 1
            self._give(receiver, card)
            self.last_event = f"{player_name(receiver)} is dealt a card."
            if self.dealt == COMMAND_SIZE * self.game.num_players:
                self.phase = Phase.FIRST_PLAYER
            elif not self.draw:  # cannot happen with 72 cards and 6 players, but stay safe
                self.phase = Phase.FIRST_PLAYER
        else:
            self._give(self.mover, card)
            self.last_event = f"{player_name(self.mover)} draws a card."
            self._regroup()

    def _give(self, player: int, card: int) -> None:
        """Add a card to a player's Command."""
        hands = self.hands
        self.hands = hands[:player] + (hands[player] | 1 << card,) + hands[player + 1 :]

    def _take(self, player: int, card: int) -> None:
        """Remove a card from a player's Command."""
        hands = self.hands
        self.hands = hands[:player] + (hands[player] & ~(1 << card),) + hands[player + 1 :]

    def _regroup(self) -> None:
        """Regroup Phase: draw until 3 cards are in the Command, then the next player's turn."""
        if self.hands[self.mover].bit_count() >= COMMAND_SIZE or not (self.draw or self.litter):
            self._start_turn((self.mover + 1) % self.game.num_players)
            return
        if not self.draw:  # Game Layout: the litter is turned over as the new draw pile
            self.draw, self.litter, self.litter_top_id = tuple(bits(self.litter)), 0, -1
            self.last_event += " The litter pile becomes the new draw pile."
        self.phase = Phase.REGROUP
        self.sols = 0

    def _start_turn(self, player: int) -> None:
        """Mobilization Phase: the player's weather ages, then 3 Sols (or max_turns ends the game).

        After a capture at once (the printed rule) with a habitat still to come, the new habitat is
        drawn first.  With ``capture_at_round_end`` (our variant), when a round has just ended (every
        player has had the same number of turns), or max_turns is reached, a player with 2 canopy
        trees captures the habitat first (:meth:`_round_capturer`).
        """
        n = self.game.num_players
        if self.habitat < 0:  # Game Variations (capture 2 habitats): the next habitat is drawn first
            self.phase, self.sols = Phase.HABITAT, 0
            return
        if self.game.capture_at_round_end and self.turn > 0 and (
            self.turn % n == 0 or self.turn >= self.game.max_turns
        ):
            capturer = self._round_capturer(player)
            if capturer >= 0:
                self._capture(capturer)
                if self.phase is Phase.HABITAT:  # capture 2 habitats: the new habitat comes first
                    return
                if self.phase is Phase.GAME_OVER:
                    return
        self.mover = player
        self.turn += 1
        if self.turn > self.game.max_turns:
            self.phase, self.sols, self.spent = Phase.GAME_OVER, 0, 0
            self.last_event += f" The game ends in a draw after {self.game.max_turns} turns (max_turns)."
            return
        if self.weather_items:
            kept, litter = [], self.litter
            for card, owner, rounds in self.weather_items:
                if owner == player:
                    rounds -= 1
                if rounds > 0:
                    kept.append((card, owner, rounds))
                else:
                    litter |= 1 << card
                    self.litter_top_id = card
                    self.last_event += f" {DECK[card].name} leaves play."
            self.weather_items, self.litter = tuple(kept), litter
        self.phase, self.sols, self.spent = Phase.BATTLE, SOLS_PER_TURN, 0

    def _remove_tree(self, slots: list[int], index: int) -> str:
        """Send the tree in ``slots[index]`` to the litter; its name."""
        card = slots[index]
        slots[index] = -1
        self.litter |= 1 << card
        self.litter_top_id = card
        return DECK[card].name

    def _do_battle(self, action: Action) -> None:
        """Pay for and resolve a Sol-spending Battle Phase action."""
        me, verb = self.mover, action.verb
        cost = self.cost_of(action)
        self.sols -= cost
        self.spent += cost
        who = player_name(me)
        if verb is Verb.PLANT:
            self._take(me, action.card)
            under = list(self.under)
            slot = under.index(-1, SLOTS * me, SLOTS * me + SLOTS)
            under[slot] = action.card
            self.last_event = (
                f"{who} plants {DECK[action.card].name} in understory slot {slot - SLOTS * me + 1}."
            )
            if action.player >= 0:
                self.last_event += " " + self._combat(under, slot, SLOTS * action.player + action.slot)
            self.under = tuple(under)
        elif verb is Verb.GROW:
            self._grow(action.slot)
        elif verb is Verb.DISCARD:
            if action.place == "hand":
                self._take(me, action.card)
                self.litter |= 1 << action.card
                self.litter_top_id = action.card
                self.last_event = f"{who} discards {DECK[action.card].name} from the Command."
            else:
                slots = list(self.under if action.place == "understory" else self.canopy_slots)
                name = self._remove_tree(slots, SLOTS * me + action.slot)
                if action.place == "understory":
                    self.under = tuple(slots)
                else:
                    self.canopy_slots = tuple(slots)
                self.last_event = f"{who} removes {name} from {action.place} slot {action.slot + 1}."
        elif verb is Verb.CLOUD:
            self._take(me, action.card)
            self.weather_items += ((action.card, me, CLOUD_ROUNDS),)
            self.last_event = f"{who} places the cloud {DECK[action.card].name}."
        elif verb is Verb.TREND:
            self._take(me, action.card)
            self._trend(action.card)
        else:
            self._take(me, action.card)
            self._disaster(action.card, action.player)
        if self.phase is Phase.BATTLE and self.sols == 0:
            self._regroup()

    def _combat(self, under: list[int], attacker: int, defender: int) -> str:
        """Initiate Tree Combat: attacker's sun against defender's shade (preferred +2); what happened."""
        a, d = under[attacker], under[defender]
        sun, shade = self.strength(a, "sun"), self.strength(d, "shade")
        duel = f"Its sun {sun} meets {DECK[d].name}'s shade {shade}:"
        if sun > shade:
            self._remove_tree(under, defender)
            return f"{duel} {DECK[d].name} dies and goes to the litter."
        if sun < shade:
            self._remove_tree(under, attacker)
            return f"{duel} the attacker {DECK[a].name} dies and goes to the litter."
        return f"{duel} a tie; both trees stand."

    def _round_capturer(self, first: int) -> int:
        """Who captures at the end of a round: a player with 2 canopy trees, or -1 for nobody.

        Only with ``capture_at_round_end`` (our variant, a departure from the rule sheet's "the first
        player to have 2 canopy trees"): capture is settled when a round ends, so every player has had
        as many turns.  If several players have 2 canopy trees,
        the one with the most trees on their side wins it; if still tied, the one earliest in the
        round (``first`` opens each round), who had them first.
        """
        n = self.game.num_players
        full = [p for p in range(n) if -1 not in self.canopy_slots[SLOTS * p : SLOTS * p + SLOTS]]
        if not full:
            return -1
        return max(full, key=lambda p: (self.tree_count(p), -((p - first) % n)))

    def _grow(self, slot: int) -> None:
        """Grow Trees: move an understory tree into an empty canopy slot; a second canopy tree captures at once.

        Capturing a Habitat: the first player to have 2 canopy trees wins the habitat, so the action
        that grows the second one captures it (and usually ends the game).  With
        ``capture_at_round_end`` (our variant) the capture waits for the round's end instead.
        """
        me = self.mover
        lo = SLOTS * me
        under, canopy = list(self.under), list(self.canopy_slots)
        card = under[lo + slot]
        under[lo + slot] = -1
        target = canopy.index(-1, lo, lo + SLOTS)
        canopy[target] = card
        self.under, self.canopy_slots = tuple(under), tuple(canopy)
        self.last_event = f"{player_name(me)} grows {DECK[card].name} into canopy slot {target - lo + 1}."
        if -1 not in canopy[lo : lo + SLOTS]:
            if self.game.capture_at_round_end:
                self.last_event += (
                    f" {player_name(me)} has 2 canopy trees: if both still stand when this round ends, "
                    f"{player_name(me)} captures the habitat (our variant, capture_at_round_end)."
                )
            else:
                self._capture(me)

    def _capture(self, me: int) -> None:
        """Capturing a Habitat: player ``me`` takes it; that wins, or (capture-2 variation) a new habitat."""
        captured = list(self.captured)
        captured[me] += 1
        self.captured = tuple(captured)
        rivals = [
            player_name(p)
            for p in range(self.game.num_players)
            if p != me and -1 not in self.canopy_slots[SLOTS * p : SLOTS * p + SLOTS]
        ]
        at_once = not self.game.capture_at_round_end
        if at_once:
            self.last_event += (
                f" Capturing a Habitat: {player_name(me)} is the first to have 2 canopy trees and captures "
                f"{HABITATS[self.habitat].name} at once!"
            )
        else:
            tie = (
                f" ({', '.join(rivals)} also had 2; {player_name(me)} has the most trees, "
                "or came first in the round)"
                if rivals
                else ""
            )
            self.last_event += (
                f" The round is over: {player_name(me)} has 2 canopy trees and captures "
                f"{HABITATS[self.habitat].name} (our variant, capture_at_round_end)!{tie}"
            )
        if captured[me] >= self.game.habitats_to_win or self.habitats_used.bit_count() == len(HABITATS):
            if captured[me] >= self.game.habitats_to_win:
                self.winner = me
                self.last_event += f" {player_name(me)} wins (Winning)."
            self.phase, self.sols = Phase.GAME_OVER, 0
            return
        litter, top = self.litter, self.litter_top_id  # cleared in this order: trees, weather, trends
        for c in self.under + self.canopy_slots:
            if c >= 0:
                litter |= 1 << c
                top = c
        for card, _owner, _rounds in self.weather_items:
            litter |= 1 << card
            top = card
        for card in self.trends:
            litter |= 1 << card
            top = card
        self.litter, self.litter_top_id = litter, top
        self.under = self.canopy_slots = (-1,) * len(self.under)
        self.weather_items = ()
        self.trends = ()
        self.habitat = -1
        if at_once:  # the capturer's turn ends: Sols left are lost, Regroup, then the new habitat is drawn
            self.last_event += " The habitat is cleared; after the Regroup Phase a new one is drawn."
            self._regroup()
            return
        self.phase, self.sols = Phase.HABITAT, 0
        self.last_event += " The habitat is cleared and a new one is drawn."

    def _kill_off_axis(self, sides: list[int], targets: Targets, axis: Element) -> list[tuple]:
        """Trees on ``sides`` (in ``targets`` slots) whose range on ``axis`` misses the current value die.

        Our interpretation: a climate card changes one axis (water or temperature), so it kills only the
        trees whose range on that axis no longer holds; a tree that took root under a cloud that has
        since gone is not killed for the other axis.  Each reached tree's fate is returned (see _kill_where).
        """
        t, w = self.conditions()
        if axis is Element.TEMPERATURE:
            return self._kill_where(sides, targets, lambda c: not DECK[c].temp_min <= t <= DECK[c].temp_max)
        return self._kill_where(sides, targets, lambda c: not DECK[c].water_min <= w <= DECK[c].water_max)

    def _kill_where(self, sides: list[int], targets: Targets, dies: Callable[[int], bool]) -> list[tuple]:
        """Trees on ``sides`` (in ``targets`` slots) for which ``dies(card)`` holds go to the litter.

        Every reached tree is returned as (side, place, slot, card, survived), understory first.
        """
        reached = []
        for name, place in (("under", "understory"), ("canopy_slots", "canopy")):
            if (name == "under" and targets is Targets.CANOPY) or (
                name != "under" and targets is Targets.UNDERSTORY
            ):
                continue
            slots = list(getattr(self, name))
            for p in sides:
                lo = SLOTS * p
                for i in range(lo, lo + SLOTS):
                    card = slots[i]
                    if card >= 0:
                        if dies(card):
                            self._remove_tree(slots, i)
                            reached.append((p, place, i - lo, card, False))
                        else:
                            reached.append((p, place, i - lo, card, True))
            setattr(self, name, tuple(slots))
        return reached

    def _report(
        self, card: int, sides: list[int], targets: Targets, element: Element, force: int | None, reached: list
    ) -> list[str]:
        """Keep what a disaster or trend did for :attr:`last_strike` (words built on demand); the dead trees' names."""
        value = None
        if force is None:
            value = self.conditions()[0 if element is Element.TEMPERATURE else 1]
        self._strike = (card, self.mover, tuple(sides), targets, element, force, value, reached, self.habitat)
        return [DECK[r[3]].name for r in reached if not r[4]]

    def _trend(self, card: int) -> None:
        """A trend card: a lasting change; trees whose range on its axis no longer holds die."""
        trend: TrendCard = DECK[card]
        self.trends += (card,)
        sides = list(range(self.game.num_players))
        fates = self._kill_off_axis(sides, Targets.ALL, trend.affects)
        dead = self._report(card, sides, Targets.ALL, trend.affects, None, fates)
        self.last_event = (
            f"{player_name(self.mover)} plays {trend.name}: {trend.affects.value} "
            f"{trend.change:+d} for good. " + words.deaths(dead)
        )

    def _disaster_sides(self, d: DisasterCard, chosen: int) -> list[int]:
        """The sides a disaster strikes: one chosen side, everyone's, or (variation) the caster's and one."""
        if d.sides is Sides.ONE:
            return [chosen]
        if self.game.two_sided:
            return [self.mover, chosen]
        return list(range(self.game.num_players))

    def _disaster(self, card: int, chosen: int) -> None:
        """Unleash a Disaster: fire/wind against strengths, or water/temperature against ranges."""
        d: DisasterCard = DECK[card]
        sides = self._disaster_sides(d, chosen)
        who = player_name(self.mover)
        if d.is_climate:
            lingers = d.linger > 0 and self.game.lingering
            self.weather_items += ((card, self.mover, d.linger if lingers else 1),)
            fates = self._kill_off_axis(sides, d.targets, d.element)
            dead = self._report(card, sides, d.targets, d.element, None, fates)
            if not lingers:  # it passes at once
                self.weather_items = self.weather_items[:-1]
                self.litter |= 1 << card
                self.litter_top_id = card
            how = f"{d.element.value} {d.strength:+d}" + (
                f", lingering {plural(d.linger, 'round')}" if lingers else ""
            )
        else:
            h = HABITATS[self.habitat]
            force = d.strength + (h.fire_mod if d.element is Element.FIRE else h.wind_mod)
            fates = self._strike_trees(sides, d.targets, d.element.value, force)
            dead = self._report(card, sides, d.targets, d.element, force, fates)
            self.litter |= 1 << card
            self.litter_top_id = card
            how = f"{d.element.value} force {force}"
        self.last_event = f"{who} unleashes {d.name} ({how}). " + words.deaths(dead)

    def _strike_trees(self, sides: list[int], targets: Targets, kind: str, force: int) -> list[tuple]:
        """Fire or wind: trees whose strength (preferred +2) is below ``force`` die; every reached tree's fate."""
        return self._kill_where(sides, targets, lambda card: self.strength(card, kind) < force)

    # ----------------------------------------------------------------- notation

    def parse_action(self, text: str) -> Action:
        """The action written ``text`` in notation (as str(action) writes it); NotationError if unreadable."""
        return parse_action(text)

    def actions_at(self, place: str) -> list[Action]:
        """The legal actions that involve one place, for views turning a click into actions.

        A place is a card name (the actions playing or discarding that card, or drawing
        it at a chance node), ``"P2"`` (a player's side: attacks on it, disasters at
        it, choosing P2 first) or ``"P2 understory 1"`` / ``"P2 canopy 1"`` (one slot:
        growing or discarding the mover's tree there, or attacking the tree there).
        NotationError if ``place`` names none of these.
        """
        core.check_notation(place, NotationError)
        text = " ".join(place.split())
        m = _PLACE.fullmatch(text)
        if m:
            player = int(m.group(1)) - 1
            if not (m.group(1).isascii() and 0 <= player < self.num_players):
                raise NotationError(f"{core.quote(place)}: there is no player {m.group(1)} in this game")
            if m.group(2) is None:
                return [a for a in self.legal_actions() if a.player == player and a.verb is not Verb.GROW]
            where, slot = m.group(2).lower(), int(m.group(3)) - 1
            if not (m.group(3).isascii() and 0 <= slot < SLOTS):
                raise NotationError(f"{core.quote(place)}: slots are 1-{SLOTS}")
            out = []
            for a in self.legal_actions():
                if player == self.mover and a.slot == slot and (
                    (a.verb is Verb.GROW and where == "understory")
                    or (a.verb is Verb.DISCARD and a.place == where)
                ):
                    out.append(a)
                elif a.verb is Verb.PLANT and a.player == player and a.place == where and a.slot == slot:
                    out.append(a)
            return out
        try:
            card = card_by_name(text).id
        except KeyError:
            raise NotationError(
                f"{core.quote(place)} is not a place: name a card, a player 'P<n>' or a slot "
                f"'P<n> understory|canopy <1-{SLOTS}>'"
            ) from None
        return [a for a in self.legal_actions() if a.card == card and a.verb is not Verb.HABITAT]

    # ----------------------------------------------------------------- words

    def describe(self, action: Action | str, viewer: int | None = None) -> str:
        """Plain words for what ``action`` (or its notation) does, with its Sol cost.

        With a ``viewer`` (a player, or PUBLIC), a drawn card is named only to the player receiving it.
        """
        if isinstance(action, str):
            action = parse_action(action)
        return words.describe(self, action, viewer)

    def explain(self, viewer: int | None = None) -> str:
        """Plain words on what the rules say now, naming the rulebook section.

        With a ``viewer`` (a player number, or PUBLIC for a covered screen) it names only the cards
        ``view_for(viewer)`` shows: another player's Command is given as a count.  None: every card.
        """
        return words.explain(self, viewer)


_PLACE = re.compile(r"p(\d+)(?: (understory|canopy) (\d+))?", re.IGNORECASE)
