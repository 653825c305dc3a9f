"""The shared tables' schema and every statement they run, each a named function of a transaction.

The authority (:mod:`treegames.tables.authority`) asks for rows by name and writes no SQL itself.  Each
function takes the store's transaction (:class:`treegames.service.store.Tx`, which converts the ``?``
placeholders to the backend's own) and returns plain tuples, numbers or nothing; the authority turns rows
into its records.  ``FOR UPDATE`` locks a table's row on PostgreSQL; SQLite's ``BEGIN IMMEDIATE`` already
holds the whole database (the store drops the clause there).
"""

from __future__ import annotations

from typing import Any

__all__ = ["MIGRATIONS", "TABLE_COLUMNS"]

MIGRATIONS: list[str] = [
    # 1: tables, seats, spectators, the log
    """CREATE TABLE tg_tables (
        id TEXT PRIMARY KEY,
        code TEXT NOT NULL UNIQUE,
        game TEXT NOT NULL,
        options TEXT NOT NULL,
        label TEXT NOT NULL,
        hint_allowed INTEGER NOT NULL,
        seed TEXT NOT NULL,
        version BIGINT NOT NULL,
        status TEXT NOT NULL,
        creator TEXT NOT NULL,
        creator_hash TEXT NOT NULL,
        created DOUBLE PRECISION NOT NULL,
        updated DOUBLE PRECISION NOT NULL
    )""",
    "CREATE INDEX tg_tables_by_status ON tg_tables (status, created)",
    "CREATE INDEX tg_tables_by_creator ON tg_tables (creator, created)",
    """CREATE TABLE tg_seats (
        table_id TEXT NOT NULL,
        seat INTEGER NOT NULL,
        kind TEXT NOT NULL,
        label TEXT NOT NULL,
        token_hash TEXT,
        visitor TEXT,
        seen DOUBLE PRECISION,
        PRIMARY KEY (table_id, seat)
    )""",
    "CREATE UNIQUE INDEX tg_seats_by_token ON tg_seats (token_hash)",
    """CREATE TABLE tg_watchers (
        token_hash TEXT PRIMARY KEY,
        table_id TEXT NOT NULL,
        visitor TEXT NOT NULL,
        seen DOUBLE PRECISION NOT NULL
    )""",
    """CREATE TABLE tg_moves (
        table_id TEXT NOT NULL,
        version BIGINT NOT NULL,
        seat INTEGER,
        actor TEXT NOT NULL,
        action TEXT NOT NULL,
        at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (table_id, version)
    )""",
]
"""The schema, one step per statement (the store applies the steps it has not yet applied)."""

TABLE_COLUMNS = "id, code, game, options, label, hint_allowed, seed, version, status, creator_hash, created, updated"
"""A table's row as the authority reads it, in this order."""

EVERY_TABLE = ("tg_moves", "tg_watchers", "tg_seats", "tg_tables")
"""The tables' own database tables, the log first (what a reset empties)."""

# ---------------------------------------------------------------------- reading


def table(tx: Any, table_id: str, lock: bool = False) -> tuple | None:
    """A table's row (TABLE_COLUMNS), locked for the transaction if ``lock``; None if there is none."""
    sql = f"SELECT {TABLE_COLUMNS} FROM tg_tables WHERE id = ?" + (" FOR UPDATE" if lock else "")
    return tx.execute(sql, (table_id,)).fetchone()


def table_id_of_code(tx: Any, code: str) -> str | None:
    """The id of the table with this join code, or None."""
    row = tx.execute("SELECT id FROM tg_tables WHERE code = ?", (code,)).fetchone()
    return None if row is None else row[0]


def is_code_taken(tx: Any, code: str) -> bool:
    """Whether a table already has this join code."""
    return tx.execute("SELECT 1 FROM tg_tables WHERE code = ?", (code,)).fetchone() is not None


def tables_with_status(tx: Any, status: str) -> list[tuple]:
    """Every table's row (TABLE_COLUMNS) with this status, newest first."""
    return tx.execute(f"SELECT {TABLE_COLUMNS} FROM tg_tables WHERE status = ? ORDER BY created DESC",
                      (status,)).fetchall()


def every_table(tx: Any) -> list[tuple]:
    """Every table's row (TABLE_COLUMNS), newest first."""
    return tx.execute(f"SELECT {TABLE_COLUMNS} FROM tg_tables ORDER BY created DESC").fetchall()


def created_by_since(tx: Any, creator: str, since: float) -> int:
    """How many tables this visitor created after ``since``."""
    return tx.execute("SELECT COUNT(*) FROM tg_tables WHERE creator = ? AND created > ?",
                      (creator, since)).fetchone()[0]


def created_since(tx: Any, since: float) -> int:
    """How many tables anyone created after ``since``."""
    return tx.execute("SELECT COUNT(*) FROM tg_tables WHERE created > ?", (since,)).fetchone()[0]


def count_with_status(tx: Any, *statuses: str) -> int:
    """How many tables have one of these statuses."""
    marks = ", ".join("?" for _ in statuses)
    return tx.execute(f"SELECT COUNT(*) FROM tg_tables WHERE status IN ({marks})", statuses).fetchone()[0]


def seats(tx: Any, table_id: str) -> list[tuple]:
    """A table's seats in order: (seat, kind, label, token_hash, visitor, seen)."""
    return tx.execute("SELECT seat, kind, label, token_hash, visitor, seen FROM tg_seats "
                      "WHERE table_id = ? ORDER BY seat", (table_id,)).fetchall()


def holder(tx: Any, digest: str) -> tuple | None:
    """(table id, seat or None for a spectator, visitor) whose token has this hash, or None."""
    row = tx.execute("SELECT table_id, seat, visitor FROM tg_seats WHERE token_hash = ?", (digest,)).fetchone()
    if row is None:
        row = tx.execute("SELECT table_id, NULL, visitor FROM tg_watchers WHERE token_hash = ?",
                         (digest,)).fetchone()
    return row


def moves_after(tx: Any, table_id: str, after: int, upto: int) -> list[tuple]:
    """The log's (version, seat, action) with ``after`` < version <= ``upto``, in order."""
    return tx.execute("SELECT version, seat, action FROM tg_moves WHERE table_id = ? AND version > ? "
                      "AND version <= ? ORDER BY version", (table_id, after, upto)).fetchall()


def log_actions(tx: Any, table_id: str) -> list[str]:
    """A table's whole log in notation, oldest first."""
    rows = tx.execute("SELECT action FROM tg_moves WHERE table_id = ? ORDER BY version", (table_id,)).fetchall()
    return [r[0] for r in rows]


def table_ids(tx: Any) -> list[str]:
    """Every table's id."""
    return [r[0] for r in tx.execute("SELECT id FROM tg_tables").fetchall()]


# ---------------------------------------------------------------------- writing


def add_table(tx: Any, values: tuple, creator: str) -> None:
    """A new table's row: ``values`` in TABLE_COLUMNS order, then the creating visitor."""
    marks = ", ".join("?" for _ in range(len(values) + 1))
    tx.execute(f"INSERT INTO tg_tables ({TABLE_COLUMNS}, creator) VALUES ({marks})", (*values, creator))


def save_table(tx: Any, table_id: str, version: int, status: str, updated: float) -> None:
    """A table's new version, status and time of change."""
    tx.execute("UPDATE tg_tables SET version = ?, status = ?, updated = ? WHERE id = ?",
               (version, status, updated, table_id))


def add_seat(tx: Any, table_id: str, seat: int, kind: str, label: str, token_hash: str | None,
             visitor: str | None, seen: float | None) -> None:
    """A new table's seat."""
    tx.execute("INSERT INTO tg_seats (table_id, seat, kind, label, token_hash, visitor, seen) "
               "VALUES (?, ?, ?, ?, ?, ?, ?)", (table_id, seat, kind, label, token_hash, visitor, seen))


def take_seat(tx: Any, table_id: str, seat: int, token_hash: str, visitor: str, label: str, seen: float) -> bool:
    """Give a free person seat to a token's holder; False if someone took it first."""
    taken = tx.execute("UPDATE tg_seats SET token_hash = ?, visitor = ?, label = ?, seen = ? "
                       "WHERE table_id = ? AND seat = ? AND token_hash IS NULL",
                       (token_hash, visitor, label, seen, table_id, seat))
    return taken.rowcount == 1


def seat_to_bot(tx: Any, table_id: str, seat: int, bot: str) -> None:
    """A person seat played by a bot from now on (its token no longer holds it)."""
    tx.execute("UPDATE tg_seats SET kind = ?, token_hash = NULL WHERE table_id = ? AND seat = ?", (bot, table_id, seat))


def seat_seen(tx: Any, table_id: str, seat: int, seen: float) -> None:
    """When a seat's holder was last heard from."""
    tx.execute("UPDATE tg_seats SET seen = ? WHERE table_id = ? AND seat = ?", (seen, table_id, seat))


def add_watcher(tx: Any, token_hash: str, table_id: str, visitor: str, seen: float) -> None:
    """A spectator's token for a table."""
    tx.execute("INSERT INTO tg_watchers (token_hash, table_id, visitor, seen) VALUES (?, ?, ?, ?)",
               (token_hash, table_id, visitor, seen))


def watcher_seen(tx: Any, token_hash: str, seen: float) -> None:
    """When a spectator was last heard from."""
    tx.execute("UPDATE tg_watchers SET seen = ? WHERE token_hash = ?", (seen, token_hash))


def log_move(tx: Any, table_id: str, version: int, seat: int | None, actor: str, action: str, at: float) -> None:
    """One action appended to a table's log at its version."""
    tx.execute("INSERT INTO tg_moves (table_id, version, seat, actor, action, at) VALUES (?, ?, ?, ?, ?, ?)",
               (table_id, version, seat, actor, action, at))


def delete_everything(tx: Any) -> None:
    """Every table, seat, spectator and log entry gone."""
    for name in EVERY_TABLE:
        tx.execute(f"DELETE FROM {name}")
