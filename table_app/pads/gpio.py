"""Seat pads on the Pi's own GPIO, through gpiozero: one Button and one PWMLED a seat.

With one LED a seat cannot show a map, so this backend uses the counting grammar (N short
presses choose seat N, a hold confirms) and blinks the count back. Pins come from
`hardware/pins.toml`; a bad map is refused before anything starts. gpiozero's pin factory
is injected (`pin_factory=`), or chosen by its GPIOZERO_PIN_FACTORY variable; tests use its
MockFactory.
"""

from __future__ import annotations

import os
import threading
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..clock import Clock
from .base import PadBackend, PadError, Sink
from .events import PadHeld
from .grammar import COUNT
from .rings import Picture, led_level

#: BCM pins a seat may use: the 28 GPIOs less those the Pi keeps for itself.
RESERVED = {0: "the HAT ID EEPROM (ID_SD)", 1: "the HAT ID EEPROM (ID_SC)",
            14: "the serial console (TXD)", 15: "the serial console (RXD)"}
#: pins with a pull-up resistor on the Pi's board (1.8 kOhm to 3.3 V, for I2C): fine for a
#: button (it pulls up anyway), wrong for an LED, which glows through it when it should be dark
BOARD_PULL_UPS = {2: "SDA", 3: "SCL"}
DEFAULT_PINS = Path(__file__).resolve().parents[2] / "hardware" / "pins.toml"


@dataclass(frozen=True)
class PinMap:
    """Which pins each seat uses."""

    buttons: dict[int, int]
    leds: dict[int, int]
    bounce_time: float | None
    hold_time: float


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
    buttons: dict[int, int] = {}
    leds: dict[int, int] = {}
    used: dict[int, str] = {}
    for key, entry in table.items():
        try:
            seat = int(key)
        except ValueError:
            raise PadError(f"{where}: seat '{key}' is not a number") from None
        if not isinstance(entry, dict) or set(entry) != {"button", "led"}:
            raise PadError(f"{where}: seat {seat} needs exactly 'button' and 'led'")
        for what in ("button", "led"):
            pin = entry[what]
            if not isinstance(pin, int) or isinstance(pin, bool) or not 0 <= pin <= 27:
                raise PadError(f"{where}: seat {seat} {what}: '{pin}' is not a GPIO (0-27)")
            if pin in RESERVED:
                raise PadError(f"{where}: seat {seat} {what}: GPIO {pin} is reserved for "
                               f"{RESERVED[pin]}")
            if what == "led" and pin in BOARD_PULL_UPS:
                raise PadError(f"{where}: seat {seat} led: GPIO {pin} ({BOARD_PULL_UPS[pin]}) "
                               f"has a pull-up on the Pi's board, so its LED would glow: "
                               f"put a button there, the LED on another pin")
            if pin in used:
                raise PadError(f"{where}: GPIO {pin} is used twice: {used[pin]} and "
                               f"seat {seat} {what}")
            used[pin] = f"seat {seat} {what}"
        buttons[seat] = entry["button"]
        leds[seat] = entry["led"]
    expected = list(range(1, len(buttons) + 1))
    if sorted(buttons) != expected:
        raise PadError(f"{where}: seats must be numbered 1 to {len(buttons)}")
    if seats is not None and len(buttons) != seats:
        raise PadError(f"{where}: the pin map has {len(buttons)} seats, the game has {seats}")
    bounce = raw.get("bounce_time", 0.02)
    hold = raw.get("hold_time", 0.7)
    if not isinstance(hold, int | float) or hold <= 0:
        raise PadError(f"{where}: hold_time must be a positive number of seconds")
    if bounce is not None and (not isinstance(bounce, int | float) or bounce < 0):
        raise PadError(f"{where}: bounce_time must be seconds (or absent)")
    return PinMap(buttons, leds, None if bounce is None else float(bounce), float(hold))


class GpioPads(PadBackend):
    """Buttons and single LEDs on gpiozero."""

    name = "gpio"
    grammar_mode = COUNT

    def __init__(self, seats: int, sink: Sink, clock: Clock | None = None,
                 pins: PinMap | None = None, pin_factory: Any = None,
                 frame: float = 0.02, cap: float = 1.0) -> None:
        super().__init__(seats, sink, clock)
        self.pins = pins or load_pins(seats=seats)
        if len(self.pins.buttons) != seats:
            raise PadError(f"the pin map has {len(self.pins.buttons)} seats, the game has {seats}")
        self.factory = pin_factory
        self.frame = frame
        self.light_cap = cap
        self.buttons: dict[int, Any] = {}
        self.leds: dict[int, Any] = {}
        self._stop = threading.Event()
        self._animator: threading.Thread | None = None

    def start(self) -> None:
        from gpiozero import PWMLED, Button
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
                self.leds[seat] = PWMLED(self.pins.leds[seat], pin_factory=self.factory)
        except Exception as exc:            # gpiozero raises many kinds; say which pin
            self.close()
            raise PadError(f"GPIO: {exc}") from exc
        self._animator = threading.Thread(target=self._animate, name="pad-leds", daemon=True)
        self._animator.start()

    def _animate(self) -> None:
        # LEDs blink counts and countdowns: one small loop redraws them all
        while not self._stop.wait(self.frame):
            self.refresh()

    def refresh(self) -> None:
        now = self.clock.now()
        for seat, led in list(self.leds.items()):
            level = led_level(self.pictures[seat], self.age(seat, now), self.light_cap)
            if abs(led.value - level) > 1e-3:
                led.value = level

    def button_down(self, seat: int) -> bool:
        button = self.buttons.get(seat)
        return bool(button.is_pressed) if button is not None else False

    def _show(self, seat: int, picture: Picture) -> None:
        if seat in self.leds:
            self.leds[seat].value = led_level(picture, 0.0, self.light_cap)

    def close(self) -> None:
        self._stop.set()
        if self._animator is not None:
            self._animator.join(timeout=1)
        for dev in [*self.buttons.values(), *self.leds.values()]:
            dev.close()
        self.buttons.clear()
        self.leds.clear()
