"""The build: everything is in pyproject.toml but the rules engine's compiled modules.

The engine's hot modules (actions, effects, roles, the win tally, the state, the night, the
day, the game and the bots) are built with mypyc into C extensions where a C compiler and
Python's headers are at hand: the same typed source, every check kept, two to three times
quicker (see README, "Tests and benchmarks"). Without a compiler, or with TABLE_APP_PURE=1,
the package installs as plain Python and plays the same games. `table_app/engine_build.py`
makes sure a compiled copy older than its source is never used.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
RULES = Path("table_app") / "rules"
#: the modules a game's every action passes through; formats (hooks a club may subclass),
#: the script reader and the views stay interpreted
COMPILED = ("actions", "effects", "roles", "tally", "state", "night", "day", "engine", "bots")
MANIFEST = "_compiled.json"


def _sources_hash() -> dict[str, str]:
    return {m: hashlib.sha256((HERE / RULES / f"{m}.py").read_bytes()).hexdigest()
            for m in COMPILED}


def _extensions() -> list:
    if os.environ.get("TABLE_APP_PURE") == "1":
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        print("table-app: mypyc is not at hand; the rules engine stays interpreted",
              file=sys.stderr)
        return []
    paths = [str(RULES / f"{m}.py") for m in COMPILED]
    try:
        return mypycify(paths, opt_level="3", verbose=False)
    except (Exception, SystemExit) as exc:     # mypyc reports type errors by exiting
        print(f"table-app: the rules engine stays interpreted (mypyc: {exc})", file=sys.stderr)
        return []


class OptionalBuild(build_ext):
    """Builds the compiled engine if it can; a machine without a C compiler gets the same
    engine interpreted. A manifest of the sources' hashes goes beside a finished build."""

    def run(self) -> None:
        out = (HERE if self.inplace else Path(self.build_lib)) / RULES / MANIFEST
        if out.exists():
            out.unlink()           # a half-finished build is never taken for a whole one
        try:
            super().run()
        except Exception as exc:   # no compiler, no Python headers: distutils' errors vary
            print(f"table-app: the rules engine stays interpreted (build: {exc})",
                  file=sys.stderr)
            return
        if self.extensions:
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(json.dumps({"modules": _sources_hash()}, indent=1) + "\n")


setup(ext_modules=_extensions(), cmdclass={"build_ext": OptionalBuild})
