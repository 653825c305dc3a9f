"""Wrong teacher codes are counted per visitor, wherever they are given, under a far higher server-wide ceiling.

Students typing codes into the teacher controls pause only their own controls; the teacher (another
visitor) is not slowed. Putting a bot in a seat with a credential that is neither the creator's token nor
the teacher code counts as a wrong teacher code like any other.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from tables_helpers import TEACHER, full_table, snapshot

from treegames.tables.authority import Authority
from treegames.tables.errors import NotTeacher, RateLimited
from treegames.tables.limits import Limits


def wrong_codes(authority: Authority, visitor: str, count: int) -> None:
    """``count`` wrong teacher codes from ``visitor``, each refused as not the teacher's."""
    for i in range(count):
        with pytest.raises(NotTeacher):
            authority.overview(f"GUESS-{i:04d}", visitor=visitor)


def test_putting_a_bot_in_a_seat_counts_wrong_credentials_like_wrong_teacher_codes(authority, clock):
    tickets = full_table(authority, "aspens")
    table_id = tickets[0].table_id
    clock.now += authority.limits.gone_after + 1  # both players gone: a seat may be given to a bot
    before = snapshot(authority, table_id)
    for i in range(authority.limits.teacher_failures):
        with pytest.raises(NotTeacher, match="creator or the teacher"):
            authority.replace_with_bot(f"GUESS-{i:04d}", table_id, 1, "random", visitor="guesser")
    with pytest.raises(RateLimited):
        authority.replace_with_bot(TEACHER, table_id, 1, "random", visitor="guesser")
    with pytest.raises(RateLimited):
        authority.overview(TEACHER, visitor="guesser")
    assert snapshot(authority, table_id) == before
    # the creator's own token is not a guess, and the teacher from elsewhere is not slowed
    assert authority.replace_with_bot(tickets[0].token, table_id, 1, "random", visitor="guesser").seats[1][
        "kind"] == "random"
    assert [v.table_id for v in authority.overview(TEACHER, visitor="teacher")] == [table_id]


def test_wrong_codes_from_students_do_not_lock_the_teacher_out(authority, clock):
    tickets = full_table(authority, "bosk")
    for student in range(10):
        wrong_codes(authority, f"student{student}", authority.limits.teacher_failures)
        with pytest.raises(RateLimited, match="from you"):
            authority.overview(TEACHER, visitor=f"student{student}")
    assert [v.table_id for v in authority.overview(TEACHER, visitor="teacher")] == [tickets[0].table_id]
    assert authority.close_table(TEACHER, tickets[0].table_id, visitor="teacher").status == "closed"
    clock.now += authority.limits.failed_join_window + 1
    assert authority.overview(TEACHER, visitor="student0")[0].status == "closed"  # the pause has passed


def test_the_server_wide_ceiling_pauses_every_teacher_control_until_the_window_passes(store, clock):
    limits = replace(Limits(), teacher_failures=10, teacher_failures_per_server=25)
    authority = Authority(store, limits=limits, clock=clock, teacher_code=TEACHER)
    wrong_codes(authority, "a", 10)
    wrong_codes(authority, "b", 10)
    wrong_codes(authority, "c", 5)
    for call in (lambda: authority.overview(TEACHER, visitor="teacher"),
                 lambda: authority.reset_all(TEACHER, visitor="teacher"),
                 lambda: authority.overview("ANOTHER-GUESS", visitor="d")):
        with pytest.raises(RateLimited, match="on this server"):
            call()
    clock.now += limits.failed_join_window + 1
    assert authority.overview(TEACHER, visitor="teacher") == []


def test_by_default_a_whole_class_mistyping_stays_under_the_server_wide_ceiling():
    limits = Limits()
    assert limits.teacher_failures_per_server >= 30 * limits.teacher_failures
