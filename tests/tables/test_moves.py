"""A move is accepted only if the token holds the seat to move, the version is current and the engine allows it.

Every refusal is a TableError (a ValueError) with a clear sentence, and leaves the table exactly as it was.
"""

from __future__ import annotations

import random

import pytest
from tables_helpers import full_table, mover, snapshot

from treegames import core
from treegames.tables.authority import replay_table
from treegames.tables.errors import IllegalMove, NotYourTurn, StaleVersion, TableClosed, TableError
from treegames.tables.views import TableView


@pytest.mark.parametrize("game", ["aspens", "bosk", "mighty_trees"])
def test_the_seat_to_move_plays_a_legal_action_on_the_current_version(authority, game):
    tickets = full_table(authority, game)
    ticket, view = mover(authority, tickets)
    action = view.legal[-1]
    before = authority.state_of(ticket.table_id)
    log_before = authority.log_of(ticket.table_id)
    after = authority.move(ticket.token, view.version, action)
    assert isinstance(after, TableView)
    assert after.version > view.version
    log = authority.log_of(ticket.table_id)
    assert log[: len(log_before) + 1] == [*log_before, action]
    options = authority.view(ticket.token).options
    assert replay_table(game, options, log[: len(log_before) + 1]) == before.apply(before.parse_action(action))


@pytest.mark.parametrize("game", ["aspens", "bosk", "mighty_trees"])
def test_a_seat_that_is_not_to_move_is_refused_and_nothing_changes(authority, game):
    tickets = full_table(authority, game)
    ticket, view = mover(authority, tickets)
    other = next(t for seat, t in tickets.items() if seat != ticket.seat)
    before = snapshot(authority, ticket.table_id)
    with pytest.raises(NotYourTurn, match="not your turn"):
        authority.move(other.token, view.version, view.legal[0])
    assert snapshot(authority, ticket.table_id) == before


def test_a_stale_version_is_refused_saying_the_table_moved_on(authority, caplog):
    tickets = full_table(authority, "bosk")
    ticket, view = mover(authority, tickets)
    before = snapshot(authority, ticket.table_id)
    for stale in (view.version - 1, view.version + 1, 0, -5):
        with caplog.at_level("INFO", logger="treegames.tables"), pytest.raises(StaleVersion, match="moved on") as refused:
            authority.move(ticket.token, stale, view.legal[0])
        assert refused.value.current == view.version
        assert "version" not in str(refused.value), "a student's words: the version numbers go to the log"
        assert f"made on version {stale}" in caplog.text
        assert snapshot(authority, ticket.table_id) == before


def test_a_move_made_on_a_version_that_has_passed_is_stale(authority):
    tickets = full_table(authority, "aspens")
    ticket, view = mover(authority, tickets)
    authority.move(ticket.token, view.version, view.legal[0])
    nxt, now = mover(authority, tickets)
    before = snapshot(authority, ticket.table_id)
    with pytest.raises(StaleVersion):
        authority.move(nxt.token, view.version, now.legal[0])
    assert snapshot(authority, ticket.table_id) == before


@pytest.mark.parametrize("game", ["aspens", "bosk", "mighty_trees"])
def test_an_illegal_action_is_refused_with_the_engines_words(authority, game):
    tickets = full_table(authority, game)
    ticket, view = mover(authority, tickets)
    state = authority.state_of(ticket.table_id)
    before = snapshot(authority, ticket.table_id)
    for garbage in ("", "fly to the moon", "tree 9 at z99", "seed Q0", "\x00\x01", "'; DROP TABLE tg_moves; --"):
        with pytest.raises(core.IllegalAction) as engine:
            state.apply(state.parse_action(garbage))
        with pytest.raises(IllegalMove) as refused:
            authority.move(ticket.token, view.version, garbage)
        assert str(refused.value) == str(engine.value)
        assert isinstance(refused.value, TableError) and isinstance(refused.value, ValueError)
        assert snapshot(authority, ticket.table_id) == before


def test_a_legal_looking_action_that_is_not_legal_now_is_refused(authority):
    tickets = full_table(authority, "aspens")
    ticket, view = mover(authority, tickets)
    state = authority.state_of(ticket.table_id)
    legal = {str(a) for a in state.legal_actions()}
    played = authority.move(ticket.token, view.version, view.legal[0])
    nxt, now = mover(authority, tickets)
    repeated = view.legal[0]  # the square is taken now
    assert repeated in legal and repeated not in now.legal
    before = snapshot(authority, ticket.table_id)
    with pytest.raises(IllegalMove):
        authority.move(nxt.token, now.version, repeated)
    assert snapshot(authority, ticket.table_id) == before
    assert played.version == now.version  # the view a move returns is the table's newest


def test_a_spectator_cannot_move(authority):
    tickets = full_table(authority, "bosk")
    ticket, view = mover(authority, tickets)
    spectator = authority.watch(ticket.code)
    before = snapshot(authority, ticket.table_id)
    with pytest.raises(NotYourTurn, match="Spectators"):
        authority.move(spectator.token, view.version, view.legal[0])
    assert snapshot(authority, ticket.table_id) == before


def test_nobody_moves_before_every_seat_is_taken(authority):
    first = authority.create_table("aspens", None, ["person", "person"], visitor="a", seed=1)
    view = authority.view(first.token)
    assert view.status == "waiting" and view.legal == []
    with pytest.raises(NotYourTurn, match="every seat"):
        authority.move(first.token, view.version, "seed G4")
    assert authority.log_of(first.table_id) == []


def test_a_finished_game_takes_no_more_moves(authority):
    tickets = full_table(authority, "mighty_trees", max_turns=1)
    rng = random.Random(0)
    while True:
        ticket, view = mover(authority, tickets)
        if view.status != "playing":
            break
        authority.move(ticket.token, view.version, rng.choice(view.legal))
    assert view.status == "finished"
    assert authority.state_of(ticket.table_id).is_terminal()
    for t in tickets.values():
        with pytest.raises(NotYourTurn, match="over"):
            authority.move(t.token, view.version, "pass")


def test_a_closed_table_refuses_moves(authority):
    from tables_helpers import TEACHER

    tickets = full_table(authority, "aspens")
    ticket, view = mover(authority, tickets)
    closed = authority.close_table(TEACHER, ticket.table_id)
    assert closed.status == "closed"
    before = snapshot(authority, ticket.table_id)
    with pytest.raises(TableClosed):
        authority.move(ticket.token, closed.version, view.legal[0])
    assert snapshot(authority, ticket.table_id) == before
