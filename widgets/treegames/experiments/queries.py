"""Every statement the class experiments run, each a named function of a transaction.

The authority (:mod:`treegames.experiments.authority`) asks for rows by name and writes no SQL itself;
the schema is :mod:`treegames.experiments.schema`.  Each function takes the store's transaction (which
converts the ``?`` placeholders to the backend's own) and returns plain tuples, numbers or nothing.
"""

from __future__ import annotations

from typing import Any

ROUND_DATA = ("exp_batches", "exp_blocks", "exp_games")
"""What a round holds besides its own row (deleted when a round is reset or goes)."""

# ---------------------------------------------------------------------- classes


def class_row(cur: Any, code: str, lock: bool = False) -> tuple | None:
    """(round_no, version) of a class, its row locked for the transaction if ``lock``; None if there is none."""
    return cur.execute("SELECT round_no, version FROM exp_classes WHERE code = ?" + (" FOR UPDATE" if lock else ""),
                       (code,)).fetchone()


def bump_version(cur: Any, code: str, now: float) -> int | None:
    """Add one to a class's version (taking its row lock); the new version, or None if there is no such class."""
    cur.execute("UPDATE exp_classes SET version = version + 1, updated = ? WHERE code = ?", (now, code))
    row = cur.execute("SELECT version FROM exp_classes WHERE code = ?", (code,)).fetchone()
    return None if row is None else row[0]


def class_count(cur: Any) -> int:
    """How many classes the store keeps."""
    return cur.execute("SELECT COUNT(*) FROM exp_classes").fetchone()[0]


def is_class_code_taken(cur: Any, code: str) -> bool:
    """Whether a class already has this code."""
    return cur.execute("SELECT 1 FROM exp_classes WHERE code = ?", (code,)).fetchone() is not None


def add_class(cur: Any, code: str, now: float) -> None:
    """A new class at round 1, version 1."""
    cur.execute("INSERT INTO exp_classes (code, round_no, version, created, updated) VALUES (?, 1, 1, ?, ?)",
                (code, now, now))


def set_class_round(cur: Any, code: str, round_no: int) -> None:
    """Which round of a class is the current one."""
    cur.execute("UPDATE exp_classes SET round_no = ? WHERE code = ?", (round_no, code))


def classes_unchanged_since(cur: Any, cutoff: float) -> list[str]:
    """The codes of the classes last changed before ``cutoff``."""
    return [row[0] for row in cur.execute("SELECT code FROM exp_classes WHERE updated < ?", (cutoff,)).fetchall()]


def classes_with_rounds(cur: Any) -> list[tuple]:
    """(code, current round_no, its kind, its status, class updated) of every class, oldest first."""
    return cur.execute("SELECT c.code, c.round_no, r.kind, r.status, c.updated FROM exp_classes c "
                       "JOIN exp_rounds r ON r.code = c.code AND r.round_no = c.round_no ORDER BY c.created").fetchall()


def delete_class(cur: Any, code: str) -> None:
    """A class's rounds, members and own row gone (its rounds' data must be gone first: delete_round_data)."""
    for table in ("exp_rounds", "exp_members", "exp_classes"):
        cur.execute(f"DELETE FROM {table} WHERE code = ?", (code,))  # noqa: S608 - fixed names


# ---------------------------------------------------------------------- rounds


def round_row(cur: Any, code: str, round_no: int) -> tuple | None:
    """(round_id, kind, settings JSON, status, epoch, round_no) of a class's round, or None."""
    return cur.execute("SELECT round_id, kind, settings, status, epoch, round_no FROM exp_rounds "
                       "WHERE code = ? AND round_no = ?", (code, round_no)).fetchone()


def add_round(cur: Any, code: str, round_no: int, round_id: str, kind: str, settings: str, status: str,
              now: float) -> None:
    """A new round of a class (``settings`` as JSON), at epoch 0."""
    cur.execute("INSERT INTO exp_rounds (code, round_no, round_id, kind, settings, status, epoch, created) "
                "VALUES (?, ?, ?, ?, ?, ?, 0, ?)", (code, round_no, round_id, kind, settings, status, now))


def set_round_status(cur: Any, round_id: str, status: str) -> None:
    """A round's new status."""
    cur.execute("UPDATE exp_rounds SET status = ? WHERE round_id = ?", (status, round_id))


def restart_round(cur: Any, round_id: str, status: str) -> None:
    """A round's new status in a new epoch (what students sent before no longer counts)."""
    cur.execute("UPDATE exp_rounds SET status = ?, epoch = epoch + 1 WHERE round_id = ?", (status, round_id))


def last_round_no(cur: Any, code: str) -> int:
    """The highest round number a class has had (0 for none)."""
    return cur.execute("SELECT MAX(round_no) FROM exp_rounds WHERE code = ?", (code,)).fetchone()[0] or 0


def round_ids(cur: Any, code: str) -> list[str]:
    """The ids of every round of a class."""
    return [row[0] for row in cur.execute("SELECT round_id FROM exp_rounds WHERE code = ?", (code,)).fetchall()]


def delete_round(cur: Any, round_id: str) -> None:
    """A round's own row gone."""
    cur.execute("DELETE FROM exp_rounds WHERE round_id = ?", (round_id,))


def delete_round_data(cur: Any, round_id: str) -> None:
    """A round's batches, blocks and games gone."""
    for table in ROUND_DATA:
        cur.execute(f"DELETE FROM {table} WHERE round_id = ?", (round_id,))  # noqa: S608 - fixed names


# ---------------------------------------------------------------------- members


def member_by_token(cur: Any, digest: str) -> tuple | None:
    """(member_id, code, pseudonym, shown) of the student whose token has this hash, or None."""
    return cur.execute("SELECT member_id, code, pseudonym, shown FROM exp_members WHERE token_hash = ?",
                       (digest,)).fetchone()


def add_member(cur: Any, member_id: str, digest: str, code: str, pseudonym: str, now: float) -> None:
    """A new student in a class, shown on the projector."""
    cur.execute("INSERT INTO exp_members (member_id, token_hash, code, pseudonym, shown, joined, seen) "
                "VALUES (?, ?, ?, ?, 1, ?, ?)", (member_id, digest, code, pseudonym, now, now))


def member_seen(cur: Any, member_id: str, now: float) -> None:
    """When a student was last heard from."""
    cur.execute("UPDATE exp_members SET seen = ? WHERE member_id = ?", (now, member_id))


def pseudonyms(cur: Any, code: str) -> set[str]:
    """The pseudonyms a class's students have."""
    return {row[0] for row in cur.execute("SELECT pseudonym FROM exp_members WHERE code = ?", (code,)).fetchall()}


def show_member(cur: Any, code: str, pseudonym: str, shown: bool) -> bool:
    """Show or hide a student's data on the projector; False if the class has no such student."""
    cur.execute("UPDATE exp_members SET shown = ? WHERE code = ? AND pseudonym = ?", (1 if shown else 0, code, pseudonym))
    return cur.execute("SELECT 1 FROM exp_members WHERE code = ? AND pseudonym = ?",
                       (code, pseudonym)).fetchone() is not None


def members(cur: Any, code: str) -> list[tuple]:
    """(member_id, pseudonym, shown) of a class's students, in the order they joined."""
    return cur.execute("SELECT member_id, pseudonym, shown FROM exp_members WHERE code = ? ORDER BY joined",
                       (code,)).fetchall()


# ---------------------------------------------------------------------- batches, blocks and games


def add_batch(cur: Any, round_id: str, member_id: str, batch_id: str, seq: int, source: str, total: int,
              counts: str, now: float) -> None:
    """A student's batch of outcomes (``counts`` as JSON) at the class version ``seq``."""
    cur.execute("INSERT INTO exp_batches (round_id, member_id, batch_id, seq, source, total, counts, created) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)", (round_id, member_id, batch_id, seq, source, total, counts, now))


def stored_batch(cur: Any, round_id: str, member_id: str, batch_id: str) -> tuple | None:
    """(seq, counts JSON, source) of a batch already stored, or None."""
    return cur.execute("SELECT seq, counts, source FROM exp_batches WHERE round_id = ? AND member_id = ? "
                       "AND batch_id = ?", (round_id, member_id, batch_id)).fetchone()


def batches(cur: Any, round_id: str) -> list[tuple]:
    """(seq, member_id, source, total, counts JSON, created) of a round's batches, in order."""
    return cur.execute("SELECT seq, member_id, source, total, counts, created FROM exp_batches "
                       "WHERE round_id = ? ORDER BY seq", (round_id,)).fetchall()


def batches_after(cur: Any, round_id: str, seq: int) -> list[tuple]:
    """(seq, member_id, source, counts JSON) of a round's batches after ``seq``, in order."""
    return cur.execute("SELECT seq, member_id, source, counts FROM exp_batches WHERE round_id = ? AND seq > ? "
                       "ORDER BY seq", (round_id, seq)).fetchall()


def blocks(cur: Any, round_id: str) -> list[tuple]:
    """(block, member_id, assigned) of a round's handed-out blocks of seeds."""
    return cur.execute("SELECT block, member_id, assigned FROM exp_blocks WHERE round_id = ?", (round_id,)).fetchall()


def block_holder(cur: Any, round_id: str, block: int) -> str | None:
    """The member a block of seeds was handed to, or None."""
    row = cur.execute("SELECT member_id FROM exp_blocks WHERE round_id = ? AND block = ?", (round_id, block)).fetchone()
    return None if row is None else row[0]


def assign_block(cur: Any, round_id: str, block: int, member_id: str, now: float) -> None:
    """Hand a block of seeds to a member (taking it from whoever had it)."""
    cur.execute("DELETE FROM exp_blocks WHERE round_id = ? AND block = ?", (round_id, block))
    cur.execute("INSERT INTO exp_blocks (round_id, block, member_id, assigned) VALUES (?, ?, ?, ?)",
                (round_id, block, member_id, now))


def games(cur: Any, round_id: str) -> list[tuple]:
    """(game_index, member_id, source, record JSON) of a round's games, by index."""
    return cur.execute("SELECT game_index, member_id, source, record FROM exp_games WHERE round_id = ? "
                       "ORDER BY game_index", (round_id,)).fetchall()


def game_indexes(cur: Any, round_id: str) -> set[int]:
    """The indexes of a round's games played so far."""
    return {row[0] for row in cur.execute("SELECT game_index FROM exp_games WHERE round_id = ?",
                                          (round_id,)).fetchall()}


def game_records(cur: Any, round_id: str) -> list[tuple]:
    """(game_index, record JSON) of a round's games."""
    return cur.execute("SELECT game_index, record FROM exp_games WHERE round_id = ?", (round_id,)).fetchall()


def add_game(cur: Any, round_id: str, index: int, member_id: str, source: str, record: str) -> None:
    """One played game of a round (``record`` as JSON)."""
    cur.execute("INSERT INTO exp_games (round_id, game_index, member_id, source, record) VALUES (?, ?, ?, ?, ?)",
                (round_id, index, member_id, source, record))
