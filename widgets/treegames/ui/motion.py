"""Less motion: the page tells the kernel when the visitor's system asks for reduced motion.

``prefers-reduced-motion`` lives in the browser, auto-play in the kernel.  :class:`MotionPreference` is a
labelled *Less motion* checkbox (an ordinary widget trait, synced to the kernel) and a tiny page script: once
the checkbox is drawn, the script ticks it when the system asks for reduced motion (and again whenever that
setting changes).  The visitor may tick or untick it by hand too.  While it is ticked, timed stepping (auto-play
and bots answering by themselves) waits at least :data:`REDUCED_STEP_SECONDS` between steps, whatever the speed
box says; the kit's CSS already switches transitions and animations off (``styles.py``).
"""

from __future__ import annotations

import ipywidgets as widgets
from IPython.display import Javascript

REDUCED_STEP_SECONDS = 1.5
"""With less motion, each timed step waits at least this long (at most 2 steps in 3 seconds)."""

MOTION_CLASS = "treegames-motion"

SCRIPT = """
(function () {
  "use strict";
  var media = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)");
  if (!media) return;
  function apply() {
    document.querySelectorAll(".MOTION_CLASS input[type=checkbox]").forEach(function (box) {
      var wanted = String(media.matches);
      if (box.dataset.treegamesMotion === wanted) return;  /* set once per preference: the visitor may change it */
      box.dataset.treegamesMotion = wanted;
      if (box.checked !== media.matches) box.click();  /* the widget's own click: the kernel hears it */
    });
  }
  apply();
  var tries = 0, timer = setInterval(function () { apply(); if (++tries > 40) clearInterval(timer); }, 250);
  if (media.addEventListener) media.addEventListener("change", apply);
})();
""".replace("MOTION_CLASS", MOTION_CLASS)
"""Ticks every kit 'Less motion' checkbox on the page when the system prefers reduced motion."""


class MotionPreference(widgets.HBox):
    """A 'Less motion' checkbox that the page ticks from prefers-reduced-motion; timed steps slow down while ticked."""

    def __init__(self):
        self.checkbox = widgets.Checkbox(value=False, description="Less motion", indent=False,
                                         tooltip=f"Auto-play and bots' answers wait at least {REDUCED_STEP_SECONDS:g} s "
                                                 "a step (ticked by itself when your system asks for reduced motion)",
                                         layout=widgets.Layout(width="auto"))
        self.checkbox.add_class(MOTION_CLASS)
        self.script = widgets.Output(layout=widgets.Layout(height="0px", width="0px", overflow="hidden", margin="0"))
        self.script.append_display_data(Javascript(SCRIPT))
        super().__init__([self.checkbox, self.script])
        self.add_class("treegames-motion-box")

    @property
    def reduced(self) -> bool:
        """True while less motion is asked for (by the system or by hand)."""
        return bool(self.checkbox.value)

    def step_seconds(self, speed: float) -> float:
        """Seconds between timed steps at ``speed`` steps per second, slowed while less motion is asked for."""
        seconds = 1.0 / max(1.0, float(speed))
        return max(seconds, REDUCED_STEP_SECONDS) if self.reduced else seconds
