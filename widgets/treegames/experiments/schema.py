"""The experiments' tables in the shared store (component "experiments", its own migration steps).

Registered with :func:`treegames.service.store.register_migrations` when this module is
imported, so the experiments live in the same database as the shared tables: one store.
Types are portable between SQLite and PostgreSQL (TEXT, INTEGER, BIGINT, DOUBLE PRECISION).
"""

from __future__ import annotations

COMPONENT = "experiments"

STEPS: list[str] = [
    # 1: classes, rounds, members, batches, tournament blocks and games
    """
    CREATE TABLE exp_classes (
        code TEXT PRIMARY KEY,
        round_no INTEGER NOT NULL,
        version BIGINT NOT NULL,
        created DOUBLE PRECISION NOT NULL,
        updated DOUBLE PRECISION NOT NULL
    )
    """,
    """
    CREATE TABLE exp_rounds (
        code TEXT NOT NULL,
        round_no INTEGER NOT NULL,
        round_id TEXT NOT NULL UNIQUE,
        kind TEXT NOT NULL,
        settings TEXT NOT NULL,
        status TEXT NOT NULL,
        epoch INTEGER NOT NULL,
        created DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (code, round_no)
    )
    """,
    """
    CREATE TABLE exp_members (
        member_id TEXT PRIMARY KEY,
        token_hash TEXT NOT NULL UNIQUE,
        code TEXT NOT NULL,
        pseudonym TEXT NOT NULL,
        shown INTEGER NOT NULL,
        joined DOUBLE PRECISION NOT NULL,
        seen DOUBLE PRECISION NOT NULL,
        UNIQUE (code, pseudonym)
    )
    """,
    """
    CREATE TABLE exp_batches (
        round_id TEXT NOT NULL,
        member_id TEXT NOT NULL,
        batch_id TEXT NOT NULL,
        seq BIGINT NOT NULL,
        source TEXT NOT NULL,
        total INTEGER NOT NULL,
        counts TEXT NOT NULL,
        created DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (round_id, member_id, batch_id)
    )
    """,
    "CREATE INDEX exp_batches_by_seq ON exp_batches (round_id, seq)",
    """
    CREATE TABLE exp_blocks (
        round_id TEXT NOT NULL,
        block INTEGER NOT NULL,
        member_id TEXT NOT NULL,
        assigned DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (round_id, block)
    )
    """,
    """
    CREATE TABLE exp_games (
        round_id TEXT NOT NULL,
        game_index INTEGER NOT NULL,
        member_id TEXT NOT NULL,
        source TEXT NOT NULL,
        record TEXT NOT NULL,
        PRIMARY KEY (round_id, game_index)
    )
    """,
]


def register() -> None:
    """Register the experiments' migration steps with the shared store (idempotent)."""
    from ..service.store import register_migrations

    register_migrations(COMPONENT, STEPS)
