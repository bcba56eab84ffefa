"""The day: the morning, speeches and nominations, blind votes, ties and the remove-all
question, and a voted-out role that takes someone along."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from . import actions as A
from . import effects as E
from .errors import IllegalAction
from .night import Night
from .roles import ROLE
from .state import (
    DAY,
    DEFENCE,
    DONE,
    NIGHT,
    REMOVEALL,
    REVOTE,
    SPEECHES,
    TAKE,
    TIE,
    VOTE,
    Step,
)

_SPEAKING = (SPEECHES, DEFENCE, TIE)
_BALLOTS = (VOTE, REVOTE)
#: each speaking step's timer, and the kind of speech the Speech effect names
_TIMER = {SPEECHES: "speech", DEFENCE: "defence", TIE: "tie_speech"}
_KIND = {SPEECHES: "speech", DEFENCE: "defence", TIE: "tie"}
#: each step's name as effects carry it (compiled, `step.value` would run enum's Python code)
_NAME: Final = {s: s.value for s in Step}
#: roles that, voted out, name one of their voters to take along
_TAKES_VOTER = frozenset(r.id for r in ROLE.values() if r.takes_voter)


class Day(Night):
    """Speeches, nominations, votes and what follows them (on the night, on the state: one
    line of classes, which the compiled engine needs)."""

    def _begin_day(self, a: A.BeginDay) -> None:
        self._over()
        if self.phase is not NIGHT:
            raise IllegalAction("a day follows a night")
        if self.step is not DONE:
            raise IllegalAction(f"night {self.night_no} is not over")
        self.day_no += 1
        self.label = f"day {self.day_no}"
        self.phase = DAY
        self.step = SPEECHES
        living = list(self.live)
        start = 0
        if self.rules.rotate:
            after = self.first_speaker
            start = next((i for i, s in enumerate(living) if s > after), 0)
        self.speakers = living[start:] + living[:start]
        self.first_speaker = self.speakers[0]
        self.speaker_i = 0
        self.nominees_said = False
        self.nominees = []
        self.nominators = {}
        self.candidates = []
        self.ballots = {}
        self.yes = set()
        self.totals = ()
        self._announce(self.night_left)
        self._fx.append(E.PhaseBegins("day", self.day_no))
        # the morning names the night's dead in seat order: attack order would tell who
        # killed whom
        self._fx.append(E.Morning(self.day_no, tuple(sorted(self.night_left)),
                                  self.critical_fouls))
        self._speak()

    def _speak(self) -> None:
        """Give the floor to the current speaker, skipping seats that are out."""
        speakers, alive = self.speakers, self.alive
        while self.speaker_i < len(speakers) and not alive[speakers[self.speaker_i]]:
            self.speaker_i += 1
        if self.speaker_i >= len(speakers):
            self._after_speech()
            return
        st = self.step
        if st is SPEECHES and not self.nominees_said and self.nominees \
                and self.speaker_i == len(speakers) - 1:
            self.nominees_said = True
            self._fx.append(E.NomineesAnnounced(tuple(self.nominees)))
        timer = _TIMER[st]
        self._fx.append(E.Speech(speakers[self.speaker_i], _KIND[st], timer,
                                 self.fmt.timers.get(timer, 0)))

    def _end_speech(self, a: A.EndSpeech) -> None:
        self._over()
        if self.phase is not DAY or self.step not in _SPEAKING:
            raise IllegalAction("nobody is speaking")
        self.speaker_i += 1
        self._speak()

    def _after_speech(self) -> None:
        st = self.step
        if st is SPEECHES:
            if self.nominees and not self.nominees_said:
                self.nominees_said = True
                self._fx.append(E.NomineesAnnounced(tuple(self.nominees)))
            if self.rules.plurality:
                self._open_vote(VOTE, self.live)
            elif not self.nominees:
                self.step = DONE       # with no nomination there is no vote
            else:
                self.step = DEFENCE
                self.speakers = list(self.nominees)
                self.speaker_i = 0
                self._speak()
        elif st is DEFENCE:
            self._open_vote(VOTE, self.nominees)
        elif st is TIE:
            self._open_vote(REVOTE, self.candidates)

    def _open_vote(self, kind: Step, candidates: Sequence[int]) -> None:
        if not candidates:       # every nominee was disqualified
            self.step = DONE
            return
        self.step = kind
        self.candidates = list(candidates)
        self.ballots = {}
        self.yes = set()
        timer = "removeall" if kind is REMOVEALL else "vote"
        self._fx.append(E.VoteOpens(_NAME[kind], tuple(self.candidates), timer,
                                    self.fmt.timers.get(timer, 0)))

    def _nominate(self, a: A.Nominate) -> None:
        self._over()
        if self.phase is not DAY:
            raise IllegalAction("nominations are made in the day")
        if self.step is not SPEECHES:
            raise IllegalAction("nominations are closed: the speeches are over")
        by = self._living_seat(a.by, " and cannot nominate")
        t = self._living_seat(a.target, " and cannot be nominated")
        if t in self.nominees:
            raise IllegalAction(f"seat {t} is already nominated")
        if by in self.nominators:
            raise IllegalAction(f"seat {by} has already nominated seat {self.nominators[by]}")
        if self.nominators:
            # nominations are made in speeches: a seat whose speech came before the last
            # nominator's cannot nominate after him (or the lines' order and the speeches'
            # would give two different last nominees)
            last = next(reversed(self.nominators))
            speakers = self.speakers
            if by in speakers and last in speakers and \
                    speakers.index(by) < speakers.index(last):
                raise IllegalAction(f"seat {by} speaks before seat {last} today: nominations "
                                    "come in speaking order")
        self.nominees.append(t)
        self.nominators[by] = t
        self._fx.append(E.Nominated(by, t))

    # -- ballots -------------------------------------------------------------------------
    def _ballot(self, a: A.Ballot) -> None:
        self._over()
        if self.phase is not DAY or self.step not in _BALLOTS:
            raise IllegalAction("no vote is open")
        self._check_ballot(a.seat, a.target, self.ballots)
        self.ballots[a.seat] = a.target

    def _check_ballot(self, seat: int, target: int, taken: dict[int, int]) -> None:
        """Why a ballot is refused (raised), given the ballots already `taken`."""
        self._living_seat(seat, " and cannot vote")
        self._seat(target)
        if seat in taken:
            raise IllegalAction(f"seat {seat} has already voted")
        if target not in self.candidates:
            if self.rules.plurality:
                raise IllegalAction(f"seat {target} is out of the game")
            what = "in the repeat vote" if self.step is REVOTE else "nominated"
            raise IllegalAction(f"seat {target} is not {what}")

    def _ballots(self, a: A.Ballots) -> None:
        self._over()
        if self.phase is not DAY or self.step not in _BALLOTS:
            raise IllegalAction("no vote is open")
        alive, cands, n = self.alive, self.candidates, self.n
        ballots = dict(self.ballots)      # all or nothing: a bad ballot changes no state
        for seat, target in a.ballots:
            # the common case checked inline; anything odd goes the long way for its message
            if not (type(seat) is int and 0 < seat <= n and alive[seat]
                    and seat not in ballots and target in cands):
                self._check_ballot(seat, target, ballots)
            ballots[seat] = target
        self.ballots = ballots
        self._tally()

    def _tally(self) -> None:
        """The vote closes: ballots are counted now. A ballot for a seat that can no longer
        be voted out (disqualified since) counts as an abstention."""
        kind = self.step
        cands = self.candidates
        counts = {c: 0 for c in cands}
        if self.rules.plurality:
            for t in self.ballots.values():
                if t in counts:
                    counts[t] += 1
        else:
            last = cands[-1]
            to_last = self.rules.abstain_to_last
            ballots = self.ballots
            for s in self.live:
                t = ballots.get(s, 0)
                if t not in counts:
                    t = last if to_last else 0
                if t:
                    counts[t] += 1
        totals = []
        best = 0
        for c in cands:
            k = counts[c]
            if k:
                totals.append((c, k))
                best = max(best, k)
        self.totals = tuple(totals)
        self._fx.append(E.VoteTotals(_NAME[kind], self.totals))
        leaders = [c for c in cands if counts[c] == best] if best else []
        if len(leaders) == 1:
            self._voted_out(leaders, "vote")
        elif len(leaders) > 1 and self.rules.revote and kind is VOTE:
            self.step = TIE
            self.candidates = leaders
            self.speakers = list(leaders)
            self.speaker_i = 0
            self._speak()
        elif len(leaders) > 1 and self.rules.revote and kind is REVOTE:
            self._open_vote(REMOVEALL, leaders)
        else:
            self.step = DONE

    def _removeall_yes(self, a: A.RemoveAllYes) -> None:
        self._over()
        if self.phase is not DAY or self.step is not REMOVEALL:
            raise IllegalAction("the remove-all question is not being asked")
        seat = self._living_seat(a.seat, " and cannot vote")
        if seat in self.yes:
            raise IllegalAction(f"seat {seat} has already voted")
        self.yes.add(seat)

    def _close_removeall(self) -> None:
        yes = len(self.yes)
        self.totals = ((0, yes),)
        self._fx.append(E.VoteTotals("removeall", self.totals))
        if yes * 2 > len(self.live):
            self._voted_out(list(self.candidates), "removeall")
        else:
            self.step = DONE

    def _voted_out(self, seats: list[int], by: str) -> None:
        self.step = DONE
        voters = [s for s, t in self.ballots.items() if t in seats]
        self._eliminate([(s, by) for s in seats])
        taker = 0
        for s in seats:
            if self.roles[s] in _TAKES_VOTER:
                taker = s
                break
        live_voters = tuple(v for v in voters if self.alive[v])
        if not taker and self.hides_takers():
            # roles hidden: every seat voted out gets the taker's step, so the room cannot
            # tell a taker by it; anyone else's take is refused, and the step just runs out
            taker = seats[0]
        elif not taker:
            live_voters = ()
        if live_voters or (taker and self.hides_takers()):
            self.step = TAKE
            self.take_seat = taker
            self.take_voters = live_voters
            self._fx.append(E.TakeAwaited(taker, live_voters))
            return
        self._end_eliminations()

    def hides_takers(self) -> bool:
        """Whether a seat voted out keeps his role to himself while a role that takes one of
        his voters along is dealt: then every seat voted out gets that role's step."""
        return not self.rules.reveal and any(self.dealt(r) for r in _TAKES_VOTER)

    def takes_along(self, seat: int) -> bool:
        """Whether `seat` is the seat voted out now whose role takes a voter along."""
        return self.step is TAKE and seat == self.take_seat and \
            self.roles[seat] in _TAKES_VOTER

    def _take(self, a: A.Take) -> None:
        self._over()
        if self.phase is not DAY or self.step is not TAKE or a.seat != self.take_seat \
                or self.roles[a.seat] not in _TAKES_VOTER:
            raise IllegalAction(f"seat {a.seat} has nobody to take along")
        t = self._living_seat(a.target)
        if t not in self.take_voters:
            raise IllegalAction(f"seat {t} did not vote for seat {a.seat}")
        self.step = DONE
        self.take_seat = 0
        self._eliminate([(t, self.roles[a.seat])])
        self._end_eliminations()

    def _close_day_step(self) -> None:
        """The running speech, vote or choice ran out of time."""
        st = self.step
        if st in _SPEAKING:
            self.speaker_i = len(self.speakers)
            self._after_speech()
        elif st in _BALLOTS:
            self._tally()
        elif st is REMOVEALL:
            self._close_removeall()
        elif st is TAKE:
            # he named nobody: nobody goes with him, and the day is over
            self.step = DONE
            self.take_seat = 0
            self._end_eliminations()
        else:
            raise IllegalAction("the day is over; the night has not begun")
