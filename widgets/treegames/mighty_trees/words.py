"""Plain words for Mighty Trees states and actions: ``explain()``, ``describe()`` and the event texts.

Written in our own words; each explanation names the rulebook section
(Mighty Trees Party Game, Timber Version) it comes from.

Hidden information: ``explain(state, viewer)`` and ``describe(state, action, viewer)``
given a viewer (a player number, or ``PUBLIC`` = -1 for a covered screen) name
only cards that viewer may see (``state.view_for(viewer)``): their own Command
and the public cards; the other Commands and the draw pile only as counts.  With
``viewer=None`` they speak for the omniscient engine (tests, logs, the teacher).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core import plural
from .actions import Action, Phase, Verb, player_name
from .data import (
    COMMAND_SIZE,
    DECK,
    DISCARD_COST,
    HABITATS,
    MIN_SOLS_SPENT,
    POWER_TEXT,
    PREFERRED_BONUS,
    SLOTS,
    SOLS_PER_TURN,
    Element,
    Kind,
    Sides,
)

if TYPE_CHECKING:
    from .engine import MightyTreesState

__all__ = ["describe", "explain", "sols", "deaths", "range_fate", "strength_fate", "may_see_hand"]


def may_see_hand(viewer: int | None, player: int) -> bool:
    """Whether ``viewer`` (None: the omniscient engine) may read ``player``'s Command."""
    return viewer is None or viewer == player


def sols(n: int) -> str:
    """'1 Sol' or 'n Sols'."""
    return f"{n} Sol" if n == 1 else f"{n} Sols"


def describe(state: MightyTreesState, action: Action, viewer: int | None = None) -> str:
    """Plain words for what ``action`` does now, with its Sol cost (a draw names its card only to its receiver).

    Playing or discarding a card shows it face up, so a Battle Phase action names its card
    to every viewer; a drawn card goes into one Command, so only its receiver reads its name.
    """
    verb = action.verb
    if verb is Verb.HABITAT:
        h = HABITATS[action.card]
        return f"The habitat drawn is {h.name} ({h.region})."
    if verb is Verb.DRAW:
        receiver = state.dealt % state.num_players if state.phase is Phase.DEAL else state.mover
        if not may_see_hand(viewer, receiver):
            return f"{player_name(receiver)} draws a card from the draw pile (face down)."
        return f"Draw {DECK[action.card].name} from the draw pile."
    if verb is Verb.FIRST:
        return f"{player_name(action.player)} plays first."
    if verb is Verb.END:
        return f"End the Battle Phase ({sols(state.sols)} unspent are lost) and Regroup."
    reason = state.why_not(action)
    cost = ""
    if verb is Verb.GROW:
        card = state.under[SLOTS * state.mover + action.slot] if 0 <= action.slot < SLOTS else -1
        name = DECK[card].name if card >= 0 else "the tree"
        text = f"Grow {name} from understory slot {action.slot + 1} into the canopy{cost}."
    elif verb is Verb.DISCARD and action.place != "hand":
        text = f"Remove your tree in {action.place} slot {action.slot + 1} to the litter{cost}."
    elif verb is Verb.DISCARD:
        text = f"Discard {DECK[action.card].name} from your Command to the litter{cost}."
    elif verb is Verb.PLANT:
        tree = DECK[action.card]
        text = f"Plant {tree.name} ({tree.common}) in your understory{cost}"
        if action.player >= 0 and not reason:
            defender = state.under[SLOTS * action.player + action.slot]
            sun, shade = state.strength(action.card, "sun"), state.strength(defender, "shade")
            outcome = (
                "it would win"
                if sun > shade
                else "it would lose and die"
                if sun < shade
                else "a tie: both stand"
            )
            text += (
                f", attacking {player_name(action.player)}'s {DECK[defender].name} "
                f"(sun {sun} against shade {shade}: {outcome})"
            )
        text += "."
    elif verb is Verb.CLOUD:
        c = DECK[action.card]
        text = (
            f"Place the cloud {c.name}: {c.affects.value} {c.change:+d} until the start of your next "
            f"turn{cost}."
        )
    elif verb is Verb.TREND:
        c = DECK[action.card]
        text = (
            f"Play {c.name}: {c.affects.value} {c.change:+d} for good; trees whose {c.affects.value} "
            f"range no longer holds die{cost}."
        )
    else:
        d = DECK[action.card]
        where = f" on {player_name(action.player)}'s side" if d.sides is Sides.ONE else ""
        if action.player >= 0 and d.sides is Sides.ALL:
            where = f" on your side and {player_name(action.player)}'s"
        text = f"Unleash {d.name}{where}: {_disaster_effect(state, d)}{cost}."
    if reason:
        return text + f" Not allowed now: {reason}."
    return text + f" Cost: {sols(state.cost_of(action))}."


def _disaster_effect(state: MightyTreesState, d) -> str:
    """What a disaster card does in this habitat, in a few words."""
    trees = "trees" if d.targets.value == "all" else f"{d.targets.value} trees"
    if d.is_climate:
        lingers = d.linger and state.game.lingering
        how = f", lingering {plural(d.linger, 'round')}" if lingers else ""
        return f"{d.element.value} {d.strength:+d}{how}; {trees} whose {d.element.value} range no longer holds die"
    h = HABITATS[state.habitat] if state.habitat >= 0 else None
    mod = 0 if h is None else h.fire_mod if d.element.value == "fire" else h.wind_mod
    return f"{d.element.value} force {d.strength + mod}; {trees} with less {d.element.value} strength die"


def explain(state: MightyTreesState, viewer: int | None = None) -> str:
    """Plain words on what the rules say at this moment, naming the rulebook section (for ``viewer``'s eyes)."""
    phase = state.phase
    n = state.num_players
    if phase is Phase.HABITAT:
        left = len(HABITATS) - state.habitats_used.bit_count()
        if state.turn == 0:
            return (
                f"Game Layout: one habitat card is drawn at random (from {left}); all {n} players "
                "compete in that same habitat, each with 2 understory and 2 canopy slots."
            )
        return (
            f"Game Variations (capture 2 habitats): the captured habitat was cleared; a new one is "
            f"drawn from the {left} not yet played, then the next round begins with "
            f"{player_name((state.mover + 1) % n)}."
        )
    if phase is Phase.DEAL:
        receiver = state.dealt % n
        return (
            f"Player Commands: each player draws {COMMAND_SIZE} cards to form a Command; "
            f"card {state.dealt + 1} of {COMMAND_SIZE * n} goes to {player_name(receiver)}. "
            f"Every card left in the draw pile ({state.draw_size}) is equally likely."
        )
    if phase is Phase.FIRST_PLAYER:
        return (
            f"Game Turn: the 1st player is selected at random among the {n} players; "
            "then turns go round in order P1, P2, ..."
        )
    if phase is Phase.REGROUP:
        have = state.hands[state.mover].bit_count()
        return (
            f"Regroup Phase: {player_name(state.mover)} has {plural(have, 'card')} and draws until "
            f"{COMMAND_SIZE} are in the Command ({state.draw_size} in the draw pile, each equally likely); "
            "drawing ends the turn."
        )
    if phase is Phase.GAME_OVER:
        if state.winner >= 0:
            need = state.game.habitats_to_win
            return (
                f"Winning: {player_name(state.winner)} captured {need} habitat{'s' if need > 1 else ''} "
                "(2 canopy trees: Capturing a Habitat) and wins the game."
            )
        if state.turn <= state.game.max_turns:
            return "The game is over without a winner: the 10 habitat cards ran out (our interpretation)."
        return (
            f"The game is over without a winner: nobody captured a habitat within max_turns = "
            f"{state.game.max_turns} turns (our interpretation; the rulebook sets no limit)."
        )
    return _explain_battle(state, viewer)


def _explain_battle(state: MightyTreesState, viewer: int | None) -> str:
    """The Battle Phase: Sols left, what each affordable action costs, and why others are not allowed."""
    me = state.mover
    h = HABITATS[state.habitat]
    t, w = state.conditions()
    lines = [
        f"Turn {state.turn}: {player_name(me)}'s Battle Phase. The Mobilization Phase gave "
        f"{sols(SOLS_PER_TURN)}; {sols(state.sols)} left ({sols(state.spent)} spent). Sol Laws (Party Game): "
        "spend at least 1 Sol a turn; unspent Sols are lost.",
        f"Habitat {h.name}: temperature {t} (card {h.temperature}), water {w} (card {h.water}); "
        f"preferred {', '.join(h.preferred)} (+2 strengths); fire {h.fire_mod:+d}, wind {h.wind_mod:+d}; "
        f"{POWER_TEXT[h.power]}.",
    ]
    in_play = [c.name for c in state.trend_cards] + [
        f"{c.name} ({plural(r, 'round')} left)" for c, _, r in state.weather
    ]
    if in_play:
        lines.append("In play (Place a Weather Card / Unleash a Disaster): " + ", ".join(in_play) + ".")
    if may_see_hand(viewer, me):
        for card in state.hand(me):
            lines.append(_explain_card(state, card.id))
    else:
        lines.append(
            f"Player Commands: {player_name(me)} holds {plural(state.hands[me].bit_count(), 'card')}, face down "
            "(only their owner sees them)."
        )
    lo = SLOTS * me
    for s in range(SLOTS):
        card = state.under[lo + s]
        if card >= 0:
            grow = Action(Verb.GROW, slot=s)
            reason = state.why_not(grow)
            lines.append(
                f"- Understory {s + 1}, {DECK[card].name}: "
                + (
                    f"'{grow}' costs {sols(state.cost_of(grow))} (Grow Trees)"
                    if reason is None
                    else f"cannot grow: {reason}"
                )
                + f"; removing it costs {sols(DISCARD_COST)}."
            )
        if state.canopy_slots[lo + s] >= 0:
            lines.append(
                f"- Canopy {s + 1}, {DECK[state.canopy_slots[lo + s]].name}: removing it costs "
                f"{sols(DISCARD_COST)}."
            )
    end_reason = state.why_not(Action(Verb.END))
    if not may_see_hand(viewer, me) and state.spent < MIN_SOLS_SPENT:
        lines.append(  # whether the Command holds a payable card is the mover's secret
            f"- 'end': Sol Laws (Party Game): allowed once {player_name(me)} has spent 1 Sol, or has "
            "nothing to spend it on; Regroup Phase follows."
        )
    else:
        lines.append(
            "- 'end': "
            + (
                "allowed; Regroup Phase follows (draw up to 3 cards)."
                if end_reason is None
                else f"not yet: {end_reason}."
            )
        )
    n = state.num_players
    full = [player_name(p) for p in range(n) if all(c is not None for c in state.canopy(p))]
    last = player_name((me + (-state.turn) % n) % n)
    lines.append(
        "Capturing a Habitat (our interpretation): at the end of each round, after "
        f"{last}'s turn, a player with 2 canopy trees captures the habitat (most trees, then the "
        "earliest in the round, if several). "
        + (f"Holding 2 canopy trees now: {', '.join(full)}." if full else "Nobody holds 2 canopy trees now.")
    )
    targets = [player_name(p) for p in range(state.num_players) if p != me and state.tree_count(p) >= 2]
    lines.append(
        "Initiate Tree Combat: only a tree being planted may attack, only an understory tree of a "
        "player with at least 2 trees; sun against shade, higher wins, a tie leaves both. "
        + (f"Attackable now: {', '.join(targets)}." if targets else "Nobody can be attacked now.")
    )
    return "\n".join(lines)


def _explain_card(state: MightyTreesState, card: int) -> str:
    """One line for a card in the mover's Command: what playing it costs, or why it cannot be played."""
    c = DECK[card]
    if c.kind is Kind.TREE:
        action = Action(Verb.PLANT, card)
        label = (
            f"{c.name} ({c.common}; temperature {c.temp_min}-{c.temp_max}, water {c.water_min}-{c.water_max})"
        )
    elif c.kind is Kind.DISASTER:
        needs_side = c.sides is Sides.ONE or state.game.two_sided
        other = next((p for p in range(state.num_players) if p != state.mover), -1)
        action = Action(Verb.DISASTER, card, other if needs_side else -1)
        label = f"disaster {c.name}"
    else:
        action = Action(Verb.CLOUD if c.kind is Kind.CLOUD else Verb.TREND, card)
        label = f"{c.kind.value} {c.name} ({c.affects.value} {c.change:+d})"
    reason = state.why_not(action)
    if reason is None:
        play = f"playing it costs {sols(state.cost_of(action))} (Battle Phase)"
    else:
        play = f"cannot be played: {reason}"
    return f"- {label}: {play}; discarding it costs {sols(DISCARD_COST)}."


def range_fate(axis: Element, low: int, high: int, value: int) -> tuple[bool, str, str]:
    """A tree's fate when ``axis`` becomes ``value``: (survives, measure, reason)."""
    measure = f"{axis.value} {low}-{high}"
    if low <= value <= high:
        return True, measure, f"{axis.value} {value} is within its range {low}-{high}: it stands"
    return False, measure, f"{axis.value} {value} is outside its range {low}-{high}: it dies"


def strength_fate(kind: str, strength: int, force: int, preferred: bool) -> tuple[bool, str, str]:
    """A tree's fate against a fire or wind ``force``: (survives, measure, reason); strength includes any bonus."""
    measure = f"{kind} {strength}" + (f" (preferred +{PREFERRED_BONUS})" if preferred else "")
    if strength >= force:
        return True, measure, f"its {measure} holds against force {force}: it stands"
    return False, measure, f"its {measure} is below force {force}: it dies"


def deaths(dead: list[str]) -> str:
    """'X and Y die.' or 'No tree dies.'"""
    if not dead:
        return "No tree dies."
    if len(dead) == 1:
        return f"{dead[0]} dies and goes to the litter."
    return f"{', '.join(dead)} die and go to the litter."


# -- the table in words, for people who cannot see the picture (issue 21) -------------


def card_words(card) -> str:
    """A card in words: a tree with its costs and ranges, or another card's name and kind."""
    if card is None:
        return "empty"
    if getattr(card, "kind", None) is Kind.TREE:
        grow = f", grows for {sols(card.grow)}" if card.grow is not None else ", never grows"
        return (f"{card.name} ({card.common}), plants for {sols(card.plant)}{grow}; temperature "
                f"{card.temp_min}-{card.temp_max}, water {card.water_min}-{card.water_max}; sun {card.sun}, "
                f"shade {card.shade}, fire {card.fire}, wind {card.wind}")
    return f"{card.name} ({card.kind.value})"


def describe_board(state: MightyTreesState, viewer: int | None = None
                   ) -> list[tuple[str, list[str], list[tuple[str, list[str]]]]]:
    """The table as tables: the habitat and piles; each side's slots; the viewer's own Command.

    Each table is (caption, column headings, [(row heading, one text per column)]).  Another player's
    Command is only counted, never named, unless ``viewer`` is None (the omniscient engine).
    """
    n = state.game.num_players
    t, w = state.conditions()
    habitat = state.habitat_card
    weather = [f"{card.name} ({card.kind.value}, {plural(left, 'round')} left)" for card, _owner, left in state.weather]
    table = [
        ("Habitat", [habitat.name if habitat is not None else "none (captured)"]),
        ("Now", [f"temperature {t}, water {w}"]),
        ("Draw pile", [plural(state.draw_size, "card")]),
        ("Litter top", [card_words(state.litter_top) if state.litter_top is not None else "empty"]),
        ("Trends and weather", ["; ".join([c.name for c in state.trend_cards] + weather) or "none"]),
    ]
    sides = []
    for p in range(n):
        under, canopy = state.understory(p), state.canopy(p)
        command = len(state.hand(p))
        sides.append((player_name(p), [card_words(under[0]), card_words(under[1]), card_words(canopy[0]),
                                       card_words(canopy[1]), plural(command, "card")]))
    tables = [("The habitat and the piles", ["What"], table),
              ("Each side (understory and canopy slots, Command size)",
               ["understory 1", "understory 2", "canopy 1", "canopy 2", "Command"], sides)]
    for p in range(n):
        if viewer is not None and may_see_hand(viewer, p):
            hand = state.hand(p)
            tables.append((f"{player_name(p)}'s Command (only you see it)", ["Card"],
                           [(str(i + 1), [card_words(c)]) for i, c in enumerate(hand)] or [("-", ["no cards"])]))
    return tables
