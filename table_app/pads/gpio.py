"""Seat pads on the Pi's own GPIO, through gpiozero: a Button a seat, and an LED or a ring.

Two tables wire to the Pi's pins. The cheapest has one PWMLED a seat: one LED cannot show a
map, so it uses the counting grammar (N short presses choose seat N, a hold confirms) and
blinks the count back. With a `[rings]` table in the pin map each seat has a WS2812 ring on
SPI through two decoders (see pi_rings.py): the same pictures as behind the pad controller,
and its cursor grammar. Pins come from `hardware/pins.toml` (or `hardware/pins-rings.toml`,
named by `pads.pins`); a bad map is refused before anything starts. gpiozero's pin factory
is injected (`pin_factory=`), or chosen by its GPIOZERO_PIN_FACTORY variable; tests use its
MockFactory, and the rings' SPI its recording twin (`spi=`, or TABLE_APP_SPI=mock).
"""

from __future__ import annotations

import os
import threading
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from firmware_bridge import ringdraw as rd

from ..clock import Clock
from .base import PadBackend, PadError, Sink
from .events import PadHeld
from .grammar import COUNT, RING
from .pi_rings import PIXELS, RingWiring, RingWriter, open_spi, select_value
from .rings import Picture, led_level

#: BCM pins a seat may use: the 28 GPIOs less those the Pi keeps for itself.
RESERVED = {0: "the HAT ID EEPROM (ID_SD)", 1: "the HAT ID EEPROM (ID_SC)",
            14: "the serial console (TXD)", 15: "the serial console (RXD)"}
#: pins with a pull-up resistor on the Pi's board (1.8 kOhm to 3.3 V, for I2C): fine for a
#: button (it pulls up anyway), wrong for an LED, which glows through it when it should be dark
BOARD_PULL_UPS = {2: "SDA", 3: "SCL"}
DEFAULT_PINS = Path(__file__).resolve().parents[2] / "hardware" / "pins.toml"


#: SPI0's pins, taken by the kernel's SPI driver when the rings are on (dtparam=spi=on)
SPI0 = {7: "SPI0 (CE1)", 8: "SPI0 (CE0)", 9: "SPI0 (MISO)", 10: "SPI0 (MOSI, the rings' data)",
        11: "SPI0 (SCLK)"}


@dataclass(frozen=True)
class PinMap:
    """Which pins each seat uses: a button and an LED each, or a button each and the rings
    on SPI (`rings`, see pi_rings.py)."""

    buttons: dict[int, int]
    leds: dict[int, int]
    bounce_time: float | None
    hold_time: float
    rings: RingWiring | None = None


def _rings(where: str, raw: object) -> RingWiring:
    if not isinstance(raw, dict):
        raise PadError(f"{where}: [rings] must be a table")
    unknown = set(raw) - {"spi_device", "select", "budget_ma"}
    if unknown:
        raise PadError(f"{where}: [rings] does not know {', '.join(sorted(unknown))} "
                       f"(it takes spi_device, select, budget_ma)")
    device = raw.get("spi_device", 0)
    if device not in (0, 1) or isinstance(device, bool):
        raise PadError(f"{where}: rings spi_device must be 0 or 1 (/dev/spidev0.0 or 0.1)")
    select = raw.get("select", list(RingWiring.select))
    if (not isinstance(select, list) or len(select) != 4
            or not all(isinstance(p, int) and not isinstance(p, bool) for p in select)):
        raise PadError(f"{where}: rings select must be four GPIO numbers (the decoders' "
                       f"A0 to A3)")
    budget = raw.get("budget_ma", RingWiring.budget_ma)
    if not isinstance(budget, int) or isinstance(budget, bool) or not 100 <= budget <= 10000:
        raise PadError(f"{where}: rings budget_ma must be milliamps, 100 to 10000")
    return RingWiring(device=device, select=tuple(select), budget_ma=budget)


def load_pins(path: str | Path | None = None, seats: int | None = None,
              text: str | None = None) -> PinMap:
    """Read and check a pin map; every problem is a PadError that names the entry."""
    where = str(path or os.environ.get("TABLE_APP_PINS") or DEFAULT_PINS)
    try:
        raw = tomllib.loads(text if text is not None else Path(where).read_text("utf-8"))
    except OSError as exc:
        raise PadError(f"{where}: cannot read the pin map: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise PadError(f"{where}: not valid TOML: {exc}") from None
    except RecursionError:             # brackets nested thousands deep
        raise PadError(f"{where}: not valid TOML: nested too deep") from None
    table = raw.get("seats")
    if not isinstance(table, dict) or not table:
        raise PadError(f"{where}: no [seats] table")
    rings = _rings(where, raw["rings"]) if "rings" in raw else None
    reserved = {**RESERVED, **SPI0} if rings else RESERVED
    parts = ("button",) if rings else ("button", "led")
    buttons: dict[int, int] = {}
    leds: dict[int, int] = {}
    used: dict[int, str] = {}

    def take(pin: object, what: str) -> int:
        if not isinstance(pin, int) or isinstance(pin, bool) or not 0 <= pin <= 27:
            raise PadError(f"{where}: {what}: '{pin}' is not a GPIO (0-27)")
        if pin in reserved:
            raise PadError(f"{where}: {what}: GPIO {pin} is reserved for {reserved[pin]}")
        if pin in used:
            raise PadError(f"{where}: GPIO {pin} is used twice: {used[pin]} and {what}")
        used[pin] = what
        return pin

    if rings:
        for k, pin in enumerate(rings.select):
            take(pin, f"rings select A{k}")
    for key, entry in table.items():
        try:
            seat = int(key)
        except ValueError:
            raise PadError(f"{where}: seat '{key}' is not a number") from None
        if not isinstance(entry, dict) or set(entry) != set(parts):
            raise PadError(f"{where}: seat {seat} needs exactly "
                           + (" and ".join(f"'{p}'" for p in parts))
                           + (" (its ring is the decoders' output of the same number)"
                              if rings else ""))
        if not rings and entry["led"] in BOARD_PULL_UPS:
            pin = entry["led"]
            raise PadError(f"{where}: seat {seat} led: GPIO {pin} ({BOARD_PULL_UPS[pin]}) "
                           f"has a pull-up on the Pi's board, so its LED would glow: "
                           f"put a button there, the LED on another pin")
        buttons[seat] = take(entry["button"], f"seat {seat} button")
        if not rings:
            leds[seat] = take(entry["led"], f"seat {seat} led")
    expected = list(range(1, len(buttons) + 1))
    if sorted(buttons) != expected:
        raise PadError(f"{where}: seats must be numbered 1 to {len(buttons)}")
    if rings and len(buttons) > PIXELS:
        raise PadError(f"{where}: the Pi's pins drive up to {PIXELS} rings, not {len(buttons)}")
    if seats is not None and len(buttons) != seats:
        raise PadError(f"{where}: the pin map has {len(buttons)} seats, the game has {seats}")
    bounce = raw.get("bounce_time", 0.02)
    hold = raw.get("hold_time", 0.7)
    if not isinstance(hold, int | float) or hold <= 0:
        raise PadError(f"{where}: hold_time must be a positive number of seconds")
    if bounce is not None and (not isinstance(bounce, int | float) or bounce < 0):
        raise PadError(f"{where}: bounce_time must be seconds (or absent)")
    return PinMap(buttons, leds, None if bounce is None else float(bounce), float(hold), rings)


class GpioPads(PadBackend):
    """Buttons on gpiozero, and a single LED a seat or (with [rings] in the pin map) a ring a
    seat on SPI."""

    name = "gpio"

    def __init__(self, seats: int, sink: Sink, clock: Clock | None = None,
                 pins: PinMap | None = None, pin_factory: Any = None,
                 frame: float = 0.02, cap: float = 1.0, spi: Any = None) -> None:
        super().__init__(seats, sink, clock)
        self.pins = pins or load_pins(seats=seats)
        if len(self.pins.buttons) != seats:
            raise PadError(f"the pin map has {len(self.pins.buttons)} seats, the game has {seats}")
        #: rings show the map and a cursor; one LED can only count
        self.grammar_mode = RING if self.pins.rings else COUNT
        self.factory = pin_factory
        self.frame = frame
        self.light_cap = cap
        self.buttons: dict[int, Any] = {}
        self.leds: dict[int, Any] = {}
        self.select: list[Any] = []
        self.spi = spi                    # an SPI device to use (tests); else opened at start
        self.rings: RingWriter | None = None
        self._stop = threading.Event()
        self._animator: threading.Thread | None = None

    def start(self) -> None:
        from gpiozero import PWMLED, Button, DigitalOutputDevice
        try:
            for seat in range(1, self.seats + 1):
                b = Button(self.pins.buttons[seat], pull_up=True,
                           bounce_time=self.pins.bounce_time, hold_time=self.pins.hold_time,
                           pin_factory=self.factory)
                # the callbacks only stamp and queue: never a call into the rules
                b.when_pressed = lambda _d=None, s=seat: self._edge(s, True)
                b.when_released = lambda _d=None, s=seat: self._edge(s, False)
                b.when_held = lambda _d=None, s=seat: self.sink(PadHeld(s, self.clock.now()))
                self.buttons[seat] = b
                if not self.pins.rings:
                    self.leds[seat] = PWMLED(self.pins.leds[seat], pin_factory=self.factory)
            if self.pins.rings:
                self.select = [DigitalOutputDevice(p, pin_factory=self.factory)
                               for p in self.pins.rings.select]
        except Exception as exc:            # gpiozero raises many kinds; say which pin
            self.close()
            raise PadError(f"GPIO: {exc}") from exc
        if self.pins.rings:
            self._start_rings(self.pins.rings)
            return
        self._animator = threading.Thread(target=self._animate, name="pad-leds", daemon=True)
        self._animator.start()

    def _start_rings(self, wiring: RingWiring) -> None:
        try:
            spi = open_spi(wiring, self.select_levels, self.spi)
        except OSError as exc:
            self.close()
            raise PadError(str(exc)) from exc
        self.spi = spi
        self.budget_ma = wiring.budget_ma       # the host's view of a ring dims as it does
        self.rings = RingWriter(
            self.seats, spi, self._select, self._picture_bytes,
            lambda: rd.cap_byte(self.light_cap),
            lambda seat: self.ring_order[seat - 1] if self.ring_order else seat,
            lambda seat: self.rotation.get(seat, 0), wiring.budget_ma, self.frame,
            self.clock.now)
        self.rings.dark()                # what the rings latched at power-up: gone
        self.rings.start()

    def _select(self, ring: int) -> None:
        value = select_value(ring)
        for bit, pin in enumerate(self.select):
            pin.value = value >> bit & 1

    def select_levels(self) -> int:
        """The number the select pins give now (the ring SPI's bytes go to)."""
        return sum(int(pin.value) << bit for bit, pin in enumerate(self.select))

    def _picture_bytes(self, seat: int) -> tuple[bytes, float]:
        return self.encode(self.pictures[seat]), self.age(seat)

    def _animate(self) -> None:
        # LEDs blink counts and countdowns: one small loop redraws them all
        while not self._stop.wait(self.frame):
            self.refresh()

    def refresh(self) -> None:
        if self.rings is not None:
            self.rings.draw()
            return
        now = self.clock.now()
        for seat, led in list(self.leds.items()):
            level = led_level(self.pictures[seat], self.age(seat, now), self.light_cap)
            if abs(led.value - level) > 1e-3:
                led.value = level

    def button_down(self, seat: int) -> bool:
        button = self.buttons.get(seat)
        return bool(button.is_pressed) if button is not None else False

    def _show(self, seat: int, picture: Picture) -> None:
        if self.rings is not None:
            self.rings.wake()
        elif seat in self.leds:
            self.leds[seat].value = led_level(picture, 0.0, self.light_cap)

    def _cap_changed(self) -> None:
        if self.rings is not None:
            self.rings.wake()

    def _layout_changed(self) -> None:
        if self.rings is not None:
            self.rings.wake()
        else:
            super()._layout_changed()

    def close(self) -> None:
        self._stop.set()
        if self._animator is not None:
            self._animator.join(timeout=1)
        if self.rings is not None:
            self.rings.close()
            try:
                self.rings.dark()        # no picture left lit on a table put away
            except OSError:
                pass
            self.rings = None
        if self.spi is not None:
            self.spi.close()
        for dev in [*self.buttons.values(), *self.leds.values(), *self.select]:
            dev.close()
        self.buttons.clear()
        self.leds.clear()
        self.select.clear()
