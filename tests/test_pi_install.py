"""The Raspberry Pi install, as far as a machine that is not a Pi allows: the script's dry
run lists every step and changes nothing, systemd accepts the unit it installs, the udev rule
names the controller, and the app speaks to systemd."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

PI = Path(__file__).parent.parent / "hardware" / "pi"


def test_the_dry_run_lists_every_step_and_changes_nothing(tmp_path: Path) -> None:
    proc = subprocess.run(["bash", str(PI / "install.sh"), "--dry-run", "--data",
                           str(tmp_path / "data"), "--prefix", str(tmp_path / "opt")],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    steps = [line for line in proc.stdout.splitlines()
             if line[:3].strip().rstrip(".").isdigit()]
    text = proc.stdout
    for needed in ("apt packages", "python3-lgpio", "python3-pygame", "user 'mafia'",
                   "dialout", "virtual environment", "/dev/table-pads", "table-app.service",
                   "consoleblank=0", "enable and start", "sudo table-app check"):
        assert needed in text, (needed, proc.returncode, text, proc.stderr)
    assert len(steps) >= 8 and "nothing was changed" in text
    assert not (tmp_path / "data").exists() and not (tmp_path / "opt").exists()
    bad = subprocess.run(["bash", str(PI / "install.sh"), "--frobnicate"], capture_output=True,
                         text=True, timeout=60)
    assert bad.returncode == 2 and "unknown option" in bad.stderr


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="no systemd-analyze")
def test_systemd_accepts_the_unit(tmp_path: Path) -> None:
    unit = (PI / "table-app.service").read_text()
    unit = unit.replace("@USER@", "root").replace("@DATA@", str(tmp_path)).replace(
        "@EXEC@", shutil.which("true") or "/bin/true")
    path = tmp_path / "table-app.service"
    path.write_text(unit)
    proc = subprocess.run(["systemd-analyze", "verify", str(path)], capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "Unknown key" not in proc.stderr and "Unknown section" not in proc.stderr
    for key in ("Type=notify", "WatchdogSec=", "Restart=on-failure",
                "TABLE_APP_PORT=/dev/table-pads", "SDL_VIDEODRIVER=kmsdrm", "--fullscreen",
                "WantedBy=multi-user.target"):
        assert key in unit, key


def test_the_udev_rule_names_the_controller_and_not_a_debug_probe() -> None:
    rule = next(line for line in (PI / "99-table-pads.rules").read_text().splitlines()
                if line and not line.startswith("#"))
    pairs = dict(part.strip().split("==" if "==" in part else "=", 1)
                 for part in rule.split(","))
    assert pairs['SUBSYSTEM'] == '"tty"'
    assert pairs['ATTRS{idVendor}'] == '"2e8a"' and pairs['ATTRS{idProduct}'] == '"0005"'
    assert pairs["SYMLINK+"] == '"table-pads"' and pairs["GROUP"] == '"dialout"'
    assert pairs["MODE"] == '"0660"'


def test_the_app_tells_systemd_it_is_ready_and_alive(tmp_path: Path) -> None:
    sock_path = tmp_path / "notify.sock"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    server.bind(str(sock_path))
    server.settimeout(60)
    env = {**os.environ, "NOTIFY_SOCKET": str(sock_path), "WATCHDOG_USEC": "200000",
           "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "TABLE_APP_PADS": "fake",
           "XDG_CONFIG_HOME": str(tmp_path)}
    proc = subprocess.Popen([sys.executable, "-m", "table_app", "--format", "yakuza", "--new",
                             "--silent", "--journal", str(tmp_path / "j")],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    try:
        said = [server.recv(4096).decode() for _ in range(3)]
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        server.close()
    assert said[0].startswith("READY=1") and "MAFIA.GE" in said[0]
    assert said[1:] == ["WATCHDOG=1", "WATCHDOG=1"]


def test_the_admin_command_stops_the_table_for_check_and_firmware(tmp_path: Path) -> None:
    import os
    log = tmp_path / "log"
    for tool, code in (("systemctl", 0), ("runuser", 0)):
        fake = tmp_path / tool
        fake.write_text(f"#!/bin/sh\necho {tool} \"$@\" >> {log}\nexit {code}\n")
        fake.chmod(0o755)
    text = (PI / "table-app.sh").read_text().replace("@USER@", "mafia").replace(
        "@DATA@", "/var/lib/table-app").replace("@EXEC@", "/opt/table-app/venv/bin/table-app")
    wrapper = tmp_path / "table-app"
    wrapper.write_text(text)
    wrapper.chmod(0o755)
    env = {**os.environ, "PATH": f"{tmp_path}:{os.environ['PATH']}"}
    if os.getuid() != 0:
        pytest.skip("the wrapper re-runs itself with sudo when not root")
    proc = subprocess.run([str(wrapper), "check", "--wait", "5"], capture_output=True,
                          text=True, env=env, timeout=60)
    assert proc.returncode == 0, proc.stderr
    calls = log.read_text().splitlines()
    assert calls[0] == "systemctl is-active --quiet table-app.service"
    assert calls[1] == "systemctl stop table-app.service"
    assert calls[2].startswith("runuser -u mafia -- env XDG_STATE_HOME=/var/lib/table-app ")
    assert calls[2].endswith("/opt/table-app/venv/bin/table-app check --wait 5")
    assert calls[3] == "systemctl start table-app.service"
    log.unlink()
    proc = subprocess.run([str(wrapper), "records"], capture_output=True, text=True, env=env,
                          timeout=60)
    assert [c.split()[0] for c in log.read_text().splitlines()] == ["runuser"]  # no stop
