"""The shared protocol's helpers, checked on a tiny game made for the purpose.

The toy game: a coin decides who starts, then players alternately take 1 or 2
pebbles from a pile of 5; whoever takes the last pebble wins.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from fractions import Fraction

import pytest

from treegames import core


class Pebbles:
    """A game just big enough to exercise every helper in core."""

    name = "pebbles"
    num_players = 2

    def __init__(self, pile: int = 5):
        core.check_options({"pile": pile}, {"pile": (3, 4, 5, 6)})
        self.options = {"pile": pile}

    def new_initial_state(self):
        return PebblesState(self, (), self.options["pile"], None)

    def state_from_json(self, text):
        return core.load_json(self, text)


class PebblesState:
    """Immutable: pile size, player to move, actions so far."""

    def __init__(self, game, history, pile, mover):
        self.game, self.history, self.pile, self.mover = game, history, pile, mover

    def __eq__(self, other):
        return (self.history, self.pile, self.mover) == (other.history, other.pile, other.mover)

    @property
    def current_player(self):
        if self.mover is None:
            return core.CHANCE
        return core.TERMINAL if self.pile == 0 else self.mover

    @property
    def phase(self):
        return "first player" if self.mover is None else ("over" if self.pile == 0 else "take")

    def chance_outcomes(self):
        return [("first 0", Fraction(1, 2)), ("first 1", Fraction(1, 2))] if self.mover is None else []

    def legal_actions(self):
        if self.mover is None:
            return [a for a, _ in self.chance_outcomes()]
        return [f"take {n}" for n in (1, 2) if n <= self.pile] if self.pile else []

    def apply(self, action):
        if action not in self.legal_actions():
            raise core.IllegalAction(f"{action!r} is not allowed in phase {self.phase}")
        if self.mover is None:
            return PebblesState(self.game, self.history + (action,), self.pile, int(action[-1]))
        left = self.pile - int(action[-1])
        mover = self.mover if left == 0 else 1 - self.mover
        return PebblesState(self.game, self.history + (action,), left, mover)

    def is_terminal(self):
        return self.pile == 0

    def scores(self):
        return tuple(int(self.is_terminal() and p == self.mover) for p in range(2))

    def winners(self):
        return (self.mover,) if self.is_terminal() else ()

    def to_json(self):
        return core.save_json(self.game, self.history)

    def explain(self):
        return "Take 1 or 2 pebbles (Rules, 'Taking')."

    def parse_action(self, text):
        if not isinstance(text, str) or not text.startswith(("take ", "first ")):
            raise ValueError(f"cannot read {text!r}")
        return text

    def describe(self, action):
        return f"{action} pebble(s)."

    @property
    def last_event(self):
        return self.describe(self.history[-1]) if self.history else "A new game."

    def actions_at(self, place):
        return [a for a in self.legal_actions() if a.endswith(place)]


def finished_game(seed=1):
    """A whole game played by RandomBots."""
    return core.play(Pebbles(), [core.RandomBot(random.Random(seed))] * 2, random.Random(seed))


def test_protocol_is_recognised():
    game = Pebbles()
    assert isinstance(game, core.Game)
    assert isinstance(game.new_initial_state(), core.State)


def test_sample_chance_follows_the_exact_odds():
    state = Pebbles().new_initial_state()
    rng = random.Random(7)
    counts = Counter(core.sample_chance(state, rng) for _ in range(4000))
    assert set(counts) == {"first 0", "first 1"}
    assert abs(counts["first 0"] - 2000) < 200


def test_sample_chance_is_refused_at_a_player_node():
    state = Pebbles().new_initial_state().apply("first 0")
    with pytest.raises(core.IllegalAction, match="no chance event"):
        core.sample_chance(state, random.Random(1))


def test_sample_chance_handles_uneven_fractions():
    class Skewed:
        phase = "roll"

        def chance_outcomes(self):
            return [("a", Fraction(1, 3)), ("b", Fraction(1, 6)), ("c", Fraction(1, 2))]

    rng = random.Random(3)
    counts = Counter(core.sample_chance(Skewed(), rng) for _ in range(6000))
    assert abs(counts["a"] - 2000) < 200 and abs(counts["b"] - 1000) < 150 and abs(counts["c"] - 3000) < 200


def test_play_reaches_the_end_and_keeps_every_state():
    states = core.play(Pebbles(), [core.RandomBot(random.Random(2))] * 2, random.Random(2), keep=True)
    assert states[-1].is_terminal() and len(states[-1].winners()) == 1
    assert [len(s.history) for s in states] == list(range(len(states)))


def test_play_is_repeatable_with_the_same_seed():
    assert finished_game(5).history == finished_game(5).history


def test_play_needs_one_bot_per_player():
    with pytest.raises(ValueError, match="needs 2 bots"):
        core.play(Pebbles(), [core.RandomBot(random.Random(1))], random.Random(1))


def test_random_bot_uses_a_fast_sampler_when_offered():
    class Fast:
        def random_action(self, rng):
            return "fast"

        def legal_actions(self):
            raise AssertionError("the list should not be built")

    assert core.RandomBot(random.Random(1)).choose(Fast()) == "fast"


def test_replay_accepts_notation_and_actions():
    end = finished_game(3)
    assert core.replay(Pebbles(), [str(a) for a in end.history]) == end
    assert core.replay(Pebbles(), end.history) == end


def test_saved_game_round_trips():
    end = finished_game(4)
    assert Pebbles().state_from_json(end.to_json()) == end


@pytest.mark.parametrize(
    "text, field",
    [
        ("{not json", "not valid JSON"),
        ('{"format": "treegames-save/1", "game": "pebbles", "options": {"pile": 5}', "not valid JSON"),
        ("[1, 2]", "JSON object"),
        ('{"format": "treegames-save/1", "game": "pebbles", "options": {"pile": 5}}', "'history'"),
        ('{"format": "x", "game": "pebbles", "options": {"pile": 5}, "history": []}', "'format'"),
        ('{"format": "treegames-save/1", "game": "bosk", "options": {"pile": 5}, "history": []}', "'game'"),
        ('{"format": "treegames-save/1", "game": "pebbles", "options": {"pile": 9}, "history": []}', "'options'"),
        ('{"format": "treegames-save/1", "game": "pebbles", "options": {"pile": 5}, "history": "x"}', "'history'"),
        ('{"format": "treegames-save/1", "game": "pebbles", "options": {"pile": 5}, "history": [3]}', "'history'"),
    ],
)
def test_malformed_saved_games_are_refused_naming_the_field(text, field):
    with pytest.raises(core.SavedGameError, match=field):
        Pebbles().state_from_json(text)


def test_tampered_history_is_refused_naming_the_step():
    data = json.loads(finished_game(4).to_json())
    data["history"][2] = "take 3"
    with pytest.raises(core.SavedGameError, match=r"history\[2\] 'take 3'"):
        Pebbles().state_from_json(json.dumps(data))


def test_saved_game_error_is_a_value_error():
    assert issubclass(core.SavedGameError, ValueError) and issubclass(core.IllegalAction, ValueError)


def test_check_options_names_the_allowed_values():
    with pytest.raises(ValueError, match="'pile' must be one of 3, 4, 5, 6"):
        Pebbles(pile=9)
    with pytest.raises(ValueError, match="'pile' must be one of"):
        Pebbles(pile=True)
    with pytest.raises(ValueError, match="unknown option 'colour'"):
        core.check_options({"colour": 1}, {"pile": (3,)})
    with pytest.raises(ValueError, match="type int"):
        core.check_options({"turns": "9"}, {"turns": int})


def test_step_refuses_a_finished_game():
    with pytest.raises(core.IllegalAction, match="over"):
        core.step(finished_game(1), [core.RandomBot(random.Random(1))] * 2, random.Random(1))


def test_sample_chance_uses_a_fast_exact_sampler_when_offered():
    class Deck:
        current_player = core.CHANCE
        phase = "draw"

        def sample_chance(self, rng):
            return "card"

        def chance_outcomes(self):
            raise AssertionError("the list should not be built")

    assert core.sample_chance(Deck(), random.Random(1)) == "card"


# ---------------------------------------------------------------------------- the shared machinery


def test_option_allows_only_its_values_and_names_them():
    colour = core.Option("colour", ("red", "blue"), "red", "The colour.")
    turns = core.Option("turns", range(1, 201), 50, "How many turns.")
    assert colour.allows("blue") and not colour.allows("green")
    assert turns.allows(200) and not turns.allows(201) and not turns.allows(2.0) and not turns.allows(True)
    with pytest.raises(core.OptionError, match="'colour' must be one of 'red', 'blue', not 'green'"):
        colour.check("green")
    with pytest.raises(core.OptionError, match="'turns' must be a whole number from 1 to 200"):
        turns.check(0)
    assert issubclass(core.OptionError, ValueError)


def test_merge_options_fills_defaults_in_schema_order_and_refuses_unknown_names():
    schema = (core.Option("a", (1, 2), 1, "A."), core.Option("b", (True, False), True, "B."))
    assert list(core.merge_options(schema, {"b": False}).items()) == [("a", 1), ("b", False)]
    with pytest.raises(core.OptionError, match="unknown option 'c'; the options are: a, b"):
        core.merge_options(schema, {"c": 1})


def test_game_type_reads_its_schema():
    schema = (core.Option("players", (2, 3), 2, "Players."),)
    kind = core.GameType("toy", "Toy", (2, 3), False, False, schema, {"random": core.RandomBot})
    assert kind.defaults() == {"players": 2} and kind.option("players") is schema[0]
    with pytest.raises(core.OptionError, match="Toy has no option 'x'"):
        kind.option("x")


class Counter3(core.FrozenState):
    """A tiny frozen state: a count, a cache and the state it came from."""

    __slots__ = ("count", "cache", "parent")
    _FIELDS = ("count",)
    _RESET = {"cache": None, "parent": core.PARENT}


def test_frozen_state_copier_copies_fields_resets_caches_and_chains_history():
    start = Counter3._blank("game")
    start.count, start.cache, start.parent = 0, "x", None
    start.__class__ = Counter3
    child = start._child("add")
    assert type(child) is Counter3._Draft and child.count == 0 and child.cache is None and child.parent is start
    child.count = 1
    child.__class__ = Counter3
    assert child.history == ("add",) and child.last_action == "add" and start.history == ()
    with pytest.raises(AttributeError, match="immutable"):
        child.count = 2
    with pytest.raises(AttributeError, match="immutable"):
        del child.count
    twin = start._child("add")
    twin.count = 1
    twin.__class__ = Counter3
    assert twin == child and hash(twin) == hash(child) and twin != start


def test_quote_cuts_long_values():
    assert core.quote("abc") == "'abc'"
    long = core.quote("z" * 10_000_000)
    assert len(long) <= 80 and "10000000 chars" in long
    with pytest.raises(core.NotationError, match="no action is longer than"):
        core.check_notation("x" * 1000)
