"""Chance and bots are the authority's: drawn from the table's stored seed, never chosen by a client.

The same table (game, options, seed, choices) makes the same log in any Authority and any process;
after a person's move the authority plays bot seats and chance until a person must move again.
"""

from __future__ import annotations

import random

import pytest
from tables_helpers import TEACHER, Proc, check_replays, full_table, mover, play_moves, snapshot

from treegames import core
from treegames.tables.authority import replay_table
from treegames.tables.errors import IllegalMove, NotYourTurn

CHOICES = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3, 2, 3, 8, 4]


def scripted(authority, game: str, seed, seats=("person", "person"), choices=CHOICES) -> list[str]:
    """The log of a table played by choice indexes into the mover's legal actions."""
    tickets = full_table(authority, game, seats, seed=seed)
    for choice in choices:
        ticket, view = mover(authority, tickets)
        if view.status != "playing":
            break
        authority.move(ticket.token, view.version, view.legal[choice % len(view.legal)])
    return authority.log_of(next(iter(tickets.values())).table_id)


@pytest.mark.parametrize("game", ["aspens", "bosk", "mighty_trees"])
def test_the_same_seed_and_choices_make_the_same_log_in_a_fresh_authority(authority, other_authority, game):
    here = scripted(authority, game, seed="same")
    there = scripted(other_authority, game, seed="same")
    assert here == there
    assert len(here) > len(CHOICES) // 2


def test_the_same_table_makes_the_same_log_in_another_process(authority, store_url):
    proc = Proc(store_url)
    try:
        proc.send({"op": "script", "game": "mighty_trees", "seed": 42, "seats": ["person", "random"],
                   "choices": CHOICES})
        there = proc.read()["log"]
    finally:
        proc.stop()
    assert scripted(authority, "mighty_trees", seed=42, seats=("person", "random")) == there


def test_the_seed_decides_the_chance_outcomes(authority):
    logs = {tuple(scripted(authority, "bosk", seed=s, choices=[0] * 6)) for s in range(6)}
    assert len(logs) > 1


@pytest.mark.parametrize("game", ["aspens", "bosk", "mighty_trees"])
def test_no_person_is_ever_asked_to_resolve_chance(authority, game):
    tickets = full_table(authority, game)
    rng = random.Random(4)
    for _ in range(30):
        ticket, view = mover(authority, tickets)
        if view.status != "playing":
            break
        assert view.current_player != core.CHANCE
        assert authority.state_of(ticket.table_id).current_player == view.current_player
        authority.move(ticket.token, view.version, rng.choice(view.legal))
    chance = [e for e in authority.view(ticket.token).log if e["seat"] is None]
    assert chance, "every game here begins with chance"


@pytest.mark.parametrize("game", ["aspens", "bosk", "mighty_trees"])
def test_a_client_cannot_pass_a_chance_outcome_as_its_move(authority, game):
    tickets = full_table(authority, game)
    ticket, view = mover(authority, tickets)
    state = core.games()[game].new_game().new_initial_state()
    while state.current_player != core.CHANCE:
        state = state.apply(state.legal_actions()[0])
    outcomes = [str(a) for a, _p in state.chance_outcomes()][:5]
    before = snapshot(authority, ticket.table_id)
    for face in outcomes:
        with pytest.raises((IllegalMove, NotYourTurn)):
            authority.move(ticket.token, view.version, face)
        assert snapshot(authority, ticket.table_id) == before


@pytest.mark.parametrize("game", ["aspens", "bosk", "mighty_trees"])
def test_bot_seats_move_by_themselves_after_a_persons_move(authority, game):
    tickets = full_table(authority, game, seats=("person", "greedy"))
    assert list(tickets) == [0]
    ticket = tickets[0]
    rng = random.Random(8)
    bot_moves = 0
    for _ in range(12):
        view = authority.view(ticket.token)
        if view.status != "playing":
            break
        assert view.current_player == 0 and view.legal, "after the bots and chance it is the person's move"
        after = authority.move(ticket.token, view.version, rng.choice(view.legal))
        bot_moves += sum(e["seat"] == 1 for e in after.log if e["version"] > view.version)
    assert bot_moves > 0
    check_replays(authority, ticket.table_id)


def test_a_table_of_bots_plays_itself_to_the_end_for_its_spectator(authority):
    ticket = authority.create_table("bosk", None, ["random", "greedy", "random"], visitor="w", seed=3)
    assert ticket.seat is None
    view = authority.view(ticket.token)
    assert view.status == "finished" and view.winners
    state = replay_table("bosk", view.options, authority.log_of(ticket.table_id))
    assert state.is_terminal() and state == authority.state_of(ticket.table_id)


def test_a_gone_player_replaced_by_a_bot_lets_the_game_go_on(authority, clock):
    tickets = full_table(authority, "aspens")
    ticket, view = mover(authority, tickets)
    creator = tickets[0]
    clock.now += authority.limits.gone_after + 1
    authority.replace_with_bot(TEACHER if ticket.seat == 0 else creator.token, ticket.table_id, ticket.seat, "random")
    stayer = tickets[1 - ticket.seat]
    assert play_moves(authority, {stayer.seat: stayer}, 5, random.Random(1)) == 5
    check_replays(authority, ticket.table_id)
