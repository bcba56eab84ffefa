"""Rings on the Pi's own pins: WS2812 over SPI, one data line a pad through a demultiplexer.

The Pi writes a ring as SPI bytes on MOSI (GPIO 10): three SPI bits a WS2812 bit at 2.4 MHz,
`100` for a 0 (417 ns high), `110` for a 1 (833 ns high), then 300 us low, which latches it.
Two 74HCT238 decoders, powered at 5 V, pass MOSI to the one ring whose number is on the four
select pins (the others stay low), so a pad's data line is its own, as behind the pad
controller: a dead or unplugged ring darkens only itself, and the HCT inputs take the Pi's
3.3 V and give the rings 5 V. The rings are written one after another (0.66 ms each) by one
thread; only a ring whose pixels changed is written, every ring about once a second anyway (a
pad plugged in shows its picture, not what it latched at power-up).

The pixels are the controller's: `firmware_bridge/ringdraw.py` draws them (turned by the
pad's rotation), its integer brightness table dims them under the night's cap and the
current budget, as the firmware does. Nothing here knows the game.

Why spidev (py-spidev, python3-spidev in Raspberry Pi OS): the kernel's SPI driver is the one
way to put an exact bit stream on a pin that works on a Pi 4 (the SoC's SPI0) and a Pi 5
(the RP1's) alike; rpi_ws281x drives the Pi 4's PWM and DMA and does not run on a Pi 5, and
Adafruit's NeoPixel_SPI brings the whole Blinka layer to send one strip a device, where this
table switches one SPI line between twelve. What a Pi needs in `/boot/firmware/config.txt`:
`dtparam=spi=on`; on a Pi 4 also `core_freq=500` and `core_freq_min=500` (its SPI clock is
divided from the core clock, which otherwise changes with the load and the bit times with
it). The Pi 5's SPI clock does not follow the load.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from firmware_bridge import ringdraw as rd

PIXELS = 12
SPI_HZ = 2_400_000
BIT0, BIT1 = 0b100, 0b110           # three SPI bits a WS2812 bit, its top bit first
RESET_BYTES = 90                    # 300 us low at 2.4 MHz: a WS2812B latches after 280 us
REFRESH = 1.0                       # seconds: a still ring is written again this often
ENV = "TABLE_APP_SPI"               # "mock": the recording SPI below (no /dev/spidev)


def _byte_code(v: int) -> bytes:
    bits = 0
    for i in range(7, -1, -1):
        bits = bits << 3 | (BIT1 if v >> i & 1 else BIT0)
    return bits.to_bytes(3, "big")


_CODES = [_byte_code(v) for v in range(256)]


def spi_bytes(grb: bytes | bytearray) -> bytes:
    """One ring's bytes (green, red, blue a pixel) as the SPI sends them, latch included."""
    return b"".join(_CODES[b] for b in grb) + bytes(RESET_BYTES)


@dataclass(frozen=True)
class RingWiring:
    """How the rings hang on the Pi: the SPI device, the demultiplexers' select pins (bit 0
    first), the current budget of all rings together."""

    bus: int = 0
    device: int = 0
    select: tuple[int, ...] = (23, 24, 25, 26)
    budget_ma: int = 1500
    hz: int = SPI_HZ


class Spi(Protocol):
    """What the rings need of an SPI device (py-spidev's SpiDev has it)."""

    max_speed_hz: int
    mode: int

    def open(self, bus: int, device: int) -> None: ...

    def writebytes2(self, data: bytes) -> None: ...

    def close(self) -> None: ...


class MockSpi:
    """An SPI device that keeps what it was sent, with the select pins' levels at that
    moment: shipped as real code (gpiozero's MockFactory is the model), so the rings run on
    any machine, and a test decodes the bytes back into pixels."""

    def __init__(self, levels: Callable[[], int] | None = None) -> None:
        self.max_speed_hz = 0
        self.mode = -1
        self.opened: tuple[int, int] | None = None
        self.levels = levels or (lambda: -1)
        self.sent: list[tuple[int, bytes]] = []       # (select pins' value, bytes)
        self.lock = threading.Lock()

    def open(self, bus: int, device: int) -> None:
        self.opened = (bus, device)

    def writebytes2(self, data: bytes) -> None:
        if self.opened is None:
            raise OSError("SPI device not open")
        with self.lock:
            self.sent.append((self.levels(), bytes(data)))

    def close(self) -> None:
        self.opened = None


def open_spi(wiring: RingWiring, levels: Callable[[], int] | None = None,
             spi: Any = None) -> Any:
    """`spi` (a device given), or the real /dev/spidevB.D (py-spidev), or the recording one
    when TABLE_APP_SPI=mock: opened, and set to the rings' clock."""
    if spi is not None:
        pass
    elif os.environ.get(ENV) == "mock":
        spi = MockSpi(levels)
    else:
        try:
            import spidev  # (no stubs: pyproject.toml's mypy takes it as untyped)
        except ImportError as exc:
            raise OSError("rings on the Pi's pins need py-spidev (apt install "
                          "python3-spidev, or pip install spidev)") from exc
        spi = spidev.SpiDev()
    try:
        spi.open(wiring.bus, wiring.device)
    except OSError as exc:          # (a missing device is FileNotFoundError)
        raise OSError(f"no SPI device /dev/spidev{wiring.bus}.{wiring.device} "
                      f"(is dtparam=spi=on in /boot/firmware/config.txt?): {exc}") from exc
    spi.mode = 0
    spi.max_speed_hz = wiring.hz
    return spi


class RingWriter:
    """Draws every seat's picture and writes the rings that changed, on its own thread.

    `picture(seat)` gives the seat's picture bytes and its age (seconds), `cap()` the night's
    brightness cap (0-255); `ring_of(seat)` is the ring (1-12) that shows the seat and
    `turn(seat)` its rotation. `select(n)` puts ring n's number on the select pins.
    """

    def __init__(self, seats: int, spi: Any, select: Callable[[int], None],
                 picture: Callable[[int], tuple[bytes, float]], cap: Callable[[], int],
                 ring_of: Callable[[int], int], turn: Callable[[int], int],
                 budget_ma: int, frame: float = 0.02,
                 now: Callable[[], float] | None = None) -> None:
        import time
        self.seats = seats
        self.spi = spi
        self.select = select
        self.picture = picture
        self.cap = cap
        self.ring_of = ring_of
        self.turn = turn
        self.budget_ma = budget_ma
        self.frame = frame
        self.now = now or time.monotonic
        self.written: dict[int, bytes] = {}           # ring -> the bytes it last got
        self.written_at: dict[int, float] = {}
        self.frames = 0
        self.error: str | None = None
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._lock = threading.Lock()                 # one frame at a time on the bus
        self._thread: threading.Thread | None = None
        self._lut = bytearray(256)
        self._lut_for = -1

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="pad-rings", daemon=True)
        self._thread.start()

    def wake(self) -> None:
        """A picture changed: draw now, not at the next frame."""
        self._wake.set()

    def _run(self) -> None:
        while not self._stop.is_set():
            woken = self._wake.wait(self.frame)
            self._wake.clear()
            if self._stop.is_set():
                break
            # a still table is drawn again only when a refresh is due: twelve rings drawn
            # fifty times a second for nothing would be most of this thread's work
            if not (woken or self._moving() or self._refresh_due()):
                continue
            try:
                self.draw()
            except OSError as exc:      # a bus error: said once a kind, tried next frame
                self.error = f"rings: {exc}"

    def _moving(self) -> bool:
        return any(rd.animated(self.picture(seat)[0]) for seat in range(1, self.seats + 1))

    def _refresh_due(self) -> bool:
        now = self.now()
        return any(now - self.written_at.get(ring, -REFRESH) >= REFRESH
                   for ring in range(1, PIXELS + 1))

    def frame_bytes(self) -> dict[int, bytes]:
        """Every ring's bytes now (green, red, blue a pixel), as the controller's render
        makes them: drawn, then dimmed by the cap and the budget in one integer table."""
        grb: dict[int, bytearray] = {}
        total = 0
        for seat in range(1, self.seats + 1):
            pic, age = self.picture(seat)
            out = bytearray(3 * PIXELS)
            rd.draw(pic, age, PIXELS, self.turn(seat), out)
            total += rd.allowance(pic, PIXELS)    # never what a private picture shows
            grb[self.ring_of(seat)] = out
        cap = self.cap()
        level = rd.budget_level(total * cap // 255, self.budget_ma)
        if cap < 255 or level < 256:
            if self._lut_for != cap * 512 + level:
                rd.shade_table(self._lut, cap, level)
                self._lut_for = cap * 512 + level
            for out in grb.values():
                rd.shade(out, out, 0, len(out), self._lut)
        return {ring: bytes(b) for ring, b in grb.items()}

    def draw(self) -> int:
        """Write the rings whose bytes changed (and the still ones due a refresh); returns
        how many were written."""
        with self._lock:
            now = self.now()
            n = 0
            for ring, data in sorted(self.frame_bytes().items()):
                stale = now - self.written_at.get(ring, -REFRESH) >= REFRESH
                if self.written.get(ring) == data and not stale:
                    continue
                self.select(ring)
                self.spi.writebytes2(spi_bytes(data))
                self.written[ring] = data
                self.written_at[ring] = now
                n += 1
            self.frames += 1
            return n

    def dark(self) -> None:
        """Every ring off, now (closing: no picture is left lit on a table)."""
        with self._lock:
            for ring in sorted(set(self.written) | set(range(1, PIXELS + 1))):
                self.select(ring)
                self.spi.writebytes2(spi_bytes(bytes(3 * PIXELS)))
                self.written[ring] = bytes(3 * PIXELS)

    def close(self) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout=2)


def select_value(ring: int) -> int:
    """The number on the select pins for ring 1-12 (the decoders' outputs 0-11)."""
    return ring - 1

