"""Seat pads: one button and one ring a seat, on GPIO, a pad controller, or a simulator."""

from .base import FakePads, PadBackend, PadError, PadPanel
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
from .factory import backend_kind, backends, make_pads, register
from .grammar import COUNT, RING, GrammarConfig, PressGrammar

__all__ = [
    "COUNT", "Confirmed", "FakePads", "GrammarConfig", "Moved", "OutOfTurn",
    "PadBackend", "PadEdge", "PadError", "PadEvent", "PadFault", "PadHeld", "PadLink",
    "PadPanel", "PadRecovered", "Pressed", "PressGrammar", "RING", "RawPadEvent", "Released",
    "backend_kind", "backends", "make_pads", "register",
]
