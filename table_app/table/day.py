"""The day at the table: each speaker's ring counts his time down and takes his nomination,
every living seat votes blindly on its pad (only totals are said), and a Sorcerer voted out
names one of his voters."""

from __future__ import annotations

from dataclasses import replace

from ..pads.rings import Countdown
from ..rules import actions as A
from ..rules import effects as E
from .context import DAWN, TableContext
from .kinds import Ask, Timed
from .questions import Question


class DayFlow:
    """The day on the pads: the speaker's pad, the ballots and remove-all answers gathered
    till the vote closes, the Sorcerer's take."""

    def __init__(self, ctx: TableContext) -> None:
        self.ctx = ctx
        self.ballots: dict[int, int] = {}
        self.yes: set[int] = set()
        self.nominated_this_speech = False
        #: with roles hidden, the voted-out seat's pick, carried out when his time is up
        self.take_pick: tuple[int, int | None] | None = None

    # -- speeches ------------------------------------------------------------------------
    def speech(self, f: E.Speech) -> None:
        self.nominated_this_speech = False
        self.ctx.start(Timed.SPEECH, f.seconds, ticks=True)
        self._speaker_pad(f.seat)

    def _may_nominate(self) -> bool:
        g = self.ctx.game
        return (g.step == "speeches" and g.opt["vote"] != "plurality"
                and not self.nominated_this_speech)

    def _speaker_pad(self, seat: int) -> None:
        """The speaker's ring counts his time down; short presses pick a nominee on it, a
        hold confirms the nomination, a hold on nobody ends the speech early. Nominations
        are said aloud, so the cursor starts on nobody."""
        ctx = self.ctx
        ctx.questions.stop()
        g = ctx.game
        eligible = [s for s in g.living() if s not in g.nominees] if self._may_nominate() else []
        t = ctx.timers.timer
        total = t.seconds if t is not None else 0.0
        ctx.questions.ask(seat, Question(Ask.SPEECH, tuple(eligible or [seat]),
                                         picture=Countdown(total, total), seeded=False))

    def seat_left(self, f: E.Eliminated) -> None:
        """A seat left by day (disqualified): a speaker's pad offers him as a nominee no
        more (it did: the hold was refused, and its note stood through the day)."""
        ctx = self.ctx
        for seat, q in list(ctx.questions.now.items()):
            if q.ask is Ask.SPEECH and f.seat in q.eligible and seat != f.seat:
                t = ctx.timers.timer
                picture = q.picture if t is None or t.what is not Timed.SPEECH else \
                    Countdown(t.deadline - ctx.now, t.seconds)
                ctx.questions.replace(seat, replace(
                    q, eligible=tuple(s for s in q.eligible if s != f.seat) or (seat,),
                    picture=picture))

    def speech_choice(self, seat: int, choice: int | None) -> None:
        if choice is None or not self._may_nominate():
            self.end_speech()
            return
        self._nominate(seat, choice)

    def _nominate(self, by: int, target: int) -> None:
        ctx = self.ctx
        if not ctx.record(A.Nominate(by, target),
                          lambda: ctx.writer.line(f"nominate {by} {target}"), "nominate",
                          (target,)):
            return
        self.nominated_this_speech = True
        t = ctx.timers.timer
        if t is not None and t.what is Timed.SPEECH:
            # left to him: only a hold, to end early; his ring counts down again
            ctx.questions.replace(by, Question(
                Ask.SPEECH, (by,), picture=Countdown(t.deadline - ctx.now, t.seconds),
                seeded=False))

    def end_speech(self) -> None:
        self.ctx.timers.stop()
        self.ctx.questions.stop()
        self.ctx.apply(A.EndSpeech())
        self.ctx.after()

    def speech_over(self) -> None:
        """The speaker's time ran out: the buzzer, and the next speaker."""
        self.ctx.voice.timer("buzzer")
        self.end_speech()

    # -- votes ---------------------------------------------------------------------------
    def vote_opens(self, f: E.VoteOpens) -> None:
        ctx = self.ctx
        ctx.questions.stop()
        self.ballots = {}
        self.yes = set()
        for seat in ctx.game.living():
            if f.kind == "removeall":
                ctx.questions.ask(seat, Question(Ask.REMOVEALL, (1, 2), "yesno"))
            else:
                ctx.questions.ask(seat, Question(Ask.BALLOT, f.candidates, "vote"))
        ctx.start(Timed.REMOVEALL if f.kind == "removeall" else Timed.VOTE,
                  float(f.seconds or 10))

    def ballot(self, seat: int, choice: int | None) -> None:
        if choice is not None:
            self.ballots[seat] = choice

    def removeall(self, seat: int, choice: int | None) -> None:
        if choice == 1:
            self.yes.add(seat)
        elif choice == 2:
            self.yes.discard(seat)

    def close_vote(self) -> None:
        ctx = self.ctx
        kind = ctx.game.step
        ctx.questions.stop()
        if kind == "removeall":
            for seat in sorted(self.yes):
                ctx.apply(A.RemoveAllYes(seat))
            ctx.writer.removeall(sorted(self.yes))
            ctx.apply(A.Close())
        else:
            # a ballot for a seat that can no longer be voted out (disqualified since) is an
            # abstention, and a disqualified seat's own ballot is void
            g = ctx.game
            ballots = tuple((s, t) for s, t in sorted(self.ballots.items())
                            if g.alive[s] and t in g.candidates)
            ctx.writer.ballots(kind, ballots)
            ctx.apply(A.Ballots(ballots))
        self.ballots = {}
        self.yes = set()
        ctx.after()

    # -- the Sorcerer's take -------------------------------------------------------------
    def take_awaited(self, f: E.TakeAwaited) -> None:
        ctx = self.ctx
        ctx.questions.stop()
        self.take_pick = None
        ctx.questions.ask(f.seat, Question(Ask.TAKE, f.voters))
        ctx.start(Timed.TAKE, float(ctx.cfg.fmt.timers.get("vote", 15)))

    def take(self, seat: int, target: int | None) -> None:
        ctx = self.ctx
        if ctx.game.hides_takers():
            # roles hidden: every seat voted out is asked, and the step always runs its full
            # time (ending it at the Sorcerer's hold would say who he was); his last hold is
            # carried out when it is over
            self.take_pick = (seat, target)
            return
        if target is None or not ctx.record(
                A.Take(seat, target), lambda: ctx.writer.line(f"take {seat} {target}"), "take",
                (target,)):
            return
        ctx.timers.stop()
        ctx.questions.stop()
        ctx.after()

    def take_over(self) -> None:
        """His time is up: his pick where roles are hidden (a seat that takes nobody along
        picked for nothing), else he named nobody in time: the rules' default."""
        ctx = self.ctx
        ctx.questions.stop()
        pick, self.take_pick = self.take_pick, None
        if pick is not None and pick[1] is not None and ctx.game.takes_along(pick[0]):
            seat, target = pick[0], pick[1]
            if ctx.record(A.Take(seat, target),
                          lambda: ctx.writer.line(f"take {seat} {target}"), "take", (target,)):
                ctx.after()
                return
        ctx.apply(A.Close())

    # -- dusk ----------------------------------------------------------------------------
    def day_over(self) -> None:
        self.ctx.questions.stop()
        self.ctx.start(Timed.DUSK, DAWN)

    def evening(self) -> None:
        self.ctx.apply(A.BeginNight())
        self.ctx.writer.phase("night")
