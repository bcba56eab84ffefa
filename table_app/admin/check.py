"""`table-app check` from a terminal: says what the pads are (the firmware, the pairing, the
link; a controller in safe mode says why), runs the table's self-test (table_app/check.py) on
the wall clock, plays a test sound, and writes a complete layout to the settings."""

from __future__ import annotations

import queue
import sys
import time
from typing import Any

from ..check import CheckReport, SelfTest
from ..pads.base import PadBackend
from ..pads.events import RawPadEvent


def describe_pads(backend: Any) -> tuple[str, bool]:
    """The pads in one line, and whether they are usable."""
    name = getattr(backend, "name", "pads")
    if name == "table":
        parts = []
        ok = True
        for k, child in enumerate(backend.children):
            line, good = describe_pads(child)
            ok = ok and good
            board = backend.board(k)
            parts.append(f"controller {k + 1}" + (f" ({board})" if board else "") + ": "
                         + line.removeprefix("pad controller: "))
        return (f"{backend.seats} seats on {len(backend.children)} pad controllers; "
                + "; ".join(parts), ok)
    if name == "serial":
        if not backend.connected.is_set():
            return (f"pad controller: {backend.error or 'not answering'}", False)
        stats = backend.stats
        return (f"pad controller: firmware {backend.firmware}, paired; link: "
                f"{stats.get('bad_frames', 0)} bad frames, {stats.get('resends', 0)} resends, "
                f"{stats.get('connects', 0)} connects", True)
    if name == "gpio":
        rings = getattr(backend, "rings", None)
        if rings is None:
            return ("pads on the Pi's own pins (one LED a seat)", True)
        if rings.error:
            return (f"pads on the Pi's own pins, rings on SPI: {rings.error}", False)
        return ("pads on the Pi's own pins, a ring a seat on SPI "
                f"(/dev/spidev{backend.pins.rings.bus}.{backend.pins.rings.device})", True)
    if name == "sim":
        return ("simulated pads (no hardware found)", True)
    return (f"{name} pads", True)


def _safe_mode_note(backend: Any, timeout: float = 30.0) -> str:
    """A serial controller that does not answer may be in its safe mode (an update waited
    for, a fault at its start, faults in play in a row): why, as it kept it on its flash.
    The backend lets the port go first (the REPL is read through it)."""
    if getattr(backend, "name", "") != "serial":
        return ""
    port = backend.current or backend.finder()
    if not port:
        return ""
    backend.close()
    from .firmware import safe_mode_reason
    reason = safe_mode_reason(port, timeout)
    return f"; it is in safe mode: {reason}" if reason else ""


def check_sound(device: str | None) -> tuple[str, bool]:
    """Play the timer's tick on the audio output (the settings' `audio.device`), and name
    the outputs there are, so a club can choose one."""
    from ..sound.player import SoundBoard

    board = SoundBoard("en", device=device)
    where = f"'{device}'" if device else "the default output"
    from ..sound.player import quiet_alsa
    if not quiet_alsa(lambda: board.start(preload=False)):
        return (f"sound: cannot open {where} ({'; '.join(board.warnings)}); outputs here: "
                f"{', '.join(audio_outputs()) or 'none'}", False)
    try:
        board.timer("tick")
        played = board.cache.get("timer:tick") is not None
        if played:
            time.sleep(0.5)
    finally:
        board.stop()
    outputs = ", ".join(audio_outputs())
    if not played:
        return (f"sound: {where} opened, but the tick could not be played", False)
    return (f"sound: a tick played on {where}: did you hear it?"
            + (f" (outputs here: {outputs})" if outputs else ""), True)


def audio_outputs() -> list[str]:
    """The audio outputs SDL sees (the names `audio.device` takes)."""
    try:
        import pygame
        import pygame._sdl2.audio as sdl2_audio
        pygame.init()
        return [str(n) for n in sdl2_audio.get_audio_device_names(False)]
    except Exception:
        return []


def run(backend: PadBackend, events: queue.Queue[RawPadEvent], wait: float,
        say: Any = print) -> CheckReport:
    """The self-test at a real table, on the wall clock."""
    test = SelfTest(backend, wait=wait)
    clock = backend.clock
    time.sleep(0.3)                      # levels and edges from the start arrive first
    while True:
        try:
            test.handle(events.get_nowait())
        except queue.Empty:
            break
    test.start(clock.now())
    shown = ""
    # run as a service (or under one), it is alive while it waits for the next press
    from ..systemd import Watchdog
    watchdog = Watchdog()
    while not test.done:
        if test.prompt() != shown:
            shown = test.prompt()
            say(shown)
        watchdog.beat(time.monotonic())
        backend.poll()
        try:
            test.handle(events.get(timeout=0.02))
        except queue.Empty:
            pass
        test.tick(clock.now())
    return test.report


def main(kind: str | None, wait: float, write: bool, audio: str | None,
         sound: bool = True) -> int:
    from ..clock import MonotonicClock
    from ..pads import PadError, make_pads
    from ..settings import SettingsError, load_settings, settings_path, write_pad_layout

    events: queue.Queue[RawPadEvent] = queue.Queue()
    try:
        s = load_settings(lenient=True)
        from ..pads.factory import backend_kind
        options: dict[str, Any] = {}
        if backend_kind(kind) == "serial":
            options = {"ring_size": s.ring, "controllers": s.controllers}
        backend = make_pads(kind, s.seats, events.put, MonotonicClock(), **options)
        backend.start()
    except PadError as e:
        print(f"table-app: {e}", file=sys.stderr)
        return 2
    try:
        wait_connected = getattr(backend, "wait_connected", None)
        if wait_connected is not None:
            wait_connected(5.0)
        pads, ok = describe_pads(backend)
        if not ok:
            pads += _safe_mode_note(backend)
        print(pads)
        if not ok:
            return 2
        report = run(backend, events, wait)
        report.pads = pads
    finally:
        backend.close()
    if sound:
        report.sound, report.sound_ok = check_sound(audio)
    for line in report.lines():
        print(line)
    if report.complete and write:
        buttons, rotation, rings = report.layout()
        try:
            path = write_pad_layout(buttons, rotation, rings,
                                    controllers=report.controllers or None)
        except (SettingsError, OSError) as e:
            print(f"table-app: the layout was not written: {e}", file=sys.stderr)
            return 2
        print(f"the seats' buttons, rings and turns written to {path}")
    elif write:
        print(f"nothing written to {settings_path()}: mend the problems and check again")
    return 0 if not report.problems() else 1
