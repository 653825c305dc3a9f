"""The shared tables' limits, in one place: what one visitor and the whole server may do.

Why these numbers:

* Creations: a class of 30 creates about 15 tables in a lesson, a few more after a mistake; a visitor
  may create ``creations_per_visitor`` tables per ``creation_window`` seconds, the whole server
  ``creations_per_server`` in the same window, and at most ``open_tables`` tables may be unfinished at
  once. A flood is refused with ``RateLimited`` and costs the others nothing (the check is one count).
* Text: an action is notation (``core.MAX_NOTATION`` = 200 characters); a label ``max_label`` characters;
  a whole request ``max_request_bytes``. Longer is refused with ``TooLarge`` before anything reads it.
* Failed joins: a join code has 31^6 (about 900 million) values (``codes.py``); a visitor gets
  ``failed_joins_per_visitor`` wrong codes per ``failed_join_window`` seconds and the server
  ``failed_joins_per_server`` (a visitor can reload to be someone new), so trying every code would take
  longer than the universe has existed, while a student who mistypes a code twice is not slowed.
* Presence: a seat whose holder has not called for ``connected_within`` seconds is shown as away; after
  ``gone_after`` seconds its holder counts as gone and the creator or the teacher may put a bot in it.
  A page's long poll (``max_wait`` seconds) keeps its seat connected.
* Teacher code: each visitor may give ``teacher_failures`` wrong teacher codes per ``failed_join_window``
  (to any teacher control, ``replace_with_bot`` included: a credential that is not the table creator's
  token counts as a wrong teacher code); after that, that visitor's teacher controls are refused until the
  window has passed, while everybody else (the teacher) is not slowed, so students typing codes cannot lock
  the teacher out. The whole server accepts ``teacher_failures_per_server`` wrong codes per window, far
  more than a class types by mistake; past that every teacher control pauses for the window. A teacher
  code has 31^8 (about 853 billion) values (``codes.py``): at that ceiling, trying half of them would
  take some 1,600 years, however many visitor ids a guesser makes up.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core import MAX_NOTATION


@dataclass(frozen=True)
class Limits:
    """The numbers the authority enforces (all counts per time window in seconds)."""

    creations_per_visitor: int = 6
    """Tables one visitor may create per ``creation_window``."""
    creations_per_server: int = 120
    """Tables the whole server creates per ``creation_window``."""
    creation_window: float = 600.0
    """The window (seconds) the creation counts are taken over."""
    open_tables: int = 300
    """Unfinished tables (waiting or playing) at once on the server."""
    max_action: int = MAX_NOTATION
    """Characters in one action (notation)."""
    max_label: int = 40
    """Characters in a table label or a player's label."""
    max_request_bytes: int = 16_384
    """Bytes in one HTTP request body."""
    failed_joins_per_visitor: int = 10
    """Wrong join codes one visitor may try per ``failed_join_window``."""
    failed_joins_per_server: int = 200
    """Wrong join codes the whole server accepts per ``failed_join_window``."""
    failed_join_window: float = 60.0
    """The window (seconds) for failed joins and wrong teacher codes."""
    teacher_failures: int = 10
    """Wrong teacher codes one visitor may give per ``failed_join_window`` before their teacher controls pause."""
    teacher_failures_per_server: int = 500
    """Wrong teacher codes the whole server accepts per ``failed_join_window`` before every teacher control pauses."""
    connected_within: float = 40.0
    """A seat heard from within this many seconds is shown as connected."""
    gone_after: float = 120.0
    """A seat not heard from for this many seconds may be given to a bot by the creator or the teacher."""
    max_wait: float = 30.0
    """The longest a long poll (``wait``) is held open, in seconds."""
    max_log_actions: int = 5000
    """Actions one table's log may hold (the longest game is well under 2000)."""
    table_bots: tuple[str, ...] = ("greedy", "random", "coach-easy")
    """The bots a shared table may seat. The authority plays bot seats in the server's own process, inside
    the table's transaction: coach-medium and coach-hard think for a second or more per move, which would
    hold the table and slow every other table on the server (they stay in Play and in the lab)."""


LIMITS = Limits()
