"""The class-experiment authority: rounds, members, validated batches and pooled snapshots, in the shared store.

Every method takes and returns JSON-safe values and refuses bad input with an
:class:`~.errors.ExperimentError` (a ValueError) before anything is written.
See the package docstring for rounds, idempotent batches, privacy and retention.
"""

from __future__ import annotations

import csv
import io
import json
import secrets
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from .. import core
from ..service import codes
from . import queries as q
from . import schema, stats
from .errors import (
    BadMember,
    BadSettings,
    BatchConflict,
    ClassFull,
    NoSuchRound,
    NotTeacher,
    RoundNotOpen,
)
from .kinds import TOURNAMENT, Domain, Source, Tournament, domain_for, record_from_json
from .limits import Limits
from .pseudonyms import new_pseudonym

__all__ = ["ExperimentAuthority", "Status", "new_code", "token_hash"]

CHANNEL = "experiments"
"""The store's change-notice channel for class experiments."""
MAX_BATCH_ID = 64
MAX_CODE = 16


class Status:
    """A round's status."""

    OPEN = "open"
    FROZEN = "frozen"
    CLOSED = "closed"


def new_code() -> str:
    """A fresh class code (the shared tables' join codes: 6 symbols, no ambiguous letters)."""
    return codes.new_code()


def token_hash(token: str) -> str:
    """What the store keeps of a student's token (never the token itself): the shared tables' SHA-256."""
    return codes.token_hash(token)


def _clean_code(code: object) -> str:
    """A class code as typed (spaces and case forgiven), else NoSuchRound."""
    clean = codes.normal_code(code)
    if not clean or len(clean) > MAX_CODE:
        raise NoSuchRound("that is not a class code: ask your teacher for the code on the projector")
    return clean


def _check_batch_id(batch_id: object) -> str:
    """A batch id: 1 to 64 letters, digits, '-' or '_'."""
    if (not isinstance(batch_id, str) or not 1 <= len(batch_id) <= MAX_BATCH_ID
            or not all(c.isascii() and (c.isalnum() or c in "-_") for c in batch_id)):
        raise BadSettings("a batch id is 1 to 64 letters, digits, '-' or '_'")
    return batch_id


class _Duplicate(Exception):  # noqa: N818 - control flow inside a transaction, never leaves this module
    """A batch already stored: roll back the version bump and answer with the first acknowledgement."""

    def __init__(self, ack: dict):
        self.ack = ack


@dataclass
class _Pool:
    """The in-memory tally of one round, brought up to date from the store by sequence number.

    Per-student tallies and the distance trace grow batch by batch, so a snapshot costs the same
    whatever the number of batches; the trace is rebuilt only when the teacher shows or excludes someone.
    """

    round_id: str
    epoch: int
    last_seq: int = 0
    batches: list = field(default_factory=list)  # (seq, member_id, source, {outcome: count})
    games: dict = field(default_factory=dict)  # game index -> (member_id, source, record)
    simulated: dict = field(default_factory=dict)  # member_id -> {outcome: count} (kernel rolls)
    physical: dict = field(default_factory=dict)  # member_id -> {outcome: count} (real dice)
    sources: dict = field(default_factory=dict)  # member_id -> set of client types
    trace: stats.Trace | None = None
    trace_shown: frozenset = frozenset()
    trace_upto: int = 0  # batches already in the trace

    def add(self, batch: tuple) -> None:
        """Count one batch into the per-student tallies."""
        _seq, member, source, counts = batch
        self.batches.append(batch)
        self.sources.setdefault(member, set()).add(source)
        into = self.simulated if Source(source).is_simulated else self.physical
        tally = into.setdefault(member, {})
        for k, v in counts.items():
            tally[k] = tally.get(k, 0) + v

    def trace_for(self, exact: Mapping, shown: frozenset, growth: float) -> stats.Trace:
        """The distance trace of the shown students' simulated batches, in the order they arrived."""
        if self.trace is None or self.trace_shown != shown:
            self.trace, self.trace_shown, self.trace_upto = stats.Trace(exact, growth), shown, 0
        for _seq, member, source, counts in self.batches[self.trace_upto:]:
            if member in shown and Source(source).is_simulated:
                self.trace.add(counts)
        self.trace_upto = len(self.batches)
        return self.trace


class ExperimentAuthority:
    """One authority per process over the shared store; any number of processes may share the store."""

    def __init__(self, store, teacher_code: str | Callable[[str], bool] | None = None, limits: Limits | None = None,
                 clock: Callable[[], float] = time.time, source: Source = Source.LOCAL):
        schema.register()  # the experiments' tables live in the same store, migrated on its next transaction
        self.store = store
        # the class server's teacher code (make serve prints it), shared with the tables' teacher overview
        self._teacher = teacher_code if teacher_code is not None else codes.teacher_code(store.data_dir)
        self.limits = limits or Limits()
        self.clock = clock
        self.source = Source(source)
        self._pools: dict[str, _Pool] = {}
        self._pool_lock = threading.RLock()  # the HTTP mount reads from several threads: one pool update at a time
        self._seen: dict[str, int] = {}  # code -> the latest version written through this process

    def known_version(self, code: str) -> int | None:
        """The latest version of a class written through this process (no store call), or None."""
        return self._seen.get(str(code).strip().upper())

    # ------------------------------------------------------------ helpers

    def _check_teacher(self, code: object) -> None:
        """NotTeacher unless ``code`` is the teacher code (constant-time comparison)."""
        if callable(self._teacher):
            ok = isinstance(code, str) and self._teacher(code)
        else:
            ok = codes.same_code(code, self._teacher)
        if not ok:
            raise NotTeacher("only the teacher can do that: the teacher code is wrong")

    def _class_row(self, cur, code: str, lock: bool = False) -> tuple:
        """(round_no, version) of a class (its row locked for this transaction if ``lock``), else NoSuchRound."""
        row = q.class_row(cur, code, lock)
        if row is None:
            raise NoSuchRound(f"no class experiment has the code {core.quote(code)}: check the code on the projector")
        return row

    def _round_row(self, cur, code: str, round_no: int | None = None) -> dict:
        """The current (or given) round of a class as a dict."""
        if round_no is None:
            round_no = self._class_row(cur, code)[0]
        row = q.round_row(cur, code, round_no)
        if row is None:
            raise NoSuchRound(f"class {code} has no round {round_no}")
        return {"round_id": row[0], "kind": row[1], "settings": json.loads(row[2]), "status": row[3],
                "epoch": row[4], "round_no": row[5]}

    def _member(self, cur, token: object) -> tuple:
        """(member_id, code, pseudonym, shown) for a student token, else BadMember."""
        if not token_hash(token):
            raise BadMember("your place in the class experiment was not found: join again with the class code")
        row = q.member_by_token(cur, token_hash(token))
        if row is None:
            raise BadMember("your place in the class experiment was not found: join again with the class code")
        return row

    def _bump(self, cur, code: str) -> int:
        """Add one to the class's version (taking its row lock: changes to one class are serialised); the new version."""
        version = q.bump_version(cur, code, self.clock())
        if version is None:
            raise NoSuchRound(f"no class experiment has the code {core.quote(code)}")
        notify = getattr(cur, "notify", None)
        if notify is not None:  # the shared store sends it when this transaction commits (LISTEN/NOTIFY on PostgreSQL)
            notify(CHANNEL, code)
        return version

    def _notify(self, code: str, version: int) -> None:
        """Remember the latest version written through this process (long-polls here wake on it at once)."""
        self._seen[code] = max(version, self._seen.get(code, 0))

    # ------------------------------------------------------------ the teacher

    def open_experiment(self, teacher_code: str, kind: str, settings: Mapping | None = None) -> dict:
        """Start a class experiment (round 1, open); returns its code and round."""
        self._check_teacher(teacher_code)
        domain = domain_for(kind, settings or {})
        self.purge_expired()
        now = self.clock()
        with self.store.transaction() as cur:
            if q.class_count(cur) >= self.limits.open_classes:
                raise ClassFull(f"this server already keeps {self.limits.open_classes} class experiments; "
                                "delete an old one first")
            for _ in range(50):
                code = new_code()
                if not q.is_class_code_taken(cur, code):
                    break
            q.add_class(cur, code, now)
            self._insert_round(cur, code, 1, domain, now)
        self._notify(code, 1)
        return {"code": code, "round_no": 1, "kind": domain.kind, "settings": domain.settings()}

    def _insert_round(self, cur, code: str, round_no: int, domain: Domain, now: float) -> None:
        """Write a new open round."""
        q.add_round(cur, code, round_no, secrets.token_hex(8), domain.kind, json.dumps(domain.settings()),
                    Status.OPEN, now)

    def set_status(self, teacher_code: str, code: str, status: str) -> dict:
        """Freeze the current round (no more results) or open it again."""
        self._check_teacher(teacher_code)
        if status not in (Status.OPEN, Status.FROZEN):
            raise BadSettings(f"a round can be set to 'open' or 'frozen', not {core.quote(status)}")
        code = _clean_code(code)
        with self.store.transaction() as cur:
            version = self._bump(cur, code)
            rnd = self._round_row(cur, code)
            q.set_round_status(cur, rnd["round_id"], status)
        self._notify(code, version)
        return {"code": code, "round_no": rnd["round_no"], "status": status}

    def freeze(self, teacher_code: str, code: str) -> dict:
        """Freeze the current round: it keeps its data and takes no more results."""
        return self.set_status(teacher_code, code, Status.FROZEN)

    def reopen(self, teacher_code: str, code: str) -> dict:
        """Open a frozen round again."""
        return self.set_status(teacher_code, code, Status.OPEN)

    def reset(self, teacher_code: str, code: str) -> dict:
        """Delete every result of the current round and open it again (same round number, same students)."""
        self._check_teacher(teacher_code)
        code = _clean_code(code)
        with self.store.transaction() as cur:
            version = self._bump(cur, code)
            rnd = self._round_row(cur, code)
            self._delete_data(cur, rnd["round_id"])
            q.restart_round(cur, rnd["round_id"], Status.OPEN)
        self._notify(code, version)
        return {"code": code, "round_no": rnd["round_no"], "status": Status.OPEN}

    def _delete_data(self, cur, round_id: str) -> None:
        """Delete a round's results (batches, tournament blocks and games)."""
        q.delete_round_data(cur, round_id)
        with self._pool_lock:
            self._pools.pop(round_id, None)

    def new_round(self, teacher_code: str, code: str, kind: str | None = None,
                  settings: Mapping | None = None) -> dict:
        """Close the current round and open the next (same experiment unless ``kind``/``settings`` are given)."""
        self._check_teacher(teacher_code)
        code = _clean_code(code)
        with self.store.transaction() as cur:
            version = self._bump(cur, code)
            rnd = self._round_row(cur, code)
            domain = domain_for(kind or rnd["kind"], rnd["settings"] if settings is None else settings)
            q.set_round_status(cur, rnd["round_id"], Status.CLOSED)
            number = max(rnd["round_no"] + 1, q.last_round_no(cur, code) + 1)
            self._insert_round(cur, code, number, domain, self.clock())
            q.set_class_round(cur, code, number)
        self._notify(code, version)
        return {"code": code, "round_no": number, "kind": domain.kind, "settings": domain.settings()}

    def delete_round(self, teacher_code: str, code: str, round_no: int) -> dict:
        """Delete one round and all its data (the current round is emptied and stays open)."""
        self._check_teacher(teacher_code)
        code = _clean_code(code)
        if type(round_no) is not int:
            raise BadSettings(f"a round number is a whole number, not {core.quote(round_no)}")
        with self.store.transaction() as cur:
            version = self._bump(cur, code)
            current = self._class_row(cur, code)[0]
            rnd = self._round_row(cur, code, round_no)
            self._delete_data(cur, rnd["round_id"])
            if round_no == current:
                q.restart_round(cur, rnd["round_id"], Status.OPEN)
            else:
                q.delete_round(cur, rnd["round_id"])
        self._notify(code, version)
        return {"code": code, "deleted_round": round_no}

    def delete_class(self, teacher_code: str, code: str) -> dict:
        """Delete a class experiment: every round, result and pseudonym."""
        self._check_teacher(teacher_code)
        code = _clean_code(code)
        with self.store.transaction() as cur:
            self._class_row(cur, code)
            self._delete_class(cur, code)
        return {"code": code, "deleted": True}

    def _delete_class(self, cur, code: str) -> None:
        """Delete every row of one class."""
        for round_id in q.round_ids(cur, code):
            self._delete_data(cur, round_id)
        q.delete_class(cur, code)

    def purge_expired(self) -> list[str]:
        """Delete the classes unchanged for longer than ``Limits.retention_days``; their codes."""
        cutoff = self.clock() - self.limits.retention_days * 86400
        with self.store.transaction() as cur:
            codes = q.classes_unchanged_since(cur, cutoff)
            for code in codes:
                self._delete_class(cur, code)
        return codes

    def set_shown(self, teacher_code: str, code: str, pseudonym: str, shown: bool) -> dict:
        """Show or exclude one pseudonym's results (excluded results stay stored but leave the pool)."""
        self._check_teacher(teacher_code)
        code = _clean_code(code)
        if not isinstance(pseudonym, str) or len(pseudonym) > 80 or not codes.is_encodable(pseudonym):
            raise BadSettings(f"no student called {core.quote(pseudonym)} in class {code}")
        with self.store.transaction() as cur:
            version = self._bump(cur, code)
            if not q.show_member(cur, code, str(pseudonym), shown):
                raise BadSettings(f"no student called {core.quote(pseudonym)} in class {code}")
        self._notify(code, version)
        return {"code": code, "pseudonym": pseudonym, "shown": bool(shown)}

    def classes(self, teacher_code: str) -> list[dict]:
        """Every class experiment on this server: code, current round, kind, status."""
        self._check_teacher(teacher_code)
        with self.store.transaction() as cur:
            return [{"code": c, "round_no": n, "kind": k, "status": s, "updated": u}
                    for c, n, k, s, u in q.classes_with_rounds(cur)]

    def teacher_view(self, teacher_code: str, code: str) -> dict:
        """The snapshot with every student, excluded ones included, and each one's client types."""
        self._check_teacher(teacher_code)
        return self.snapshot(code, everyone=True)

    def export_csv(self, teacher_code: str, code: str, round_no: int | None = None) -> str:
        """A round's results as CSV: one row per batch (pseudonyms only, never a token or a real name)."""
        self._check_teacher(teacher_code)
        code = _clean_code(code)
        with self.store.transaction() as cur:
            rnd = self._round_row(cur, code, round_no)
            names = {m: (p, s) for m, p, s in q.members(cur, code)}
            batches = q.batches(cur, rnd["round_id"])
            games = q.games(cur, rnd["round_id"])
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        domain = domain_for(rnd["kind"], rnd["settings"])
        writer.writerow(["# class", code, "round", rnd["round_no"], "experiment", domain.title()])
        if domain.kind == TOURNAMENT:
            writer.writerow(["game", "pseudonym", "excluded", "client", "seats", "first", "scores", "winners"])
            for index, member, source, record in games:
                rec = json.loads(record)
                name, shown = names.get(member, ("?", 1))
                writer.writerow([index, name, "" if shown else "yes", source, " ".join(rec["seats"]), rec["first"],
                                 " ".join(map(str, rec["scores"])), " ".join(map(str, rec["winners"]))])
            return out.getvalue()
        writer.writerow(["order", "pseudonym", "excluded", "client", "results", *map(domain.label, domain.outcomes)])
        for seq, member, source, total, counts, _created in batches:
            tally = {int(k): v for k, v in json.loads(counts).items()}
            name, shown = names.get(member, ("?", 1))
            writer.writerow([seq, name, "" if shown else "yes", source, total,
                             *(tally.get(k, 0) for k in domain.outcomes)])
        return out.getvalue()

    # ------------------------------------------------------------ students

    def join(self, code: str, token: str | None = None) -> dict:
        """Join a class experiment: a new pseudonym and token, or the same ones again when ``token`` is this class's."""
        code = _clean_code(code)
        now = self.clock()
        with self.store.transaction() as cur:
            self._class_row(cur, code, lock=True)  # joins one at a time: distinct pseudonyms, the limit held
            if token is not None:
                try:
                    member_id, member_code, pseudonym, _shown = self._member(cur, token)
                except BadMember:
                    member_code = None
                if member_code == code:
                    q.member_seen(cur, member_id, now)
                    return {"code": code, "token": token, "pseudonym": pseudonym, "rejoined": True}
            taken = q.pseudonyms(cur, code)
            if len(taken) >= self.limits.members_per_class:
                raise ClassFull(f"this class experiment already has {self.limits.members_per_class} students")
            token = codes.new_token()
            pseudonym = new_pseudonym(taken)
            q.add_member(cur, secrets.token_hex(8), token_hash(token), code, pseudonym, now)
        return {"code": code, "token": token, "pseudonym": pseudonym, "rejoined": False}

    def me(self, token: str) -> dict:
        """A student's own place: class code, pseudonym, the current round and their tally in it."""
        with self.store.transaction() as cur:
            member_id, code, pseudonym, shown = self._member(cur, token)
            rnd = self._round_row(cur, code)
        domain = domain_for(rnd["kind"], rnd["settings"])
        with self._pool_lock:
            pool = self._pool(code, rnd)
            mine = dict(pool.simulated.get(member_id, {}))
            physical = dict(pool.physical.get(member_id, {}))
            games = sorted(i for i, (m, _s, _r) in pool.games.items() if m == member_id)
        return {"code": code, "pseudonym": pseudonym, "shown": bool(shown), "round_no": rnd["round_no"],
                "status": rnd["status"], "kind": rnd["kind"], "settings": rnd["settings"],
                "counts": [mine.get(k, 0) for k in domain.outcomes], "n": sum(mine.values()),
                "physical": [physical.get(k, 0) for k in domain.outcomes], "games": games}

    def contribute(self, token: str, batch_id: str, counts: Mapping, round_no: int | None = None) -> dict:
        """Add a batch of simulated results (validated; a batch id already stored is acknowledged, not counted again)."""
        return self._add_batch(token, batch_id, lambda d: d.check_counts(counts), self.source, round_no)

    def contribute_physical(self, token: str, batch_id: str, die: str, faces: list,
                            round_no: int | None = None) -> dict:
        """Add faces of real dice rolled in class: validated against the die, kept apart as physical entries."""
        return self._add_batch(token, batch_id, lambda d: d.from_physical(die, faces), Source.PHYSICAL, round_no)

    def _add_batch(self, token: str, batch_id: str, check: Callable[[Domain], dict], source: Source,
                   round_no: int | None) -> dict:
        """Validate, then store one batch in one transaction (or answer a repeat with the first acknowledgement)."""
        batch_id = _check_batch_id(batch_id)
        try:
            with self.store.transaction() as cur:
                member_id, code, _pseudonym, _shown = self._member(cur, token)
                version = self._bump(cur, code)
                rnd = self._round_row(cur, code)
                existing = self._stored_batch(cur, rnd["round_id"], member_id, batch_id)
                domain = domain_for(rnd["kind"], rnd["settings"])
                if domain.kind == TOURNAMENT:
                    raise BadSettings("this round is a tournament: send played games, not counts")
                tally = check(domain)
                if existing is not None:
                    if existing[1] != tally or existing[2] != source.value:
                        raise BatchConflict(f"batch {batch_id} was already counted with different results")
                    raise _Duplicate(self._ack(batch_id, existing[0], sum(tally.values()), rnd, True))
                self._check_round(rnd, round_no)
                q.add_batch(cur, rnd["round_id"], member_id, batch_id, version, source.value, sum(tally.values()),
                            json.dumps(tally), self.clock())
                q.member_seen(cur, member_id, self.clock())
        except _Duplicate as dup:
            return dup.ack
        self._notify(code, version)
        return self._ack(batch_id, version, sum(tally.values()), rnd, False)

    @staticmethod
    def _check_round(rnd: dict, round_no: int | None) -> None:
        """RoundNotOpen unless the round takes results (and is the round the student rolled for)."""
        if rnd["status"] != Status.OPEN:
            raise RoundNotOpen(f"round {rnd['round_no']} is {rnd['status']}: it takes no more results")
        if round_no is not None and round_no != rnd["round_no"]:
            raise RoundNotOpen(f"round {round_no} has ended; the class is on round {rnd['round_no']} now")

    @staticmethod
    def _ack(batch_id: str, seq: int, accepted: int, rnd: dict, duplicate: bool) -> dict:
        """What a student's kernel is told about a stored batch."""
        return {"batch_id": batch_id, "accepted": accepted, "seq": seq, "round_no": rnd["round_no"],
                "duplicate": duplicate}

    @staticmethod
    def _stored_batch(cur, round_id: str, member_id: str, batch_id: str) -> tuple | None:
        """(seq, counts, source) of a batch already stored, or None."""
        row = q.stored_batch(cur, round_id, member_id, batch_id)
        if row is None:
            return None
        return row[0], {int(k): v for k, v in json.loads(row[1]).items()}, row[2]

    # ------------------------------------------------------------ tournaments

    def claim_block(self, token: str) -> dict | None:
        """The block of seeds this student plays next (their own unfinished block first); None when all are taken."""
        with self.store.transaction() as cur:
            member_id, code, _pseudonym, _shown = self._member(cur, token)
            version = self._bump(cur, code)
            rnd = self._round_row(cur, code)
            domain = domain_for(rnd["kind"], rnd["settings"])
            if not isinstance(domain, Tournament):
                raise BadSettings("this round is not a tournament")
            self._check_round(rnd, None)
            assigned = {b: (m, t) for b, m, t in q.blocks(cur, rnd["round_id"])}
            done = q.game_indexes(cur, rnd["round_id"])
            unfinished = [b for b in range(domain.blocks) if not set(domain.block_range(b)) <= done]
            now = self.clock()
            choice = next((b for b in unfinished if assigned.get(b, (None,))[0] == member_id), None)
            if choice is None:
                choice = next((b for b in unfinished if b not in assigned), None)
            if choice is None:
                choice = next((b for b in unfinished if now - assigned[b][1] > self.limits.block_timeout), None)
            if choice is None:
                return None
            q.assign_block(cur, rnd["round_id"], choice, member_id, now)
        self._notify(code, version)
        span = domain.block_range(choice)
        return {"block": choice, "start": span.start, "stop": span.stop, "round_no": rnd["round_no"],
                "done": sorted(done & set(span))}

    def contribute_games(self, token: str, batch_id: str, block: int, records: list,
                         round_no: int | None = None) -> dict:
        """Add played games of this student's block (validated; games already stored are not counted twice)."""
        batch_id = _check_batch_id(batch_id)
        try:
            with self.store.transaction() as cur:
                member_id, code, _pseudonym, _shown = self._member(cur, token)
                version = self._bump(cur, code)
                rnd = self._round_row(cur, code)
                domain = domain_for(rnd["kind"], rnd["settings"])
                if not isinstance(domain, Tournament):
                    raise BadSettings("this round is not a tournament")
                if type(block) is not int or not 0 <= block < domain.blocks:
                    raise BadSettings(f"block must be 0 to {domain.blocks - 1}, not {core.quote(block)}")
                checked = domain.check_records(records, block)
                existing = self._stored_batch(cur, rnd["round_id"], member_id, batch_id)
                indexes = {r["index"] for r in checked}
                if existing is not None:
                    raise _Duplicate(self._ack(batch_id, existing[0], existing[1].get(0, 0), rnd, True))
                self._check_round(rnd, round_no)
                if q.block_holder(cur, rnd["round_id"], block) != member_id:
                    from .errors import NotYourBlock

                    raise NotYourBlock(f"block {block} is not yours: ask for a block of seeds first")
                stored = {i: json.loads(r) for i, r in q.game_records(cur, rnd["round_id"]) if i in indexes}
                fresh = [r for r in checked if r["index"] not in stored]
                for r in checked:
                    if r["index"] in stored and stored[r["index"]] != r:
                        raise BatchConflict(f"game {r['index']} was already counted with a different result")
                for r in fresh:
                    q.add_game(cur, rnd["round_id"], r["index"], member_id, self.source.value, json.dumps(r))
                q.add_batch(cur, rnd["round_id"], member_id, batch_id, version, self.source.value, len(fresh),
                            json.dumps({0: len(fresh)}), self.clock())
        except _Duplicate as dup:
            return dup.ack
        self._notify(code, version)
        return self._ack(batch_id, version, len(fresh), rnd, False)

    # ------------------------------------------------------------ pooled views

    def records(self, code: str) -> list[dict]:
        """The pooled tournament games of the current round (shown students only), in game order."""
        code = _clean_code(code)
        with self.store.transaction() as cur:
            rnd = self._round_row(cur, code)
            shown = {m for m, _p, s in q.members(cur, code) if s}
        games = self._games(rnd["round_id"])
        return [r for _i, (m, _s, r) in sorted(games.items()) if m in shown]

    def _games(self, round_id: str) -> dict:
        """Every stored game of a round: index -> (member, source, record)."""
        with self.store.transaction() as cur:
            return {i: (m, s, json.loads(r)) for i, m, s, r in q.games(cur, round_id)}

    def version(self, code: str) -> int:
        """A class's current version (it grows with every change)."""
        code = _clean_code(code)
        with self.store.transaction() as cur:
            return self._class_row(cur, code)[1]

    def wait(self, code: str, version: int, timeout: float = 10.0) -> dict:
        """The snapshot as soon as the class's version differs from ``version`` (or at ``timeout``)."""
        timeout = max(0.0, min(float(timeout), self.limits.longest_wait))
        deadline = time.monotonic() + timeout
        notices = getattr(self.store, "notices", None)
        while True:
            seen = notices(CHANNEL) if notices is not None else 0
            if self.version(code) != version:
                break
            left = deadline - time.monotonic()
            if left <= 0:
                break
            if notices is not None:  # the shared store's change notices (any process, on PostgreSQL)
                self.store.wait_for(CHANNEL, seen, min(left, 1.0))
            else:
                time.sleep(min(left, 0.05))
        return self.snapshot(code)

    def _pool(self, code: str, rnd: dict) -> _Pool:
        """The round's tally, brought up to date with the batches stored since the last look (hold _pool_lock)."""
        pool = self._pools.get(rnd["round_id"])
        if pool is None or pool.epoch != rnd["epoch"]:
            pool = self._pools[rnd["round_id"]] = _Pool(rnd["round_id"], rnd["epoch"])
        with self.store.transaction() as cur:
            rows = q.batches_after(cur, rnd["round_id"], pool.last_seq)
            if rnd["kind"] == TOURNAMENT and rows:
                pool.games = {i: (m, s, json.loads(r)) for i, m, s, r in q.games(cur, rnd["round_id"])}
        for seq, member, source, counts in rows:
            pool.add((seq, member, source, {int(k): v for k, v in json.loads(counts).items()}))
            pool.last_seq = max(pool.last_seq, seq)
        return pool

    def snapshot(self, code: str, everyone: bool = False) -> dict:
        """The pooled picture of the current round (pseudonyms only): what the projector and students show."""
        code = _clean_code(code)
        with self.store.transaction() as cur:
            round_no, version = self._class_row(cur, code)
            rnd = self._round_row(cur, code, round_no)
            members = q.members(cur, code)
        domain = domain_for(rnd["kind"], rnd["settings"])
        shown = {m for m, _p, s in members if s}
        out = {"code": code, "version": version, "round_no": round_no, "status": rnd["status"],
               "kind": domain.kind, "kind_label": domain.name, "title": domain.title(),
               "settings": domain.settings()}
        with self._pool_lock:
            pool = self._pool(code, rnd)
            if isinstance(domain, Tournament):
                out.update(_tournament_view(domain, pool, members, shown, everyone))
            else:
                out.update(_counts_view(domain, pool, members, shown, everyone, self.limits.trace_growth))
        return out


def _fraction_text(p: Fraction) -> str:
    """'1/6' or '1'."""
    return str(p.numerator) if p.denominator == 1 else f"{p.numerator}/{p.denominator}"


def _counts_view(domain: Domain, pool: _Pool, members, shown: set, everyone: bool, growth: float) -> dict:
    """Pooled counts, per-student counts, total variation, its trace and the chi-square test."""
    exact = domain.exact
    outcomes = domain.outcomes
    pooled = _sum_tallies(pool.simulated.get(m, {}) for m in shown)
    n = sum(pooled.values())
    trace = pool.trace_for(exact, frozenset(shown), growth).series()
    test = stats.chi_square(pooled, exact)
    people = []
    for member_id, pseudonym, is_shown in members:
        if member_id not in pool.sources or (not is_shown and not everyone):
            continue
        sim, phys = pool.simulated.get(member_id, {}), pool.physical.get(member_id, {})
        person = {"pseudonym": pseudonym, "shown": bool(is_shown), "counts": [sim.get(k, 0) for k in outcomes],
                  "n": sum(sim.values()), "physical": [phys.get(k, 0) for k in outcomes]}
        if everyone:
            person["sources"] = sorted(pool.sources[member_id])
        people.append(person)
    phys_pool = _sum_tallies(pool.physical.get(m, {}) for m in shown)
    view = {
        "outcomes": list(outcomes), "labels": [domain.label(k) for k in outcomes],
        "exact": [float(exact[k]) for k in outcomes], "exact_text": [_fraction_text(exact[k]) for k in outcomes],
        "counts": [pooled.get(k, 0) for k in outcomes], "n": n,
        "students": sum(1 for m in shown if pool.simulated.get(m)),
        "tv": stats.total_variation(pooled, exact) if n else None, "trace": [list(p) for p in trace],
        "chi_square": {"statistic": test.statistic, "df": test.df, "p_value": test.p_value,
                       "reliable": test.is_reliable, "sentence": stats.chi_square_sentence(test)},
        "physical": {"counts": [phys_pool.get(k, 0) for k in outcomes], "n": sum(phys_pool.values()),
                     "students": sum(1 for m in shown if pool.physical.get(m))},
        "members": people,
    }
    headline = domain.headline(n, pooled)
    if headline is not None:
        view["headline"] = {**headline, "exact": float(headline["exact"]), "exact_text": _fraction_text(headline["exact"])}
    return view


def _sum_tallies(tallies) -> dict[int, int]:
    """Add {outcome: count} tallies."""
    out: dict[int, int] = {}
    for tally in tallies:
        for k, v in tally.items():
            out[k] = out.get(k, 0) + v
    return out


def _tournament_view(domain: Tournament, pool: _Pool, members, shown: set, everyone: bool) -> dict:
    """Pooled games: how many of how many, each bot's win share with its Wilson interval, per student."""
    from ..lab import Results

    spec = domain.spec()
    records = [record_from_json(r) for _i, (m, _s, r) in sorted(pool.games.items()) if m in shown]
    results = Results(spec, records)
    bots = []
    for name, tally in results.by_bot.items():
        share = tally.win
        low, high = share.low, share.high
        bots.append({"bot": name, "wins": tally.wins, "ties": tally.ties, "losses": tally.losses,
                     "games": tally.games, "share": share.value, "low": low, "high": high, "text": share.text()})
    people = []
    for member_id, pseudonym, is_shown in members:
        games = [i for i, (m, _s, _r) in pool.games.items() if m == member_id]
        if not games or (not is_shown and not everyone):
            continue
        people.append({"pseudonym": pseudonym, "shown": bool(is_shown), "games": len(games)})
    return {"games_total": spec.games, "games_done": len(records), "blocks": domain.blocks,
            "students": len({m for m, _s, _r in pool.games.values() if m in shown}),
            "bots": bots, "members": people}
