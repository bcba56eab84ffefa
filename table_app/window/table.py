"""The table's window in play: one loop that sleeps till something happens (a key, a
touch, a pad, a timer, a frame to draw), the host's touches and keys, the drawing; and
`table-app` itself (play)."""

from __future__ import annotations

import time
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ..table.config import Host
from . import loops
from .opening import Opening

if TYPE_CHECKING:
    from ..table.core import Table


class TableWindow(Opening):
    """The table on the Pi's screen, its games played till the window is closed."""

    # -- the loop ------------------------------------------------------------------------
    def run(self, table: Table) -> None:
        """The games, till the window is closed (or Ctrl-C)."""
        from ..screen.model import Totals
        from ..screen.public import PublicWindow
        from ..screen.render import Screen
        from ..systemd import notify
        from ..table.host import HostKeys
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
                events = loops.wait_events(pygame, self._wait(), self.woken)
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
        from ..screen.public import PublicWindow
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
                if self.public is None and loops.displays(pygame) < 2:
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
                rest.append(loops.on_pads(pygame, e))
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
        from ..systemd import notify
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
        from ..screen.model import Names, host_view
        from ..screen.tableview import clock_line
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
            self.pads.turn = next((sv.seat for sv in view.public.seats if sv.speaking), 0)
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
