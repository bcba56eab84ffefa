"""What pads say: raw edges from a backend, and what the press grammar makes of them."""

from __future__ import annotations

from dataclasses import dataclass

# -- raw, from a backend (put on the app's queue by the driver thread) -----------------------


@dataclass(frozen=True, slots=True)
class PadEdge:
    """A button went down (`pressed`) or up, at monotonic time `t`. May bounce."""

    seat: int
    pressed: bool
    t: float


@dataclass(frozen=True, slots=True)
class PadHeld:
    """The backend's own hold detector fired (gpiozero's when_held)."""

    seat: int
    t: float


@dataclass(frozen=True, slots=True)
class PadLink:
    """A backend's link to its pads changed: `up` False is a fault (seat 0: every pad)."""

    seat: int
    up: bool
    reason: str
    t: float


@dataclass(frozen=True, slots=True)
class PadLevel:
    """What a button is now, read from the backend (on start, after a restart or a
    reconnect): not a press or a release by a player, so never a tap or a hold."""

    seat: int
    pressed: bool
    t: float


RawPadEvent = PadEdge | PadHeld | PadLink | PadLevel

# -- what the grammar makes of them (in the app's loop, never in a driver thread) ------------


@dataclass(frozen=True, slots=True)
class Pressed:
    """A debounced press began."""

    seat: int
    t: float


@dataclass(frozen=True, slots=True)
class Released:
    """A debounced press ended after `duration` seconds."""

    seat: int
    t: float
    duration: float


@dataclass(frozen=True, slots=True)
class Moved:
    """A short press moved the seat's cursor to `cursor` (None: on "nobody")."""

    seat: int
    cursor: int | None
    t: float


@dataclass(frozen=True, slots=True)
class Confirmed:
    """A hold confirmed `choice` (None: held with no cursor, i.e. nothing chosen)."""

    seat: int
    choice: int | None
    t: float


@dataclass(frozen=True, slots=True)
class OutOfTurn:
    """A press from a seat that is not asked anything (at night: movement, for the host)."""

    seat: int
    t: float


@dataclass(frozen=True, slots=True)
class PadFault:
    """A pad is faulty (`stuck`, `disconnected`, ...); seat 0 means every pad."""

    seat: int
    reason: str
    t: float


@dataclass(frozen=True, slots=True)
class PadRecovered:
    """A fault is over."""

    seat: int
    reason: str
    t: float


PadEvent = Pressed | Released | Moved | Confirmed | OutOfTurn | PadFault | PadRecovered
