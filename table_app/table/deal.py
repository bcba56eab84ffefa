"""The deal: the city falls asleep, then each seat in turn sees his role on his ring for the
same fixed time whatever the role (app deal), or the host's cards register role by role."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..pads.rings import RoleCard
from ..rules import actions as A
from ..rules import deal_from_seed
from ..rules.engine import composition_error
from ..rules.roles import ROLE
from ..sound.catalogue import num

if TYPE_CHECKING:
    from .core import Table

VIEW_TURN = 5.0     # each seat's turn to see his role: the same for every role
REGISTER_TURN = 10.0


class Dealing:
    """The table's deal, before night 1 (a part of `Table`)."""

    # -- starting ------------------------------------------------------------------------
    def begin(self: Table) -> None:
        """The city falls asleep; then the deal (each seat in turn sees his role) or the
        card registration."""
        self.questions.new_phase("deal")
        self.panel.set_cap(self.cfg.night_cap)
        self.say(["city_sleeps"])
        if self.cfg.deal == "cards":
            # the host deals the cards first: the calling waits for his "call roles"
            self.stage = "register"
            self._tell("cards_deal")
            return
        roles = self.cfg.roles or deal_from_seed(self.cfg.fmt, self.cfg.players,
                                                 self.cfg.seed).roles
        self._apply(A.Deal(tuple(roles)))
        self.writer.deal(roles)
        self.stage = "deal"
        self.viewer = 0
        self._next_viewer()

    def _next_viewer(self: Table) -> None:
        self.viewer += 1
        if self.viewer > self.cfg.players:
            self._ready("seen_all")
            return
        self.say(["hold_to_see", num(self.viewer)])
        self.timers.start("view", VIEW_TURN, self.now)

    def _ready(self: Table, note: str) -> None:
        self.stage = "ready"
        self.timers.stop()
        self._tell(note)

    def call(self: Table, role: str | None = None) -> None:
        """The host's "call roles" (every role in the format's order, once the cards are
        dealt), or one role called again: a missed call, its cards pressed for in a new
        turn of the same length."""
        if self.stage != "register":
            return
        if role is None:
            if self.calls_started:
                return
            self.calls_started = True
            self.notes_from = len(self.log)       # "deal the cards" is done
            self.registering = list(called_roles(self))
        else:
            if not self.calls_started or role not in missing_roles(self):
                raise ValueError(f"no {role} card is missing")
            self.registering = [role] + [r for r in self.registering if r != role]
        self._next_registration()

    def _next_registration(self: Table) -> None:
        if not self.registering:
            self._finish_registration()
            return
        self.say([ROLE[self.registering[0]].clip, "press_button"])
        self.timers.start("register", REGISTER_TURN, self.now)

    def _finish_registration(self: Table) -> None:
        """Every role was called: deal what the seats pressed, once it is the format's
        composition; until then the host assigns the missing roles by seat."""
        roles = tuple(self.registered.get(seat, self._plain_role())
                      for seat in range(1, self.cfg.players + 1))
        why = composition_error(self.cfg.fmt, self.cfg.players, roles)
        if why:
            # the roles themselves are on the host's screen ("missing: ..."), by touch
            self._tell("register_missing")
            if not missing_roles(self):           # (a deal wrong some other way)
                self._note(f"registration: {why}")
            return
        self._apply(A.Deal(roles))
        self.writer.deal(roles)
        self._ready("registered")

    def _plain_role(self: Table) -> str:
        """The role of a seat that pressed for nothing at a card deal."""
        return next(r for r in self.cfg.fmt.role_order if ROLE[r].plain)

    def _role_card(self: Table, seat: int) -> RoleCard:
        role = self.game.roles[seat]
        return RoleCard(self.cfg.fmt.team_of[role], ROLE[role].card)

    def _register(self: Table, seat: int) -> None:
        role = self.registering[0]
        want = self.cfg.fmt.composition[self.cfg.players].get(role, 0)
        taken = sum(1 for r in self.registered.values() if r == role)
        if seat in self.registered or taken >= want:
            return
        self.registered[seat] = role


def called_roles(table: Table) -> tuple[str, ...]:
    """At a card deal, every role that is called, once each, in the format's order."""
    want = table.cfg.fmt.composition[table.cfg.players]
    return tuple(r for r in table.cfg.fmt.role_order if want.get(r) and not ROLE[r].plain)


def missing_roles(table: Table) -> tuple[str, ...]:
    """At a card deal, the roles no seat has pressed for yet (a role twice if two are
    missing), in the format's order."""
    want = table.cfg.fmt.composition[table.cfg.players]
    got: dict[str, int] = {}
    for role in table.registered.values():
        got[role] = got.get(role, 0) + 1
    return tuple(r for r in table.cfg.fmt.role_order if not ROLE[r].plain
                 for _ in range(want.get(r, 0) - got.get(r, 0)))
