"""One small storage interface with two real backends: SQLite (the default) and PostgreSQL (psycopg 3).

``open_store(url=None)``:

* ``None``: SQLite at ``<data dir>/treegames.sqlite3``; the data dir is ``$TREEGAMES_DATA_DIR``, else
  ``~/.local/share/treegames``. The file and folder are made on first use.
* ``"sqlite:///abs/path.sqlite3"``: SQLite there (its folder is the data dir).
* ``"postgresql://..."`` (or ``postgres://``): PostgreSQL through psycopg 3 (the ``postgres`` extra).

SQLite runs in WAL mode with a busy timeout (``BUSY_MS``); each thread has its own connection and a write
transaction is ``BEGIN IMMEDIATE``, so two writers queue instead of failing. PostgreSQL: one connection
per thread, ``SELECT ... FOR UPDATE`` row locks, and change notices with LISTEN/NOTIFY on a listener
connection of its own (a daemon thread that reconnects after an outage).

SQL is written once with ``?`` placeholders and PostgreSQL types that SQLite also reads (TEXT, INTEGER,
BIGINT, DOUBLE PRECISION); the store turns ``?`` into ``%s`` for psycopg, and on SQLite drops a trailing
``FOR UPDATE`` (``BEGIN IMMEDIATE`` already holds the whole database). Values are always parameters,
never formatted into the text.

Migrations: a ``schema_version`` table holds one row per component (``component``, ``version``).
``register_migrations(component, steps)`` registers a component's steps (each one SQL statement, or a
callable taking the transaction); every store applies the steps it has not applied yet in one
transaction, on opening and again before the first transaction after a late registration. A database
whose version for a registered component is beyond the steps this code knows raises ``SchemaTooNew``:
the newer file is refused, never changed. An older file is brought forward.

Change notices: ``tx.notify(channel, payload)`` inside a transaction (sent when it commits),
``store.notify(channel, payload)`` outside one; ``store.notices(channel)`` is a counter of notices seen
by this process and ``store.wait_for(channel, after, timeout)`` blocks until that counter passes
``after`` or the timeout, and returns it. It may return early (SQLite written by another process is
polled every ``POLL_SECONDS``; a PostgreSQL reconnect wakes everybody), so callers read again.

``StoreUnavailable`` (a ``StoreError``, so a ``ValueError``) means the database did not answer (it is
down, restarting or unreachable) or stayed locked by another writer for longer than ``BUSY_MS``; the
transaction was rolled back, so nothing is half-written, and the message says which (``UNAVAILABLE``,
``BUSY``). Every wait is bounded: SQLite's busy timeout; on PostgreSQL the connect timeout, the server's
``lock_timeout`` (``BUSY_MS``) and ``statement_timeout`` (``STATEMENT_MS``), an
``idle_in_transaction_session_timeout`` that frees the row locks of a client that hung mid-transaction, and
TCP keepalives with a user timeout for a peer that vanished. After an outage nothing needs restarting: a
broken connection is dropped, the next transaction opens a new one, and the listener reconnects by itself.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from .errors import SchemaTooNew, StoreError, StoreUnavailable

__all__ = ["open_store", "register_migrations", "Store", "SchemaTooNew", "StoreError", "StoreUnavailable",
           "data_dir", "DEFAULT_FILE"]

DEFAULT_FILE = "treegames.sqlite3"
BUSY_MS = 10_000
"""How long a writer waits for another's lock before giving up (then StoreUnavailable, ``BUSY``)."""
STATEMENT_MS = 30_000
"""The longest one PostgreSQL statement may run (then StoreUnavailable)."""
IDLE_IN_TRANSACTION_MS = 60_000
"""PostgreSQL ends a session that sat this long inside a transaction, so its row locks are freed."""
POLL_SECONDS = 1.0
"""The longest an SQLite ``wait_for`` sleeps before letting its caller look again."""
PG_CONNECT_TIMEOUT = 3
PG_CHANNEL = "treegames"
UNAVAILABLE = "The table store is not answering right now, so nothing was changed: try again in a moment."
BUSY = ("The table store is busy (another writer has held it locked for too long), so nothing was changed: "
        "try again in a moment.")

Step = str | Callable[[Any], None]
_MIGRATIONS: dict[str, list[Step]] = {}
_REGISTRY_LOCK = threading.Lock()


def register_migrations(component: str, steps: list[Step]) -> None:
    """Register ``component``'s schema steps, oldest first (re-registering more steps extends it)."""
    if not re.fullmatch(r"[a-z][a-z0-9_]{0,39}", component or ""):
        raise StoreError(f"a component name is lower-case letters, digits and _, not {component!r}")
    with _REGISTRY_LOCK:
        known = _MIGRATIONS.get(component, [])
        if steps[: len(known)] != known:
            raise StoreError(f"component {component!r} re-registered with different earlier steps")
        _MIGRATIONS[component] = list(steps)


def registered() -> dict[str, int]:
    """Each registered component and how many steps this code knows."""
    with _REGISTRY_LOCK:
        return {name: len(steps) for name, steps in _MIGRATIONS.items()}


def data_dir() -> Path:
    """The data folder: ``$TREEGAMES_DATA_DIR``, else ``~/.local/share/treegames``."""
    folder = os.environ.get("TREEGAMES_DATA_DIR")
    return Path(folder).expanduser() if folder else Path.home() / ".local" / "share" / "treegames"


def open_store(url: str | None = None) -> Store:
    """The store at ``url`` (None: the default SQLite file), migrated to this code's schema."""
    if url is None or url == "":
        return SQLiteStore(data_dir() / DEFAULT_FILE)
    if url.startswith("sqlite:///"):
        return SQLiteStore(Path(url[len("sqlite:///") - 1:]))
    if url.startswith(("postgresql://", "postgres://")):
        return PostgresStore(url)
    raise StoreError(f"a store URL starts with sqlite:/// or postgresql://, not {url[:40]!r}")


class Notices:
    """Per-channel counters of change notices, with waiting (one condition for all channels)."""

    def __init__(self) -> None:
        self._counts: dict[str, int] = {}
        self._cond = threading.Condition()
        self._epoch = 0
        self._listeners: set[Callable[[], None]] = set()

    def listen(self, wake: Callable[[], None]) -> Callable[[], None]:
        """Call ``wake()`` (from whichever thread posts) after every notice; returns the call that stops it."""
        with self._cond:
            self._listeners.add(wake)
        return lambda: self._forget(wake)

    def _forget(self, wake: Callable[[], None]) -> None:
        """Stop calling ``wake``."""
        with self._cond:
            self._listeners.discard(wake)

    def _ring(self) -> None:
        """Tell every listener that something changed (outside the lock: a listener may take its own)."""
        with self._cond:
            listeners = list(self._listeners)
        for wake in listeners:
            wake()

    def count(self, channel: str) -> int:
        """Notices seen on ``channel`` so far (plus wake-ups of everybody)."""
        with self._cond:
            return self._counts.get(channel, 0) + self._epoch

    def post(self, channel: str) -> None:
        """One more notice on ``channel``."""
        with self._cond:
            self._counts[channel] = self._counts.get(channel, 0) + 1
            self._cond.notify_all()
        self._ring()

    def wake_all(self) -> None:
        """Wake every waiter (notices may have been missed)."""
        with self._cond:
            self._epoch += 1
            self._cond.notify_all()
        self._ring()

    def wait(self, channel: str, after: int, timeout: float) -> int:
        """Block until the count of ``channel`` passes ``after`` or ``timeout`` seconds; return the count."""
        deadline = time.monotonic() + max(0.0, timeout)
        with self._cond:
            while True:
                now = self._counts.get(channel, 0) + self._epoch
                left = deadline - time.monotonic()
                if now > after or left <= 0:
                    return now
                self._cond.wait(left)


class Tx:
    """The transaction object: ``execute(sql, params)``, ``fetchone()``, ``fetchall()``, ``rowcount``, ``notify``."""

    def __init__(self, store: Store, cursor: Any):
        self._store = store
        self._cursor = cursor
        self.pending: list[tuple[str, str]] = []

    def execute(self, sql: str, params: tuple | list = ()) -> Tx:
        """Run one statement with ``?`` parameters."""
        self._cursor.execute(self._store.convert(sql), tuple(params))
        return self

    def fetchone(self) -> tuple | None:
        """The next row, or None."""
        return self._cursor.fetchone()

    def fetchall(self) -> list[tuple]:
        """Every remaining row."""
        return list(self._cursor.fetchall())

    @property
    def rowcount(self) -> int:
        """Rows the last statement changed."""
        return self._cursor.rowcount

    def notify(self, channel: str, payload: str = "") -> None:
        """Send a change notice on ``channel`` when this transaction commits."""
        self.pending.append((channel, payload))


class Store:
    """The interface both backends share (see the module docstring)."""

    kind = "store"
    data_dir: Path

    def __init__(self) -> None:
        self.notices_ = Notices()
        self._local = threading.local()
        self._migrated: dict[str, int] = {}
        self._migrate_lock = threading.Lock()
        self._closed = False

    # the backend's part
    def convert(self, sql: str) -> str:
        """``sql`` as this backend's driver wants it."""
        raise NotImplementedError

    def _connection(self) -> Any:
        raise NotImplementedError

    def _begin(self, conn: Any) -> Any:
        raise NotImplementedError

    def _send(self, tx: Tx, notices: list[tuple[str, str]]) -> None:
        """Send notices inside the transaction (PostgreSQL) or nothing (SQLite posts after commit)."""

    def _is_down(self, err: BaseException) -> bool:
        """Whether ``err`` says the database is not answering."""
        raise NotImplementedError

    def _is_busy(self, err: BaseException) -> bool:
        """Whether ``err`` says another writer held a lock for longer than ``BUSY_MS``."""
        raise NotImplementedError

    def describe(self) -> str:
        """Where the data is, for people (no password)."""
        raise NotImplementedError

    # shared
    @contextlib.contextmanager
    def transaction(self) -> Iterator[Tx]:
        """One transaction: committed if the block ends normally, rolled back on any error."""
        if registered() != self._migrated:
            self.migrate()
        with self._raw_transaction() as tx:
            yield tx

    @contextlib.contextmanager
    def _raw_transaction(self) -> Iterator[Tx]:
        if self._closed:
            raise StoreError("this store has been closed")
        try:
            conn = self._connection()
            cursor = self._begin(conn)
        except Exception as err:
            self._refuse(err)
            raise
        tx = Tx(self, cursor)
        try:
            yield tx
            self._send(tx, tx.pending)
            conn.commit()
        except BaseException as err:
            with contextlib.suppress(Exception):
                conn.rollback()
            if isinstance(err, Exception):
                self._refuse(err)
            raise
        finally:
            with contextlib.suppress(Exception):
                cursor.close()
        for channel, _payload in tx.pending:
            self.notices_.post(channel)

    def _refuse(self, err: Exception) -> None:
        """StoreUnavailable (from ``err``) if the database is busy or down; a down one's connection is dropped."""
        if self._is_busy(err):
            raise StoreUnavailable(BUSY) from err
        if self._is_down(err):
            self._drop_connection()
            self._went_down()
            raise StoreUnavailable(UNAVAILABLE) from err

    def _went_down(self) -> None:
        """The database was seen down: other threads' connections are suspect too (PostgreSQL renews them)."""

    def _drop_connection(self) -> None:
        """Forget this thread's connection (it is broken; the next transaction opens a new one)."""
        conn = getattr(self._local, "conn", None)
        self._local.conn = None
        if conn is not None:
            with contextlib.suppress(Exception):
                conn.close()

    def migrate(self) -> None:
        """Apply every registered component's missing steps; SchemaTooNew if the database is newer."""
        with self._migrate_lock:
            known = registered()
            with self._raw_transaction() as tx:
                self._lock_schema(tx)
                tx.execute("CREATE TABLE IF NOT EXISTS schema_version "
                           "(component TEXT PRIMARY KEY, version INTEGER NOT NULL)")
                for component, count in known.items():
                    row = tx.execute("SELECT version FROM schema_version WHERE component = ?",
                                     (component,)).fetchone()
                    have = row[0] if row else 0
                    if have > count:
                        raise SchemaTooNew(
                            f"{self.describe()} holds {component!r} schema version {have}, but this treegames "
                            f"knows only up to version {count}: it was written by a newer treegames. "
                            "Upgrade treegames (or use another data folder); the file was not changed.")
                    steps = _MIGRATIONS[component][have:count]
                    for step in steps:
                        if callable(step):
                            step(tx)
                        else:
                            tx.execute(step)
                    if steps:
                        if row:
                            tx.execute("UPDATE schema_version SET version = ? WHERE component = ?",
                                       (count, component))
                        else:
                            tx.execute("INSERT INTO schema_version (component, version) VALUES (?, ?)",
                                       (component, count))
            self._migrated = known

    def _lock_schema(self, tx: Tx) -> None:
        """Keep two processes from migrating at once (SQLite: BEGIN IMMEDIATE already does)."""

    def schema_versions(self) -> dict[str, int]:
        """Each component's schema version in the database."""
        with self.transaction() as tx:
            return dict(tx.execute("SELECT component, version FROM schema_version").fetchall())

    def notify(self, channel: str, payload: str = "") -> None:
        """Send a change notice now (outside a transaction)."""
        with self.transaction() as tx:
            tx.notify(channel, payload)

    def notices(self, channel: str) -> int:
        """The count of notices this process has seen on ``channel``."""
        return self.notices_.count(channel)

    def wait_for(self, channel: str, after: int, timeout: float) -> int:
        """Wait until ``notices(channel)`` passes ``after`` or ``timeout`` seconds; may return early."""
        return self.notices_.wait(channel, after, timeout)

    def close(self) -> None:
        """Close this thread's connection and stop listening (other threads' connections close with them)."""
        self._closed = True
        self._drop_connection()
        self.notices_.wake_all()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.describe()}>"


class SQLiteStore(Store):
    """SQLite through the standard library: WAL, busy timeout, BEGIN IMMEDIATE, a connection per thread."""

    kind = "sqlite"

    def __init__(self, path: Path):
        super().__init__()
        self.path = Path(path).expanduser().resolve()
        self.data_dir = self.path.parent
        self.url = f"sqlite:///{self.path}"
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._stop = threading.Event()
        self.migrate()

    def convert(self, sql: str) -> str:
        """SQLite reads ``?`` itself; a row lock is the whole database's write lock."""
        return sql.replace(" FOR UPDATE", "")

    def _connection(self) -> sqlite3.Connection:
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = sqlite3.connect(self.path, timeout=BUSY_MS / 1000, isolation_level=None,
                                   check_same_thread=False)
            conn.execute(f"PRAGMA busy_timeout = {BUSY_MS}")
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA synchronous = NORMAL")
            self._local.conn = conn
        return conn

    def _begin(self, conn: sqlite3.Connection) -> sqlite3.Cursor:
        cursor = conn.cursor()
        cursor.execute("BEGIN IMMEDIATE")
        return cursor

    def _is_down(self, err: BaseException) -> bool:
        return isinstance(err, sqlite3.OperationalError) and not str(err).startswith(("no such", "near "))

    def _is_busy(self, err: BaseException) -> bool:
        return isinstance(err, sqlite3.OperationalError) and str(err).startswith(("database is locked",
                                                                                   "database is busy"))

    def wait_for(self, channel: str, after: int, timeout: float) -> int:
        """As Store.wait_for, waking at least every POLL_SECONDS (another process may have written)."""
        return self.notices_.wait(channel, after, min(timeout, POLL_SECONDS))

    def describe(self) -> str:
        """The SQLite file's path."""
        return str(self.path)


class PostgresStore(Store):
    """PostgreSQL through psycopg 3: a connection per thread, row locks, LISTEN/NOTIFY on a listener of its own."""

    kind = "postgresql"

    def __init__(self, url: str):
        super().__init__()
        try:
            import psycopg
        except ImportError as err:  # pragma: no cover - the postgres extra is installed for the tests
            raise StoreError("PostgreSQL needs psycopg 3: pip install 'treegames[postgres]'") from err
        self._psycopg = psycopg
        self.url = url
        self.data_dir = data_dir()
        self._stop = threading.Event()
        self.listening = threading.Event()
        self._generation = 0
        """Bumped whenever the database is seen down or back; a connection from an older one is renewed."""
        self.migrate()
        self._listener = threading.Thread(target=self._listen, name="treegames-store-listener", daemon=True)
        self._listener.start()
        self.listening.wait(5)

    def convert(self, sql: str) -> str:
        """``?`` placeholders as psycopg's ``%s`` (and a literal % doubled)."""
        return sql.replace("%", "%%").replace("?", "%s")

    def _connect(self, autocommit: bool = False) -> Any:
        """A new connection whose every wait is bounded (see the module docstring)."""
        timeouts = (f"-c lock_timeout={BUSY_MS} -c statement_timeout={STATEMENT_MS} "
                    f"-c idle_in_transaction_session_timeout={IDLE_IN_TRANSACTION_MS}")
        return self._psycopg.connect(self.url, connect_timeout=PG_CONNECT_TIMEOUT, autocommit=autocommit,
                                     options=timeouts, keepalives=1, keepalives_idle=5, keepalives_interval=2,
                                     keepalives_count=3, tcp_user_timeout=STATEMENT_MS)

    def _connection(self) -> Any:
        """This thread's connection; a new one if it was closed or made before the server was last seen down
        (so after a restart no thread's first request fails on a connection the old server dropped)."""
        conn = getattr(self._local, "conn", None)
        if conn is not None and (conn.closed or getattr(self._local, "generation", None) != self._generation):
            self._drop_connection()
            conn = None
        if conn is None:
            generation = self._generation
            conn = self._connect()
            self._local.conn, self._local.generation = conn, generation
        return conn

    def _went_down(self) -> None:
        self._generation += 1

    def _begin(self, conn: Any) -> Any:
        return conn.cursor()

    def _lock_schema(self, tx: Tx) -> None:
        tx.execute("SELECT pg_advisory_xact_lock(?)", (0x7472_6565,))

    def _send(self, tx: Tx, notices: list[tuple[str, str]]) -> None:
        for channel, payload in notices:
            tx.execute("SELECT pg_notify(?, ?)", (PG_CHANNEL, json.dumps([channel, payload])))

    def _is_down(self, err: BaseException) -> bool:
        psycopg = self._psycopg
        return isinstance(err, psycopg.OperationalError | psycopg.InterfaceError) and not self._is_busy(err)

    def _is_busy(self, err: BaseException) -> bool:
        errors = self._psycopg.errors
        return isinstance(err, errors.LockNotAvailable | errors.QueryCanceled | errors.DeadlockDetected)

    def _listen(self) -> None:
        """The listener thread: LISTEN on its own connection, post each notice, reconnect after an outage."""
        while not self._stop.is_set():
            try:
                with self._connect(autocommit=True) as conn:
                    conn.execute(f"LISTEN {PG_CHANNEL}")
                    if not self.listening.is_set():
                        self._generation += 1  # back (or first up): renew every older connection
                    self.notices_.wake_all()  # notices may have been missed while down
                    self.listening.set()
                    while not self._stop.is_set():
                        for notice in conn.notifies(timeout=1.0):
                            with contextlib.suppress(ValueError, TypeError):
                                channel, _payload = json.loads(notice.payload)
                                self.notices_.post(str(channel))
            except Exception:  # the server is down or restarting: try again shortly
                if self.listening.is_set():
                    self._generation += 1
                self.listening.clear()
                self._stop.wait(0.5)

    def close(self) -> None:
        """Stop the listener and close this thread's connection."""
        self._stop.set()
        super().close()

    def describe(self) -> str:
        """The PostgreSQL URL without its password."""
        return re.sub(r"//([^:/@]*):[^@]*@", r"//\1:***@", self.url)
