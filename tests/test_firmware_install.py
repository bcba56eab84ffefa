"""`table-app firmware install`: mpremote against a simulated Pico (the real firmware in a real
MicroPython, with a flash folder, a REPL and resets), first install and update."""

from __future__ import annotations

import os
import queue
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from pad_rigs import until

from firmware_bridge import fwconfig
from table_app.admin.firmware import FILES, FIRMWARE
from table_app.clock import MonotonicClock
from table_app.pads.events import PadLink
from table_app.pads.serial_pads import SerialPads
from table_app.tools.picosim import Firmware


def _cli(*args: str, path: str | None = None,
         extra: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    # never a real Pico: a test must not flash one that happens to be plugged in
    env = {**os.environ, "TABLE_APP_PORT": "none", **(extra or {})}
    if path is not None:
        env["PATH"] = path
    return subprocess.run([sys.executable, "-m", "table_app", "firmware", "install", *args],
                          capture_output=True, text=True, env=env, timeout=180)


def _board(tmp_path: Path, version: str | None, paired: bool = False) -> Firmware:
    """A simulated Pico: `version` of our firmware in its flash, or None for a new Pico with
    nothing but MicroPython; `paired` with this run's table."""
    flash = tmp_path / "flash"
    flash.mkdir()
    if version is not None:
        for f in FILES:
            shutil.copy(FIRMWARE / f, flash / f)
        if paired:
            from table_app.pads.serial_pads import load_secret
            (flash / "pairing.py").write_text(f"SECRET = {load_secret()!r}\n")
        cfg = flash / "fwconfig.py"
        cfg.write_text(cfg.read_text().replace(f'FIRMWARE = "{fwconfig.FIRMWARE}"',
                                               f'FIRMWARE = "{version}"'))
    fw = Firmware(flash=flash)
    end = time.monotonic() + 10
    while not fw.link.exists() and time.monotonic() < end:
        time.sleep(0.05)
    return fw


def _installed(fw: Firmware, secret: Path) -> None:
    flash = fw.flash
    assert flash is not None
    for f in FILES:
        assert (flash / f).read_bytes() == (FIRMWARE / f).read_bytes(), f
    assert (flash / "pairing.py").read_text() == f"SECRET = {secret.read_bytes().strip()!r}\n"
    assert not (flash / "safemode").exists()
    # and the table itself now connects to it, paired, with no update to offer
    got: queue.Queue[object] = queue.Queue()
    pads = SerialPads(12, got.put, MonotonicClock(), finder=lambda: str(fw.link),
                      secret=secret.read_bytes().strip())
    pads.start()
    try:
        assert pads.wait_connected(10)
        assert pads.firmware == fwconfig.FIRMWARE
        links = []
        while not any(isinstance(e, PadLink) for e in links):
            links.append(got.get(timeout=5))
        assert any(isinstance(e, PadLink) and e.up and "update" not in e.reason
                   for e in links), links
    finally:
        pads.close()


def test_an_update_replaces_the_running_firmware(tmp_path: Path) -> None:
    fw = _board(tmp_path, "0.0.9")
    try:
        secret = tmp_path / "pad-secret"
        proc = _cli(extra={"TABLE_APP_PORT": str(fw.link),
                           "TABLE_APP_PAD_SECRET": str(secret)})
        assert proc.returncode == 0, proc.stdout + proc.stderr + fw.stderr()
        out = proc.stdout
        # the handshake told the old version; the new one answers, paired with this Pi
        assert "the controller runs firmware 0.0.9 (protocol 4, 12 pads), not paired" in out
        assert "restart into safe mode" in out
        assert (f"the controller now runs firmware {fwconfig.FIRMWARE} (protocol 4, 12 pads), "
                f"paired with this table") in out
        assert fw.boots == 3            # power-up, safe mode, the new firmware
        _installed(fw, secret)
    finally:
        fw.close()


def test_an_update_reaches_a_controller_nobody_read_for_a_while(tmp_path: Path) -> None:
    # `sudo table-app firmware install` stops the table, and the controller, unread, holds
    # back its heartbeats after 192 bytes (a few seconds): the install took the silence for a
    # bare MicroPython, and mpremote could not reach the REPL past the running firmware
    fw = _board(tmp_path, "0.0.9")
    try:
        time.sleep(6)
        secret = tmp_path / "pad-secret"
        proc = _cli(extra={"TABLE_APP_PORT": str(fw.link),
                           "TABLE_APP_PAD_SECRET": str(secret)})
        assert proc.returncode == 0, proc.stdout + proc.stderr + fw.stderr()
        assert "the controller runs firmware 0.0.9" in proc.stdout
        assert fw.boots == 3
        _installed(fw, secret)
    finally:
        fw.close()


def test_a_new_pico_with_only_micropython_gets_the_firmware(tmp_path: Path) -> None:
    fw = _board(tmp_path, None)
    try:
        secret = tmp_path / "pad-secret"
        proc = _cli(extra={"TABLE_APP_PORT": str(fw.link),
                           "TABLE_APP_PAD_SECRET": str(secret)})
        assert proc.returncode == 0, proc.stdout + proc.stderr + fw.stderr()
        assert "no running controller" in proc.stdout
        assert "now runs firmware" in proc.stdout and fw.boots == 2
        _installed(fw, secret)
    finally:
        fw.close()


def test_an_install_while_the_table_holds_the_port_says_to_stop_it(tmp_path: Path) -> None:
    # (a controller paired with the running table: one it does not trust it lets go of)
    fw = _board(tmp_path, fwconfig.FIRMWARE, paired=True)
    pads = SerialPads(12, lambda e: None, MonotonicClock(), finder=lambda: str(fw.link))
    pads.start()
    try:
        assert until(lambda: pads.reader is not None and pads.reader.alive)
        proc = _cli(extra={"TABLE_APP_PORT": str(fw.link),
                           "TABLE_APP_PAD_SECRET": str(tmp_path / "pad-secret")})
        assert proc.returncode == 2
        assert "in use" in proc.stderr and "systemctl stop table-app" in proc.stderr
        assert fw.boots == 1            # nothing reached the controller
    finally:
        pads.close()
        fw.close()


def test_install_finds_the_mpremote_beside_the_app_whatever_path_says(tmp_path: Path) -> None:
    # `sudo table-app firmware install` runs with a PATH that has no venv in it: the tool
    # installed with the app is found all the same
    proc = _cli("--port", "/dev/ttyACM0", "--dry-run", path=str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith(f"{sys.executable} -m mpremote connect /dev/ttyACM0 ")


def test_install_without_mpremote_says_how_to_get_it(tmp_path: Path) -> None:
    # a Python with no mpremote module, and none on PATH
    (tmp_path / "sitecustomize.py").write_text(
        "import importlib.util, sys\n"
        "real = importlib.util.find_spec\n"
        "importlib.util.find_spec = lambda n, *a: None if n == 'mpremote' else real(n, *a)\n")
    proc = _cli("--port", "/dev/ttyACM0", path=str(tmp_path),
                extra={"PYTHONPATH": str(tmp_path)})
    assert proc.returncode == 2 and "pip install mpremote" in proc.stderr


def test_install_without_a_pico_says_so() -> None:
    proc = _cli()
    assert proc.returncode == 2 and "no Pico found" in proc.stderr


def test_dry_run_prints_the_command() -> None:
    proc = _cli("--port", "/dev/ttyACM0", "--dry-run")
    assert proc.returncode == 0 and "connect /dev/ttyACM0 resume exec" in proc.stdout
    # the compiled firmware, the source of main.py and fwconfig.py, the pairing secret
    assert " compiled/controller.mpy :controller.mpy" in proc.stdout
    assert "firmware_bridge/fwconfig.py :fwconfig.py" in proc.stdout
    assert "controller.py :" not in proc.stdout


def test_the_controller_is_found_by_vendor_and_product_or_named(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from types import SimpleNamespace

    from serial.tools import list_ports

    from table_app.pads import serial_pads
    ports = [SimpleNamespace(device="/dev/ttyACM0", vid=0x2E8A, pid=0x000C),   # a Debug Probe
             SimpleNamespace(device="/dev/ttyACM1", vid=0x2E8A, pid=0x0005)]   # MicroPython
    monkeypatch.setattr(list_ports, "comports", lambda: ports)
    monkeypatch.delenv("TABLE_APP_PORT", raising=False)
    assert serial_pads.find_pico() == "/dev/ttyACM1"
    monkeypatch.setenv("TABLE_APP_PORT", "/dev/table-pads")
    assert serial_pads.find_pico() == "/dev/table-pads"
    monkeypatch.setenv("TABLE_APP_PORT", "none")
    assert serial_pads.find_pico() is None


def test_an_install_with_an_unreadable_pairing_secret_says_so_and_keeps_it(
        tmp_path: Path) -> None:
    # it took an unreadable secret for none and wrote a new one over it (or died trying)
    fw = _board(tmp_path, None)
    secret = tmp_path / "pad-secret"
    secret.mkdir()
    (secret / "kept").write_text("x")
    try:
        proc = _cli(extra={"TABLE_APP_PORT": str(fw.link), "TABLE_APP_PAD_SECRET": str(secret)})
    finally:
        fw.close()
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr
    assert f"the pairing secret {secret} cannot be read" in proc.stderr
    assert (secret / "kept").read_text() == "x" and fw.boots == 1


def test_one_install_puts_the_firmware_on_every_controller_of_a_big_table(
        tmp_path: Path) -> None:
    # A table of 30 has three controllers on the Pi's USB. One `table-app firmware install`
    # updates each in turn, and after each board's resets finds that same board again (it
    # installed onto the first board only, and found "the first Pico" again after another
    # board's reset).
    boards = []
    try:
        for k in range(3):
            folder = tmp_path / f"board{k}"
            folder.mkdir()
            boards.append(_board(folder, "0.0.9"))
        secret = tmp_path / "pad-secret"
        proc = _cli(extra={"TABLE_APP_PORT": ",".join(str(fw.link) for fw in boards),
                           "TABLE_APP_PAD_SECRET": str(secret)})
        assert proc.returncode == 0, (proc.stdout + proc.stderr
                                      + "".join(fw.stderr() for fw in boards))
        out = proc.stdout
        assert "3 pad controllers found: installing on each in turn" in out
        assert out.count("the controller runs firmware 0.0.9") == 3
        assert out.count(f"the controller now runs firmware {fwconfig.FIRMWARE}") == 3
        assert f"all 3 controllers run firmware {fwconfig.FIRMWARE}" in out
        for fw in boards:
            assert fw.boots == 3, out     # power-up, safe mode, the new firmware: each its own
            _installed(fw, secret)
    finally:
        for fw in boards:
            fw.close()


def test_an_older_controller_s_reply_is_read_as_its_protocol_wrote_it() -> None:
    # protocol 3 (firmware 0.5) had no nonce before the proof: read as protocol 4's, its
    # version was cut in two (the install said "firmware 614c311b7e5b2d")
    from firmware_bridge import padlink as pl
    from table_app.admin.firmware_probe import reply_fields
    old = (bytes([3, 12, 12]) + b"\x01\x02\x03\x04" + b"p" * 8 + b"0.5.2 e6614c311b7e5b2d")
    got = reply_fields(old)
    assert got["version"] == "0.5.2 e6614c311b7e5b2d" and got["proof"] == b"p" * 8
    assert got["protocol"] == 3 and "nonce" not in got
    new = pl.hello_reply(b"s", b"c" * 8, pl.PROTOCOL, 12, 12, b"\x01\x02\x03\x04", b"n" * 8,
                         "0.6.0 e6614c311b7e5b2d")
    got = reply_fields(new)
    assert got["version"] == "0.6.0 e6614c311b7e5b2d" and got["nonce"] == b"n" * 8


class _Port:
    """A controller's port on a clock of its own (each read takes 0.05 s of it): a bare
    MicroPython's REPL, which answers a Return with its prompt, or a running firmware that
    first speaks `late` seconds in (an emulated Pico on a loaded machine)."""

    def __init__(self, repl: bool, late: float = 0.0) -> None:
        self.repl, self.late, self.now, self.out = repl, late, 0.0, b""

    def write(self, data: bytes) -> int:
        if self.repl and b"\r" in data:
            self.out += b"\r\n>>> "
        return len(data)

    def read(self, n: int) -> bytes:
        self.now += 0.05
        if not self.repl and self.now >= self.late:
            from firmware_bridge import padlink as pl
            self.out += pl.frame(pl.ACK, 0, b"\x01")          # a frame: it runs
        data, self.out = self.out[:n], self.out[n:]
        return data


def test_the_install_tells_a_bare_micropython_by_its_prompt_not_by_its_silence(
        monkeypatch: Any) -> None:
    """CI's run on a loaded machine: an emulated controller still starting when the 6 s of
    listening were over was taken for a bare MicroPython, and mpremote then could not reach a
    REPL past the firmware. What answers decides now: the REPL's prompt at once, a firmware's
    frames however late (up to a ceiling for a board that says nothing at all)."""
    import inspect

    import pytest

    from table_app.admin import firmware_probe as fp
    listen = inspect.signature(fp.probe).parameters["listen"].default     # the install's
    for port, heard in ((_Port(repl=True), False), (_Port(repl=False, late=9.0), True)):
        monkeypatch.setattr(fp.time, "monotonic", lambda p=port: p.now)
        if heard:                 # heard as a firmware (this fake does not do the handshake)
            with pytest.raises(fp.FirmwareError, match="does not answer the handshake"):
                fp._probe(port, "ttyX", b"", listen, False)
        else:
            assert fp._probe(port, "ttyX", b"", listen, False) is None
            assert port.now < 1.0                   # at its first prompt, not after listening
