"""The table: the loop that runs a whole game from the pads, the clock and the host.

The table itself (`core.Table`) and its app (`app.TableApp`) are imported from their modules
when a game needs them: they import the engine, which the setup screen, shown first, does
not need."""

from .config import Host, TableConfig, Tick
from .journal import Journal

__all__ = ["Host", "Journal", "TableConfig", "Tick"]
