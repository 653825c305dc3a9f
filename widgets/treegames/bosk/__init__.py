"""Bosk (Floodgate Games, 2019): the rules engine (no UI imports).

Players grow trees on the trail intersections of a national park in spring,
score each trail in summer, blow leaves across the park's terrain in autumn,
and score each terrain region in winter.

Use ``new_game(players=2, **options)`` and follow the ``treegames.core``
protocol.  The flow of phases (:class:`Phase`) is::

    start player (chance) -> spring x 8 per player -> summer (one action)
    -> initial wind -> 8 rounds of [falling leaves -> leaf placement | squirrel]
    -> winter (one action) -> game over

Notation (see :mod:`treegames.bosk.data` for coordinates)
----------------------------------------------------------
``start player 2`` (chance), ``tree 3 at c4``, ``score summer``,
``wind from north`` (the wind board goes on the north side, so the wind blows
south), ``autumn tree d5 tile 6`` / ``autumn tree d5 tile squirrel``,
``leaf E6``, ``squirrel F7``, ``score winter``.  Squares are capital letter +
row (``C4``, row 1 north, column A west); intersections are lower case, and
intersection ``c4`` is the north-west corner of square ``C4``.

What the UI reads
-----------------
``game.park`` (:class:`Park`: ``size``, ``terrain`` per square as region
indices, ``region_names``, ``interior_intersections()``, ``first_squares`` /
``ahead_squares`` wind geometry); on a state: ``phase``, ``current_player``,
``start_player``, ``round`` / ``wind_spot``, ``wind_direction``,
``required_tree_value``, ``trees_on_board()``, ``trees_in_hand(p)``,
``trees_standing(p)``, ``leaf_tiles(p)``, ``supply_of(p)``, ``active_of(p)``,
``pile(row, col)``, ``top_leaf(row, col)``, ``controller(row, col)``,
``squirrel_squares()``, ``selected_tree``, ``selected_tile``, ``path_head``,
``summer_scores``, ``winter_scores``, ``scores()``, ``legal_actions()``,
``describe(action)``, ``last_event`` (a property), ``explain()``, ``previous``,
``actions_at(place)`` (an intersection ``"c4"``, a square ``"C4"`` or a side of
the park ``"north"`` for the wind board), ``covering_cost(row, col)`` (leaves the
mover's next leaf there sends back), ``wind_board`` (:class:`WindBoard`: its
side, its :class:`WindSpot` arrows and required values, the marker) and
``game.wind_spots(side)`` (the board if placed on a side), ``leaf_path()`` (this
turn's leaves so far), ``last_decision`` (:class:`Decision`: who the last action
made start player or winner, from which values, with any tie-break) and
``decision_text()`` (its sentence, also in ``last_event``); and the
teaching functions ``summer_points``, ``winter_points``, ``summer_table``,
``winter_table`` (lists of :class:`ScoreRow`).

Our interpretation
------------------
Where the rulebook is silent (or its diagrams are missing) we decided as
follows.  Each choice lives in one place, as data or a named option.

* **Park boards** (``bosk/boards/*.txt``): the 2-player side is 7x7 terrain
  squares, the 4-player side 9x9; 3 players use the 4-player side inset by one
  square all round (its "white border"), i.e. its inner 7x7 squares, named
  A1-G7 in play.  Each side has 8 terrain regions; a region is every square of
  one terrain, connected or not.  Trees grow only on interior intersections.
* **Trails** scored in summer are the interior row and column trails (edge
  trails can hold no tree, so they never score).
* **Wind board** (``data.WIND_SPOT_TREE_VALUE``, ``data.WIND_PATTERNS``):
  spots 1-4 require a tree of value 1-4, spots 5-8 allow any tree.  The wind
  board's side sets the first wind, which blows away from that side.  Spot k's
  arrow is the first direction turned clockwise by ``pattern[k-1]`` quarter
  turns; option ``wind_pattern``: ``"clockwise"`` (default, 0,1,2,3,0,1,2,3)
  or ``"crosswise"`` (0,2,1,3,0,2,1,3).  No diagonal winds.
* **Squirrel tile's turn-order value** (option ``squirrel_tile_value``): 1 by
  default (the lowest, so a squirrel turn tends to start the next round), or 9.
* **Squirrel reach**: within 3 squares means 1, 2 or 3 leaf-path steps from
  the tree.  One squirrel per square: it may not stop on another squirrel.
  Option ``squirrel_may_pass_squirrels`` (default True): its route may pass
  over other squirrels (the squirrel borrows the leaf path's shape, but it is
  not a leaf: it also ignores covering costs).  If no square is in reach, the squirrel stays off the
  park and the turn ends (the tile is still used up).
* **Leaf paths and squirrels**: a leaf can never be placed on a squirrel, and a
  leaf path places a leaf on every square it passes, so it cannot pass one.
* **Blocked leaf path**: leaves must be placed while any legal square remains
  (there is no voluntary stop).  If none of the squares ahead can take a leaf
  (squirrels, or covering costs more than the active leaves allow), the path
  ends as if the edge were reached: unused active leaves return to the supply.
* **Ties "clockwise from" a player** (new start player after summer and after
  each round): that player counts first, then the players after them clockwise
  (``engine.closest_clockwise``).
* **The final tie-break** ("closest to the final round start player"): seats
  are counted either way round the table, so the player just counter-clockwise
  of the final start player is as close as the one just clockwise; of two
  equally close tied players (one each way), the one clockwise of the start
  player wins.  The final start player, if tied, wins (``engine.closest_either_way``).
* **Final round's start player** is the start player of round 8; no new start
  player is chosen after it.
* **Scoring seasons as actions**: summer and winter are single actions
  (``score summer`` by the start player, ``score winter`` by the final round's
  start player) so a UI can step through them.
"""

from ..core import GameType, RandomBot
from .actions import NOTATION_HELP, Action, Kind, NotationError, Phase, TurnEnd, parse_action
from .bots import GreedyBot
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
    intersection_name,
    park_for_players,
    square_name,
)
from .engine import (
    OPTION_DEFAULTS,
    OPTIONS,
    PLAYERS,
    BoskGame,
    BoskState,
    Decision,
    ScoreRow,
    WindBoard,
    WindSpot,
    closest_clockwise,
    closest_either_way,
    new_game,
    summer_table,
    winter_table,
)
from .scoring import SUMMER_POINTS, WINTER_POINTS, majority_points, summer_points, winter_points

GAME_TYPE = GameType(
    name="bosk",
    title="Bosk",
    players=PLAYERS,
    has_chance=True,
    has_hidden_information=False,
    options=OPTIONS,
    bots={"greedy": GreedyBot, "random": RandomBot},  # the plug-in (plugin.py) adds the coach
)
"""What Bosk is: 2-4 players, one chance node (the start player), nothing hidden, its options."""

__all__ = [
    "GAME_TYPE",
    "OPTIONS",
    "NotationError",
    "parse_action",
    "closest_either_way",
    "NOTATION_HELP",
    "Action",
    "BoskGame",
    "BoskState",
    "Kind",
    "Phase",
    "ScoreRow",
    "WindBoard",
    "WindSpot",
    "Decision",
    "TurnEnd",
    "closest_clockwise",
    "new_game",
    "summer_table",
    "winter_table",
    "DIRECTIONS",
    "Direction",
    "Park",
    "intersection_name",
    "park_for_players",
    "square_name",
    "LEAF_TILES",
    "LEAVES_PER_PLAYER",
    "OPTION_DEFAULTS",
    "PLAYER_NAMES",
    "ROUNDS",
    "SQUIRREL",
    "TREE_VALUES",
    "WIND_PATTERNS",
    "WIND_SPOT_TREE_VALUE",
    "SUMMER_POINTS",
    "WINTER_POINTS",
    "majority_points",
    "summer_points",
    "winter_points",
    "GreedyBot",
]
