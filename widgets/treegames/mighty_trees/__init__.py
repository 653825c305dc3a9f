"""Mighty Trees, the Party Game (Timber Version): the rules engine (no UI imports).

Source: ``mighty-trees-timber-party.txt`` (revised 9/2002).  That text points
to a Guidebook and to cards we do not have; the missing pieces are designed
here and listed apart from our departures from its text (two lists, below).

Use ``new_game(players=2, **options)`` -> :class:`MightyTreesGame`; its
``new_initial_state()`` follows the ``treegames.core`` protocol.  ``GAME_TYPE``
declares the game (2-8 players, chance, hidden hands) and its option schema
(``OPTIONS``).  Modules: :mod:`.data` (the cards and the rulebook's numbers),
:mod:`.actions` (phases, verbs, the Action value and notation), :mod:`.words`
(explanations and descriptions), :mod:`.engine` (the game and its states),
:mod:`.bots` (GreedyBot).

The rules as implemented (rulebook section in brackets)
-------------------------------------------------------
* [Game Layout] One habitat card is drawn at random (a chance node) and shared
  by all; each player has 2 understory and 2 canopy slots.  The 72-card draw
  pile (50 trees, 8 clouds, 4 trends, 10 disasters) has no order: each draw is
  a chance node where every card left is equally likely.  Discards go to the
  face-up litter pile, which becomes the new draw pile when the draw pile is
  empty.
* [Player Commands] Each player is dealt 3 cards (one at a time, P1 first).
  [Game Turn] The first player is chosen at random (a chance node); turns then
  go round in seat order (after P2 comes P3, after the last player P1).
* [Mobilization Phase] A turn starts with 3 Sols.
* [Battle Phase / Sol Laws] Spend Sols on: planting a tree from the Command
  into an empty understory slot (its planting cost; the habitat's current
  temperature and water must lie within the tree's ranges); growing an
  understory tree into an empty canopy slot (its growth cost); discarding a card from the Command,
  understory or canopy (1 Sol); a cloud card (1 Sol); a trend card (2 Sols); a
  disaster (its own cost).  At least 1 Sol must be spent; unspent Sols are
  lost.  The Battle Phase ends with ``end`` or when no Sols are left.
* [Initiate Tree Combat] Only a tree being planted may attack, only then; only
  understory trees can be attacked; only a player with at least 2 trees
  (understory plus canopy) can be attacked; combat is optional.
* [Regroup Phase] Draw until 3 cards are in the Command; that ends the turn.
* [Capturing a Habitat / Winning] The first player to have 2 canopy trees
  captures the habitat: the action that grows a player's second canopy tree
  captures it at once, before anyone else moves, and capturing 1 habitat wins
  the game (``words.CAPTURE_AT_ONCE``).  Our round-end variant is a named
  option, listed below under the departures.
* [# of Players] 2 to 6, "more can play": 7 and 8 seats are allowed (below).

Where the rule sheet is silent (our interpretation; ``words.SILENT``)
--------------------------------------------------------------------
The same words are shown by the rules walkthrough and, for the options, by
the New game form.

* cards: The rule sheet points to a Guidebook and to cards we do not have. Our
  50 tree cards are real trees of the south-eastern United States: a tree's
  temperature range is its USDA hardiness zones and its colour its water
  preference. The Sol costs and the sun, shade, fire and wind strengths, and
  every cloud, trend, disaster and habitat card, are our own design
  (cards/*.csv). Balanced by checked rules: sun + shade + fire + wind = 8 + 2
  x (planting + growth Sols), and every planting and growth costs 2 or 3 Sols
  (so planting and growing never share a 3-Sol turn and a capture takes at
  least four turns; every tree can reach the canopy). Issue 12's balance pass
  measured and set every number (see :mod:`.data`);
  ``benchmarks/bench_mighty_trees_balance.py`` prints each figure against its
  target.
* selection: 'Select 1 habitat card' and 'Select 1st Player' do not say how:
  both are drawn at random (chance), and turns then go round in seat order.
* combat: The rule sheet says when combat may happen, not how it is decided.
  Ours: the attacker's sun strength against the defender's shade strength,
  each +2 if the habitat prefers that species; the higher wins and the loser
  goes to the litter; a tie leaves both standing. Combat is part of planting
  and costs no extra Sol. You can only attack another player.
* conditions: The habitat's conditions now are its card's temperature and
  water plus every trend, cloud and lingering disaster in play, kept within
  1-9; a tree is planted only if both lie inside its ranges.
* cloud: A cloud changes water or temperature until the start of its player's
  next turn (our duration; clouds never kill trees).
* trend: A trend stays beside the habitat for as long as that habitat is in
  play, and at once every tree whose range on the trend's axis (water or
  temperature) no longer holds the new value dies (our reading of a lasting
  climate change). The 4 trend cards bound how far a climate can drift.
* linger: Water and temperature disasters linger: the card stays in play, its
  change in force, for the rounds printed on it (the 'Ignore lingering'
  variation turns this off). Only trees whose range on that axis no longer
  holds die, and a card leaving play kills nothing. A climate card kills on
  its own axis only: a tree planted under a cloud that has since gone is not
  killed for the other axis. Lingering lasts until the start of its player's
  turn that many turns later (``CLOUD_ROUNDS`` = 1 for clouds), then the card
  goes to the litter.
* strike: A fire or wind disaster has a force (its strength plus the habitat's
  fire or wind modifier); each tree struck whose fire or wind strength is
  lower dies. A preferred species gets +2. Which trees (understory, canopy,
  all) and sides (everyone's, or one chosen other player's, for Tornado) are
  on the card. Every disaster can be unleashed in every habitat, and none
  kills more than half of the species that can be planted in any habitat.
* powers: Each habitat has one power, a 1-Sol discount: rich soil (growing,
  never below 2 Sols), or fire season, hurricane coast, floodplain, high
  elevation (disasters of that element, never below 1 Sol).
* sols: Unspent Sols are lost at the end of the Battle Phase (the rule sheet
  gives 3 a turn, no savings).
* empty piles: If the draw pile and the litter pile are both empty, the
  Regroup Phase draws nothing.
* two habitats: Capture 2 Habitats (a Game Variation) does not say what
  follows a capture. Ours: the capturer's turn ends (Regroup), the habitat is
  cleared (trees, weather and trends to the litter), a new habitat is drawn
  and the next player begins; if the 10 habitats run out, the game is a draw.
* seats: The rule sheet: 2 to 6 players, and more can play, with longer waits
  between turns. We allow 7 and 8: the 72-card deck deals 24 cards and leaves
  48 to draw; in 2000 GreedyBot games at 8 players the litter became the draw
  pile 0.87 times a game, a game lasted a median 6.4 turns per player and 0.2%
  were drawn (benchmarks/bench_mighty_trees_balance.py).

Where we depart from the rule sheet's text (``words.DEPARTURES``)
----------------------------------------------------------------
A rule the text states is never changed silently: each departure is a named
option whose default follows the text where that is feasible, or says why not.

* capture_at_round_end (our variant for fairness; it departs from the rule
  sheet's text): capture waits until the round ends, so every player has had
  as many turns. A rival can still knock a canopy tree down, or grow their own
  second one; if several players hold 2 canopy trees then, the one with the
  most trees captures, and if still tied, the one earliest in the round. Off
  by default. Why someone would propose it: under the printed rule the first
  seat can reach the canopy and win before the later seats have had as many
  turns; the variant evens the turns. benchmarks/bench_mighty_trees_balance.py
  measures both rules side by side.
* ``max_turns``: The rule sheet sets no turn limit and has no draws. max_turns
  (0, the default, means 30 turns per player) ends a game nobody has won as a
  draw, so every game, tournament and lesson ends. The text cannot be the
  default: bots' games would not be sure to end (RandomBot games reach 30
  turns per player about 70% of the time); the largest value, 100000, comes
  closest.
* no Sol to spend: Sol Laws: at least 1 Sol must be spent each turn. A player
  with nothing at all to spend it on (an empty Command and no trees, possible
  only when both piles are empty) may end with 0 spent. No option: the printed
  rule would leave that player without any legal move.

Game Variations (named options)
-------------------------------
* ``without_quercus_marilandica=False``: True removes that tree (71 cards).
* ``habitats_to_win=1``: 2 means capture 2 habitats to win; a captured habitat
  is cleared (every tree, trend, cloud and lingering disaster to the
  litter), a new habitat is drawn (chance) and the next round begins.
  If the 10 habitats run out, the game ends as a draw.
* ``ignore_lingering=False``: True makes water and temperature disasters
  strike once and go straight to the litter.
* ``two_sided_disasters=False``: True makes disasters that strike every side
  strike only the caster's side and one other side the caster chooses
  (``disaster Wildfire at P2``).
* ``capture_at_round_end=False``: our variant, not a Game Variation of the rule
  sheet (see the departures above).

Notation
--------
``habitat Southern Appalachian Cove``, ``draw Quercus marilandica``,
``first P2``, ``plant Quercus alba``,
``plant Quercus alba attack P2 understory 1``, ``grow 1``,
``discard Cumulonimbus``, ``discard understory 2``, ``discard canopy 1``,
``cloud Cumulonimbus``, ``trend Warming Trend``, ``disaster Wildfire``,
``disaster Tornado at P2``, ``end``.  Players are P1-P8, slots 1-2.

State accessors (for widgets)
-----------------------------
``phase`` (:class:`Phase`), ``current_player``, ``mover``, ``turn``,
``habitat_card``, ``conditions()`` / ``temperature`` / ``water`` (after
weather), ``understory(p)``, ``canopy(p)``, ``hand(p)``, ``tree_count(p)``,
``sols``, ``spent``, ``draw_size``, ``litter_cards``, ``litter_top`` (the card
discarded last, face up on the pile, or None), ``weather`` (clouds and
lingering disasters as (card, owner, rounds left)), ``lingering``,
``trend_cards``, ``captured``, ``last_event`` (what just happened; it never
names a card in a Command or the draw pile), ``last_strike`` (after a disaster
or trend: a :class:`Strike` with the sides struck, the force or changed axis
and each reached tree's :class:`TreeFate` and reason, else None),
``describe(action, viewer=None)``, ``explain(viewer=None)`` (with a viewer, a
player or ``PUBLIC``, only the cards that viewer may see are named),
``why_not(action)``, ``cost_of(action)``, ``strength(card, kind)``,
``grow_cost(card)``, ``disaster_cost(card)``; card data helpers ``printed_cost(card)``
(the cost printed on a card) and ``climate_change(card)`` ((axis, change) or None),
``actions_at(place)`` (a card name, ``"P2"`` or ``"P2 understory 1"``),
``view_for(player)`` (a :class:`PlayerView` without other hands or the draw
pile's contents), ``cards_in_play()``.

Bots
----
``core.RandomBot(rng)`` works (it uses ``state.random_action``); :class:`GreedyBot`
(``GreedyBot(rng)``) is described in :mod:`.bots`.  ``apply`` takes an action or its
notation; unreadable notation raises :class:`NotationError`, an ``IllegalAction``.
"""

from ..core import GameType, RandomBot
from .actions import Action, NotationError, Phase, Verb, parse_action
from .bots import GreedyBot
from .data import (
    CardDataError,
    CloudCard,
    DisasterCard,
    HabitatCard,
    Kind,
    Power,
    TreeCard,
    TrendCard,
    WaterPref,
    card_by_name,
    climate_change,
    draw_pile_cards,
    habitat_by_name,
    habitat_cards,
    printed_cost,
)
from .engine import (
    OPTION_DEFAULTS,
    OPTIONS,
    PLAYERS,
    PUBLIC,
    MightyTreesGame,
    MightyTreesState,
    PlayerView,
    Strike,
    TreeFate,
    new_game,
)

GAME_TYPE = GameType(
    name="mighty_trees",
    title="Mighty Trees",
    players=PLAYERS,
    has_chance=True,
    has_hidden_information=True,
    options=OPTIONS,
    bots={"greedy": GreedyBot, "random": RandomBot},  # the plug-in (plugin.py) adds the coach
)
"""What Mighty Trees is: 2-8 players, chance (habitat, deal, draws, first player), hidden hands, its options."""

__all__ = [
    "GAME_TYPE",
    "new_game",
    "MightyTreesGame",
    "MightyTreesState",
    "PlayerView",
    "Strike",
    "TreeFate",
    "PUBLIC",
    "Phase",
    "Verb",
    "Action",
    "NotationError",
    "OPTIONS",
    "OPTION_DEFAULTS",
    "parse_action",
    "GreedyBot",
    "draw_pile_cards",
    "habitat_cards",
    "card_by_name",
    "habitat_by_name",
    "printed_cost",
    "climate_change",
    "CardDataError",
    "Kind",
    "Power",
    "WaterPref",
    "TreeCard",
    "CloudCard",
    "TrendCard",
    "DisasterCard",
    "HabitatCard",
]
