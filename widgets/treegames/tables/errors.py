"""Every refusal of the shared-table authority: ``TableError`` (a ValueError) subclasses, one sentence each.

The HTTP layer sends an error as its class name, message and (for ``StaleVersion``) the current version;
``treegames.tables.client`` raises the same class again, so a kernel sees the same errors over the wire
as in process (:func:`error_from_json`).
"""

from __future__ import annotations

from ..service.errors import SchemaTooNew, StoreError, StoreUnavailable

__all__ = ["TableError", "StoreError", "SchemaTooNew", "StoreUnavailable", "ERRORS", "error_from_json"]


class TableError(ValueError):
    """A refused request to the shared-table authority; the message is one clear sentence for a student."""

    def to_json(self) -> dict:
        """The error as JSON: its class name and message (and extra fields some classes carry)."""
        return {"error": type(self).__name__, "message": str(self)}


class BadToken(TableError):
    """A seat token that is wrong, for another table, or held by another user."""


class NoSuchTable(TableError):
    """No table has this code or id."""


class StaleVersion(TableError):
    """The table moved on since the version the move was made on; ``current`` is its version now."""

    def __init__(self, message: str, current: int | None = None):
        super().__init__(message)
        self.current = current

    def to_json(self) -> dict:
        """The error as JSON, with the table's current version."""
        return {**super().to_json(), "current": self.current}


class NotYourTurn(TableError):
    """The token's seat is not the one to move (or the game has not started, or it is over)."""


class SeatTaken(TableError):
    """The asked seat is held by somebody else (or is a bot)."""


class TableFull(TableError):
    """Every person seat of the table is taken."""


class TableClosed(TableError):
    """The teacher closed the table."""


class IllegalMove(TableError):
    """The engine refused the action; the message is the engine's own."""


class RateLimited(TableError):
    """Too many creations or failed joins in a short time; try again later."""


class TooLarge(TableError):
    """A text field or request longer than its documented limit (``limits.py``)."""


class NotTeacher(TableError):
    """A teacher control called without the right teacher code (or creator token)."""


class BadRequest(TableError):
    """A malformed request: an unknown game, option, bot or field (an addition to the contract)."""


ERRORS: dict[str, type[ValueError]] = {
    cls.__name__: cls
    for cls in (TableError, BadToken, NoSuchTable, StaleVersion, NotYourTurn, SeatTaken, TableFull,
                TableClosed, IllegalMove, RateLimited, TooLarge, NotTeacher, BadRequest, StoreUnavailable)
}
"""Every error the wire may carry, by class name."""


def error_from_json(data: dict) -> ValueError:
    """The TableError (or StoreUnavailable) that ``to_json()`` wrote (an unknown name gives a plain TableError)."""
    cls = ERRORS.get(str(data.get("error")), TableError)
    message = str(data.get("message", "the table server refused the request"))
    if cls is StaleVersion:
        current = data.get("current")
        return StaleVersion(message, current if isinstance(current, int) else None)
    return cls(message)
