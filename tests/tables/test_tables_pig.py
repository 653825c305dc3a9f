"""A shared table of Pig, the tests' plug-in game, on SQLite and PostgreSQL: the authority needs nothing but its entry point.

Two seats play a whole game by the authority's rules (its dice, never the client's), a bot takes a seat,
a refused move changes nothing, and the log replays to the same state.
"""

from __future__ import annotations

import random

import pytest
from tables_helpers import check_replays, full_table, mover, play_moves, snapshot


def test_two_seats_play_a_whole_game_of_pig_and_the_log_replays(authority):
    tickets = full_table(authority, "pig", goal=20)
    table_id = tickets[0].table_id
    view = authority.view(tickets[0].token)
    assert view.game == "pig" and view.options == {"goal": 20, "players": 2} and view.status == "playing"
    played = play_moves(authority, tickets, 400, random.Random(4))
    final = authority.view(tickets[1].token)
    assert final.status == "finished" and 0 < played < 400
    state = authority.state_of(table_id)
    assert state.is_terminal() and max(state.scores()) >= 20 and final.scores == list(state.scores())
    assert any(a.startswith("die ") for a in authority.log_of(table_id)), "the authority rolled the die"
    check_replays(authority, table_id)


def test_a_die_roll_or_a_hold_with_nothing_at_risk_is_refused_and_changes_nothing(authority):
    tickets = full_table(authority, "pig")
    ticket, view = mover(authority, tickets)
    assert view.legal == ["roll"], "nothing at risk: only roll"
    before = snapshot(authority, ticket.table_id)
    for bad, rule in (("die 6", "for chance to decide"), ("hold", "roll at least once"), ("first P2", "chance")):
        with pytest.raises(ValueError, match=rule):
            authority.move(ticket.token, view.version, bad)
        assert snapshot(authority, ticket.table_id) == before


def test_a_bot_plays_a_pig_seat_at_a_shared_table(authority):
    first = authority.create_table("pig", {"goal": 20}, ["person", "greedy"], visitor="v0", seed=3)
    rng = random.Random(2)
    for _ in range(300):
        view = authority.view(first.token)
        if view.status != "playing":
            break
        if view.current_player == first.seat:
            authority.move(first.token, view.version, rng.choice(view.legal))
        else:
            authority.wait(first.token, view.version, timeout=5)
    assert authority.view(first.token).status == "finished"
    check_replays(authority, first.table_id)

