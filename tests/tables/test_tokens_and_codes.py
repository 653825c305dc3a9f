"""Seat tokens are the only credential; join codes are forgiving; the teacher's controls need the teacher code.

Every refusal is a TableError subclass (so a ValueError) with a clear sentence, and changes nothing.
"""

from __future__ import annotations

import pytest
from tables_helpers import TEACHER, full_table, mover, snapshot

from treegames.service import codes
from treegames.tables.errors import (
    BadRequest,
    BadToken,
    NoSuchTable,
    NotTeacher,
    RateLimited,
    SeatTaken,
    TableClosed,
    TableError,
    TableFull,
    TooLarge,
)

NOT_TOKENS = [None, 12345678, 3.5, b"bytes-token-value", ["a-token-in-a-list"], {"token": "x"}, "", "short",
              "x" * 101, "y" * 1_000_000]


@pytest.mark.parametrize("token", NOT_TOKENS, ids=lambda t: type(t).__name__ + str(len(str(t))))
def test_a_token_that_is_not_short_text_is_refused_clearly(authority, token):
    tickets = full_table(authority, "aspens")
    ticket, view = mover(authority, tickets)
    before = snapshot(authority, ticket.table_id)
    for call in (lambda: authority.move(token, view.version, view.legal[0]), lambda: authority.view(token),
                 lambda: authority.resume(token)):
        with pytest.raises(BadToken, match="not valid"):
            call()
    assert snapshot(authority, ticket.table_id) == before


def test_a_forged_token_holds_no_seat(authority):
    tickets = full_table(authority, "bosk")
    ticket, view = mover(authority, tickets)
    forged = codes.new_token()
    before = snapshot(authority, ticket.table_id)
    with pytest.raises(BadToken):
        authority.move(forged, view.version, view.legal[0])
    with pytest.raises(BadToken):
        authority.move(ticket.token[:-1] + ("A" if ticket.token[-1] != "A" else "B"), view.version, view.legal[0])
    assert snapshot(authority, ticket.table_id) == before


def test_a_token_plays_only_at_its_own_table(authority):
    here = full_table(authority, "aspens", seed=1)
    there = full_table(authority, "aspens", seed=1)
    ticket, view = mover(authority, here)
    other_id = there[0].table_id
    before = snapshot(authority, other_id)
    authority.move(ticket.token, view.version, view.legal[0])
    assert snapshot(authority, other_id) == before
    assert authority.resume(ticket.token).table_id == ticket.table_id != other_id
    with pytest.raises(NotTeacher):  # the creator's token of one table is no credential at another
        authority.replace_with_bot(here[0].token, other_id, 1, "random")


def test_a_token_bound_to_a_visitor_is_refused_to_someone_else(authority):
    tickets = full_table(authority, "aspens")
    ticket, view = mover(authority, tickets)
    holder = f"v{ticket.seat}"
    assert authority.view(ticket.token, visitor=holder).seat == ticket.seat
    with pytest.raises(BadToken, match="someone else"):
        authority.move(ticket.token, view.version, view.legal[0], visitor="intruder")


def test_over_long_and_non_text_input_is_refused_with_table_errors(authority):
    tickets = full_table(authority, "aspens")
    ticket, view = mover(authority, tickets)
    before = snapshot(authority, ticket.table_id)
    refusals = [
        (TooLarge, lambda: authority.move(ticket.token, view.version, "x" * 1_000_000)),
        (TableError, lambda: authority.move(ticket.token, view.version, 42)),
        (BadRequest, lambda: authority.move(ticket.token, str(view.version), view.legal[0])),
        (BadRequest, lambda: authority.move(ticket.token, True, view.legal[0])),
        (TooLarge, lambda: authority.create_table("aspens", None, ["person", "person"], label="L" * 41)),
        (BadRequest, lambda: authority.create_table("aspens", None, ["person", "person"], label=["no"])),
        (BadRequest, lambda: authority.create_table("chess", None, ["person", "person"])),
        (BadRequest, lambda: authority.create_table("aspens", {"setup": "lots"}, ["person", "person"])),
        (BadRequest, lambda: authority.create_table("aspens", None, ["person", "wizard"])),
        (BadRequest, lambda: authority.create_table("aspens", None, ["person"] * 3)),
        (BadRequest, lambda: authority.join(ticket.code, visitor="v" * 201)),
        (TooLarge, lambda: authority.join(ticket.code, label="L" * 1000)),
        (NoSuchTable, lambda: authority.join("Q" * 100_000)),
        (NoSuchTable, lambda: authority.join(None)),
    ]
    for error, call in refusals:
        with pytest.raises(error) as refused:
            call()
        assert isinstance(refused.value, ValueError) and str(refused.value).endswith((".", "!"))
    assert snapshot(authority, ticket.table_id) == before


def test_sql_metacharacters_are_only_text(authority):
    evil = "x'); DROP TABLE tg_tables; --"
    first = authority.create_table("aspens", None, ["person", "person"], label=evil, visitor=evil)
    second = authority.join(first.code, label="a\" OR 1=1 --", visitor="';--")
    view = authority.view(second.token)
    assert view.label == evil and view.seats[1]["label"] == "a\" OR 1=1 --"
    assert [s.label for s in authority.open_tables()] == []  # it is playing now, and every table is still there
    assert len(authority.overview(TEACHER)) == 1


def test_join_codes_are_read_case_insensitively_without_dashes_or_spaces(authority):
    first = authority.create_table("bosk", None, ["person"] * 4, visitor="a")
    shown = first.code
    assert len(shown) == 7 and shown[3] == "-" and set(shown.replace("-", "")) <= set(codes.ALPHABET)
    plain = shown.replace("-", "")
    for i, typed in enumerate([plain.lower(), f" {shown.lower()} ", f"{plain[:2]} {plain[2:]}".swapcase()]):
        assert authority.join(typed, visitor=f"j{i}").table_id == first.table_id


def test_join_codes_avoid_letters_people_mix_up():
    assert not set("0O1IL") & set(codes.ALPHABET)
    assert all(set(codes.new_code()) <= set(codes.ALPHABET) for _ in range(200))


def test_a_full_table_and_a_taken_seat_are_refused(authority):
    tickets = full_table(authority, "aspens")
    code = tickets[0].code
    before = snapshot(authority, tickets[0].table_id)
    with pytest.raises(TableFull):
        authority.join(code, visitor="late")
    with pytest.raises(SeatTaken):
        authority.join(code, visitor="late", seat=0)
    assert snapshot(authority, tickets[0].table_id) == before
    waiting = authority.create_table("bosk", None, ["person", "person", "random"], visitor="a")
    with pytest.raises(SeatTaken):
        authority.join(waiting.code, seat=waiting.seat)
    with pytest.raises(SeatTaken):
        authority.join(waiting.code, seat=2)  # a bot's seat
    with pytest.raises(BadRequest):
        authority.join(waiting.code, seat=7)
    assert authority.join(waiting.code, seat=1).seat == 1


def test_a_closed_table_takes_no_joins(authority):
    first = authority.create_table("aspens", None, ["person", "person"], visitor="a")
    authority.close_table(TEACHER, first.table_id)
    with pytest.raises(TableClosed):
        authority.join(first.code)


def test_teacher_controls_refuse_a_wrong_teacher_code(authority, clock):
    tickets = full_table(authority, "aspens")
    table_id = tickets[0].table_id
    before = snapshot(authority, table_id)
    for wrong in ["WRONG-CODE", "", None, 12, TEACHER + "X", tickets[1].token]:  # seat 2 did not create it
        clock.now += authority.limits.failed_join_window  # past the pause that many wrong codes bring
        for call in (lambda w=wrong: authority.overview(w), lambda w=wrong: authority.close_table(w, table_id),
                     lambda w=wrong: authority.reset_all(w),
                     lambda w=wrong: authority.replace_with_bot(w, table_id, 1, "random")):
            with pytest.raises(NotTeacher):
                call()
    assert snapshot(authority, table_id) == before
    clock.now += authority.limits.failed_join_window
    assert authority.overview(TEACHER.lower())[0].table_id == table_id  # the teacher code is read forgivingly
    assert authority.reset_all(TEACHER) == 1
    assert authority.overview(TEACHER) == []


def test_many_wrong_teacher_codes_pause_the_teacher_controls_for_a_while(authority, clock):
    for _ in range(authority.limits.teacher_failures):
        with pytest.raises(NotTeacher):
            authority.overview("GUESS-ME")
    with pytest.raises(RateLimited):
        authority.overview(TEACHER)
    clock.now += authority.limits.failed_join_window + 1
    assert authority.overview(TEACHER) == []


def test_many_wrong_join_codes_are_rate_limited(authority, clock):
    first = authority.create_table("aspens", None, ["person", "person"], visitor="a")
    for i in range(authority.limits.failed_joins_per_visitor):
        with pytest.raises(NoSuchTable):
            authority.join(f"ZZZZZ{codes.ALPHABET[i]}", visitor="guesser")
    with pytest.raises(RateLimited):
        authority.join(first.code, visitor="guesser")
    assert authority.join(first.code, visitor="someone else").seat == 1


def test_a_shared_table_seats_only_the_quick_bots(authority):
    """The slow coach levels think for seconds in the server's own process: a table refuses them."""
    with pytest.raises(BadRequest, match="coach-easy"):
        authority.create_table("aspens", {}, ["person", "coach-hard"], visitor="v1")
    ticket = authority.create_table("aspens", {}, ["person", "coach-easy"], visitor="v1")
    assert authority.view(ticket.token).status == "playing"
