"""Hint at a shared table is for practice: off unless the table's creator allows it, and only the authority says so.

The creator chooses once, at ``create_table(..., hint_allowed=...)``; the table keeps the choice in its
row; every seat's view, a spectator's, the lobby's summary and the teacher's overview say it. No other
call takes it, so a joiner or a mover cannot switch it on. Every test runs on SQLite and on PostgreSQL.
"""

from __future__ import annotations

import random

import pytest
from tables_helpers import TEACHER, mover, play_moves

from treegames.tables import client as tables_client
from treegames.tables.errors import BadRequest


def seated(authority, game: str = "aspens", **create):
    """A two-person table with both seats taken and a spectator: (creator, joiner, spectator) tickets."""
    first = authority.create_table(game, None, ["person", "person"], visitor="v0", seed=4, **create)
    second = authority.join(first.code, visitor="v1")
    return first, second, authority.watch(first.code, visitor="v2")


def every_view(authority, tickets) -> list:
    """What each ticket's holder sees, and the table's row in the teacher's overview."""
    views = [authority.view(t.token) for t in tickets]
    return [*views, next(v for v in authority.overview(TEACHER) if v.table_id == tickets[0].table_id)]


@pytest.mark.parametrize("game", ["aspens", "bosk", "mighty_trees"])
def test_a_table_has_no_hint_unless_its_creator_allows_it(authority, game):
    tickets = seated(authority, game)
    assert [v.hint_allowed for v in every_view(authority, tickets)] == [False] * 4


@pytest.mark.parametrize("game", ["aspens", "bosk", "mighty_trees"])
def test_a_creator_who_allows_hint_is_heard_by_every_seat_spectator_and_teacher(authority, game):
    tickets = seated(authority, game, hint_allowed=True)
    assert [v.hint_allowed for v in every_view(authority, tickets)] == [True] * 4
    play_moves(authority, {t.seat: t for t in tickets[:2]}, 3, random.Random(1))
    assert [v.hint_allowed for v in every_view(authority, tickets)] == [True] * 4


def test_the_lobby_says_which_waiting_tables_allow_hint(authority):
    practice = authority.create_table("bosk", None, ["person", "person"], visitor="a", hint_allowed=True)
    match = authority.create_table("bosk", None, ["person", "person"], visitor="b")
    listed = {t.code: t.hint_allowed for t in authority.open_tables("bosk")}
    assert listed == {practice.code: True, match.code: False}


def test_the_choice_is_kept_with_the_table_for_another_process(authority, other_authority):
    practice = authority.create_table("aspens", None, ["person", "person"], visitor="a", hint_allowed=True)
    match = authority.create_table("aspens", None, ["person", "person"], visitor="b", hint_allowed=False)
    assert other_authority.view(practice.token).hint_allowed is True
    assert other_authority.view(match.token).hint_allowed is False


@pytest.mark.parametrize("value", ["true", "yes", 1, 0, None, [True], {"on": True}])
def test_hint_allowed_is_true_or_false_and_anything_else_creates_nothing(authority, value):
    with pytest.raises(BadRequest, match="hint_allowed is true or false"):
        authority.create_table("aspens", None, ["person", "person"], visitor="a", hint_allowed=value)
    assert authority.overview(TEACHER) == []


def test_no_call_but_create_takes_hint_allowed_so_a_joiner_or_mover_cannot_switch_it_on(authority):
    first = authority.create_table("aspens", None, ["person", "person"], visitor="v0", seed=2)
    client = tables_client.local(authority)  # what a page's kernel holds: the same JSON as over the wire
    with pytest.raises(TypeError):
        client.join(first.code, visitor="v1", hint_allowed=True)
    second = client.join(first.code, visitor="v1")
    ticket, view = mover(authority, {0: first, 1: second})
    for call in (lambda: client.move(ticket.token, view.version, view.legal[0], hint_allowed=True),
                 lambda: client.view(ticket.token, hint_allowed=True),
                 lambda: client.wait(ticket.token, view.version, 0.0, hint_allowed=True),
                 lambda: client.resume(ticket.token, hint_allowed=True),
                 lambda: client.watch(first.code, hint_allowed=True)):
        with pytest.raises(TypeError):
            call()
    assert len(authority.log_of(first.table_id)) == len(view.log), "the move sent with hint_allowed was not played"
    assert [v.hint_allowed for v in every_view(authority, [first, second])] == [False] * 3
