"""`table-app firmware install` calls mpremote with every firmware file."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from table_app.firmware import FILES, FIRMWARE


def _cli(*args: str, path: str | None = None,
         extra: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    # never a real Pico: a test must not flash one that happens to be plugged in
    env = {**os.environ, "TABLE_APP_PORT": "none", **(extra or {})}
    if path is not None:
        env["PATH"] = path
    return subprocess.run([sys.executable, "-m", "table_app", "firmware", "install", *args],
                          capture_output=True, text=True, env=env, timeout=60)


def test_install_runs_mpremote_with_every_file(tmp_path: Path) -> None:
    log = tmp_path / "argv"
    fake = tmp_path / "mpremote"
    copied = tmp_path / "pairing-copied"
    # the fake mpremote keeps what it was given (the pairing file lives only as long as the
    # install)
    fake.write_text(f"#!/bin/sh\nprintf '%s\\n' \"$@\" > {log}\n"
                    f"for a in \"$@\"; do case $a in */pairing.py) cp $a {copied};; esac; done\n")
    fake.chmod(0o755)
    secret = tmp_path / "pad-secret"
    proc = _cli("--port", "/dev/ttyACM7", path=f"{tmp_path}:{os.environ['PATH']}",
                extra={"TABLE_APP_PAD_SECRET": str(secret)})
    assert proc.returncode == 0, proc.stderr
    argv = log.read_text().split("\n")[:-1]
    assert argv[:4] == ["connect", "/dev/ttyACM7", "fs", "cp"]
    assert argv[4:4 + len(FILES)] == [str(FIRMWARE / f) for f in FILES]
    assert argv[4 + len(FILES)].endswith("/pairing.py")
    assert argv[5 + len(FILES):] == [":", "+", "reset"]
    # the Pi made its secret (0600) and wrote the same onto the controller
    assert (secret.stat().st_mode & 0o777) == 0o600 and len(secret.read_bytes().strip()) == 32
    assert copied.read_text() == f"SECRET = {secret.read_bytes().strip()!r}\n"
    for f in FILES:
        assert (FIRMWARE / f).exists()


def test_install_without_mpremote_says_how_to_get_it(tmp_path: Path) -> None:
    proc = _cli("--port", "/dev/ttyACM0", path=str(tmp_path))
    assert proc.returncode == 2 and "pip install mpremote" in proc.stderr


def test_install_without_a_pico_says_so() -> None:
    proc = _cli()
    assert proc.returncode == 2 and "no Pico found" in proc.stderr


def test_dry_run_prints_the_command() -> None:
    proc = _cli("--port", "/dev/ttyACM0", "--dry-run")
    assert proc.returncode == 0 and "connect /dev/ttyACM0 fs cp" in proc.stdout


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
