"""Which pads a table has: the backends by name, and the one the machine asks for.

gpiozero's pin factories are the model: a name (`TABLE_APP_PADS`, the `--pads` option, the
settings' `pads.backend`) picks a registered maker; the backend's module is imported only
when it is made, so a table without pygame or pyserial loses nothing it does not use, and
no backend imports this switch (base.py is the interface they share, and knows none of
them). A club's own backend registers itself with `register`.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from importlib import import_module
from typing import Any

from ..clock import Clock
from .base import FakePads, PadBackend, PadError, Sink
from .grammar import COUNT, RING

ENV = "TABLE_APP_PADS"
Maker = Callable[..., PadBackend]


def _fake(seats: int, sink: Sink, clock: Clock | None, **options: Any) -> PadBackend:
    mode = str(options.get("mode", RING))
    return FakePads(seats, sink, clock, mode=mode if mode in (RING, COUNT) else RING)


def _lazy(target: str) -> Maker:
    module, _, name = target.partition(":")

    def make(seats: int, sink: Sink, clock: Clock | None, **options: Any) -> PadBackend:
        cls = getattr(import_module(module, __package__), name)
        backend: PadBackend = cls(seats, sink, clock, **options)
        return backend
    return make


#: name -> maker(seats, sink, clock, **options)
REGISTRY: dict[str, Maker] = {
    "fake": _fake,
    "sim": _lazy(".sim:SimPads"),
    "gpio": _lazy(".gpio:GpioPads"),
    "serial": _lazy(".serial_pads:serial_table"),
}


def register(name: str, maker: Maker) -> None:
    """A backend of one's own, by name (it then works wherever a name is taken)."""
    REGISTRY[name] = maker


def backends() -> tuple[str, ...]:
    """The names a table may ask for (besides `auto`)."""
    return tuple(REGISTRY)


def backend_kind(explicit: str | None = None) -> str:
    """Which backend to use: the one asked for, the environment's, or what the machine has
    (`auto`: the pad controller if one is plugged in, else the simulator)."""
    kind = explicit or os.environ.get(ENV, "auto")
    if kind == "auto":
        from .serial_pads import find_pico
        return "serial" if find_pico() is not None else "sim"
    if kind not in REGISTRY:
        raise PadError(f"unknown pad backend '{kind}' (one of {', '.join(REGISTRY)}, auto)")
    return kind


def make_pads(kind: str | None, seats: int, sink: Sink, clock: Clock | None = None,
              **options: Any) -> PadBackend:
    """A pad backend by name (or by TABLE_APP_PADS, or found)."""
    return REGISTRY[backend_kind(kind)](seats, sink, clock, **options)
