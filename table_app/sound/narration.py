"""What the host says for each effect of the rules, as lists of clip ids.

Only public effects are ever spoken. A night window's wake-up and sleep are said the same
whether its roles are alive or not; checks, choices and role changes are never said; night
deaths wait for the morning.
"""

from __future__ import annotations

from ..rules import effects as E
from ..rules.roles import role_clip
from .catalogue import num, plural

Line = list[str]


class Narrator:
    """Turns effects into spoken lines, keeping what must wait for the morning."""

    def __init__(self, lang: str = "en", revote: bool = True,
                 unused_to_last: bool = False) -> None:
        self.lang = lang              # for the plural forms ("2 голоса", "5 голосов")
        self.revote = revote          # the format's tie rule: a revote, or nobody leaves
        #: the format's ballots among nominees count a vote not cast for the last nominee
        #: (yakuza, classic): each ballot says so, and whose it is, as the screens show it
        self.unused_to_last = unused_to_last
        self.night = False
        self.reveal: dict[int, str] = {}
        self.pending: set[int] = set()    # night losses the morning has not named yet

    def lines(self, fx: E.Effect) -> list[Line]:
        if fx.audience != E.PUBLIC:
            return []                     # secret: never spoken
        if isinstance(fx, E.PhaseBegins):
            self.night = fx.phase == "night"
            return [["city_sleeps"]] if self.night else [["city_wakes"]]
        if isinstance(fx, E.Wake):
            return [[f"wake_{fx.window}"]]
        if isinstance(fx, E.Sleep):
            return [[f"sleep_{fx.window}"]]
        if isinstance(fx, E.Eliminated):
            if self.night and fx.by != "disqualified":
                if fx.role:
                    self.reveal[fx.seat] = fx.role
                self.pending.add(fx.seat)
                return []                 # said in the morning, with the others
            if fx.by == "disqualified":
                return [["player", num(fx.seat), "disqualified"]]
            return [self._leaves(fx.seat, fx.role)]
        if isinstance(fx, E.Morning):
            self.pending.clear()
            out = [self._leaves(s, self.reveal.pop(s, None)) for s in fx.left]
            if not fx.left:
                out.append(["morning_nobody"])
            if fx.critical_fouls:
                out.append(["critical_fouls", num(fx.critical_fouls)])
            return out
        if isinstance(fx, E.Speech):
            return [["speech_of" if fx.kind == "speech" else "defence_of", num(fx.seat)]]
        if isinstance(fx, E.Nominated):
            return [["nomination_accepted", num(fx.target)]]
        if isinstance(fx, E.NomineesAnnounced):
            # one nominee is said in the singular: "Nominated are players 8" (trial 20)
            head = "nominee_is" if len(fx.nominees) == 1 else "nominees_are"
            return [[head, *(num(s) for s in fx.nominees)]]
        if isinstance(fx, E.VoteOpens):
            if fx.kind == "removeall":
                return [["removeall_question"]]
            out = [["vote_now"]]
            if self.unused_to_last and fx.candidates:
                # a seat left on votes nobody cast, and nothing said why (#46, finding 6)
                out.append(["unused_vote_last", num(fx.candidates[-1])])
            return out
        if isinstance(fx, E.VoteTotals):
            if fx.kind == "removeall":
                return [["yes_votes", num(fx.totals[0][1])]]
            if not fx.totals:
                # a ballot nobody voted in said nothing: the room did not know its outcome
                return [["no_votes", "nobody_leaves"]]
            out = [["player", num(s), "got", num(n), plural("votes", n, self.lang)]
                   for s, n in fx.totals]
            counts = sorted((n for _, n in fx.totals), reverse=True)
            if fx.kind == "vote" and len(counts) > 1 and counts[0] == counts[1]:
                # said before the tied speak again; where the format has no revote, a tie
                # removes nobody and the night follows
                out.append(["revote_now" if self.revote else "tie_nobody"])
            return out
        if isinstance(fx, E.TakeAwaited):
            return [["sorcerer_chooses"]]
        if isinstance(fx, E.FoulGiven):
            return [["foul", num(fx.seat)]]
        if isinstance(fx, E.GameOver):
            # a night that ended the game has no morning: its losses are named here
            out = [self._leaves(s, self.reveal.pop(s, None)) for s in sorted(self.pending)]
            self.pending.clear()
            return out + [[f"win_{fx.winner}"]]
        return []

    @staticmethod
    def _leaves(seat: int, role: str | None) -> Line:
        line = ["player", num(seat), "leaves_game"]
        if role:
            line += ["role_was", role_clip(role)]
        return line
