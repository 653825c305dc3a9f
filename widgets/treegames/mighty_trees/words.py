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

__all__ = [
    "CAPTURE_AT_ONCE", "CAPTURE_AT_ROUND_END", "SEATS", "SILENT", "DEPARTURES",
    "describe", "explain", "capture_rule", "sols", "deaths", "range_fate", "strength_fate", "may_see_hand",
]


CAPTURE_AT_ONCE = (
    "Capturing a Habitat (the rule sheet; the default): the first player to have 2 canopy trees captures "
    "the habitat. The action that grows your second canopy tree captures it at once, and capturing 1 "
    "habitat wins the game, before anyone else moves."
)
"""The printed capture rule, in our words (used by explain, the walkthrough, the tour and the New game form)."""

CAPTURE_AT_ROUND_END = (
    "capture_at_round_end (our variant for fairness; it departs from the rule sheet's text): capture waits "
    "until the round ends, so every player has had as many turns. A rival can still knock a canopy tree "
    "down, or grow their own second one; if several players hold 2 canopy trees then, the one with the "
    "most trees captures, and if still tied, the one earliest in the round."
)
"""Our round-end variant, in the same words wherever it is shown."""

SEATS = (
    "The rule sheet: 2 to 6 players, and more can play, with longer waits between turns. We allow 7 and 8: "
    "the 72-card deck deals 24 cards and leaves 48 to draw; in 2000 GreedyBot games at 8 players the litter "
    "became the draw pile 0.87 times a game, a game lasted a median 6.4 turns per player and 0.2% were drawn "
    "(benchmarks/bench_mighty_trees_balance.py)."
)
"""What the players option allows and why (the New game form and the docstring)."""


SILENT: dict[str, str] = {
    "cards": (
        "The rule sheet points to a Guidebook and to cards we do not have. Our 50 tree cards are real trees of "
        "the south-eastern United States: a tree's temperature range is its USDA hardiness zones and its colour "
        "its water preference. The Sol costs and the sun, shade, fire and wind strengths, and every cloud, "
        "trend, disaster and habitat card, are our own design (cards/*.csv)."
    ),
    "selection": (
        "'Select 1 habitat card' and 'Select 1st Player' do not say how: both are drawn at random (chance), "
        "and turns then go round in seat order."
    ),
    "combat": (
        "The rule sheet says when combat may happen, not how it is decided. Ours: the attacker's sun strength "
        f"against the defender's shade strength, each +{PREFERRED_BONUS} if the habitat prefers that species; "
        "the higher wins and the loser goes to the litter; a tie leaves both standing. Combat is part of "
        "planting and costs no extra Sol."
    ),
    "conditions": (
        "The habitat's conditions now are its card's temperature and water plus every trend, cloud and "
        "lingering disaster in play, kept within 1-9; a tree is planted only if both lie inside its ranges."
    ),
    "cloud": (
        "A cloud changes water or temperature until the start of its player's next turn (our duration; "
        "clouds never kill trees)."
    ),
    "trend": (
        "A trend stays beside the habitat for as long as that habitat is in play, and at once every tree whose "
        "range on the trend's axis (water or temperature) no longer holds the new value dies (our reading of a "
        "lasting climate change)."
    ),
    "linger": (
        "Water and temperature disasters linger: the card stays in play, its change in force, for the rounds "
        "printed on it (the 'Ignore lingering' variation turns this off). Only trees whose range on that axis "
        "no longer holds die, and a card leaving play kills nothing."
    ),
    "strike": (
        "A fire or wind disaster has a force (its strength plus the habitat's fire or wind modifier); each tree "
        "struck whose fire or wind strength is lower dies."
    ),
    "powers": (
        "Each habitat has one power, a 1-Sol discount: rich soil (growing, never below 2 Sols), or fire "
        "season, hurricane coast, floodplain, high elevation (disasters of that element, never below 1 Sol)."
    ),
    "sols": "Unspent Sols are lost at the end of the Battle Phase (the rule sheet gives 3 a turn, no savings).",
    "empty piles": "If the draw pile and the litter pile are both empty, the Regroup Phase draws nothing.",
    "two habitats": (
        "Capture 2 Habitats (a Game Variation) does not say what follows a capture. Ours: the capturer's turn "
        "ends (Regroup), the habitat is cleared (trees, weather and trends to the litter), a new habitat is "
        "drawn and the next player begins; if the 10 habitats run out, the game is a draw."
    ),
    "seats": SEATS,
}
"""Where the rule sheet is silent: our designs, by topic (the package docstring and the walkthrough list these)."""

DEPARTURES: dict[str, str] = {
    "capture_at_round_end": (
        f"{CAPTURE_AT_ROUND_END} Off by default. Why someone would propose it: under the printed rule the "
        "first seat can reach the canopy and win before the later seats have had as many turns; the variant "
        "evens the turns. benchmarks/bench_mighty_trees_balance.py measures both rules side by side."
    ),
    "max_turns": (
        "The rule sheet sets no turn limit and has no draws. max_turns (0, the default, means 30 turns per "
        "player) ends a game nobody has won as a draw, so every game, tournament and lesson ends. The text "
        "cannot be the default: bots' games would not be sure to end (RandomBot games reach 30 turns per "
        "player about 70% of the time); the largest value, 100000, comes closest."
    ),
    "no Sol to spend": (
        "Sol Laws: at least 1 Sol must be spent each turn. A player with nothing at all to spend it on (an "
        "empty Command and no trees, possible only when both piles are empty) may end with 0 spent. No "
        "option: the printed rule would leave that player without any legal move."
    ),
}
"""Where we depart from the rule sheet's text: each by its named option (or why there is none) and its reason."""


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
        effect = _grow_effect(state) if card >= 0 else ""
        text = f"Grow {name} from understory slot {action.slot + 1} into the canopy{effect}{cost}."
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
            how = (
                "2 canopy trees standing when a round ended: our variant capture_at_round_end"
                if state.game.capture_at_round_end
                else "the first to have 2 canopy trees: Capturing a Habitat"
            )
            return (
                f"Winning: {player_name(state.winner)} captured {need} habitat{'s' if need > 1 else ''} "
                f"({how}) and wins the game."
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
    lines.append(capture_rule(state))
    targets = [player_name(p) for p in range(state.num_players) if p != me and state.tree_count(p) >= 2]
    lines.append(
        "Initiate Tree Combat: only a tree being planted may attack, only an understory tree of a "
        "player with at least 2 trees; sun against shade, higher wins, a tie leaves both. "
        + (f"Attackable now: {', '.join(targets)}." if targets else "Nobody can be attacked now.")
    )
    return "\n".join(lines)


def capture_rule(state: MightyTreesState) -> str:
    """The capture rule in force (the printed rule, or our round-end variant) and who is close to it now."""
    n, me = state.num_players, state.mover
    if not state.game.capture_at_round_end:
        one = [player_name(p) for p in range(n) if sum(c is not None for c in state.canopy(p)) == 1]
        return (
            "Capturing a Habitat: the first player to have 2 canopy trees captures the habitat at once, "
            "the moment the second one grows. "
            + (f"One canopy tree now: {', '.join(one)}." if one else "Nobody has a canopy tree yet.")
        )
    full = [player_name(p) for p in range(n) if all(c is not None for c in state.canopy(p))]
    last = player_name((me + (-state.turn) % n) % n)
    return (
        "Capturing a Habitat, our variant capture_at_round_end (the rule sheet captures at once): at the "
        f"end of each round, after {last}'s turn, a player with 2 canopy trees captures the habitat "
        "(most trees, then the earliest in the round, if several). "
        + (f"Holding 2 canopy trees now: {', '.join(full)}." if full else "Nobody holds 2 canopy trees now.")
    )


def _grow_effect(state: MightyTreesState) -> str:
    """What growing does to the capture: a second canopy tree captures (at once, or at the round's end)."""
    lo = SLOTS * state.mover
    if sum(c >= 0 for c in state.canopy_slots[lo : lo + SLOTS]) != SLOTS - 1:
        return ""
    if state.game.capture_at_round_end:
        return (
            "; a second canopy tree: if both stand when the round ends, you capture the habitat "
            "(our variant capture_at_round_end)"
        )
    return "; your second canopy tree: you capture the habitat at once (Capturing a Habitat)"


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
