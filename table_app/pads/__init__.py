"""Seat pads: one button and one ring a seat, on GPIO, a pad controller, or a simulator."""

from .base import BACKENDS, FakePads, PadBackend, PadError, PadPanel, make_pads
from .events import (
    Confirmed,
    Moved,
    OutOfTurn,
    PadEdge,
    PadEvent,
    PadFault,
    PadHeld,
    PadLink,
    PadRecovered,
    Pressed,
    RawPadEvent,
    Released,
)
from .grammar import COUNT, RING, GrammarConfig, PressGrammar

__all__ = [
    "BACKENDS", "COUNT", "Confirmed", "FakePads", "GrammarConfig", "Moved", "OutOfTurn",
    "PadBackend", "PadEdge", "PadError", "PadEvent", "PadFault", "PadHeld", "PadLink",
    "PadPanel", "PadRecovered", "Pressed", "PressGrammar", "RING", "RawPadEvent", "Released",
    "make_pads",
]
