"""Save, open and share: a game as the engine's JSON (download link), a file opened through the engine's replay.

Opening never trusts the file: :func:`states_from_saved` makes the game from the
saved options through ``new_game`` and rebuilds the position with the engine's
``state_from_json`` (a replay through the rules).  Anything wrong raises the
engine's :class:`~treegames.core.SavedGameError`, and the dashboard keeps its
current game.
"""

from __future__ import annotations

import json
from urllib.parse import quote

from ..core import SavedGameError

MAX_SAVE_BYTES = 2_000_000
"""The largest saved-game file a page accepts (a whole game is a few tens of kilobytes)."""


def download_link(text: str, filename: str, label: str, mime: str = "application/json", icon: str = "save") -> str:
    """An HTML link that downloads ``text`` as ``filename`` (a data URI: no server round trip, no network)."""
    href = f"data:{mime};charset=utf-8,{quote(text)}"
    return (f"<a class='jupyter-button tg-icon tg-icon-{icon} treegames-download' download='{filename}' "
            f"href='{href}' style='display:inline-flex;align-items:center;text-decoration:none;"
            f"padding:0 12px;line-height:28px;height:28px;color:inherit'>{label}</a>")


def uploaded_text(files) -> str:
    """The text of the one uploaded file (FileUpload's value); SavedGameError if too big or not UTF-8."""
    entry = files[-1]
    content = entry["content"] if isinstance(entry, dict) else entry.content
    size = len(content)
    if size > MAX_SAVE_BYTES:
        raise SavedGameError(f"the file is {size} bytes; a saved game is at most {MAX_SAVE_BYTES} bytes")
    try:
        return bytes(content).decode("utf-8")
    except UnicodeDecodeError:
        raise SavedGameError("the file is not text (UTF-8): is it a treegames saved game?") from None


def saved_options(text: str) -> dict:
    """The options a saved game was made with ({} when the file does not say; the engine then explains)."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return {}
    options = data.get("options") if isinstance(data, dict) else None
    return options if isinstance(options, dict) and all(isinstance(k, str) for k in options) else {}


def states_from_saved(module, text: str) -> list:
    """Every state of a saved game, start to end, rebuilt by the engine; SavedGameError if anything is wrong."""
    try:
        game = module.new_game(**saved_options(text))
    except (TypeError, ValueError) as err:
        raise SavedGameError(f"field 'options': {err}") from None
    final = game.state_from_json(text)
    states = [game.new_initial_state()]
    for action in final.history:
        states.append(states[-1].apply(action))
    return states
