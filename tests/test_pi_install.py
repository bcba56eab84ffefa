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
    for needed in ("apt packages", "python3-pygame", "user 'mafia'", "dialout",
                   "virtual environment", "Debian's pygame", "cache", "KMSDRM",
                   "/dev/table-pads", "table-app.service", "no login prompt on tty1",
                   "consoleblank=0", "start the table", "sudo table-app check"):
        assert needed in text, (needed, proc.returncode, text, proc.stderr)
    assert len(steps) >= 8 and "nothing was changed" in text
    assert not (tmp_path / "data").exists() and not (tmp_path / "opt").exists()
    bad = subprocess.run(["bash", str(PI / "install.sh"), "--frobnicate"], capture_output=True,
                         text=True, timeout=60)
    assert bad.returncode == 2 and "unknown option" in bad.stderr


def test_an_option_without_its_value_is_a_clear_error() -> None:
    for option in ("--user", "--data", "--prefix"):
        for rest in ([], ["--dry-run"]):
            proc = subprocess.run(["bash", str(PI / "install.sh"), option, *rest],
                                  capture_output=True, text=True, timeout=60)
            assert proc.returncode == 2, (option, proc.stderr)
            assert f"install.sh: {option} takes a value" in proc.stderr
            assert "unbound variable" not in proc.stderr


def _fakes(tmp_path: Path, **tools: str) -> dict[str, str]:
    """A PATH where each named tool is a script of ours, before the system's."""
    bin_ = tmp_path / "bin"
    bin_.mkdir(exist_ok=True)
    for name, body in tools.items():
        (bin_ / name).write_text("#!/bin/sh\n" + body + "\n")
        (bin_ / name).chmod(0o755)
    return {**os.environ, "PATH": f"{bin_}:{os.environ['PATH']}"}


def test_the_install_wants_root_and_says_so(tmp_path: Path) -> None:
    env = _fakes(tmp_path, id='[ "$1" = -u ] && echo 1000 || /usr/bin/id "$@"')
    proc = subprocess.run(["bash", str(PI / "install.sh")], capture_output=True, text=True,
                          env=env, timeout=60)
    assert proc.returncode == 2 and "run it as root: sudo" in proc.stderr


def test_an_overlay_root_is_refused_with_the_way_out(tmp_path: Path) -> None:
    # raspi-config's overlay file system keeps / in RAM: an install there is gone at reboot
    env = _fakes(tmp_path, id='[ "$1" = -u ] && echo 0 || /usr/bin/id "$@"',
                 findmnt='echo overlay')
    proc = subprocess.run(["bash", str(PI / "install.sh")], capture_output=True, text=True,
                          env=env, timeout=60)
    assert proc.returncode == 2
    assert "overlay in RAM" in proc.stderr and "disable_overlayfs" in proc.stderr
    assert "A read-only table" in proc.stderr
    assert "A read-only table" in (PI.parent / "README.md").read_text()


def test_a_failed_step_is_named_with_what_to_do(tmp_path: Path) -> None:
    # the first step (apt) fails here: no network, say; the message names it, and nothing
    # after it runs (the fakes keep every step on this machine from running for real)
    env = _fakes(tmp_path, id='[ "$1" = -u ] && echo 0 || /usr/bin/id "$@"',
                 findmnt="echo ext4", **{"dpkg-query": "exit 1", "apt-cache": "exit 0",
                                         "apt-get": f"echo \"$DEBIAN_FRONTEND\" > {tmp_path}/fe;"
                                                    "echo 'E: no network' >&2; exit 100",
                                         "useradd": f"touch {tmp_path}/ran; exit 0"})
    proc = subprocess.run(["bash", str(PI / "install.sh"), "--prefix", str(tmp_path / "opt")],
                          capture_output=True, text=True, env=env, timeout=60)
    assert proc.returncode != 0
    assert "install.sh: step 1 (apt packages: " in proc.stderr
    assert "failed (exit 100); nothing after it ran" in proc.stderr
    assert not (tmp_path / "ran").exists() and not (tmp_path / "opt").exists()
    # and apt never stops to ask a question on the console
    assert (tmp_path / "fe").read_text() == "noninteractive\n"


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
    for key in ("Type=notify", "WatchdogSec=", "TimeoutAbortSec=", "Restart=on-failure",
                "TABLE_APP_PORT=/dev/table-pads", "SDL_VIDEODRIVER=kmsdrm", "--fullscreen",
                "Conflicts=getty@tty1.service", "WantedBy=multi-user.target"):
        assert key in unit, key
    assert "udev-settle" not in unit       # deprecated: the table waits for its pads itself


def test_the_udev_rule_names_the_controller_and_not_a_debug_probe() -> None:
    rule = next(line for line in (PI / "99-table-pads.rules").read_text().splitlines()
                if line and not line.startswith("#"))
    pairs = dict(part.strip().split("==" if "==" in part else "=", 1)
                 for part in rule.split(","))
    assert pairs['SUBSYSTEM'] == '"tty"'
    assert pairs['ATTRS{idVendor}'] == '"2e8a"' and pairs['ATTRS{idProduct}'] == '"0005"'
    # every controller by its own id too (a big table has two or three)
    assert pairs["SYMLINK+"] == '"table-pads table-pads-%s{serial}"'
    assert pairs["GROUP"] == '"dialout"'
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
    wrapper, env, log = _wrapper(tmp_path, f'echo runuser "$@" >> {tmp_path / "log"}')
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
    assert calls[3:] == ["systemctl reset-failed table-app.service",
                         "systemctl start table-app.service"]
    log.unlink()
    proc = subprocess.run([str(wrapper), "records"], capture_output=True, text=True, env=env,
                          timeout=60)
    assert [c.split()[0] for c in log.read_text().splitlines()] == ["runuser"]  # no stop
    log.unlink()
    proc = subprocess.run([str(wrapper), "firmware", "install", "--dry-run"],
                          capture_output=True, text=True, env=env, timeout=60)
    assert [c.split()[0] for c in log.read_text().splitlines()] == ["runuser"]  # changes nothing


def test_a_fresh_install_makes_the_settings_folder_the_readme_edits(tmp_path: Path) -> None:
    """The README's settings step (`sudo -u mafia nano .../config/table-app/settings.toml`)
    could not save on a fresh install: that folder came only with the pairing secret."""
    proc = subprocess.run(["bash", str(PI / "install.sh"), "--dry-run", "--data",
                           str(tmp_path / "data")], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    text = (PI / "install.sh").read_text()
    assert '"$data/config/table-app"' in text.split('step "data folder')[1].split("\n\n")[0]
    assert "data folder" in proc.stdout


def test_the_uninstall_lists_what_it_undoes_and_keeps_the_data(tmp_path: Path) -> None:
    proc = subprocess.run(["bash", str(PI / "install.sh"), "--uninstall", "--dry-run",
                           "--prefix", str(tmp_path / "opt"), "--data", str(tmp_path / "d")],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    for undone in ("table-app.service", "getty@tty1 unmasked", "udev rule",
                   "/usr/local/bin/table-app", str(tmp_path / "opt")):
        assert undone in proc.stdout, (undone, proc.stdout)
    assert f"kept: {tmp_path / 'd'}" in proc.stdout and "records" in proc.stdout
    assert "nothing was changed" in proc.stdout and "apt packages" not in proc.stdout


def test_the_unit_gives_up_on_a_restart_loop_and_prints_as_it_goes() -> None:
    """A table whose screen was missing restarted every 2.2 s, 69 times, never reaching
    systemd's default start limit; its first line reached the journal only at its exit."""
    unit = (PI / "table-app.service").read_text()
    unit_section = unit.split("[Service]")[0]
    interval = int(unit_section.split("StartLimitIntervalSec=")[1].split()[0])
    burst = int(unit_section.split("StartLimitBurst=")[1].split()[0])
    restart = float(unit.split("RestartSec=")[1].split()[0])
    assert burst * (restart + 0.2) < interval        # a fast loop trips it
    assert "PYTHONUNBUFFERED=1" in unit
    install = (PI / "install.sh").read_text()
    copy = install.split("copy_app() {")[1].split("\n}")[0]
    assert "activating" in copy                      # a looping unit is stopped first


def _wrapper(tmp_path: Path, runuser: str) -> tuple[Path, dict[str, str], Path]:
    log = tmp_path / "log"
    for tool, body in (("systemctl", f'echo systemctl "$@" >> {log}'), ("runuser", runuser),
                       ("chown", "exit 0")):
        fake = tmp_path / tool
        fake.write_text(f"#!/bin/sh\n{body}\n")
        fake.chmod(0o755)
    text = (PI / "table-app.sh").read_text().replace("@USER@", "mafia").replace(
        "@DATA@", "/var/lib/table-app").replace("@EXEC@", "/opt/table-app/venv/bin/table-app")
    wrapper = tmp_path / "table-app"
    wrapper.write_text(text)
    wrapper.chmod(0o755)
    return wrapper, {**os.environ, "PATH": f"{tmp_path}:{os.environ['PATH']}"}, log


@pytest.mark.skipif(os.getuid() != 0, reason="the wrapper re-runs itself with sudo")
def test_help_and_a_missing_controller_leave_the_table_running(tmp_path: Path) -> None:
    wrapper, env, log = _wrapper(tmp_path, f'echo runuser "$@" >> {tmp_path / "log"}')
    for args in (["check", "--help"], ["firmware", "install", "-h"]):
        proc = subprocess.run([str(wrapper), *args], capture_output=True, text=True, env=env,
                              timeout=60)
        assert proc.returncode == 0, proc.stderr
        assert [c.split()[0] for c in log.read_text().splitlines()] == ["runuser"], args
        log.unlink()
    assert not list(Path("/dev").glob("table-pads*"))    # (this machine has no controller)
    proc = subprocess.run([str(wrapper), "firmware", "install"], capture_output=True,
                          text=True, env=env, timeout=60)
    assert [c.split()[0] for c in log.read_text().splitlines()] == ["runuser"]
    assert "stopping the table" not in proc.stdout


@pytest.mark.skipif(os.getuid() != 0, reason="the wrapper re-runs itself with sudo")
def test_a_protocol_sheet_goes_where_the_caller_asks(tmp_path: Path) -> None:
    """`sudo table-app records protocol 5 --out ~/game.pdf` ended in a PermissionError: the
    table's user cannot write in the caller's home. The wrapper has it written in a folder
    of the table's user's and puts it there as the caller."""
    # the app, as the table's user: writes the PDF where --out says, and says so
    wrapper, env, _ = _wrapper(tmp_path, 'for a; do last=${a#--out=}; done; '
                                         'printf "%%PDF" > "$last"; echo "wrote $last"')
    home = tmp_path / "home"
    home.mkdir()
    for args in (["--out", str(home / "game.pdf")], [f"--out={home / 'g2.pdf'}"]):
        proc = subprocess.run([str(wrapper), "records", "protocol", "5", *args],
                              capture_output=True, text=True, env=env, timeout=60)
        assert proc.returncode == 0, proc.stderr
        target = home / ("game.pdf" if len(args) == 2 else "g2.pdf")
        assert target.read_bytes() == b"%PDF"
        assert proc.stdout.strip() == f"wrote {target}"
    proc = subprocess.run([str(wrapper), "records", "protocol", "5", "--out",
                           "/nonexistent/folder/x.pdf"], capture_output=True, text=True,
                          env=env, timeout=60)
    assert proc.returncode == 2 and "cannot write /nonexistent/folder/x.pdf" in proc.stderr


def test_firmware_install_with_nothing_plugged_in_says_so(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]
                                                          ) -> None:
    from table_app.firmware import install
    assert install(str(tmp_path / "table-pads")) == 2
    err = capsys.readouterr().err
    assert "no pad controller is connected" in err and "in use by another program" not in err


@pytest.mark.skipif(os.getuid() != 0, reason="the wrapper re-runs itself with sudo")
def test_records_import_reads_the_callers_file(tmp_path: Path) -> None:
    """`sudo table-app records import ~/games.json`: the table's user cannot read the
    caller's home (0700 on Bookworm). The wrapper reads it as the caller and hands the app a
    copy in a folder of the table's user's; the app's words name the caller's file."""
    home = tmp_path / "home"
    home.mkdir(mode=0o700)
    # the app, as the table's user: the caller's home is closed to it
    wrapper, env, _ = _wrapper(tmp_path, 'for a; do last=$a; done; '
                                         f'case $last in {home}/*) echo "table-app: $last: '
                                         'Permission denied" >&2; exit 2;; esac; '
                                         'if [ "$(cat "$last")" = "{}" ]; then '
                                         'echo "1 games added"; '
                                         'else echo "table-app: $last: not JSON" >&2; exit 2; fi')
    games = home / "games.json"
    games.write_text("{}")
    proc = subprocess.run([str(wrapper), "records", "import", str(games)],
                          capture_output=True, text=True, env=env, timeout=60)
    assert proc.returncode == 0 and proc.stdout.strip() == "1 games added", proc.stderr
    games.write_text("nonsense")
    proc = subprocess.run([str(wrapper), "records", "import", str(games)],
                          capture_output=True, text=True, env=env, timeout=60)
    assert proc.returncode == 2 and proc.stderr.strip() == f"table-app: {games}: not JSON"
