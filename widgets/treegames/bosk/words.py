"""The words of the Bosk engine: explain() texts, event-log sentences and 'what just happened'.

Written in our own words; each text names the rulebook section it follows.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import Action, TurnEnd
from .data import DIRECTIONS, ROUNDS, SQUIRREL, TREE_VALUES, tile_name
from .scoring import SUMMER_POINTS, WINTER_POINTS

if TYPE_CHECKING:
    from .engine import BoskState

__all__ = ["explain", "describe", "last_event"]


def _name(state: BoskState, player: int) -> str:
    """A player's species name."""
    return state.game.player_name(player)


def _list(items: list[str]) -> str:
    """'a, b and c'."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _score_line(state: BoskState, points: tuple[int, ...]) -> str:
    """'Maple 7, Oak 5'."""
    return ", ".join(f"{_name(state, p)} {v}" for p, v in enumerate(points))


def explain(state: BoskState) -> str:
    """Plain words on what the rules say at this moment, naming the rulebook section."""
    return _EXPLAINERS[state.phase.value](state)


def _explain_start(state: BoskState) -> str:
    """Setup 4."""
    n = state.num_players
    return (
        f"Setup 4: a start player is chosen at random (each of the {n} players equally likely) and takes "
        f"the Hiker. Spring begins with them."
    )


def _explain_spring(state: BoskState) -> str:
    """I. Spring."""
    p = state.current_player
    total = len(TREE_VALUES) * state.num_players
    placed = total - sum(len(h) for h in state.hand)
    left = ", ".join(str(v) for v in state.trees_in_hand(p))
    return (
        f"I. Spring: {_name(state, p)} grows one tree on an empty trail intersection inside the park, never "
        f"on the edge or a corner; trees never move afterwards. Trees still to grow: {left}. "
        f"{placed} of {total} trees are in the park. Players take turns clockwise until all are grown; "
        f"in summer every trail rewards the highest total tree value on it."
    )


def _explain_summer(state: BoskState) -> str:
    """II. Summer and Summer Scoring."""
    t = SUMMER_POINTS
    return (
        f"II. Summer: all trees are grown, so every row trail and then every column trail is scored on each "
        f"player's total tree value along it (Summer Scoring). A lone leader earns {t.first} and a lone "
        f"runner-up {t.second}; runners-up who tie earn {t.tied_second}; a leader with nobody behind earns "
        f"{t.alone}; leaders who tie earn {t.tied_first} each and nobody is second. A player with no tree on a "
        f"trail does not place. Afterwards the player with the fewest points becomes start player for autumn "
        f"(Determine new start player). {_name(state, state.current_player)} holds the Hiker and scores summer."
    )


def _explain_wind(state: BoskState) -> str:
    """III. Autumn, Initial Wind Direction."""
    p = state.current_player
    return (
        f"III. Autumn, Initial Wind Direction: {_name(state, p)} is start player (fewest summer points: "
        f"{_score_line(state, state.summer_scores)}) and places the wind board on one side of the park. "
        f"The wind first blows away from that side, across the park; each round the marker moves one spot "
        f"on the wind board and the wind turns (our wind pattern '{state.game.options['wind_pattern']}')."
    )


def _explain_falling(state: BoskState) -> str:
    """III. Autumn, Falling Leaves."""
    p = state.current_player
    need = state.required_tree_value
    which = f"one of their value-{need} trees" if need else "any of their remaining trees"
    tiles = ", ".join(tile_name(t) for t in state.leaf_tiles(p))
    return (
        f"III. Autumn, Falling Leaves, round {state.round} of {ROUNDS}: the wind blows "
        f"{state.wind_direction.value}. {_name(state, p)} selects {which} (wind board spot {state.round}) and a "
        f"leaf tile not played before ({tiles}), and takes that many leaves from their supply as active "
        f"leaves; the squirrel tile calls the squirrel instead. The lowest tile played this round starts the "
        f"next round (End of the Round)."
    )


def _explain_leaf(state: BoskState) -> str:
    """III. Autumn, Leaf Placement and Covering other leaves."""
    park = state.park
    p = state.current_player
    spots = []
    for sq in state.choices:
        cost = state.covering_cost(*park.square_rc(sq))
        spots.append(f"{park.square_label(sq)}" + (f" (covering costs {cost})" if cost else ""))
    where = (
        f"the first leaf goes on a square beside the tree at {park.intersection_label(state.tree_at)} on the "
        f"downwind side"
        if state.head < 0
        else f"the next leaf goes straight or diagonally ahead of {park.square_label(state.head)}"
    )
    return (
        f"III. Autumn, Leaf Placement: the wind blows {state.wind_direction.value} and {_name(state, p)} has "
        f"{state.active} active leaves; {where}: {_list(spots)}. Covering a pile topped by another player "
        f"returns one active leaf to the supply per leaf in the pile and needs one more to place (Covering "
        f"other leaves); squirrels are never covered. The path ends when no active leaves remain or the edge "
        f"is reached; leftovers go back to the supply and the tree is removed."
    )


def _explain_squirrel(state: BoskState) -> str:
    """III. Autumn, Squirrel."""
    park = state.park
    spots = [park.square_label(sq) for sq in state.choices]
    return (
        f"III. Autumn, Squirrel: {_name(state, state.current_player)} played the squirrel tile, so instead of "
        f"blowing leaves they place their squirrel token within 3 squares of the tree at "
        f"{park.intersection_label(state.tree_at)}, moving downwind like a leaf path: {_list(spots)}. It may sit "
        f"on a pile of any size, can never be covered, and counts for its owner in winter. Then the tree is "
        f"removed."
    )


def _explain_winter(state: BoskState) -> str:
    """IV. Winter."""
    t = WINTER_POINTS
    return (
        f"IV. Winter: the trees are bare. In each of the 8 regions (all squares of one terrain, connected or "
        f"not) count the squares each player controls: their leaf on top, or their squirrel. A lone leader "
        f"earns {t.first} and a lone runner-up {t.second}; runners-up who tie earn {t.tied_second} each; a "
        f"leader with nobody behind earns {t.alone}; leaders who tie earn {t.tied_first} each. "
        f"{_name(state, state.current_player)}, the final round's start player, scores winter."
    )


def _explain_over(state: BoskState) -> str:
    """End of the Game."""
    winner = state.winners()[0]
    return (
        f"End of the Game: final scores {_score_line(state, state.scores())} (summer "
        f"{_score_line(state, state.summer_scores)}; winter {_score_line(state, state.winter_scores)}). "
        f"{_name(state, winner)} wins; a tie goes to the tied player closest to the final round's start "
        f"player, {_name(state, state.start_player)}, counting seats either way round the table (of two "
        f"equally close, the one clockwise of the start player)."
    )


_EXPLAINERS = {
    "start player": _explain_start,
    "spring": _explain_spring,
    "summer": _explain_summer,
    "initial wind": _explain_wind,
    "falling leaves": _explain_falling,
    "leaf placement": _explain_leaf,
    "squirrel": _explain_squirrel,
    "winter": _explain_winter,
    "game over": _explain_over,
}


def describe(state: BoskState, action: Action) -> str:
    """One sentence for an event log: what ``action`` does when applied to ``state``."""
    kind = action.kind.value
    park = state.park
    p = state.current_player
    if kind == "start player":
        return f"{_name(state, action.value)} is chosen as start player and takes the Hiker."
    who = _name(state, p)
    if kind == "tree":
        return f"{who} grows a value-{action.value} tree at {park.intersection_label(park.intersection(action.row, action.col))}."
    if kind == "score summer":
        return "Summer is scored on every trail."
    if kind == "wind from":
        side = DIRECTIONS[action.value]
        return (
            f"{who} places the wind board on the {side.value} side: the wind first blows "
            f"{side.opposite().value}."
        )
    if kind == "autumn tree":
        where = park.intersection_label(park.intersection(action.row, action.col))
        if action.value == SQUIRREL:
            return f"{who} selects the tree at {where} and the squirrel tile, calling the squirrel."
        return f"{who} selects the tree at {where} and leaf tile {action.value}, taking {action.value} active leaves."
    if kind == "leaf":
        sq = park.square(action.row, action.col)
        label = f"{park.square_label(sq)} ({park.region_names[park.terrain[sq]]})"
        pile = state.piles[sq]
        if state.covering_cost(action.row, action.col):
            return (
                f"{who} covers {_name(state, pile[-1])}'s pile of {len(pile)} on {label}, returning {len(pile)} "
                f"active leaves to the supply."
            )
        return f"{who} drops a leaf on {label}."
    if kind == "squirrel":
        sq = park.square(action.row, action.col)
        return f"{who}'s squirrel settles on {park.square_label(sq)} ({park.region_names[park.terrain[sq]]})."
    if kind == "score winter":
        return "Winter is scored in every region and the game ends."
    return str(action)


_END_REASONS = {
    TurnEnd.NO_LEAVES: "no active leaves remain",
    TurnEnd.EDGE: "the path reached the edge of the play area",
    TurnEnd.BLOCKED: "no square ahead can take a leaf (our interpretation: a blocked path ends)",
    TurnEnd.SQUIRREL_PLACED: "",
    TurnEnd.SQUIRREL_NOWHERE: "the squirrel has no free square within reach (our interpretation: it stays off the park)",
}


def last_event(state: BoskState) -> str:
    """What the last action did, with its automatic consequences."""
    prev = state.previous
    if prev is None:
        return "The game is set up; nothing has happened yet."
    action = state.history[-1]
    parts = [describe(prev, action)]
    kind = action.kind.value
    if kind == "score summer":
        parts.append(f"Summer points: {_score_line(state, state.summer_scores)}.")
        parts.append(decision_sentence(state))
    elif kind == "score winter":
        parts.append(f"Winter points: {_score_line(state, state.winter_scores)}.")
        parts.append(decision_sentence(state))
    if state.end_reason:
        reason = _END_REASONS[state.end_reason]
        if kind == "leaf":
            returned = prev.active - _spent(prev, action)
        else:
            returned = action.value if kind == "autumn tree" and action.value != SQUIRREL else 0
        if reason:
            parts.append(f"The turn ends: {reason}.")
        if state.end_reason in (TurnEnd.NO_LEAVES, TurnEnd.EDGE, TurnEnd.BLOCKED) and returned > 0:
            parts.append(f"{returned} unused active {'leaf returns' if returned == 1 else 'leaves return'} to the supply.")
        parts.append(f"The tree at {prev.park.intersection_label(prev.tree_at)} is removed.")
        if state.round != prev.round:
            parts.append(
                f"End of round {prev.round}: the wind now blows {state.wind_direction.value}. "
                + decision_sentence(state)
            )
        elif state.phase.value == "winter":
            parts.append("That was the last autumn round; winter comes.")
    elif kind == "tree" and state.phase.value == "summer":
        parts.append("Every tree is grown; summer comes.")
    return " ".join(parts)


def _spent(prev: BoskState, action: Action) -> int:
    """Active leaves used by a leaf placement: one placed plus the covering cost."""
    return 1 + prev.covering_cost(action.row, action.col)


def decision_sentence(state: BoskState) -> str:
    """Who the last action chose -- the new start player after summer or a round, or the winner -- and
    why, naming the tie-break when there was a tie; '' if the last action chose nobody.

    Ties for the Hiker are broken clockwise from the previous start player, who counts first (our
    interpretation of "clockwise from"); a final tie goes to the tied player closest to the final
    round's start player, counting seats either way round the table (End of the Game).
    """
    decision = state.last_decision
    if decision is None:
        return ""
    chosen = _name(state, decision.chosen)
    tied = _list([_name(state, p) for p in decision.candidates])
    if decision.rule == "End of the Game":
        best = max(decision.values)
        if not decision.is_tie:
            return f"{chosen} wins with {best} points."
        return (
            f"{tied} tie for the most points ({best}); the tie goes to the tied player closest to the final "
            f"round's start player, {_name(state, decision.origin)}, counting seats either way round the table "
            f"(of two equally close, the one clockwise of them), so {chosen} wins with {best} points."
        )
    if decision.rule == "II. Summer":
        what, lowest, start = "the fewest points", f"{min(decision.values)}", "becomes start player"
    else:
        what, lowest = "the lowest leaf tile played", _tile_value(state, min(decision.values))
        start = f"starts round {state.round}"
    if not decision.is_tie:
        return f"{chosen} has {what} ({lowest}) and {start}."
    return (
        f"{tied} tie for {what} ({lowest}); the tie is broken clockwise from the previous start player, "
        f"{_name(state, decision.origin)}, who counts first, so {chosen} {start}."
    )


def _tile_value(state: BoskState, value: int) -> str:
    """A turn-order value for a sentence: '3', or 'squirrel, value 1'."""
    return f"squirrel, value {value}" if value == state.game.squirrel_tile_value else str(value)


# -- the park in words, for people who cannot see the picture (issue 21) -------------


def square_words(state: BoskState, row: int, col: int) -> str:
    """One terrain square in words: its region, its leaf pile (top leaf first) and any squirrel."""
    park = state.game.park
    region = park.region_names[park.terrain[park.square(row, col)]]
    pile = state.pile(row, col)
    parts = [region]
    if pile:
        parts.append(f"{len(pile)} {'leaf' if len(pile) == 1 else 'leaves'}, top {_name(state, pile[-1])}")
    for player, square in enumerate(state.squirrel_squares()):
        if square == (row, col):
            parts.append(f"{_name(state, player)}'s squirrel")
    return "; ".join(parts)


def intersection_words(state: BoskState, row: int, col: int) -> str:
    """One trail intersection in words: 'empty' or 'Maple 3'."""
    tree = state.tree_at_intersection(row, col)
    return "empty" if tree is None else f"{_name(state, tree[0])} {tree[1]}"


def describe_board(state: BoskState) -> list[tuple[str, list[str], list[tuple[str, list[str]]]]]:
    """The park as two tables: trees on the trail intersections, then each square's region and leaves.

    Each table is (caption, column headings, [(row heading, one text per column)]), in notation:
    intersections lower case ('c4'), squares capital ('C4').  Everything in a Bosk park is public.
    """
    from .data import LETTERS

    size = state.game.park.size
    inner = range(1, size)
    trees = [(str(r + 1), [intersection_words(state, r, c) for c in inner]) for r in inner]
    squares = [(str(r + 1), [square_words(state, r, c) for c in range(size)]) for r in range(size)]
    wind = state.wind_direction
    blows = f"; the wind blows {wind.value}" if wind is not None and hasattr(wind, "value") else ""
    return [
        (f"Trees on the trail intersections (row 1 is north, column b west){blows}",
         [LETTERS[c].lower() for c in inner], trees),
        ("Squares: region, leaves and squirrels", [LETTERS[c] for c in range(size)], squares),
    ]
