"""The words of the Aspens engine: explain(), describe(), last_event, the one-line summary and the text picture.

Written in our own words; each text names the rulebook section it follows
(the ``RULE_*`` names below are those sections).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core import CHANCE, TERMINAL, bits, plural
from .actions import Action, ChooseFirst, EndTurn, GrowOut, GrowUp, Phase, RollSun, RollWind, Seed
from .data import HOLD_LIMIT, PLAYER_NAMES, RADIUS, cell_name

if TYPE_CHECKING:
    from .engine import AspensState

__all__ = ["describe", "last_event", "explain", "summary", "picture", "gain_words", "cascade_words"]

RULE_SEED = "1. Seed Your Starting Forests"
RULE_GROW_START = "2. Grow Your Starting Forests"
RULE_ROLL = "Taking a Turn, 1. Roll for Sun and Wind"
RULE_GAIN = "Taking a Turn, 2. Gain Trees"
RULE_UP = "Taking a Turn, 3A. Grow Up"
RULE_OUT = "Taking a Turn, 3B. Grow Out"
RULE_CASCADE = "Taking a Turn, 4. Check for and Resolve Cascades"
RULE_HOLD = "Important reminders: hold up to 5 trees"
RULE_OWNED = "Important reminders: never on another player's space"
RULE_END = "Finishing & Scoring"
RULE_FIRST = "Setup (d): randomly choose a first player"


def describe(state: AspensState, action: Action) -> str:
    """One sentence on what ``action`` does from this state (for the event log)."""
    kind = type(action)
    who = state._mover_name()
    if kind is ChooseFirst:
        return f"{PLAYER_NAMES[action.player]} is chosen to go first."
    if kind is RollSun:
        return f"The Sun die shows {action.value}: spaces with {action.value} or more trees produce."
    if kind is RollWind:
        winds = ", ".join(d.name for d in action.direction.wind_directions())
        return f"The Wind die shows {action.direction.name}: {who} may grow out {winds}."
    if kind is EndTurn:
        return f"{who} ends the turn holding {plural(state._hand[state.current_player], 'tree')}."
    name = cell_name(action.cell)
    if kind is Seed:
        return f"{who} seeds a starting tree on {name}."
    if kind is GrowUp:
        return f"{who} grows up on {name}, making {state.height(action.cell) + 1} trees there."
    if kind is GrowOut:
        if action.source is not None and action.direction is not None:
            return f"{who} grows out {action.direction.name} from {cell_name(action.source)} to {name}."
        return f"{who} grows out to {name}."
    return str(action)


def last_event(state: AspensState) -> str:
    """What just happened, in words (gain arithmetic and cascades included)."""
    action = state.last_action
    if action is None:
        return "A new game: the first player is about to be chosen."
    kind = type(action)
    if kind is ChooseFirst:
        return f"{PLAYER_NAMES[action.player]} goes first; each player takes {state.game.water_count} trees."
    if kind is RollSun:
        return f"The Sun die shows {action.value}."
    if kind is RollWind:
        return f"The Wind die shows {action.direction.name}. " + gain_words(state)
    if kind is EndTurn:
        ender = state.turn_player if state.is_terminal() else 1 - state.turn_player
        return f"{PLAYER_NAMES[ender]} ends the turn." + cascade_words(state)
    name = cell_name(action.cell)
    player = state.owner(action.cell)
    who = PLAYER_NAMES[player] if player is not None else "?"
    if kind is Seed:
        return f"{who} seeds {name}."
    if kind is GrowUp:
        return f"{who} grows up on {name}: now {state.height(action.cell)} trees."
    return f"{who} {str(action).replace('grow-out', 'grows out')}." + cascade_words(state)


def gain_words(state: AspensState) -> str:
    """The gain arithmetic of the last roll, e.g. 'Sun 4: Pine has 3 spaces with 4 or more trees: +3'."""
    if state._gained is None:
        return ""
    parts = []
    for q in (state.turn_player, 1 - state.turn_player):
        n = state._gained[q]
        spaces = "space" if n == 1 else "spaces"
        text = f"{PLAYER_NAMES[q]} has {n} {spaces} with {state.sun} or more trees: +{n}"
        if q == state.turn_player:
            text += f", and +1 bonus for the turn = {n + 1}"
        parts.append(text)
    return f"Sun {state.sun}: " + "; ".join(parts) + "."


def cascade_words(state: AspensState) -> str:
    """A sentence on the cascade of the last action, if any."""
    if not state._cascade:
        return ""
    who = state.owner(state._geo.cell[next(iter(bits(state._cascade)))])
    names = ", ".join(sorted((cell_name(c) for c in state.last_cascade), key=lambda n: (n[0], int(n[1:]))))
    count = state._cascade.bit_count()
    return f" Cascade! {PLAYER_NAMES[who]} fills {plural(count, 'closed-off space')} for free: {names}."


def explain(state: AspensState) -> str:
    """What the rules say at this moment, in plain words, naming the rulebook section."""
    phase = state.phase
    who = state._mover_name()
    if phase is Phase.CHOOSE_FIRST:
        return f"{RULE_FIRST}: a fair coin decides who starts; Aspen and Pine are equally likely."
    if phase is Phase.SEED:
        p = state.current_player
        left = state.game.water_count - state._seeded_waters(p)
        return (
            f"{RULE_SEED}: {who} puts one tree on any empty space beside a water tile. Each player ends "
            f"with exactly one tree beside each water tile, never two by the same one; {who} has {left} "
            f"still to place. Players alternate, the first player first."
        )
    if phase is Phase.GROW_START:
        return (
            f"{RULE_GROW_START}: {who} adds trees, one at a time, to its own seeded spaces only; "
            f"{state._hand[state.current_player]} of 4 left. Empty spaces are off limits in this stage. "
            f"Tall stacks produce more often; spread stacks produce more at once when they do."
        )
    if phase is Phase.ROLL_SUN:
        return (
            f"{RULE_ROLL}: {who}'s turn starts with the dice. The Sun die (2-7) will decide which spaces "
            f"produce trees for both players."
        )
    if phase is Phase.ROLL_WIND:
        return (
            f"{RULE_ROLL}: the Sun shows {state.sun}. Now the Wind die gives the direction {who} may grow "
            f"out in (it and the two beside it). Then comes {RULE_GAIN}: each player takes one tree per "
            f"space with at least {state.sun} trees, and {who} one bonus tree."
        )
    if phase is Phase.PLANT:
        p = state.current_player
        hand = state._hand[p]
        winds = ", ".join(d.name for d in state.valid_winds())
        if hand == 0:
            return (
                f"Taking a Turn, 3. Plant Your New Trees: {who} has planted every tree in hand, so the only "
                f"move left is to end the turn and pass the dice."
            )
        end = (
            "may end the turn now, keeping the rest for later"
            if hand <= HOLD_LIMIT
            else f"must plant at least {hand - HOLD_LIMIT} more before ending the turn (hold at most 5)"
        )
        return (
            f"Taking a Turn, 3. Plant Your New Trees: {who} holds {plural(hand, 'tree')} and places them one at a "
            f"time. Grow Up (3A): add a tree to any space you own; the Wind does not matter. Grow Out "
            f"(3B): plant on an empty space next to your forest in a valid Wind direction ({winds}), even "
            f"next to trees planted this turn. Water and the opponent's spaces are never allowed. {who} "
            f"{end}. {RULE_CASCADE}: closing off an empty area fills it for you for free."
        )
    a, b = state.scores()
    result = "a shared victory" if a == b else f"{PLAYER_NAMES[0] if a > b else PLAYER_NAMES[1]} wins"
    return f"{RULE_END}: no empty space remains. Aspen owns {a} spaces and Pine {b}: {result}."


def summary(state: AspensState) -> str:
    """One line on this state: phase, mover, dice, hands, supplies and scores."""
    mover = {CHANCE: "chance", TERMINAL: "-"}.get(state.current_player)
    if mover is None:
        mover = PLAYER_NAMES[state.current_player]
    dice = f"sun={state.sun if state.sun is not None else '-'} wind={state.wind.name if state.wind else '-'}"
    a, b = state.scores()
    return (
        f"{state.phase.value} mover={mover} {dice} hand={state._hand[0]}/{state._hand[1]} "
        f"bag={state._supply[0]}/{state._supply[1]} spaces={a}/{b}"
    )


def picture(state: AspensState) -> str:
    """The board as text: a row per line, 'a'/'p' plus height (9 for 9 or more) for trees, '~~' water, '..' empty.

    Every hex is drawn at the same offsets: hex (q, r) starts at column 4q + 2r (less the
    leftmost), so each row sits half a hex over from the one above and neighbours touch:
    an E/W neighbour is 4 columns along the same line, a NE/NW/SE/SW one 2 columns over
    on the next line.
    """
    geo = state._geo
    cells = sorted(geo.bit, key=lambda c: (c[1], c[0]))
    left = min(4 * q + 2 * r for q, r in cells)
    lines = []
    for r in range(-RADIUS, RADIUS + 1):
        line = ""
        for cell in (c for c in cells if c[1] == r):
            b = geo.bit[cell]
            if (geo.water >> b) & 1:
                mark = "~~"
            elif (state._own[0] >> b) & 1:
                mark = f"a{min(state.height(cell), 9)}"
            elif (state._own[1] >> b) & 1:
                mark = f"p{min(state.height(cell), 9)}"
            else:
                mark = ".."
            column = 4 * cell[0] + 2 * r - left
            line += " " * (column - len(line)) + mark
        if line:
            lines.append(line)
    return "\n".join(lines)


# -- the board in words, for people who cannot see the picture (issue 21) -------------


def cell_words(state: AspensState, cell) -> str:
    """One hex in words: 'water', 'empty', 'Aspen, 2 trees', with what the mover may do there now."""
    geo = state._geo
    b = geo.bit[cell]
    if (geo.water >> b) & 1:
        return "water"
    owner = state.owner(cell)
    what = "empty" if owner is None else f"{PLAYER_NAMES[owner]}, {plural(state.height(cell), 'tree')}"
    targets = state.legal_targets()
    may = [kind.replace("-", " ") for kind in ("seed", "grow-up", "grow-out") if cell in targets[kind]]
    return what + (f" (may {' or '.join(may)})" if may else "")


def describe_board(state: AspensState) -> list[tuple[str, list[str], list[tuple[str, list[str]]]]]:
    """The hex board as one table: a row per board row (A-O from the top), a column per number (1-15).

    Each table is (caption, column headings, [(row heading, one text per column)]); a column with no
    hex in that row reads ''.  Everything on an Aspens board is public.
    """
    geo = state._geo
    size = 2 * RADIUS + 1
    rows = []
    for r in range(-RADIUS, RADIUS + 1):
        cells = ["" if (q, r) not in geo.bit else cell_words(state, (q, r)) for q in range(-RADIUS, RADIUS + 1)]
        if any(cells):
            rows.append((cell_name((-RADIUS, r))[0], cells))
    caption = (f"The board: Aspen owns {plural(state.scores()[0], 'space')}, Pine {plural(state.scores()[1], 'space')}; "
               "rows A to O from the top, columns 1 to 15 (each row sits half a hex right of the one above)")
    return [(caption, [str(c) for c in range(1, size + 1)], rows)]
