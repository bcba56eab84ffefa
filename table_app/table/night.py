"""The night at the table: each window wakes its roles for its full time, only the deciding
seat's pad asks (its ring alone lights), a check's answer lights one pixel on the checker's
ring, and the choices land when the window closes."""

from __future__ import annotations

from ..pads.answers import answer
from ..pads.rings import CheckShown, Picture, RoleCard
from ..rules import actions as A
from ..rules import effects as E
from ..rules.roles import DECISION, ROLE, role_clip
from .context import DAWN, TableContext
from .kinds import Ask, Timed
from .questions import Question


class NightFlow:
    """The night's windows on the pads: what each deciding seat is asked, the choices that
    wait for the window's close, the rings that show an answer."""

    def __init__(self, ctx: TableContext) -> None:
        self.ctx = ctx
        self.pending: dict[str, tuple[int | None, str]] = {}   # night choices, till the close
        self.answered: set[int] = set()     # seats whose ring shows a private answer
        self.movement: list[tuple[float, int]] = []    # presses from sleeping seats

    # -- the rules' effects --------------------------------------------------------------
    def wake(self, f: E.Wake) -> None:
        self.ctx.voice.timer("chime")
        self._open_window()
        self.ctx.start(Timed.WINDOW, f.seconds)

    def sleep(self, f: E.Sleep) -> None:
        self.ctx.voice.timer("chime")

    def decided(self, f: E.Decided) -> None:
        """What a role chose, on the host's screen only."""
        key = "decided" if f.target is not None else "decided_nothing"
        if f.mode:
            self.ctx.tell(key + "_mode", decision_t=f"window_{f.decision}",
                          seat=str(f.target), mode_t=f"mode_{f.mode}")
        else:
            self.ctx.tell(key + ("_default" if f.default else ""),
                          decision_t=f"window_{f.decision}", seat=str(f.target))

    def check_result(self, f: E.CheckResult) -> None:
        """A check's answer: on the host's screen, and on the checker's ring only, one pixel
        like every other answer."""
        result = answer(f.result).text or role_clip(f.result)
        self.ctx.tell("checked", by_t=f"window_{f.by}", seat=str(f.target), result_t=result)
        self._answer(f.audience, CheckShown(f.target, f.result))

    def witness(self, f: E.Witness) -> None:
        """The Hobo's morning: who came to kill at the seat he visited, on the host's screen,
        and on his ring alone as one pixel like every answer: green on the seat that came
        (as a search that found), or amber on the seat he visited if nobody came. Two that
        came (the Mafia and the Killer at one house) light the first, the Mafia's (the
        host's screen names both). It stays till the morning, as an answer found at dawn."""
        if f.killers:
            self.ctx.tell("witnessed", seat=str(f.target),
                          who=", ".join(str(k) for k in f.killers))
            shown = CheckShown(f.killers[0], "came")
        else:
            self.ctx.tell("witnessed_nobody", seat=str(f.target))
            shown = CheckShown(f.target, "nobody_came")
        self._answer(f.audience, shown)

    def role_changed(self, f: E.RoleChanged) -> None:
        """A seat's role changed (the Werewolf turned, the Sergeant took over): on the host's
        screen, and on that seat's ring alone as its new role card (two pixels, like every
        card). Found at dawn it stays till the morning, as an answer does; by day it shows
        when the seat is asked nothing (a ballot in hand is not taken from him)."""
        self.ctx.tell("role_changed", seat=str(f.seat), role_t=role_clip(f.role))
        if f.audience in self.ctx.questions.now:
            return
        team = self.ctx.cfg.fmt.team_of[f.role]
        self.ctx.panel.show(f.audience, RoleCard(team, ROLE[f.role].card))
        if self.ctx.game.phase == "night":
            self.answered.add(f.audience)

    def _answer(self, seat: int, picture: Picture) -> None:
        """A private answer on `seat`'s ring: the seat is asked nothing more, and its ring
        keeps the answer till the morning (night_over leaves it lit)."""
        self.ctx.questions.forget(seat)
        self.ctx.panel.show(seat, picture)
        self.answered.add(seat)

    # -- windows -------------------------------------------------------------------------
    def _open_window(self) -> None:
        questions, g = self.ctx.questions, self.ctx.game
        questions.stop()
        self.answered = set()
        self.pending = {}
        for d in g.open_decisions():
            seat = g.actor(d)
            if seat is None:
                continue                     # a role that is out is woken all the same
            modes = g.modes(d)
            if len(modes) > 1:
                # which way first (the first mode on the yes pixel, the second on no)
                questions.ask(seat, Question(Ask.MODE, (1, 2), "yesno", decision=d))
            else:
                self._ask_decision(seat, d, modes[0] if modes else "", now=False)

    def _ask_decision(self, seat: int, d: str, mode: str, now: bool) -> None:
        targets = self.ctx.game.legal_targets(d, mode)
        if not targets:
            return
        q = Question(Ask.DECISION, tuple(targets), decision=d, mode=mode)
        (self.ctx.questions.replace if now else self.ctx.questions.ask)(seat, q)

    def choice(self, seat: int, q: Question, choice: int | None) -> None:
        """A deciding seat confirmed on his pad."""
        g, d = self.ctx.game, q.decision
        if q.ask is Ask.MODE:
            modes = g.modes(d)
            if choice in (1, 2) and len(modes) >= choice:
                self._ask_decision(seat, d, modes[choice - 1], now=True)
            return
        if choice is None and d not in g.passes:
            return                           # this role may not pass: keep asking
        if DECISION[d].act_for(q.mode).shows:
            # a check is final at the first confirmation (its answer comes on this ring)
            if self._decide(d, choice, q.mode) and seat not in self.answered:
                self.ctx.questions.done(seat)
            return
        self.pending[d] = (choice, q.mode)   # the last question may change till the close
        if self.ctx.questions.waiting.get(seat):
            self.ctx.questions.done(seat)    # the seat's next question (the Don's search)

    def close_window(self) -> None:
        """The window's time ran out: its choices land, its eyes close."""
        for d, (target, mode) in self.pending.items():
            self._decide(d, target, mode)
        self.pending = {}
        self.ctx.questions.stop()
        self.answered = set()
        self.ctx.apply(A.Close())

    def _decide(self, d: str, target: int | None, mode: str) -> bool:
        return self.ctx.record(A.Decide(d, target, mode),
                               lambda: self.ctx.writer.decision(d, target, mode),
                               f"window_{d}", (target,))

    # -- dawn ----------------------------------------------------------------------------
    def night_over(self) -> None:
        """The last window closed: rings go dark but for an answer found at dawn (it stays
        till the morning), and the morning comes after a pause."""
        for seat in range(1, self.ctx.cfg.players + 1):
            if seat not in self.answered:
                self.ctx.questions.stop(seat)
        self.ctx.start(Timed.DAWN, DAWN)

    def morning(self) -> None:
        self.ctx.questions.stop()
        self.answered = set()
        self.ctx.apply(A.BeginDay())
        self.ctx.writer.phase("day")

    def out_of_turn(self, seat: int) -> None:
        """A press from a seat that is asked nothing: at night, the host sees movement
        (unless the seat's eyes are open: an introduction)."""
        g = self.ctx.game
        if g.phase == "night":
            if g.step == "windows" and seat in g.waiting().awake:
                return
            self.movement.append((self.ctx.now, seat))
            self.ctx.tell("movement", seat=str(seat))
