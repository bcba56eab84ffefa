"""Render everything in hardware/ from its sources (OpenSCAD, schemdraw, the firmware's code).

    python3 hardware/build.py         # needs openscad (and xvfb-run for the pictures)

Writes the pad's printed parts as they print (pad/base.stl, collar.stl, hood.stl, diffuser.stl),
the hood's test coupon (pad/coupon.stl), the whole pad in place (pad/assembled.stl), its
pictures (pad-front.png, pad-back.png, pad-exploded.png, pad-section.png), pad/sightline.svg,
controller.svg, pad.svg, pi-rings.svg, power-and-cables.md and the parts lists in README.md.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
PAD = HERE / "pad"
#: the printed parts, each laid as it prints; and the whole pad in place
PARTS = ("base", "collar", "hood", "diffuser")
ASSEMBLED = "assembled"
#: a few of the hood's ridges, to print first (not one of the pad's parts)
COUPON = "coupon"
#: the pictures: name -> (what pad.scad draws, the camera: translate x,y,z, rotate x,y,z,
#: distance)
VIEWS = {"pad-front": ("assembly", "0,0,40,60,0,25,420"),
         "pad-back": ("assembly", "0,0,40,60,0,205,420"),
         "pad-exploded": ("exploded", "0,-30,80,70,0,35,750"),
         "pad-section": ("section", "0,0,45,90,0,90,380")}


def openscad() -> str:
    exe = shutil.which("openscad")
    if exe is None:
        raise SystemExit("openscad is not installed (sudo apt-get install openscad)")
    return exe


def render_stl(part: str, out: Path) -> None:
    """One part of the pad as an STL file."""
    subprocess.run([openscad(), "-q", "-D", f'part="{part}"', "-o", str(out),
                    str(PAD / "pad.scad")], check=True, timeout=300)


def render_png(view: str, camera: str, out: Path) -> None:
    # OpenSCAD draws pictures with OpenGL: on a machine with no screen, in a virtual one
    cmd = [openscad(), "-q", "-D", f'part="{view}"', "--imgsize=800,600",
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

    for part in (*PARTS, ASSEMBLED, COUPON):
        render_stl(part, PAD / f"{part}.stl")
    for name, (view, camera) in VIEWS.items():
        render_png(view, camera, PAD / f"{name}.png")
    (PAD / "sightline.svg").write_text(sightline.svg())
    readme = HERE / "README.md"
    readme.write_text(sightline.render(readme.read_text()))
    schematic.main()
    plan.main()
    import parts
    parts.main()
    return 0


if __name__ == "__main__":
    sys.exit(main())
