"""Aspens views on the kit: the hex board scene, the board explorer, Play, the walkthrough and the odds views.

* :mod:`.scene` -- hex geometry, hit-testing, the board and game pictures, the dice.
* :mod:`.board` -- :class:`~.board.BoardExplorer` (the board and its setups).
* :mod:`.play` -- :class:`~.play.AspensPlay`, the Play page on :class:`~treegames.ui.dashboard.GameDashboard`.
* :mod:`.walkthrough` -- the rulebook walkthrough and the cascade example.
* :mod:`.lesson`, :mod:`.odds_panel` -- charts and explorers of the Sun and Wind odds
  (the maths is :mod:`treegames.aspens.odds`).
"""
