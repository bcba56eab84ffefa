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
from typing import Any

from ..pads import Confirmed, OutOfTurn, PadPanel, Pressed, Released
from ..pads.events import PadEdge, PadFault, PadHeld, PadLevel, PadLink, PadRecovered
from ..pads.rings import CheckShown, Countdown, Dark
from ..rules import Game, RulesError
from ..rules import actions as A
from ..rules import effects as E
from ..rules.roles import DECISION, role_clip
from ..sound.catalogue import text
from ..sound.narration import Narrator
from ..words import note_text
from .commands import HostCommands
from .config import Host, Input, Shown, TableConfig, Voice
from .deal import Dealing
from .questions import Question, Questions
from .record import ScriptWriter
from .timers import Timer, Timers

DAWN = 4.0          # seconds between the night's last window and the morning (and at dusk)


#: the pad reasons the host reads in his language: (the word's key, how the reason begins)
REASONS = (("stuck", ("stuck",)), ("link", ("link",)),
           ("unplugged", ("pad controller disconnected",)),
           ("not_found", ("no pad controller found", "no answer from the pad controller")),
           ("not_paired", ("the pad controller is not paired",)),
           ("connected", ("pad controller ",)))


class Table(Dealing, HostCommands):
    """One game at the table: the rules, the pads' questions, the timer, the voice."""

    def __init__(self, cfg: TableConfig, panel: PadPanel, voice: Voice) -> None:
        n = cfg.players
        if n > panel.backend.seats:
            raise ValueError(f"{n} players but only {panel.backend.seats} pads")
        self.cfg = cfg
        self.panel = panel
        self.voice = voice
        self.game = Game(cfg.fmt, n, dict(cfg.options) if cfg.options else None)
        self.narrator = Narrator(cfg.lang, self.game.rules.revote)
        self.stage = "deal"          # deal, register, ready, play, over
        self.pause_reasons: set[str] = set()
        self.timers = Timers()
        self.questions = Questions(panel, cfg.seed)
        self.writer = ScriptWriter(cfg.fmt.id, n, self._option_lines())
        self.viewer = 0              # app deal: whose turn it is to look at his role
        self.registering: list[str] = []
        self.calls_started = False   # a card deal: the host said the cards are dealt
        self.registered: dict[int, str] = {}
        self.pending: dict[str, tuple[int | None, str]] = {}   # night choices, till the close
        self.ballots: dict[int, int] = {}
        self.yes: set[int] = set()
        self.nominated_this_speech = False
        self.answered: set[int] = set()     # seats whose ring shows a private answer
        self.log: list[Shown] = []
        self.notes_from = 0          # the host's screen shows the notes of this phase only
        self.captions: list[Shown] = []     # what the voice said, for the host's eyes
        self.movement: list[tuple[float, int]] = []
        self.on_effects: Callable[[list[E.Effect]], None] | None = None
        self.now = 0.0

    def _option_lines(self) -> list[str]:
        out = []
        for name, value in self.cfg.options:
            text = ",".join(value) if isinstance(value, list) else str(value).lower() \
                if isinstance(value, bool) else str(value)
            out.append(f"option {name} {text or '-'}")
        return out

    # -- what others read ----------------------------------------------------------------
    @property
    def paused(self) -> bool:
        return self.timers.paused

    @property
    def timer(self) -> Timer | None:
        return self.timers.timer

    @property
    def asked(self) -> dict[int, str]:
        """Seat -> what its pad asks now."""
        return self.questions.asked()

    @property
    def script(self) -> list[str]:
        return self.writer.lines

    def time_left(self, now: float | None = None) -> float | None:
        """Seconds left on the running timer at `now` (default: the last input's time)."""
        return self.timers.left(self.now if now is None else now)

    def game_script(self) -> str:
        return self.writer.text()

    def next_deadline(self) -> float | None:
        times = [t for t in (self.panel.grammar.next_deadline(), self.timers.next_deadline())
                 if t is not None]
        return min(times) if times else None

    # -- the one way in ------------------------------------------------------------------
    def handle(self, inp: Input, now: float) -> None:
        self.now = now
        if isinstance(inp, Host):
            self._host(inp.cmd)
        elif isinstance(inp, (PadLink, PadEdge, PadHeld, PadLevel)):
            # faults and recoveries are handled while paused too; the rest waits
            self._pad_events(self.panel.handle(inp))
            # holds and stuck buttons are judged on the pad's own clock: a loop running
            # behind its queue must not see a press as stuck while its release waits
            self._pad_events(self.panel.tick(inp.t))
        else:
            self._pad_events(self.panel.tick(now))
        self._run_timer()

    def start_game(self) -> None:
        if self.stage != "ready":
            return
        self.stage = "play"
        self.questions.stop()
        self.say(["game_starts"])
        self._apply(A.BeginNight())
        self.writer.phase("night")

    # -- the rules -----------------------------------------------------------------------
    def _apply(self, action: A.Action) -> list[E.Effect]:
        fx = self.game.apply(action)
        if self.on_effects is not None:
            self.on_effects(fx)
        for f in fx:
            for line in self.narrator.lines(f):
                self.say(line)
        for f in fx:
            self._effect(f)
        if self.game.phase == "over" and self.stage != "over":
            self.stage = "over"
            self.notes_from = len(self.log)
            self.timers.stop()
            self.questions.stop()
            self.panel.set_cap(self.cfg.day_cap)
        return fx

    def _effect(self, f: E.Effect) -> None:
        if isinstance(f, E.PhaseBegins):
            self.notes_from = len(self.log)  # the deal's notes, the night's secrets: gone
            self.questions.new_phase(self.game.phase_label())
            self.panel.set_cap(self.cfg.night_cap if f.phase == "night" else self.cfg.day_cap)
        elif isinstance(f, E.Wake):
            self.voice.timer("chime")
            self._open_window()
            self.timers.start("window", f.seconds, self.now)
        elif isinstance(f, E.Sleep):
            self.voice.timer("chime")
        elif isinstance(f, E.Speech):
            self.nominated_this_speech = False
            self.timers.start("speech", f.seconds, self.now, ticks=True)
            self._speaker_pad(f.seat)
        elif isinstance(f, E.VoteOpens):
            self._open_vote(f)
        elif isinstance(f, E.TakeAwaited):
            self.questions.stop()
            self.questions.ask(f.seat, Question("take", f.voters))
            self.timers.start("take", float(self.cfg.fmt.timers.get("vote", 15)), self.now)
        elif isinstance(f, E.Decided):                                # the host's eyes only
            key = "decided" if f.target is not None else "decided_nothing"
            if f.mode:
                self._tell(key + "_mode", decision_t=f"window_{f.decision}",
                           seat=str(f.target), mode_t=f"mode_{f.mode}")
            else:
                self._tell(key + ("_default" if f.default else ""),
                           decision_t=f"window_{f.decision}", seat=str(f.target))
        elif isinstance(f, E.CheckResult):                            # the host's eyes only
            result = f"result_{f.result}" if f.result in ("red", "black", "no") \
                else role_clip(f.result)
            self._tell("checked", by_t=f"window_{f.by}", seat=str(f.target), result_t=result)
            # the answer, on the checker's ring only: one pixel, like every other answer
            self.questions.forget(f.audience)
            self.panel.show(f.audience, CheckShown(f.target, f.result))
            self.answered.add(f.audience)

    def _after(self) -> None:
        """After the rules moved on: what the table does next when nothing is running."""
        g = self.game
        if g.phase == "night" and g.step == "done" and self.timers.timer is None:
            for seat in range(1, self.cfg.players + 1):
                if seat not in self.answered:     # a result found at dawn stays till morning
                    self.questions.stop(seat)
            self.timers.start("dawn", DAWN, self.now)
        elif g.phase == "day" and g.step == "done" and self.timers.timer is None:
            self.questions.stop()
            self.timers.start("dusk", DAWN, self.now)

    def _record(self, action: A.Action, write: Callable[[], None], what: str) -> bool:
        """Apply a choice made at the table and write it to the game script; a choice the
        rules refuse becomes a note for the host, never a crash."""
        try:
            self._apply(action)
        except RulesError as exc:
            self._note(f"{what}: {exc}")
            return False
        write()
        return True

    def _decide(self, d: str, target: int | None, mode: str) -> bool:
        return self._record(A.Decide(d, target, mode),
                            lambda: self.writer.decision(d, target, mode), d)

    # -- night windows -------------------------------------------------------------------
    def _open_window(self) -> None:
        self.questions.stop()
        self.answered = set()
        self.pending = {}
        g = self.game
        for d in g.open_decisions():
            seat = g.actor(d)
            if seat is None:
                continue                     # a role that is out is woken all the same
            modes = g.modes(d)
            if len(modes) > 1:
                # which way first (the first mode on the yes pixel, the second on no)
                self.questions.ask(seat, Question(f"mode:{d}", (1, 2), "yesno"))
            else:
                self._ask_decision(seat, d, modes[0] if modes else "", now=False)

    def _ask_decision(self, seat: int, d: str, mode: str, now: bool) -> None:
        targets = self.game.legal_targets(d, mode)
        if not targets:
            return
        q = Question(d, tuple(targets), mode=mode)
        (self.questions.replace if now else self.questions.ask)(seat, q)

    def _night_choice(self, seat: int, q: Question, choice: int | None) -> None:
        g = self.game
        if q.what.startswith("mode:"):
            d = q.what[5:]
            modes = g.modes(d)
            if choice in (1, 2) and len(modes) >= choice:
                self._ask_decision(seat, d, modes[choice - 1], now=True)
            return
        d = q.what
        if choice is None and d not in g.passes:
            return                           # this role may not pass: keep asking
        if DECISION[d].act_for(q.mode).shows:
            # a check is final at the first confirmation (its answer comes on this ring)
            if self._decide(d, choice, q.mode) and seat not in self.answered:
                self.questions.done(seat)
            return
        self.pending[d] = (choice, q.mode)   # the last question may change till the close
        if self.questions.waiting.get(seat):
            self.questions.done(seat)        # the seat's next question (the Don's search)

    def _close_window(self) -> None:
        for d, (target, mode) in self.pending.items():
            self._decide(d, target, mode)
        self.pending = {}
        self.questions.stop()
        self.answered = set()
        self._apply(A.Close())

    # -- days ----------------------------------------------------------------------------
    def _may_nominate(self) -> bool:
        g = self.game
        return (g.step == "speeches" and g.opt["vote"] != "plurality"
                and not self.nominated_this_speech)

    def _speaker_pad(self, seat: int) -> None:
        """The speaker's ring counts his time down; short presses pick a nominee on it, a
        hold confirms the nomination, a hold on nobody ends the speech early. Nominations
        are said aloud, so the cursor starts on nobody."""
        self.questions.stop()
        g = self.game
        eligible = [s for s in g.living() if s not in g.nominees] if self._may_nominate() else []
        t = self.timers.timer
        total = t.seconds if t is not None else 0.0
        self.questions.ask(seat, Question("speech", tuple(eligible or [seat]),
                                          picture=Countdown(total, total), seeded=False))

    def _speech_choice(self, seat: int, choice: int | None) -> None:
        if choice is None or not self._may_nominate():
            self._end_speech()
            return
        self._nominate(seat, choice)

    def _nominate(self, by: int, target: int) -> None:
        if not self._record(A.Nominate(by, target),
                            lambda: self.writer.line(f"nominate {by} {target}"), "nomination"):
            return
        self.nominated_this_speech = True
        t = self.timers.timer
        if t is not None and t.what == "speech":
            # left to him: only a hold, to end early; his ring counts down again
            self.questions.replace(by, Question(
                "speech", (by,), picture=Countdown(t.deadline - self.now, t.seconds),
                seeded=False))

    def _end_speech(self) -> None:
        self.timers.stop()
        self.questions.stop()
        self._apply(A.EndSpeech())
        self._after()

    def _open_vote(self, f: E.VoteOpens) -> None:
        self.questions.stop()
        self.ballots = {}
        self.yes = set()
        for seat in self.game.living():
            if f.kind == "removeall":
                self.questions.ask(seat, Question("removeall", (1, 2), "yesno"))
            else:
                self.questions.ask(seat, Question("ballot", f.candidates, "vote"))
        self.timers.start(f.kind if f.kind == "removeall" else "vote",
                          float(f.seconds or 10), self.now)

    def _close_vote(self) -> None:
        kind = self.game.step
        self.questions.stop()
        if kind == "removeall":
            for seat in sorted(self.yes):
                self._apply(A.RemoveAllYes(seat))
            self.writer.removeall(sorted(self.yes))
            self._apply(A.Close())
        else:
            # a ballot for a seat that can no longer be voted out (disqualified since) is an
            # abstention, and a disqualified seat's own ballot is void
            g = self.game
            ballots = tuple((s, t) for s, t in sorted(self.ballots.items())
                            if g.alive[s] and t in g.candidates)
            self.writer.ballots(kind, ballots)
            self._apply(A.Ballots(ballots))
        self.ballots = {}
        self.yes = set()
        self._after()

    # -- pads ----------------------------------------------------------------------------
    def _pad_events(self, events: list[Any]) -> None:
        for ev in events:
            if isinstance(ev, PadFault):
                self._pad_note("pad_fault", ev.seat, ev.reason)
                self._pause(f"pad:{ev.seat}:{ev.reason}")
                self.say(["pad_fault"])
            elif isinstance(ev, PadRecovered):
                self._pad_note("pad_back", ev.seat, ev.reason)
                self._unpause({r for r in self.pause_reasons
                               if r.startswith(f"pad:{ev.seat}:")}, "pad_back")
            elif self.paused:
                continue
            elif isinstance(ev, OutOfTurn):
                self._out_of_turn(ev.seat)
            elif isinstance(ev, Pressed):
                if self.stage == "deal" and ev.seat == self.viewer:
                    self.panel.show(ev.seat, self._role_card(ev.seat))
                elif self.stage == "register" and self.registering:
                    self._register(ev.seat)
            elif isinstance(ev, Released):
                if self.stage == "deal" and ev.seat == self.viewer:
                    self.panel.show(ev.seat, Dark())
            elif isinstance(ev, Confirmed):
                self._confirmed(ev.seat, ev.choice)

    def _out_of_turn(self, seat: int) -> None:
        g = self.game
        if self.stage == "play" and g.phase == "night":
            if g.step == "windows" and seat in g.waiting().awake:
                return          # his eyes are open (an introduction): a press is no alarm
            self.movement.append((self.now, seat))
            self._tell("movement", seat=str(seat))

    def _confirmed(self, seat: int, choice: int | None) -> None:
        q = self.questions.now.get(seat)
        if q is None:
            return
        if q.what == "speech":
            self._speech_choice(seat, choice)
        elif q.what == "ballot":
            if choice is not None:
                self.ballots[seat] = choice
        elif q.what == "removeall":
            if choice == 1:
                self.yes.add(seat)
            elif choice == 2:
                self.yes.discard(seat)
        elif q.what == "take":
            if choice is not None:
                self._take(seat, choice)
        else:
            self._night_choice(seat, q, choice)

    def _take(self, seat: int, target: int) -> None:
        if not self._record(A.Take(seat, target),
                            lambda: self.writer.line(f"take {seat} {target}"), "take"):
            return
        self.timers.stop()
        self.questions.stop()
        self._after()

    # -- timers --------------------------------------------------------------------------
    def _run_timer(self) -> None:
        while True:
            sound, expired = self.timers.due(self.now)
            if sound is not None:
                self.voice.timer(sound)
                continue
            if expired is None:
                return
            self._expire(expired)

    def _expire(self, t: Timer) -> None:
        if t.what == "window":
            self._close_window()
        elif t.what == "speech":
            self.voice.timer("buzzer")
            self._end_speech()
            return
        elif t.what in ("vote", "removeall"):
            self._close_vote()
            return
        elif t.what == "take":
            self.questions.stop()
            self._apply(A.Close())
        elif t.what == "dawn":
            self.questions.stop()
            self.answered = set()
            self._apply(A.BeginDay())
            self.writer.phase("day")
        elif t.what == "dusk":
            self._apply(A.BeginNight())
            self.writer.phase("night")
        elif t.what == "register":
            self.registering.pop(0)
            self._next_registration()
            return
        elif t.what == "view":
            self.panel.show(self.viewer, Dark())
            self._next_viewer()
            return
        self._after()

    def _note(self, text: str) -> None:
        """A note for the host as it is (an engine's refusal, a driver's words)."""
        self.log.append(Shown(self.now, text))

    def _tell(self, key: str, **fields: str) -> None:
        """A note for the host in his language: the key of its text (`note_KEY` in the
        screen's texts) and its fields."""
        items = tuple(fields.items())
        self.log.append(Shown(self.now, note_text(key, items, "en"), key, items))

    def _pad_note(self, key: str, seat: int, reason: str) -> None:
        # a driver's reason is its own words, English; the ones a club meets every night (a
        # cable pulled, the controller back, not found, not paired) are in the host's
        word = next((w for w, starts in REASONS if any(reason.startswith(s) for s in starts)),
                    None)
        self._tell(key + ("_controller" if not seat else ""), seat=str(seat),
                   **({"reason_t": f"reason_{word}"} if word else {"reason": reason}))

    def say(self, line: list[str]) -> None:
        """Say a line, and show it on the host's screen too (a host without sound is not
        blind): the captions are the words, in the table's language."""
        self.voice.say(line)
        words = " ".join(text(clip, self.cfg.lang) or clip for clip in line)
        self.captions.append(Shown(self.now, words))
        del self.captions[:-20]
