"""The authority: the one place where shared tables change (see the package docstring for the contract).

A table's truth is its row in ``tg_tables`` (game, options, seed, version, status), its seats in
``tg_seats`` (a bot name, or a person with the SHA-256 of their token) and its append-only log in
``tg_moves`` (one row per action in notation, chance outcomes and bot moves included). The state is
never stored: it is the log replayed through the engine (kept in memory per process and brought up to
date from the log whenever the table's version has moved on), so a replay of the log *is* the state.

The version counts every change of a table (each logged action, a join, a bot replacing a seat, a
close), so a long poll wakes for all of them; each log entry carries the version it made.

Chance and bots: after a person's move, or when the last seat is taken, the authority plays chance
nodes and bot seats until a person must move or the game ends. The outcome at version ``v`` is drawn
with ``random.Random(f"{seed}/{v}")`` (the table's stored seed), so the same table plays the same way
in any process, and no client ever picks a die face or a card.

One mover at a time: a move is one transaction that first locks the table's row (PostgreSQL ``FOR
UPDATE``; SQLite ``BEGIN IMMEDIATE``) and checks the version under that lock, so of two moves made on
the same version exactly one is applied; the other gets ``StaleVersion``.
"""

from __future__ import annotations

import json
import logging
import random
import secrets
import threading
import time
import unicodedata
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .. import core
from ..plugins import plugin
from ..service import codes
from ..service.store import Store, register_migrations
from . import queries as q
from .errors import (
    BadRequest,
    BadToken,
    IllegalMove,
    NoSuchTable,
    NotTeacher,
    NotYourTurn,
    RateLimited,
    SeatTaken,
    StaleVersion,
    TableClosed,
    TableError,
    TableFull,
    TooLarge,
)
from .limits import Limits
from .queries import MIGRATIONS
from .views import TableSummary, TableView, Ticket

_LOG = logging.getLogger("treegames.tables")

__all__ = ["Authority", "MIGRATIONS", "PERSON", "replay_table"]

PERSON = "person"
WAITING, PLAYING, FINISHED, CLOSED = "waiting", "playing", "finished", "closed"
LOBBY = "tables"
"""The notice channel for any table's change (lobby, teacher overview)."""

register_migrations("tables", MIGRATIONS)

SEEN_EVERY = 5.0
"""A seat's last-seen time is written at most this often (seconds)."""


@dataclass
class _Row:
    """A table's row."""

    id: str
    code: str
    game: str
    options: dict
    label: str
    hint_allowed: bool
    seed: str
    version: int
    status: str
    creator_hash: str
    created: float
    updated: float

    @classmethod
    def from_db(cls, row: tuple) -> _Row:
        """From a row of ``queries.TABLE_COLUMNS``."""
        values = list(row)
        values[3] = json.loads(values[3])
        values[5] = bool(values[5])
        values[7] = int(values[7])
        return cls(*values)


@dataclass
class _Seat:
    """A seat's row."""

    seat: int
    kind: str
    label: str
    token_hash: str | None
    visitor: str | None
    seen: float | None


@dataclass
class _Entry:
    """One logged action with its sentences: for everybody, and for a player who may read more."""

    version: int
    seat: int | None
    action: str
    public: str
    private: dict = field(default_factory=dict)


@dataclass
class _Play:
    """A table's replayed state at a version, with its log sentences (the in-memory cache)."""

    version: int
    state: Any
    entries: list
    moves: int


def _game_type(name: str) -> core.GameType:
    """The GameType of ``name``; BadRequest if there is no such game."""
    try:
        return plugin(name).game_type
    except core.OptionError as err:  # the registry's words, as the tables' refusal
        raise BadRequest(f"{str(err)[:1].upper()}{str(err)[1:]}.") from None


def _new_game(game: str, options: dict) -> Any:
    """The engine's game for a table; BadRequest naming the option if the options are wrong."""
    try:
        return _game_type(game).new_game(**options)
    except core.OptionError as err:
        raise BadRequest(f"These options cannot make a game: {err}.") from None
    except TypeError:
        raise BadRequest("The options must name the game's options.") from None


def _entry(before: Any, action: str, after: Any, version: int, seat: int | None) -> _Entry:
    """The log entry for ``action`` played from ``before``: the engine's sentences (a drawn card only to its receiver)."""
    observer = plugin(before.game.name).observer
    private = observer.private_words(before, action) if observer is not None else {}
    return _Entry(version, seat, action, after.last_event, private)


def replay_table(game: str, options: dict, actions: list[str]) -> Any:
    """The state a table's log gives: its actions replayed through the engine from the start."""
    return core.replay(_new_game(game, options), actions)


def _clean_text(value: object, what: str, limit: int) -> str:
    """A label as stored: text, control characters as spaces, at most ``limit`` characters; else TooLarge/BadRequest."""
    if value is None:
        return ""
    if not isinstance(value, str):
        raise BadRequest(f"The {what} must be text.")
    if len(value) > limit:
        raise TooLarge(f"The {what} is {len(value)} characters long; at most {limit} are allowed.")
    cleaned = "".join(" " if unicodedata.category(c)[0] == "C" else c for c in value)
    return " ".join(cleaned.split())


def _visitor(value: object) -> str:
    """A visitor id as stored (any short text; '' for none)."""
    if value is None:
        return ""
    if not isinstance(value, str) or len(value) > 200 or not codes.is_encodable(value):
        raise BadRequest("The visitor id must be short text.")
    return value


class _Window:
    """Timestamps of recent events per key, for rate limits (kept in this process's memory)."""

    def __init__(self) -> None:
        self._events: dict[str, deque] = {}
        self._lock = threading.Lock()

    def count(self, key: str, now: float, window: float) -> int:
        """Events for ``key`` within the last ``window`` seconds."""
        with self._lock:
            events = self._events.get(key)
            if not events:
                return 0
            while events and events[0] <= now - window:
                events.popleft()
            return len(events)

    def add(self, key: str, now: float) -> None:
        """One more event for ``key``."""
        with self._lock:
            self._events.setdefault(key, deque()).append(now)
            if len(self._events) > 10_000:  # forget the oldest visitors
                for old in list(self._events)[:5_000]:
                    del self._events[old]


class Authority:
    """The shared-table authority over one store. Every method takes and returns JSON-safe values."""

    def __init__(self, store: Store, limits: Limits | None = None, clock: Callable[[], float] = time.time,
                 teacher_code: str | None = None):
        self.store = store
        self.limits = limits or Limits()
        self.clock = clock
        self.teacher_code = codes.normal_code(teacher_code) if teacher_code else codes.teacher_code(store.data_dir)
        self._plays: dict[str, _Play] = {}
        self._plays_lock = threading.Lock()
        self._failures = _Window()

    # ------------------------------------------------------------------ reading a table

    def _row(self, tx: Any, table_id: str, lock: bool = False) -> _Row:
        """The table's row (locked for this transaction if ``lock``); NoSuchTable if none."""
        row = q.table(tx, table_id, lock)
        if row is None:
            raise NoSuchTable("There is no such table (it may have been reset by the teacher).")
        return _Row.from_db(row)

    def _seats(self, tx: Any, table_id: str) -> list[_Seat]:
        """The table's seats in order."""
        return [_Seat(*r) for r in q.seats(tx, table_id)]

    def _holder(self, tx: Any, token: object, visitor: str | None = None) -> tuple[str, int | None]:
        """(table id, seat or None for a spectator) that ``token`` holds; BadToken if it holds nothing."""
        digest = codes.token_hash(token)
        if not digest:
            raise BadToken("That seat token is not valid.")
        row = q.holder(tx, digest)
        if row is None:
            raise BadToken("That seat token is not valid for any table.")
        if visitor is not None and row[2] != visitor:
            raise BadToken("That seat belongs to someone else.")
        return row[0], (None if row[1] is None else int(row[1]))

    def _play(self, tx: Any, row: _Row) -> _Play:
        """The table's state and log at ``row.version``, from the cache brought up to date from the log."""
        with self._plays_lock:
            play = self._plays.get(row.id)
        if play is not None and play.version == row.version:
            return play
        if play is None or play.version > row.version:
            play = _Play(0, _new_game(row.game, row.options).new_initial_state(), [], 0)
        # only up to the row's version: under READ COMMITTED a later statement may see a newer commit
        rows = q.moves_after(tx, row.id, play.version, row.version)
        state, entries = play.state, list(play.entries)
        for version, seat, action in rows:
            after = state.apply(state.parse_action(action))
            entries.append(_entry(state, action, after, int(version), seat))
            state = after
        play = _Play(row.version, state, entries, len(entries))
        with self._plays_lock:
            self._plays[row.id] = play
        return play

    def _keep(self, table_id: str, play: _Play) -> None:
        """Remember a table's play after its transaction committed."""
        with self._plays_lock:
            self._plays[table_id] = play

    # ------------------------------------------------------------------ views

    def _view(self, row: _Row, seats: list[_Seat], play: _Play, seat: int | None) -> TableView:
        """What ``seat`` (None: a spectator) may see."""
        now = self.clock()
        state = play.state
        observer = plugin(row.game).observer
        hidden = observer is not None
        shown_seats = []
        for s in seats:
            person = s.kind == PERSON
            ago = None if (not person or s.seen is None) else round(max(0.0, now - s.seen), 1)
            shown_seats.append({"kind": s.kind, "label": s.label, "taken": (not person) or s.token_hash is not None,
                                "connected": (not person) or (ago is not None and ago <= self.limits.connected_within),
                                "seen_ago": ago})
        log = [{"version": e.version, "seat": e.seat,
                "text": e.private.get(seat, e.public) if seat is not None else e.public} for e in play.entries]
        my_move = row.status == PLAYING and seat is not None and state.current_player == seat
        legal = [str(a) for a in state.legal_actions()] if my_move else []
        player_view = places = None
        if observer is not None:
            player_view = observer.view_to_json(observer.view(state, seat))
            places = observer.places(state, seat) if my_move else {}
            explain = observer.explain(state, seat)
        else:
            explain = state.explain()
        return TableView(
            table_id=row.id, code=codes.shown_code(row.code), game=row.game, options=row.options, label=row.label,
            version=row.version, seat=seat, seats=shown_seats, status=row.status,
            current_player=int(state.current_player), scores=[int(x) for x in state.scores()],
            winners=[int(w) for w in state.winners()], hint_allowed=row.hint_allowed, log=log,
            saved=None if hidden else state.to_json(), player_view=player_view, legal=legal,
            places=places or {}, explain=explain, updated_ago=round(max(0.0, now - row.updated), 1))

    def _touch(self, tx: Any, table_id: str, seat: int | None, token: str, seen: float | None) -> None:
        """Write that the holder was heard from now (at most every SEEN_EVERY seconds)."""
        now = self.clock()
        if seat is None:
            q.watcher_seen(tx, codes.token_hash(token), now)
        elif seen is None or now - seen >= SEEN_EVERY:
            q.seat_seen(tx, table_id, seat, now)

    def view(self, token: str, *, visitor: str | None = None) -> TableView:
        """What the token's holder may see now (and note that they are here)."""
        with self.store.transaction() as tx:
            table_id, seat = self._holder(tx, token, visitor)
            row = self._row(tx, table_id)
            seats = self._seats(tx, table_id)
            play = self._play(tx, row)
            seen = seats[seat].seen if seat is not None else None
            if seat is None or seen is None or self.clock() - seen >= SEEN_EVERY:
                self._touch(tx, table_id, seat, token, seen)
                if seat is not None:
                    seats[seat].seen = self.clock()
        return self._view(row, seats, play, seat)

    def wait(self, token: str, version: int, timeout: float = 25.0, *, visitor: str | None = None) -> TableView:
        """The view as soon as the table's version differs from ``version``, or at ``timeout`` seconds."""
        if not isinstance(version, int) or isinstance(version, bool):
            raise BadRequest("The version must be a whole number.")
        if not isinstance(timeout, int | float) or isinstance(timeout, bool):
            raise BadRequest("The timeout must be a number of seconds.")
        deadline = time.monotonic() + min(max(0.0, float(timeout)), self.limits.max_wait)
        channel = None
        while True:
            mark = self.store.notices(channel) if channel else 0
            view = self.view(token, visitor=visitor)
            channel = f"table:{view.table_id}"
            if view.version != version:
                return view
            if mark == 0:
                mark = self.store.notices(channel)
                view = self.view(token, visitor=visitor)
                if view.version != version:
                    return view
            left = deadline - time.monotonic()
            if left <= 0:
                return view
            self.store.wait_for(channel, mark, left)

    def resume(self, token: str, *, visitor: str | None = None) -> Ticket:
        """The ticket a token holds (after a reload, a dead kernel or a restarted server)."""
        with self.store.transaction() as tx:
            table_id, seat = self._holder(tx, token, visitor)
            row = self._row(tx, table_id)
        return Ticket(row.id, codes.shown_code(row.code), token, seat)

    # ------------------------------------------------------------------ playing

    def _advance(self, tx: Any, row: _Row, seats: list[_Seat], play: _Play, now: float) -> _Play:
        """Play chance nodes and bot seats until a person must move or the game ends; log each action."""
        state, entries, version = play.state, list(play.entries), row.version
        gt = _game_type(row.game)
        while not state.is_terminal():
            mover = state.current_player
            if mover != core.CHANCE and seats[mover].kind == PERSON:
                break
            if len(entries) >= self.limits.max_log_actions:
                break
            version += 1
            rng = random.Random(f"{row.seed}/{version}")
            if mover == core.CHANCE:
                action, seat, actor = core.sample_chance(state, rng), None, "chance"
            else:
                action, seat, actor = gt.bots[seats[mover].kind](rng).choose(state), mover, "bot"
            text = str(action)
            after = state.apply(action)
            q.log_move(tx, row.id, version, seat, actor, text, now)
            entries.append(_entry(state, text, after, version, seat))
            state = after
        row.version = version
        return _Play(version, state, entries, len(entries))

    def _save_row(self, tx: Any, row: _Row, play: _Play, now: float) -> None:
        """Write the table's new version and status, and send the change notices at commit."""
        if row.status == PLAYING and play.state.is_terminal():
            row.status = FINISHED
        row.updated = now
        q.save_table(tx, row.id, row.version, row.status, now)
        tx.notify(f"table:{row.id}", str(row.version))
        tx.notify(LOBBY, row.id)

    def move(self, token: str, version: int, action: str, *, visitor: str | None = None) -> TableView:
        """Play ``action`` (notation) for the token's seat on ``version``; then chance and bots; the new view."""
        if not isinstance(action, str):
            raise IllegalMove("A move is an action in notation (text).")
        if len(action) > self.limits.max_action:
            raise TooLarge(f"That move is {len(action)} characters long; no move is longer than "
                           f"{self.limits.max_action}.")
        if not isinstance(version, int) or isinstance(version, bool):
            raise BadRequest("The version must be a whole number.")
        now = self.clock()
        with self.store.transaction() as tx:
            table_id, seat = self._holder(tx, token, visitor)
            row = self._row(tx, table_id, lock=True)
            if row.status == CLOSED:
                raise TableClosed("The teacher has closed this table.")
            if row.status == FINISHED:
                raise NotYourTurn("The game is over: no more moves.")
            if seat is None:
                raise NotYourTurn("Spectators watch; they do not move.")
            if row.status == WAITING:
                raise NotYourTurn("The game starts when every seat is taken.")
            if version != row.version:
                _LOG.info("stale move on table %s: made on version %r, the table is at %s", table_id, version,
                          row.version)
                raise StaleVersion("The table has moved on since you chose that move: look at the board again "
                                   "and choose your move.", row.version)
            seats = self._seats(tx, table_id)
            play = self._play(tx, row)
            state = play.state
            if state.current_player != seat:
                raise NotYourTurn("It is not your turn.")
            try:
                after = state.apply(state.parse_action(action))
            except core.IllegalAction as err:
                raise IllegalMove(str(err)) from None
            text = str(after.last_action)
            row.version += 1
            q.log_move(tx, row.id, row.version, seat, PERSON, text, now)
            played = _Play(row.version, after, [*play.entries, _entry(state, text, after, row.version, seat)],
                           play.moves + 1)
            played = self._advance(tx, row, seats, played, now)
            seats[seat].seen = now
            q.seat_seen(tx, table_id, seat, now)
            self._save_row(tx, row, played, now)
        self._keep(row.id, played)
        return self._view(row, seats, played, seat)

    # ------------------------------------------------------------------ tables and seats

    def _check_seats(self, gt: core.GameType, seats: object) -> list[str]:
        """The seat kinds, checked: one per player, each "person" or one of the game's bots."""
        if not isinstance(seats, list | tuple) or not all(isinstance(s, str) for s in seats):
            raise BadRequest('The seats are a list with "person" or a bot name for each player.')
        if len(seats) not in gt.players:
            allowed = ", ".join(str(n) for n in gt.players)
            raise BadRequest(f"{gt.title} is played by {allowed} players, not {len(seats)}.")
        allowed = [b for b in gt.bots if b in self.limits.table_bots]
        for kind in seats:
            if kind != PERSON and kind not in allowed:
                raise BadRequest(f"A seat at a shared table is \"person\" or a bot ({', '.join(allowed)}), "
                                 f"not {core.quote(kind)}.")
        return list(seats)

    def create_table(self, game: str, options: dict | None, seats: list[str], *, visitor: str = "",
                     label: str = "", hint_allowed: bool = False, seed: int | str | None = None) -> Ticket:
        """A new table; the creator takes the first person seat (or watches when every seat is a bot)."""
        gt = _game_type(game)
        kinds = self._check_seats(gt, seats)
        if options is None:
            options = {}
        if not isinstance(options, dict) or not all(isinstance(k, str) for k in options):
            raise BadRequest("The options are a mapping of option names to values.")
        options = dict(options)
        if any(o.name == "players" for o in gt.options):
            options["players"] = len(kinds)
        label = _clean_text(label, "table label", self.limits.max_label)
        visitor = _visitor(visitor)
        if seed is not None and not (isinstance(seed, int | str) and not isinstance(seed, bool)
                                     and len(str(seed)) <= 40 and codes.is_encodable(str(seed))):
            raise BadRequest("A seed is a whole number or short text.")
        if not isinstance(hint_allowed, bool):
            raise BadRequest("hint_allowed is true or false.")
        game_obj = _new_game(game, options)
        options = json.loads(json.dumps(options))
        now = self.clock()
        token = codes.new_token()
        table_id = secrets.token_hex(8)
        first_person = next((i for i, k in enumerate(kinds) if k == PERSON), None)
        with self.store.transaction() as tx:
            self._check_creation_limits(tx, visitor, now)
            code = self._free_code(tx)
            row = _Row(table_id, code, game, options, label, hint_allowed,
                       str(secrets.randbits(64) if seed is None else seed), 0, WAITING,
                       codes.token_hash(token), now, now)
            q.add_table(tx, (row.id, row.code, row.game, json.dumps(options), row.label, int(hint_allowed), row.seed,
                             0, WAITING, row.creator_hash, now, now), visitor)
            seats_rows = []
            for i, kind in enumerate(kinds):
                mine = i == first_person
                seat = _Seat(i, kind, label if mine else "", codes.token_hash(token) if mine else None,
                             visitor if mine else None, now if mine else None)
                seats_rows.append(seat)
                q.add_seat(tx, table_id, i, kind, seat.label, seat.token_hash, seat.visitor, seat.seen)
            if first_person is None:
                q.add_watcher(tx, codes.token_hash(token), table_id, visitor, now)
            play = _Play(0, game_obj.new_initial_state(), [], 0)
            play = self._start_if_full(tx, row, seats_rows, play, now)
            self._save_row(tx, row, play, now)
        self._keep(table_id, play)
        return Ticket(table_id, codes.shown_code(code), token, first_person)

    def _start_if_full(self, tx: Any, row: _Row, seats: list[_Seat], play: _Play, now: float) -> _Play:
        """A waiting table whose person seats are all taken starts: chance and bots play to the first person."""
        if row.status == WAITING and all(s.kind != PERSON or s.token_hash for s in seats):
            row.status = PLAYING
            return self._advance(tx, row, seats, play, now)
        return play

    def _free_code(self, tx: Any) -> str:
        """A join code no table has."""
        while True:
            code = codes.new_code()
            if not q.is_code_taken(tx, code):
                return code

    def _check_creation_limits(self, tx: Any, visitor: str, now: float) -> None:
        """RateLimited if this visitor or the server created too many tables lately, or too many are open."""
        lim = self.limits
        since = now - lim.creation_window
        mine = q.created_by_since(tx, visitor, since)
        if mine >= lim.creations_per_visitor:
            raise RateLimited(f"You have created {mine} tables in the last {lim.creation_window / 60:.0f} minutes; "
                              "join one of them or wait a few minutes.")
        everyone = q.created_since(tx, since)
        if everyone >= lim.creations_per_server:
            raise RateLimited("This server has created many tables in the last few minutes; try again shortly.")
        open_now = q.count_with_status(tx, WAITING, PLAYING)
        if open_now >= lim.open_tables:
            raise RateLimited(f"This server already has {open_now} unfinished tables; finish or close some first.")

    def _find_code(self, tx: Any, code: object, visitor: str) -> _Row:
        """The table with this join code; RateLimited after too many misses, NoSuchTable (counted) if none."""
        lim, now = self.limits, self.clock()
        if (self._failures.count(f"join:{visitor}", now, lim.failed_join_window) >= lim.failed_joins_per_visitor
                or self._failures.count("join:*", now, lim.failed_join_window) >= lim.failed_joins_per_server):
            raise RateLimited("Too many wrong join codes just now: wait a minute, then check the code.")
        normal = codes.normal_code(code)
        found = q.table_id_of_code(tx, normal) if normal else None
        if found is None:
            self._failures.add(f"join:{visitor}", now)
            self._failures.add("join:*", now)
            raise NoSuchTable("No table has that join code; check it with the person who made the table.")
        return self._row(tx, found, lock=True)

    def join(self, code: str, *, visitor: str = "", label: str = "", seat: int | None = None) -> Ticket:
        """Take the next free person seat (or ``seat``) at the table with this join code."""
        visitor = _visitor(visitor)
        label = _clean_text(label, "player label", self.limits.max_label)
        if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool)):
            raise BadRequest("A seat is a whole number.")
        now = self.clock()
        token = codes.new_token()
        with self.store.transaction() as tx:
            row = self._find_code(tx, code, visitor)
            if row.status == CLOSED:
                raise TableClosed("The teacher has closed this table.")
            if row.status == FINISHED:
                raise TableClosed("This game is over; you can still watch it.")
            seats = self._seats(tx, row.id)
            if seat is not None:
                if not 0 <= seat < len(seats):
                    raise BadRequest(f"This table has seats 1 to {len(seats)}.")
                if seats[seat].kind != PERSON or seats[seat].token_hash:
                    raise SeatTaken(f"Seat {seat + 1} is already taken.")
                chosen = seat
            else:
                chosen = next((s.seat for s in seats if s.kind == PERSON and not s.token_hash), None)
                if chosen is None:
                    raise TableFull("Every seat at this table is taken; you can watch it.")
            if not q.take_seat(tx, row.id, chosen, codes.token_hash(token), visitor, label, now):
                raise SeatTaken(f"Seat {chosen + 1} was just taken.")
            seats[chosen] = _Seat(chosen, PERSON, label, codes.token_hash(token), visitor, now)
            play = self._play(tx, row)
            row.version += 1
            play = _Play(row.version, play.state, play.entries, play.moves)
            play = self._start_if_full(tx, row, seats, play, now)
            self._save_row(tx, row, play, now)
        self._keep(row.id, play)
        return Ticket(row.id, codes.shown_code(row.code), token, chosen)

    def watch(self, code: str, *, visitor: str = "") -> Ticket:
        """A spectator's ticket (seat None) for the table with this join code."""
        visitor = _visitor(visitor)
        token = codes.new_token()
        with self.store.transaction() as tx:
            row = self._find_code(tx, code, visitor)
            q.add_watcher(tx, codes.token_hash(token), row.id, visitor, self.clock())
        return Ticket(row.id, codes.shown_code(row.code), token, None)

    def open_tables(self, game: str | None = None) -> list[TableSummary]:
        """Tables waiting for players (newest first); no tokens."""
        if game is not None:
            _game_type(game)
        now = self.clock()
        with self.store.transaction() as tx:
            rows = q.tables_with_status(tx, WAITING)
            found = [(r, self._seats(tx, r.id)) for r in map(_Row.from_db, rows) if game in (None, r.game)]
        out = []
        for r, seats in found[:100]:
            shown = [{"kind": s.kind, "label": s.label, "taken": s.kind != PERSON or s.token_hash is not None}
                     for s in seats]
            out.append(TableSummary(r.id, codes.shown_code(r.code), r.game, r.options, r.label, r.status, r.version,
                                    shown, sum(not s["taken"] for s in shown), round(now - r.created, 1),
                                    r.hint_allowed))
        return out

    # ------------------------------------------------------------------ the teacher

    def _check_teacher(self, teacher_code: object, visitor: str,
                       refusal: str = "That is not the teacher code.") -> None:
        """NotTeacher (saying ``refusal``) unless ``teacher_code`` is the teacher code; every wrong one counts.

        RateLimited, before the code is even compared, once this visitor gave ``teacher_failures`` wrong
        codes in the window (only them), or everybody together ``teacher_failures_per_server`` (everyone).
        """
        lim, now = self.limits, self.clock()
        mine, everyone = f"teacher:{visitor}", "teacher:*"
        if self._failures.count(mine, now, lim.failed_join_window) >= lim.teacher_failures:
            raise RateLimited("Too many wrong teacher codes from you just now: wait a minute, then try again.")
        if self._failures.count(everyone, now, lim.failed_join_window) >= lim.teacher_failures_per_server:
            raise RateLimited("Too many wrong teacher codes on this server just now: the teacher controls "
                              "pause for a minute.")
        if not codes.same_code(teacher_code, self.teacher_code):
            self._failures.add(mine, now)
            self._failures.add(everyone, now)
            raise NotTeacher(refusal)

    def check_teacher(self, teacher_code: object, visitor: str = "") -> None:
        """NotTeacher unless ``teacher_code`` is the teacher code (wrong ones counted, as for every teacher control).

        For the class server's other teacher controls (getting kernels ready for a class), so one code and one
        count of wrong guesses guard them all.
        """
        self._check_teacher(teacher_code, _visitor(visitor))

    def overview(self, teacher_code: str, *, visitor: str = "") -> list[TableView]:
        """Every table as a spectator sees it (newest first), for the teacher."""
        self._check_teacher(teacher_code, _visitor(visitor))
        with self.store.transaction() as tx:
            rows = [_Row.from_db(r) for r in q.every_table(tx)]
            found = [(r, self._seats(tx, r.id), self._play(tx, r)) for r in rows]
        return [self._view(r, seats, play, None) for r, seats, play in found]

    def close_table(self, teacher_code: str, table_id: str, *, visitor: str = "") -> TableView:
        """Close a table (no more moves or joins); its log stays."""
        self._check_teacher(teacher_code, _visitor(visitor))
        now = self.clock()
        with self.store.transaction() as tx:
            row = self._row(tx, str(table_id), lock=True)
            seats = self._seats(tx, row.id)
            play = self._play(tx, row)
            if row.status != CLOSED:
                row.status = CLOSED
                row.version += 1
                play = _Play(row.version, play.state, play.entries, play.moves)
                self._save_row(tx, row, play, now)
        self._keep(row.id, play)
        return self._view(row, seats, play, None)

    def replace_with_bot(self, credential: str, table_id: str, seat: int, bot: str, *,
                         visitor: str = "") -> TableView:
        """Put a bot in a person seat whose holder is gone (unseen ``gone_after`` s, or never taken).

        ``credential`` is the creator's seat token or the teacher code; anything else counts as a wrong
        teacher code (the same rate limit as every teacher control).
        """
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise BadRequest("A seat is a whole number.")
        visitor = _visitor(visitor)
        now = self.clock()
        with self.store.transaction() as tx:
            row = self._row(tx, str(table_id), lock=True)
            digest = codes.token_hash(credential)
            if not (digest and secrets.compare_digest(digest, row.creator_hash)):
                self._check_teacher(credential, visitor,
                                    "Only the table's creator or the teacher can put a bot in a seat.")
            gt = _game_type(row.game)
            allowed = [b for b in gt.bots if b in self.limits.table_bots]
            if bot not in allowed:
                raise BadRequest(f"The bots at a shared table are {', '.join(allowed)}, not {core.quote(bot)}.")
            if row.status in (CLOSED, FINISHED):
                raise TableClosed("This table is no longer playing.")
            seats = self._seats(tx, row.id)
            if not 0 <= seat < len(seats) or seats[seat].kind != PERSON:
                raise BadRequest("Only a person's seat can be given to a bot.")
            s = seats[seat]
            if s.token_hash and s.seen is not None and now - s.seen < self.limits.gone_after:
                raise SeatTaken(f"Seat {seat + 1}'s player was here {now - s.seen:.0f} s ago; a seat goes to a bot "
                                f"only after {self.limits.gone_after:.0f} s away.")
            q.seat_to_bot(tx, row.id, seat, bot)
            seats[seat] = _Seat(seat, bot, s.label, None, s.visitor, s.seen)
            play = self._play(tx, row)
            row.version += 1
            play = _Play(row.version, play.state, play.entries, play.moves)
            play = self._start_if_full(tx, row, seats, play, now) if row.status == WAITING else \
                self._advance(tx, row, seats, play, now)
            self._save_row(tx, row, play, now)
        self._keep(row.id, play)
        return self._view(row, seats, play, None)

    def reset_all(self, teacher_code: str, *, visitor: str = "") -> int:
        """Delete every table, seat and log (the teacher's "reset everything"); how many tables went."""
        self._check_teacher(teacher_code, _visitor(visitor))
        with self.store.transaction() as tx:
            ids = q.table_ids(tx)
            q.delete_everything(tx)
            for table_id in ids:
                tx.notify(f"table:{table_id}", "reset")
            tx.notify(LOBBY, "reset")
        with self._plays_lock:
            self._plays.clear()
        return len(ids)

    # ------------------------------------------------------------------ checks

    def log_of(self, table_id: str) -> list[str]:
        """The table's log in notation, oldest first (for replay checks; the authority's own record)."""
        with self.store.transaction() as tx:
            return q.log_actions(tx, str(table_id))

    def state_of(self, table_id: str) -> Any:
        """The authority's full state of a table (tests and the teacher; never sent to a page)."""
        with self.store.transaction() as tx:
            row = self._row(tx, str(table_id))
            return self._play(tx, row).state


def _is_table_error(err: BaseException) -> bool:
    """Whether ``err`` is a refusal to pass on as it is."""
    return isinstance(err, TableError)
