"""The store's own errors, shared by every service: each a ValueError with one sentence for a person."""

from __future__ import annotations

__all__ = ["StoreError", "SchemaTooNew", "StoreUnavailable"]


class StoreError(ValueError):
    """Something wrong with the store itself (schema, database)."""

    def to_json(self) -> dict:
        """The error as JSON: its class name and message."""
        return {"error": type(self).__name__, "message": str(self)}


class SchemaTooNew(StoreError):
    """The database was written by a newer treegames than this one: it is refused, never changed."""


class StoreUnavailable(StoreError):
    """The database is not answering (down, restarting) or stayed locked past the busy timeout; nothing was
    written, try again in a moment (the store reconnects by itself)."""
