"""Mighty Trees, the Party Game (Timber Version): the rules engine (no UI imports).

Source: ``mighty-trees-timber-party.txt`` (revised 9/2002).  That text points
to a Guidebook and to cards we do not have; the missing pieces are designed
here and listed under *Our interpretation*.

Use ``new_game(players=2, **options)`` -> :class:`MightyTreesGame`; its
``new_initial_state()`` follows the ``treegames.core`` protocol.  ``GAME_TYPE``
declares the game (2-6 players, chance, hidden hands) and its option schema
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
* [Capturing a Habitat / Winning] The first player with 2 canopy trees
  captures the habitat and wins (when "first" is settled: see below).

Our interpretation (where the rulebook is silent)
------------------------------------------------
* Cards: the 50 tree cards are real species native to the southeastern United
  States with true USDA hardiness zones (temperature range, capped at 1-9) and
  water preference (the card's colour: dry, balanced, wet, with a matching
  water range on the 1-9 scale); ``cards/trees.csv`` names its references.
  **Sol costs and strengths are our own design**, balanced by checked rules:
  sun + shade + fire + wind = 8 + 2 x (planting + growth Sols), and every
  planting and growth costs 2 or 3 Sols (so planting and growing never share
  a 3-Sol turn and a capture takes at least four turns; every tree can reach
  the canopy).  Cloud, trend, disaster and habitat cards are our own design,
  in ``cards/*.csv`` (see :mod:`.data`).  Issue 12's balance pass measured
  and set every number: ``benchmarks/bench_mighty_trees_balance.py`` prints
  each figure (game length, draws, seat shares, cards played, kills) against
  its target.
* Tree combat (free: it is part of planting, no extra Sols): the attacker's
  sun strength against the defender's shade strength, each +2 if the habitat
  prefers that species.  Higher wins; the loser dies and goes to the litter.
  A tie leaves both trees standing.  You can only attack another player.
* Current conditions = the habitat card's temperature and water, plus every
  trend, cloud and lingering disaster card in play, kept within 1-9.
  Planting is checked against them.
* Climate cards kill on their own axis only: a trend or a water/temperature
  disaster kills a tree only if the tree's range on the axis that card
  changes (water, or temperature) no longer holds the current value.  A tree
  planted under a cloud that has since gone is not killed for the other axis.
  A card leaving play (a cloud, a lingering disaster) kills nothing.
* Clouds: +/- water or temperature until the start of their player's next
  turn (``CLOUD_ROUNDS`` = 1), so a cloud opens a planting window.  Clouds
  never kill trees.
* Trends: a lasting change: the card stays in play beside the habitat for as
  long as that habitat is in play (so the 4 trend cards bound how far a
  climate can drift); at once, every tree on every side whose range on the
  trend's axis no longer holds dies.
* Disasters: fire and wind disasters have a force: disaster strength + the
  habitat's fire (or wind) modifier; each struck tree whose fire (or wind)
  strength, +2 if preferred, is below the force dies.  Water and temperature
  disasters (Flood, Drought, Hard Freeze, Heat Wave) change the conditions;
  each struck tree whose range on that axis no longer holds dies.  Those four
  linger: the card stays in play, its change in force (for planting), for
  ``linger`` rounds (until the start of its player's turn that many turns
  later), then goes to the litter.  Which trees (understory, canopy, all) and
  sides (everyone's, or one chosen other player's, for Tornado) are on the
  card.  Every disaster can be unleashed in every habitat, and none kills
  more than half of the species that can be planted in any habitat.
* Habitat powers (one per habitat, each a 1-Sol discount): rich soil
  (growing costs 1 less, never below 2); fire season, hurricane coast,
  floodplain, high elevation (fire, wind, water, temperature disasters cost 1
  less, never below 1).
* Capturing (our reading of "the first player to have 2 canopy trees"):
  capture is settled when a round ends, so every player has had as many
  turns.  Growing a second canopy tree does not end the turn; if both canopy
  trees still stand when the round ends (after the last seat's turn), their
  player captures the habitat.  If several players hold 2 canopy trees then,
  the one with the most trees on their side captures; if still tied, the one
  earliest in the round (who had them first).  With capture at the moment
  of growing, the first seat won 55-57% of greedy 2-player games; settled at
  the round's end (and GreedyBot filling its understory first), 52%.
* A player with no Sol-spending action at all may ``end`` with 0 Sols spent
  (the 1-Sol minimum cannot be met).  If the draw and litter piles are both
  empty, Regroup draws nothing.
* ``max_turns`` (turns in all, counting every player's turns; the default 0
  means 30 turns per player: 60 at 2 players, 180 at 6): a game nobody has
  won by then ends as a draw (no winner), so every game ends.  A capture due
  when the limit is reached is settled first.

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

Notation
--------
``habitat Southern Appalachian Cove``, ``draw Quercus marilandica``,
``first P2``, ``plant Quercus alba``,
``plant Quercus alba attack P2 understory 1``, ``grow 1``,
``discard Cumulonimbus``, ``discard understory 2``, ``discard canopy 1``,
``cloud Cumulonimbus``, ``trend Warming Trend``, ``disaster Wildfire``,
``disaster Tornado at P2``, ``end``.  Players are P1-P6, slots 1-2.

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
    bots={"greedy": GreedyBot, "random": RandomBot},
)
"""What Mighty Trees is: 2-6 players, chance (habitat, deal, draws, first player), hidden hands, its options."""

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
