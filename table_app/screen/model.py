"""What the screens show, as plain data built from the table.

The host's view sees everything. The public view is built from a `PublicState`, a copy of
only what the whole room may know (who is out and how, fouls, nominees, who speaks, the
timer, vote totals, the winner): it is given nothing secret, so it cannot show it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

from ..rules import effects as E
from ..table.core import Table
from ..words import note_text
from ..words import t as t  # (re-exported: the screens and setup read their texts here)
from ..words import texts as texts


@dataclass(frozen=True)
class SeatView:
    seat: int
    name: str
    alive: bool
    out_by: str = ""           # how he left (public: the morning says so)
    fouls: int = 0
    nominated: bool = False
    speaking: bool = False
    pad_fault: bool = False
    role: str = ""             # host only
    awake: bool = False        # host only: his role's window is open
    asked: bool = False        # host only: his pad is asking him now


@dataclass(frozen=True)
class PublicState:
    """Everything the room may know; nothing else."""

    lang: str
    phase: str                  # "night 2", "day 1", setup, deal, over
    step: str
    seconds_left: int | None
    paused: bool
    seats: tuple[SeatView, ...]
    nominees: tuple[int, ...]
    totals: tuple[tuple[int, int], ...]
    winner: str | None
    #: while a ballot is open: the seat a vote nobody casts goes to (the format's rule: the
    #: last nominee), 0 when it goes nowhere; public, as the rule and the nominees are
    unused_to: int = 0
    #: while the remove-all question is open: the yes votes that remove them all (more than
    #: half the living); public, as the rule and the living are
    yes_needed: int = 0
    #: while a ballot that loses a vote not cast is open (the city's: any living seat, a
    #: tie removes nobody)
    vote_lost: bool = False
    #: the last ballot closed with no vote cast (a city vote nobody pressed in said and
    #: showed nothing: the room did not know that nobody leaves)
    no_votes: bool = False


@dataclass(frozen=True)
class HostView:
    public: PublicState
    seats: tuple[SeatView, ...]          # with roles and who is awake
    window: str = ""
    choices: tuple[tuple[str, str], ...] = ()   # decision -> chosen seat ("-" nothing)
    notes: tuple[str, ...] = ()          # movement at night, faults, choices, checks
    alerts: tuple[str, ...] = ()         # those of the notes to catch the host's eye
    #: those of the notes that tell a role or a night's choice (shown only while the host
    #: holds his roles button: a player beside him reads a 7-inch panel)
    secrets: tuple[str, ...] = ()
    captions: tuple[str, ...] = ()       # the last lines the voice said
    calling: str = ""                    # a card deal: the role being called now
    calling_cards: int = 0               # ... and how many of its cards there are
    missing: tuple[str, ...] = ()        # a card deal: roles no seat pressed for yet
    #: a card deal: every role that is called, in the format's order (each keeps its place
    #: on the screen: buttons that moved after each assignment gave the wrong seat a role)
    deal_roles: tuple[str, ...] = ()
    pending: str = ""                    # what the host must decide now
    rating: tuple[tuple[str, float], ...] = ()   # between games: the season's best, rated
    #: an app deal: the seats that never held their button to see their role (Start asks
    #: the host to confirm past them)
    unseen: tuple[int, ...] = ()
    #: the format's speakers nominate (taps on the ring pick, a hold on nobody ends the
    #: speech); in a plurality vote a speaker's press ends his speech
    nominating: bool = False
    #: a night window whose roles only open their eyes tonight (the yakuza's introduction
    #: night: "awake: Detective" with his ring dark read as a broken pad); the format's and
    #: the night's number say so, nothing secret
    meet_only: bool = False
    #: a night window whose pick, if none is held by its end, the rules make (the yakuza's
    #: and classic's kills, the Doctor's save: "a pick never held is not cast" and then a
    #: seat died that nobody chose); the format's and the night's number say so
    by_rules: bool = False
    #: a night window nobody can choose in tonight (the Yakuza out: the Shogun has no order
    #: to give, and the window runs its time all the same): said to the host only while he
    #: peeks, since the window looks the same whoever lives (a trial host read "the rules
    #: pick for them" and told the room of a shot that never came)
    idle: bool = False
    #: while a ballot that loses a vote not cast is open: how many have voted so far, no
    #: seat and no target (the sum of its totals says as much when it closes; at 20 seats
    #: a host saw no sign that two-step votes went in and thought them lost)
    cast: int | None = None


@dataclass
class Names:
    """Player names per seat (remembered between games by the app)."""

    by_seat: dict[int, str] = field(default_factory=dict)

    def get(self, seat: int) -> str:
        return self.by_seat.get(seat, "")


def _seconds(table: Table, now: float | None) -> int | None:
    # drawn from the deadline at the time of drawing, never from the last input's time
    left = table.time_left(now)
    return None if left is None else seconds_shown(left)


def seconds_shown(left: float) -> int:
    """The whole seconds a timer with `left` seconds to go shows: 9.2 shows 10, 9.0 shows 9
    (a microsecond of float noise aside)."""
    return max(0, math.ceil(left - 1e-6))


#: the notes the host must not miss (movement at night, a pad, the disk; and any note the
#: table could not put in words of its own: a refusal, a driver's message)
ALERTS = ("movement", "pad_", "disk_", "act_late", "undo_skip_late", "refused", "undo_nothing",
          "no_seat")
#: the notes that say who holds what, or whom a role chose (a check, the Hobo's witness);
#: and a seat's movement at night (a role that pressed just after his window closed)
SECRETS = ("decided", "checked", "witnessed", "role_changed", "movement",
           "register_twice", "register_full")


#: seconds a refused command's note stays up
REFUSED_FOR = 20.0

#: notes that stand for where the table is, by their kind: only the latest of a kind is
#: shown ("7-12 never looked" stood above "every player has seen his role"; a late act's
#: note stood through six speeches)
ONCE = {"seen_all": "deal", "seen_not_all": "deal", "seen_not_one": "deal",
        "look_again_for": "deal", "refused": "refused",
        "undo_nothing": "refused", "no_seat": "refused", "act_late": "late", "act_done": "late",
        # (an answer to a key, gone after a while as a refusal is: it stood over a minute)
        "public_one_display": "refused"}

def public_state(table: Table, names: Names | None = None, totals: tuple[
        tuple[int, int], ...] | None = None, now: float | None = None,
                 no_votes: bool = False) -> PublicState:
    """What the room may know, from the rules' public observation and the table's public
    facts (the timer, a pause, a faulty pad): nothing secret goes in, so none comes out."""
    g = table.game
    obs = g.observation(E.PUBLIC)
    names = names or Names()
    faults = {int(r.split(":")[1]) for r in table.pause_reasons if r.startswith("pad:")}
    dealing = table.stage in ("deal", "register")
    # the nominees until the vote is over ("Nominated: 4, 6" stayed up after seat 9 left);
    # from a tie on, those still standing ("Nominees: 3, 2, 5" over a revote of 2 and 3)
    nominating = obs.step not in ("take", "done")
    # (the tied are public: their totals were announced)
    standing = set(g.candidates) if obs.step in ("tie", "revote", "removeall") \
        else set(obs.nominees)
    # an app deal: whose turn it is to look at his role, lit as a speaker is (the turn order
    # is public, the voice calls it: a host did not know whose turn it was, or that it ran)
    turn = table.dealing.viewer if table.stage == "deal" else 0
    seats = tuple(SeatView(o.seat, names.get(o.seat), o.alive or dealing, o.out_by, o.fouls,
                           o.nominated and nominating and o.seat in standing,
                           o.speaking or o.seat == turn,
                           o.seat in faults)
                  for o in obs.seats)
    if table.stage in ("deal", "register", "ready"):
        phase = "deal"
    elif table.stage == "over":
        phase = "over"
    else:
        phase = obs.phase
    # the rule of the ballot that is open, for the host to read out and the room to see
    # (a seat left on votes nobody cast; "all leave?" was answered with no rule on screen)
    ballot = obs.step if table.stage == "play" else ""
    unused_to = 0
    if ballot in ("vote", "revote") and obs.candidates \
            and not g.rules.plurality and g.rules.abstain_to_last:
        unused_to = obs.candidates[-1]
    living = sum(1 for o in obs.seats if o.alive)
    # an earlier ballot's totals are not shown beside an open one (a vote reopened by Undo
    # kept "Nobody voted: nobody leaves" beside it; a revote, the first ballot's counts)
    if ballot in ("vote", "revote", "removeall"):
        totals, no_votes = (), False
    return PublicState(table.cfg.lang, phase, ballot, _seconds(table, now), table.paused, seats,
                       tuple(s for s in obs.nominees if s in standing) if nominating else (),
                       obs.totals if totals is None else totals, obs.winner, unused_to,
                       living // 2 + 1 if ballot == "removeall" else 0,
                       ballot in ("vote", "revote") and g.rules.plurality, no_votes)


def host_view(table: Table, names: Names | None = None,
              totals: tuple[tuple[int, int], ...] | None = None,
              now: float | None = None, no_votes: bool = False) -> HostView:
    g = table.game
    pub = public_state(table, names, totals, now, no_votes)
    window = ""
    awake: set[int] = set()
    meet_only = by_rules = idle = False
    if table.stage == "play" and g.phase == "night" and g.step == "windows":
        w = g.waiting()
        window = w.window or ""
        awake = set(w.awake)
        shape = next((x for x in table.cfg.fmt.windows if x.name == window), None)
        meet_only = shape is not None and not any(g.rules.from_night[d] <= w.number
                                                  for d in shape.decisions)
        by_rules = shape is not None and any(d in g.rules.defaults
                                             and g.rules.from_night[d] <= w.number
                                             for d in shape.decisions)
        idle = shape is not None and not meet_only and all(
            g.actor(d) is None for d in shape.decisions if g.rules.from_night[d] <= w.number)
    # the host knows every death at once
    host_obs = {o.seat: o for o in g.observation(E.HOST).seats}
    seats = tuple(replace(sv, alive=host_obs[sv.seat].alive or table.stage in ("deal",
                                                                               "register"),
                          role=g.roles[sv.seat], awake=sv.seat in awake,
                          asked=sv.seat in table.asked) for sv in pub.seats)
    choices = tuple((d, "-" if target is None else str(target))
                    for d, (target, _) in sorted(table.pending.items()))
    # this phase's notes only (the deal's, the night's secrets are gone by day), in the
    # table's language
    # (a note that says where the deal stands, only its latest: each Show roles again added
    # a "seats ... never looked" note, four stood on the screen)
    phase_notes = table.log[table.notes_from:]
    latest = {ONCE[n.key]: i for i, n in enumerate(phase_notes) if n.key in ONCE}
    # (a refused command's note goes after a while: "no seat 29: the table has 20" stood
    # in orange through the rest of a day, long after the host had typed the right key;
    # so does "act for: done", which stood through the speeches and the vote after it)
    at = table.now if now is None else now
    shown = [n for i, n in enumerate(phase_notes)
             if (n.key not in ONCE or latest[ONCE[n.key]] == i)
             and not (ONCE.get(n.key) in ("refused", "late") and at - n.t > REFUSED_FOR)
             ][-12:]
    notes = tuple(note_text(n.key, n.fields, table.cfg.lang) if n.key else n.text
                  for n in shown)
    alerts = tuple(text for n, text in zip(shown, notes, strict=True)
                   if n.key.startswith(ALERTS) or not n.key)
    secrets = tuple(text for n, text in zip(shown, notes, strict=True)
                    if n.key.startswith(SECRETS))
    pending = ""
    if table.stage == "register" and not table.calls_started:
        pending = "call"                 # the cards are being dealt: the host says when
    elif table.stage == "ready":
        pending = "start"
    elif table.paused:
        pending = "resume"
    captions = tuple(c.text for c in table.captions[-2:])
    calling = ""
    calling_cards = 0
    missing: tuple[str, ...] = ()
    deal_roles: tuple[str, ...] = ()
    if table.stage == "register" and table.calls_started:
        calling = table.registering[0] if table.registering else ""
        calling_cards = table.cfg.fmt.composition[table.cfg.players].get(calling, 0)
        missing = table.dealing.missing_roles()
        deal_roles = table.dealing.called_roles()
    # a card deal: what each seat registered is the host's to see
    if table.stage == "register":
        seats = tuple(replace(sv, role=table.registered.get(sv.seat, "")) for sv in seats)
    unseen = tuple(table.dealing.unseen()) if table.stage in ("deal", "ready") else ()
    cast = len(table.held_ballots()) if pub.vote_lost else None
    return HostView(pub, seats, window, choices, notes, alerts, secrets, captions=captions,
                    unseen=unseen, nominating=g.opt["vote"] != "plurality",
                    meet_only=meet_only, by_rules=by_rules, idle=idle, cast=cast,
                    pending=pending,
                    calling=calling, calling_cards=calling_cards, missing=missing,
                    deal_roles=deal_roles)


class Totals:
    """Keeps the last vote's totals (public: they are announced), fed with the effects, on
    the screens until the host taps on (the rules' own moved on a second or two after the
    vote, before anyone had read them down)."""

    def __init__(self) -> None:
        self.last: tuple[tuple[int, int], ...] = ()
        self.day: int | None = None      # the day of the vote they are from
        #: the last ballot closed with no vote cast: shown as such, not as no ballot at all
        self.none_cast = False

    def __call__(self, fx: list[E.Effect]) -> None:
        for f in fx:
            if isinstance(f, E.VoteTotals):
                self.last = f.totals
                self.none_cast = not f.totals
                self.day = None

    def shown(self, table: Table) -> tuple[tuple[int, int], ...]:
        """The totals to show now: the last vote's, through the night after it, and gone
        when the next day begins (a day-2 vote's stayed up through nights 3-7 onto the end
        screen when no later vote replaced it)."""
        day = table.game.day_no
        if (self.last or self.none_cast) and self.day is None:
            self.day = day
        if self.day is not None and day != self.day:
            self.dismiss()
        return self.last

    def dismiss(self) -> None:
        """The host tapped on: the totals are read."""
        self.last = ()
        self.none_cast = False
        self.day = None
