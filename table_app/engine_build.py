"""Which rules engine runs: the compiled one (mypyc, built by setup.py) or the same source
interpreted.

A compiled module sits beside its source and Python would load it first even after the source
changed: a club that edits the rules, or a `git pull`, would silently run the old engine. So
the build leaves a manifest of the sources it compiled, and unless every one still matches,
the whole engine is loaded from source (all or none: compiled modules call each other
directly) and `BUILD` says why. TABLE_APP_PURE=1 asks for the source engine outright.

It runs when `table_app` is imported, before any module of `table_app.rules`: the rules
package itself stays pure (no files, no environment).
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

HERE = Path(__file__).resolve().parent / "rules"
PACKAGE = __name__.rpartition(".")[0] + ".rules"
MANIFEST = HERE / "_compiled.json"


class _SourceFirst:
    """Loads the named modules of this package from their .py files (a meta path finder:
    `find_spec` is all Python asks of one; importlib.abc's base class cost 8 ms a start)."""

    def __init__(self, names: Sequence[str]) -> None:
        self.names = {f"{PACKAGE}.{n}": HERE / f"{n}.py" for n in names}

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        source = self.names.get(fullname)
        if source is None:
            return None
        return importlib.util.spec_from_file_location(fullname, source)


def _compiled_here() -> list[str]:
    """The rules modules that have a compiled copy beside their source."""
    names = []
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        for f in HERE.glob(f"*{suffix}"):
            name = f.name[: -len(suffix)]
            if (HERE / f"{name}.py").exists():
                names.append(name)
    return sorted(set(names))


def _choose() -> str:
    compiled = _compiled_here()
    if not compiled:
        return "interpreted"
    why = ""
    if os.environ.get("TABLE_APP_PURE") == "1":
        why = "TABLE_APP_PURE=1"
    else:
        try:
            built: dict[str, str] = json.loads(MANIFEST.read_text())["modules"]
        except (OSError, ValueError, KeyError, TypeError):
            built = {}
            why = "the compiled copy has no manifest (an unfinished build)"
        for name in compiled:
            if why:
                break
            digest = hashlib.sha256((HERE / f"{name}.py").read_bytes()).hexdigest()
            if built.get(name) != digest:
                why = (f"{name}.py changed since it was compiled: run "
                       "`python3 -m pip install -e .` again for the compiled engine")
    if not why:
        return "compiled"
    sys.meta_path.insert(0, _SourceFirst(compiled))
    if os.environ.get("TABLE_APP_PURE") != "1":
        print(f"table-app: the rules engine runs interpreted: {why}", file=sys.stderr)
    return f"interpreted ({why})"


#: "compiled", or "interpreted" with the reason when a compiled copy is set aside
BUILD = _choose()
