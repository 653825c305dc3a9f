"""Views: the ipywidgets/ipycanvas widgets that wrap the engines.

Every picture is computed first as a :class:`~treegames.ui.scene.Scene` (pure
data, testable without a browser) and then sent to a canvas in one batched
message by :func:`~treegames.ui.canvas.draw_scene`.  Views import engines;
engines never import views.
"""
