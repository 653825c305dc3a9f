"""Bosk views: the park board as a pure Scene, the majority tables, the lesson, the walkthrough and play.

``scene`` computes pictures from a state (numpy only, no widgets); the other
modules wrap them in ipywidgets.  Every word shown comes from the engine
(``treegames.bosk``): ``explain()``, ``last_event``, ``describe()``,
``IllegalAction`` messages and the explained majorities of ``bosk.scoring``.
"""
