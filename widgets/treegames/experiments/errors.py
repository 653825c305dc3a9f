"""The refusals of the class-experiment authority: each a ValueError subclass with one clear sentence."""

from __future__ import annotations

__all__ = [
    "ExperimentError",
    "BadSettings",
    "BadOutcome",
    "BadCount",
    "BatchTooLarge",
    "BatchConflict",
    "NoSuchRound",
    "RoundNotOpen",
    "BadMember",
    "NotTeacher",
    "ClassFull",
    "NotYourBlock",
]


class ExperimentError(ValueError):
    """Anything the experiment authority refuses; nothing was counted or changed."""


class BadSettings(ExperimentError):
    """An experiment the teacher asked for cannot be run (the message names the setting)."""


class BadOutcome(ExperimentError):
    """A contributed outcome is not in the experiment's domain (a face that does not exist...)."""


class BadCount(ExperimentError):
    """A contributed count is not a whole number of 0 or more."""


class BatchTooLarge(ExperimentError):
    """A batch holds more results than one batch may."""


class BatchConflict(ExperimentError):
    """A batch id was sent again with different results (a re-sent batch must be identical)."""


class NoSuchRound(ExperimentError):
    """No class experiment has this code (or its round was deleted)."""


class RoundNotOpen(ExperimentError):
    """The round is frozen or closed: it takes no more results."""


class BadMember(ExperimentError):
    """The student credential is unknown (join the experiment again with the class code)."""


class NotTeacher(ExperimentError):
    """A teacher-only action without the right teacher code."""


class ClassFull(ExperimentError):
    """The class experiment has as many students as it may hold."""


class NotYourBlock(ExperimentError):
    """A tournament game that is not in the block of seeds handed to this student."""
