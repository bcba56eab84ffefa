"""The table: a whole game run from the pads, the clock and the host, on the rules engine.

`Table.handle(input, now)` is the only way in, and it is deterministic: the same inputs at
the same times give the same game, the same rings and the same words. That is what lets the
journal bring a killed app back exactly where it was. Time is an input like any other (a
`Tick`); nothing here reads a clock, sleeps or starts a thread.

Secrecy is built in: every night window lasts its full time whether its role lives or not;
only the seat that decides is asked anything (its ring alone lights); presses from sleeping
seats go to the host as movement; votes are gathered silently and only totals are said.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..pads import Confirmed, Moved, OutOfTurn, PadPanel, Pressed, Released
from ..pads.events import PadEdge, PadFault, PadHeld, PadLink, PadRecovered
from ..pads.rings import CheckShown, Countdown, Dark, RoleCard
from ..rules import Game, RulesError, deal_from_seed
from ..rules import actions as A
from ..rules import effects as E
from ..rules.engine import composition_error
from ..rules.format import Format
from ..rules.roles import DECISION, ROLE, Act
from ..sound.catalogue import num
from ..sound.narration import Narrator

#: decisions answered on the asking seat's ring at once: final at the first confirmation
SHOWN = (Act.CHECK, Act.SEARCH)
DAWN = 4.0          # seconds between the night's last window and the morning (and at dusk)
TICKS_FROM = 10     # the last seconds of a speech tick


class Voice(Protocol):
    """Where the table's words and timer sounds go (the SoundBoard, or a recorder)."""

    def say(self, line: list[str]) -> None: ...

    def timer(self, name: str) -> None: ...


# -- inputs (each is journaled before it is applied) ------------------------------------------
@dataclass(frozen=True)
class Tick:
    """Time passed (timers, holds)."""


@dataclass(frozen=True)
class Host:
    """A host command: start, pause, resume, skip, foul S, disqualify S, act S T, assign S R."""

    cmd: tuple[str, ...]


Input = PadEdge | PadHeld | PadLink | Tick | Host


@dataclass
class Timer:
    what: str               # window, speech, vote, removeall, take, dawn, dusk, register
    seconds: float
    deadline: float
    ticks: bool = False     # tick in the last 10 s, warn at 10 s, buzz at 0
    next_tick: float = 0.0


@dataclass
class TableConfig:
    """What a game at the table is: the format, the seats, the language, the deal."""

    fmt: Format
    players: int
    lang: str = "en"
    deal: str = "app"           # app: the app deals, players look; cards: roles register
    seed: int = 0


@dataclass
class Shown:
    """A log line for the host's screen."""

    t: float
    text: str


@dataclass
class Table:
    cfg: TableConfig
    panel: PadPanel
    voice: Voice
    game: Game = field(init=False)
    stage: str = "deal"          # deal, register, ready, play, over
    paused: bool = False
    pause_reasons: set[str] = field(default_factory=set)
    timer: Timer | None = None
    left_when_paused: float = 0.0
    viewer: int = 0              # app deal: whose turn it is to look at his role
    seen: bool = False
    registering: list[str] = field(default_factory=list)
    registered: dict[int, str] = field(default_factory=dict)
    pending: dict[str, tuple[int | None, str]] = field(default_factory=dict)
    asked: dict[int, str] = field(default_factory=dict)      # seat -> what it is asked
    modes: dict[str, str] = field(default_factory=dict)      # decision -> its mode tonight
    ballots: dict[int, int] = field(default_factory=dict)
    yes: set[int] = field(default_factory=set)
    nominated_this_speech: bool = False
    check_seat: int = 0
    script: list[str] = field(default_factory=list)
    log: list[Shown] = field(default_factory=list)
    movement: list[tuple[float, int]] = field(default_factory=list)
    on_effects: Callable[[list[E.Effect]], None] | None = None
    narrator: Narrator = field(default_factory=Narrator)
    now: float = 0.0

    def __post_init__(self) -> None:
        n = self.cfg.players
        if n > self.panel.backend.seats:
            raise ValueError(f"{n} players but only {self.panel.backend.seats} pads")
        self.game = Game(self.cfg.fmt, n)
        fmt = self.cfg.fmt
        self.script = [f"format {fmt.id}", f"players {n}"]

    # -- the one way in ------------------------------------------------------------------
    def handle(self, inp: Input, now: float) -> None:
        self.now = now
        if isinstance(inp, Host):
            self._host(inp.cmd)
        elif isinstance(inp, PadLink):
            self._pad_events(self.panel.handle(inp))
        elif isinstance(inp, (PadEdge, PadHeld)):
            events = self.panel.handle(inp)
            if not self.paused:
                self._pad_events(events)
        self._pad_events(self.panel.tick(now))
        self._run_timer()

    def next_deadline(self) -> float | None:
        times = [t for t in (self.panel.grammar.next_deadline(),) if t is not None]
        if self.timer is not None and not self.paused:
            times.append(self.timer.deadline)
            if self.timer.ticks:
                times.append(self.timer.next_tick)
        return min(times) if times else None

    # -- starting ------------------------------------------------------------------------
    def begin(self) -> None:
        """Deal (or open registration) and say what comes first."""
        if self.cfg.deal == "cards":
            self.stage = "register"
            roles = self.cfg.fmt.composition[self.cfg.players]
            self.registering = [r for r in roles if not ROLE[r].plain]
            self.voice.say(["city_sleeps"])
            self._next_registration()
            return
        deal = deal_from_seed(self.cfg.fmt, self.cfg.players, self.cfg.seed)
        self._apply(deal)
        self.script.append("deal " + " ".join(f"{i}={r}" for i, r in enumerate(deal.roles, 1)))
        self.stage = "deal"
        self.viewer = 0
        self._next_viewer()

    def _next_viewer(self) -> None:
        self.viewer += 1
        self.seen = False
        if self.viewer > self.cfg.players:
            self.stage = "ready"
            self._note("every player has seen his role: press start")
            return
        self.voice.say(["hold_to_see", num(self.viewer)])

    def _next_registration(self) -> None:
        if not self.registering:
            self._finish_registration()
            return
        role = self.registering[0]
        self.voice.say([f"role_{role}", "press_button"])
        self._start_timer("register", 10.0)

    def _finish_registration(self) -> None:
        """Every role was called: deal what the seats pressed, once it is the format's
        composition; until then the host assigns the missing roles by seat."""
        roles = tuple(self.registered.get(seat, self._plain_role())
                      for seat in range(1, self.cfg.players + 1))
        why = composition_error(self.cfg.fmt, self.cfg.players, roles)
        if why:
            self._note(f"registration: {why}; assign the missing roles (assign SEAT ROLE)")
            return
        self._apply(A.Deal(roles))
        self.script.append("deal " + " ".join(f"{i}={r}" for i, r in enumerate(roles, 1)))
        self.stage = "ready"
        self.voice.say(["city_wakes"])

    def _plain_role(self) -> str:
        """The role of a seat that pressed for nothing at a card deal."""
        return next(r for r in self.cfg.fmt.role_order if ROLE[r].plain)

    def start_game(self) -> None:
        if self.stage != "ready":
            return
        self.stage = "play"
        self.panel.stop()
        self.voice.say(["game_starts"])
        self._apply(A.BeginNight())
        self.script.append("night")

    # -- the rules -----------------------------------------------------------------------
    def _apply(self, action: A.Action) -> list[E.Effect]:
        fx = self.game.apply(action)
        if self.on_effects is not None:
            self.on_effects(fx)
        for f in fx:
            for line in self.narrator.lines(f):
                self.voice.say(line)
        for f in fx:
            self._effect(f)
        if self.game.phase == "over" and self.stage != "over":
            self.stage = "over"
            self.timer = None
            self.panel.stop()
        return fx

    def _effect(self, f: E.Effect) -> None:
        if isinstance(f, E.Wake):
            self.voice.timer("chime")
            self._open_window()
            self._start_timer("window", f.seconds)
        elif isinstance(f, E.Sleep):
            self.voice.timer("chime")
        elif isinstance(f, E.Speech):
            self.nominated_this_speech = False
            self._start_timer("speech", f.seconds, ticks=True)
            self._speaker_pad(f.seat)
        elif isinstance(f, E.VoteOpens):
            self._open_vote(f)
        elif isinstance(f, E.TakeAwaited):
            self.panel.stop()
            self._ask(f.seat, list(f.voters), "take")
            self._start_timer("take", float(self.cfg.fmt.timers.get("vote", 15)))
        elif isinstance(f, E.CheckResult):
            self.panel.stop(f.audience)
            self.panel.show(f.audience, CheckShown(f.target, f.result))
            self.check_seat = f.audience

    def _after(self) -> None:
        """After the rules moved on: what the table does next when nothing is running."""
        g = self.game
        if g.phase == "night" and g.step == "done" and self.timer is None:
            for seat in range(1, self.cfg.players + 1):
                if seat != self.check_seat:      # a result found at dawn stays till morning
                    self.panel.stop(seat)
            self._start_timer("dawn", DAWN)
        elif g.phase == "day" and g.step == "done" and self.timer is None:
            self.panel.stop()
            self._start_timer("dusk", DAWN)

    # -- night windows -------------------------------------------------------------------
    def _open_window(self) -> None:
        self.panel.stop()
        self.pending = {}
        self.asked = {}
        self.modes = {}
        g = self.game
        for d in g.open_decisions():
            seat = g.actor(d)
            if seat is None:
                continue                     # a role that is out is woken all the same
            modes = g.modes(d)
            if len(modes) > 1:
                # which way first (yes: the first mode, no: the second), then the target
                self.asked[seat] = f"mode:{d}"
                self.panel.ask(seat, [1, 2], "yesno")
                continue
            self._ask_decision(seat, d, modes[0] if modes else "")

    def _ask_decision(self, seat: int, d: str, mode: str) -> None:
        targets = self.game.legal_targets(d, mode)
        if not targets:
            return
        self.asked[seat] = d
        if mode:
            self.modes[d] = mode
        self.panel.ask(seat, targets)

    def _ask(self, seat: int, eligible: list[int], what: str, kind: str = "pick") -> None:
        self.asked[seat] = what
        self.panel.ask(seat, eligible, kind)

    def _night_choice(self, seat: int, what: str, choice: int | None) -> None:
        g = self.game
        if what.startswith("mode:"):
            d = what[5:]
            modes = g.modes(d)
            if choice in (1, 2) and len(modes) >= choice:
                self._ask_decision(seat, d, modes[choice - 1])
            return
        d = what
        if choice is None and d not in g.passes:
            return                           # this role may not pass: keep asking
        mode = self.modes.get(d, "")
        if DECISION[d].act_for(mode) in SHOWN:
            # a check is final at the first confirmation, and answered on this ring only
            if self._decide(d, choice, mode):
                self.asked.pop(seat, None)
                if choice is None:
                    self.panel.stop(seat)
            return
        self.pending[d] = (choice, mode)     # may change until the window closes

    def _decide(self, d: str, target: int | None, mode: str) -> bool:
        return self._record(A.Decide(d, target, mode), _decision_line(d, target, mode), d)

    def _record(self, action: A.Action, line: str, what: str) -> bool:
        """Apply a choice made at the table and write it to the game script; a choice the
        rules refuse becomes a note for the host, never a crash."""
        try:
            self._apply(action)
        except RulesError as exc:
            self._note(f"{what}: {exc}")
            return False
        self.script.append(line)
        return True

    def _close_window(self) -> None:
        for d, (target, mode) in self.pending.items():
            self._decide(d, target, mode)
        self.pending = {}
        self.asked = {}
        self.panel.stop()
        self._apply(A.Close())

    # -- days ----------------------------------------------------------------------------
    def _may_nominate(self) -> bool:
        g = self.game
        return (g.step == "speeches" and g.opt["vote"] != "plurality"
                and not self.nominated_this_speech)

    def _speaker_pad(self, seat: int) -> None:
        """The speaker's ring counts his time down; short presses pick a nominee on it, a
        hold confirms the nomination, a hold with no cursor ends the speech early."""
        self.panel.stop()
        g = self.game
        eligible = [s for s in g.living() if s not in g.nominees] if self._may_nominate() else []
        self.asked = {seat: "speech"}
        t = self.timer
        total = t.seconds if t is not None else 0.0
        self.panel.ask(seat, eligible or [seat], picture=Countdown(total, total))

    def _speech_choice(self, seat: int, choice: int | None) -> None:
        if choice is None or not self._may_nominate():
            self._end_speech()
            return
        self._nominate(seat, choice)

    def _nominate(self, by: int, target: int) -> None:
        if not self._record(A.Nominate(by, target), f"nominate {by} {target}", "nomination"):
            return
        self.nominated_this_speech = True
        t = self.timer
        if t is not None and t.what == "speech":
            self.asked = {by: "speech"}
            # left to him: only a hold, to end early; his ring counts down again
            self.panel.ask(by, [by], picture=Countdown(t.deadline - self.now, t.seconds))

    def _end_speech(self) -> None:
        self.timer = None
        self.panel.stop()
        self._apply(A.EndSpeech())
        self._after()

    def _open_vote(self, f: E.VoteOpens) -> None:
        self.panel.stop()
        self.ballots = {}
        self.yes = set()
        self.asked = {}
        for seat in self.game.living():
            if f.kind == "removeall":
                self._ask(seat, [1, 2], "removeall", "yesno")
            else:
                self._ask(seat, list(f.candidates), "ballot", "vote")
        self._start_timer(f.kind if f.kind == "removeall" else "vote", float(f.seconds or 10))

    def _close_vote(self) -> None:
        g = self.game
        kind = g.step
        self.panel.stop()
        self.asked = {}
        if kind == "removeall":
            for seat in sorted(self.yes):
                self._apply(A.RemoveAllYes(seat))
            self.script.append("removeall: " + " ".join(map(str, sorted(self.yes))))
            self._apply(A.Close())
        else:
            ballots = tuple(sorted(self.ballots.items()))
            by_target: dict[int, list[int]] = {}
            for seat, target in ballots:
                by_target.setdefault(target, []).append(seat)
            for target, seats in by_target.items():
                self.script.append(f"{kind} {target}: " + " ".join(map(str, seats)))
            self._apply(A.Ballots(ballots))
        self.ballots = {}
        self.yes = set()
        self._after()

    # -- pads ----------------------------------------------------------------------------
    def _pad_events(self, events: list[Any]) -> None:
        for ev in events:
            if isinstance(ev, PadFault):
                self._note(f"pad {ev.seat or 'controller'}: {ev.reason}")
                self._pause(f"pad:{ev.seat}:{ev.reason}")
                self.voice.say(["pad_fault"])
            elif isinstance(ev, PadRecovered):
                self._note(f"pad {ev.seat or 'controller'}: back ({ev.reason})")
                for r in [r for r in self.pause_reasons if r.startswith(f"pad:{ev.seat}:")]:
                    self.pause_reasons.discard(r)
                if self.paused and not self.pause_reasons:
                    self.voice.say(["pad_back"])
                    self._resume()
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
                    self._next_viewer()
            elif isinstance(ev, Confirmed):
                self._confirmed(ev.seat, ev.choice)
            elif isinstance(ev, Moved):
                pass                            # the ring already shows the cursor

    def _out_of_turn(self, seat: int) -> None:
        if self.stage == "play" and self.game.phase == "night":
            self.movement.append((self.now, seat))
            self._note(f"movement at night: seat {seat}")

    def _confirmed(self, seat: int, choice: int | None) -> None:
        what = self.asked.get(seat)
        if what is None:
            return
        if what == "speech":
            self._speech_choice(seat, choice)
        elif what == "ballot":
            if choice is not None:
                self.ballots[seat] = choice
        elif what == "removeall":
            if choice == 1:
                self.yes.add(seat)
            elif choice == 2:
                self.yes.discard(seat)
        elif what == "take":
            if choice is not None:
                self._take(seat, choice)
        else:
            self._night_choice(seat, what, choice)

    def _take(self, seat: int, target: int) -> None:
        if not self._record(A.Take(seat, target), f"take {seat} {target}", "take"):
            return
        self.timer = None
        self.panel.stop()
        self._after()

    def _role_card(self, seat: int) -> RoleCard:
        role = self.game.roles[seat]
        return RoleCard(self.cfg.fmt.team_of[role], ROLE[role].card)

    def _register(self, seat: int) -> None:
        role = self.registering[0]
        want = self.cfg.fmt.composition[self.cfg.players].get(role, 0)
        taken = sum(1 for r in self.registered.values() if r == role)
        if seat in self.registered or taken >= want:
            return
        self.registered[seat] = role

    # -- timers --------------------------------------------------------------------------
    def _start_timer(self, what: str, seconds: float, ticks: bool = False) -> None:
        self.timer = Timer(what, seconds, self.now + seconds, ticks,
                           self.now + max(0.0, seconds - TICKS_FROM))

    def _run_timer(self) -> None:
        while not self.paused and self.timer is not None:
            t = self.timer
            if t.ticks and self.now >= t.next_tick and t.next_tick < t.deadline:
                left = round(t.deadline - t.next_tick)
                self.voice.timer("warning" if left == TICKS_FROM else "tick")
                t.next_tick += 1.0
                continue
            if self.now < t.deadline:
                return
            self.timer = None
            self._expire(t)

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
            self.panel.stop()
            self._apply(A.Close())
        elif t.what == "dawn":
            self.panel.stop()
            self.check_seat = 0
            self._apply(A.BeginDay())
            self.script.append("day")
        elif t.what == "dusk":
            self._apply(A.BeginNight())
            self.script.append("night")
        elif t.what == "register":
            self.registering.pop(0)
            self._next_registration()
            return
        self._after()

    # -- the host ------------------------------------------------------------------------
    def _host(self, cmd: tuple[str, ...]) -> None:
        name, args = cmd[0], cmd[1:]
        try:
            if name == "begin":
                self.begin()
            elif name == "start":
                if self.stage == "deal":          # the host moves the viewing on
                    self.stage = "ready"
                self.start_game()
            elif name == "pause":
                self._pause("host")
                self.voice.say(["pause"])
            elif name == "resume":
                self.pause_reasons.discard("host")
                if not self.pause_reasons:
                    self.voice.say(["resume"])
                    self._resume()
            elif name == "skip":
                if self.timer is not None and not self.paused:
                    self.timer.deadline = self.now
                    self._run_timer()
            elif name in ("foul", "disqualify"):
                seat = int(args[0])
                self._apply(A.Foul(seat) if name == "foul" else A.Disqualify(seat))
                self.script.append(f"{name} {seat}")
                self._after()
            elif name == "act":
                self._confirmed(int(args[0]), None if args[1] == "-" else int(args[1]))
            elif name == "assign" and self.stage == "register":
                seat, role = self._seat_arg(args[0]), args[1]
                if role not in self.cfg.fmt.roles:
                    raise ValueError(f"the {self.cfg.fmt.id} format has no role '{role}'")
                self.registered[seat] = role
                if not self.registering:
                    self._finish_registration()
            else:
                self._note(f"unknown host command: {' '.join(cmd)}")
        except (RulesError, ValueError, IndexError) as exc:
            self._note(f"{' '.join(cmd)}: {exc}")

    def _seat_arg(self, text: str) -> int:
        seat = int(text)
        if not 1 <= seat <= self.cfg.players:
            raise ValueError(f"there is no seat {seat}")
        return seat

    def _pause(self, reason: str) -> None:
        self.pause_reasons.add(reason)
        if self.paused:
            return
        self.paused = True
        if self.timer is not None:
            self.left_when_paused = self.timer.deadline - self.now

    def _resume(self) -> None:
        if not self.paused:
            return
        self.paused = False
        t = self.timer
        if t is not None:
            shift = self.now + self.left_when_paused - t.deadline
            t.deadline += shift
            t.next_tick += shift

    def _note(self, text: str) -> None:
        self.log.append(Shown(self.now, text))

    # -- views ---------------------------------------------------------------------------
    def time_left(self) -> float | None:
        t = self.timer
        if t is None:
            return None
        return self.left_when_paused if self.paused else max(0.0, t.deadline - self.now)

    def game_script(self) -> str:
        return "\n".join(self.script) + "\n"


def _decision_line(d: str, target: int | None, mode: str) -> str:
    what = "-" if target is None else str(target)
    return f"{d} {mode} {what}" if mode else f"{d} {what}"


def new_seed() -> int:
    """Chance for a new game (recorded in the journal, so a replay deals the same)."""
    return random.SystemRandom().randrange(2**31)
