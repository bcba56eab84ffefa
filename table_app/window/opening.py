"""The table's window up to its first game: the display, the pads (simulated beside the
host's screen without hardware), the voice, the records, the setup screen and the table's
check, and the journal's game or a new one."""

from __future__ import annotations

import os
import queue
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from firmware_bridge.ringdraw import MAX_SEATS

from ..clock import MonotonicClock
from ..pads import GrammarConfig, make_pads
from ..paths import formats_dir
from ..rules import BUILTIN_FORMATS, Format, RulesError, club_formats, load_format
from ..run import DEFAULT_JOURNAL, Captions, caps, host_language, record, tell
from ..sound.player import quiet_alsa
from ..table.app import TableApp
from ..table.config import Input
from ..table.journal import JournalFull
from . import loops

if TYPE_CHECKING:
    from ..table.core import Table


class Opening:
    """The table on the Pi's screen: its window, its pads (simulated beside the host's screen
    without hardware), its voice, the setup screen, then the games, one loop that sleeps till
    something happens (a key, a touch, a pad, a timer, a frame to draw)."""

    def __init__(self, args: Any) -> None:
        import pygame

        from ..pads.factory import backend_kind
        from ..screen.setup import load_names
        from ..systemd import Watchdog
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

        from ..pads.sim import SimPads
        from ..screen.display import Display
        from ..sound import SoundBoard
        if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
            signal.signal(signal.SIGINT, signal.SIG_DFL)
        # what the window draws with; the voice opens the audio device itself, with the
        # settings' `audio.device` (pygame.init() opened the default one first, and the
        # voice's own opening then changed nothing: a club's chosen output was never used)
        pygame.font.init()
        width = 800 + (480 if self.kind == "sim" else 0)
        try:
            pygame.display.init()         # (a driver SDL does not have: a screen not found)
            self.display = Display(pygame, (width, 480), getattr(self.args, "fullscreen", False),
                                   pane=800 if self.kind == "sim" else None)
        except pygame.error as exc:
            raise loops.no_display(exc) from None
        asked = os.environ.get("SDL_VIDEODRIVER", "")
        if pygame.display.get_driver() in ("offscreen", "dummy") and not asked:
            # SDL found no screen and drew into memory: a table nobody can see is no table
            raise loops.NoDisplay("no display found (no desktop session, and no console screen SDL "
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
        self.recorder = record(args, self.app, lambda: self.names)
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
        from ..screen.setup import Setup, save_choices, save_names
        while True:
            if self.kind == "sim":
                self.pads.lang = t0[2]
                # the last game's clock and speaker leave with it (a trial's host left a
                # game at night and its "Night 2 0:09" stayed on the simulator, through the
                # table's check and on the setup screen)
                self.pads.status, self.pads.turn = "", 0
                self.pads.draw()
            house, bad = self._club_formats()
            if t0[0] not in BUILTIN_FORMATS and t0[0] not in house:
                t0 = ("yakuza", *t0[1:])      # the last game's club format is gone
            setup = loops.setup_screen(self.pygame, self.display, self.host_area, Setup(
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
                loops.forget_presses(self.inbox)
                self._host_name(setup.names)
            if setup is None or not setup.check:
                return setup
            t0, notices = (setup.fmt, setup.players, setup.lang, setup.deal), []
            if self.kind == "sim":
                self.pads.lang = setup.lang      # (its keys' line said them in the last one)
            if hasattr(self.voice, "set_lang"):
                self.voice.set_lang(setup.lang)
            found = loops.check_screen(self.pygame, self.display, self.host_area, self.pads,
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
        tell(notices)
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
                                  args.deal, args.seed, args.format_file, caps=caps(args))
            except (OSError, JournalFull) as exc:
                # the setup screen with the reason, not an exit (under systemd, a restart
                # loop): the host frees space and starts the game from there
                notices, ask = [("journal_unwritable", self._unwritable(exc))], True
                tell(notices)
                continue
            app.sync_buttons()
        if resumed:
            from ..screen.model import t
            host_language(args, app)
            for key, detail in notices:        # a game goes on: the host reads them there
                table.note(f"{t(key, table.cfg.lang)}: {detail}")
        return table

    def _unwritable(self, exc: Exception) -> str:
        """Why the journal could not be made or written, naming the file."""
        if isinstance(exc, JournalFull):
            return str(exc)
        assert isinstance(exc, OSError)
        return f"{exc.filename or self.journal}: {exc.strerror or exc}"
