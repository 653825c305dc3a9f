"""treegames: engines and widgets for Aspens, Bosk and Mighty Trees."""

__version__ = "0.1.0"
