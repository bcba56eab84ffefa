"""The pad controller (a Raspberry Pi Pico) over USB serial, with pyserial.

The protocol itself is `LinkSession` (session.py): a pure object that takes the bytes read
and gives the bytes to write and the pad edges. Here are its threads and its port: a
`serial.threaded.ReaderThread` hands the session what it read, writes its acks and puts its
edges on the app's queue (never a call into the rules); a supervisor thread
opens the port (a configured `/dev/serial/by-id/...` path, or the Pico found by its USB id),
greets the controller and checks its versions, resends what was not acknowledged, beats the
heartbeat, notices silence or an unplugged cable, reconnects with backoff and then sends the
whole ring state again. Connects, disconnects and protocol errors reach the app as `PadLink`
events; bad and resent frames are counted.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from firmware_bridge import padlink as pl
from firmware_bridge import ringdraw as rd

from ..clock import Clock
from ..paths import config_dir
from .base import PadBackend, Sink
from .events import PadLink
from .rings import Picture
from .session import ACK_HOLD, EDGE_RATE, NOT_PAIRED, LinkSession

__all__ = ["ACK_HOLD", "EDGE_RATE", "PairingError", "SerialPads", "find_pico", "find_picos",
           "load_secret", "serial_table"]

PORT_ENV = "TABLE_APP_PORT"
SECRET_ENV = "TABLE_APP_PAD_SECRET"
#: The Raspberry Pi Pico's USB vendor id, and MicroPython's USB product ids on the RP2040
#: (the board, and its CDC on a custom build)
PICO_PIDS = (0x0005, 0x000A)
PICO_VID = 0x2E8A


def secret_path() -> Path:
    """Where this Pi keeps the pairing secret it writes onto the pad controller."""
    chosen = os.environ.get(SECRET_ENV)
    if chosen:
        return Path(chosen)
    return config_dir() / "pad-secret"


class PairingError(Exception):
    """This Pi's pairing secret is there but cannot be read."""


def load_secret(path: Path | None = None) -> bytes:
    """The pairing secret; empty when this Pi has none yet (no pairing was made). One that
    is there but cannot be read is a PairingError: it used to count as none, which trusted
    a stock controller (its secret is empty too) and refused this table's own."""
    path = path or secret_path()
    try:
        return path.read_bytes().strip()
    except FileNotFoundError:
        return b""
    except OSError as e:
        raise PairingError(f"the pairing secret {path} cannot be read ({e.strerror or e}): "
                           f"give it back to the table's user, or pair again "
                           f"(table-app firmware install)") from None


def find_picos(env: bool = True) -> list[str]:
    """Every pad controller's port: those `TABLE_APP_PORT` names (several, comma-separated:
    a big table's), else (or with `env` False) every port that is MicroPython on a Pico, in
    the order the system lists them."""
    chosen = os.environ.get(PORT_ENV) if env else None
    if chosen is not None:
        return [p.strip() for p in chosen.split(",") if p.strip().lower() not in ("", "none")]
    try:
        from serial.tools import list_ports
    except ImportError:
        return []
    return sorted(str(p.device) for p in list_ports.comports()
                  if p.vid == PICO_VID and p.pid in PICO_PIDS)


def usb_serial(port: str) -> str | None:
    """The USB serial number of the device at `port` (a Pico's is its flash's unique id)."""
    try:
        from serial.tools import list_ports
        real = os.path.realpath(port)
        for p in list_ports.comports():
            if p.device in (port, real) and p.serial_number:
                return str(p.serial_number).lower()
    except (ImportError, OSError):
        pass
    return None


def find_pico() -> str | None:
    """The serial port of the pad controller, or None: the one `TABLE_APP_PORT` names (a
    path such as /dev/table-pads or /dev/serial/by-id/..., or `none` to look for nothing),
    else the first port that is MicroPython on a Pico (its USB vendor and product id: a
    Raspberry Pi Debug Probe shares the vendor id, not the product id)."""
    ports = find_picos()
    return ports[0] if ports else None


class SerialPads(PadBackend):
    """Pads behind the pad controller, over a serial port."""

    name = "serial"
    #: the link's own pacing runs on real time, as the controller's resend timer does, not
    #: on the table's clock (a test may stop that one)
    link_time: Callable[[], float] = staticmethod(time.monotonic)

    def __init__(self, seats: int, sink: Sink, clock: Clock | None = None,
                 port: str | None = None, finder: Callable[[], str | None] | None = None,
                 beat: float = 0.4, silence: float = 1.5, backoff: tuple[float, ...] = (
                     0.2, 0.5, 1.0, 2.0, 5.0), cap: int = 255, budget_ma: int = 1500,
                 secret: bytes | None = None, ring_size: int = 12) -> None:
        self.ring_size = ring_size
        super().__init__(seats, sink, clock)
        self.port = port
        #: the port open now (or being opened): a big table's controllers never share one
        self.current: str | None = None
        #: why no controller can be trusted (no pairing, or a secret that cannot be read)
        self.unpaired: str | None = None
        if secret is None:
            try:
                secret = load_secret()
            except PairingError as e:
                secret, self.unpaired = b"", str(e)
        self.secret = secret
        if not secret and self.unpaired is None:
            # a table with no pairing trusts nothing: a stock controller's secret is empty
            # too, and it would be taken for this table's
            self.unpaired = NOT_PAIRED
        #: the protocol (pure); `lock` guards it between the reader and the supervisor
        self.session = LinkSession(seats, secret, self.unpaired, ring_size)
        self.lock = threading.Lock()
        self.hello_seen = threading.Event()
        self.finder = finder or (lambda: self.port or find_pico())
        self.beat = beat
        self.silence = silence
        self.backoff = backoff
        self.cap = cap
        self.budget_ma: int = budget_ma
        self.reader: Any = None
        self.connected = threading.Event()
        self.error: str | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    @property
    def stats(self) -> dict[str, int]:
        """The link's counts: frames bad and resent (both ways), connects, floods, the
        controller's work."""
        return self.session.stats

    @property
    def board_id(self) -> str | None:
        """This controller's own id: the board's, from its hello (else its USB serial
        number); None until it has been heard."""
        if self.session.board:
            return self.session.board
        if self.firmware is None or self.current is None:
            return None
        return usb_serial(self.current) or self.current

    @property
    def firmware(self) -> str | None:
        """The controller's firmware version, from its last good hello."""
        return self.session.firmware

    # -- life ----------------------------------------------------------------------------
    def start(self) -> None:
        self._thread = threading.Thread(target=self._supervise, name="pad-link", daemon=True)
        self._thread.start()

    def wait_connected(self, timeout: float = 5.0) -> bool:
        return self.connected.wait(timeout)

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=3)
        self._drop_reader()

    def _cap_changed(self) -> None:
        self.set_brightness(rd.cap_byte(self.light_cap))

    def _turns(self) -> bytes:
        return bytes(self.rotation.get(seat, 0) for seat in range(1, self.seats + 1))

    def _order(self) -> bytes:
        return bytes(self.ring_order or range(1, self.seats + 1))

    def _layout_changed(self) -> None:
        # the controller turns its rings and finds each seat's ring itself (pictures travel
        # by seat, not by pixel)
        with self.lock:
            self.session.queue(pl.ROTATE, self._turns(), tag="rotate")
            self.session.queue(pl.ORDER, self._order(), tag="order")

    def set_brightness(self, cap: int) -> None:
        """The night's brightness cap (0-255), sent to the controller."""
        self.cap = max(0, min(255, cap))
        with self.lock:
            self.session.queue(pl.BRIGHT, self._bright())

    def _bright(self) -> bytes:
        return pl.pack(pl.BRIGHT, cap=self.cap, budget_ma=self.budget_ma)

    def _show(self, seat: int, picture: Picture) -> None:
        if self.connected.is_set():
            self._queue_show(seat, picture)

    def _queue_show(self, seat: int, picture: Picture) -> None:
        with self.lock:
            self.session.queue(pl.SHOW, bytes([seat]) + self.encode(picture), tag=seat)
        self._send_due()              # now, not at the supervisor's next turn

    # -- the supervisor ------------------------------------------------------------------
    def _supervise(self) -> None:
        attempt = 0
        while not self._stop.is_set():
            port = self.finder()
            ok = port is not None and self._connect(port)
            if ok:
                attempt = 0
                self._serve()
                self._drop_reader()
                with self.lock:
                    was_up = self.session.lost()
                if was_up:
                    self.connected.clear()
                    self.sink(PadLink(0, False, "pad controller disconnected", self.clock.now()))
            else:
                self._drop_reader()
                self._report_missing(port)
            if self._stop.is_set():
                break
            delay = self.backoff[min(attempt, len(self.backoff) - 1)]
            if self.error and "mismatch" in self.error:
                delay = self.backoff[-1]
            attempt += 1
            self._stop.wait(delay)

    def _report_missing(self, port: str | None) -> None:
        """No controller (or none that answers): the table is told once, and pauses, until one
        connects. A game never runs on with pads that cannot be heard."""
        if self.connected.is_set() or self.missing_told:
            return
        self.missing_told = True
        if port is None:
            reason = "no pad controller found: plug it in (or check the USB cable)"
        else:
            reason = self.error or f"no answer from the pad controller at {port}"
        self.sink(PadLink(0, False, reason, self.clock.now()))

    #: the table has been told that no controller answers (till one does)
    missing_told = False

    def _connect(self, port: str) -> bool:
        import serial
        import serial.threaded

        self.current = port
        try:
            # exclusive: a firmware install (or a second table) cannot talk over the game
            ser = serial.serial_for_url(port, baudrate=115200, timeout=0.2, exclusive=True)
        except (serial.SerialException, OSError, ValueError):
            self.current = None
            return False
        with self.lock:
            self.hello_seen.clear()
            self.session.open(os.urandom(8), self.clock.now())
        owner = self

        class Proto(serial.threaded.Protocol):
            def data_received(self, data: bytes) -> None:
                owner._received(data)

            def connection_lost(self, exc: BaseException | None) -> None:
                pass        # an unplugged cable: the supervisor sees the reader stop

        class Reader(serial.threaded.ReaderThread):
            def run(self) -> None:
                # an unplugged cable can fail in pyserial's ioctl as a plain OSError (EIO),
                # which its reader does not catch: the same end of the link, quietly
                try:
                    super().run()
                except OSError as exc:
                    self.alive = False
                    if self.protocol is not None:
                        self.protocol.connection_lost(exc)

        reader = Reader(ser, Proto)
        reader.daemon = True
        reader.start()
        self.reader = reader
        deadline = self.clock.now() + 2.0
        while not self.hello_seen.is_set():
            if self._stop.is_set() or not reader.alive or self.clock.now() > deadline:
                return False
            self._send_due()
            self.hello_seen.wait(0.01)
        return self._check_hello()

    def _check_hello(self) -> bool:
        now = self.clock.now()
        with self.lock:
            self.error = self.session.accept_hello(now)
            # a button held while the controller restarted: its release, before any edge of
            # the new boot (sent under the lock: the reader takes none till it is let go)
            for edge in self.session.take_released():
                self.down[edge.seat] = False
                self.sink(edge)
            if self.error is None:
                # the whole ring state again: the controller may have been reset or dark
                self.session.queue(pl.BRIGHT, self._bright())
                self.session.queue(pl.ROTATE, self._turns(), tag="rotate")
                self.session.queue(pl.ORDER, self._order(), tag="order")
        if self.error is None:
            self.connected.set()
            for seat in range(1, self.seats + 1):
                self._queue_show(seat, self.pictures[seat])
            self.missing_told = False
            from firmware_bridge import fwconfig
            note = "" if self.firmware == fwconfig.FIRMWARE else (
                f"; this app ships firmware {fwconfig.FIRMWARE}: update it with "
                f"table-app firmware install")
            self.sink(PadLink(0, True, f"pad controller {self.firmware} connected{note}", now))
            return True
        if not self.missing_told:
            self.missing_told = True
            self.sink(PadLink(0, False, self.error, now))
        return False

    def _serve(self) -> None:
        last_beat = 0.0
        while not self._stop.is_set() and self.reader is not None and self.reader.alive:
            now = self.clock.now()
            if now - last_beat >= self.beat:
                last_beat = now
                with self.lock:
                    beat = self.session.beat()
                self._write(beat)
            if now - self.session.last_rx > self.silence:
                return                    # the controller fell silent: start again
            self._send_due()
            time.sleep(0.002)

    def _send_due(self) -> None:
        with self.lock:
            data = self.session.due(self.clock.now(), self.link_time())
        if data is not None:
            self._write(data)

    def _write(self, data: bytes | bytearray) -> None:
        reader = self.reader
        if reader is None:
            return
        try:
            reader.write(data)
        except OSError:        # the port vanished under us (pyserial's SerialException is
            pass               # one): the supervisor notices; a bug in ours still shows

    def _drop_reader(self) -> None:
        reader, self.reader = self.reader, None
        if reader is not None:
            try:
                reader.stop()
            except (OSError, RuntimeError):    # a port gone, or a reader never started
                pass
            try:
                reader.serial.close()
            except OSError:
                pass

    # -- the reader thread: the session's bytes in, its acks out, its edges queued -------
    def _received(self, data: bytes) -> None:
        with self.lock:
            writes, edges = self.session.received(data, self.clock.now(), self.link_time())
            for w in writes:
                self._write(w)
            if self.session.hello_seen:
                self.hello_seen.set()
        for edge in edges:
            self.down[edge.seat] = edge.pressed
            self.sink(edge)


def serial_table(seats: int, sink: Sink, clock: Clock | None = None, port: str | None = None,
                 controllers: list[str] | None = None, ring_size: int = 12,
                 **options: Any) -> PadBackend:
    """The pads of a table over USB: one controller for 12 seats, two or three (a
    `TablePads`) for a bigger table, each finding a port no other holds (those `port` or
    `TABLE_APP_PORT` name, comma-separated, else every Pico plugged in)."""
    from .multi import JACKS, TablePads, controllers_for

    if seats <= JACKS and not controllers:
        return SerialPads(seats, sink, clock, port=port, ring_size=ring_size, **options)
    named = [p.strip() for p in (port or "").split(",") if p.strip()]
    children: list[SerialPads] = []

    def candidates() -> list[str]:
        # the ports named (the service names /dev/table-pads, which is one controller: the
        # last plugged in), then every Pico plugged in, each once
        found = named or find_picos()
        if len(found) < len(children) and not (port and named):
            seen = {os.path.realpath(p) for p in found}
            found += [p for p in find_picos(env=False) if os.path.realpath(p) not in seen]
        return found

    def finder(me: int) -> Callable[[], str | None]:
        def find() -> str | None:
            held = {c.current for i, c in enumerate(children) if i != me and c.current}
            # a port another controller of this table holds is never tried
            for p in candidates():
                if p not in held and os.path.realpath(p) not in {
                        os.path.realpath(h) for h in held}:
                    return p
            return None
        return find

    def make(k: int, child_sink: Sink) -> PadBackend:
        child = SerialPads(JACKS, child_sink, clock, finder=finder(k), ring_size=ring_size,
                           **options)
        children.append(child)
        return child

    n = max(controllers_for(seats), len(controllers or ()))
    return TablePads(seats, sink, clock, make=make, controllers=n, ids=controllers or (),
                     ring_size=ring_size)
