"""Render everything in hardware/ from its sources (OpenSCAD, schemdraw, the firmware's code).

    python3 hardware/build.py         # needs openscad (and xvfb-run for the pictures)

Writes pad/base.stl, pad/hood.stl, pad/diffuser.stl, pad/pad-front.png, pad/pad-back.png,
pad/sightline.svg, controller.svg, pad.svg and power-and-cables.md.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
PAD = HERE / "pad"
PARTS = ("base", "hood", "diffuser")
VIEWS = {"pad-front": "0,0,30,60,0,25,400", "pad-back": "0,0,30,60,0,205,400"}


def openscad() -> str:
    exe = shutil.which("openscad")
    if exe is None:
        raise SystemExit("openscad is not installed (sudo apt-get install openscad)")
    return exe


def render_stl(part: str, out: Path) -> None:
    """One part of the pad as an STL file."""
    subprocess.run([openscad(), "-q", "-D", f'part="{part}"', "-o", str(out),
                    str(PAD / "pad.scad")], check=True, timeout=300)


def render_png(camera: str, out: Path) -> None:
    # OpenSCAD draws pictures with OpenGL: on a machine with no screen, in a virtual one
    cmd = [openscad(), "-q", "-D", 'part="assembly"', "--imgsize=800,600",
           f"--camera={camera}", "--colorscheme=Tomorrow", "-o", str(out),
           str(PAD / "pad.scad")]
    if shutil.which("xvfb-run"):
        cmd = ["xvfb-run", "-a", *cmd]
    subprocess.run(cmd, check=True, timeout=300)


def main() -> int:
    sys.path.insert(0, str(HERE))
    sys.path.insert(0, str(PAD))
    import plan
    import schematic
    import sightline

    for part in PARTS:
        render_stl(part, PAD / f"{part}.stl")
    for name, camera in VIEWS.items():
        render_png(camera, PAD / f"{name}.png")
    (PAD / "sightline.svg").write_text(sightline.svg())
    schematic.main()
    plan.main()
    import parts
    parts.main()
    return 0


if __name__ == "__main__":
    sys.exit(main())
