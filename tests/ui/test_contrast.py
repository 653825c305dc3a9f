"""WCAG 2.1 AA contrast of the kit's colours, computed from ui/palette.py: text >= 4.5:1, board marks >= 3:1."""

from __future__ import annotations

import pytest

from treegames.ui import palette
from treegames.ui.aspens.scene import PLAYER_COLOURS as ASPENS_COLOURS
from treegames.ui.aspens.scene import PLAYER_TINTS as ASPENS_TINTS
from treegames.ui.aspens.scene import TOKEN_INK as ASPENS_TOKEN_INK
from treegames.ui.bosk.scene import PLAYER_COLOURS as BOSK_COLOURS
from treegames.ui.bosk.scene import PLAYER_INK as BOSK_INK


def test_relative_luminance_and_ratio_follow_the_wcag_formula():
    assert palette.relative_luminance("#000000") == 0.0
    assert palette.relative_luminance("#FFFFFF") == pytest.approx(1.0)
    assert palette.contrast_ratio("#000000", "#FFFFFF") == pytest.approx(21.0)
    assert palette.contrast_ratio("#777777", "#FFFFFF") == pytest.approx(4.48, abs=0.01)  # the classic near miss
    assert palette.contrast_ratio("#E69F00", "#FFFFFF") == palette.contrast_ratio("#FFFFFF", "#E69F00")


@pytest.mark.parametrize(("what", "ink", "ground"), palette.TEXT_PAIRS, ids=[w for w, _, _ in palette.TEXT_PAIRS])
def test_every_text_colour_reads_at_4_5_to_1(what, ink, ground):
    ratio = palette.contrast_ratio(ink, ground)
    assert ratio >= palette.TEXT_MIN, f"{what}: {ink} on {ground} is {ratio:.2f}:1"


@pytest.mark.parametrize(("what", "fill"), palette.MARKS, ids=[w for w, _ in palette.MARKS])
@pytest.mark.parametrize("ground", palette.GROUNDS)
def test_every_piece_and_highlight_stands_out_at_3_to_1(what, fill, ground):
    ratio = palette.mark_contrast(fill, ground)
    assert ratio >= palette.GRAPHIC_MIN, f"{what}: {fill} on {ground} is {ratio:.2f}:1"


def test_a_mark_without_an_outline_on_a_like_ground_fails_the_check():
    assert palette.mark_contrast(palette.HIGHLIGHT, palette.LAND_TONES[0], edge=palette.HIGHLIGHT) < 3


@pytest.mark.parametrize("player", [0, 1])
def test_aspens_tokens_stand_out_on_their_own_tinted_hexes_and_their_numbers_read(player):
    token, tint, number = ASPENS_COLOURS[player], ASPENS_TINTS[player], ASPENS_TOKEN_INK[player]
    assert palette.mark_contrast(token, tint) >= palette.GRAPHIC_MIN
    assert palette.contrast_ratio(token, tint) >= palette.GRAPHIC_MIN or palette.contrast_ratio(palette.EDGE, tint) >= 4.5
    assert palette.contrast_ratio(number, token) >= palette.TEXT_MIN


@pytest.mark.parametrize("player", range(4))
def test_bosk_numbers_read_on_every_players_tree(player):
    assert palette.contrast_ratio(BOSK_INK[player], BOSK_COLOURS[player]) >= palette.TEXT_MIN


def test_the_player_colours_stay_the_okabe_ito_hues_and_apart_from_each_other():
    colours = [palette.ORANGE, palette.SKY_BLUE, palette.BLUISH_GREEN, palette.YELLOW, palette.BLUE,
               palette.VERMILLION, palette.REDDISH_PURPLE]
    assert len(set(colours)) == len(colours)
    r, g, b = palette.hex_to_rgb(palette.BLUE)
    assert b > g > r, "the darkened blue is still a blue"
