"""The compiled rules engine (setup.py, mypyc) and the guard that never runs a stale one.

The compiled engine and the interpreted one are the same source: every game script and a
run of seeded bot games must come out the same from both. A compiled copy whose source has
changed since is set aside, whole, for the source.
"""

from __future__ import annotations

import importlib.machinery
import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import table_app
from table_app.rules import find_format, run_script
from table_app.rules.bots import play

ROOT = Path(__file__).parent.parent
SCRIPTS = sorted((Path(__file__).parent / "scripts").rglob("*.script"))
SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]


def _copy_package(tmp: Path) -> Path:
    """The table_app package alone in `tmp` (with no compiled file of this machine)."""
    dest = tmp / "table_app"
    shutil.copytree(ROOT / "table_app", dest, ignore=shutil.ignore_patterns(
        "__pycache__", "*.so", "*.pyd", "_compiled.json"))
    return dest


def _probe(path: Path, env_extra: dict[str, str] | None = None) -> dict[str, str]:
    """Import the copy in a fresh interpreter; say which build runs, whence the engine
    came, and the outcome of one game."""
    code = (
        "import json, random, table_app\n"
        "from table_app.rules import find_format, engine\n"
        "from table_app.rules.bots import play\n"
        "g = play(find_format('yakuza'), 12, random.Random(4))\n"
        "print(json.dumps({'build': table_app.ENGINE_BUILD, 'engine': engine.__file__,"
        " 'winner': g.winner}))\n")
    env = {k: v for k, v in os.environ.items() if k != "TABLE_APP_PURE"}
    env["PYTHONPATH"] = str(path)
    env.update(env_extra or {})
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, cwd=path, timeout=120)
    assert proc.returncode == 0, proc.stderr
    out: dict[str, str] = json.loads(proc.stdout)
    out["stderr"] = proc.stderr
    return out


def _fake_build(pkg: Path, stale: str | None = None) -> None:
    """Files that look like a compiled build (they would crash if ever loaded) and a
    manifest of the sources' hashes, one of them out of date when `stale` is named."""
    import hashlib
    rules = pkg / "rules"
    names = ["actions", "effects", "state", "night", "day", "engine"]
    for n in names:
        (rules / f"{n}{SUFFIX}").write_bytes(b"not a shared object")
    hashes = {n: hashlib.sha256((rules / f"{n}.py").read_bytes()).hexdigest() for n in names}
    (rules / "_compiled.json").write_text(json.dumps({"modules": hashes}))
    if stale:
        with open(rules / f"{stale}.py", "a") as f:
            f.write("\n# a club's edit\n")


def test_a_changed_source_sets_the_compiled_engine_aside(tmp_path: Path) -> None:
    pkg = _copy_package(tmp_path)
    _fake_build(pkg, stale="night")
    got = _probe(tmp_path)
    assert got["build"].startswith("interpreted (night.py changed since it was compiled")
    assert got["engine"].endswith("engine.py")     # all of it from source, not only night
    assert "pip install -e ." in got["stderr"]      # and the host's log says how to mend it
    assert got["winner"]


def test_a_build_without_its_manifest_is_never_loaded(tmp_path: Path) -> None:
    pkg = _copy_package(tmp_path)
    _fake_build(pkg)
    (pkg / "rules" / "_compiled.json").unlink()
    got = _probe(tmp_path)
    assert got["build"].startswith("interpreted (the compiled copy has no manifest")
    assert got["engine"].endswith("engine.py")


def test_table_app_pure_asks_for_the_source_engine(tmp_path: Path) -> None:
    pkg = _copy_package(tmp_path)
    _fake_build(pkg)
    got = _probe(tmp_path, {"TABLE_APP_PURE": "1"})
    assert got["build"] == "interpreted (TABLE_APP_PURE=1)"
    assert got["engine"].endswith("engine.py") and got["stderr"] == ""


def test_no_compiled_files_is_the_plain_interpreted_engine(tmp_path: Path) -> None:
    _copy_package(tmp_path)
    got = _probe(tmp_path)
    assert got["build"] == "interpreted" and got["stderr"] == ""


def test_ci_tests_the_compiled_engine() -> None:
    # a machine with a C compiler (CI installs one) builds the engine; a build that failed
    # quietly would leave the tests on the interpreted engine and the benchmark's figures
    # unexplained
    if not os.environ.get("CI") and table_app.ENGINE_BUILD != "compiled":
        pytest.skip(f"this install runs the rules {table_app.ENGINE_BUILD}")
    assert table_app.ENGINE_BUILD == "compiled"
    from table_app.rules import engine
    assert engine.__file__.endswith(SUFFIX)


def _outcomes_here() -> dict[str, object]:
    out: dict[str, object] = {}
    for p in SCRIPTS:
        try:
            out[p.name] = run_script(p.read_text(encoding="utf-8")).outcome().to_json()
        except Exception as exc:   # an error script: its message must match too
            out[p.name] = f"{type(exc).__name__}: {exc}"
    for fmt_id, n in (("yakuza", 12), ("classic", 11), ("city", 30)):
        for seed in range(30):
            g = play(find_format(fmt_id), n, random.Random(seed), policy="informed")
            out[f"{fmt_id}-{n}-{seed}"] = g.outcome().to_json()
    return out


def test_the_compiled_and_the_interpreted_engine_play_the_same_games() -> None:
    if table_app.ENGINE_BUILD != "compiled":
        pytest.skip("no compiled engine in this install")
    code = ("import json, sys; sys.path.insert(0, 'tests');"
            "from test_engine_build import _outcomes_here;"
            "print(json.dumps(_outcomes_here()))")
    env = dict(os.environ, TABLE_APP_PURE="1")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, cwd=ROOT, timeout=300)
    assert proc.returncode == 0, proc.stderr
    interpreted = json.loads(proc.stdout)
    compiled = json.loads(json.dumps(_outcomes_here()))
    assert len(compiled) > 100
    assert compiled == interpreted


def _project_copy(tmp: Path) -> Path:
    """The project's tracked files in `tmp/p`, with this checkout's in-place build (if any)."""
    dest = tmp / "p"
    files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT,
                           capture_output=True, text=True, check=True).stdout.split()
    for f in files:
        if (ROOT / f).is_file():
            (dest / f).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / f, dest / f)
    for built in [*ROOT.glob(f"*__mypyc{SUFFIX}"), *(ROOT / "table_app" / "rules").glob(
            f"*{SUFFIX}"), ROOT / "table_app" / "rules" / "_compiled.json"]:
        if built.exists():
            shutil.copy2(built, dest / built.relative_to(ROOT))
    return dest


def test_a_reinstall_compiles_the_engine_again_only_when_its_source_changed(
        tmp_path: Path) -> None:
    if table_app.ENGINE_BUILD != "compiled":
        pytest.skip("no compiled engine in this install to carry over")
    proj = _project_copy(tmp_path)
    cmd = [sys.executable, "setup.py", "-q", "build_ext", "--inplace"]
    env = {k: v for k, v in os.environ.items() if k != "TABLE_APP_PURE"}
    proc = subprocess.run(cmd, cwd=proj, capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "matches its source: not built again" in proc.stderr
    assert (proj / "table_app" / "rules" / "_compiled.json").exists()   # the build stays
    assert _probe(proj)["build"] == "compiled"
    # and as install.sh installs it: an editable install in a venv, nothing compiled, the
    # compiled engine found through the install's own mapping (mypyc's shared library is a
    # module of its own at the top)
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)],
                   check=True, timeout=300)
    # (a setuptools that builds wheels by itself, as the install's cache holds)
    subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "-q",
                    "setuptools>=70.1"], check=True, capture_output=True, timeout=300)
    pip = subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "-q",
                          "--no-index", "--no-deps", "--no-build-isolation", "-e", str(proj)],
                         capture_output=True, text=True, env=env, timeout=300)
    assert pip.returncode == 0, pip.stderr
    code = "import table_app; from table_app.rules import engine; print(table_app.ENGINE_BUILD)"
    run = subprocess.run([str(venv / "bin" / "python"), "-c", code], capture_output=True,
                         text=True, cwd=tmp_path, timeout=120,
                         env={k: v for k, v in env.items() if k != "PYTHONPATH"})
    assert run.returncode == 0 and run.stdout.strip() == "compiled", run.stderr
    # a club's edit of the rules: the in-place build no longer counts, so it is built again
    with open(proj / "table_app" / "rules" / "night.py", "a") as f:
        f.write("\n# a club's edit\n")
    sys.path.insert(0, str(proj))
    try:
        import importlib
        setup_py = importlib.import_module("setup")
        assert proj == setup_py.HERE and not setup_py.up_to_date()
    finally:
        sys.path.remove(str(proj))
        sys.modules.pop("setup", None)
