"""No bot hands the next player a win in one when it can help it (our design: ``core.least_handing``).

Winning is each rulebook's own (Aspens: Finishing & Scoring; Bosk: End of the Game; Mighty Trees:
Capturing a Habitat and Winning). The design is ours: a bot's choice that ends its turn with a chance of a
rival winning, at once or with one move after the dice or draws, gives way to its next best move whose turn
(finished by the bot's own heuristic) hands less. Three positions found in seeded random games are kept as
saved games in ``positions/``; before this design the Bosk and Mighty Trees bots handed the win there.
"""

from __future__ import annotations

import functools
import random
from fractions import Fraction
from pathlib import Path

import pytest

from seeded import next_decisions, random_moves
from treegames import core
from treegames.aspens import END_TURN, PINE, GrowOut, parse_cell
from treegames.search import CoachEasy, CoachHard, CoachMedium, Search, review_position
from treegames.search.mcts import Prior, Rollout

pytestmark = pytest.mark.slow  # seconds of search and of exact sums over draws: not in make test-quick

POSITIONS = Path(__file__).parent / "positions"
COACHES = {"coach-easy": CoachEasy, "coach-medium": CoachMedium, "coach-hard": CoachHard}


def saved(name: str, file: str):
    """A position kept as a saved game."""
    return core.games()[name].new_game().state_from_json((POSITIONS / f"{file}.json").read_text())


def greedy(name: str):
    """The game's GreedyBot."""
    return core.game_module(name).GreedyBot(random.Random(0))


def turn_of(bot, state) -> tuple[list[str], object]:
    """The moves ``bot`` plays until its turn is over, and the position then."""
    me, moves = state.current_player, []
    while state.current_player == me:
        action = bot.choose(state)
        moves.append(str(action))
        state = state.apply(action)
    return moves, state


# ------------------------------------------------------------------ Aspens: a cascade Pine could seal


def pine_wins_at_once(state) -> Fraction:
    """The exact chance, over Pine's Sun and Wind, that Pine then has a grow-out ending the game won by Pine."""
    chance = Fraction(0)
    for pines_turn, p in next_decisions(state):
        assert pines_turn.current_player == PINE
        if core.first_winning_action(pines_turn) is not None:
            chance += p
    return chance


def test_aspens_ending_the_turn_lets_pine_seal_27_spaces_on_half_its_rolls_so_aspen_grows_out_on_c6():
    """Taking a Turn, 4. Cascades, and Finishing & Scoring: Aspen (50 spaces, 2 trees in hand) against Pine (71),
    27 spaces empty. After end-turn Pine grows out onto C6 on 1 roll in 2, seals the 27 spaces and wins
    98 to 50. Aspen's grow-outs onto C6 then C7 leave Pine no such move."""
    state = saved("aspens", "aspens_pine_could_seal_the_north")
    me = state.current_player
    assert state.hand(me) == 2 and len(state.empty_cells()) == 27 and state.scores()[me] == 50
    assert pine_wins_at_once(state.apply(END_TURN)) == Fraction(1, 2)
    finish = greedy("aspens").heuristic
    assert core.handed_win_chance(state.apply(END_TURN), me) == Fraction(1, 2)
    closed = state.apply(GrowOut(parse_cell("C6"))).apply(GrowOut(parse_cell("C7")))
    assert closed.legal_actions() == [END_TURN]  # no tree left in hand
    assert pine_wins_at_once(closed.apply(END_TURN)) == 0
    others = [a for a in state.legal_actions() if a != END_TURN]
    assert core.least_handing(state, [END_TURN, *others], finish) == GrowOut(parse_cell("C6"))
    assert greedy("aspens").choose(state) == GrowOut(parse_cell("C6"))


@pytest.mark.parametrize("coach", [CoachEasy, CoachMedium])
@pytest.mark.parametrize("seed", range(2))
def test_aspens_the_coach_closes_c6_and_c7_before_ending_its_turn(coach, seed):
    moves, after = turn_of(coach(random.Random(seed)), saved("aspens", "aspens_pine_could_seal_the_north"))
    assert moves == ["grow-out C6", "grow-out C7", "end-turn"]
    assert pine_wins_at_once(after) == 0


# ------------------------------------------------------------------ Bosk: the last leaf of the year


def test_bosk_covering_oaks_pile_on_e3_would_end_maples_year_and_hand_oak_winter():
    """III. Autumn, Covering other leaves: a leaf on E3 covers Oak's pile and returns Maple's other active leaf,
    so Maple's turn, the year's last, ends; IV. Winter then scores Oak the winner. A leaf on G3, then F2,
    keeps Maple ahead."""
    state = saved("bosk", "bosk_the_last_leaf_of_the_year")
    me = state.current_player
    assert [str(a) for a in state.legal_actions()] == ["leaf E3", "leaf G3"]
    covered = state.apply(state.parse_action("leaf E3"))
    assert covered.current_player not in (me, core.CHANCE)
    win = core.first_winning_action(covered)
    assert win is not None and covered.apply(win).is_terminal() and me not in covered.apply(win).winners()
    assert greedy("bosk").heuristic(state) == state.parse_action("leaf E3"), "the heuristic alone hands the win"
    moves, after = turn_of(greedy("bosk"), state)
    assert moves == ["leaf G3", "leaf F2"]
    assert core.first_winning_action(after) is None


@pytest.mark.parametrize("bot", ["coach-easy", "coach-medium"])
def test_bosk_the_coach_plays_g3_then_f2(bot):
    moves, _after = turn_of(COACHES[bot](random.Random(0)), saved("bosk", "bosk_the_last_leaf_of_the_year"))
    assert moves == ["leaf G3", "leaf F2"]


# ------------------------------------------------------------------ Mighty Trees: one growth from the habitat


def test_mighty_trees_p1_clears_its_own_understory_slot_to_plant_an_attacker_on_the_tree_p2_would_grow():
    """Capturing a Habitat: P2 has a canopy tree and Nyssa sylvatica in its understory, one growth from the
    habitat. Grow Trees: P1's planned growth (3 Sols) ends its turn and P2 grows Nyssa and wins. Battle Phase:
    removing its own understory tree (1 Sol) frees a slot, and Initiate Tree Combat: the Virginia pine planted
    there (2 Sols) attacks Nyssa and wins."""
    state = saved("mighty_trees", "mighty_trees_p2_one_growth_from_the_habitat")
    me = state.current_player
    grown = state.apply(state.parse_action("grow 1"))
    assert grown.current_player == 1 - me  # the Command is full: no draw, P2's turn at once
    win = core.first_winning_action(grown)
    assert str(win) == "grow 2" and grown.apply(win).winners() == (1 - me,)
    assert greedy("mighty_trees").heuristic(state) == state.parse_action("grow 1"), "the plan alone hands the win"
    moves, after = turn_of(greedy("mighty_trees"), state)
    assert moves == ["discard understory 1", "plant Pinus virginiana attack P2 understory 2"]
    assert core.handed_win_chance(after, me) == 0


@pytest.mark.parametrize("bot", ["coach-easy", "coach-medium"])
def test_mighty_trees_the_coach_attacks_the_tree_p2_would_grow(bot):
    state = saved("mighty_trees", "mighty_trees_p2_one_growth_from_the_habitat")
    moves, after = turn_of(COACHES[bot](random.Random(0)), state)
    assert moves[-1] == "plant Pinus virginiana attack P2 understory 2"
    assert core.handed_win_chance(after, state.current_player) == 0


# ------------------------------------------------------------------ found positions, every bot

GAMES = [("aspens", {}), ("bosk", {"players": 2}), ("bosk", {"players": 4}), ("mighty_trees", {"players": 2}),
         ("mighty_trees", {"players": 4}), ("mighty_trees", {"players": 3, "capture_at_round_end": True})]


@functools.cache
def found(name: str, options: tuple, most: int) -> list:
    """Decisions of seeded random games where a move that ends the turn could hand a rival the win and another move hands less."""
    game = core.games()[name].new_game(**dict(options))
    finish = greedy(name).heuristic
    out = []
    for seed in range(400):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal() and len(out) < most:
            if state.current_player == core.CHANCE:
                state = state.apply(core.sample_chance(state, rng))
                continue
            me, legal = state.current_player, state.legal_actions()
            ending = [a for a in legal if state.apply(a).current_player != me]
            if core.winning_action(state) is None and any(core.handed_win_chance(state.apply(a), me) for a in ending):
                risks = {a: core.handed_win_chance(state.apply(a), me, finish) for a in legal}
                if any(risks[a] > min(risks.values()) for a in ending):
                    out.append((state, risks))
            state = state.apply(rng.choice(legal))
        if len(out) >= most:
            break
    return out


@pytest.mark.parametrize(("name", "options"), GAMES)
@pytest.mark.parametrize("bot", ["greedy", "coach-easy", "coach-medium", "coach-hard"])
def test_every_bot_that_ends_its_turn_hands_the_least_it_can(name, options, bot):
    """At every found decision, a bot's move that ends its turn hands a rival the win no more often than its
    least risky move (the coach at 12 playouts a move: the rule is the same at every budget)."""
    positions = found(name, tuple(sorted(options.items())), 4)
    assert len(positions) == 4, "the seeded games reach such decisions"
    ended = 0
    for i, (state, risks) in enumerate(positions):
        chooser = greedy(name) if bot == "greedy" else COACHES[bot](random.Random(i), iterations=12, trees=1)
        choice = chooser.choose(state)
        if state.apply(choice).current_player != state.current_player:
            assert risks[choice] == min(risks.values()), (bot, str(choice), state.to_json())
            ended += 1
    assert ended > 0, "some chosen moves end the turn"


# ------------------------------------------------------------------ the rule itself


def leaves(state, budget: int) -> int | None:
    """How many chance outcomes lie between ``state`` and the next decision, or None past ``budget``."""
    if state.current_player != core.CHANCE:
        return 1
    total = 0
    for outcome, _p in state.chance_outcomes():
        below = leaves(state.apply(outcome), budget - total)
        if below is None or total + below > budget:
            return None
        total += below
    return total


@pytest.mark.parametrize("options", [{"players": 2}, {"players": 4}, {"players": 2, "habitats_to_win": 2},
                                     {"players": 3, "capture_at_round_end": True}])
def test_mighty_trees_own_handed_win_chance_agrees_with_summing_every_draw(options):
    """Regroup Phase: the draws between two turns fill only the mover's Command, so the engine follows one; and
    Capturing a Habitat: no move hands a win unless a rival has a canopy tree and one capture left."""
    compared = handed = 0
    for state, _move, after in random_moves(core.games()["mighty_trees"].new_game(**options), 60):
        me = state.current_player
        if after.current_player != me and leaves(after, 200) is not None:
            exact = core.exact_handed_win_chance(after, me)
            assert core.handed_win_chance(after, me) == exact, after.to_json()
            assert exact == 0 or state.can_rival_win_soon(me), "GreedyBot skips the check without such a rival"
            compared, handed = compared + 1, handed + (exact > 0)
    assert compared > 200 and handed > 0


@pytest.mark.parametrize("seed", range(4))
def test_a_game_over_counts_as_handed_when_a_rival_won_and_not_for_a_draw_or_a_shared_win(seed):
    """Finishing & Scoring: the player with the most spaces wins; a tie shares the victory."""
    rng = random.Random(seed)
    state = core.games()["aspens"].new_game().new_initial_state()
    while not state.is_terminal():
        state = core.step(state, [core.RandomBot(rng)] * 2, rng)
    winners = state.winners()
    for me in (0, 1):
        expected = Fraction(0) if not winners or me in winners else Fraction(1)
        assert core.handed_win_chance(state, me) == expected


def test_least_handing_needs_a_move():
    with pytest.raises(ValueError, match="at least one move"):
        core.least_handing(saved("aspens", "aspens_pine_could_seal_the_north"), [])


def test_review_compares_a_growth_that_hands_p2_the_habitat_with_the_coachs_choice():
    """Review's "the coach's choice" is the move the coach would play: not the growth that hands P2 the habitat."""
    state = saved("mighty_trees", "mighty_trees_p2_one_growth_from_the_habitat")
    played, choice, _playouts = review_position(state, state.parse_action("grow 1"), random.Random(0), iterations=48)
    assert str(played.action) == "grow 1"
    assert str(choice.action).startswith("discard understory ")
    assert choice.visits > 0


def test_the_coachs_greedy_playouts_sample_the_heuristic_without_the_check_and_its_greedy_prior_keeps_it():
    """Our design: a playout is a sampling policy (the check would cost a tenth of Mighty Trees' playouts)."""
    state = saved("mighty_trees", "mighty_trees_p2_one_growth_from_the_habitat")
    search = Search(state, random.Random(0), rollout=Rollout.GREEDY, prior=Prior.GREEDY)
    assert search._policy.guard is False
    assert search._advisor.guard is True
    assert core.game_module("mighty_trees").GreedyBot().guard is True
