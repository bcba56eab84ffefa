"""The table: a whole game run from the pads, the clock and the host, on the rules engine.

`Table.handle(input, now)` is the only way in, and it is deterministic: the same inputs at
the same times give the same game, the same rings and the same words. That is what lets the
journal bring a killed app back exactly where it was. Time is an input like any other (a
`Tick`); nothing here reads a clock, sleeps or starts a thread.

Secrecy is built in: every night window lasts its full time whether its role lives or not;
only the seat that decides is asked anything (its ring alone lights), its cursor starting at a
seat drawn from the seed; every private answer lights one pixel; every seat's turn to see his
role lasts the same; presses from sleeping seats go to the host as movement; votes are
gathered silently and only totals are said; rings are dimmed to the night's and the day's caps.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, assert_never

from ..pads import Confirmed, OutOfTurn, PadPanel, Pressed, Released
from ..pads.events import PadEdge, PadFault, PadHeld, PadLevel, PadLink, PadRecovered
from ..pads.multi import SEATS_NOTE
from ..rules import Game
from ..rules import actions as A
from ..rules import effects as E
from .commands import HostCommands
from .config import Host, Input, Shown, TableConfig, Voice
from .context import TableContext
from .day import DayFlow
from .deal import DealFlow
from .kinds import Ask, TableStage, Timed
from .night import NightFlow
from .questions import Question, Questions
from .timers import Timer

#: the pad reasons the host reads in his language: (the word's key, how the reason begins)
REASONS = (("stuck", ("stuck",)), ("link", ("link",)),
           ("unplugged", ("pad controller disconnected",)),
           ("not_found", ("no pad controller found", "no answer from the pad controller")),
           ("not_paired", ("the pad controller is not paired",)),
           ("connected", ("pad controller ",)))


class Table:
    """One game at the table: the rules, the pads' questions, the timer, the voice. It puts
    the flows together (the deal, the night, the day, the host's commands), each owning its
    state and sharing one `TableContext`, and routes to them what comes in: an input, an
    effect of the rules, a timer that ran out."""

    def __init__(self, cfg: TableConfig, panel: PadPanel, voice: Voice) -> None:
        if cfg.players > panel.backend.seats:
            raise ValueError(f"{cfg.players} players but only {panel.backend.seats} pads")
        # the rings are a map of this game's players (a big table's neighbours share a light)
        panel.backend.set_table(cfg.players)
        ctx = self.ctx = TableContext(cfg, panel, voice)
        self.dealing = DealFlow(ctx)
        self.night = NightFlow(ctx)
        self.day = DayFlow(ctx)
        self.commands = HostCommands(ctx, self.dealing, self)
        self.pause_reasons: set[str] = set()
        #: picks confirmed on the pads while paused, with the question each answered
        self._held: list[tuple[int, int | None, Question]] = []
        ctx.on_effect = self._effect
        ctx.after = self._after

    # -- what others read ----------------------------------------------------------------
    @property
    def game(self) -> Game:
        return self.ctx.game

    @property
    def cfg(self) -> TableConfig:
        return self.ctx.cfg

    @property
    def panel(self) -> PadPanel:
        return self.ctx.panel

    @property
    def stage(self) -> TableStage:
        return self.ctx.stage

    @property
    def questions(self) -> Questions:
        return self.ctx.questions

    @property
    def log(self) -> list[Shown]:
        return self.ctx.log

    @property
    def captions(self) -> list[Shown]:
        return self.ctx.captions

    @property
    def notes_from(self) -> int:
        return self.ctx.notes_from

    @property
    def now(self) -> float:
        return self.ctx.now

    @property
    def on_effects(self) -> Callable[[list[E.Effect]], None] | None:
        return self.ctx.on_effects

    @on_effects.setter
    def on_effects(self, watch: Callable[[list[E.Effect]], None] | None) -> None:
        self.ctx.on_effects = watch

    @property
    def viewer(self) -> int:
        return self.dealing.viewer

    @property
    def registering(self) -> list[str]:
        return self.dealing.registering

    @property
    def registered(self) -> dict[int, str]:
        return self.dealing.registered

    @property
    def calls_started(self) -> bool:
        return self.dealing.calls_started

    @property
    def movement(self) -> list[tuple[float, int]]:
        return self.night.movement

    @property
    def pending(self) -> dict[str, tuple[int | None, str]]:
        return self.night.pending

    @property
    def paused(self) -> bool:
        # a game over is not (one that ended while paused drew "Pause" over its winner)
        return self.ctx.timers.paused and self.ctx.stage is not TableStage.OVER

    def held_ballots(self) -> set[int]:
        """The seats whose vote is in: cast, or held on the pad in a pause (it counts when
        the game goes on: the host's count said 0 of 20 while eleven were held)."""
        return set(self.day.ballots) | {seat for seat, choice, q in self._held
                                        if q.ask is Ask.BALLOT and choice is not None}

    @property
    def timer(self) -> Timer | None:
        return self.ctx.timers.timer

    @property
    def asked(self) -> dict[int, str]:
        """Seat -> what its pad asks now."""
        return self.ctx.questions.asked()

    @property
    def script(self) -> list[str]:
        return self.ctx.writer.lines

    def time_left(self, now: float | None = None) -> float | None:
        """Seconds left on the running timer at `now` (default: the last input's time)."""
        return self.ctx.timers.left(self.ctx.now if now is None else now)

    def game_script(self) -> str:
        return self.ctx.writer.text()

    def next_deadline(self) -> float | None:
        times = [t for t in (self.panel.grammar.next_deadline(),
                             self.ctx.timers.next_deadline()) if t is not None]
        return min(times) if times else None

    def note(self, text: str) -> None:
        """A note for the host as it is (an engine's refusal, a driver's words)."""
        self.ctx.note(text)

    def tell(self, key: str, **fields: str) -> None:
        """A note for the host in his language (`TableContext.tell`)."""
        self.ctx.tell(key, **fields)

    # -- the one way in ------------------------------------------------------------------
    def handle(self, inp: Input, now: float) -> None:
        self.ctx.now = now
        if isinstance(inp, Host):
            self.commands.run(inp.cmd)
        elif isinstance(inp, (PadLink, PadEdge, PadHeld, PadLevel)):
            # faults and recoveries are handled while paused too; the rest waits
            self._pad_events(self.panel.handle(inp))
            # holds and stuck buttons are judged on the pad's own clock: a loop running
            # behind its queue must not see a press as stuck while its release waits
            self._pad_events(self.panel.tick(inp.t))
        else:
            self._pad_events(self.panel.tick(now))
        self.run_timer()

    def begin(self) -> None:
        """The city falls asleep; then the deal or the card registration."""
        self.dealing.begin()

    def call(self, role: str | None = None) -> None:
        """The host's "call roles", or one role called again (`DealFlow.call`)."""
        self.dealing.call(role)

    def start_game(self) -> None:
        ctx = self.ctx
        if ctx.stage is not TableStage.READY:
            return
        ctx.stage = TableStage.PLAY
        ctx.questions.stop()
        ctx.say(["game_starts"])
        ctx.apply(A.BeginNight())
        ctx.writer.phase("night")

    # -- the rules' effects --------------------------------------------------------------
    def _effect(self, f: E.Effect) -> None:
        """What each effect of the rules leads to at the table (the rest: nothing here)."""
        night, day = self.night, self.day
        match f:
            case E.PhaseBegins():
                self._phase_begins(f)
            case E.Wake():
                night.wake(f)
            case E.Sleep():
                night.sleep(f)
            case E.Decided():
                night.decided(f)
            case E.CheckResult():
                night.check_result(f)
            case E.Witness():
                night.witness(f)
            case E.RoleChanged():
                night.role_changed(f)
            case E.Speech():
                day.speech(f)
            case E.Eliminated() if self.ctx.game.phase == "day":
                day.seat_left(f)
            case E.VoteOpens():
                day.vote_opens(f)
            case E.TakeAwaited():
                day.take_awaited(f)

    def _phase_begins(self, f: E.PhaseBegins) -> None:
        ctx = self.ctx
        ctx.notes_from = len(ctx.log)  # the deal's notes, the night's secrets: gone
        ctx.questions.new_phase(ctx.game.phase_label())
        ctx.panel.set_cap(ctx.cfg.night_cap if f.phase == "night" else ctx.cfg.day_cap)

    def _after(self) -> None:
        """After the rules moved on: what the table does next when nothing is running."""
        g = self.ctx.game
        if g.step != "done" or self.ctx.timers.timer is not None:
            return
        if g.phase == "night":
            self.night.night_over()
        elif g.phase == "day":
            self.day.day_over()

    # -- pads ----------------------------------------------------------------------------
    def _pad_events(self, events: list[Any]) -> None:
        """Each event of the pads: a fault and its recovery at once, paused or not; a press
        waits for the game to go on; a cursor's move is the panel's (it drew it already)."""
        for ev in events:
            match ev:
                case PadFault():
                    self._pad_fault(ev)
                case PadRecovered():
                    self._pad_recovered(ev)
                case Confirmed() if self.paused:
                    # a pick confirmed in a pause counts when the game goes on, if its
                    # question is still open (eight votes held in a pause were dropped
                    # while their rings showed them taken: every one went to the last
                    # nominee)
                    q = self.ctx.questions.now.get(ev.seat)
                    if q is not None:
                        self._held.append((ev.seat, ev.choice, q))
                case _ if self.paused:
                    pass
                case OutOfTurn():
                    self._out_of_turn(ev)
                case Pressed():
                    self.dealing.pressed(ev.seat)
                case Released():
                    self.dealing.released(ev.seat)
                case Confirmed():
                    self.confirmed(ev.seat, ev.choice)

    def _pad_fault(self, ev: PadFault) -> None:
        self._pad_note("pad_fault", ev.seat, ev.reason)
        self.pause(f"pad:{ev.seat}:{ev.reason}")
        self.ctx.say(["pad_fault"])

    def _pad_recovered(self, ev: PadRecovered) -> None:
        self._pad_note("pad_back", ev.seat, ev.reason)
        self.unpause({r for r in self.pause_reasons if r.startswith(f"pad:{ev.seat}:")},
                     "pad_back")

    def _out_of_turn(self, ev: OutOfTurn) -> None:
        if self.ctx.stage is TableStage.PLAY:
            self.night.out_of_turn(ev.seat)

    def confirmed(self, seat: int, choice: int | None) -> None:
        """A seat confirmed on its pad (or the host for it): its question's flow answers."""
        q = self.ctx.questions.now.get(seat)
        if q is None:
            return
        match q.ask:
            case Ask.SPEECH:
                self.day.speech_choice(seat, choice)
            case Ask.BALLOT:
                self.day.ballot(seat, choice)
            case Ask.REMOVEALL:
                self.day.removeall(seat, choice)
            case Ask.TAKE:
                self.day.take(seat, choice)
            case Ask.DECISION | Ask.MODE:
                self.night.choice(seat, q, choice)
            case _:
                assert_never(q.ask)

    def _pad_note(self, key: str, seat: int, reason: str) -> None:
        # a driver's reason is its own words, English; the ones a club meets every night (a
        # cable pulled, the controller back, not found, not paired) are in the host's
        word = next((w for w, starts in REASONS if any(reason.startswith(s) for s in starts)),
                    None)
        # a big table's controller says whose pads it holds: "... (seats 13-24)"
        held = SEATS_NOTE.search(reason) if not seat else None
        if held:
            reason = reason[:held.start()]
        self.ctx.tell(key + ("_controller" if not seat else "") + ("_seats" if held else ""),
                      seat=str(seat), **({"seats": held.group(1)} if held else {}),
                      **({"reason_t": f"reason_{word}"} if word else {"reason": reason}))

    # -- pauses --------------------------------------------------------------------------
    def pause(self, reason: str) -> None:
        self.pause_reasons.add(reason)
        self.ctx.timers.pause(self.ctx.now)

    def unpause(self, reasons: set[str], clip: str) -> None:
        """Those reasons gone; the game goes on (saying `clip`) when they were the last."""
        self.pause_reasons -= reasons
        if self.paused and not self.pause_reasons:
            self._go_on(clip)

    def resume_host(self) -> None:
        """The host's resume: the game goes on unless something else holds it."""
        self.pause_reasons.discard("host")
        if not self.pause_reasons:
            self._go_on("resume")

    def _go_on(self, clip: str) -> None:
        """The pause is over: the timers run again, then the picks confirmed in it count."""
        self.ctx.say([clip])
        self.ctx.timers.resume(self.ctx.now)
        held, self._held = self._held, []
        for seat, choice, q in held:
            if self.ctx.questions.now.get(seat) is q:
                self.confirmed(seat, choice)

    # -- timers --------------------------------------------------------------------------
    def run_timer(self) -> None:
        """Whatever is due now: a tick, or a timer that ran out and what it leads to."""
        while True:
            sound, expired = self.ctx.timers.due(self.ctx.now)
            if sound is not None:
                self.ctx.voice.timer(sound)
                continue
            if expired is None:
                return
            if self._timer_over(expired.what):
                self._after()

    def _timer_over(self, what: Timed) -> bool:
        """What a timer that ran out leads to; True when the table must then see what comes
        next (a handler that moves the game on itself says False)."""
        night, day, dealing = self.night, self.day, self.dealing
        match what:
            case Timed.WINDOW:
                night.close_window()
            case Timed.DAWN:
                night.morning()
            case Timed.SPEECH:
                day.speech_over()
                return False
            case Timed.VOTE | Timed.REMOVEALL:
                day.close_vote()
                return False
            case Timed.TAKE:
                day.take_over()
            case Timed.DUSK:
                day.evening()
            case Timed.REGISTER:
                dealing.register_over()
                return False
            case Timed.VIEW:
                dealing.view_over()
                return False
            case _:
                assert_never(what)
        return True
