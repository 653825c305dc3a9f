"""The kit's page style: offline button icons, canvases that fit a phone, panels that stack, labels never cut.

Button icons are small inline SVG shapes (data URIs used as CSS masks), so the
pages need no icon font and no network: ipywidgets' ``icon=`` (Font Awesome from a
CDN) is never used.  :func:`stylesheet` is a widget holding one ``<style>``
element; every kit dashboard includes it (a page may hold several copies, which
is harmless).  Give a button an icon with :func:`icon_button`.  A dashboard's full-width widgets (an inline
``width: 100%``) give their margins back, so at 200% zoom no panel scrolls sideways by those few pixels.
"""

from __future__ import annotations

from functools import cache
from urllib.parse import quote

import ipywidgets as widgets

from .chart_numbers import CHART_CSS

ICONS: dict[str, str] = {
    "step": "M3 2v12l8-6zM12 2h2v12h-2z",
    "back": "M13 2v12L5 8zM2 2h2v12H2z",
    "forward": "M3 2v12l8-6zM12 2h2v12h-2z",
    "first": "M14 2v12L8 8zM8 2v12L2 8z",
    "down": "M2 4h12L8 12z",
    "last": "M2 2v12l6-6zM8 2v12l6-6z",
    "undo": "M6 3L1 7.5 6 12V9c4 0 6.5 1 8 4-.5-4.5-3-8-8-8.5z",
    "end-turn": "M2 8.5l1.6-1.6L6.5 9.8 12.4 3.9 14 5.5 6.5 13z",
    "play": "M4 2v12l10-6z",
    "pause": "M3 2h4v12H3zM9 2h4v12H9z",
    "new": "M8 2a6 6 0 1 0 6 6h-2a4 4 0 1 1-1.2-2.8L8.5 7.5H14V2l-1.8 1.8A6 6 0 0 0 8 2z",
    "save": "M7 1h2v7l2.5-2.5L13 7l-5 5-5-5 1.5-1.5L7 8zM2 13h12v2H2z",
    "open": "M7 12h2V5l2.5 2.5L13 6 8 1 3 6l1.5 1.5L7 5zM2 13h12v2H2z",
    "picture": "M1 3h14v10H1zm2 2v6h10V5zm1 5 2.5-3 2 2 1.5-1.5L12 10z",
    "roll": "M2 2h12v12H2zm3 2a1 1 0 1 0 0 2 1 1 0 0 0 0-2zm6 0a1 1 0 1 0 0 2 1 1 0 0 0 0-2zM8 7a1 1 0 1 0 0 2 1 1 0 0 0 0-2zm-3 3a1 1 0 1 0 0 2 1 1 0 0 0 0-2zm6 0a1 1 0 1 0 0 2 1 1 0 0 0 0-2z",
}
"""Icon name -> SVG path data on a 16 x 16 grid."""


def icon_uri(name: str) -> str:
    """A data URI holding the icon's SVG (no network needed)."""
    svg = f"<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'><path d='{ICONS[name]}'/></svg>"
    return "data:image/svg+xml," + quote(svg)


def _icon_rules() -> str:
    """One CSS rule per icon, drawing it in the button's text colour."""
    rules = [".tg-icon::before{content:'';display:inline-block;width:13px;height:13px;margin-right:5px;"
             "vertical-align:-2px;background-color:currentColor;-webkit-mask:var(--tg-icon) center/contain "
             "no-repeat;mask:var(--tg-icon) center/contain no-repeat}"]
    rules += [f'.tg-icon-{name}{{--tg-icon:url("{icon_uri(name)}")}}' for name in ICONS]
    return "\n".join(rules)


LAYOUT_CSS = """
.treegames-canvas{width:auto!important;height:auto!important;max-width:100%!important;min-width:0!important;
  align-self:flex-start!important;flex:0 0 auto!important}
@media (min-width:700px){.treegames-board-canvas{max-height:calc(100vh - 215px)!important}}
.treegames-row{display:flex;flex-flow:row wrap!important;align-items:flex-start;gap:8px 14px;max-width:100%}
.treegames-column{flex:0 1 auto!important;min-width:0!important;max-width:100%!important}
.treegames-side{flex:1 1 330px!important;min-width:0!important;max-width:580px!important}
.treegames-coach{border-left:3px solid #D0D0D0;padding-left:6px;margin:2px 0}
.treegames-buttons{display:flex;flex-flow:row wrap!important;gap:4px;max-width:100%}
.treegames-buttons .jupyter-button,.treegames-buttons .widget-toggle-button{width:auto!important;
  min-width:max-content!important;margin:0!important;padding:0 10px!important;overflow:visible!important}
.treegames-wrap{flex-flow:row wrap!important;max-width:100%}
.treegames-wrap>.jupyter-button{width:auto!important;flex:0 0 auto!important;padding:0 10px!important}
.treegames-wrap .widget-dropdown,.treegames-wrap .widget-text{max-width:100%}
.treegames-dashboard{max-width:100%;min-width:0}
.treegames-distribution-panel,.treegames-gain-simulator,.treegames-forest-explorer,.treegames-wind-explorer,
.treegames-height-explorer,.treegames-answer,.treegames-collapsible{max-width:100%!important;min-width:0!important}
.treegames-forest-explorer .widget-hbox,.treegames-wind-explorer .widget-hbox{flex-wrap:wrap;max-width:100%}
.treegames-dashboard .widget-html-content{overflow-wrap:anywhere}
.treegames-sr-only{position:absolute!important;width:1px!important;height:1px!important;overflow:hidden!important;
  clip:rect(0 0 0 0)!important;white-space:nowrap!important}
.treegames-message{min-height:24px}
.treegames-dashboard .widget-tab,.treegames-dashboard .lm-TabBar{max-width:100%}
.treegames-dashboard .widget-select select{max-width:100%}
.treegames-skip{position:absolute;left:-10000px;top:0;z-index:1000;background:#FFFFFF;color:#005A8C;padding:6px 10px;
  border:2px solid #005A8C;font-weight:bold}
.treegames-skip:focus{left:8px}
.treegames-board-anchor{margin:2px 0!important;font-size:13px!important}
.treegames-board-anchor:focus{outline:3px solid #005A8C}
.treegames-board-words{overflow-x:auto}
.treegames-board-table{border-collapse:collapse;font-size:12px;margin:4px 0 8px}
.treegames-board-table caption{text-align:left;font-weight:bold;padding:2px 0}
.treegames-board-table th,.treegames-board-table td{border:1px solid #BBBBBB;padding:2px 4px;vertical-align:top}
.treegames-board-table th{background:#F4F7FB}
.treegames-move-box input{min-width:0}
.treegames-label-sr-only .widget-label{position:absolute!important;width:1px!important;height:1px!important;
  overflow:hidden!important;clip:rect(0 0 0 0)!important;white-space:nowrap!important}
.jupyter-widgets .lm-TabBar-tab,.jupyter-widgets .lm-TabBar-tab .lm-TabBar-tabLabel{color:#333333!important}
.jupyter-widgets .lm-TabBar-tab.lm-mod-current .lm-TabBar-tabLabel{color:#000000!important}
.jp-RenderedHTMLCommon a,.jp-RenderedHTMLCommon a:link,.jp-RenderedHTMLCommon a:visited,.widget-html-content a{text-decoration:underline!important}
.jupyter-button.mod-info,.jupyter-button.mod-primary{background-color:#005A8C!important;color:#FFFFFF!important}
.jupyter-button.mod-success{background-color:#1E6B2E!important;color:#FFFFFF!important}
.jupyter-button.mod-warning{background-color:#8A5300!important;color:#FFFFFF!important}
.jupyter-button.mod-danger{background-color:#B03A00!important;color:#FFFFFF!important}
.jupyter-button.treegames-hint-off{background-color:#EEEEEE!important;color:#4A4A4A!important;
  border:1px dashed #6B6B6B!important;cursor:not-allowed}
:focus-visible{outline:3px solid #005A8C!important;outline-offset:2px!important}
canvas:focus{outline:3px solid #005A8C!important;outline-offset:2px!important}
.jupyter-widgets .jupyter-button:focus-visible,.jupyter-widgets input:focus-visible,.jupyter-widgets select:focus-visible,
.jupyter-widgets .lm-TabBar-tab:focus-visible{outline:3px solid #005A8C!important;outline-offset:1px!important}
@media (prefers-reduced-motion:reduce){*,*::before,*::after{animation-duration:0.01ms!important;
  animation-iteration-count:1!important;transition-duration:0.01ms!important;scroll-behavior:auto!important}}
.jp-OutputArea-output .widget-html,.jp-OutputArea-output .widget-html-content{max-width:100%;min-width:0}
.treegames-dashboard .jupyter-widgets:is([style^="width: 100%"],[style*="; width: 100%"]){
  width:calc(100% - 2 * var(--jp-widgets-margin, 2px))!important}
@media (max-width:760px){.widget-html-content td,.widget-html-content th{white-space:normal!important}}
@media (max-width:600px){
  .treegames-side{flex-basis:100%!important;max-width:100%!important}
  .treegames-dashboard .widget-inline-hbox .widget-label{min-width:0!important;width:auto!important}
  .treegames-dashboard .widget-hslider{max-width:100%!important}
  .treegames-dashboard .lm-TabBar,.treegames-dashboard .lm-TabBar-content{min-height:0!important;height:auto!important;
    max-height:none!important;overflow:visible!important}
  .treegames-dashboard .lm-TabBar-content{flex-wrap:wrap!important}
  .treegames-dashboard .lm-TabBar-tab{flex:0 0 auto!important;min-width:0!important;max-width:none!important}
}
"""


@cache
def css() -> str:
    """The whole style sheet text."""
    return LAYOUT_CSS + CHART_CSS + _icon_rules()


def stylesheet() -> widgets.HTML:
    """A widget holding the kit's <style> (add it to every dashboard)."""
    sheet = widgets.HTML(f"<style>{css()}</style>", layout=widgets.Layout(height="0px", margin="0"))
    sheet.add_class("treegames-style")
    return sheet


def icon_button(label: str, icon: str, tooltip: str = "", **kwargs) -> widgets.Button:
    """A button with an offline icon before its label."""
    button = widgets.Button(description=label, tooltip=tooltip or label, **kwargs)
    button.add_class("tg-icon")
    button.add_class(f"tg-icon-{icon}")
    return button


def icon_toggle(label: str, icon: str, tooltip: str = "", **kwargs) -> widgets.ToggleButton:
    """A toggle button with an offline icon before its label."""
    button = widgets.ToggleButton(description=label, tooltip=tooltip or label, **kwargs)
    button.add_class("tg-icon")
    button.add_class(f"tg-icon-{icon}")
    return button


def set_icon(button, icon: str) -> None:
    """Swap a button's icon (e.g. play -> pause)."""
    for name in ICONS:
        button.remove_class(f"tg-icon-{name}")
    button.add_class(f"tg-icon-{icon}")
