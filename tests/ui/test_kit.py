"""The view kit without a browser: guarded callbacks, NaN clicks, SVG, the one refresh path, forms, save/open,
bots answering by themselves, keyboard play, and the Aspens defects of issue 10 section 3."""

from __future__ import annotations

import asyncio
import datetime
import json
import logging
import math
import xml.etree.ElementTree as ET

import pytest

import harness
from treegames import aspens, core
from treegames.aspens import Phase, cell_name, make_board
from treegames.aspens.odds import production_correlation, production_covariance
from treegames.ui import palette, safety
from treegames.ui.aspens.board import BoardExplorer
from treegames.ui.aspens.lesson import (
    ForestExplorer,
    GainSimulator,
    HeightExplorer,
    WindExplorer,
    parse_stacks,
)
from treegames.ui.aspens.play import AspensPlay
from treegames.ui.aspens.scene import (
    PLAYER_TINTS,
    HexGeometry,
    board_scene,
    game_scene,
    wind_arrows,
)
from treegames.ui.aspens.walkthrough import CascadeExample, Walkthrough, cascade_example
from treegames.ui.canvas import SceneCanvas, client_event
from treegames.ui.forms import NewGameForm
from treegames.ui.scene import Polygons, Scene, Texts, as_points, colours
from treegames.ui.text import plural


def to_human_move(w: AspensPlay) -> None:
    """Press Step until a person must act."""
    for _ in range(60):
        if w.is_human_turn():
            return
        w.step()
    raise AssertionError("never reached a person's move")


# ---------------------------------------------------------------- safety


def test_a_failing_callback_is_logged_and_the_visitor_sees_one_friendly_sentence(caplog):
    w = AspensPlay(seed=3)

    def broken():
        raise RuntimeError("/secret/path/engine.py line 12")

    safety.on_click(w.step_button, broken, report=w.report_failure)
    with caplog.at_level(logging.ERROR, logger="treegames.ui"):
        w.step_button.click()
    assert safety.FRIENDLY in w.message.value
    assert "secret" not in w.message.value and "Traceback" not in w.message.value
    assert "secret" in caplog.text and "Traceback" in caplog.text, "the details are logged on the server"


@pytest.mark.parametrize("x, y", [(math.nan, 10.0), (10.0, math.inf), (-math.inf, math.nan), ("12", None),
                                  (1e308 * 10, 5.0), (object(), 3)])
def test_non_finite_or_junk_click_coordinates_are_ignored(x, y):
    w = AspensPlay(seed=3)
    to_human_move(w)
    before, frames = w.state, w.board_view.frames
    client_event(w.board_view.canvas, {"event": "mouse_down", "x": x, "y": y})  # as a page would send it
    assert w.state is before and w.board_view.frames == frames
    assert "went wrong" not in w.message.value


def test_a_malformed_canvas_event_from_a_client_raises_nothing():
    w = AspensPlay(seed=3)
    canvas = w.board_view.canvas
    for content in ({"event": "mouse_down"}, {"event": "key_down"}, {"event": "mouse_down", "x": [1], "y": {}},
                    {"event": "touch_start", "touches": 5}, {"event": "key_down", "key": None}):
        client_event(canvas, content)
    assert "went wrong" not in w.message.value


@pytest.mark.parametrize("make", [lambda: AspensPlay(seed=2), BoardExplorer, CascadeExample,
                                  lambda: Walkthrough([("first Aspen", "a coin")]), ForestExplorer,
                                  HeightExplorer, WindExplorer,
                                  lambda: GainSimulator([4, 3], __import__("random").Random(1))])
def test_every_callback_of_every_view_is_guarded(make):
    assert safety.unguarded_callbacks(make()) == []


def test_no_button_uses_a_cdn_icon_font():
    w = AspensPlay()
    todo, buttons = [w], []
    while todo:
        x = todo.pop()
        todo.extend(getattr(x, "children", ()) or ())
        if hasattr(x, "icon"):
            buttons.append(x)
    assert buttons and all(b.icon == "" for b in buttons)
    for b in (w.step_button, w.back_button, w.forward_button, w.undo_button, w.end_turn_button, w.auto_button,
              w.form.start_button, w.upload):
        assert "tg-icon" in b._dom_classes, f"{b.description} has an offline icon"


# ---------------------------------------------------------------- scenes and SVG


def test_a_scene_as_svg_has_the_same_shapes_colours_and_labels():
    w = AspensPlay(seed=1, aspen="greedy", pine="greedy")
    w.run_auto(200)
    scene = w.board_scene(w.state)
    root = ET.fromstring(scene.to_svg())
    ns = "{http://www.w3.org/2000/svg}"
    assert root.get("width") == str(scene.width) and root.get("height") == str(scene.height)
    polygons = sum(len(op.points) for op in scene.ops if isinstance(op, Polygons))
    assert len(root.findall(f"{ns}polygon")) == polygons
    assert sorted(t.text for t in root.iter(f"{ns}text")) == sorted(scene.texts())
    fills = {p.get("fill") for p in root.findall(f"{ns}polygon")}
    assert palette.WATER.upper() in fills and PLAYER_TINTS[1].upper() in fills


def test_svg_escapes_text():
    scene = Scene(100, 50).add(Texts([(5, 5, "<b>&'\"")]))
    assert ET.fromstring(scene.to_svg()).find("{http://www.w3.org/2000/svg}g")[0].text == "<b>&'\""


# ---------------------------------------------------------------- the one refresh path


def test_every_change_of_the_state_on_screen_refreshes_once():
    w = AspensPlay(seed=3)
    calls = []
    w.parts.append(lambda s: calls.append(s))
    w.step()
    w.back()
    w.forward()
    w.timeline.jump(0)
    assert calls == [w.timeline.states[1], w.timeline.states[0], w.timeline.states[1], w.timeline.states[0]]


# ---------------------------------------------------------------- the New game form


def test_the_new_game_form_has_one_control_per_option_of_the_schema():
    w = AspensPlay()
    schema = aspens.GAME_TYPE.options
    assert list(w.form.option_boxes) == [o.name for o in schema]
    for option in schema:
        box = w.form.option_boxes[option.name]
        assert box.value == option.default and option.meaning == box.tooltip
    assert [b.description for b in w.form.seat_boxes] == ["Aspen", "Pine"]
    assert [label for label, _ in w.form.seat_boxes[0].options] == [
        "Person", "Bot (greedy)", "Bot (random)", "Bot (coach-easy)", "Bot (coach-medium)", "Bot (coach-hard)"]


def test_a_players_option_shows_one_seat_per_player():
    from treegames.core import GameType, Option

    kind = GameType("x", "X", (2, 3, 4), False, False, (Option("players", (2, 3, 4), 2, "how many play"),),
                    {"random": core.RandomBot})
    form = NewGameForm(kind, ["A", "B", "C", "D"], {"players": 2}, ["human", "random", "random", "random"], 1,
                       lambda: None)
    assert form.seats() == ("human", "random")
    form.option_boxes["players"].value = 4
    assert form.seats() == ("human", "random", "random", "random")
    assert [b.layout.display for b in form.seat_boxes] == [None] * 4


def test_starting_a_two_bot_game_says_so():
    w = AspensPlay()
    w.aspen_choice.value = "greedy"
    w.form.start_button.click()
    assert "Aspen: Bot (greedy)" in w.message.value and "Pine: Bot (greedy)" in w.message.value
    assert "Bot (greedy)" in w.scores.value and "Person" not in w.scores.value


# ---------------------------------------------------------------- save and open


def test_save_then_open_rebuilds_the_same_game_with_its_whole_timeline():
    w = AspensPlay(seed=4, aspen="greedy", pine="greedy", setup=5)
    w.run_auto(150)
    saved, states = w.save_text(), list(w.timeline.states)
    other = AspensPlay(seed=9)
    other.open_saved(saved)
    assert other.state == w.state and other.timeline.states == states
    assert other.game.options["setup"] == 5 and "Opened a saved game" in other.message.value


@pytest.mark.parametrize("text", ["not json", "{}", json.dumps({"format": "treegames-save/1", "game": "aspens",
                                                                 "options": {"setup": 99}, "history": []}),
                                  None])
def test_a_bad_file_is_refused_with_the_engine_message_and_the_game_is_untouched(text):
    w = AspensPlay(seed=4)
    w.step()
    good = w.save_text()
    if text is None:  # tampered: a legal-looking history with an illegal move
        data = json.loads(good)
        data["history"].append("seed A1")
        text = json.dumps(data)
    before, states = w.state, list(w.timeline.states)
    w.upload.value = ({"name": "bad.json", "type": "application/json", "size": len(text),
                       "content": memoryview(text.encode()), "last_modified": datetime.datetime(2026, 1, 1)},)
    assert "Could not open that file" in w.message.value and "unchanged" in w.message.value
    assert w.state is before and w.timeline.states == states
    assert w.upload.value == ()


def test_the_save_tab_offers_a_download_and_a_picture():
    w = AspensPlay(seed=2)
    w.step()
    assert w.save_link.value == "", "nothing is built while the tab is closed"
    w.tabs.selected_index = w.save_tab
    assert 'download="aspens-game-step-1.json"' in w.save_link.value.replace("'", '"')
    assert "image/svg+xml" in w.picture_link.value


# ---------------------------------------------------------------- the bot answers by itself


def test_after_a_persons_move_the_bot_answers_by_itself_at_the_chosen_speed():
    async def scenario():
        w = AspensPlay(seed=1, aspen="human", pine="greedy", answer=True)
        w.speed.value = 30
        to_human_move(w)
        target = sorted(w.state.legal_targets()["seed"])[0]
        w.click_hex(target)
        assert w.auto_button.value and w.auto_button.description == "Pause"
        w.click_hex(sorted(w.state.legal_targets()["seed"])[0])  # a person clicks while Pine is answering
        assert "Pine (a bot) is playing its turn" in w.message.value and "Pause" in w.message.value
        # polled on a thread of its own, so this loop goes on running Pine's answer
        await asyncio.to_thread(harness.wait_until, lambda: not w.auto_button.value, step=0.01,
                                what="Pine's answer over (Auto-play released)")
        return w

    w = asyncio.run(scenario())
    assert w.is_human_turn() and w.state.current_player == aspens.ASPEN
    assert any(str(a).startswith("seed") and w.timeline.states[i].current_player == aspens.PINE
               for i, a in enumerate(w.state.history)), "Pine seeded by itself"
    assert w.auto_button.description == "Auto-play"


def test_pause_stops_the_answer():
    async def scenario():
        w = AspensPlay(seed=1, aspen="greedy", pine="greedy")
        w.speed.value = 30
        w.auto_button.value = True
        await asyncio.to_thread(harness.wait_until, lambda: w.timeline.cursor > 0, step=0.01,
                                what="auto-play's first step")
        w.auto_button.value = False
        steps = w.timeline.cursor
        # for 0.2 s no further step, while this loop is free to run one (the check polls on a thread)
        await asyncio.to_thread(harness.holds_for, lambda: w.timeline.cursor == steps, 0.2, step=0.01,
                                what="auto-play paused")
        return w, steps

    w, steps = asyncio.run(scenario())
    assert 0 < steps == w.timeline.cursor


def test_no_answer_when_unticked():
    async def scenario():
        w = AspensPlay(seed=1, answer=False)
        to_human_move(w)
        w.click_hex(sorted(w.state.legal_targets()["seed"])[0])
        # for 0.1 s Pine does not answer, while this loop is free to run an answer (the check polls on a thread)
        await asyncio.to_thread(harness.holds_for,
                                lambda: w.state.current_player == aspens.PINE and not w.auto_button.value, 0.1,
                                step=0.01, what="no answer from Pine")
        return w

    w = asyncio.run(scenario())
    assert w.state.current_player == aspens.PINE and not w.auto_button.value


# ---------------------------------------------------------------- keyboard


def test_arrow_keys_move_a_cursor_over_legal_targets_and_enter_plays():
    w = AspensPlay(seed=3, answer=False)
    to_human_move(w)
    targets = {cell_name(c) for c in w.state.legal_targets()["seed"]}
    w.key("Tab")
    assert w.cursor in targets
    first = w.cursor
    seen = {first}
    for key in ("ArrowRight", "ArrowDown", "ArrowLeft", "ArrowUp", "Tab", "Tab"):
        w.key(key)
        assert w.cursor in targets
        seen.add(w.cursor)
    assert len(seen) > 2, "the cursor really moves"
    cursor_layers = [op for op in w.board_view.last_scene.ops if isinstance(op, Polygons)
                     and op.tags == (("cursor", w.cursor),)]
    assert len(cursor_layers) == 2, "the cursor is drawn"
    chosen = w.cursor
    w.key("Enter")
    assert w.state.owner(aspens.parse_cell(chosen)) == aspens.ASPEN


def test_letter_shortcuts_press_the_buttons_and_are_shown_in_tooltips():
    w = AspensPlay(seed=3, answer=False)
    w.key("s")
    assert w.timeline.cursor == 1
    w.key("b")
    assert w.timeline.cursor == 0
    w.key("f")
    assert w.timeline.cursor == 1
    for button, letter in ((w.step_button, "S"), (w.back_button, "B"), (w.forward_button, "F"),
                           (w.undo_button, "U"), (w.end_turn_button, "E"), (w.auto_button, "A")):
        assert f"({letter})" in button.tooltip
    assert "Enter plays" in w.keys_help.value and "Esc leaves" in w.keys_help.value
    canvas = w.board_view.canvas
    assert canvas.description == "", "an empty description lets ipywidgets write the tooltip as the title"
    assert "board in words" in canvas.tooltip, "the canvas' accessible name points to the tables"


def test_the_position_is_described_for_a_screen_reader():
    w = AspensPlay(seed=1, aspen="greedy", pine="greedy")
    w.run_auto(40)
    words = w.words.value
    assert "aria-live='polite'" in words
    s = w.state
    assert f"Aspen owns {plural(s.scores()[0], 'space')}" in words
    assert f"Pine owns {plural(s.scores()[1], 'space')}" in words
    assert "treegames-sr-only" in w.words._dom_classes


# ---------------------------------------------------------------- section 3 defects


def test_switching_setup_redescribes_the_clicked_hex():
    explorer = BoardExplorer(setup=2)
    water = sorted(make_board(2).water - make_board(4).water)[0]
    explorer.click(*explorer.geo.center(water))
    assert "water tile" in explorer.info.value
    explorer.setup_picker.value = 4
    assert "water tile" not in explorer.info.value and "playable space" in explorer.info.value


def test_off_board_clicks_do_not_quote_axial_coordinates():
    explorer = BoardExplorer()
    explorer.click(2, 2)
    assert "axial" not in explorer.info.value and "off the board" in explorer.info.value


def test_back_clears_the_undo_message():
    w = AspensPlay(seed=3, answer=False)
    to_human_move(w)
    w.click_hex(sorted(w.state.legal_targets()["seed"])[0])
    w.undo()
    assert "Took back" in w.message.value
    for _ in range(3):
        w.back()
    assert "Took back" not in w.message.value


@pytest.mark.slow  # a second or more of CPU: make test runs it, test-quick does not
def test_jumping_back_from_a_finished_game_says_nothing_stale():
    w = AspensPlay(seed=1, aspen="greedy", pine="greedy")
    w.run_auto()
    assert w.state.is_terminal()
    w.step()
    assert "game is over" in w.message.value
    w.event_log.value = w.event_log.options[10][1]
    assert "game is over" not in w.message.value
    assert "Game over" not in w.title.value and "to move" in w.title.value or "Dice" in w.title.value


def test_titles_and_the_event_log_use_words_not_internal_ids():
    w = AspensPlay(seed=1, aspen="greedy", pine="greedy")
    w.run_auto(30)
    assert all(str(p) not in w.title.value for p in Phase)
    labels = [label for label, _ in w.event_log.options]
    assert labels[0] != "1. first Aspen" and labels[0] != "1. first Pine"
    assert all(label.split(". ", 1)[1][:1].isupper() for label in labels)


def test_the_lesson_correlation_is_computed_exactly_by_the_engine():
    assert production_covariance(4, 3) == pytest.approx(1 / 6) and production_covariance(4, 3).denominator == 6
    assert production_correlation(4, 3) == pytest.approx(math.sqrt(0.5), abs=1e-12)
    assert production_correlation(4, 4) == pytest.approx(1.0)
    assert production_correlation(7, 3) is None, "a certain event does not vary: its correlation is undefined"
    lesson = json.load(open("notebooks/aspens/sun-die-probability.ipynb"))
    text = "".join("".join(c["source"]) for c in lesson["cells"])
    assert "perfectly correlated**" not in text and "production_correlation(4, 3)" in text


def test_view_words_count_properly():
    assert plural(1, "space") == "1 space" and plural(2, "space") == "2 spaces" and plural(0, "tree") == "0 trees"
    with pytest.raises(ValueError, match="fewer than 0"):
        parse_stacks("4, -3")
    explorer = WindExplorer([])
    assert "no direction" not in explorer.result.value and "Pick at least one direction" in explorer.result.value
    one = WindExplorer([aspens.Direction.NE])
    assert "at least one of" not in one.result.value


def test_the_cascade_caption_lists_the_cells_once():
    widget = CascadeExample()
    _before, after = cascade_example()
    caption = widget.children[0].children[1].children[1].value
    for cell in after.last_cascade:
        assert caption.count(cell_name(cell)) == 1


def test_the_landing_page_says_where_the_games_run():
    text = "".join("".join(c["source"]) for c in json.load(open("notebooks/index.ipynb"))["cells"])
    assert "runs in your browser" not in text and "server" in text


def test_play_notebook_does_not_claim_who_you_are():
    text = "".join("".join(c["source"]) for c in json.load(open("notebooks/aspens/play.ipynb"))["cells"])
    assert "You are **Aspen**" not in text and "You are Aspen" not in text


def _boxes_overlap(a, b) -> bool:
    """True if two (left, top, right, bottom) boxes intersect."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("geo", [HexGeometry(), HexGeometry(size=13.0, margin=40.0)])
def test_wind_arrows_stay_clear_of_every_label_and_inside_the_canvas(geo):
    board = make_board(2)
    labels = board_scene(board, geo).text_boxes()
    state = core.replay(aspens.new_game(), aspens_start())
    for wind in aspens.WIND_FACES:
        rolled = state.apply(aspens.RollSun(3)).apply(aspens.RollWind(wind))
        (arrows,) = wind_arrows(rolled, geo)
        for corners in arrows.points:
            box = (corners[:, 0].min(), corners[:, 1].min(), corners[:, 0].max(), corners[:, 1].max())
            assert box[0] >= 0 and box[1] >= 0 and box[2] <= geo.width and box[3] <= geo.height, (wind, box)
            for text, label in labels:
                assert not _boxes_overlap(box, label), (wind.name, text, box, label)


def aspens_start() -> list[str]:
    """The walkthrough's opening: seeding and growing, up to Aspen's first roll."""
    return ["first Aspen", "seed H5", "seed H11", "seed G12", "seed G5", "seed K6", "seed L7"] + \
        ["grow-up H5", "grow-up H5", "grow-up G12", "grow-up G12"] + ["grow-up L7"] * 4


def test_the_cascade_ring_is_bold():
    _before, after = cascade_example()
    scene = game_scene(after, HexGeometry(size=13.0, margin=40.0), show_targets=False)
    rings = [op for op in scene.ops if isinstance(op, Polygons) and set(op.tags) == set(after.last_cascade)
             and op.fill is None]
    assert max(op.line_width for op in rings) >= 5.0


# ---------------------------------------------------------------- colours


def _linear(c: float) -> float:
    """sRGB channel (0-1) to linear light."""
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _lab(rgb) -> tuple[float, float, float]:
    """CIE L*a*b* of an sRGB triple (D65)."""
    r, g, b = (_linear(v / 255) for v in rgb)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883
    f = [t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116 for t in (x, y, z)]
    return (116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2]))


MACHADO = {  # Machado et al. 2009, severity 1.0, applied to linear RGB
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602),
                   (0.004733, 0.691367, 0.303900)),
}


def _seen(rgb, kind: str | None):
    """The colour as a person with this colour-vision deficiency sees it (sRGB 0-255)."""
    if kind is None:
        return rgb
    lin = [_linear(v / 255) for v in rgb]
    out = [max(0.0, min(1.0, sum(m * c for m, c in zip(row, lin, strict=True)))) for row in MACHADO[kind]]
    return [255 * (12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055) for c in out]


@pytest.mark.parametrize("vision", [None, "deuteranopia", "protanopia", "tritanopia"])
def test_owners_water_and_land_are_clearly_apart(vision):
    named = {"Aspen's spaces": PLAYER_TINTS[0], "Pine's spaces": PLAYER_TINTS[1], "water": palette.WATER,
             **{f"land {i}": tone for i, tone in enumerate(palette.LAND_TONES)}}
    labs = {name: _lab(_seen(palette.hex_to_rgb(c), vision)) for name, c in named.items()}
    for a in ("Aspen's spaces", "Pine's spaces", "water"):
        for b, lab in labs.items():
            if a != b and not (a.startswith("land") and b.startswith("land")):
                delta = math.dist(labs[a], lab)
                assert delta > 12, f"{a} vs {b}: delta E {delta:.1f} under {vision or 'normal vision'}"


def test_pine_spaces_carry_a_pattern_and_water_its_waves():
    w = AspensPlay(seed=1, aspen="greedy", pine="greedy")
    w.run_auto(60)
    scene = w.board_scene(w.state)
    hatch = [op for op in scene.ops if type(op).__name__ == "Segments" and op.stroke == palette.BLUE]
    assert hatch and len(hatch[0].points) == 3 * len(w.state.spaces(1))
    assert scene.texts().count("≈") == len(w.state.board.water)


def test_the_legend_names_the_wind_colours_it_draws():
    legend = AspensPlay().legend_html()
    assert palette.VERMILLION in legend and palette.REDDISH_PURPLE in legend and "orange" not in legend.lower()


def test_scene_canvas_click_gets_plain_floats():
    got = []
    view = SceneCanvas(60, 60, lambda: Scene(60, 60).add(Polygons(as_points([[(0, 0), (9, 0), (9, 9)]]),
                                                                   colours(["#000000"]))))
    view.on_click(lambda x, y: got.append((x, y)))
    client_event(view.canvas, {"event": "mouse_down", "x": 3, "y": "4.5"})
    assert got == [(3.0, 4.5)] and all(type(v) is float for v in got[0])


def test_the_landing_page_links_every_notebook_by_its_title(tmp_path):
    from treegames.ui.landing import pages_html

    (tmp_path / "index.ipynb").write_text("{}")
    (tmp_path / "zeta").mkdir()
    (tmp_path / "zeta" / "new-page.ipynb").write_text(json.dumps(
        {"cells": [{"cell_type": "markdown", "source": ["# A brand new page\n", "text"]}]}))
    (tmp_path / "aspens").mkdir()
    (tmp_path / "aspens" / "broken.ipynb").write_text("not json")
    page = pages_html(tmp_path / "zeta")
    assert "<a href='zeta/new-page.ipynb'>A brand new page</a>" in page
    assert "<a href='aspens/broken.ipynb'>broken</a>" in page
    assert page.index("Aspens") < page.index("zeta"), "the games come first"
    (tmp_path / "aspens" / "play.ipynb").write_text("{}")
    assert pages_html(tmp_path).index("aspens/play.ipynb") < pages_html(tmp_path).index("broken")


def test_one_space_is_not_written_as_1_spaces():
    walk = Walkthrough([("first Aspen", "a coin"), ("seed H5", "a seed")])
    walk.go(2)
    assert "Aspen</b>: 1 space," in walk.scores.value and "1 spaces" not in walk.scores.value
    explorer = BoardExplorer()
    explorer.click(*explorer.geo.center(aspens.Hex(1, 0)))
    assert "1 step from the centre" in explorer.info.value


def test_the_walkthrough_steps_by_keyboard_and_offers_its_picture():
    walk = Walkthrough([("first Aspen", "a coin"), ("seed H5", "a seed")])
    walk.key("ArrowRight")
    assert walk.index == 1 and "aspens-walkthrough-step-1.svg" in walk.picture_link.value
    walk.key("End")
    assert walk.index == 2
    walk.key("Home")
    walk.key("ArrowLeft")
    assert walk.index == 0


def test_a_page_that_connects_late_is_sent_every_widgets_state_including_changes_made_before(monkeypatch):
    """Voila renders the widgets as they were when the notebook ran; what changed before the page listened (bots
    auto-playing at load) reaches it when its board canvas says it is ready (seen once: a page stuck at step 10 of 11)."""
    import ipywidgets

    from treegames.ui.mighty_trees.play import MightyTreesPlay

    w = MightyTreesPlay(seed=1, seats=("human", "greedy"))
    w.run_auto()  # the bots' moves at load, made before any page listened
    sent: list = []
    monkeypatch.setattr(ipywidgets.Widget, "send_state", lambda self, key=None: sent.append(self))
    frames = w.board_view.frames
    client_event(w.board_view.canvas, {"event": "client_ready"})
    ids = {id(x) for x in sent}
    for part in (w.announcer.widget, w.message, w.auto_button, w.step_button, w.event_log, w.position,
                 w.move_box.box, w.review_panel.row.layout, w.hint_panel.hint_button):
        assert id(part) in ids, f"{type(part).__name__} was not sent again"
    assert not any(type(x).__module__.startswith("ipycanvas") for x in sent), "pictures come from the redraw"
    assert w.board_view.frames == frames + 1, "the board is drawn again for the page too"
