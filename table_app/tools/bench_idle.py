"""`bench idle`: what the table costs while nothing happens, and how long it takes to start.

The floor is a bare pygame window of the table's size that waits on its events with a
one-second tick and redraws on it, as a clock on the screen does: what any pygame app on this
machine costs at rest (SDL's own event wait sets its wakeups), started and measured beside the
table in the same run. Three screens of the table, each left alone: the setup screen, a city
night window nobody presses in, and a day's first speech; each is reached by starting the app
on a journal the virtual table wrote up to that point, so the real window, its pads' simulator
and its timers run as at a club.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from .bench_path import _figure

#: the floor: a window that waits on its events, redrawn once a second (as a running clock
#: is); it says READY once its first picture is up, as the table does at its setup screen
BARE_WINDOW = """
import os, socket, pygame
pygame.display.init()
surf = pygame.display.set_mode((1280, 480))
surf.fill((16, 17, 22))
pygame.display.flip()
socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM).sendto(b"READY=1", os.environ["NOTIFY_SOCKET"])
while pygame.event.wait(1000).type != pygame.QUIT:
    surf.fill((16, 17, 22))
    pygame.draw.circle(surf, (20, 58, 40), (240, 240), 170)
    pygame.display.flip()
"""

#: the screens measured: the setup screen (no journal), and the city at 12 stopped where
#: the virtual table's bots reach a night window and a speech
SCREENS = ("setup", "night", "speech")
#: targets, from the Pi appliance's issue: a person's, against the bare window's cost
TARGETS = {"cpu": "at most 1.2x the floor", "wakeups": "at most the floor's",
           "start": "at most 1.5x the floor"}


def cpu_seconds(pid: int) -> float:
    """A process's CPU time, all its threads (the exited ones too), in seconds: Linux's CPU
    clock of that process, the id glibc's clock_getcpuclockid makes. /proc/<pid>/stat
    counts in clock ticks of 10 ms, so a 2 s window of an idle loop read in steps of 0.5 %
    and its ratio jumped between 1.2 and 1.6 on one tick; it is the fallback elsewhere."""
    try:
        return time.clock_gettime((~pid << 3) | 2)       # CPUCLOCK_SCHED of the process
    except (OSError, OverflowError):
        pass
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def wakeups(pid: int) -> int:
    """How many times a process's living threads have been switched in so far (their
    voluntary and involuntary context switches): each time one woke, or was woken."""
    total = 0
    for status in Path(f"/proc/{pid}/task").glob("*/status"):
        try:
            for line in status.read_text().splitlines():
                if line.startswith(("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches")):
                    total += int(line.split()[1])
        except OSError:                  # a thread that ended between the listing and now
            continue
    return total


def _env(home: str) -> dict[str, str]:
    # (the table's modules as the installed table has them, compiled: install.sh compiles
    # them, and a machine that writes no bytecode, as this project's test runs do, made
    # every start compile 35 of them, about a fifth of the start; the bare window's pygame was
    # compiled when pip installed it)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    return {**env, "PYTHONPYCACHEPREFIX": f"{home}/bytecode",
            "SDL_VIDEODRIVER": os.environ.get("SDL_VIDEODRIVER", "dummy"),
            "SDL_AUDIODRIVER": "dummy", "PYGAME_HIDE_SUPPORT_PROMPT": "1",
            "TABLE_APP_PADS": "sim", "XDG_CONFIG_HOME": f"{home}/config",
            "XDG_STATE_HOME": f"{home}/state", "HOME": home}


def _started(cmd: list[str], env: dict[str, str], folder: str) -> tuple[Any, float]:
    """`cmd` started; returned once it says READY=1 on its notify socket (as systemd hears
    the table), with the seconds that took."""
    path = f"{folder}/notify-{time.monotonic_ns()}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(path)
        sock.settimeout(60)
        t0 = time.monotonic()
        proc = subprocess.Popen(cmd, env={**env, "NOTIFY_SOCKET": path},
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            while not sock.recv(4096).startswith(b"READY=1"):
                pass
        except TimeoutError:
            _stop(proc)
            raise RuntimeError(f"{cmd[-1]} never said READY") from None
        return proc, time.monotonic() - t0


def _stop(proc: Any) -> None:
    proc.terminate()                      # SDL turns it into a quit event
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=10)


def _journal(screen: str, path: Path) -> None:
    """A journal of a city game of 12 the table's bots played up to `screen`."""
    from ..table.virtual import run_virtual, virtual_table

    app, bots, clock, _ = virtual_table(path, seed=5, fmt_id="city", players=12, seats=12,
                                        lang="en")
    if screen == "night":
        run_virtual(app, bots, clock,
                    until=lambda t: t.game.phase == "night" and bool(t.asked))
    else:
        run_virtual(app, bots, clock,
                    until=lambda t: t.game.phase == "day" and t.game.step == "speeches")
    app.close()


def _app(journal: str) -> list[str]:
    return [sys.executable, "-m", "table_app", "--silent", "--journal", journal]


def measure(seconds: float) -> list[dict[str, Any]]:
    """Start to READY (three starts of each, one after the other), then each screen's CPU
    share and wakeups a second beside the bare window's over the same three windows."""
    figs = []
    with tempfile.TemporaryDirectory() as d:
        env = _env(d)
        starts: list[float] = []
        floor_starts: list[float] = []
        # a first start, not counted, writes the bytecode (as the install does)
        _stop(_started(_app(f"{d}/warm"), env, d)[0])
        for i in range(3):
            shutil.rmtree(f"{d}/config", ignore_errors=True)
            app, took = _started(_app(f"{d}/start{i}"), env, d)
            _stop(app)
            bare, floor_took = _started([sys.executable, "-c", BARE_WINDOW], env, d)
            _stop(bare)
            starts.append(took)
            floor_starts.append(floor_took)
        figs.append(_figure("start_to_ready", "s", starts, floor_starts))
        for screen in SCREENS:
            journal = Path(d) / f"{screen}.journal"
            if screen != "setup":
                _journal(screen, journal)
            app, _ = _started(_app(str(journal)), env, d)
            cpu: list[float] = []
            cpu_floor: list[float] = []
            woke: list[float] = []
            woke_floor: list[float] = []
            bare = None
            try:
                # (inside: a bare window that never came up left the table running, and
                # tables left behind made later runs' figures)
                bare, _ = _started([sys.executable, "-c", BARE_WINDOW], env, d)
                time.sleep(2.0)                      # both up, their first pictures drawn
                for _ in range(3):
                    a0, b0 = cpu_seconds(app.pid), cpu_seconds(bare.pid)
                    w0, v0 = wakeups(app.pid), wakeups(bare.pid)
                    t0 = time.monotonic()
                    time.sleep(seconds / 3)
                    wall = time.monotonic() - t0
                    cpu.append(100 * (cpu_seconds(app.pid) - a0) / wall)
                    cpu_floor.append(100 * (cpu_seconds(bare.pid) - b0) / wall)
                    woke.append((wakeups(app.pid) - w0) / wall)
                    woke_floor.append((wakeups(bare.pid) - v0) / wall)
            finally:
                _stop(app)
                if bare is not None:
                    _stop(bare)
            figs.append(_figure(f"idle_cpu_{screen}", "% of a core", cpu, cpu_floor))
            figs.append(_figure(f"idle_wakeups_{screen}", "/s", woke, woke_floor))
    for f in figs:
        f["target"] = TARGETS[f["name"].split("_")[1] if f["name"].startswith("idle")
                              else "start"]
    return figs
