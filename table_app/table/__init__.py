"""The table: the loop that runs a whole game from the pads, the clock and the host."""

from .app import TableApp
from .core import Host, Table, TableConfig, Tick
from .journal import Journal

__all__ = ["Host", "Journal", "Table", "TableApp", "TableConfig", "Tick"]
