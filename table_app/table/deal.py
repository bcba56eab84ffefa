"""The deal: the city falls asleep, then each seat in turn sees his role on his ring for the
same fixed time whatever the role (app deal), or the host's cards register role by role."""

from __future__ import annotations

from ..pads.rings import Dark, RoleCard
from ..rules import actions as A
from ..rules import deal_from_seed
from ..rules.engine import composition_error
from ..rules.roles import ROLE, role_clip
from ..sound.catalogue import num
from ..words import spans
from .context import TableContext
from .kinds import TableStage, Timed

VIEW_TURN = 5.0     # each seat's turn to see his role: the same for every role
#: from Start (or Show roles again) to the first seat's turn: the table hears the city fall
#: asleep and looks at its pads (seat 1's 5 s ran from the host's tap, and a trial's table
#: missed its turns while the host was still speaking)
DEAL_LEAD = 4.0
REGISTER_TURN = 10.0


class DealFlow:
    """The table's deal, before night 1: whose turn it is to look, or which role's cards
    are called and who pressed for them."""

    def __init__(self, ctx: TableContext) -> None:
        self.ctx = ctx
        self.viewer = 0              # app deal: whose turn it is to look at his role
        self.to_look: list[int] = []  # app deal: the seats whose turn comes, in order
        self.registering: list[str] = []
        self.calls_started = False   # a card deal: the host said the cards are dealt
        self.registered: dict[int, str] = {}
        #: app deal: the seats that held their button in their turn (saw their role)
        self.looked: set[int] = set()

    # -- starting ------------------------------------------------------------------------
    def begin(self) -> None:
        """The city falls asleep; then the deal (each seat in turn sees his role) or the
        card registration."""
        ctx, cfg = self.ctx, self.ctx.cfg
        ctx.questions.new_phase("deal")
        ctx.panel.set_cap(cfg.night_cap)
        ctx.say(["city_sleeps"])
        if cfg.deal == "cards":
            # the host deals the cards first: the calling waits for his "call roles"
            ctx.stage = TableStage.REGISTER
            ctx.tell("cards_deal")
            return
        roles = cfg.roles or deal_from_seed(cfg.fmt, cfg.players, cfg.seed).roles
        ctx.apply(A.Deal(tuple(roles)))
        ctx.writer.deal(roles)
        ctx.stage = TableStage.DEAL
        self.to_look = list(range(1, cfg.players + 1))
        self._lead_in()

    def look_again(self) -> None:
        """The host gives the seats that missed their turn another one, each as long, in
        seat order (a player who missed his 5 s could never see his role: the host had only
        "start anyway" or a new game)."""
        unseen = self.unseen()
        if self.ctx.stage is not TableStage.READY or not unseen:
            self.ctx.tell("look_again_none")
            return
        self.ctx.stage = TableStage.DEAL
        self.to_look = unseen
        # (it stands for the deal's "seats ... never looked", which stayed up through the
        # second round a trial's host ran)
        self.ctx.tell("look_again_for", seats=spans(unseen))
        self._lead_in()

    def _lead_in(self) -> None:
        """Nobody's turn yet, for the same few seconds every time."""
        self.viewer = 0
        self.ctx.start(Timed.VIEW, DEAL_LEAD)

    def ready(self, note: str, **fields: str) -> None:
        self.ctx.stage = TableStage.READY
        self.ctx.timers.stop()
        self.ctx.tell(note, **fields)

    def unseen(self) -> list[int]:
        """App deal: the seats that have not held their button in their turn (yet)."""
        if self.ctx.cfg.deal != "app":
            return []
        return [s for s in range(1, self.ctx.cfg.players + 1) if s not in self.looked]

    def host_start(self) -> None:
        """The host starts the game during the viewing: it moves on at once."""
        if self.ctx.stage is TableStage.DEAL:
            if self.viewer:
                self.ctx.panel.show(self.viewer, Dark())
            self.ready("host_started")

    # -- an app deal: each seat looks in turn ----------------------------------------------
    def pressed(self, seat: int) -> None:
        stage = self.ctx.stage
        if stage is TableStage.DEAL and seat == self.viewer:
            self.looked.add(seat)
            self.ctx.panel.show(seat, self._role_card(seat))
        elif stage is TableStage.REGISTER and self.registering:
            self._register(seat)

    def released(self, seat: int) -> None:
        if self.ctx.stage is TableStage.DEAL and seat == self.viewer:
            self.ctx.panel.show(seat, Dark())

    def view_over(self) -> None:
        """A seat's turn to look ran out (or the lead-in before the first)."""
        if self.viewer:
            self.ctx.panel.show(self.viewer, Dark())
        self._next_viewer()

    def _next_viewer(self) -> None:
        self.viewer = self.to_look.pop(0) if self.to_look else 0
        if not self.viewer:
            # "every player has seen his role" only when each held his button in his turn
            unseen = self.unseen()
            if unseen:
                # (one seat: its own sentence, "Места 1 так и не посмотрели" read wrong)
                self.ready("seen_not_one" if len(unseen) == 1 else "seen_not_all",
                           seats=spans(unseen))
            else:
                self.ready("seen_all")
            return
        self.ctx.say(["hold_to_see", num(self.viewer)])
        self.ctx.start(Timed.VIEW, VIEW_TURN)

    def _role_card(self, seat: int) -> RoleCard:
        role = self.ctx.game.roles[seat]
        return RoleCard(self.ctx.cfg.fmt.team_of[role], ROLE[role].card)

    # -- a card deal: each role's cards register --------------------------------------------
    def call(self, role: str | None = None) -> None:
        """The host's "call roles" (every role in the format's order, once the cards are
        dealt), or one role called again: a missed call, its cards pressed for in a new
        turn of the same length."""
        if self.ctx.stage is not TableStage.REGISTER:
            return
        if role is None:
            if self.calls_started:
                return
            self.calls_started = True
            self.ctx.notes_from = len(self.ctx.log)       # "deal the cards" is done
            self.registering = list(self.called_roles())
        else:
            if not self.calls_started or role not in self.missing_roles():
                raise ValueError(f"no {role} card is missing")
            self.registering = [role] + [r for r in self.registering if r != role]
        self._next_registration()

    def register_over(self) -> None:
        """A role's turn to press ran out."""
        self.registering.pop(0)
        self._next_registration()

    def assign(self, seat: int, role: str) -> None:
        """The host gives a seat its role at a card deal (a card nobody pressed for)."""
        if self.ctx.stage is not TableStage.REGISTER:
            raise ValueError("no card deal is registering")
        if role not in self.ctx.cfg.fmt.roles:
            raise ValueError(f"the {self.ctx.cfg.fmt.id} format has no role '{role}'")
        self.registered[seat] = role
        if not self.registering:
            self._finish_registration()

    def _next_registration(self) -> None:
        if not self.registering:
            self._finish_registration()
            return
        self.ctx.say([ROLE[self.registering[0]].clip, "press_button"])
        self.ctx.start(Timed.REGISTER, REGISTER_TURN)

    def _finish_registration(self) -> None:
        """Every role was called: deal what the seats pressed, once it is the format's
        composition; until then the host assigns the missing roles by seat."""
        ctx, cfg = self.ctx, self.ctx.cfg
        roles = tuple(self.registered.get(seat, self._plain_role())
                      for seat in range(1, cfg.players + 1))
        why = composition_error(cfg.fmt, cfg.players, roles)
        if why:
            # the roles themselves are on the host's screen ("missing: ..."), by touch
            ctx.tell("register_missing")
            if not self.missing_roles():           # (a deal wrong some other way)
                ctx.note(f"registration: {why}")
            return
        ctx.apply(A.Deal(roles))
        ctx.writer.deal(roles)
        self.ready("registered")

    def _plain_role(self) -> str:
        """The role of a seat that pressed for nothing at a card deal."""
        return next(r for r in self.ctx.cfg.fmt.role_order if ROLE[r].plain)

    def _register(self, seat: int) -> None:
        role = self.registering[0]
        want = self.ctx.cfg.fmt.composition[self.ctx.cfg.players].get(role, 0)
        taken = sum(1 for r in self.registered.values() if r == role)
        if self.registered.get(seat) == role:
            return                                 # (his card's press, again)
        if seat in self.registered or taken >= want:
            # said (the host's to see while he peeks: it names a role): a second Yakuza's
            # press was dropped in silence, and the seat played as a civilian
            if seat in self.registered:
                self.ctx.tell("register_twice", seat=str(seat), role_t=role_clip(role),
                              had_t=role_clip(self.registered[seat]))
            else:
                self.ctx.tell("register_full", seat=str(seat), role_t=role_clip(role),
                              seats=", ".join(str(s) for s, r in sorted(self.registered.items())
                                              if r == role))
            return
        self.registered[seat] = role

    def called_roles(self) -> tuple[str, ...]:
        """At a card deal, every role that is called, once each, in the format's order."""
        fmt = self.ctx.cfg.fmt
        want = fmt.composition[self.ctx.cfg.players]
        return tuple(r for r in fmt.role_order if want.get(r) and not ROLE[r].plain)

    def missing_roles(self) -> tuple[str, ...]:
        """At a card deal, the roles no seat has pressed for yet (a role twice if two are
        missing), in the format's order."""
        fmt = self.ctx.cfg.fmt
        want = fmt.composition[self.ctx.cfg.players]
        got: dict[str, int] = {}
        for role in self.registered.values():
            got[role] = got.get(role, 0) + 1
        return tuple(r for r in fmt.role_order if not ROLE[r].plain
                     for _ in range(want.get(r, 0) - got.get(r, 0)))
