"""Each seat sees what it may: in Mighty Trees its own Command and nobody else's; spectators only public cards.

And the views are the log: replaying ``log_of(table)`` through the engine gives exactly what they show.
"""

from __future__ import annotations

import dataclasses
import json
import random

import pytest
from tables_helpers import full_table, mover

from treegames import mighty_trees as mt
from treegames.mighty_trees.observer import OBSERVER
from treegames.tables.authority import replay_table
from treegames.tables.views import TableView


def wire(view: TableView) -> str:
    """A view as the text that crosses the wire."""
    return json.dumps(view.to_json())


def without_the_habitat_card(text: str, state) -> str:
    """``text`` without the face-up habitat card's own words (they name its preferred trees and card kinds)."""
    from treegames.mighty_trees import PUBLIC

    for line in state.explain(PUBLIC).splitlines():
        if line.startswith("Habitat "):
            text = text.replace(json.dumps(line)[1:-1], "")
    return text


@pytest.mark.parametrize("players", [2, 3, 4])
def test_no_mighty_trees_view_carries_another_seats_hand(authority, players):
    tickets = full_table(authority, "mighty_trees", seats=("person",) * players, seed=players)
    spectator = authority.watch(tickets[0].code)
    rng = random.Random(players)
    checked = 0
    for _ in range(25):
        state = authority.state_of(tickets[0].table_id)
        hands = {p: [c.name for c in state.hand(p)] for p in range(players)}
        for seat, ticket in tickets.items():
            view = authority.view(ticket.token)
            text = without_the_habitat_card(wire(view), state)
            assert view.player_view["hand"] == hands[seat]
            for own in hands[seat]:
                assert own in text
            for other, cards in hands.items():
                if other != seat:
                    leaked = [c for c in cards if c in text]
                    assert not leaked, f"seat {seat} sees seat {other}'s {leaked}"
            checked += 1
        public = without_the_habitat_card(wire(authority.view(spectator.token)), state)
        leaked = [c for cards in hands.values() for c in cards if c in public]
        assert not leaked, f"the spectator sees {leaked}"
        ticket, view = mover(authority, tickets)
        if view.status != "playing":
            break
        authority.move(ticket.token, view.version, rng.choice(view.legal))
    assert checked >= 2 * players


def test_a_spectators_mighty_trees_view_is_the_public_view(authority):
    tickets = full_table(authority, "mighty_trees")
    spectator = authority.watch(tickets[0].code)
    view = authority.view(spectator.token)
    assert view.seat is None and view.legal == [] and view.places == {}
    assert view.player_view["hand"] == [] and view.saved is None
    state = authority.state_of(tickets[0].table_id)
    public = dataclasses.replace(state.view_for(0), player=mt.PUBLIC, hand=())  # every public card, no Command
    assert OBSERVER.view(state, None) == public
    assert view.player_view == OBSERVER.view_to_json(public)


@pytest.mark.parametrize("game", ["aspens", "bosk", "mighty_trees"])
def test_replaying_the_log_gives_exactly_what_every_view_shows(authority, other_authority, game):
    tickets = full_table(authority, game, seed=9)
    spectator = authority.watch(tickets[0].code)
    rng = random.Random(9)
    for _ in range(15):
        ticket, view = mover(authority, tickets)
        if view.status != "playing":
            break
        authority.move(ticket.token, view.version, rng.choice(view.legal))
    table_id = tickets[0].table_id
    options = authority.view(tickets[0].token).options
    state = replay_table(game, options, other_authority.log_of(table_id))
    for seat, ticket in [*tickets.items(), (None, spectator)]:
        view = other_authority.view(ticket.token)
        assert view.current_player == int(state.current_player)
        assert view.scores == [int(x) for x in state.scores()]
        assert view.winners == [int(w) for w in state.winners()]
        mine = seat is not None and seat == state.current_player
        assert view.legal == ([str(a) for a in state.legal_actions()] if mine else [])
        assert len(view.log) == len(other_authority.log_of(table_id))
        if game == "mighty_trees":
            expected = state.view_for(seat) if seat is not None else OBSERVER.view(state, None)
            assert OBSERVER.view_from_json(view.player_view) == expected
            assert view.saved is None
        else:
            assert view.saved == state.to_json()


def test_a_seat_reads_its_own_draws_in_the_log_and_others_read_only_that_a_card_was_drawn(authority):
    tickets = full_table(authority, "mighty_trees", seed=5)
    texts = {seat: [e["text"] for e in authority.view(t.token).log] for seat, t in tickets.items()}
    assert len(texts[0]) == len(texts[1])
    differing = [(a, b) for a, b in zip(texts[0], texts[1], strict=True) if a != b]
    assert differing, "the deal's draws read differently for their receiver"
