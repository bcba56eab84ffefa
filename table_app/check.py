"""`table-app check`: the whole table's self-test, before a club night.

It says what the pads are (the controller's firmware, its pairing and link health) and finds
buttons held down from the start (stuck, or shorted). Then the host walks round the table
pressing the button of seat 1, seat 2, ... (so each button gets its seat, however the cables
were plugged), and then the rings light one at a time: for each the host presses the lit
pad's button, which tells whose ring it is, or finds it dead (a dead or unplugged ring). Then
that ring shows one pixel: taps move it, a hold says "this one points at seat 1", which is
the ring's turn. A complete result is written to the settings (`pads.buttons`, `pads.rings`,
`pads.rotation`), which the table then uses. Last, it plays a test sound on the chosen audio
output and lists the others.

`SelfTest` is only state: it is fed pad events and the time, so the tests drive it on every
backend with their own clocks; the check screen runs it on the host's screen, and the command
(table_app/admin/check.py) at a real table from a terminal.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .pads.base import PadBackend
from .pads.events import PadEdge, RawPadEvent
from .pads.grammar import COUNT
from .pads.rings import Dark, Pick
from .words import spans

BOUNCE = 0.03          # a press shorter than this is contact bounce, not a tap


@dataclass
class CheckReport:
    """What the self-test found."""

    pads: str = ""
    link_ok: bool = True
    stuck: list[int] = field(default_factory=list)
    buttons: dict[int, int] = field(default_factory=dict)   # seat -> button
    rings: dict[int, int] = field(default_factory=dict)     # seat -> ring
    rotation: dict[int, int] = field(default_factory=dict)  # seat -> pixel at seat 1
    silent: list[int] = field(default_factory=list)         # seats whose button never came
    dead: list[int] = field(default_factory=list)           # rings no button answered
    unturned: list[int] = field(default_factory=list)       # rings whose turn was not given
    sound: str = ""
    sound_ok: bool = True
    seats: int = 12
    turns: bool = True          # rings (False: one LED a seat, nothing to turn)
    inputs: int = 12            # buttons and rings the controllers have (12 each)
    #: a big table's controllers by id, in the order their buttons are numbered
    controllers: list[str] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        return (len(self.buttons) == self.seats and len(self.rings) == self.seats
                and not self.stuck and not self.dead
                and (not self.turns or not self.unturned))

    def layout(self) -> tuple[list[int], list[int], list[int]]:
        """`pads.buttons`, `pads.rotation` and `pads.rings` as the settings keep them."""
        seats = range(1, self.seats + 1)
        return ([self.buttons[k] for k in seats], [self.rotation.get(k, 0) for k in seats],
                [self.rings[k] for k in seats])

    def problems(self) -> list[str]:
        out = [] if self.link_ok else [self.pads]
        out += [f"button {b} is down from the start: held, stuck, or shorted to ground "
                f"(look at its pad and cable)" for b in self.stuck]
        out += [f"seat {k}: no button was pressed for it (a dead button or cable, or "
                f"nobody pressed)" for k in self.silent]
        if self.dead:
            tail = _tail(self.dead, self.seats)
            for k in self.dead:
                if tail and k >= tail[0]:
                    break
                out.append(f"ring {k}: no button answered: a dead ring or an unplugged pad "
                           f"(or nobody pressed)")
            if tail:
                span = f"rings {tail[0]}-{self.seats}" if len(tail) > 1 else f"ring {tail[0]}"
                out.append(f"{span}: no button answered: the controller's ring pins from "
                           f"{tail[0]} on, or (rings in one chain) the chain breaks at ring "
                           f"{tail[0]}")
        found = set(self.buttons.values())
        missing = [b for b in range(1, self.inputs + 1) if b not in found
                   and b not in self.stuck]
        if missing and len(self.buttons) + len(self.stuck) < self.seats \
                and self.inputs == self.seats:
            out.append("buttons never pressed: " + ", ".join(map(str, missing)))
        ringless = [k for k in self.buttons if k not in self.rings]
        if ringless and not self.dead:
            out.append("seats whose ring was never lit for them: "
                       + ", ".join(map(str, ringless)))
        out += [f"ring {k}: its turn was not given (hold when the light points at seat 1)"
                for k in self.unturned]
        if not self.sound_ok:
            out.append(self.sound)
        return out

    def notes(self) -> list[tuple[str, tuple[tuple[str, str], ...]]]:
        """What was found, as text keys and fields for the host's screen (`check_*`): each
        seat's button, ring and turn, then the problems (their details in the words of
        `problems`), or that the table is ready."""
        out: list[tuple[str, tuple[tuple[str, str], ...]]] = []
        for k in range(1, self.seats + 1):
            if k in self.buttons:
                out.append(("check_seat_found" if k in self.rings else "check_seat_no_ring",
                            (("seat", str(k)), ("button", str(self.buttons[k])),
                             ("ring", str(self.rings.get(k, ""))),
                             ("turn", str(self.rotation.get(k, 0))))))
        problems = self.problem_notes()
        out += problems
        if not problems and not self.problems():
            out.append(("check_ready", ()))
        return out

    def problem_notes(self) -> list[tuple[str, tuple[tuple[str, str], ...]]]:
        """The problems as text keys and fields (`check_*`), for the host's screen in the
        table's language: the same as `problems`, the seats nobody pressed for in one line
        (a 30-seat check with six pads made 24 lines that ran under the Done button)."""
        out: list[tuple[str, tuple[tuple[str, str], ...]]] = []
        if not self.link_ok:
            out.append(("check_problem", (("what", self.pads),)))
        out += [("check_stuck", (("button", str(b)),)) for b in self.stuck]
        if self.silent:
            out.append(("check_silent", (("seats", spans(self.silent)),)))
        if self.dead:
            tail = _tail(self.dead, self.seats)
            alone = [k for k in self.dead if not tail or k < tail[0]]
            if alone:
                out.append(("check_dead", (("rings", spans(alone)),)))
            if tail:
                out.append(("check_dead_tail", (("rings", spans(tail)),
                                                ("ring", str(tail[0])))))
        found = set(self.buttons.values())
        missing = [b for b in range(1, self.inputs + 1) if b not in found
                   and b not in self.stuck]
        if missing and len(self.buttons) + len(self.stuck) < self.seats \
                and self.inputs == self.seats:
            out.append(("check_never_pressed", (("buttons", spans(missing)),)))
        ringless = [k for k in self.buttons if k not in self.rings]
        if ringless and not self.dead:
            out.append(("check_ringless", (("seats", spans(ringless)),)))
        if self.unturned:
            out.append(("check_unturned", (("rings", spans(self.unturned)),)))
        if not self.sound_ok:
            out.append(("check_problem", (("what", self.sound),)))
        return out

    def lines(self) -> list[str]:
        out = [self.pads]
        for k in range(1, self.seats + 1):
            if k in self.buttons:
                b = self.buttons[k]
                ring = f", ring {self.rings[k]}" if k in self.rings else ", no ring"
                turn = (f", turned {self.rotation[k]}" if self.rotation.get(k) else "")
                out.append(f"seat {k}: button {b}{ring}{turn}")
        if self.sound:
            out.append(self.sound)
        problems = self.problems()
        out += [f"PROBLEM: {p}" for p in problems]
        if not problems:
            out.append("the table is ready")
        return out


def _tail(dead: list[int], seats: int) -> list[int]:
    """The dead rings that run to the chain's end (three or more: a break, not bad luck)."""
    run: list[int] = []
    for k in range(seats, 0, -1):
        if k not in dead:
            break
        run.insert(0, k)
    return run if len(run) >= 3 else []


class SelfTest:
    """Seat by seat its button, then ring by ring its seat and its turn."""

    def __init__(self, backend: PadBackend, wait: float = 30.0, hold: float = 0.7,
                 seats: int | None = None) -> None:
        self.backend = backend
        #: the seats to check: the pads' (a simulator's, the table being set up)
        self.seats = min(seats or backend.seats, backend.seats)
        self.wait = wait
        self.hold = hold
        self.turns = backend.grammar_mode != COUNT
        # (a check of fewer seats than the pads, the simulator's, has no spare jacks)
        self.inputs = backend.inputs if seats is None else self.seats
        self.pixels = backend.ring_size
        self.report = CheckReport(seats=self.seats, turns=self.turns, inputs=self.inputs)
        #: the rings still to light, in order (those of the jacks whose buttons were found
        #: first: a pad's button and ring share its cable), and those lit
        self.to_light: list[int] = []
        self.seat = 0               # the seat whose button is asked for (stage "order")
        self.ring = 0               # the ring lit (stages "press" and "turn")
        self.stage = "idle"         # order, press, turn, done
        self.deadline = 0.0
        self.button = 0             # the button of the ring being turned
        self.turning = 0            # and its seat
        self.cursor = 1
        self.down_at: float | None = None
        # the check sees buttons and rings as wired, unturned: that is what it finds out; a
        # ring's pixel k stands for seat k + 1 while it does (one pixel a seat)
        backend.set_layout(None, None, None)
        backend.set_table(self.pixels)

    @property
    def done(self) -> bool:
        return self.stage == "done"

    def prompt_note(self) -> tuple[str, tuple[tuple[str, str], ...]]:
        """The prompt as a text key and its fields (`check_*` in the screen's texts), for
        the host's screen in the table's language; ("", ()) when nothing is asked."""
        if self.stage == "order":
            return "check_order", (("seat", str(self.seat)),)
        if self.stage == "press":
            return "check_press", (("ring", str(self.ring)),)
        if self.stage == "turn":
            return "check_turn", (("seat", str(self.turning)),)
        return "", ()

    def prompt_line(self) -> list[str]:
        """The prompt as the voice says it (clip ids), so the host walking round the table
        hears which seat is next."""
        from .sound.catalogue import num
        if self.stage == "order":
            return ["check_seat", num(self.seat), "check_press_button"]
        if self.stage == "press":
            return ["check_ring", num(self.ring), "check_ring_lit"]
        if self.stage == "turn":
            return ["check_turn"]
        return []

    def prompt(self) -> str:
        if self.stage == "order":
            return f"seat {self.seat}: press the button of this seat's pad"
        if self.stage == "press":
            return f"ring {self.ring} is lit: press the button of that pad"
        if self.stage == "turn":
            return (f"seat {self.turning}'s ring: tap to move its light, hold when it "
                    f"points at seat 1")
        return ""

    def start(self, now: float) -> None:
        self.report.stuck = [b for b in range(1, self.inputs + 1)
                             if self.backend.button_down(b)]
        ids = getattr(self.backend, "controller_ids", None)
        self.report.controllers = list(ids()) if ids is not None else []
        for ring in range(1, self.seats + 1):
            self.backend.show(ring, Dark())
        self.stage = "order"
        self._next_seat(now)

    def _next_seat(self, now: float) -> None:
        self.seat += 1
        if self.seat > self.seats:
            self.stage = "press"
            # a big table's spare jacks hold no pad: the rings of the jacks whose buttons were
            # found go first, and the check ends once every seat has its ring
            found = sorted(self.report.buttons.values()) if self.inputs > self.seats else []
            self.to_light = found + [r for r in range(1, self.inputs + 1) if r not in found]
            self._next_ring(now)
            return
        self.deadline = now + self.wait

    def _next_ring(self, now: float) -> None:
        if 1 <= self.ring <= self.inputs:
            self._light(self.ring, Dark())
        self.down_at = None
        # every seat has its ring: the jacks left are empty (a big table's spare ones)
        if not self.to_light or len(self.report.rings) >= self.seats:
            self.ring = 0
            self.stage = "done"
            self._back()
            return
        self.ring = self.to_light.pop(0)
        self.stage = "press"
        self.deadline = now + self.wait
        # every pixel of this ring alike: whatever its turn, it is plainly "this one"
        self._light(self.ring, Pick(frozenset(range(1, self.pixels + 1))))

    def _light(self, ring: int, picture: Pick | Dark) -> None:
        # ring k is shown as "seat" k while the layout is as wired; a ring past the seats (a
        # big table's spare jack) is reached through its controller
        light = getattr(self.backend, "light_ring", None)
        if light is not None:
            light(ring, picture)
        else:
            self.backend.show(ring, picture)

    def _back(self) -> None:
        self.backend.set_table(self.seats)

    def _turn_shown(self) -> None:
        self._light(self.ring, Pick(frozenset(range(1, self.pixels + 1)), self.cursor))

    def handle(self, ev: RawPadEvent) -> None:
        if not isinstance(ev, PadEdge):
            return
        b = ev.seat
        if b in self.report.stuck:
            if not ev.pressed:
                self.report.stuck.remove(b)      # it was only held: now it is free
            return
        seat_of = {button: seat for seat, button in self.report.buttons.items()}
        if self.stage == "order" and ev.pressed:
            if b in seat_of:
                return                            # already another seat's
            self.report.buttons[self.seat] = b
            self._next_seat(ev.t)
        elif self.stage == "press" and ev.pressed:
            seat = seat_of.get(b)
            if seat is None or seat in self.report.rings:
                return                            # no seat's, or its ring is known
            self.report.rings[seat] = self.ring
            if not self.turns:
                self._next_ring(ev.t)
                return
            self.stage = "turn"
            self.button, self.turning = b, seat
            self.cursor = 1
            self.down_at = None                   # this press only found the ring
            self.deadline = ev.t + self.wait
            self._turn_shown()
        elif self.stage == "turn" and b == self.button:
            if ev.pressed:
                self.down_at = ev.t
            elif self.down_at is not None:
                held = ev.t - self.down_at
                self.down_at = None
                if held < BOUNCE:
                    return
                if held < self.hold:
                    self.cursor = self.cursor % self.pixels + 1
                    self.deadline = ev.t + self.wait
                    self._turn_shown()
                else:
                    self._turned(ev.t)

    def _turned(self, now: float) -> None:
        # pixel cursor-1 is lit for seat `cursor` on an unturned ring; it points at seat 1,
        # so drawing seat s at pixel (s - 1 + turn) puts seat 1 there
        self.report.rotation[self.turning] = (self.cursor - 1) % self.pixels
        self._next_ring(now)

    def left(self, now: float) -> float:
        """The seconds before the seat (ring) asked for now is given up."""
        return max(0.0, self.deadline - now) if self.stage in ("order", "press", "turn") \
            else 0.0

    def skip(self, now: float) -> None:
        """The host moves on from the seat (ring) asked for now, as if its time had run out
        (it is reported as not found)."""
        if self.stage in ("order", "press", "turn"):
            self.down_at = None
            self.deadline = now
            self.tick(now)

    def tick(self, now: float) -> None:
        if self.stage == "turn" and self.down_at is not None \
                and now - self.down_at >= self.hold:
            self._turned(now)                     # held long enough: on at once
            return
        if self.stage in ("order", "press", "turn") and now >= self.deadline:
            if self.stage == "order":
                self.report.silent.append(self.seat)
                self._next_seat(now)
                return
            if self.stage == "press" and self.ring <= self.seats:
                self.report.dead.append(self.ring)     # (a spare jack's is only empty)
            else:
                self.report.unturned.append(self.turning)
            self._next_ring(now)
