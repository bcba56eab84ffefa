"""Slice the pad's printed parts with PrusaSlicer (headless) and keep what it says.

    python3 hardware/slicing.py     # slices pad/*.stl with each profile in slicer/, writes
                                    # slicer/figures.json and the parts lists in README.md

Each part is sliced with each profile in `slicer/`: `petg-readme.ini`, the README's own
(PETG, 0.2 mm layers, 3 perimeters, 20 % gyroid, no supports), and `pla-common.ini`, a
common printer's (PLA, 0.2 mm layers, 2 perimeters, 15 % gyroid, no supports). The print
time and the grams are read from the G-code the slicer writes; a warning from the slicer is
an error. The figures in the README's parts lists are these, never typed: the tests slice
again and compare.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
PAD = HERE / "pad"
PROFILES_DIR = HERE / "slicer"
FIGURES = PROFILES_DIR / "figures.json"
#: the profiles, in the order the README lists them, and what each is
PROFILES = {"petg-readme": "the README's profile: PETG, 3 perimeters, 20 % infill",
            "pla-common": "a common profile: PLA, 2 perimeters, 15 % infill"}
#: what a pad may take, all its printed parts together, with each profile (issue #52)
BUDGET_S = 3 * 3600
BUDGET_G = 70.0


class SlicerWarning(RuntimeError):
    """The slicer warned (or failed) on a part."""


def prusa_slicer() -> str:
    exe = shutil.which("prusa-slicer")
    if exe is None:
        raise SystemExit("prusa-slicer is not installed (sudo apt-get install prusa-slicer)")
    return exe


def seconds(text: str) -> int:
    """'1h 28m 16s' (or '2d 1h 3m 4s', '12m 7s', '45s') in seconds."""
    units = {"d": 86400, "h": 3600, "m": 60, "s": 1}
    parts = re.findall(r"(\d+)([dhms])", text)
    if not parts or re.sub(r"\d+[dhms]|\s", "", text):
        raise ValueError(f"not a slicer's time: {text!r}")
    return sum(int(n) * units[u] for n, u in parts)


def hm(s: int) -> str:
    return f"{s // 3600}h {s % 3600 // 60:02d}m"


def slice_part(stl: Path, profile: Path, workdir: Path) -> dict[str, float]:
    """Slice `stl` with `profile`: {'seconds': print time, 'grams': filament}. Raises
    SlicerWarning on any warning or error the slicer prints."""
    gcode = workdir / f"{stl.stem}-{profile.stem}.gcode"
    run = subprocess.run([prusa_slicer(), "--export-gcode", "--load", str(profile),
                          "--output", str(gcode), str(stl)],
                         capture_output=True, text=True, timeout=600)
    said = [line for line in (run.stdout + run.stderr).splitlines()
            if re.search(r"warn|error", line, re.I)]
    if run.returncode != 0 or said or not gcode.exists():
        raise SlicerWarning(f"{stl.name} with {profile.name} (exit {run.returncode}): "
                            + ("; ".join(said) or run.stderr[-500:]))
    text = gcode.read_text()
    time = re.search(r"^; estimated printing time \(normal mode\) = (.+)$", text, re.M)
    grams = re.search(r"^; total filament used \[g\] = ([\d.]+)$", text, re.M)
    if time is None or grams is None:
        raise SlicerWarning(f"{gcode.name} says no print time or no grams")
    return {"seconds": seconds(time.group(1)), "grams": float(grams.group(1))}


def slice_all(parts: tuple[str, ...]) -> dict[str, dict[str, dict[str, float]]]:
    """{profile: {part: figures}} for each of `parts` (pad/PART.stl), with every profile."""
    out: dict[str, dict[str, dict[str, float]]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for profile in PROFILES:
            out[profile] = {p: slice_part(PAD / f"{p}.stl", PROFILES_DIR / f"{profile}.ini",
                                          Path(tmp)) for p in parts}
    return out


def figures() -> dict[str, dict[str, dict[str, float]]]:
    """What the slicer said last (slicer/figures.json, written by main())."""
    return json.loads(FIGURES.read_text())


def totals(figs: dict[str, dict[str, float]]) -> dict[str, float]:
    return {"seconds": sum(f["seconds"] for f in figs.values()),
            "grams": round(sum(f["grams"] for f in figs.values()), 2)}


def table(figs: dict[str, dict[str, dict[str, float]]] | None = None) -> str:
    """The printed parts, each part's time and grams with each profile, as a markdown table."""
    figs = figs or figures()
    names = list(PROFILES)
    head = "| part | " + " | ".join(f"{p}: time | {p}: g" for p in names) + " |"
    rows = [head, "| --- |" + " --- | --- |" * len(names)]
    for part in figs[names[0]]:
        rows.append(f"| `{part}.stl` | " + " | ".join(
            f"{hm(int(figs[p][part]['seconds']))} | {figs[p][part]['grams']:.1f}"
            for p in names) + " |")
    tot = [totals(figs[p]) for p in names]
    rows.append("| **a pad** | " + " | ".join(
        f"**{hm(int(t['seconds']))}** | **{t['grams']:.1f}**" for t in tot) + " |")
    return "\n".join(rows)


def main() -> int:
    sys.path.insert(0, str(HERE))
    import build
    figs = slice_all(build.PARTS)
    FIGURES.write_text(json.dumps(figs, indent=1, sort_keys=False) + "\n")
    for profile, parts in figs.items():
        t = totals(parts)
        print(f"{profile}: {hm(int(t['seconds']))}, {t['grams']:.1f} g a pad")
    import parts as parts_list
    parts_list.main()
    return 0


if __name__ == "__main__":
    sys.exit(main())
