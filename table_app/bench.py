"""Benchmarks: `python -m table_app.bench [rules] [pads]` prints figures; no time is asserted."""

from __future__ import annotations

import argparse
import json
import os
import queue
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from .rules import find_format
from .rules.bots import play


class _Recorder(random.Random):
    """A Random that writes down every draw the bots make: -1 for random(), -2 for
    getrandbits(), n >= 0 for a choice among n."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.draws: list[int] = []
        self._inside = False

    def random(self) -> float:
        self.draws.append(-1)
        return super().random()

    def getrandbits(self, k: int) -> int:
        if not self._inside:
            self.draws.append(-2)
        return super().getrandbits(k)

    def choice(self, seq: Any) -> Any:
        self.draws.append(len(seq))
        self._inside = True
        try:
            return super().choice(seq)
        finally:
            self._inside = False


def _floor_game(seed: int, draws: list[int], roles: list[str]) -> None:
    """The no-rules floor: the same random draws as one bot game (the deal's shuffle, every
    choice among as many seats, every coin), with no rules between them."""
    random.Random(seed).shuffle(roles)
    rng = random.Random(seed)
    seats = list(range(1, 64))
    for d in draws:
        if d == -1:
            rng.random()
        elif d == -2:
            rng.getrandbits(32)
        else:
            rng.choice(seats[:d])


def rules_figures(fmt_id: str, players: int, games: int, reps: int) -> dict[str, Any]:
    """Bot games per CPU-second beside the no-rules floor, interleaved, `reps` times."""
    fmt = find_format(fmt_id)
    seeds = list(range(games))
    draws = []
    for s in seeds:
        rec = _Recorder(s)
        play(fmt, players, rec)
        draws.append(rec.draws)
    roles = fmt.roles_for(players)
    engine_runs: list[float] = []
    floor_runs: list[float] = []
    for _ in range(reps):
        t = time.process_time()
        for s in seeds:
            play(fmt, players, random.Random(s))
        engine_runs.append(games / max(1e-9, time.process_time() - t))
        # the floor is ~10-30 times quicker: run it as many more times, so both timings
        # are long enough to read
        t = time.process_time()
        for _ in range(20):
            for s, d in zip(seeds, draws, strict=True):
                _floor_game(s, d, list(roles))
        floor_runs.append(20 * games / max(1e-9, time.process_time() - t))
    value = statistics.median(engine_runs)
    floor = statistics.median(floor_runs)
    return {"name": f"rules_{fmt_id}_{players}", "unit": "games per CPU-second",
            "value": round(value, 1), "floor": round(floor, 1),
            "ratio": round(floor / value, 2),
            "runs": [round(v, 1) for v in engine_runs],
            "floor_runs": [round(v, 1) for v in floor_runs]}


RULES_TABLES = (("yakuza", 12), ("classic", 11), ("city", 12), ("city", 30))


def bench_rules(seconds: float, as_json: bool = False) -> list[dict[str, Any]]:
    figures = []
    if not as_json:
        print("rules engine: seeded random bot games, CPU time, beside the no-rules floor")
        print("  (floor: the same random draws, deal shuffle included, with no rules between)")
    for fmt_id, players in RULES_TABLES:
        games = max(50, int(seconds * (150 if players > 12 else 400)))
        f = rules_figures(fmt_id, players, games, reps=5)
        figures.append(f)
        if as_json:
            print(json.dumps(f))
        else:
            spread = f"{min(f['runs']):.0f}-{max(f['runs']):.0f}"
            print(f"  {fmt_id:8} {players:2} seats: {f['value']:8.0f} games/s (runs {spread}), "
                  f"floor {f['floor']:8.0f}/s, ratio {f['ratio']:5.2f} (target <= 8)")
    return figures


def percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, int(round(0.99 * (len(ordered) - 1))))]
    return statistics.median(ordered), p99


def bench_pads(presses: int) -> None:
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    from .pads.events import RawPadEvent
    from .pads.gpio import GpioPads, load_pins

    q: queue.Queue[RawPadEvent] = queue.Queue()
    factory = MockFactory(pin_class=MockPWMPin)
    pins = load_pins(seats=12)
    pads = GpioPads(12, q.put, pins=pins, pin_factory=factory)
    pads.start()
    try:
        samples: list[float] = []
        for i in range(presses):
            seat = 1 + i % 12
            pin = factory.pin(pins.buttons[seat])
            t0 = time.perf_counter()
            pin.drive_low()
            q.get(timeout=1)
            samples.append(time.perf_counter() - t0)
            pin.drive_high()
            q.get(timeout=1)
        med, p99 = percentiles(samples)
        debounce = 30.0
        print(f"pads (gpiozero MockFactory): pin edge -> event on the queue, {presses} presses")
        print(f"  median {med * 1e3:.3f} ms, p99 {p99 * 1e3:.3f} ms "
              f"(target p99 < 2 ms + debounce; the grammar takes the first edge at once, "
              f"so its {debounce:.0f} ms debounce adds nothing)")
    finally:
        pads.close()
        factory.close()


def bench_firmware(presses: int) -> None:
    """Press to ring through the whole path, beside a bare echo over the same pair."""
    import os
    import select
    import threading

    import serial

    from firmware_bridge import fwconfig
    from firmware_bridge.picosim import Firmware

    from .pads import PadPanel, Pressed
    from .pads.events import RawPadEvent
    from .pads.rings import Pick, render
    from .pads.serial_pads import SerialPads

    # the floor: one byte out and back through pty, cable relay, MicroPython and back
    echo = Firmware(script=(
        "import sys, select\n"
        "p = select.poll(); p.register(sys.stdin, select.POLLIN)\n"
        "while True:\n"
        "    p.poll(-1); sys.stdout.buffer.write(sys.stdin.buffer.read(1))\n"), control=False)
    floor: list[float] = []
    try:
        ser = serial.Serial(echo.port, timeout=1)
        for _ in range(presses):
            t0 = time.perf_counter()
            ser.write(b"x")
            if ser.read(1) != b"x":
                raise RuntimeError("the echo did not come back")
            floor.append(time.perf_counter() - t0)
        ser.close()
    finally:
        echo.close()
    del os, select

    fw = Firmware()
    q: queue.Queue[RawPadEvent] = queue.Queue()
    pads = SerialPads(12, q.put, finder=lambda: fw.port or None)
    panel = PadPanel(pads)
    pads.start()
    stop = threading.Event()

    def app_loop() -> None:
        # what the table does: take the edge off the queue, run the grammar, answer the ring
        n = 0
        while not stop.is_set():
            try:
                raw = q.get(timeout=0.1)
            except queue.Empty:
                continue
            for ev in panel.handle(raw):
                if isinstance(ev, Pressed):
                    n += 1
                    panel.show(ev.seat, Pick(frozenset({1 + n % 11}), cursor=1 + n % 11))

    loop = threading.Thread(target=app_loop, daemon=True)
    try:
        if not pads.wait_connected(10):
            raise RuntimeError("no link to the simulated controller")
        loop.start()
        samples: list[float] = []
        n = 0
        for i in range(presses):
            seat = 1 + i % 12
            pin = fwconfig.BUTTON_PINS[seat - 1]
            n += 1
            want = [tuple(c) for c in render(Pick(frozenset({1 + n % 11}), cursor=1 + n % 11))]
            t0 = time.perf_counter()
            fw.set_pin(pin, 0)
            if not fw.wait_ring(seat, lambda px, w=want: px == w, timeout=2):
                raise RuntimeError(f"press {i}: the ring did not answer")
            samples.append(time.perf_counter() - t0)
            fw.set_pin(pin, 1)
            time.sleep(fwconfig.DEBOUNCE_MS / 1000 + 0.005)
            while not q.empty():
                time.sleep(0.001)
    finally:
        stop.set()
        pads.close()
        fw.close()
    med, p99 = percentiles(samples)
    fmed, fp99 = percentiles(floor)
    print(f"pad controller: press -> ring through the whole path, {presses} presses")
    print("  (button shim, MicroPython firmware, pty, pyserial backend, grammar, ring command,")
    print("   firmware render, pixel buffer)")
    print(f"  median {med * 1e3:.2f} ms, p99 {p99 * 1e3:.2f} ms")
    print(f"  floor, a bare pyserial echo over the same pair: median {fmed * 1e3:.2f} ms, "
          f"p99 {fp99 * 1e3:.2f} ms")
    print(f"  p99 is {p99 / fp99:.1f}x the echo's (target: p99 under 10 ms and within 3x)")


def bench_sound() -> None:
    """Starting the mixer and loading one language's whole catalogue (target: under 1 s)."""
    import os
    import subprocess
    import sys

    print("sound: mixer start + every clip and timer sound of one language")
    for lang in ("ka", "en", "uz", "ru"):
        # a fresh process each time: nothing cached, as when the Pi boots
        code = ("import time; t = time.perf_counter()\n"
                "from table_app.sound import SoundBoard\n"
                f"b = SoundBoard({lang!r}); ok = b.start()\n"
                "print(ok, len(b.cache), time.perf_counter() - t)\n")
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             env={**os.environ, "PYGAME_HIDE_SUPPORT_PROMPT": "1"},
                             check=True).stdout.split()
        print(f"  {lang}: {float(out[2]) * 1000:6.0f} ms for {out[1]} sounds "
              f"(device {'open' if out[0] == 'True' else 'missing'}; target < 1000 ms)")


def _first_speech_on_real_clock(journal: Any) -> tuple[Any, Any, Any, Any]:
    """Bots play a yakuza game on a fake clock up to day 1's first speech; from there the
    table runs on the real clock, as at a club. Returns (app, pads, table, clock)."""
    from .clock import MonotonicClock
    from .table.app import ResumedClock
    from .table.virtual import run_virtual, virtual_table

    app, bots, clock, pads = virtual_table(journal, seed=3, sync=True)
    table = run_virtual(app, bots, clock,
                        until=lambda t: t.game.phase == "day" and bool(t.asked))
    real = ResumedClock(MonotonicClock(), clock.now())
    app.clock = real
    pads.clock = real
    return app, pads, table, real


def bench_table(presses: int) -> None:
    """A pad event entering the queue to its ring response going out, through the journal
    (fsync'd), the grammar and the table, on a real clock."""
    import tempfile
    import threading
    from pathlib import Path

    with tempfile.TemporaryDirectory() as d:
        app, pads, table, real = _first_speech_on_real_clock(Path(d) / "bench.journal")
        speaker = next(iter(table.asked))
        if table.timer is not None:       # hold the speech open for the whole measurement
            table.timer.deadline += 3600
            table.timer.next_tick += 3600
        shown = threading.Event()
        stamp = [0.0]

        original = pads._show

        def show(seat: int, picture: object) -> None:
            original(seat, picture)        # type: ignore[arg-type]
            if seat == speaker:
                stamp[0] = time.perf_counter()
                shown.set()
        pads._show = show                  # type: ignore[method-assign]
        stop = threading.Event()

        def loop() -> None:
            while not stop.is_set():
                app.step(0.002)
        worker = threading.Thread(target=loop, daemon=True)
        worker.start()
        samples: list[float] = []
        try:
            for _ in range(presses):
                pads.press(speaker)
                time.sleep(0.04)           # past the debounce guard
                shown.clear()
                t0 = time.perf_counter()
                pads.release(speaker)      # a short press: the cursor moves on his ring
                if not shown.wait(1.0):
                    raise RuntimeError("the ring did not answer")
                samples.append(stamp[0] - t0)
                time.sleep(0.05)           # a finger's pace: past the release's debounce
        finally:
            stop.set()
            worker.join()
            app.close()
        med, p99 = percentiles(samples)
        print(f"table: pad event on the queue -> ring response out, {presses} presses")
        print("  (journal write with fsync, press grammar, table, ring picture)")
        print(f"  median {med * 1e3:.2f} ms, p99 {p99 * 1e3:.2f} ms (target p99 < 5 ms)")


def bench_screen(seconds: float) -> None:
    """CPU share of the host's screen: an idle table, and a speech timer running (the loop,
    the view model at 30 frames a second, drawing only what changed)."""
    import os
    import tempfile
    from pathlib import Path

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame

    from .screen import Screen, host_view
    from .table import Host

    pygame.display.init()
    surface = pygame.display.set_mode((800, 480))
    with tempfile.TemporaryDirectory() as d:
        app, pads, table, real = _first_speech_on_real_clock(Path(d) / "j")
        print(f"host screen: CPU share of one core over {seconds:.0f} s (target < 5 %)")
        for label, paused in (("idle table (paused)", True), ("speech timer running", False)):
            if paused:
                table.handle(Host(("pause",)), real.now())
            screen = Screen(surface)
            cpu0, wall0 = time.process_time(), time.perf_counter()
            next_frame = 0.0
            while time.perf_counter() - wall0 < seconds:
                app.step(0.005)
                now = time.perf_counter()
                if now >= next_frame:
                    next_frame = now + 1 / Screen.FPS
                    if screen.update(host_view(table, now=real.now())):
                        pygame.display.flip()
            cpu = time.process_time() - cpu0
            wall = time.perf_counter() - wall0
            print(f"  {label:22}: {100 * cpu / wall:5.2f} % ({screen.draws} redraws)")
            if paused:
                table.handle(Host(("resume",)), real.now())
        app.close()


_BARE_LOOP = """
import os, pygame, time
pygame.display.init()
surf = pygame.display.set_mode((1280, 480))
while True:
    if pygame.event.wait(1000).type == pygame.QUIT:  # redrawn once a second, as a timer is
        break
    surf.fill((16, 17, 22))
    pygame.draw.circle(surf, (20, 58, 40), (240, 240), 170)
    pygame.display.flip()
"""


def _cpu_seconds(pid: int) -> float:
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def bench_idle(seconds: float, as_json: bool = False) -> dict[str, Any]:
    """The table's CPU share while nothing happens (a game paused on the deal, the host
    screen and the simulator window up), beside a bare pygame loop drawing a window of the
    same size once a second, measured side by side over the same seconds."""
    import subprocess
    import sys
    import tempfile

    env = {**os.environ, "SDL_VIDEODRIVER": os.environ.get("SDL_VIDEODRIVER", "dummy"),
           "SDL_AUDIODRIVER": "dummy", "PYGAME_HIDE_SUPPORT_PROMPT": "1",
           "TABLE_APP_PADS": "sim"}
    runs: list[float] = []
    floors: list[float] = []
    with tempfile.TemporaryDirectory() as d:
        env["XDG_CONFIG_HOME"] = d
        app = subprocess.Popen([sys.executable, "-m", "table_app", "--format", "yakuza",
                                "--new", "--silent", "--journal", f"{d}/j"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        bare = subprocess.Popen([sys.executable, "-c", _BARE_LOOP], env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            time.sleep(4.0)                   # both started, the deal's first turn running
            for _ in range(3):
                a0, b0 = _cpu_seconds(app.pid), _cpu_seconds(bare.pid)
                t0 = time.monotonic()
                time.sleep(seconds / 3)
                wall = time.monotonic() - t0
                runs.append(100 * (_cpu_seconds(app.pid) - a0) / wall)
                floors.append(100 * (_cpu_seconds(bare.pid) - b0) / wall)
        finally:
            for p in (app, bare):
                p.terminate()               # SDL turns it into a quit event
                try:
                    p.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.wait(timeout=10)
    value, floor = statistics.median(runs), statistics.median(floors)
    fig = {"name": "idle_cpu", "unit": "% of one core", "value": round(value, 2),
           "floor": round(floor, 2), "ratio": round(value / floor, 2) if floor else None,
           "runs": [round(r, 2) for r in runs], "floor_runs": [round(r, 2) for r in floors]}
    if as_json:
        print(json.dumps(fig))
    else:
        print("idle: the table's CPU share while a game waits, beside a bare pygame loop "
              "that draws the same window once a second")
        print(f"  table {value:.2f} %, floor {floor:.2f} %, ratio {fig['ratio']} "
              f"(target at most 1.5)")
    return fig


BENCHES: dict[str, Callable[[argparse.Namespace], None]] = {
    "rules": lambda a: bench_rules(a.seconds, a.json),
    "pads": lambda a: bench_pads(a.presses),
    "firmware": lambda a: bench_firmware(a.presses),
    "sound": lambda a: bench_sound(),
    "table": lambda a: bench_table(a.presses),
    "screen": lambda a: bench_screen(max(5.0, a.seconds)),
    "idle": lambda a: bench_idle(max(6.0, a.seconds), a.json),
}


def main() -> None:
    p = argparse.ArgumentParser(prog="python -m table_app.bench")
    p.add_argument("which", nargs="*", choices=list(BENCHES), default=[])
    p.add_argument("--seconds", type=float, default=3.0)
    p.add_argument("--presses", type=int, default=1000)
    p.add_argument("--json", action="store_true", help="one JSON object a figure")
    args = p.parse_args()
    for name in args.which or list(BENCHES):
        BENCHES[name](args)


if __name__ == "__main__":
    main()
