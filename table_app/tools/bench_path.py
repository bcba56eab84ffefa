"""Press-to-ring and queue-to-ring benchmarks, each beside a floor measured in the same run,
interleaved batch by batch, so a busy machine moves both alike.

- press_to_ring: a tap's release (a pin set in the firmware's shim; a tap is taken at its
  release) until the answering pixel frame comes back,
  through the real firmware, the ptys and cable relay, pyserial's reader thread, the app's
  queue, the press grammar and the SerialPads sender. The floor is a zero-work pipe over the
  same path: a MicroPython loop on the same shims, FIFOs and ptys that writes one byte when a
  pin changes and the pixel frame when a byte comes back, and the same reader thread, queue
  and app thread on the Pi side that answer one byte.
- unixport_work_per_press: the firmware's own working time (ticks_us, sent in STATS) per
  press: making the edge, decoding and handling what comes back, drawing the ring and handing
  it to the pixel writer, the ACKs; beside the floor loop's own time in the turns where it
  reads and writes its bytes, its system calls left out in the same way.
  firmware_link_per_press: the firmware's time in the system calls that stand in for the
  Pico's hardware (the link's reads and writes on the ptys, a copy into the USB buffer on a
  Pico; waking the pixel thread, which the Pico's core 1 never needs), beside the floor's
  system calls (its link, and its pixel frame written in the loop).
- firmware_work_replayed: the same work with the controller's caches warm: taps replayed back
  to back in one MicroPython process, beside the floor loop's work in the same moments. On
  a virtual machine whose caches go cold within milliseconds, the gap between this and
  unixport_work_per_press is the machine, not the firmware.
- queue_to_ring: a pad event put on the table's queue until the ring's answer goes out, with
  the journal durable on this machine's disk, beside the same with the journal on tmpfs.

The first two are here; firmware_work_replayed is in bench_replay.py, queue_to_ring in
bench_queue.py.
"""

from __future__ import annotations

import queue
import statistics
import threading
import time
from typing import Any

FLOOR_FIRMWARE = """
import sys, select, time, padsim
padsim._open()
p = select.poll(); p.register(sys.stdin, select.POLLIN)
frame = b"W" + bytes(432)
last = {}
work = 0
io = 0
ticks_us, ticks_diff = time.ticks_us, time.ticks_diff
while True:
    padsim.service()           # the pins, as the controller's scan reads them: not work
    t = ticks_us()
    busy = False
    sys_us = 0                 # this turn's system calls, timed apart as the controller's are
    if padsim.levels != last:
        last = dict(padsim.levels)
        s = ticks_us()
        sys.stdout.buffer.write(b"e")
        sys_us += ticks_diff(ticks_us(), s)
        busy = True
    while True:
        s = ticks_us()
        b = sys.stdin.buffer.read(1) if p.poll(0) else None
        sys_us += ticks_diff(ticks_us(), s)
        if not b:
            break
        if b == b"s":
            padsim.writes[0] += 1
            s = ticks_us()
            padsim.send(frame)
            sys_us += ticks_diff(ticks_us(), s)
            busy = True
        elif b == b"q":
            sys.stdout.buffer.write(b"#%d %d\\n" % (work, io))
    if busy:
        io += sys_us
        work += ticks_diff(ticks_us(), t) - sys_us
    time.sleep_us(50)
"""


def _wait_frame(fw: Any, frames: int, timeout: float = 2.0) -> bool:
    end = time.monotonic() + timeout
    with fw.changed:
        while fw.frames <= frames:
            left = end - time.monotonic()
            if left <= 0:
                return False
            fw.changed.wait(left)
    return True


class _FloorPath:
    """The zero-work pipe: the floor firmware, and on the Pi side pyserial's reader thread
    into a queue, and an app thread that answers each byte with one byte."""

    def __init__(self) -> None:
        import serial
        import serial.threaded

        from .picosim import Firmware
        self.fw = Firmware(script=FLOOR_FIRMWARE)
        self.q: queue.Queue[bytes] = queue.Queue()
        self.work: queue.Queue[tuple[int, int]] = queue.Queue()
        owner = self

        class Proto(serial.threaded.Protocol):
            text = b""          # a "#<work us> <io us>\n" answer to q, perhaps in pieces

            def data_received(self, data: bytes) -> None:
                if self.text or b"#" in data:
                    self.text += data[data.index(b"#"):] if not self.text else data
                    data = data[:data.index(b"#")] if b"#" in data else b""
                    if b"\n" in self.text:
                        line, _, rest = self.text.partition(b"\n")
                        work, io = line[1:].split()
                        owner.work.put((int(work), int(io)))
                        self.text = b""
                        data += rest
                if data:
                    owner.q.put(data)

        ser = serial.serial_for_url(self.fw.port, baudrate=115200, timeout=0.2)
        self.reader = serial.threaded.ReaderThread(ser, Proto)
        self.reader.start()
        self.stop = threading.Event()
        self.app = threading.Thread(target=self._app, daemon=True)
        self.app.start()

    def _app(self) -> None:
        while not self.stop.is_set():
            try:
                data = self.q.get(timeout=0.1)
            except queue.Empty:
                continue
            for _ in range(data.count(b"e")):
                self.reader.write(b"s")

    def down(self, pin: int) -> None:
        n = self.fw.frames
        self.fw.set_pin(pin, 0)
        _wait_frame(self.fw, n)              # the floor answers every change

    def up(self, pin: int) -> bool:
        n = self.fw.frames
        self.fw.set_pin(pin, 1)
        return _wait_frame(self.fw, n)

    def work_us(self) -> tuple[int, int]:
        # the floor's own time in a change's turns, and its system calls apart (as the
        # controller counts work_us and io_us)
        self.reader.write(b"q")
        return self.work.get(timeout=5)

    def close(self) -> None:
        self.stop.set()
        self.reader.close()
        self.fw.close()


class _RealPath:
    """The real firmware, SerialPads, and an app thread with the press grammar that answers
    each press with a new cursor on that ring."""

    def __init__(self) -> None:
        from ..pads import PadPanel
        from ..pads.events import RawPadEvent
        from ..pads.serial_pads import SerialPads
        from .picosim import Firmware

        self.fw = Firmware(secret=b"bench-table")          # paired, as a table's is
        self.q: queue.Queue[RawPadEvent] = queue.Queue()
        self.pads = SerialPads(12, self.q.put, finder=lambda: self.fw.port or None,
                               secret=b"bench-table")
        self.panel = PadPanel(self.pads)
        self.pads.start()
        if not self.pads.wait_connected(10):
            raise RuntimeError("no link to the simulated controller")
        self.stop = threading.Event()
        for seat in range(1, 13):
            self.panel.ask(seat, list(range(1, 13)))

        def app() -> None:
            # what the table does: take the edge off the queue, run the grammar, and answer a
            # tap (taken at its release) with the cursor moved on that ring
            while not self.stop.is_set():
                try:
                    raw = self.q.get(timeout=0.1)
                except queue.Empty:
                    continue
                self.panel.handle(raw)             # the panel draws the moved cursor
                self.panel.tick(raw.t)

        self.app = threading.Thread(target=app, daemon=True)
        self.app.start()

    def down(self, pin: int) -> None:
        # a press answers nothing (the tap is its release): wait till the Pi has it, so a
        # stalled process cannot shorten the finger's 40 ms into a bounce of the grammar's
        from firmware_bridge import fwconfig
        seat = fwconfig.BUTTON_PINS.index(pin) + 1
        self.fw.set_pin(pin, 0)
        end = time.monotonic() + 2.0
        while not self.pads.down.get(seat) and time.monotonic() < end:
            time.sleep(0.0005)

    def up(self, pin: int) -> bool:
        n = self.fw.frames
        self.fw.set_pin(pin, 1)
        return _wait_frame(self.fw, n)

    def work_us(self) -> tuple[int, int]:
        # STATS comes with every heartbeat (0.4 s): wait for one sent after this moment
        before = self.pads.stats.get("pad_work_us")
        end = time.monotonic() + 3
        while time.monotonic() < end and self.pads.stats.get("pad_work_us") == before:
            time.sleep(0.02)
        return (int(self.pads.stats.get("pad_work_us", 0)),
                int(self.pads.stats.get("pad_io_us", 0)))

    def close(self) -> None:
        self.stop.set()
        self.pads.close()
        self.fw.close()


def press_to_ring(presses: int, reps: int = 5) -> list[dict[str, Any]]:
    """Figures: press_to_ring_p50, press_to_ring_p99, unixport_work_per_press."""
    from firmware_bridge import fwconfig

    real, floor = _RealPath(), _FloorPath()
    debounce = fwconfig.DEBOUNCE_MS / 1000 + 0.005
    p50s: list[float] = []
    p99s: list[float] = []
    f50s: list[float] = []
    f99s: list[float] = []
    works: list[float] = []
    fworks: list[float] = []
    ios: list[float] = []
    fios: list[float] = []
    per = max(10, presses // reps)
    try:
        time.sleep(1.0)
        for _ in range(reps):
            for path, p50, p99, wk, io in ((floor, f50s, f99s, fworks, fios),
                                           (real, p50s, p99s, works, ios)):
                w0, i0 = path.work_us()
                samples = []
                for i in range(per):
                    # a tap: down for a finger's 40 ms, and timed from its release (a tap is
                    # taken at its release: that is when a player's ring answers him)
                    pin = fwconfig.BUTTON_PINS[i % 12]
                    path.down(pin)
                    time.sleep(0.04)
                    t0 = time.perf_counter()
                    if not path.up(pin):
                        raise RuntimeError(f"the ring did not answer ({type(path).__name__}, "
                                           f"tap {i} of a batch, pin {pin})")
                    samples.append(time.perf_counter() - t0)
                    time.sleep(debounce)
                a, b = percentiles(samples)
                p50.append(a * 1e3)
                p99.append(b * 1e3)
                w1, i1 = path.work_us()
                wk.append((w1 - w0) / per)
                io.append((i1 - i0) / per)
    finally:
        real.close()
        floor.close()
    return [_figure("press_to_ring_p50", "ms", p50s, f50s),
            _figure("press_to_ring_p99", "ms", p99s, f99s),
            _figure("unixport_work_per_press", "us", works, fworks),
            _figure("firmware_link_per_press", "us", ios, fios)]


# The same taps replayed back to back in one MicroPython process, caches warm: the real
# controller (its debounce and minimum press set to 0 so one tap follows another at once) on a
# link of Python objects, beside the floor loop's work for the same moments. The benchmark
# above times each moment milliseconds after the last, as a club's taps come; on a virtual
# machine whose caches go cold within a few milliseconds that is most of the figure.
def _figure(name: str, unit: str, runs: list[float], floors: list[float]) -> dict[str, Any]:
    """A figure beside its floor, repetition by repetition: the ratio is the median of each
    repetition's own ratio (a figure and its floor measured one after the other), as the
    rules' pairs are, so a stall that hits one repetition moves one ratio, not both medians."""
    ratios = [r / f for r, f in zip(runs, floors, strict=True) if f]
    return {"name": name, "unit": unit, "value": round(statistics.median(runs), 3),
            "floor": round(statistics.median(floors), 3),
            "ratio": round(statistics.median(ratios), 2) if ratios else None,
            "runs": [round(r, 3) for r in runs], "floor_runs": [round(r, 3) for r in floors],
            "ratios": [round(r, 2) for r in ratios]}


def percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, int(round(0.99 * (len(ordered) - 1))))]
    return statistics.median(ordered), p99
