"""The host's screen and the public view (pygame), as views of the table's state."""

from .model import HostView, Names, PublicState, Totals, host_view, public_state
from .render import Screen

__all__ = ["HostView", "Names", "PublicState", "Screen", "Totals", "host_view", "public_state"]
