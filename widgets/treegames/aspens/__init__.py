"""Aspens: a two-player hex game of growing forests (engine; no UI imports).

See :mod:`treegames.aspens.board` for the board and our interpretation of the
missing board diagrams.
"""

from .board import SETUPS, WATER_LAYOUTS, Board, Direction, Hex, cell_name, make_board, parse_cell

__all__ = ["SETUPS", "WATER_LAYOUTS", "Board", "Direction", "Hex", "cell_name", "make_board", "parse_cell"]
