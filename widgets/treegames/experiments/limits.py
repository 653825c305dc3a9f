"""The numbers that bound a class experiment, in one place (documented in the package docstring)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Limits:
    """Bounds on what one class, student or request may use."""

    members_per_class: int = 200  # students (pseudonyms) in one class experiment
    open_classes: int = 50  # class experiments kept on one server at once
    retention_days: float = 14.0  # a class's data is deleted this long after its last change
    block_timeout: float = 120.0  # a tournament block not finished after this many seconds may go to another student
    longest_wait: float = 30.0  # the longest long-poll a client may ask for, in seconds
    trace_growth: float = 1.06  # the TV-against-n chart keeps a point each time n has grown 6%
