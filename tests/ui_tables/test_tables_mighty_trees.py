"""Mighty Trees at a shared table: each page draws only from its own seat's view (issue 19, hidden hands).

Two Play pages (and a spectator's) in one process, each with its own TablePanel on the real in-process
Authority over a temporary SQLite store. The test reads the whole game from the authority's record and
checks that no page's kernel ever holds another seat's Command: not in any widget's state, not in the
table picture, not in the moments its timeline keeps.
"""

from __future__ import annotations

import json

import ipywidgets as widgets
import pytest

import harness
from treegames import core
from treegames import mighty_trees as mt
from treegames.tables.authority import Authority
from treegames.ui.mighty_trees.play import MightyTreesPlay, rules_note_html
from treegames.ui.mighty_trees.seat import SeatState, knowledge_state
from treegames.ui.tables import TablePanel
from treegames.ui.tables.panel import SECRET, WATCHING


@pytest.fixture
def pair(authority):
    """Two Mighty Trees pages at one two-person table: (page, panel) of the creator, then of the joiner."""
    a, b = MightyTreesPlay(), MightyTreesPlay()
    pa, pb = TablePanel(a, client=authority, read_url=False), TablePanel(b, client=authority, read_url=False)
    pa.form.seed_box.value = 5
    assert pa.create(), pa.note.value
    pb.code_box.value = pa.table.view.code
    assert pb.join_from_box(), pb.note.value
    eventually(lambda: pa.table.view.status == "playing" and pa.table.view.version == pb.table.view.version)
    yield a, pa, b, pb
    for p in (pa, pb):
        if p.table is not None:
            p.table.stop()


def eventually(check, seconds: float = harness.DEADLINE) -> None:
    """Wait until ``check()`` holds (the other page's long-poll delivers in its own thread)."""
    harness.wait_until(check, seconds, step=0.02, what="the page following the table")


def full_state(authority: Authority, panel: TablePanel):
    """The authority's whole game at the panel's table (the test's reading, never a page's)."""
    return authority.state_of(panel.table.view.table_id)


def private_words(card) -> set[str]:
    """Words only a face-up copy of this card would put on a page."""
    return {card.name, card.common} if card.kind is mt.Kind.TREE else {card.name}


def widget_texts(root) -> str:
    """Every synced trait of every widget under ``root`` (what the kernel sends to the page), as JSON text."""
    seen, out, todo = set(), [], [root]
    while todo:
        w = todo.pop()
        if id(w) in seen:
            continue
        seen.add(id(w))
        state = {k: v for k, v in w.get_state().items() if not isinstance(v, bytes | memoryview)}
        out.append(json.dumps(state, default=str))
        for value in list(state.values()) + [getattr(w, "children", ())]:
            items = value if isinstance(value, list | tuple) else [value]
            todo.extend(x for x in items if isinstance(x, widgets.Widget))
        todo.extend(v for v in vars(w).values() if isinstance(v, widgets.Widget))
    return "\n".join(out)


def page_text(page: MightyTreesPlay, panel: TablePanel) -> str:
    """All a page's kernel holds about the table: widget states, the table picture, every kept moment."""
    moments = [json.dumps(m.table.to_json()) for m in page.timeline.states if isinstance(m, SeatState)]
    scene = page.board_view.last_scene or page.board_scene(page.state)
    return "\n".join([widget_texts(page), widget_texts(panel), " ".join(scene.texts()), *moments])


def hidden_from(page_seat: int | None, state) -> set[str]:
    """Words of every Command the seat may not see (all of them for a spectator), minus the page's fixed text."""
    fixed = rules_note_html() + MightyTreesPlay().legend_html()
    words = set()
    for p in range(state.num_players):
        if p != page_seat:
            for card in state.hand(p):
                words |= private_words(card)
    return {w for w in words if w not in fixed}


def play_one(page: MightyTreesPlay) -> str:
    """The page's seat plays its first listed legal action as a click of the Actions tab would."""
    choice = page.action_list.options[0]
    page.action_list.value = choice[1]
    assert page.play_listed(), page.message.value
    return str(choice[1])


def test_each_page_holds_its_own_command_and_only_counts_of_the_other(pair, authority):
    """Each page shows its own hand face up; the other Command is a count, and none of its cards is held."""
    a, pa, b, pb = pair
    state = full_state(authority, pa)
    for page, panel, seat in ((a, pa, 0), (b, pb, 1)):
        moment = page.state
        assert isinstance(moment, SeatState) and moment.seat == seat
        assert [c.name for c in moment.view.hand] == [c.name for c in state.hand(seat)]
        assert moment.view.hand_sizes == tuple(len(state.hand(p)) for p in range(2))
        assert all(c is None for c in moment.hand(1 - seat))
        text = page_text(page, panel)
        assert not [w for w in hidden_from(seat, state) if w in text]
        assert any(w in text for c in state.hand(seat) for w in private_words(c)), "the own hand is drawn"
        assert SECRET[:60] in panel.note.value
        assert page.teacher_box.layout.display == "none"


def test_the_seat_to_move_plays_by_clicks_and_the_other_page_follows(pair, authority):
    """The mover's clicks are sent as notation; the authority applies them and both pages show the same moment."""
    a, pa, b, pb = pair
    for _ in range(6):
        state = full_state(authority, pa)
        if state.is_terminal():
            break
        mover, other, panel = (a, b, pa) if state.current_player == 0 else (b, a, pb)
        assert mover.is_human_turn() and not other.is_human_turn()
        targets = mover.keyboard_targets()
        assert targets, "the mover's playable cards are outlined"
        version = panel.table.view.version
        assert mover.play_at(targets[0]), mover.message.value  # choose a card or a tree
        finish = [t for t in mover.keyboard_targets() if t != targets[0]]
        if finish and mover.play_at(finish[0]) and mover.preview_box.layout.display is None:
            assert mover.confirm_attack()
        if panel.table.view.version == version:  # the choice led nowhere: play from the Actions tab
            play_one(mover)
        eventually(lambda v=version: pa.table.view.version > v and pb.table.view.version == pa.table.view.version)
        state = full_state(authority, pa)
        for page, seat in ((a, 0), (b, 1)):
            eventually(lambda page=page: page.state.version == pa.table.view.version)
            assert page.state.view == state.view_for(seat)
    state = full_state(authority, pa)
    for page, panel, seat in ((a, pa, 0), (b, pb, 1)):
        assert not [w for w in hidden_from(seat, state) if w in page_text(page, panel)]
        assert len(page.timeline.states) > 1 and page.event_log.options


def test_every_moment_kept_for_back_and_forward_is_the_seats_own(pair, authority):
    """Back and Forward browse the moments this page saw; none holds the other seat's Command of that moment."""
    a, pa, b, pb = pair
    states = {pa.table.view.version: full_state(authority, pa)}
    for _ in range(4):
        state = full_state(authority, pa)
        mover, panel = (a, pa) if state.current_player == 0 else (b, pb)
        version = panel.table.view.version
        play_one(mover)
        eventually(lambda v=version: pa.table.view.version > v and pb.table.view.version == pa.table.view.version)
        eventually(lambda: a.state.version == b.state.version == pa.table.view.version)
        states[pa.table.view.version] = full_state(authority, pa)
    for page, seat in ((a, 0), (b, 1)):
        seen = {m.version: m for m in page.timeline.states}
        assert set(states) <= set(seen), "every moment after a move is kept"
        for version, state in states.items():
            assert seen[version].view == state.view_for(seat)
        page.back()
        assert page.state is page.timeline.states[-2]
        assert not page.play(mt.Action(mt.Verb.END)) and "earlier moment" in page.message.value
        page.forward()
        assert page.timeline.is_at_latest()


def test_a_move_out_of_turn_and_a_stale_move_are_refused_in_the_authoritys_words(pair, authority):
    """Nothing changes when the waiting seat tries to move, or a move is sent on a version the table has left."""
    a, pa, b, pb = pair
    state = full_state(authority, pa)
    mover, waiter, panel = (a, b, pa) if state.current_player == 0 else (b, a, pb)
    log = authority.log_of(pa.table.view.table_id)
    assert not waiter.play(mt.Action(mt.Verb.END))
    assert "Not accepted" in waiter.message.value
    assert authority.log_of(pa.table.view.table_id) == log
    panel.table.stop()  # this page hears nothing more, while the same seat moves on another device
    discard = next(a for a in state.legal_actions() if a.verb is mt.Verb.DISCARD and a.place == "hand")
    moved = authority.move(panel.table.token, panel.table.view.version, str(discard))
    old = mover.state
    assert not mover.play(old.legal_actions()[0])
    assert "Not accepted" in mover.message.value and "moved on" in mover.message.value
    assert authority.log_of(pa.table.view.table_id) == [*log, str(discard)]
    assert mover.state.version == moved.version, "after the refusal the page caught up"


def test_a_spectator_sees_the_public_table_only_and_follows(pair, authority):
    """Watching: every side with card backs, no Command of anyone, and the page follows a move by itself."""
    a, pa, b, pb = pair
    w = MightyTreesPlay()
    pw = TablePanel(w, client=authority, read_url=False)
    try:
        assert pw.watch(pa.table.view.code), pw.note.value
        moment = w.state
        assert isinstance(moment, SeatState) and moment.seat is None and moment.view.player == mt.PUBLIC
        assert moment.view.hand == () and not w.is_human_turn()
        assert WATCHING[:40] in pw.note.value and pw.bot_button.layout.display == "none"
        scene_texts = " ".join(w.board_view.last_scene.texts())
        assert "Watching: every Command stays hidden" in scene_texts
        assert not [word for word in hidden_from(None, full_state(authority, pa)) if word in page_text(w, pw)]
        version = pw.table.view.version
        state = full_state(authority, pa)
        play_one(a if state.current_player == 0 else b)
        eventually(lambda: w.state.version > version)
        assert w.state.view == mt_public(full_state(authority, pa))
        assert not [word for word in hidden_from(None, full_state(authority, pa)) if word in page_text(w, pw)]
    finally:
        if pw.table is not None:
            pw.table.stop()


def mt_public(state):
    """The public view the authority sends spectators."""
    from treegames.mighty_trees.observer import OBSERVER

    return OBSERVER.view(state, None)


def test_leaving_the_table_gives_the_page_a_game_of_its_own(pair):
    """After Leave, the page plays a local game again (the seat's moments are gone with the table)."""
    a, pa, _b, _pb = pair
    pa.leave()
    assert a.shared_table() is None and not isinstance(a.state, SeatState)
    a.run_auto()
    assert a.is_human_turn() and a.state.hand(a.state.mover)


def test_the_save_tab_at_a_shared_table_offers_the_picture_but_no_game_file(pair):
    """A seat's page holds no game file to save; the table's picture is still offered."""
    a, _pa, _b, _pb = pair
    a.tabs.selected_index = a.save_tab
    a._update_save(a.state)
    assert "kept by the table" in a.save_link.value
    assert "Save picture" in a.picture_link.value


def test_the_knowledge_state_words_the_movers_moves_as_the_engine_does():
    """Built from the mover's view alone, it lists and words the same moves, and refuses with the same reasons."""
    checked = 0
    for seed in range(6):
        rng = __import__("random").Random(seed)
        game = mt.new_game(players=2 + seed % 3)
        bot = mt.GreedyBot(seed)
        state = game.new_initial_state()
        while not state.is_terminal() and checked < 60 * (seed + 1):
            if state.current_player == core.CHANCE:
                state = state.apply(state.sample_chance(rng))
                continue
            known = knowledge_state(game, state.view_for(state.mover))
            assert known.legal_actions() == state.legal_actions()
            for action in state.legal_actions():
                assert known.describe(action, state.mover) == state.describe(action, state.mover)
            for card in state.hand((state.mover + 1) % game.num_players):  # another's card: same refusal
                action = mt.Action(mt.Verb.DISCARD, card.id, place="hand")
                assert known.why_not(action) == state.why_not(action)
            assert known.view_for(state.mover).hand == state.view_for(state.mover).hand
            assert all(known.hand(p) == () for p in range(game.num_players) if p != state.mover)
            checked += 1
            state = state.apply(bot.choose(state))
    assert checked > 100
