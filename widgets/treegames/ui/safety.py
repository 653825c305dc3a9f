"""Nothing a visitor does may show them a traceback: every widget callback runs guarded.

:func:`guarded` wraps a callback so that any exception is logged on the server
(``logging``, logger ``treegames.ui``, with the full traceback) and the visitor
sees one short friendly sentence instead.  The kit connects every button,
observer, canvas click and key through :func:`on_click`, :func:`observe` and
:class:`~treegames.ui.canvas.SceneCanvas`, all guarded; :func:`unguarded_callbacks`
lets a test prove that no callback of a dashboard was left bare.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import math
from collections.abc import Callable, Iterable
from typing import Any

log = logging.getLogger("treegames.ui")

FRIENDLY = "Something went wrong with that, so nothing was changed. Please try again or start a new game."
"""What a visitor is told when a callback fails (the details go to the server log only)."""

MARK = "__treegames_guarded__"
"""Attribute set on every guarded callback."""


def running_loop() -> asyncio.AbstractEventLoop | None:
    """The asyncio loop running this code (a Jupyter kernel's, where a cell or callback runs), or None outside one."""
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


def guarded(fn: Callable | None = None, *, report: Callable[[str], Any] | None = None) -> Callable:
    """Wrap a widget callback: exceptions are logged server-side and reported as one friendly sentence.

    ``report`` receives the friendly text; without it, a method's ``self.report_failure``
    is used when the first argument has one, otherwise the failure is only logged.
    """
    if fn is None:
        return functools.partial(guarded, report=report)
    if getattr(fn, MARK, False):
        return fn

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except Exception:  # noqa: BLE001 - this is the one place that must catch everything
            log.exception("widget callback %s failed", getattr(fn, "__qualname__", fn))
            _report(report, args)
            return None

    setattr(wrapper, MARK, True)
    return wrapper


def _report(report: Callable[[str], Any] | None, args: tuple) -> None:
    """Show the friendly sentence wherever the callback's owner shows messages (never raising)."""
    target = report
    if target is None and args:
        target = getattr(args[0], "report_failure", None)
    if target is None:
        return
    try:
        target(FRIENDLY)
    except Exception:  # noqa: BLE001 - a broken message area must not raise either
        log.exception("could not show the failure message")


def is_guarded(fn: Callable) -> bool:
    """True if ``fn`` was wrapped by :func:`guarded`."""
    return bool(getattr(fn, MARK, False)) or bool(getattr(getattr(fn, "func", None), MARK, False))


def on_click(button, fn: Callable[[], Any], report: Callable[[str], Any] | None = None) -> None:
    """Call ``fn()`` (guarded) when ``button`` is clicked."""
    button.on_click(guarded(lambda _button: fn(), report=report))


def observe(widget, fn: Callable[[Any], Any], names: str = "value",
            report: Callable[[str], Any] | None = None) -> None:
    """Call ``fn(new_value)`` (guarded) when a trait of ``widget`` changes."""
    widget.observe(guarded(lambda change: fn(change["new"]), report=report), names=names)


def finite_point(x: Any, y: Any) -> tuple[float, float] | None:
    """(x, y) as floats if both are finite numbers, else None (NaN, infinity or junk from a client)."""
    try:
        fx, fy = float(x), float(y)
    except (TypeError, ValueError, OverflowError):
        return None
    if not (math.isfinite(fx) and math.isfinite(fy)):
        return None
    return fx, fy


def _callbacks_of(widget) -> Iterable[tuple[str, Callable]]:
    """Every callback a visitor can trigger on one widget: clicks, trait observers, canvas events."""
    dispatcher = getattr(widget, "_click_handlers", None)
    for cb in getattr(dispatcher, "callbacks", []):
        yield "click", cb
    for trait, kinds in getattr(widget, "_trait_notifiers", {}).items():
        for observers in kinds.values():
            for cb in observers:
                owner = getattr(cb, "__self__", None)
                if owner is widget:  # ipywidgets' own plumbing (e.g. Layout/Style sync)
                    continue
                if getattr(cb, "__module__", "").startswith(("ipywidgets", "traitlets", "ipycanvas")):
                    continue
                yield f"observe {trait}", cb
    from .canvas import event_callbacks  # canvas.py is the one module that knows ipycanvas internals

    yield from event_callbacks(widget)


def widget_tree(root) -> Iterable:
    """Every widget under ``root``: its children, theirs, and the widgets a view keeps outside its children."""
    seen, todo = set(), [root]
    while todo:
        widget = todo.pop()
        if id(widget) in seen:
            continue
        seen.add(id(widget))
        yield widget
        todo.extend(getattr(widget, "children", ()) or ())
        todo.extend(getattr(widget, "kit_widgets", ()))  # widgets a view keeps outside its children


def unguarded_callbacks(root) -> list[str]:
    """Descriptions of every callback under ``root`` (a widget tree) that is not guarded; empty is good."""
    return [f"{type(widget).__name__} {kind}: {getattr(cb, '__qualname__', cb)}"
            for widget in widget_tree(root) for kind, cb in _callbacks_of(widget) if not is_guarded(cb)]


def resend_state(root) -> int:
    """Send the whole state of every widget under ``root`` (and of its layout) again; how many were sent.

    For a page that connected late: Voila renders the widgets as they were when the notebook had run, and a
    change made before the page listened (an auto-run of the bots at load, a background thread) never reaches
    it, so the page would show an older moment until the next change.  Canvases are left out: their pictures
    are sent again by their own redraw on connect.
    """
    sent = 0
    for widget in widget_tree(root):
        if type(widget).__module__.startswith("ipycanvas"):
            continue
        for part in (widget, getattr(widget, "layout", None)):
            if part is not None and getattr(part, "comm", None) is not None:
                part.send_state()
                sent += 1
    return sent
