"""The build: everything is in pyproject.toml but the rules engine's compiled modules.

The engine's hot modules (actions, effects, the acts, roles, the win tally, the state, the
night, the day, the game and the bots) are built with mypyc into C extensions where a C compiler
and Python's headers are at hand: the same typed source, every check kept, two to three times
quicker (see README, "Tests and benchmarks"). Without a compiler, or with TABLE_APP_PURE=1,
the package installs as plain Python and plays the same games. `table_app/engine_build.py`
makes sure a compiled copy older than its source is never used.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import sysconfig
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
RULES = Path("table_app") / "rules"
#: the modules a game's every action passes through; formats (hooks a club may subclass),
#: the script reader and the views stay interpreted
COMPILED = ("actions", "effects", "acts", "roles", "tally", "state", "night", "day", "engine",
            "bots")
MANIFEST = "_compiled.json"
#: setup.py is also run for the metadata alone (egg_info, dist_info): only these build
BUILDS = {"editable_wheel", "bdist_wheel", "build_ext", "build", "develop", "install"}
#: the builds that compile in place, beside the sources (an editable install's)
IN_PLACE = {"editable_wheel", "develop"}


def _sources_hash() -> dict[str, str]:
    return {m: hashlib.sha256((HERE / RULES / f"{m}.py").read_bytes()).hexdigest()
            for m in COMPILED}


def up_to_date() -> bool:
    """The engine compiled in place matches every source, for this Python: nothing to build
    (a re-install after an update that left the rules alone takes seconds, not minutes)."""
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    try:
        built = json.loads((HERE / RULES / MANIFEST).read_text())["modules"]
    except (OSError, ValueError, KeyError, TypeError):
        return False
    return (built == _sources_hash()
            and all((HERE / RULES / f"{m}{suffix}").exists() for m in COMPILED)
            and any(HERE.glob(f"*__mypyc{suffix}")))


UP_TO_DATE = False


def _built() -> list:
    """The compiled modules already in place, declared but not built again: an editable
    install maps each to its file (mypyc's shared library sits at the top, beside the
    packages, and is found only through that mapping)."""
    from setuptools import Extension
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    shared = [f.name[: -len(suffix)] for f in HERE.glob(f"*__mypyc{suffix}")]
    names = [f"table_app.rules.{m}" for m in COMPILED] + shared
    return [Extension(name, sources=[]) for name in names]


def _extensions() -> list:
    global UP_TO_DATE
    command = set(sys.argv[1:])
    if os.environ.get("TABLE_APP_PURE") == "1" or not command & BUILDS:
        return []
    in_place = command & IN_PLACE or ("build_ext" in command and command & {"-i", "--inplace"})
    if in_place and up_to_date():
        UP_TO_DATE = True
        print("table-app: the compiled rules engine matches its source: not built again",
              file=sys.stderr)
        return _built()
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
        if UP_TO_DATE:
            return                 # the build in place stays, its manifest with it
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


if __name__ == "__main__":           # as pip's build backend runs it; a test imports it
    setup(ext_modules=_extensions(), cmdclass={"build_ext": OptionalBuild})
