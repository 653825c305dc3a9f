"""Tournaments: N seeded games of any game, options and bots per seat, with results that carry intervals.

No UI imports.  The pieces, in the order a tournament uses them:

* :class:`TournamentSpec` -- what to play: the game, its options, one bot name
  per seat (the game type's ``bots``, e.g. ``"greedy"`` and ``"random"``), how
  many games, the seed, and whether seats rotate.
* :func:`play_game` -- game number ``i`` of a spec, as a small
  :class:`GameRecord`.  It depends on nothing but the spec and ``i``: the seeds
  of game ``i`` are derived from ``(seed, block of i)``, so a tournament gives
  exactly the same records whichever worker plays which game, and any single
  game can be replayed (:func:`saved_game`) from its row number alone.
* :class:`~treegames.lab.runner.TournamentRun` (in :mod:`.runner`) plays the
  games in the background, in this process or in worker processes.
* :class:`~treegames.lab.results.Results` (in :mod:`.results`) counts them.

Seating (our design)
--------------------
With ``rotate=True`` the games come in *blocks* of one game per seat: within a
block every game uses the same seeds, and the line-up is turned one seat on per
game, so each bot sits in each seat once with the same chance seed (common
random numbers): the same first-player draw, and the same random numbers for
every later chance event.  What that shares differs by game: each game's plug-in
says it in a phrase (:func:`shared_chance`).  With two players a
block is a pair of games in which the two bots swap seats; the paired
comparison in :mod:`.results` compares the bots within pairs.  A bot's own
random stream follows the bot, not the seat.  With ``rotate=False`` every game
uses the line-up as given and has seeds of its own.

Who moves first is decided by the game's own chance node in all three games;
each record keeps the seat of the *first mover* (the first player to make a
decision), which is what the first-player lesson counts.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from functools import lru_cache
from typing import Any

from .. import core
from ..plugins import plugin

__all__ = [
    "MAX_GAMES",
    "MAX_COACH_GAMES",
    "Outcome",
    "TournamentSpec",
    "GameRecord",
    "SpecError",
    "game_types",
    "bot_names",
    "seat_names",
    "play_game",
    "play_games",
    "make_bot",
    "saved_game",
    "outcome_of",
    "shared_chance",
]

MAX_GAMES = 10_000
MAX_COACH_GAMES = 200
"""A tournament with a coach seat plays at most this many games: each coach move is hundreds of playouts
(a coach-hard Aspens game takes minutes), and a visitor's tournament must not hold the server's cores for
hours. 200 is what the coach's ladder needs (``benchmarks/bench_coach.py``)."""
"""The most games one tournament may ask for (a bound, so one visitor cannot occupy a shared server)."""

MAX_ACTIONS = 200_000
"""Safety bound on the actions of one game (every engine ends far sooner)."""


class SpecError(ValueError):
    """A tournament that cannot be played; the message names the field at fault."""


class Outcome(StrEnum):
    """What one game meant for one seat."""

    WIN = "win"
    TIE = "tie"
    LOSS = "loss"


# --------------------------------------------------------------------------
# Games and bots, through the protocol's game types.


def game_types() -> dict[str, core.GameType]:
    """{name: game type} for every game (``treegames.games()``)."""
    return core.games()


def _game_module(name: str):
    """The engine package of a game, e.g. ``treegames.aspens``."""
    return core.game_module(name)


def bot_names(game: str) -> list[str]:
    """The bots a game offers, by name (RandomBot included)."""
    return list({**game_types()[game].bots, "random": core.RandomBot})


def _bot_class(game: str, name: str) -> Callable:
    """The bot class called ``name`` in ``game``."""
    bots = {**game_types()[game].bots, "random": core.RandomBot}
    if name not in bots:
        raise SpecError(f"field 'bots': {game} has no bot {name!r}; the bots are: {', '.join(bots)}")
    return bots[name]


def make_bot(game: str, name: str, rng: random.Random):
    """A new bot called ``name`` of ``game`` drawing on ``rng``."""
    return _bot_class(game, name)(rng)


def seat_names(game: str, players: int) -> list[str]:
    """The seats' names in the game's own words (Aspen/Pine, Maple/Oak/..., P1...)."""
    names = getattr(_game_module(game), "PLAYER_NAMES", None)
    if names and len(names) >= players:
        return list(names[:players])
    return [f"P{i + 1}" for i in range(players)]


def shared_chance(game: str) -> str:
    """What two games with the same chance seed share, in a phrase (the game plug-in's ``shared_chance``)."""
    return plugin(game).shared_chance


# --------------------------------------------------------------------------
# The spec


@dataclass(frozen=True)
class TournamentSpec:
    """What a tournament plays: see the module docstring for seating and seeds."""

    game: str = field(default_factory=lambda: core.game_names()[0])
    """The game's name (default: the first game a menu lists)."""
    bots: tuple[str, ...] = ("random", "random")
    games: int = 100
    seed: int = 0
    rotate: bool = True
    options: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        types = game_types()
        if self.game not in types:
            raise SpecError(f"field 'game': no game {self.game!r}; the games are: {', '.join(types)}")
        object.__setattr__(self, "bots", tuple(self.bots))
        object.__setattr__(self, "options", dict(self.options))
        players = types[self.game].players
        if len(self.bots) not in players:
            allowed = ", ".join(map(str, players))
            raise SpecError(f"field 'bots': {self.game} is for {allowed} players, not {len(self.bots)} bots")
        for name in self.bots:
            _bot_class(self.game, name)
        if type(self.games) is not int or not 1 <= self.games <= MAX_GAMES:
            raise SpecError(f"field 'games' must be a whole number from 1 to {MAX_GAMES}, not {self.games!r}")
        if self.games > MAX_COACH_GAMES and any(name.startswith("coach") for name in self.bots):
            raise SpecError(f"field 'games': a tournament with a coach plays at most {MAX_COACH_GAMES} games "
                            f"(each coach move is hundreds of playouts), not {self.games}")
        if type(self.seed) is not int:
            raise SpecError(f"field 'seed' must be a whole number, not {self.seed!r}")
        if "players" in self.options and self.options["players"] != len(self.bots):
            raise SpecError(f"option 'players' is {self.options['players']!r} but there are {len(self.bots)} bots")
        try:
            self.new_game()
        except ValueError as err:
            raise SpecError(f"field 'options': {err}") from None

    @property
    def players(self) -> int:
        """How many seats."""
        return len(self.bots)

    @property
    def block_size(self) -> int:
        """Games that share one set of seeds: one per seat when rotating, else 1."""
        return self.players if self.rotate else 1

    def game_options(self) -> dict[str, Any]:
        """The keywords for the engine's new_game (the player count added when the game has more than one)."""
        options = dict(self.options)
        if len(game_types()[self.game].players) > 1:
            options["players"] = self.players
        return options

    def new_game(self) -> core.Game:
        """The engine's game for these options (cached per process)."""
        return _cached_game(self.game, tuple(sorted(self.game_options().items())))

    def seating(self, index: int) -> tuple[int, ...]:
        """For game ``index``, which line-up entry sits in each seat."""
        turn = index % self.players if self.rotate else 0
        return tuple((seat + turn) % self.players for seat in range(self.players))

    def seeds(self, index: int) -> str:
        """The seed text of game ``index`` (shared by the games of one block)."""
        return f"treegames-lab/{self.seed}/{index // self.block_size}"

    def to_dict(self) -> dict[str, Any]:
        """The spec as JSON-safe data (for CSV headers and saved files)."""
        return {"game": self.game, "bots": list(self.bots), "games": self.games, "seed": self.seed,
                "rotate": self.rotate, "options": self.game_options()}


@lru_cache(maxsize=32)
def _cached_game(name: str, options: tuple) -> core.Game:
    """One game object per (game, options) per process."""
    return _game_module(name).new_game(**dict(options))


# --------------------------------------------------------------------------
# One game


@dataclass(frozen=True)
class GameRecord:
    """The result of one tournament game, small enough to send between processes by the thousand."""

    index: int
    seats: tuple[str, ...]  # the bot name in each seat
    lineup: tuple[int, ...]  # the line-up entry in each seat
    first: int  # seat of the first mover (-1 if nobody moved)
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    moves: int  # decisions made by the players
    actions: int  # every action, chance outcomes included

    def outcome(self, seat: int) -> Outcome:
        """Win, tie or loss for one seat."""
        return outcome_of(self.winners, seat)

    def margin(self, seat: int) -> int:
        """A seat's score minus the best other seat's score."""
        return self.scores[seat] - max(s for i, s in enumerate(self.scores) if i != seat)


def outcome_of(winners: tuple[int, ...], seat: int) -> Outcome:
    """Win (the only winner), tie (a shared win, or a draw with no winner) or loss."""
    if not winners:
        return Outcome.TIE
    if seat in winners:
        return Outcome.WIN if len(winners) == 1 else Outcome.TIE
    return Outcome.LOSS


def _play(spec: TournamentSpec, index: int, keep_state: bool = False):
    """Play game ``index`` of ``spec``: its record, and its final state if asked."""
    if type(index) is not int or not 0 <= index < spec.games:
        raise SpecError(f"game number must be from 0 to {spec.games - 1}, not {index!r}")
    game = spec.new_game()
    seed = spec.seeds(index)
    lineup = spec.seating(index)
    chance = random.Random(f"{seed}/chance")
    bots = [make_bot(spec.game, spec.bots[entry], random.Random(f"{seed}/bot/{entry}")) for entry in lineup]
    state = game.new_initial_state()
    first, moves = -1, 0
    for _ in range(MAX_ACTIONS):
        if state.is_terminal():
            break
        player = state.current_player
        if player == core.CHANCE:
            state = state.apply(core.sample_chance(state, chance))
            continue
        if first < 0:
            first = player
        moves += 1
        state = state.apply(bots[player].choose(state))
    else:
        raise RuntimeError(f"{spec.game} game {index}: no end after {MAX_ACTIONS} actions")
    record = GameRecord(
        index=index,
        seats=tuple(spec.bots[entry] for entry in lineup),
        lineup=lineup,
        first=first,
        scores=tuple(int(s) for s in state.scores()),
        winners=tuple(state.winners()),
        moves=moves,
        actions=len(state.history),
    )
    return (record, state) if keep_state else record


def play_game(spec: TournamentSpec, index: int) -> GameRecord:
    """Game number ``index`` (0-based) of the tournament, played from its own seeds."""
    return _play(spec, index)


def play_games(spec: TournamentSpec, start: int, stop: int) -> list[GameRecord]:
    """Games ``start`` to ``stop - 1`` (one worker's chunk)."""
    return [_play(spec, i) for i in range(start, stop)]


def saved_game(spec: TournamentSpec, index: int) -> str:
    """The saved game (the engine's ``to_json``) of game ``index``, replayed from its seeds."""
    _record, state = _play(spec, index, keep_state=True)
    return state.to_json()
