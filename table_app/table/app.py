"""The table's event loop: one queue in; every input journaled, then applied.

Pad drivers, timers and the host all put inputs on one queue; the loop takes them one at a
time, writes each to the journal (fsync'd) and only then hands it to the `Table`. On start it
reads the journal back, if there is one, and replays it with the voice muted, so a killed
app comes back to the same game at the same point, its timers where they were.
"""

from __future__ import annotations

import queue
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..clock import Clock
from ..pads import GrammarConfig, PadBackend, PadPanel
from ..pads.events import PadLevel, PadLink
from ..rules import Format, find_format, load_format
from ..sound.catalogue import LANGS
from .config import Host, Input, TableConfig, Tick, Voice, new_seed
from .journal import Journal, JournalFull, JournalUnreadable, decode, encode, set_aside

if TYPE_CHECKING:
    from .core import Table

DEALS = ("app", "cards")
#: Host commands that `undo` can take back.
UNDOABLE = ("foul", "disqualify", "act", "skip")
#: what may follow a skip that is still undone as if it never was: time, and buttons synced
#: (a press after it belongs to what came next, and would be replayed out of its place)
AFTER_SKIP = ("tick", "level")
TICK_EVERY = 1.0       # while a timer runs, time is journaled this often (resume accuracy)


def check_start(fmt_id: str, players: int | None, lang: str, deal: str,
                format_file: str | None, seats: int) -> tuple[Format, int]:
    """The format and the seats of the game these choices would start at a table of `seats`
    pads, or the reason it cannot start (RulesError, ValueError)."""
    fmt = load_format(format_file) if format_file else find_format(fmt_id)
    n = players or fmt.default_players or min(seats, fmt.max_players)
    fmt.check_players(n)
    if n > seats:
        raise ValueError(f"{n} players but only {seats} pads (a table of more: pads.seats in "
                         f"the settings, and a pad controller for every 12 seats)")
    if lang not in LANGS:
        raise ValueError(f"no language {lang!r} (one of {', '.join(LANGS)})")
    if deal not in DEALS:
        raise ValueError(f"no deal {deal!r} (app or cards)")
    return fmt, n


class Gate:
    """The voice, mutable: a replay does not say again what was said before."""

    def __init__(self, voice: Voice) -> None:
        self.voice = voice
        self.muted = False

    def say(self, line: list[str]) -> None:
        if not self.muted:
            self.voice.say(line)

    def timer(self, name: str) -> None:
        if not self.muted:
            self.voice.timer(name)

    def set_lang(self, lang: str) -> None:
        """The game's language, for a voice that can change its own (a replay's too: it
        ends in the language the game is in)."""
        change = getattr(self.voice, "set_lang", None)
        if change is not None:
            change(lang)


class ResumedClock:
    """A clock that goes on from where the journal stopped (downtime is not game time)."""

    def __init__(self, clock: Clock, at: float) -> None:
        self.clock = clock
        self.offset = at - clock.now()

    def now(self) -> float:
        return self.clock.now() + self.offset


class TableApp:
    """The loop around one table."""

    def __init__(self, backend: PadBackend, voice: Voice, clock: Clock,
                 journal: str | Path, inbox: queue.Queue[Input],
                 grammar: GrammarConfig | None = None, sync: bool = True) -> None:
        self.backend = backend
        self.gate = Gate(voice)
        self.base_clock = clock
        self.clock: Clock = clock
        self.journal_path = Path(journal)
        self.inbox = inbox
        self.grammar = grammar
        self.sync = sync
        self.table: Table | None = None
        self.entries: list[dict[str, Any]] = []
        self.journal: Journal | None = None
        self.last_tick = 0.0
        self.resumed = False
        self.observers: list[Callable[[Table], None]] = []
        #: who must take a finished game before its journal goes (the recorder): each says
        #: whether the game is safe with it; a game one could not take keeps its journal
        #: (moved aside) when the next one starts
        self.keepers: list[Callable[[Table], bool]] = []
        #: when an entry last could not be written (a full disk), None while all is well;
        #: `full_at`: when it first could not (the game is paused from then)
        self.full: float | None = None
        self.full_at: float | None = None
        #: what the host must be told about how the table opened (a journal set aside)
        self.notices: list[tuple[str, str]] = []    # (a screen text's key, the detail)

    # -- opening -------------------------------------------------------------------------
    def open(self, fmt_id: str = "yakuza", players: int | None = None, lang: str = "en",
             deal: str = "app", seed: int | None = None, format_file: str | None = None,
             roles: tuple[str, ...] | None = None,
             options: dict[str, Any] | None = None, new: bool = False,
             caps: tuple[float, float] | None = None) -> Table:
        """Resume the journal's game if there is one, else start a new game."""
        if self.resume(new) is not None:
            assert self.table is not None
            return self.table
        return self.start(fmt_id, players, lang, deal, seed, format_file, roles, options,
                          caps)

    def resume(self, new: bool = False) -> Table | None:
        """Take the journal (held by this process from now on) and resume its game if one is
        unfinished; None when a new game is to start. A journal that cannot be read back is
        moved aside, never overwritten, and said in `notices`."""
        try:
            self.journal = Journal(self.journal_path, self.sync)
        except JournalUnreadable as exc:
            self._set_aside(str(exc))
            self.journal = Journal(self.journal_path, self.sync)
        if new and self.journal.entries:
            self._keep_before_new()
        entries = [] if new else self.journal.entries
        if not entries or entries[-1].get("k") == "left":
            return None                    # (a game the host left: the setup screen)
        self.resumed = True
        self.entries = entries
        self.clock = ResumedClock(self.base_clock, float(entries[-1]["t"]))
        try:
            self._rebuild()
        except Exception as exc:    # a start the rules no longer take (a format file gone)
            self.resumed, self.entries, self.table = False, [], None
            self.clock = self.base_clock
            self.journal.close()
            self._set_aside(f"its game cannot be set up again ({type(exc).__name__}: {exc})")
            self.journal = Journal(self.journal_path, self.sync)
            return None
        assert self.table is not None
        for note in self.journal.notes:
            self.table.note(note)
        if self.table.stage != "over":
            if not any(e.get("k") == "host" and e.get("cmd") == ["begin"]
                       for e in self.entries[1:]):
                # cut between the game's start and its begin (the power-cut drill): the
                # deal never began, and the table waited for nothing
                self.feed(Host(("begin",)))
            if "disk" in self.table.pause_reasons:   # killed while the disk was full
                self.feed(Host(("disk", "ok")))
            self.sync_buttons()
            return self.table
        # that game is over: its record keeps it (it is taken now, should the table have
        # stopped before it was: a kill just after the last vote), a new game starts
        self._keep_finished()
        self.resumed = False
        self.clock = self.base_clock
        return None

    def _keep_before_new(self) -> None:
        """--new over a journal whose game is over: that game goes to its keepers first (the
        records), and one they could not take keeps its journal, moved aside; --new emptied
        it, and a game the records had not got was gone."""
        assert self.journal is not None
        self.entries = list(self.journal.entries)     # (the recorder takes its id here)
        try:
            self._rebuild()
        except Exception:       # a game that cannot be set up again: --new as the host asked
            self.table = None
        try:
            if self.table is not None and self.table.stage == "over" \
                    and not self._keep_finished():
                self.journal.close()
                self._set_aside("its finished game could not be recorded", label="unrecorded")
                self.journal = Journal(self.journal_path, self.sync)
        finally:
            self.table, self.entries = None, []

    def _set_aside(self, why: str, label: str = "unreadable") -> None:
        aside = set_aside(self.journal_path, label=label)
        self.notices.append(("journal_aside", f"kept as {aside.name}: {why}"))

    def _keep_finished(self) -> bool:
        """A finished game handed to every keeper; whether all of them have it safe."""
        table = self.table
        if table is None or table.stage != "over":
            return True
        safe = True
        for keep in self.keepers:
            try:
                safe = keep(table) and safe
            except Exception:        # a keeper that fails has not got it
                safe = False
        return safe

    def start(self, fmt_id: str = "yakuza", players: int | None = None, lang: str = "en",
              deal: str = "app", seed: int | None = None, format_file: str | None = None,
              roles: tuple[str, ...] | None = None, options: dict[str, Any] | None = None,
              caps: tuple[float, float] | None = None) -> Table:
        """A new game in the journal (after `resume` found none to go on with)."""
        if self.journal is None:
            self.journal = Journal(self.journal_path, self.sync)
        fmt, n = check_start(fmt_id, players, lang, deal, format_file, self.backend.seats)
        start = {"t": self.clock.now(), "k": "start", "fmt": fmt.id, "format_file": format_file,
                 "players": n, "lang": lang, "deal": deal,
                 "seed": new_seed() if seed is None else seed}
        if roles is not None:
            start["roles"] = list(roles)          # a given deal (a game script's)
        if options:
            start["options"] = options            # the format's options changed
        if caps is not None:
            start["caps"] = list(caps)            # the club's night and day brightness
        return self._begin(start)

    def _begin(self, start: dict[str, Any]) -> Table:
        """The game `start` describes, in the journal in place of the last one: set up
        first, so a start the table refuses is never written and the old game stays."""
        check_start(start["fmt"], start["players"], start["lang"], start["deal"],
                    start["format_file"], self.backend.seats)
        table = self._new_table(start)
        assert self.journal is not None
        if not self._keep_finished():
            # the finished game is in no record: its journal is kept beside, not emptied
            self.journal.close()
            self._set_aside("its finished game could not be recorded", label="unrecorded")
            self.journal = Journal(self.journal_path, self.sync)
        self.journal.reset()
        self.journal.write(start)
        self.entries = [start]
        self.resumed = False
        self.table = table
        self.feed(Host(("begin",)))
        return table

    def _new_table(self, start: dict[str, Any]) -> Table:
        fmt = load_format(start["format_file"]) if start.get("format_file") else \
            find_format(start["fmt"])
        roles = start.get("roles")
        options = tuple((str(k), v) for k, v in dict(start.get("options") or {}).items())
        cfg = TableConfig(fmt, int(start["players"]), str(start["lang"]), str(start["deal"]),
                          int(start["seed"]), tuple(str(r) for r in roles) if roles else None,
                          options)
        caps = start.get("caps")
        if isinstance(caps, list) and len(caps) == 2:
            cfg.night_cap, cfg.day_cap = float(caps[0]), float(caps[1])
        panel = PadPanel(self.backend, self.grammar)
        self.gate.set_lang(cfg.lang)          # the voice speaks the game's language
        # (the table, and the engine with it, first imported here: a start to the setup
        # screen does not wait for them)
        from .core import Table
        return Table(cfg, panel, self.gate)

    def _rebuild(self) -> None:
        """The state from the journal: every entry replayed, undone host commands skipped."""
        undone = {int(e["undo"]) for e in self.entries if e.get("k") == "undo"}
        self.gate.muted = True
        self.backend.go_quiet()
        try:
            self.table = self._new_table(self.entries[0])
            for i, e in enumerate(self.entries[1:], 1):
                if i in undone:
                    continue
                try:
                    inp = decode(e)
                    if inp is not None:
                        self.table.handle(inp, float(e["t"]))
                except Exception as exc:     # quarantined: the game goes on without it
                    self.table.note(f"journal entry {i + 1} left out: {type(exc).__name__}: "
                                     f"{exc}")
        finally:
            self.gate.muted = False
            self.backend.speak_again()

    # -- running -------------------------------------------------------------------------
    def feed(self, inp: Input) -> None:
        """Journal one input, then apply it."""
        assert self.table is not None and self.journal is not None
        now = self.clock.now()
        if isinstance(inp, Host) and inp.cmd[:1] == ("undo",):
            self._undo(now)
            return
        if isinstance(inp, Host) and inp.cmd == ("start",) and self.table.stage == "over":
            self.next_game()               # Start after a game: the next one, same table
            return
        if self.full is not None:
            if not self._space_again(now):
                return                     # still full: nothing is taken
            now = self.clock.now()         # after what that journaled
        entry = encode(inp, now)
        try:
            self.journal.write(entry)
        except JournalFull as e:
            self._disk_full(now, e)
            return
        self.entries.append(entry)
        if isinstance(inp, Tick):
            self.last_tick = now
        self.table.handle(inp, now)
        for watch in self.observers:
            watch(self.table)
        if isinstance(inp, PadLink) and inp.up:
            self.sync_buttons()              # what happened to the buttons while unplugged

    def _disk_full(self, now: float, e: JournalFull) -> None:
        """An entry the disk did not take: not durable, so not applied. The game is paused
        where it is (its timers frozen, as for the host's pause, so no window runs out while
        nothing can be journaled); the pause is journaled, at this moment, once space is
        back. The host is told once."""
        assert self.table is not None
        self.full = now                             # tried again a tick from now
        if self.full_at is None:
            self.full_at = now
            # short, to be read at a glance on the host's screen; the detail on stderr
            self.table.tell("disk_full")
            print(f"table-app: {e}; the game is paused", file=sys.stderr)
            # applied before it is durable, the one exception: nothing else is applied
            # until it is, and a restart (which lacks it) is at the same point of the game
            self.table.handle(Host(("disk", "full")), now)

    def _space_again(self, now: float) -> bool:
        """The pause, then its end, journaled now that the disk may take them; False while
        it does not."""
        assert self.table is not None and self.journal is not None and self.full_at is not None
        pause = {"t": self.full_at, "k": "host", "cmd": ["disk", "full"]}
        end = {"t": now, "k": "host", "cmd": ["disk", "ok"]}
        try:
            if not self.entries or self.entries[-1] != pause:
                self.journal.write(pause)
                self.entries.append(pause)
            self.journal.write(end)
        except JournalFull:
            self.full = now
            return False
        self.entries.append(end)
        self.full = self.full_at = None
        self.table.tell("disk_ok")
        self.table.handle(Host(("disk", "ok")), now)
        for watch in self.observers:
            watch(self.table)
        self.sync_buttons()         # presses not taken while full: the buttons as they are
        return True

    def leave(self) -> None:
        """The host leaves this game for the setup screen (he was asked twice): said in the
        journal, so a table that stops before the next game begins opens on the setup
        screen (the game he left came back after the app stopped there); that game is not
        recorded. A disk too full to say it: the game comes back, as any unfinished one."""
        if self.journal is not None and self.table is not None \
                and self.table.stage != "over":
            try:
                self.journal.write({"t": self.clock.now(), "k": "left"})
            except JournalFull:
                pass

    def next_game(self, seed: int | None = None, fmt_id: str | None = None,
                  players: int | None = None, lang: str | None = None,
                  deal: str | None = None, format_file: str | None = None) -> Table:
        """A new game at the table, with a new deal: the same format, seats, language and
        dealing unless the setup screen changed them (a club's own format: `format_file`,
        its file); the finished game's journal gives way to the new one."""
        assert self.journal is not None and self.entries
        old = self.entries[0]
        same_format = fmt_id is None or fmt_id == old["fmt"]
        start = {"t": self.clock.now(), "k": "start", "fmt": fmt_id or old["fmt"],
                 "format_file": format_file or (old.get("format_file") if same_format
                                                else None),
                 "players": players or old["players"],
                 "lang": lang or (self.table.cfg.lang if self.table else old["lang"]),
                 "deal": deal or old["deal"], "seed": new_seed() if seed is None else seed}
        if "caps" in old:
            start["caps"] = old["caps"]
        return self._begin(start)

    def sync_buttons(self) -> None:
        """The table's view of every button, made what the hardware says now (after a
        restart or a reconnect): a button down is down, up is up. Journaled like any input."""
        table = self.table
        assert table is not None
        grammar = table.panel.grammar
        for seat in range(1, table.cfg.players + 1):
            down = self.backend.is_down(seat)
            if grammar.is_down(seat) != down:
                self.feed(PadLevel(seat, down, self.clock.now()))

    def _undo(self, now: float) -> None:
        assert self.journal is not None
        undone = {int(e["undo"]) for e in self.entries if e.get("k") == "undo"}
        for i in range(len(self.entries) - 1, 0, -1):
            e = self.entries[i]
            if e.get("k") == "host" and e["cmd"][0] in UNDOABLE and i not in undone:
                if e["cmd"][0] == "skip" and any(
                        x.get("k") not in AFTER_SKIP for x in self.entries[i + 1:]):
                    assert self.table is not None
                    self.table.tell("undo_skip_late")
                    return
                entry = {"t": now, "k": "undo", "undo": i}
                try:
                    self.journal.write(entry)
                except JournalFull as exc:
                    self._disk_full(now, exc)
                    return
                self.entries.append(entry)
                self._rebuild()
                return
        assert self.table is not None
        self.table.tell("undo_nothing")    # (a tap with nothing to undo changed nothing, silently)

    def step(self, wait: float = 0.05) -> bool:
        """Take one input (or let time pass); False when the game is over."""
        table = self.table
        assert table is not None
        now = self.clock.now()
        deadline = table.next_deadline()
        if self.full is not None:      # a full disk: the time is tried again now and then
            deadline = max(deadline or now, self.full + TICK_EVERY)
        timeout = wait if deadline is None else max(0.0, min(wait, deadline - now))
        try:
            inp = self.inbox.get(timeout=timeout) if timeout > 0 else self.inbox.get_nowait()
        except queue.Empty:
            inp = None
        if inp is not None:
            self.feed(inp)
        else:
            now = self.clock.now()
            due = deadline is not None and now >= deadline
            # time is journaled while a timer runs (resume accuracy), not while it is frozen
            running = table.timer is not None and not table.paused
            if due or (running and now - self.last_tick >= TICK_EVERY):
                self.feed(Tick())
        return table.stage != "over"

    def drain(self) -> None:
        """Take every input waiting, then let time pass: for a loop that sleeps until it is
        woken (never spinning)."""
        while True:
            try:
                inp = self.inbox.get_nowait()
            except queue.Empty:
                break
            self.feed(inp)
        self.step(0.0)

    def wake_in(self) -> float:
        """Seconds until the table has something to do by itself (a timer, a hold, a tick to
        journal), at most one."""
        table = self.table
        assert table is not None
        now = self.clock.now()
        waits = [1.0]
        deadline = table.next_deadline()
        if self.full is not None:
            deadline = max(deadline or now, self.full + TICK_EVERY)
        if deadline is not None:
            waits.append(deadline - now)
        if table.timer is not None and not table.paused:
            waits.append(self.last_tick + TICK_EVERY - now)
            left = table.time_left(now)
            if left is not None:
                waits.append(left % 1.0 or 1.0)      # the shown second changes
        return max(0.0, min(waits))

    def close(self) -> None:
        if self.journal is not None:
            self.journal.close()
