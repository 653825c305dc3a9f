"""Property: random legal play through the authority is the engine's own playout.

Person seats choose by index among the legal actions; the engine, on its own, makes the same choices
and draws each chance outcome with ``random.Random(f"{seed}/{version}")`` (the table's stored seed and
the version of that log entry, as the authority documents). Both must reach the same state and log.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tables_helpers import full_table

from treegames import core

PLAYERS = {"aspens": 2, "bosk": 3, "mighty_trees": 3}


def engine_playout(game: str, options: dict, seed: str, entries: list[dict], choices: list[int]):
    """The engine alone: chance from the seed and each entry's version, persons by their choice indexes."""
    state = core.games()[game].new_game(**options).new_initial_state()
    picks = iter(choices)
    actions = []
    for entry in entries:
        if state.current_player == core.CHANCE:
            action = core.sample_chance(state, random.Random(f"{seed}/{entry['version']}"))
            after = state.apply(action)
            actions.append(str(action))
        else:
            legal = state.legal_actions()
            after = state.apply(legal[next(picks) % len(legal)])
            actions.append(str(after.last_action))  # a person's move is logged in the engine's full notation
        state = after
    return state, actions


@pytest.mark.parametrize("game", list(PLAYERS))
def test_play_through_the_authority_is_the_engines_own_playout(authority, game):
    @settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(seed=st.integers(0, 10**6), choices=st.lists(st.integers(0, 10**6), max_size=25))
    def check(seed, choices):
        tickets = full_table(authority, game, seats=("person",) * PLAYERS[game], seed=seed)
        made = []
        for choice in choices:
            view = authority.view(tickets[0].token)
            if view.status != "playing":
                break
            ticket = tickets[view.current_player]
            mine = authority.view(ticket.token)
            authority.move(ticket.token, mine.version, mine.legal[choice % len(mine.legal)])
            made.append(choice)
        table_id = tickets[0].table_id
        view = authority.view(tickets[0].token)
        state, actions = engine_playout(game, view.options, str(seed), view.log, made)
        assert actions == authority.log_of(table_id)
        assert state == authority.state_of(table_id)

    check()
