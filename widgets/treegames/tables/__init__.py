"""Shared tables: people on different devices play one game, with an authority that alone changes it (no UI imports).

The authority (:mod:`.authority`)
    A table is a game and its options, its seats (a person holding a secret seat token, or a bot), an
    append-only log of actions in notation and a version. A move is accepted only from the token holding
    the seat to move, made on the current version, legal by the engine, and one at a time per table.
    Chance and bots are played by the authority with the table's stored seed; a client never chooses a
    die face or a card. A seat sees only what that seat may see (:mod:`.views`); replaying the log gives
    the state every client shows. Refusals are :class:`~.errors.TableError` subclasses, one sentence each.
    Whether the coach's Hint may be used at a table (practice) is chosen once, by its creator
    (``create_table(..., hint_allowed=True)``, off by default); every view and summary says it, and no
    other call can change it.

Storage (:mod:`treegames.service.store`, shared with the class experiments)
    One small interface, two backends: SQLite (the default, WAL, in the data folder) and PostgreSQL
    (psycopg 3, LISTEN/NOTIFY), with versioned migrations. The class experiments share the same store.

Where it runs
    * The class server (``make serve``) mounts it in its own process (:mod:`treegames.serving.mount`,
      :mod:`.http`); kernels call it over loopback with a per-server key; the page never does.
    * On JupyterHub it is the hub-managed service ``treegames-tables`` (:mod:`.service`), the only
      writer of the store; kernels call it with their hub token and seats are bound to hub users.
    * On Binder each session is alone: no server is configured and the pages say so.
    The wire (:mod:`treegames.service.wire`) is the same in both places; :mod:`.client` is what a kernel uses.
"""
