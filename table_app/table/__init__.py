"""The table: the loop that runs a whole game from the pads, the clock and the host."""

from .app import TableApp
from .config import Host, TableConfig, Tick
from .core import Table
from .journal import Journal

__all__ = ["Host", "Journal", "Table", "TableApp", "TableConfig", "Tick"]
