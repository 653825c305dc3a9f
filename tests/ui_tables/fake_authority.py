"""A small in-process stand-in for the shared-table authority (TABLES_CONTRACT.md), for the page tests only.

It follows the contract's method names, arguments, refusals (ValueError subclasses named as in
``treegames.tables.errors``) and TableView fields, for games without hidden information; chance and
bot seats are played here with the table's seeded generator, as the real authority does.
"""

from __future__ import annotations

import itertools
import random
import secrets
import threading
from dataclasses import asdict, dataclass, field

from treegames import aspens, bosk, core

GAMES = {"aspens": aspens, "bosk": bosk}


class TableError(ValueError):
    """A refusal."""


class BadToken(TableError):
    """Wrong token."""


class NoSuchTable(TableError):
    """No such code."""


class StaleVersion(TableError):
    """The table moved on."""


class NotYourTurn(TableError):
    """Not this seat's move."""


class TableFull(TableError):
    """No free seat."""


class IllegalMove(TableError):
    """The engine refused."""


class NotTeacher(TableError):
    """Wrong teacher code."""


@dataclass
class Ticket:
    table_id: str
    code: str
    token: str
    seat: int | None


@dataclass
class TableView:
    table_id: str
    code: str
    game: str
    options: dict
    label: str
    version: int
    seat: int | None
    seats: list
    status: str
    current_player: int
    scores: list
    winners: list
    hint_allowed: bool
    log: list
    saved: str | None
    player_view: dict | None
    legal: list
    places: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        return asdict(self)


@dataclass
class _Table:
    table_id: str
    code: str
    game: str
    options: dict
    label: str
    kinds: list
    labels: list
    tokens: list
    state: object
    rng: random.Random
    version: int = 0
    status: str = "waiting"
    log: list = field(default_factory=list)
    creator: str = ""


class FakeAuthority:
    """Tables in a dict; a condition variable stands in for the store's change notices."""

    teacher_code = "TEACH-1234"

    def __init__(self):
        self.tables: dict[str, _Table] = {}
        self.by_token: dict[str, tuple[str, int | None]] = {}
        self.changed = threading.Condition()
        self.moves = 0
        self._ids = itertools.count(1)

    def available(self) -> bool:
        return True

    # ------------------------------------------------------------ tables
    def create_table(self, game, options, seats, *, visitor, label="", hint_allowed=False, seed=None):
        module = GAMES[game]
        g = module.new_game(**options)
        n = next(self._ids)
        code = f"K{n:03d}X"
        table = _Table(f"t{n}", code, game, dict(g.options), label, list(seats), [""] * len(seats),
                       [None] * len(seats), g.new_initial_state(), random.Random(seed or n))
        self.tables[code] = table
        people = [i for i, k in enumerate(seats) if k == "person"]
        if not people:
            table.status = "playing"
            self._settle(table)
            return self.watch(code, visitor=visitor)
        ticket = self._take(table, people[0], label)
        table.creator = ticket.token
        return ticket

    def _take(self, table, seat, label):
        token = secrets.token_urlsafe(12)
        table.tokens[seat] = token
        table.labels[seat] = label
        self.by_token[token] = (table.code, seat)
        self._log(table, seat, f"{label or 'Someone'} took seat {seat + 1}.")
        if all(t is not None for t, k in zip(table.tokens, table.kinds, strict=True) if k == "person"):
            table.status = "playing"
            self._settle(table)
        self._bump(table)
        return Ticket(table.table_id, table.code, token, seat)

    def join(self, code, *, visitor, label="", seat=None):
        table = self._table(code)
        free = [i for i, k in enumerate(table.kinds) if k == "person" and table.tokens[i] is None]
        if not free:
            raise TableFull("Every seat at this table is taken: watch it, or create a table of your own.")
        return self._take(table, free[0] if seat is None else seat, label)

    def watch(self, code, *, visitor):
        table = self._table(code)
        token = secrets.token_urlsafe(12)
        self.by_token[token] = (code, None)
        return Ticket(table.table_id, code, token, None)

    def resume(self, token):
        code, seat = self._token(token)
        table = self.tables[code]
        return Ticket(table.table_id, code, token, seat)

    def move(self, token, version, action):
        code, seat = self._token(token)
        with self.changed:
            table = self.tables[code]
            if version != table.version:
                raise StaleVersion("The table has moved on since you looked: the board now shows the newest move.")
            s = table.state
            if table.status != "playing" or seat is None or s.current_player != seat:
                raise NotYourTurn("It is not your move.")
            try:
                nxt = s.apply(s.parse_action(action))
            except (core.IllegalAction, ValueError) as err:
                raise IllegalMove(str(err)) from None
            self._log(table, seat, f"{table.labels[seat] or 'Seat ' + str(seat + 1)}: {s.describe(nxt.last_action)}")
            table.state = nxt
            self.moves += 1
            self._settle(table)
            self._bump(table)
        return self.view(token)

    def _settle(self, table):
        s = table.state
        while not s.is_terminal():
            if s.current_player == core.CHANCE:
                a = core.sample_chance(s, table.rng)
            elif table.kinds[s.current_player] != "person":
                a = GAMES[table.game].GAME_TYPE.bots[table.kinds[s.current_player]](table.rng).choose(s)
                self._log(table, s.current_player, f"Bot: {s.describe(a)}")
            else:
                break
            s = s.apply(a)
        table.state = s
        if s.is_terminal():
            table.status = "finished"

    def _bump(self, table):
        with self.changed:
            table.version += 1
            self.changed.notify_all()

    def _log(self, table, seat, text):
        table.log.append({"version": table.version, "seat": seat, "text": text})

    def view(self, token):
        code, seat = self._token(token)
        t = self.tables[code]
        s = t.state
        mine = t.status == "playing" and seat is not None and s.current_player == seat
        return TableView(t.table_id, t.code, t.game, dict(t.options), t.label, t.version, seat,
                         [{"kind": k, "label": lab, "taken": tok is not None or k != "person", "connected": True,
                           "seen_ago": 0.0} for k, lab, tok in zip(t.kinds, t.labels, t.tokens, strict=True)],
                         t.status, s.current_player, list(s.scores()), list(s.winners()) if s.is_terminal() else [],
                         False, list(t.log[-50:]), s.to_json(), None,
                         [str(a) for a in s.legal_actions()] if mine else [])

    def wait(self, token, version, timeout):
        code, _seat = self._token(token)
        with self.changed:
            self.changed.wait_for(lambda: self.tables[code].version != version, timeout)
        return self.view(token)

    def open_tables(self, game=None):
        return [{"table_id": t.table_id, "code": t.code, "game": t.game, "label": t.label, "status": t.status,
                 "seats": [{"kind": k, "label": lab, "taken": tok is not None or k != "person"}
                           for k, lab, tok in zip(t.kinds, t.labels, t.tokens, strict=True)]}
                for t in self.tables.values() if t.status == "waiting" and game in (None, t.game)]

    # ------------------------------------------------------------ teacher
    def _teacher(self, code):
        if code != self.teacher_code:
            raise NotTeacher("That is not the teacher code.")

    def overview(self, teacher_code):
        self._teacher(teacher_code)
        out = []
        for t in self.tables.values():
            v = self.view(self.watch(t.code, visitor="teacher").token)
            out.append({**v.to_json(), "waited": 3.0})
        return out

    def close_table(self, teacher_code, table_id):
        self._teacher(teacher_code)
        for t in self.tables.values():
            if t.table_id == table_id:
                t.status = "closed"
                self._bump(t)

    def replace_with_bot(self, credential, table_id, seat, bot):
        table = next(t for t in self.tables.values() if t.table_id == table_id)
        if credential != self.teacher_code and credential != table.creator:
            raise NotTeacher("Only the table's creator or the teacher may put a bot in a seat.")
        table.kinds[seat] = bot
        self._log(table, seat, f"A bot ({bot}) now plays seat {seat + 1}.")
        self._settle(table)
        self._bump(table)

    def reset_all(self, teacher_code):
        self._teacher(teacher_code)
        self.tables.clear()

    # ------------------------------------------------------------ helpers
    def _table(self, code):
        table = self.tables.get(str(code).strip().upper())
        if table is None:
            raise NoSuchTable("No table has that code: check the letters.")
        return table

    def _token(self, token):
        if token not in self.by_token:
            raise BadToken("That seat is not known here.")
        return self.by_token[token]
