"""Views: the ipywidgets/ipycanvas widgets that wrap the engines -- the kit at the top, one sub-package per game.

The kit (shared by every game)
------------------------------
* :mod:`.scene` -- a picture as plain data (:class:`~.scene.Scene`), testable without a browser; ``to_svg()``.
* :mod:`.svg` -- a Scene written as SVG (printable boards, README pictures).
* :mod:`.canvas` -- a Scene sent to an ipycanvas canvas in one batched message; the only module that
  touches ipycanvas internals; NaN-safe clicks and keys (:class:`~.canvas.SceneCanvas`).
* :mod:`.dashboard` -- :class:`~.dashboard.GameDashboard`, the Play page every game builds on.
* :mod:`.timeline` -- undo and time travel as a list of states; the one "state changed" signal.
* :mod:`.forms` -- the New game form built from a game's option schema; seats (person or bot).
* :mod:`.saving` -- Download / Open through the engine's JSON and replay.
* :mod:`.keyboard` -- cursor movement between legal targets, shortcut keys.
* :mod:`.safety` -- ``guarded`` callbacks: no visitor ever sees a traceback.
* :mod:`.styles` -- offline icons, phone-sized layout (CSS); :mod:`.palette` -- colour-blind-safe colours;
  :mod:`.text` -- counted nouns and message boxes; :mod:`.panels` -- ``Collapsible`` (no Font Awesome);
  :mod:`.landing` -- the landing page's list of every notebook.
* :mod:`.access` -- playing without seeing the board: the move box, the engine's ``describe_board`` tables,
  one live announcement per moment, the skip link (see ``ACCESSIBILITY.md``).
* :mod:`.chart_numbers` -- every chart's text equivalent: the table of the numbers it draws (``Scene.numbers``),
  shown by ``SceneCanvas.numbers`` under the canvas and rewritten on every redraw.
* :mod:`.motion` -- *Less motion*: ticked by the page from ``prefers-reduced-motion``; slows timed steps.

One sub-package per game holds only that game's scenes and panels, with the same module names for the
same jobs: ``scene`` (its pictures), ``play`` (its Play page), ``walkthrough`` (the rules walkthrough) and
``lesson`` (its lesson page's explorers: Aspens' Sun die, Bosk's majorities, Mighty Trees' card odds),
plus what only that game needs (Aspens' ``board`` and ``odds_panel``, Mighty Trees' ``seat`` and ``tour``).
Views import engines; engines never import views.
"""
