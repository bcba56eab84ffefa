"""The pad controller (a Raspberry Pi Pico) over USB serial, with pyserial.

A `serial.threaded.ReaderThread` parses frames and puts pad edges on the app's queue (it also
answers acknowledgements: protocol work, never a call into the rules). A supervisor thread
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
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

from firmware_bridge import padlink as pl
from firmware_bridge import ringdraw as rd

from ..clock import Clock
from ..paths import config_dir
from .base import PadBackend, Sink
from .events import PadEdge, PadLink
from .rings import Picture, encode

#: The Raspberry Pi Pico's USB vendor id (MicroPython's CDC serial port).
PORT_ENV = "TABLE_APP_PORT"
SECRET_ENV = "TABLE_APP_PAD_SECRET"
EDGE_RATE = 60.0            # edges a second a controller may send (and as many at once)
ACK_HOLD = 0.005            # a release's ack waits this long for the ring's answer to ride on
#: MicroPython's USB product ids on the RP2040 (the board, and its CDC on a custom build)
PICO_PIDS = (0x0005, 0x000A)
PICO_VID = 0x2E8A
RING = 12
PAD_TICKS = 1 << 30         # MicroPython's ticks_ms period on the Pico


def secret_path() -> Path:
    """Where this Pi keeps the pairing secret it writes onto the pad controller."""
    chosen = os.environ.get(SECRET_ENV)
    if chosen:
        return Path(chosen)
    return config_dir() / "pad-secret"


class PairingError(Exception):
    """This Pi's pairing secret is there but cannot be read."""


NOT_PAIRED = ("this table is not paired with its pad controller yet: install the firmware "
              "from this Pi (table-app firmware install)")


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


def find_pico() -> str | None:
    """The serial port of the pad controller, or None: the one `TABLE_APP_PORT` names (a
    path such as /dev/table-pads or /dev/serial/by-id/..., or `none` to look for nothing),
    else the first port that is MicroPython on a Pico (its USB vendor and product id: a
    Raspberry Pi Debug Probe shares the vendor id, not the product id)."""
    chosen = os.environ.get(PORT_ENV)
    if chosen is not None:
        return None if chosen.strip().lower() in ("", "none") else chosen
    try:
        from serial.tools import list_ports
    except ImportError:          # pyserial missing: no controller can be there
        return None
    for port in list_ports.comports():
        if port.vid == PICO_VID and port.pid in PICO_PIDS:
            return str(port.device)
    return None


class _Link:
    """What the reader thread shares with the supervisor (guarded by `lock`)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.sender = pl.Sender(limit=256)
        self.receiver = pl.Receiver()
        self.hello: bytes | None = None
        self.hello_seen = threading.Event()
        #: the session's MAC key (padlink), from the hello's reply; None: nothing is taken
        self.key: bytes | None = None
        self.last_rx = 0.0
        self.offsets: deque[tuple[float, float]] = deque()
        self.pad_stats = (0, 0, 0)
        #: the pad's clock unwrapped: the last value seen, counting on past each wrap
        self.pad_last: int | None = None
        #: acks held back a moment to go out with the answer (see SerialPads._ack_edge),
        #: and when they go out alone at the latest (SerialPads.link_time)
        self.held = bytearray()
        self.held_until = 0.0


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
                 secret: bytes | None = None) -> None:
        super().__init__(seats, sink, clock)
        self.port = port
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
        self.challenge = b""
        self.boot = b""                  # the controller's boot id at the last hello
        self._tokens = EDGE_RATE
        self._tokens_at = 0.0
        self.finder = finder or (lambda: self.port or find_pico())
        self.beat = beat
        self.silence = silence
        self.backoff = backoff
        self.cap = cap
        self.budget_ma = budget_ma
        self.link = _Link()
        self.reader: Any = None
        self.connected = threading.Event()
        self.error: str | None = None
        self.firmware: str | None = None
        self.stats = {"bad_frames": 0, "resends": 0, "connects": 0, "disconnects": 0,
                      "pad_bad_frames": 0, "pad_resends": 0, "pad_dropped": 0}
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._decoder: pl.Decoder | None = None

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
        with self.link.lock:
            self.link.sender.add(pl.ROTATE, self._turns(), tag="rotate")
            self.link.sender.add(pl.ORDER, self._order(), tag="order")

    def set_brightness(self, cap: int) -> None:
        """The night's brightness cap (0-255), sent to the controller."""
        self.cap = max(0, min(255, cap))
        with self.link.lock:
            self.link.sender.add(pl.BRIGHT, self._bright())

    def _bright(self) -> bytes:
        return pl.pack(pl.BRIGHT, cap=self.cap, budget_ma=self.budget_ma)

    def _show(self, seat: int, picture: Picture) -> None:
        if self.connected.is_set():
            self._queue_show(seat, picture)

    def _queue_show(self, seat: int, picture: Picture) -> None:
        with self.link.lock:
            self.link.sender.add(pl.SHOW, bytes([seat]) + encode(picture), tag=seat)
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
                if self.connected.is_set():
                    self.connected.clear()
                    self.stats["disconnects"] += 1
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

        try:
            # exclusive: a firmware install (or a second table) cannot talk over the game
            ser = serial.serial_for_url(port, baudrate=115200, timeout=0.2, exclusive=True)
        except (serial.SerialException, OSError, ValueError):
            return False
        link = self.link
        with link.lock:
            # the sequence state and the pad's clock offsets are kept across a cut: edges
            # queued while unplugged keep their times, and a resend is not taken twice
            # (both are dropped if the hello shows the controller restarted)
            link.sender.clear()
            link.held.clear()
            link.hello = None
            link.hello_seen.clear()
            link.key = None                  # a new session: its key comes with the hello
            link.sender.key = None
            link.last_rx = self.clock.now()
            self.challenge = os.urandom(8)
        self._decoder = pl.Decoder()
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
        with link.lock:
            link.sender.add(pl.HELLO, pl.pack(pl.HELLO, protocol=pl.PROTOCOL,
                                              challenge=self.challenge))
        deadline = self.clock.now() + 2.0
        while not link.hello_seen.is_set():
            if self._stop.is_set() or not reader.alive or self.clock.now() > deadline:
                return False
            self._send_due()
            link.hello_seen.wait(0.01)
        return self._check_hello()

    def _check_hello(self) -> bool:
        hello = pl.unpack(pl.HELLO_REPLY, self.link.hello or b"")
        now = self.clock.now()
        if "ring" not in hello:
            self.error = "pad controller: a malformed hello"
        elif hello["protocol"] != pl.PROTOCOL or "proof" not in hello:
            self.error = (f"protocol mismatch: the pad controller speaks protocol "
                          f"{hello['protocol']}, this app {pl.PROTOCOL}: install the "
                          f"matching firmware (table-app firmware install)")
        elif hello["seats"] != self.seats or hello["ring"] != RING:
            self.error = (f"seat count mismatch: the pad controller has {hello['seats']} pads "
                          f"of {hello['ring']} pixels, the game needs {self.seats} of {RING}")
        elif self.unpaired is not None:
            self.error = self.unpaired
        elif hello["proof"] != pl.proof(self.secret, self.challenge):
            # not ours (another device with the Pico's id, or firmware from another table):
            # it gets no picture, and its buttons are not heard
            self.error = ("the pad controller is not paired with this table: install the "
                          "firmware from this Pi (table-app firmware install)")
        else:
            self.error = None
            boot = hello["boot"]
            with self.link.lock:
                if boot != self.boot:            # the controller restarted: a new session
                    self.boot = boot
                    self.link.receiver.reset()
                    self.link.offsets.clear()
                    self.link.pad_last = None
            self.firmware = hello.get("version", "")
            self.stats["connects"] += 1
            self.connected.set()
            # the whole ring state again: the controller may have been reset or dark
            with self.link.lock:
                self.link.sender.add(pl.BRIGHT, self._bright())
                self.link.sender.add(pl.ROTATE, self._turns(), tag="rotate")
                self.link.sender.add(pl.ORDER, self._order(), tag="order")
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
                self._write(pl.frame(pl.BEAT, 0, b"", self.link.key))
            if now - self.link.last_rx > self.silence:
                return                    # the controller fell silent: start again
            self._send_due()
            time.sleep(0.002)

    def _send_due(self) -> None:
        link = self.link
        with link.lock:
            before = link.sender.resends
            data = link.sender.due(int(self.clock.now() * 1000))
            self.stats["resends"] += link.sender.resends - before
            if link.held and (data is not None or self.link_time() >= link.held_until):
                data = self._after_held(data or b"")
        if data is not None:
            self._write(data)

    def _ack_edge(self, seq: int, fresh: bool, released: bool) -> None:
        # A release is what the table answers (a tap is taken at its release), with a new
        # picture a moment later: its ack waits for that picture and goes out in the same
        # write, so the controller takes both in one read (or alone after ACK_HOLD, far
        # inside the controller's 30 ms resend). A press, or a resend whose ack was lost, is
        # acknowledged at once: the controller may have more edges waiting behind it.
        # (Called under link.lock.)
        link = self.link
        if fresh and released:
            if not link.held:
                link.held_until = self.link_time() + ACK_HOLD
            link.held += pl.ack_frame(seq, link.key)
            return
        self._write(self._after_held(pl.ack_frame(seq, link.key)))

    def _after_held(self, data: bytes | bytearray) -> bytes | bytearray:
        # the acks held back go first, in the same write (called under link.lock)
        held = self.link.held
        if not held:
            return data
        data = bytes(held) + data
        held.clear()
        return data

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

    # -- the reader thread: parse, answer acks, queue edges ------------------------------
    def _received(self, data: bytes) -> None:
        dec = self._decoder
        if dec is None:
            return
        before = dec.bad
        frames = dec.feed(data)
        now = self.clock.now()
        link = self.link
        with link.lock:
            self.stats["bad_frames"] += dec.bad - before
            if frames:
                link.last_rx = now
            for kind, seq, body in frames:
                if kind == pl.HELLO_REPLY:
                    link.hello = bytes(body)
                    boot = pl.unpack(pl.HELLO_REPLY, body).get("boot")
                    if self.secret and boot is not None:
                        # the session's key, before the frames behind the reply are read:
                        # the controller signs everything after it (an unpaired table has
                        # none, and takes nothing)
                        link.key = pl.session_key(self.secret, self.challenge, boot)
                        link.sender.rekey(link.key)
                    link.hello_seen.set()
                    continue
                opened = pl.opened(link.key, kind, seq, body)
                if opened is None:           # a wrong or missing MAC: forged, or stale
                    self.stats["bad_frames"] += 1
                    continue
                body = opened
                if kind == pl.ACK and body:
                    if link.sender.ack(body[0]):
                        nxt = link.sender.due(int(now * 1000))
                        if nxt is not None:      # the next queued frame, without waiting
                            self._write(self._after_held(nxt))
                elif kind == pl.BEAT and len(body) >= 4:
                    self._offset(now, self._unwrap(pl.unpack(pl.BEAT, body)["t_ms"]))
                elif kind == pl.STATS and len(body) >= 6:
                    got = pl.unpack(pl.STATS, body)   # older firmware: fewer at the end
                    for field, key in (("bad", "pad_bad_frames"), ("resends", "pad_resends"),
                                       ("dropped", "pad_dropped"), ("work_us", "pad_work_us"),
                                       ("io_us", "pad_io_us")):
                        if field in got:
                            self.stats[key] = got[field]
                elif kind == pl.EDGE and seq and self.connected.is_set():
                    if not self._within_rate(now):
                        continue          # not acknowledged: the controller sends it again
                    fresh = link.receiver.fresh(seq)
                    edge = pl.unpack(pl.EDGE, body)
                    good = "t_ms" in edge and 1 <= edge["seat"] <= self.seats
                    self._ack_edge(seq, fresh, good and not edge["pressed"])
                    if fresh and good:
                        t = self._pad_time(now, self._unwrap(edge["t_ms"]))
                        self.down[edge["seat"]] = bool(edge["pressed"])
                        self.sink(PadEdge(edge["seat"], bool(edge["pressed"]), t))

    def _within_rate(self, now: float) -> bool:
        """At most EDGE_RATE edges a second (with a burst of as many): twelve players
        tapping fast stay far below it. An edge over the rate is not acknowledged (the
        controller sends it again later) and counted; a flood never reaches the journal."""
        self._tokens = min(EDGE_RATE, self._tokens + (now - self._tokens_at) * EDGE_RATE)
        self._tokens_at = now
        if self._tokens < 1:
            self.stats["flooded"] = self.stats.get("flooded", 0) + 1
            return False
        self._tokens -= 1
        return True

    def _unwrap(self, pad_ms: int) -> int:
        """The pad's ticks_ms wraps every 2**30 ms (12.4 days): take each reading as the one
        nearest the last, so a table left on for two weeks keeps its holds and its order."""
        last = self.link.pad_last
        if last is None:
            value = pad_ms
        else:
            ahead = (pad_ms - last) % PAD_TICKS
            value = last + ahead if ahead < PAD_TICKS // 2 else last + ahead - PAD_TICKS
        self.link.pad_last = max(value, last if last is not None else value)
        return value

    def _offset(self, now: float, pad_ms: int) -> None:
        # host time minus pad time; the smallest recent sample had the least delay
        offsets = self.link.offsets
        offset = now - pad_ms / 1000
        if offsets and abs(offset - min(o for _, o in offsets)) > 1.0:
            offsets.clear()        # the pad's clock jumped (it restarted, or ticks wrapped)
        offsets.append((now, offset))
        while offsets and now - offsets[0][0] > 10:
            offsets.popleft()

    def _pad_time(self, now: float, pad_ms: int) -> float:
        offsets = self.link.offsets
        if not offsets:
            return now
        t = pad_ms / 1000 + min(o for _, o in offsets)
        return min(t, now)

