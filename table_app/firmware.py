"""`table-app firmware install`: copy the pad controller's firmware onto a Pico, with mpremote."""

from __future__ import annotations

import shlex
import shutil
import subprocess
import sys
from pathlib import Path

FIRMWARE = Path(__file__).resolve().parent.parent / "firmware_bridge"
FILES = ("padlink.py", "ringdraw.py", "fwconfig.py", "controller.py", "main.py")


def install_command(port: str, mpremote: str = "mpremote",
                    pairing: Path | None = None) -> list[str]:
    """The one mpremote call that copies every file (and the pairing secret) and restarts
    the controller."""
    files = [str(FIRMWARE / f) for f in FILES] + ([str(pairing)] if pairing else [])
    return [mpremote, "connect", port, "fs", "cp", *files, ":", "+", "reset"]


def pairing_secret() -> bytes:
    """This Pi's pairing secret, made once (0600): the controller must prove it holds it
    before the table trusts its buttons or sends it a picture."""
    import os
    import secrets

    from .pads.serial_pads import load_secret, secret_path
    secret = load_secret()
    if secret:
        return secret
    path = secret_path()
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    secret = secrets.token_hex(16).encode()
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(secret + b"\n")
    return secret


def pairing_file(folder: Path, secret: bytes) -> Path:
    """The firmware's `pairing.py`, written in a private folder for mpremote to copy."""
    path = folder / "pairing.py"
    path.write_text(f"SECRET = {secret!r}\n")
    path.chmod(0o600)
    return path


def install(port: str | None, dry_run: bool = False) -> int:
    from .pads.serial_pads import find_pico

    port = port or find_pico()
    if port is None:
        print("table-app: no Pico found: plug the pad controller in, or give --port",
              file=sys.stderr)
        return 2
    exe = shutil.which("mpremote")
    if dry_run:
        print(shlex.join(install_command(port, exe or "mpremote", Path("pairing.py"))))
        return 0
    if exe is None:
        print("table-app: mpremote is not installed (python3 -m pip install mpremote)",
              file=sys.stderr)
        return 2
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        cmd = install_command(port, exe, pairing_file(Path(d), pairing_secret()))
        proc = subprocess.run(cmd)
    if proc.returncode != 0:
        print(f"table-app: mpremote failed ({proc.returncode})", file=sys.stderr)
        return 2
    print(f"firmware installed and paired on {port}; the controller restarts")
    return 0
