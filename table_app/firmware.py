"""`table-app firmware install`: copy the pad controller's firmware onto a Pico, with mpremote."""

from __future__ import annotations

import shlex
import shutil
import subprocess
import sys
from pathlib import Path

FIRMWARE = Path(__file__).resolve().parent.parent / "firmware_bridge"
FILES = ("padlink.py", "ringdraw.py", "fwconfig.py", "controller.py", "main.py")


def install_command(port: str, mpremote: str = "mpremote") -> list[str]:
    """The one mpremote call that copies every file and restarts the controller."""
    return [mpremote, "connect", port, "fs", "cp", *(str(FIRMWARE / f) for f in FILES), ":",
            "+", "reset"]


def install(port: str | None, dry_run: bool = False) -> int:
    from .pads.serial_pads import find_pico

    port = port or find_pico()
    if port is None:
        print("table-app: no Pico found: plug the pad controller in, or give --port",
              file=sys.stderr)
        return 2
    exe = shutil.which("mpremote")
    cmd = install_command(port, exe or "mpremote")
    if dry_run:
        print(shlex.join(cmd))
        return 0
    if exe is None:
        print("table-app: mpremote is not installed (python3 -m pip install mpremote)",
              file=sys.stderr)
        return 2
    proc = subprocess.run(cmd)
    if proc.returncode != 0:
        print(f"table-app: mpremote failed ({proc.returncode})", file=sys.stderr)
        return 2
    print(f"firmware installed on {port}; the controller restarts")
    return 0
