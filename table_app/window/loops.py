"""The window's own loops before a game: its events, the setup screen's and the table
check's, and the inbox's helpers they share with the game's loop."""

from __future__ import annotations

import queue
import threading
import time
from collections import deque
from collections.abc import Iterator
from typing import Any

from ..table.config import Input

#: how often the window's own events (taps, keys) are looked at while nothing else wakes the
#: loop: SDL 2.26 has no real wait for the Pi's console driver (KMSDRM), and inside
#: pygame.event.wait it polls every millisecond, about 1,000 wakeups a second (3 % of a
#: processor) for as long as the table stood idle; a tap waits 40 ms at most (unnoticed on
#: a touch panel), a pad not at all
EVENTS_EVERY = 0.04


def wait_events(pygame: Any, timeout: float, woken: threading.Event | None = None) -> list[Any]:
    """The window's events, after waiting up to `timeout` s for one, or for `woken` (a pads'
    driver sets it): a look every EVENTS_EVERY, asleep between."""
    end = time.monotonic() + timeout
    while True:
        events = list(pygame.event.get())
        left = end - time.monotonic()
        if events or left <= 0:
            return events
        if woken is None:
            time.sleep(min(left, EVENTS_EVERY))
        elif woken.wait(min(left, EVENTS_EVERY)):
            woken.clear()
            return list(pygame.event.get())


class NoDisplay(OSError):
    """The host's screen cannot be shown."""



def setup_screen(pygame: Any, display: Any, area: Any, setup: Any,
                  pulse: Any = None) -> Any:
    """The setup screen until the host starts (the Setup), or closes the window (None).
    `pulse()` runs at least every 0.2 s meanwhile (systemd's watchdog, the pads)."""
    from ..screen.paint import Painter
    from ..screen.setup import draw_setup, handle
    lo, hi = setup.limits()
    pygame.key.start_text_input()         # typed text arrives as TEXTINPUT (an IME's too)
    setup.players = max(lo, min(hi, setup.players))
    painter = Painter()
    from ..systemd import notify
    notify("READY=1\nSTATUS=setup screen" + "".join(f"; {detail}" for _, detail in setup.notices))
    waiting: deque[Any] = deque()
    buttons: Any = None
    drawn = 0.0
    while not setup.done:
        # drawn after each event, and once a second as a clock is (the screen has nothing
        # that moves by itself): drawn five times a second, it cost half as much CPU again
        # as a window that waits (bench idle)
        if buttons is None or time.monotonic() - drawn >= 1.0:
            buttons = draw_setup(painter, area, setup)
            display.flip()
            drawn = time.monotonic()
        if not waiting:                   # (a timeout, so Ctrl-C is heard here too)
            waiting.extend(wait_events(pygame, 0.2))
        if pulse is not None:
            pulse()
        if not waiting:
            continue
        # one event a drawing, as it came: a tap's buttons are the screen it tapped
        ev = waiting.popleft()
        shown, buttons = buttons, None    # (drawn again before the next one)
        if ev.type == pygame.QUIT:
            return None
        ev = display.event(ev)
        # (Tab while a seat's name is typed goes on to the next seat's, not the other pane)
        if ev is None or not setup.editing and display.key(ev):
            continue
        handle(setup, ev, pygame, shown)
    return setup


def no_display(exc: Exception) -> NoDisplay:
    from ..screen.display import video_drivers
    try:
        drivers = video_drivers()
    except OSError:
        drivers = []
    have = f"; this pygame's SDL has {', '.join(drivers) or 'no video driver'}"
    if drivers and "KMSDRM" not in drivers:
        have += " (no KMSDRM, the console's: Debian's python3-pygame has it)"
    return NoDisplay(f"no display could be opened ({exc}){have}")


def check_screen(pygame: Any, display: Any, area: Any, pads: Any, kind: str,
                  inbox: queue.Queue[Input], voice: Any, lang: str, pulse: Any,
                  players: int | None = None) -> Any:
    """The table's check on the host's screen, with the voice, until the host taps Done
    (or Cancel, or presses Escape): the layout it saved to the settings (buttons, rotation,
    rings), True when it saved none, False when the window was closed. The simulator's
    check is a rehearsal of the table being set up (its `players`), and saves nothing."""
    from ..check import SelfTest
    from ..screen.checkscreen import CheckScreen
    from ..screen.paint import Painter
    from ..settings import SettingsError, write_pad_layout
    test = SelfTest(pads, wait=30.0, seats=players if kind == "sim" else None)
    screen = CheckScreen(test, voice, lang)
    painter = Painter()
    forget_presses(inbox)
    test.start(pads.clock.now())
    try:
        while not screen.closed:
            check_round(pygame, display, area, pads, kind, inbox, voice, pulse, test, screen,
                         painter)
            if screen.closed is None:
                return False
            if test.done and not screen.written:
                report = test.report
                screen.written = "check_not_written"
                if kind == "sim":
                    screen.written = "check_rehearsal"
                elif report.complete:
                    try:
                        write_pad_layout(*report.layout())
                        screen.written = "check_written"
                    except (SettingsError, OSError) as exc:
                        report.pads += f" ({exc})"
    finally:
        if kind == "sim" and players:
            pads.set_table(players)          # the pads of the table being set up again
    return test.report.layout() if screen.written == "check_written" else True


def check_round(pygame: Any, display: Any, area: Any, pads: Any, kind: str,
                 inbox: queue.Queue[Input], voice: Any, pulse: Any, test: Any, screen: Any,
                 painter: Any) -> None:
    """One round of the check's loop: draw, the host's taps and keys, the pads, the time
    (`screen.closed` None: the window was closed)."""
    from ..pads.events import PadEdge
    now = pads.clock.now()
    screen.update()
    # (with the simulator's pane in sight, only the host screen's right column is: the
    # check is drawn there)
    buttons = screen.draw(painter, area, now, min(display.pan, 480))
    if kind == "sim":
        pads.draw()
    display.flip()
    if hasattr(voice, "update"):
        voice.update()
    events = wait_events(pygame, 0.05)
    pulse()
    for e in events:
        if e.type == pygame.QUIT:
            screen.closed = None
            return
        e = display.event(e)
        if e is None or display.key(e):
            continue
        if e.type == pygame.MOUSEBUTTONDOWN and e.button == 1 and e.pos[0] < 800:
            screen.touch(e.pos, buttons, pads.clock.now())
        elif e.type == pygame.KEYDOWN and e.key == pygame.K_ESCAPE:
            screen.cancel()
        elif kind == "sim":
            pads.handle_event(on_pads(pygame, e))
    if kind != "sim" and hasattr(pads, "poll"):
        pads.poll()
    for inp in taken(inbox):
        if isinstance(inp, PadEdge):
            test.handle(inp)
    test.tick(pads.clock.now())


def displays(pygame: Any) -> int:
    """How many displays the table has (the room's window needs one of its own)."""
    try:
        return len(pygame.display.get_desktop_sizes())
    except pygame.error:
        return 1


def taken(inbox: queue.Queue[Input]) -> Iterator[Input]:
    """Every input waiting in the inbox, taken out of it."""
    while True:
        try:
            yield inbox.get_nowait()
        except queue.Empty:
            return


def on_pads(pygame: Any, e: Any) -> Any:
    """An event for the simulated pads: a mouse's on the canvas's right part (x from 800),
    moved to the simulator's own coordinates; any other as it is."""
    if e.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
        return pygame.event.Event(e.type, button=e.button, pos=(e.pos[0] - 800, e.pos[1]))
    return e


def forget_presses(inbox: queue.Queue[Input]) -> None:
    """Presses made on the setup screen belong to no game; links going down or up do."""
    from ..pads.events import PadLink
    kept = [inp for inp in taken(inbox) if isinstance(inp, PadLink)]
    for inp in kept:
        inbox.put(inp)
