"""The package's shape: no module imports, at its top (imports for type checking counted), a
module that imports it back; and the layers' contracts: the rules import nothing of the app,
the table's flows import no other flow, the pad controller's firmware nothing of the app, the
app reaches its tools and admin commands only through the command line, and no module is
long without a reason."""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1] / "table_app"


def _modules() -> dict[str, Path]:
    out = {}
    for f in ROOT.rglob("*.py"):
        parts = f.relative_to(ROOT.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = f
    return out


def _top(tree: ast.Module) -> list[ast.stmt]:
    """A module's top-level statements, with those under `if TYPE_CHECKING:` (an import for
    the type checker is an arrow of the layout all the same)."""
    out: list[ast.stmt] = []
    for node in tree.body:
        out.append(node)
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            out += node.body
    return out


def import_graph(every: bool = False) -> dict[str, set[str]]:
    """Module -> the table_app modules its top level imports (a name taken from a package
    counts as its submodule when there is one: `from . import actions`); with `every`, the
    imports inside functions too (made late, they are arrows all the same)."""
    mods = _modules()
    graph: dict[str, set[str]] = defaultdict(set)
    for name, f in mods.items():
        pkg = name if f.name == "__init__.py" else name.rpartition(".")[0]
        tree = ast.parse(f.read_text())
        for node in (ast.walk(tree) if every else _top(tree)):
            if isinstance(node, ast.ImportFrom):
                base = pkg.split(".")[:len(pkg.split(".")) - node.level + 1] if node.level \
                    else []
                target = ".".join(base + ([node.module] if node.module else []))
                subs = [f"{target}.{a.name}" for a in node.names if f"{target}.{a.name}" in mods]
                if subs:
                    graph[name].update(subs)
                elif target in mods and target != name:
                    graph[name].add(target)
            elif isinstance(node, ast.Import):
                graph[name].update(a.name for a in node.names if a.name in mods)
    return graph


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    done: set[str] = set()

    def visit(n: str, path: list[str]) -> list[str] | None:
        for m in sorted(graph.get(n, ())):
            if m in path:
                return path[path.index(m):] + [m]
            if m not in done:
                found = visit(m, path + [m])
                if found:
                    return found
        done.add(n)
        return None

    for n in sorted(graph):
        if n not in done:
            found = visit(n, [n])
            if found:
                return found
    return None


def test_no_import_cycle() -> None:
    graph = import_graph()
    assert "table_app.pads.factory" in graph["table_app.pads"]      # the graph is read
    assert _cycle(graph) is None, " -> ".join(_cycle(graph) or [])


def test_no_import_cycle_even_counting_imports_inside_functions() -> None:
    """A late import is an arrow too: check and run imported each other inside functions
    (the admin check's sound test reached for the window's quiet_alsa; the table's deal and
    the screen for check's `spans`)."""
    graph = import_graph(every=True)
    assert "table_app.sound.player" in graph["table_app.admin.check"]  # read inside functions
    assert _cycle(graph) is None, " -> ".join(_cycle(graph) or [])


def test_the_cycle_finder_finds_one() -> None:
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None


def test_no_backend_imports_the_switch_and_no_tool_imports_its_caller() -> None:
    graph = import_graph()
    for backend in ("gpio", "serial_pads", "sim", "base", "pi_rings"):
        assert "table_app.pads.factory" not in graph[f"table_app.pads.{backend}"], backend
    # bench_path is below bench (bench runs it), records' commands below the app's cli
    assert "table_app.tools.bench" not in graph["table_app.tools.bench_path"]
    assert "table_app.cli" not in graph["table_app.records.cli"]


def test_type_checking_imports_are_arrows_too(tmp_path: Path) -> None:
    tree = ast.parse("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .x import Y\n")
    assert any(isinstance(n, ast.ImportFrom) and n.module == "x" for n in _top(tree))


def test_the_rules_import_nothing_of_the_app() -> None:
    graph = import_graph()
    for mod, deps in graph.items():
        if mod.startswith("table_app.rules"):
            outside = {d for d in deps if not d.startswith("table_app.rules")}
            assert not outside, (mod, outside)


FLOWS = ("day", "night", "deal", "commands")


def test_no_flow_of_the_table_imports_another() -> None:
    graph = import_graph()
    flows = {f"table_app.table.{f}" for f in FLOWS}
    for flow in flows:
        assert flow in graph, flow                  # the graph reads each
        assert not graph[flow] & (flows - {flow}), (flow, graph[flow] & flows)


def _every_import(f: Path) -> set[str]:
    """The modules a file imports anywhere in it, a function's body included (relative
    imports named from the package root)."""
    pkg = ".".join(f.relative_to(ROOT.parent).with_suffix("").parts[:-1])
    out: set[str] = set()
    for node in ast.walk(ast.parse(f.read_text())):
        if isinstance(node, ast.ImportFrom):
            base = pkg.split(".")[:len(pkg.split(".")) - node.level + 1] if node.level else []
            out.add(".".join(base + ([node.module] if node.module else [])))
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
    return out


def test_no_upward_arrow_even_inside_a_function() -> None:
    """The words are below the voice, the rules below everything, even where a function
    imports late (words.word read a clip's text through the sound package)."""
    assert not {m for m in _every_import(ROOT / "words.py") if m.startswith("table_app.sound")}
    for f in (ROOT / "rules").glob("*.py"):
        up = {m for m in _every_import(f)
              if m.startswith("table_app.") and not m.startswith("table_app.rules")}
        assert not up, (f.name, up)


def test_the_firmware_imports_nothing_of_the_app_anywhere() -> None:
    """firmware_bridge/ is what runs on the Pico and the wire protocol: no import of the app,
    at its top or inside a function (the simulated controller, which reads this Pi's pairing
    secret, lives with the tools: table_app/tools/picosim/)."""
    fw = ROOT.parent / "firmware_bridge"
    files = sorted(fw.rglob("*.py"))
    assert fw / "controller.py" in files and fw / "padlink.py" in files     # the files are read
    for f in files:
        for node in ast.walk(ast.parse(f.read_text())):
            names = ([node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level
                     else [a.name for a in node.names] if isinstance(node, ast.Import) else [])
            assert not any(n.split(".")[0] == "table_app" for n in names), (f.name, names)


def test_firmware_bridge_holds_only_the_pico_s_files_and_the_protocol() -> None:
    """Every module in firmware_bridge/ is one the installer copies to the Pico (or the
    package's own __init__): the simulator of the controller and its shims are the tools'."""
    from table_app.admin.firmware import FILES
    fw = ROOT.parent / "firmware_bridge"
    extra = {f.relative_to(fw).as_posix() for f in fw.rglob("*.py")} - set(FILES) - {"__init__.py"}
    assert not extra, extra


#: the app's entry points into its tools and admin commands: the command line's dispatch
#: (inside its `cmd_*` functions), `python -m table_app.bench` (the guide's name for the
#: benchmarks) and the firmware installer's old name
ENTRIES = {"table_app.cli", "table_app.bench", "table_app.firmware"}
APART = ("table_app.tools", "table_app.admin")


def _apart(mod: str) -> bool:
    return any(mod == p or mod.startswith(p + ".") for p in APART)


def test_the_app_reaches_its_tools_and_admin_only_through_the_command_line() -> None:
    """No module of the app (the table, the screen, the pads, the rules, the records, the
    wiring) imports a tool or an admin command, even inside a function: only the `table-app`
    command's dispatch does, late, when its subcommand runs."""
    every = import_graph(every=True)
    top = import_graph()
    assert "table_app.tools.observe" in every["table_app.cli"]          # the graph reads them
    for mod, deps in every.items():
        if _apart(mod) or mod in ENTRIES:
            continue
        assert not {d for d in deps if _apart(d)}, (mod, {d for d in deps if _apart(d)})
    # the command line imports them only when a subcommand runs (its start stays light)
    assert not {d for d in top["table_app.cli"] if _apart(d)}


LONG = 400
#: modules over LONG lines, each with why it is (still) one; the list only shrinks
LONG_ONES = {
    # not split in #49: these are in the table's, the screen's, the pads' and the rules'
    # own areas, whose owners split them along their jobs
    "table_app/table/app.py": "the table's event loop and its journal",
    "table_app/pads/serial_pads.py": "the Pi's side of the serial link and its port finding",
    "table_app/pads/grammar.py": "the press grammar (taps and holds into choices)",
    # the rules engine is compiled by mypyc module by module
    "table_app/rules/state.py": "the game's state and its transitions",
    "table_app/rules/script.py": "the game-script language: its parser and its replay",
}


def test_no_module_is_long_without_a_reason() -> None:
    lengths = {f.relative_to(ROOT.parent).as_posix(): len(f.read_text().splitlines())
               for f in ROOT.rglob("*.py")}
    long = {f for f, n in lengths.items() if n > LONG}
    assert long <= set(LONG_ONES), sorted(long - set(LONG_ONES))
    stale = {f for f in LONG_ONES if lengths.get(f, 0) <= LONG}
    assert not stale, f"no longer long, take them off LONG_ONES: {sorted(stale)}"


#: what a game needs and the setup screen does not: the engine, the scripts, the table, the
#: host's view of a game
GAME_ONLY = ("table_app.rules.engine", "table_app.rules.script", "table_app.table.core",
             "table_app.screen.model")


def test_the_table_reaches_its_setup_screen_without_the_engine(tmp_path: Path) -> None:
    """#51: the start to READY was 1.50x a bare pygame window's; a tenth of it was the
    engine, the table and the host's game view, which the setup screen never uses (they
    come when a game starts). The real start, to its READY, reports what it imported."""
    import os
    import subprocess
    import sys
    probe = (
        "import os, sys\n"
        "import table_app.systemd as sd\n"
        "def notify(state):\n"
        "    if state.startswith('READY=1'):\n"
        "        print(' '.join(sorted(sys.modules)), flush=True)\n"
        "        os._exit(0)\n"
        "    return False\n"
        "sd.notify = notify\n"
        "from table_app.cli import main\n"
        f"main(['--silent', '--journal', {str(tmp_path / 'j')!r}])\n")
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
           "TABLE_APP_PADS": "sim", "XDG_CONFIG_HOME": str(tmp_path / "config"),
           "XDG_STATE_HOME": str(tmp_path / "state"), "HOME": str(tmp_path)}
    proc = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    imported = set(proc.stdout.split())
    assert "table_app.screen.setup" in imported and "pygame" in imported
    assert not imported & set(GAME_ONLY), sorted(imported & set(GAME_ONLY))
