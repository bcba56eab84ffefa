"""The emulated Pico for the tests and the benchmarks: the real MicroPython v1.25.0 rp2 build
(RPI_PICO) on an emulated RP2040 (rp2040js, from npm), its USB serial a pseudo-terminal, its
pins driven and read by the caller. It lives in ../shared/pico beside the project (read-only,
and only on a developer's machine); `load()` copies it into a cache folder of this
machine's once, installs rp2040js there from its package.json (npm, offline when the cache
has it), and hands out its `pico_host` module. The table never uses it; the tests and
`python -m table_app.bench firmware` do."""

from __future__ import annotations

import filecmp
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from types import ModuleType

SHARED = Path(os.environ.get("TABLE_APP_PICO_EMULATOR") or
              Path(__file__).resolve().parents[3] / "shared" / "pico")
FILES = ("package.json", "package-lock.json", "pico-run.mjs", "bootrom.mjs", "pico-pty.py",
         "pico_host.py", "firmware.uf2")
CACHE = Path(os.environ.get("TABLE_APP_PICO_CACHE")
             or Path(tempfile.gettempdir()) / "table-app-pico")


def unavailable() -> str | None:
    """Why the emulated Pico cannot run here, or None."""
    if not (SHARED / "pico_host.py").exists():
        return f"no emulated Pico at {SHARED}"
    for tool in ("node", "npm"):
        if shutil.which(tool) is None:
            return f"no {tool} (the emulator is a Node program)"
    return None


# One addition to the runner, for this project's tests: `usbin hold` makes the emulated USB
# host stop taking the board's IN packets, as a Pi does whose table app hangs with the port
# open (its tty buffer full, the kernel sends no more IN tokens), and `usbin go` lets them
# through again. The board's own USB stack then sees a full transmit buffer, as on a real
# one. Each piece is put in at a line of the runner that must be there once.
_HOLD_STATE = """
// table-app's rig: a host that stops taking IN packets (see tests/pico_rig.py)
let usbInHeld = false, heldIn = [], heldData = [], releaseIn = () => {};
"""
_HOLD_HOOK = """
  heldIn = []; heldData = [];
  const inReady = mcu.usbCtrl.indicateBufferReady.bind(mcu.usbCtrl);
  mcu.usbCtrl.indicateBufferReady = (ep, out) => {
    if (usbInHeld && !out && ep === cdc.inEndpoint) { heldIn.push(ep); return; }
    inReady(ep, out);
  };
  const toHost = cdc.onSerialData;
  cdc.onSerialData = (v) => { if (usbInHeld) heldData.push(Buffer.from(v)); else toHost(v); };
  releaseIn = () => {
    for (const d of heldData.splice(0)) process.stdout.write(d);
    for (const ep of heldIn.splice(0)) inReady(ep, false);
  };
"""
_HOLD_CMD = """    case 'usbin':
      if (r[0] === 'hold') { usbInHeld = true; return 'ok usbin hold'; }
      if (r[0] === 'go') { usbInHeld = false; releaseIn(); return 'ok usbin go'; }
      return 'err usbin hold|go';
"""


def _with_usb_hold(runner: str) -> str:
    hook = "  cdc.onSerialData = (value) => { process.stdout.write(Buffer.from(value)); };\n"
    for anchor in (hook, "function handle(line, sock) {\n", "    case 'time':"):
        assert runner.count(anchor) == 1, f"pico-run.mjs has changed: no single {anchor!r}"
    runner = runner.replace(hook, hook + _HOLD_HOOK)
    runner = runner.replace("function handle(line, sock) {\n",
                            _HOLD_STATE.lstrip() + "function handle(line, sock) {\n")
    return runner.replace("    case 'time':", _HOLD_CMD + "    case 'time':")


# A second one, for the tap-to-ring figure (`--prompt-usb`, for that board alone): the
# runner executes up to a million instructions (about 8 ms of the chip's time, some 40 ms of
# the machine's) before its event loop next takes the host's bytes or passes the board's on,
# so every USB transfer waited up to that long, which no Pico on a real bus does (the host
# polls it every 1 ms frame). With it a turn ends as soon as the board has written to USB,
# and after 1 ms of wall time at most. What the board does in its own time does not change,
# only when the host's bytes reach it; and so the rest keeps the stock turns, on which the
# emulated figures repeat to the microsecond (a stimulus is timed from when it is taken).
_PROMPT_LOOP = "  for (let i = 0; i < 1000000 && !stopped; i++) {\n"
_PROMPT_LOOP_NEW = """  // table-app's rig (--prompt-usb): a turn of the event loop every
  // board write, and at least every 1 ms of wall time
  const turnEnd = process.hrtime.bigint() + 1000000n; let turnCheck = 0; usbTurn = false;
  for (let i = 0; i < 1000000 && !stopped && !usbTurn; i++) {
    if (promptUsb && ++turnCheck >= 1024) {
      turnCheck = 0;
      if (process.hrtime.bigint() > turnEnd) break;
    }
"""
_PROMPT_STATE = ("const promptUsb = process.argv.includes('--prompt-usb');  // table-app's rig\n"
                 "let usbTurn = false;  // the board wrote to USB: end the turn (--prompt-usb)\n")


def _with_prompt_usb(runner: str) -> str:
    hook = "  cdc.onSerialData = (value) => { process.stdout.write(Buffer.from(value)); };\n"
    arg = "    else if (k === '--realtime') a.realtime = true;\n"
    for anchor in (hook, _PROMPT_LOOP, "function run(gen = generation) {\n", arg):
        assert runner.count(anchor) == 1, f"pico-run.mjs has changed: no single {anchor!r}"
    runner = runner.replace(arg, arg + "    else if (k === '--prompt-usb') a.promptUsb = true;\n")
    runner = runner.replace(hook, hook.replace("value)); };", "value)); usbTurn = promptUsb; };"))
    runner = runner.replace("function run(gen = generation) {\n",
                            _PROMPT_STATE + "function run(gen = generation) {\n")
    return runner.replace(_PROMPT_LOOP, _PROMPT_LOOP_NEW)


def load() -> ModuleType:
    """../shared/pico's pico_host, ready to start boards (see `unavailable` first)."""
    CACHE.mkdir(parents=True, exist_ok=True)
    for name in FILES:
        src, dest = SHARED / name, CACHE / name
        if name == "pico-run.mjs":
            text = _with_prompt_usb(_with_usb_hold(src.read_text()))
            if not (dest.exists() and dest.read_text() == text):
                dest.write_text(text)
        elif src.exists() and not (dest.exists() and filecmp.cmp(src, dest, shallow=False)):
            shutil.copyfile(src, dest)
    if not (CACHE / "node_modules" / "rp2040js").is_dir():
        proc = subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--prefer-offline"],
                              cwd=CACHE, capture_output=True, text=True, timeout=600)
        if proc.returncode != 0:
            raise RuntimeError(f"npm ci of the emulator failed: {proc.stderr[-500:]}")
    if str(CACHE) not in sys.path:
        sys.path.insert(0, str(CACHE))
    import importlib
    host: ModuleType = importlib.import_module("pico_host")
    return host
