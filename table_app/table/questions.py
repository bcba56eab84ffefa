"""What each seat's pad asks: one question at a time, the next ones waiting in line.

A question's cursor starts at a place drawn from the game's seed, the phase, the seat and that
seat's question number in the phase (never from how many draws came before). The draw is even
over every place the cursor can take, the eligible seats and "nobody": then, whatever the
answer, each number of taps from 0 to the number of places less one is as likely as any other,
and a neighbour who counts a player's taps learns nothing of his choice. (An earlier draw left
"nobody" out, so some tap counts could not mean some answers; keeping the start away from the
player's own seat would do the same, so it is not done.)

A big choice (`staged`) goes in two steps, and the draw gives each its start: the part first
shown, and the place each part opens on, each even over its own places. The taps before the
first hold and those before the second are then each even whatever the answer (the answer
"nobody" is reached through the last part's first "nobody"), so two counts tell no more than
one. A question that starts on nobody starts on the parts' own "nobody", each part open on
its first seat.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from ..pads import PadPanel
from ..pads.grammar import COUNT, OUTSIDE, Stages, split_parts, staged
from ..pads.rings import Picture
from .kinds import Ask


def cursor_places(eligible: Sequence[int]) -> list[int | None]:
    """Every place a question's cursor can take, in the order short presses visit them."""
    places: list[int | None] = list(sorted(set(eligible)))
    return places + [None]


def start_cursor(seed: int, phase: str, seat: int, number: int,
                 eligible: Sequence[int]) -> int | None:
    """Where a question's cursor starts (None: on "nobody"), drawn evenly over
    `cursor_places`: a function of the seed, the phase, the seat and its question number in
    the phase, and of nothing else."""
    if not eligible:
        return None
    return random.Random(f"{seed}|{phase}|{seat}|{number}").choice(cursor_places(eligible))


def start_stages(seed: int, phase: str, seat: int, number: int,
                 eligible: Sequence[int]) -> Stages:
    """Where a big choice's steps start: drawn like `start_cursor`, from the same things."""
    parts, places = split_parts(eligible)
    rng = random.Random(f"{seed}|{phase}|{seat}|{number}")
    first = rng.randrange(len(parts))
    return Stages(parts, places, first, tuple(rng.randrange(places) for _ in parts))


def start_on_nobody(eligible: Sequence[int]) -> Stages:
    """A big choice that starts on nobody (a nomination, said aloud): on the parts' own
    "nobody", each part opening on its first seat."""
    parts, places = split_parts(eligible)
    return Stages(parts, places, OUTSIDE, (0,) * len(parts))


@dataclass(frozen=True)
class Question:
    """One question on one pad."""

    ask: Ask
    eligible: tuple[int, ...]
    kind: str = "pick"              # pick, vote, yesno
    picture: Picture | None = None  # shown until the first press (a speech's countdown)
    decision: str = ""              # a night decision's (or its mode's) script word
    mode: str = ""                  # the decision's mode, once chosen
    seeded: bool = True             # the cursor starts at a drawn seat (else on nobody)

    @property
    def what(self) -> str:
        """The question as one word, as records and the bots name it: a decision's word,
        `mode:<decision>`, or the ask (speech, ballot, removeall, take)."""
        if self.ask is Ask.DECISION:
            return self.decision
        if self.ask is Ask.MODE:
            return f"mode:{self.decision}"
        return str(self.ask)


class Questions:
    """The questions of every seat: what each is asked now, and what waits."""

    def __init__(self, panel: PadPanel, seed: int) -> None:
        self.panel = panel
        self.seed = seed
        self.phase = ""
        self.now: dict[int, Question] = {}
        self.waiting: dict[int, list[Question]] = {}
        self.numbers: dict[int, int] = {}
        self.serial: dict[int, int] = {}    # seat -> which question this is, counting all

    def new_phase(self, label: str) -> None:
        """Question numbers count again from 1 in each phase."""
        self.phase = label
        self.numbers = {}

    def ask(self, seat: int, q: Question) -> None:
        """Ask `q` now, or after the seat's current question when it has one."""
        if seat in self.now:
            self.waiting.setdefault(seat, []).append(q)
            return
        self._put(seat, q)

    def replace(self, seat: int, q: Question) -> None:
        """Ask `q` at once in place of the seat's current question."""
        self._put(seat, q)

    def _put(self, seat: int, q: Question) -> None:
        number = self.numbers.get(seat, 0) + 1
        self.numbers[seat] = number
        self.serial[seat] = self.serial.get(seat, 0) + 1
        cursor, stages = None, None
        if self.panel.backend.grammar_mode != COUNT:
            if staged(q.eligible, self.panel.backend.table):
                stages = (start_stages(self.seed, self.phase, seat, number, q.eligible)
                          if q.seeded else start_on_nobody(q.eligible))
            elif q.seeded:
                cursor = start_cursor(self.seed, self.phase, seat, number, q.eligible)
        self.now[seat] = q
        self.panel.ask(seat, q.eligible, q.kind, q.picture, cursor, stages)

    def done(self, seat: int) -> None:
        """The seat answered its question: the next one, or a dark ring."""
        self.now.pop(seat, None)
        rest = self.waiting.get(seat)
        if rest:
            self._put(seat, rest.pop(0))
        else:
            self.waiting.pop(seat, None)
            self.panel.stop(seat)

    def stop(self, seat: int | None = None) -> None:
        """No more questions (for one seat, or all); the ring goes dark."""
        if seat is None:
            self.now.clear()
            self.waiting.clear()
        else:
            self.now.pop(seat, None)
            self.waiting.pop(seat, None)
        self.panel.stop(seat)

    def forget(self, seat: int) -> None:
        """The seat is asked nothing more, but its ring keeps what it shows (an answer)."""
        self.now.pop(seat, None)
        self.waiting.pop(seat, None)
        self.panel.grammar.stop(seat)
        self.panel.asks.pop(seat, None)

    def asked(self) -> dict[int, str]:
        return {seat: q.what for seat, q in self.now.items()}
