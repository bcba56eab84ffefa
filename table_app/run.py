"""`table-app` (play): the table with its pads, its voice and the host's keys; and `--demo`.

Without hardware the pads are the pygame simulator. `--demo` plays a whole game with bot
players on fake pads, headless, printing the narration.
"""

from __future__ import annotations

import json
import os
import queue
import sys
import threading
import time
from collections import deque
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from firmware_bridge.ringdraw import MAX_SEATS

from .clock import Clock, FakeClock, MonotonicClock
from .pads import FakePads, GrammarConfig, make_pads
from .paths import formats_dir, state_dir, write_private
from .rules import BUILTIN_FORMATS, Format, RulesError, club_formats, load_format
from .sound.catalogue import text
from .sound.player import quiet_alsa
from .table.app import TableApp
from .table.bots import TableBots
from .table.config import Host, Input
from .table.core import Table
from .table.journal import JournalFull

DEFAULT_JOURNAL = state_dir() / "game.journal"

#: how often the window's own events (taps, keys) are looked at while nothing else wakes the
#: loop: SDL 2.26 has no real wait for the Pi's console driver (KMSDRM), and inside
#: pygame.event.wait it polls every millisecond, about 1,000 wakeups a second (3 % of a
#: processor) for as long as the table stood idle; a tap waits 40 ms at most (unnoticed on
#: a touch panel), a pad not at all
EVENTS_EVERY = 0.04


def _events(pygame: Any, timeout: float, woken: threading.Event | None = None) -> list[Any]:
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


class Captions:
    """A voice that prints what it says (the headless demo, a table without speakers)."""

    def __init__(self, lang: str, out: Any = None) -> None:
        self.lang = lang
        self.out = out or sys.stdout

    def say(self, line: list[str]) -> None:
        words = " ".join(text(c, self.lang) or c for c in line)
        self.out.write(words + "\n")
        self.out.flush()

    def timer(self, name: str) -> None:
        pass

    def set_lang(self, lang: str) -> None:
        self.lang = lang


def _host_language(args: Any, app: TableApp) -> None:
    """A resumed game in the language the host asked for on the command line (journaled,
    so the next resume keeps it); one he did not ask for keeps its own."""
    table = app.table
    if (app.resumed and table is not None and getattr(args, "lang_given", False)
            and args.lang != table.cfg.lang):
        app.feed(Host(("lang", args.lang)))


class ScaledClock:
    """Game time running `speed` times faster than real time (the demo)."""

    def __init__(self, speed: float) -> None:
        self.speed = speed
        self.t0 = time.monotonic()

    def now(self) -> float:
        return 1000.0 + (time.monotonic() - self.t0) * self.speed


def _caps(args: Any) -> tuple[float, float] | None:
    night, day = getattr(args, "night_cap", None), getattr(args, "day_cap", None)
    return None if night is None or day is None else (night, day)


def outcome(table: Table) -> dict[str, Any]:
    return table.game.outcome().to_json()


def _record(args: Any, app: TableApp, names: Any) -> Any:
    """Every game this table finishes goes into the records (unless --no-record)."""
    if getattr(args, "no_record", False):
        return None
    from .records.recorder import Recorder
    s = getattr(args, "records", None)
    recorder = Recorder(
        app, names, host=getattr(s, "host", ""), local=getattr(s, "records_local", "") or None,
        league=getattr(s, "records_url", "") or None, club=getattr(s, "club", ""),
        table_name=getattr(s, "table_name", ""),
        note=lambda text: print(f"table-app: {text}", file=sys.stderr))
    # (attached before the journal is opened: a game that ended before a restart and is
    # not in the records yet is taken the moment the journal is read, before a new game
    # takes its place)
    app.observers.append(recorder)
    app.keepers.append(recorder.keep)
    recorder.resume()                 # games kept aside, and games the league did not get
    return recorder


def _tell(notices: list[tuple[str, str]]) -> None:
    """What the host must know about how the table opened, on stderr (the system's log)."""
    from .screen.model import t
    for key, detail in notices:
        print(f"table-app: {t(key, 'en')} ({detail})", file=sys.stderr)


def demo(args: Any) -> int:
    """A whole game with bots, headless; prints the narration and the outcome."""
    journal = Path(args.journal or (DEFAULT_JOURNAL.parent / "demo.journal"))
    inbox: queue.Queue[Input] = queue.Queue()
    clock: Clock = FakeClock() if args.fast else ScaledClock(args.speed)
    # as many pads as the game has players (a table of 12 at the least, as before)
    pads = FakePads(max(12, args.players or 0), inbox.put, clock)
    voice = Captions(args.lang)
    app = TableApp(pads, voice, clock, journal, inbox, GrammarConfig())
    _record(args, app, dict)
    table = app.open(args.format, args.players, args.lang, args.deal, args.seed, args.format_file,
                     new=args.new, caps=_caps(args))
    _tell(app.notices)
    _host_language(args, app)
    if args.fast:
        from .table.virtual import follow_journal
        assert isinstance(clock, FakeClock)
        follow_journal(app, clock)
    pads.clock = app.clock                   # pads stamp edges with the game's clock
    if app.resumed:
        print(f"(resumed from {journal}, {len(app.entries)} inputs)")
    bots = TableBots(pads, table.cfg.seed)
    if args.fast:
        from .table.virtual import run_virtual
        assert isinstance(clock, FakeClock)
        pace = args.pace

        def paced(t: Table) -> None:
            if pace:
                time.sleep(pace)
        app.observers.append(paced)
        table = run_virtual(app, bots, clock)
    else:
        while True:
            now = app.clock.now()
            for cmd in bots.observe(app.table, now):   # type: ignore[arg-type]
                app.feed(Host(cmd))
            bots.fire(now)
            nxt = bots.next_time()
            wait = 0.05 if nxt is None else max(0.0, min(0.05, (nxt - now) / args.speed))
            if not app.step(wait):
                break
        assert app.table is not None                    # the game the run opened
        table = app.table
    result = outcome(table)
    print("OUTCOME " + json.dumps(result))
    if args.script_out:
        write_private(args.script_out, table.game_script())   # every role of the game
    app.close()
    return 0


def _setup_screen(pygame: Any, display: Any, area: Any, setup: Any,
                  pulse: Any = None) -> Any:
    """The setup screen until the host starts (the Setup), or closes the window (None).
    `pulse()` runs at least every 0.2 s meanwhile (systemd's watchdog, the pads)."""
    from .screen.paint import Painter
    from .screen.setup import draw_setup, handle
    lo, hi = setup.limits()
    pygame.key.start_text_input()         # typed text arrives as TEXTINPUT (an IME's too)
    setup.players = max(lo, min(hi, setup.players))
    painter = Painter()
    from .systemd import notify
    notify("READY=1\nSTATUS=setup screen" + "".join(f"; {detail}" for _, detail in setup.notices))
    waiting: deque[Any] = deque()
    while not setup.done:
        buttons = draw_setup(painter, area, setup)
        display.flip()
        if not waiting:                   # (a timeout, so Ctrl-C is heard here too)
            waiting.extend(_events(pygame, 0.2))
        # one event a drawing, as it came: a tap's buttons are the screen it tapped
        ev = waiting.popleft() if waiting else pygame.event.Event(pygame.NOEVENT)
        if pulse is not None:
            pulse()
        if ev.type == pygame.QUIT:
            return None
        ev = display.event(ev)
        # (Tab while a seat's name is typed goes on to the next seat's, not the other pane)
        if ev is None or not setup.editing and display.key(ev):
            continue
        handle(setup, ev, pygame, buttons)
    return setup


def _no_display(exc: Exception) -> NoDisplay:
    from .screen.display import video_drivers
    try:
        drivers = video_drivers()
    except OSError:
        drivers = []
    have = f"; this pygame's SDL has {', '.join(drivers) or 'no video driver'}"
    if drivers and "KMSDRM" not in drivers:
        have += " (no KMSDRM, the console's: Debian's python3-pygame has it)"
    return NoDisplay(f"no display could be opened ({exc}){have}")


def _check_screen(pygame: Any, display: Any, area: Any, pads: Any, kind: str,
                  inbox: queue.Queue[Input], voice: Any, lang: str, pulse: Any,
                  players: int | None = None) -> Any:
    """The table's check on the host's screen, with the voice, until the host taps Done
    (or Cancel, or presses Escape): the layout it saved to the settings (buttons, rotation,
    rings), True when it saved none, False when the window was closed. The simulator's
    check is a rehearsal of the table being set up (its `players`), and saves nothing."""
    from .check import SelfTest
    from .screen.checkscreen import CheckScreen
    from .screen.paint import Painter
    from .settings import SettingsError, write_pad_layout
    test = SelfTest(pads, wait=30.0, seats=players if kind == "sim" else None)
    screen = CheckScreen(test, voice, lang)
    painter = Painter()
    _forget_presses(inbox)
    test.start(pads.clock.now())
    try:
        while not screen.closed:
            _check_round(pygame, display, area, pads, kind, inbox, voice, pulse, test, screen,
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


def _check_round(pygame: Any, display: Any, area: Any, pads: Any, kind: str,
                 inbox: queue.Queue[Input], voice: Any, pulse: Any, test: Any, screen: Any,
                 painter: Any) -> None:
    """One round of the check's loop: draw, the host's taps and keys, the pads, the time
    (`screen.closed` None: the window was closed)."""
    from .pads.events import PadEdge
    now = pads.clock.now()
    screen.update()
    buttons = screen.draw(painter, area, now)
    if kind == "sim":
        pads.draw()
    display.flip()
    if hasattr(voice, "update"):
        voice.update()
    events = _events(pygame, 0.05)
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
            pads.handle_event(_on_pads(pygame, e))
    if kind != "sim" and hasattr(pads, "poll"):
        pads.poll()
    for inp in _taken(inbox):
        if isinstance(inp, PadEdge):
            test.handle(inp)
    test.tick(pads.clock.now())


def _displays(pygame: Any) -> int:
    """How many displays the table has (the room's window needs one of its own)."""
    try:
        return len(pygame.display.get_desktop_sizes())
    except pygame.error:
        return 1


def _taken(inbox: queue.Queue[Input]) -> Iterator[Input]:
    """Every input waiting in the inbox, taken out of it."""
    while True:
        try:
            yield inbox.get_nowait()
        except queue.Empty:
            return


def _on_pads(pygame: Any, e: Any) -> Any:
    """An event for the simulated pads: a mouse's on the canvas's right part (x from 800),
    moved to the simulator's own coordinates; any other as it is."""
    if e.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
        return pygame.event.Event(e.type, button=e.button, pos=(e.pos[0] - 800, e.pos[1]))
    return e


def _forget_presses(inbox: queue.Queue[Input]) -> None:
    """Presses made on the setup screen belong to no game; links going down or up do."""
    from .pads.events import PadLink
    kept = [inp for inp in _taken(inbox) if isinstance(inp, PadLink)]
    for inp in kept:
        inbox.put(inp)


class TableWindow:
    """The table on the Pi's screen: its window, its pads (simulated beside the host's screen
    without hardware), its voice, the setup screen, then the games, one loop that sleeps till
    something happens (a key, a touch, a pad, a timer, a frame to draw)."""

    def __init__(self, args: Any) -> None:
        import pygame

        from .pads.factory import backend_kind
        from .screen.setup import load_names
        from .systemd import Watchdog
        self.args = args
        self.pygame = pygame
        self.journal = Path(args.journal or DEFAULT_JOURNAL)
        self.inbox: queue.Queue[Input] = queue.Queue()
        #: set by a pads' driver when it put an input in the inbox: the loop wakes at once
        self.woken = threading.Event()
        self.clock = MonotonicClock()
        self.kind = backend_kind(args.pads)
        self.names = load_names()
        self.watchdog = Watchdog()
        self.recorder: Any = None
        self.public: Any = None
        self.pads: Any = None
        self.app: TableApp | None = None

    # -- opening -------------------------------------------------------------------------
    def open(self) -> None:
        """The window, the pads and the voice; the journal's game, if one was running."""
        pygame = self.pygame
        # Ctrl-C (or kill -INT) always stops the table, even when it was started by something
        # that ignores SIGINT for its children (a shell's `&`): SDL takes the signal over only
        # where it is left at its default, and turns it into a quit
        import signal

        from .pads.sim import SimPads
        from .screen.display import Display
        from .sound import SoundBoard
        if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
            signal.signal(signal.SIGINT, signal.SIG_DFL)
        pygame.init()
        width = 800 + (480 if self.kind == "sim" else 0)
        try:
            self.display = Display(pygame, (width, 480), getattr(self.args, "fullscreen", False),
                                   pane=800 if self.kind == "sim" else None)
        except pygame.error as exc:
            raise _no_display(exc) from None
        asked = os.environ.get("SDL_VIDEODRIVER", "")
        if pygame.display.get_driver() in ("offscreen", "dummy") and not asked:
            # SDL found no screen and drew into memory: a table nobody can see is no table
            raise NoDisplay("no display found (no desktop session, and no console screen SDL "
                            "could open): start it on the Pi's screen, or set "
                            "SDL_VIDEODRIVER=dummy to run it headless on purpose")
        # on a panel too small for both, the host's screen and the simulator take turns
        pygame.display.set_caption("Mafia table" + (" (Tab: host screen / pads)"
                                                    if self.display.panes else ""))
        self.host_area = self.display.canvas.subsurface((0, 0, 800, 480))
        wake = pygame.event.custom_type()
        inbox, woken = self.inbox, self.woken

        def sink(ev: Any) -> None:
            inbox.put(ev)
            try:
                pygame.event.post(pygame.event.Event(wake))     # from a driver's thread: safe
            except pygame.error:
                pass
            woken.set()

        # the table's pads: 12 a controller, as many as `pads.seats` says (a big table's two
        # or three controllers); the simulator draws them all
        seats = getattr(self.args, "pad_seats", None) or 12
        ring = getattr(self.args, "ring", None) or 12
        if self.kind == "sim":
            # the simulator has pads for the biggest table, and draws the game's players
            self.pads = SimPads(MAX_SEATS, sink, self.clock, size=(480, 480),
                                surface=self.display.canvas.subsurface((800, 0, 480, 480)),
                                ring_size=ring)
            self.pads.set_table(getattr(self.args, "players", None) or seats)
        elif self.kind == "serial":
            self.pads = make_pads(self.kind, seats, sink, self.clock, ring_size=ring,
                                  controllers=getattr(self.args, "controllers", None))
        else:
            self.pads = make_pads(self.kind, seats, sink, self.clock)
        self._layout()
        self.pads.start()
        args = self.args
        if args.silent:
            self.voice: Any = Captions(args.lang)
        else:
            self.voice = SoundBoard(args.lang, volume=args.volume, voice_pack=args.voice_pack,
                                    device=getattr(args, "audio_device", "") or None)
            quiet_alsa(self.voice.start)
        self.app = TableApp(self.pads, self.voice, self.clock, self.journal, inbox,
                            GrammarConfig())
        self.recorder = _record(args, self.app, lambda: self.names)
        self._host_name(self.names)

    def _host_name(self, names: dict[int, str]) -> None:
        """The host's name typed on the setup screen (seat 0), on the games' sheets from
        now on; none typed: the settings' `records.host`."""
        if self.recorder is not None and names.get(0):
            self.recorder.host = names[0]

    def _layout(self) -> None:
        # which button is whose, and how each ring is turned: as `table-app check` found them
        args = self.args
        self.pads.set_layout(getattr(args, "buttons", None), getattr(args, "rotation", None),
                             getattr(args, "rings", None))

    def _pulse(self) -> None:
        self.watchdog.beat(time.monotonic())
        if self.kind != "sim" and hasattr(self.pads, "poll"):
            self.pads.poll()

    def choose(self, t0: Any, notices: list[tuple[str, str]]) -> Any:
        """The setup screen: the next game's choices (None: the window was closed); the
        table's check when the host asks for it there, then the setup screen again."""
        from .screen.setup import Setup, save_choices, save_names
        while True:
            if self.kind == "sim":
                self.pads.lang = t0[2]
                self.pads.draw()
            house, bad = self._club_formats()
            if t0[0] not in BUILTIN_FORMATS and t0[0] not in house:
                t0 = ("yakuza", *t0[1:])      # the last game's club format is gone
            setup = _setup_screen(self.pygame, self.display, self.host_area, Setup(
                t0[0], t0[1], t0[2], t0[3], self.names,
                notices=[*notices, *(("format_file_bad", b) for b in bad)],
                seats=self.pads.seats, house={k: f for k, (f, _) in house.items()}),
                self._pulse)
            if setup is not None:
                chosen = house.get(setup.fmt)
                self.args.format_file = str(chosen[1]) if chosen else None
                save_choices(setup)
            if setup is not None:
                save_names(setup.names)
                _forget_presses(self.inbox)
                self._host_name(setup.names)
            if setup is None or not setup.check:
                return setup
            t0, notices = (setup.fmt, setup.players, setup.lang, setup.deal), []
            if hasattr(self.voice, "set_lang"):
                self.voice.set_lang(setup.lang)
            found = _check_screen(self.pygame, self.display, self.host_area, self.pads,
                                  self.kind, self.inbox, self.voice, setup.lang, self._pulse,
                                  setup.players)
            if found is False:
                return None
            if found is not True:               # saved: the table's layout from now on
                self.args.buttons, self.args.rotation, self.args.rings = found
            self._layout()

    def _club_formats(self) -> tuple[dict[str, tuple[Format, Path]], list[str]]:
        """The club's own formats (its formats folder's, and the one the command line or
        the game going on names), and the files there that cannot be read."""
        house, bad = club_formats(formats_dir())
        named = getattr(self.args, "format_file", None)
        if named:
            try:
                fmt = load_format(named)
                house.setdefault(fmt.id, (fmt, Path(named)))
            except RulesError as exc:
                bad.append(str(exc))
        return house, bad

    def first_game(self) -> Table | None:
        """The journal's game going on, or a new one chosen on the setup screen (None: the
        host closed the window there)."""
        app, args = self.app, self.args
        assert app is not None
        unwritable: list[tuple[str, str]] = []
        try:
            table = app.resume(args.new)
        except (OSError, JournalFull) as exc:   # a full disk: no journal can be made yet
            table, unwritable = None, [("journal_unwritable", self._unwritable(exc))]
        notices = [*getattr(args, "notices", []), *app.notices, *unwritable]
        _tell(notices)
        ask = (not args.format and not args.format_file) or bool(unwritable)
        resumed = table is not None
        while table is None:
            if ask:
                setup = self.choose((args.format or getattr(args, "offer_format", None)
                                     or "yakuza", args.players or 12, args.lang, args.deal),
                                    notices)
                if setup is None:
                    return None
                self.names = setup.names
                args.format, args.players, args.lang, args.deal = (setup.fmt, setup.players,
                                                                   setup.lang, setup.deal)
            try:
                if app.journal is None:     # it could not be opened: its game first, if any
                    table = app.resume(args.new)
                    if table is not None:
                        resumed = True
                        break
                table = app.start(args.format or "yakuza", args.players, args.lang,
                                  args.deal, args.seed, args.format_file, caps=_caps(args))
            except (OSError, JournalFull) as exc:
                # the setup screen with the reason, not an exit (under systemd, a restart
                # loop): the host frees space and starts the game from there
                notices, ask = [("journal_unwritable", self._unwritable(exc))], True
                _tell(notices)
                continue
            app.sync_buttons()
        if resumed:
            from .screen.model import t
            _host_language(args, app)
            for key, detail in notices:        # a game goes on: the host reads them there
                table.note(f"{t(key, table.cfg.lang)}: {detail}")
        return table

    def _unwritable(self, exc: Exception) -> str:
        """Why the journal could not be made or written, naming the file."""
        if isinstance(exc, JournalFull):
            return str(exc)
        assert isinstance(exc, OSError)
        return f"{exc.filename or self.journal}: {exc.strerror or exc}"

    # -- the loop ------------------------------------------------------------------------
    def run(self, table: Table) -> None:
        """The games, till the window is closed (or Ctrl-C)."""
        from .screen import Screen, Totals
        from .screen.public import PublicWindow
        from .systemd import notify
        from .table.host import HostKeys
        app, pygame = self.app, self.pygame
        assert app is not None
        self.pads.clock = app.clock
        self.totals = Totals()
        table.on_effects = self.totals
        self.keys = HostKeys(self.inbox.put, lambda: bool(
            self.app is not None and self.app.table is not None and self.app.table.paused))
        self.screen = Screen(self.host_area)
        self.public = PublicWindow() if self.args.public_window else None
        print(f"table-app: {table.cfg.fmt.title}, {table.cfg.players} players, pads: "
              f"{self.pads.name}, journal: {self.journal}"
              + (" (resumed)" if app.resumed else ""))
        next_frame = 0.0
        notify(f"READY=1\nSTATUS={table.cfg.fmt.title}, {table.cfg.players} players")
        try:
            while True:
                events = _events(pygame, self._wait(), self.woken)
                if any(e.type == pygame.QUIT for e in events):
                    break
                events = [e for e in map(self.display.event, events) if e is not None]
                if not self._handle(events):
                    break
                app.drain()
                if hasattr(self.voice, "update"):
                    self.voice.update()
                now = time.monotonic()
                self.watchdog.beat(now)
                if now >= next_frame or events:  # at most 30 frames a second, and changes
                    next_frame = now + 1.0 / Screen.FPS
                    self._draw()
        except KeyboardInterrupt:
            pass

    def _wait(self) -> float:
        # sleep until something happens: a key, a touch, a pad (its driver posts a wake), a
        # timer, the next frame that must be drawn; an idle table costs next to nothing
        assert self.app is not None
        wait = self.app.wake_in()
        if hasattr(self.voice, "busy") and self.voice.busy():
            wait = min(wait, 0.05)
        soon = self.pads.changes_in() if self.kind == "sim" else None
        if soon is not None:
            wait = min(wait, soon + 0.01)       # (just past the change, not just before it)
        if self.watchdog.every is not None:
            wait = min(wait, self.watchdog.every)
        return wait

    def _handle(self, events: list[Any]) -> bool:
        """The window's events: the host's touches and keys, the room's window, the
        simulated pads. False: the host closed the window (on the setup screen)."""
        from .screen.public import PublicWindow
        pygame = self.pygame
        rest = []
        for e in events:
            if e.type == pygame.MOUSEBUTTONDOWN and e.button == 1 and e.pos[0] < 800:
                if not self._touch(e.pos):
                    return False
            elif e.type == pygame.MOUSEBUTTONUP and e.button == 1 and self.screen.release():
                pass                            # a peek at the roles ends with the finger
            elif e.type in (pygame.KEYDOWN, pygame.KEYUP) and e.key == pygame.K_r:
                # R held down: the host peeks at the roles, as with his roles button
                self.screen.peek = e.type == pygame.KEYDOWN
                self.screen.last = None
            elif self.display.key(e):
                self.screen.last = None         # the other pane: drawn again
            elif e.type == pygame.KEYDOWN and e.key == pygame.K_ESCAPE:
                # Escape backs out of a question of the host's own, on the screen or half
                # typed (a trial host found no way out of "Disqualify #4?" but another seat)
                self.screen.dismiss()
                self.keys.mode = []
                self.screen.last = None
            elif e.type == pygame.KEYDOWN and e.key == pygame.K_s and not self.keys.mode \
                    and self._unseen():
                # S past seats that never looked at their role asks once more, as the
                # screen's Start does; S again starts
                asked = self.screen.confirm == ("begin",)
                self.screen.confirm = None if asked else ("begin",)
                self.screen.last = None
                if asked:
                    self.keys.handle_pygame(e)
            elif e.type in (pygame.KEYDOWN, pygame.KEYUP) and \
                    pygame.K_F1 <= e.key <= pygame.K_F12:
                # the simulator's seats 13-30; after F, D or A the seat of the host's command
                # (a key let go always reaches the pads: a pad held before is let go)
                if not (e.type == pygame.KEYDOWN and self.keys.mode and
                        self.keys.handle_pygame(e)):
                    rest.append(e)
            elif e.type == pygame.KEYDOWN and e.unicode.lower() == "v":
                # the room's own window, opened or closed: never the host's screen
                if self.public is None and _displays(pygame) < 2:
                    # one display: the room's window would cover the host's screen
                    assert self.app is not None and self.app.table is not None
                    self.app.table.tell("public_one_display")
                    self.screen.last = None
                elif self.public is None:
                    self.public = PublicWindow()
                else:
                    self.public.close()
                    self.public = None
            elif e.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP) and \
                    e.pos[0] >= 800:
                rest.append(_on_pads(pygame, e))
            elif not self.keys.handle_pygame(e):
                rest.append(e)
        if self.kind == "sim":
            for e in rest:
                self.pads.handle_event(e)
        elif hasattr(self.pads, "poll"):
            self.pads.poll()
        return True

    def _unseen(self) -> bool:
        """Are there seats that never looked at their role (an app deal, before Start)?"""
        table = self.app.table if self.app is not None else None
        return table is not None and table.stage in ("deal", "ready") and bool(
            table.dealing.unseen())

    def _touch(self, pos: tuple[int, int]) -> bool:
        """A tap on the host's screen; False: he closed the window on the setup screen."""
        from .systemd import notify
        app = self.app
        assert app is not None and app.table is not None
        self.totals.dismiss()                # the host taps on: the totals are read
        cmd = self.screen.touch(pos)
        self.screen.last = None
        if cmd == ("setup",):
            # the game is over: new players, or another format, from the setup screen; then
            # the next game at this table
            c = app.table.cfg
            app.leave()
            setup = self.choose((c.fmt.id, c.players, c.lang, c.deal), [])
            if setup is None:
                return False
            self.names = setup.names
            app.next_game(fmt_id=setup.fmt, players=setup.players, lang=setup.lang,
                          deal=setup.deal, format_file=self.args.format_file)
            assert app.table is not None
            notify(f"STATUS={app.table.cfg.fmt.title}, {setup.players} players")
        elif cmd is not None:
            self.inbox.put(Host(cmd))
        return True

    def _draw(self) -> None:
        from .screen import Names, host_view
        from .screen.tableview import clock_line
        app = self.app
        assert app is not None
        table = app.table
        assert table is not None    # the loop runs once a game is open
        table.on_effects = self.totals
        shown = self.totals.shown(table)      # first: a new day clears what it kept
        view = host_view(table, Names(self.names), shown, now=app.clock.now(),
                         no_votes=self.totals.none_cast)
        if self.recorder is not None and table.stage == "over":
            view = replace(view, rating=self.recorder.top)
        self.screen.keys = tuple(self.keys.mode)      # a half-typed command, shown
        drew = self.screen.update(view)
        if self.public is not None:
            self.public.update(view)
        if self.kind == "sim":
            self.pads.lang = table.cfg.lang           # what its window says, in it
            self.pads.status = clock_line(view.public)
            drew = self.pads.draw() or drew
        if drew:
            self.display.flip()

    def close(self) -> None:
        if self.public is not None:
            self.public.close()
        if self.recorder is not None:
            self.recorder.close()
        if self.app is not None:
            self.app.close()
        if self.pads is not None:
            self.pads.close()


def play(args: Any) -> int:
    """The table itself: pads (simulated without hardware), voice, the host's screen."""
    window = TableWindow(args)
    try:
        window.open()
        table = window.first_game()
        if table is not None:
            window.run(table)
    finally:
        window.close()
    return 0
