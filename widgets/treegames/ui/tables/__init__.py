"""Play with others: the kit's panel for shared tables, the live table session and the teacher's overview.

The game lives in the shared-table authority (``treegames.tables``, see its module docstring); a page's
kernel is only its client. :class:`~.panel.TablePanel` is the "Play with others" tab of every Play page
(added by the kit's dashboard, so all games get it); :class:`~.shared.SharedTable` is the dashboard's
``session`` while it shows a shared table: moves go to the authority, a background long-poll redraws
the page when another seat moves, Back/Forward browse the table's history locally, Undo is not offered.
"""

from .link import table_client
from .panel import TablePanel
from .shared import SharedTable

__all__ = ["SharedTable", "TablePanel", "table_client"]
