"""The strategy lab views: the tournament widget and its charts (see treegames.lab for the maths)."""
