"""The search finds a forced win in small positions: a capture in Mighty Trees, a cascade in Aspens, a
decisive leaf path in Bosk.

Each position is first checked with the engine itself: the winning move wins whatever follows, and
every other move loses, or (with dice still to come) is clearly worse, with exact odds. Then the
search, on a small budget, and the coach bots, at their own budgets, must choose the winning move
for several seeds.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from seeded import next_decisions, random_moves
from treegames import core
from treegames.aspens import ASPEN, END_TURN, PINE, GrowOut, Phase, parse_cell
from treegames.aspens import new_game as new_aspens
from treegames.bosk import LEAVES_PER_PLAYER, winter_table
from treegames.bosk import Phase as BoskPhase
from treegames.bosk import new_game as new_bosk
from treegames.bosk.data import parse_coordinates
from treegames.search import Budget, CoachEasy, CoachMedium, Search

pytestmark = pytest.mark.slow  # seconds of search or processes per test: not in make test-quick

# ------------------------------------------------------------------ Mighty Trees


def winning_moment(seed: int):
    """The first moment of a greedy Mighty Trees game where one of the mover's moves wins at once and not all do."""
    game_type = core.games()["mighty_trees"]
    rng = random.Random(seed)
    bot = game_type.bots["greedy"](rng)
    state = game_type.new_game().new_initial_state()
    while not state.is_terminal():
        if state.current_player == core.CHANCE:
            state = state.apply(core.sample_chance(state, rng))
            continue
        mover, actions = state.current_player, state.legal_actions()
        wins = [a for a in actions if state.apply(a).winners() == (mover,) and state.apply(a).is_terminal()]
        if wins and len(wins) < len(actions):
            return state, wins
        state = state.apply(bot.choose(state))
    raise AssertionError(f"no winning moment in Mighty Trees seed {seed}")


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_search_finds_the_capture_that_wins_mighty_trees_at_once(seed):
    """WINNING: the first player to capture 1 habitat wins (CAPTURING A HABITAT: the first with 2 canopy trees)."""
    state, wins = winning_moment(seed)
    search = Search(state, random.Random(seed))
    search.think(Budget(iterations=300))
    assert search.best() in wins
    best = search.statistics()[0]
    assert best.wins == best.visits  # a won game is won in every playout


# ------------------------------------------------------------------ Aspens: one gap in the wall

WALL = ("H2", "H3", "H5", "H7", "G8", "G9", "G10", "G11", "G12", "G13", "G14")
"""Aspen's line of trees across the standard board, West edge to East edge (H4 is the West water)."""
GAP = parse_cell("H6")
"""The one empty space in the line: Pine touches it from I5 and I6."""
NORTH = 62
"""Empty spaces north of the line: rows A-F and G3-G7."""


def aspens_wall_with_one_gap():
    """Aspen to plant on the standard board, near the end; as the engine draws it::

                          ..  ..  ..  ..
                    ..  ..  ..  ..  ..  ..  ..
              ..  ..  ..  ..  ..  ..  ..  ..  ..  ..
            ..  ..  ..  ..  ..  ..  ..  ..  ..  ..  ..
          ..  ..  ..  ..  ..  ..  ..  ..  ..  ..  ..  ..
        ..  ..  ..  ..  ..  ..  ..  ..  ..  ..  ..  ..  ..
          ..  ..  ..  ..  ..  a1  a1  a1  a1  a2  a1  a1      row G
        a1  a1  ~~  a3  ..  a1  p1  p1  p1  p1  ~~  p1  p1    row H: H6 is the gap
          p4  p4  p4  p4  p4  p4  p4  p4  p4  p4  p4  p1      row I
        (rows J-O: Pine's single trees, and Aspen's South seed K7 with 2)

    Aspen (12 spaces) has a line of trees across the board with one gap, H6; the 62 spaces north of
    it are empty and Pine (73 spaces) can reach them only through H6. Aspen's starting forests still
    hold their 7 trees (H5 3, G12 2, K7 2). Aspen rolls Sun 4 and Wind SW (so W, SW and SE are valid).
    """
    game = new_aspens()
    geo = game.geometry
    start = game.new_initial_state()
    aspen = {parse_cell(name) for name in (*WALL, "K7")}
    north = {c for c in game.board.playable if c.r < -1} | {parse_cell(f"G{col}") for col in range(3, 8)}
    pine = set(game.board.playable) - aspen - north - {GAP}
    heights = {ASPEN: {c: 1 for c in aspen}, PINE: {c: 1 for c in pine}}
    heights[ASPEN].update({parse_cell("H5"): 3, parse_cell("G12"): 2, parse_cell("K7"): 2})
    heights[PINE].update({parse_cell(f"I{col}"): 4 for col in range(2, 13)})
    s = start._draft()  # a position set up by hand, just before Aspen's roll
    s._own = tuple(sum(1 << geo.bit[c] for c in heights[p]) for p in (ASPEN, PINE))
    rows = [bytearray(len(start._heights[p])) for p in (ASPEN, PINE)]
    for p in (ASPEN, PINE):
        for cell, height in heights[p].items():
            rows[p][geo.bit[cell]] = height
    s._heights = (bytes(rows[ASPEN]), bytes(rows[PINE]))
    s._supply = tuple(game.trees_per_player - sum(heights[p].values()) for p in (ASPEN, PINE))
    s.phase, s.current_player, s.first_player, s.turn_player = Phase.ROLL_SUN, core.CHANCE, ASPEN, ASPEN
    s.__class__ = type(start)
    return s.apply("sun 4").apply("wind SW")


def pine_takes_the_gap(state) -> Fraction:
    """The exact chance that Pine's next roll lets it grow out onto the gap (each time leaving it half the board)."""
    while state.current_player == ASPEN:  # no tree left in hand: end-turn is all Aspen can do
        assert state.legal_actions() == [END_TURN]
        state = state.apply(END_TURN)
    chance = Fraction(0)
    for pines_turn, p in next_decisions(state):
        assert pines_turn.current_player == PINE
        if GrowOut(GAP) in pines_turn.legal_actions():
            after = pines_turn.apply(GrowOut(GAP))
            assert 2 * after.scores()[PINE] >= after.game.playable_count
            chance += p
    return chance


def test_aspens_closing_the_gap_is_the_one_cascade_and_the_only_sure_win():
    """Taking a Turn, 4. Cascades: closing off the North fills it for Aspen; Finishing & Scoring: the board is
    full, and Aspen has the most spaces. After any other move Pine, whose trees touch H6 from the SW and SE,
    grows out onto it on 4 Winds of 6 (3B Grow Out) and then holds 74 of the 148 spaces, so Aspen could at
    best share the victory."""
    state = aspens_wall_with_one_gap()
    assert state.hand(ASPEN) == 1, "Sun 4: no Aspen stack produces, only the bonus tree (2. Gain Trees)"
    north = state.empty_cells() - {GAP}
    assert len(north) == NORTH and not any(state.owner(n) == PINE for c in north for n in state.board.neighbors(c))
    assert {n for n in state.board.neighbors(GAP) if state.owner(n) == PINE} == {parse_cell("I5"), parse_cell("I6")}

    closed = state.apply(GrowOut(GAP))
    assert closed.last_cascade == north
    assert closed.is_terminal() and closed.scores() == (75, 73) and closed.winners() == (ASPEN,)

    others = [a for a in state.legal_actions() if a != GrowOut(GAP)]
    assert len(others) == len(state.legal_actions()) - 1 == 14  # 12 grow-ups, grow-out G7, end-turn
    for action in others:
        after = state.apply(action)
        assert not after.last_cascade and not after.is_terminal(), action
        assert pine_takes_the_gap(after) == Fraction(2, 3), action


@pytest.mark.parametrize("seed", range(5))
def test_aspens_the_search_closes_the_gap(seed):
    """4. Cascades: in 100 playouts the search finds the Grow Out that closes off the North and wins."""
    state = aspens_wall_with_one_gap()
    search = Search(state, random.Random(seed))
    search.think(Budget(iterations=100))
    assert search.best() == GrowOut(GAP)
    best = search.statistics()[0]
    assert best.wins == best.visits  # the cascade ends the game won, in every playout


@pytest.mark.parametrize("seed", range(3))
def test_aspens_coach_medium_closes_the_gap(seed):
    """4. Cascades: coach-medium, at its own budget, plays the Grow Out onto H6."""
    # coach-easy is not asked to: its 25 playouts spread over 15 moves try each only once or twice.
    state = aspens_wall_with_one_gap()
    assert CoachMedium(random.Random(seed)).choose(state) == GrowOut(GAP)


# ------------------------------------------------------------------ Bosk: the last leaves of the year

LEAVES = (
    "MMOOMMm",  # 1   terrain: MMFFLLL
    "MMMO.OO",  # 2            MRFFFLB
    "MMOOM.O",  # 3            SRRCCLB
    "OMMO.MO",  # 4            SSRCMBB
    "O.OMOMM",  # 5            PSSCCPB
    "MOOMO.O",  # 6            PPMMCRF
    "oOM...M",  # 7            PLLMSRF
)
"""Columns A-G, rows 1-7: the top leaf of each square (M Maple, O Oak, . bare), m/o a squirrel token."""
MAPLE, OAK = 0, 1


def bosk_last_turn():
    """Round 8, the wind blowing south: Oak's last turn of the year, with its last tree (e6) and tile (2).

    Maple, the round's start player, has played. Before Oak's leaves Maple leads 48 to 47 (summer 17 to 14,
    and winter as it stands 31 to 33). A leaf on D6 covers Maple's leaf there; on E6 it lands on Oak's own.
    """
    game = new_bosk(2)
    park = game.park
    start = game.new_initial_state()
    s = start._draft()  # a position set up by hand
    s.piles = tuple({"M": (MAPLE,), "O": (OAK,)}.get(mark, ()) for line in LEAVES for mark in line)
    s.squirrels = tuple(park.square(r, line.index(token)) for token in "mo"
                        for r, line in enumerate(LEAVES) if token in line)
    s.supply = tuple(LEAVES_PER_PLAYER - sum(pile.count(p) for pile in s.piles) for p in (MAPLE, OAK))
    trees = [0] * park.num_intersections
    trees[park.intersection(*parse_coordinates("e6"))] = OAK << 3 | 4
    s.trees, s.hand, s.tiles = tuple(trees), ((), ()), (0, 1 << 2)
    s.phase, s.current, s.start, s.turn, s.played = BoskPhase.FALLING_LEAVES, OAK, MAPLE, 1, (6, -1)
    s.round, s.first_wind, s.wind = 8, 3, 2  # the wind board on the east side: round 8 blows south
    s.summer = (17, 14)
    s.__class__ = type(start)
    (last,) = s.legal_actions()  # Falling Leaves 1a-1c: the only tree and the only tile left
    return s.apply(last)


def endings(state, path=()):
    """Every way the game can end from ``state``: (the actions, the final state)."""
    if state.is_terminal():
        yield path, state
        return
    for action in state.legal_actions():
        yield from endings(state.apply(action), (*path, str(action)))


def test_bosk_only_the_leaf_path_into_the_marsh_wins():
    """III. Autumn, Leaf Placement 1-2: the first leaf goes on D6 or E6, the next on a square ahead. Covering
    other leaves 1: covering Maple's leaf on D6 sends one of Oak's 2 active leaves back, so that path ends
    there. IV. Winter: only E6 then E7 breaks the 2-2 tie in the Marsh (5 and 3 points, not 4 each), and
    with it Maple's lead: End of the Game, the highest score wins."""
    state = bosk_last_turn()
    assert [str(a) for a in state.legal_actions()] == ["leaf D6", "leaf E6"]
    table = winter_table(state)
    assert {row.name: row.totals for row in table}["Marsh"] == (2, 2)
    assert tuple(sum(row.points[p] for row in table) for p in (MAPLE, OAK)) == (31, 33)
    assert state.summer_scores == (17, 14)  # so Maple leads 48 to 47 before Oak's leaves
    finals = dict(endings(state))
    assert sorted(finals) == [("leaf D6", "score winter"), ("leaf E6", "leaf D7", "score winter"),
                              ("leaf E6", "leaf E7", "score winter"), ("leaf E6", "leaf F7", "score winter")]
    won = {path for path, final in finals.items() if final.winners() == (OAK,)}
    assert won == {("leaf E6", "leaf E7", "score winter")}
    assert finals["leaf E6", "leaf E7", "score winter"].scores() == (47, 48)
    assert all(final.scores() == (48, 47) for path, final in finals.items() if path not in won)


@pytest.mark.parametrize("seed", range(5))
def test_bosk_the_search_takes_the_path_into_the_marsh(seed):
    """Leaf Placement 1-2 and IV. Winter: in 30 playouts a decision, the search lays E6 and then E7."""
    state = bosk_last_turn()
    first = Search(state, random.Random(seed))
    first.think(Budget(iterations=30))
    assert str(first.best()) == "leaf E6"
    second = Search(state.apply(first.best()), random.Random(seed))
    second.think(Budget(iterations=30))
    assert str(second.best()) == "leaf E7"


@pytest.mark.parametrize("coach", [CoachEasy, CoachMedium])
@pytest.mark.parametrize("seed", range(3))
def test_bosk_the_coach_as_oak_wins_the_year(coach, seed):
    """End of the Game: the coach, at its own budget, plays Oak's last leaves into the Marsh and wins."""
    state = bosk_last_turn()
    bots = (coach(random.Random(seed)), coach(random.Random(seed + 100)))
    while not state.is_terminal():
        state = state.apply(bots[state.current_player].choose(state))
    assert state.winners() == (OAK,)
    assert [str(a) for a in state.history[-3:]] == ["leaf E6", "leaf E7", "score winter"]


# ------------------------------------------------------------------ a win in one, taken by every bot


def found_wins(name: str, seeds: int, most: int) -> list:
    """Positions from seeded random games where some legal moves (not all) end the game won by the mover."""
    game_type = core.games()[name]
    found = []
    for seed in range(seeds):
        rng = random.Random(seed)
        state = game_type.new_game(**({"players": 2} if len(game_type.players) > 1 else {})).new_initial_state()
        while not state.is_terminal() and len(found) < most:
            if state.current_player == core.CHANCE:
                state = state.apply(core.sample_chance(state, rng))
                continue
            me, actions = state.current_player, state.legal_actions()
            wins = [a for a in actions if state.apply(a).is_terminal() and state.apply(a).winners() == (me,)]
            if wins and len(wins) < len(actions):
                found.append((state, wins))
            state = state.apply(rng.choice(actions))
    return found


@pytest.mark.parametrize("name", ["aspens", "mighty_trees"])
@pytest.mark.parametrize("bot", ["greedy", "coach-easy", "coach-medium", "coach-hard"])
def test_every_bot_but_random_takes_a_win_in_one_when_it_has_one(name, bot):
    """Mighty Trees' GreedyBot used to plan a capture for later in the turn (a discard first) and took 113 of 160."""
    positions = found_wins(name, 40, 12)
    assert len(positions) == 12
    for i, (state, wins) in enumerate(positions):
        assert core.games()[name].bots[bot](random.Random(i)).choose(state) in wins, (bot, str(state))


def test_bosk_has_no_win_in_one_to_take_its_last_move_is_the_forced_winter_scoring():
    assert found_wins("bosk", 10, 1) == []


@pytest.mark.parametrize("seed", range(3))
def test_aspens_greedy_closes_the_gap(seed):
    """4. Cascades: GreedyBot takes the Grow Out onto H6 that fills the North and ends the game won."""
    state = aspens_wall_with_one_gap()
    assert core.games()["aspens"].bots["greedy"](random.Random(seed)).choose(state) == GrowOut(GAP)


GAMES_WITH_OPTIONS = [("aspens", {}), ("aspens", {"cascade_timing": "end-of-turn"}), ("bosk", {"players": 2}),
                      ("bosk", {"players": 4}), ("mighty_trees", {"players": 2}), ("mighty_trees", {"players": 4}),
                      ("mighty_trees", {"players": 2, "habitats_to_win": 2}),
                      ("mighty_trees", {"players": 3, "capture_at_round_end": True})]


@pytest.mark.parametrize(("name", "options"), GAMES_WITH_OPTIONS)
def test_an_engines_own_winning_action_agrees_with_trying_every_move(name, options):
    """An engine's faster ``winning_action`` gives the generic answer at every decision of seeded random games."""
    checked = wins = 0
    for state, _move, _after in random_moves(core.games()[name].new_game(**options), 4):
        expected = core.first_winning_action(state)
        assert core.winning_action(state) == expected, str(state)
        checked, wins = checked + 1, wins + (expected is not None)
    assert checked > 100
    if name in ("aspens", "mighty_trees"):
        assert wins > 0, "the games reached positions with a win in one"
