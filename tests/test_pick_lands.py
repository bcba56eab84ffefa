"""The seat a pad confirms is the seat the player pointed at, and the one the engine records.

An audit found `observe` shooting seat 15 for a script's `commissar shoot 16` at 28 seats: the
Commissar's target question is asked while his "shoot" hold is still down, and the first tap
was planned for the instant that hold is let go, so the grammar took it as part of the hold
and the pick landed one seat short. Here every kind of question, at every table size from 4
to 30, is answered as `observe`'s players answer it (the same planning code), right after a
hold that confirmed the question before it, through the real press grammar; and the picture
the ring then shows points at that seat.
"""

from __future__ import annotations

import heapq
import random
from dataclasses import dataclass, field
from typing import Any

import pytest

from firmware_bridge import ringdraw as rd
from table_app.pads import rings
from table_app.pads.base import PadPanel
from table_app.pads.events import Confirmed, PadEdge, Pressed
from table_app.pads.grammar import OUTSIDE, PressGrammar, Stages, split_parts, staged
from table_app.table.questions import cursor_places
from table_app.tools.observe_players import GAP, HOLD, ScriptPlayers


def _seat(n: int) -> int:
    """The asked seat (any would do; 6 as in the audit's Commissar, where the table has one)."""
    return min(6, n)


@dataclass
class _Ask:
    eligible: tuple[int, ...]


@dataclass
class _Panel:
    grammar: PressGrammar
    asks: dict[int, _Ask] = field(default_factory=dict)


@dataclass
class _Table:
    """What `ScriptPlayers._go` reads of a table: the question asked and the pad's cursor."""

    panel: _Panel


def _kinds(n: int) -> list[tuple[str, tuple[int, ...]]]:
    """The question kinds a table of n seats asks: a night pick of anybody but oneself and
    of anybody, the yes/no of a mode or of removing all, votes among 1, 2, half and all."""
    out = [("pick others", tuple(s for s in range(1, n + 1) if s != _seat(n))),
           ("pick anybody", tuple(range(1, n + 1))),
           ("yesno", (1, 2))]
    out += [(f"vote {k}", tuple(range(1, k + 1))) for k in sorted({1, 2, n // 2, n})]
    return out


def _confirmed(n: int, t0: float, before: int, start: int | None, eligible: tuple[int, ...],
               answer: int | None, stages: Stages | None = None,
               presses: list[int] | None = None) -> int | None | str:
    """Hold to confirm a yes/no question at t0 (the cursor already on `before`); the next
    question is asked the moment that hold confirms, with the cursor at `start` (or in two
    steps as `stages` says); the player answers `answer` as observe's players do. What the
    grammar confirmed last; `presses` gets how many presses the answer took."""
    grammar = PressGrammar(n)
    SEAT = _seat(n)  # noqa: N806
    table = _Table(_Panel(grammar))
    players = ScriptPlayers(pads=Any, phases={}, press_at=3.0)  # type: ignore[arg-type]
    grammar.ask(SEAT, (1, 2), cursor=before)
    table.panel.asks[SEAT] = _Ask((1, 2))
    players._press(SEAT, t0, HOLD)              # the hold that answers the first question
    events = players.events
    got: list[Any] = []
    asked_next = False
    while events or grammar.next_deadline() is not None:
        # as the table's loop: time runs to the next press or release, or to the grammar's
        # own next deadline (a hold reached, a bounce settled), whichever comes first
        due = grammar.next_deadline()
        if events and (due is None or events[0][0] <= due):
            t, _, seat, down = heapq.heappop(events)
            fresh = grammar.feed(PadEdge(seat, down, t))
        else:
            assert due is not None
            fresh = grammar.tick(due)
        got += fresh
        confirm = next((e for e in fresh if isinstance(e, Confirmed)), None)
        if confirm is not None and not asked_next:
            # the table asks the next question the moment the first is confirmed, and the
            # player plans his answer from then, as observe's players do
            asked_next = True
            got.clear()
            grammar.ask(SEAT, eligible, cursor=start, stages=stages)
            table.panel.asks[SEAT] = _Ask(eligible)
            players._go(table, SEAT, answer, confirm.t + GAP)  # type: ignore[arg-type]
    confirms = [e.choice for e in got if isinstance(e, Confirmed)]
    if presses is not None:
        presses.append(sum(isinstance(e, Pressed) for e in got))
    return confirms[-1] if confirms else "nothing confirmed"


def _drawn_cursor(n: int, eligible: tuple[int, ...], cursor: int | None) -> tuple[set[int], int]:
    """Which pixels of the ring show the cursor over one cue cycle, and on how many of
    the cue's flashes (a light shared by seats flashes a seat's place, once for the first)."""
    pic = rings.Pick(frozenset(eligible), cursor=cursor)
    pixels: set[int] = set()
    flashes: set[int] = set()
    steps = 160
    for i in range(steps):
        t = i * rd.CUE_CYCLE / steps
        for p, rgb in enumerate(rings.render(pic, t, 12, 0, 1.0, table=n)):
            if rgb == rings.CURSOR:
                pixels.add(p)
                flashes.add(rd.flash(t))
    flashes.discard(rd.NO_FLASH)
    return pixels, len(flashes)


@pytest.mark.parametrize("n", range(4, 31))
def test_every_pick_lands_where_it_points(n: int) -> None:
    rng = random.Random(n)
    for kind, eligible in _kinds(n):
        places = cursor_places(eligible)
        for answer in places:
            for start in {places[0], rng.choice(places), answer}:
                t0 = rng.choice((55.0, 2066.0, 1234.5, 333.3))
                got = _confirmed(n, t0, rng.choice((1, 2)), start, eligible, answer)
                assert got == answer, (n, kind, "start", start, "answer", answer, "got", got)


@pytest.mark.parametrize("n", range(13, 31))
def test_a_big_choice_lands_where_it_points_in_at_most_12_presses(n: int) -> None:
    """At a big table a choice among 12 or more goes in two steps (a part, then a seat in
    it): every answer, from every first part and a spread of starts in the parts, lands on
    the answer through the real grammar, in at most 12 presses, holds included; and so does
    a question that starts on nobody (a nomination)."""
    rng = random.Random(n)
    for kind, eligible in _kinds(n):
        if not staged(eligible, n):
            assert len(eligible) < 12 or n <= 12, (n, kind)
            continue
        parts, places = split_parts(eligible)
        assert sorted(s for part in parts for s in part) == sorted(eligible)
        assert all(len(part) < places for part in parts)     # each has a "nobody" place
        for answer in cursor_places(eligible):
            for first in range(len(parts)):
                starts = tuple(rng.randrange(places) for _ in parts)
                counted: list[int] = []
                got = _confirmed(n, 777.0, rng.choice((1, 2)), None, eligible, answer,
                                 Stages(parts, places, first, starts), counted)
                assert got == answer, (n, kind, first, starts, answer, got)
                assert counted[0] <= 12, (n, kind, answer, counted)
            counted = []
            got = _confirmed(n, 91.0, 1, None, eligible, answer,
                             Stages(parts, places, OUTSIDE, (0,) * len(parts)), counted)
            assert got == answer and counted[0] <= 12, (n, kind, "from nobody", answer, got)
    # the most the audit's table asks: 30 seats, a pick of anybody
    parts, places = split_parts(range(1, 31))
    assert len(parts) + places == 12


def test_a_part_blinks_whole_and_an_open_part_shows_its_seats() -> None:
    """What the ring shows at each step of a big choice, as the pad panel draws it: the part
    the cursor is on blinks (its lights on, then off); a hold opens it: its seats steady, the
    cursor white on the place it opened on; a hold on its "nobody" goes back to the parts."""
    from table_app.pads.base import FakePads

    raw: list[Any] = []
    pads = FakePads(30, raw.append)
    pads.set_table(30)
    panel = PadPanel(pads)
    parts, places = split_parts(range(1, 31))
    panel.ask(6, range(1, 31), stages=Stages(parts, places, 2, (1,) * len(parts)))
    shown = pads.pictures[6]
    assert isinstance(shown, rings.Pick) and shown.part
    assert shown.eligible == frozenset(parts[2]) and shown.cursor is None
    on = rings.render(shown, 0.0, 12, 0, 1.0, table=30)
    off = rings.render(shown, rd.PART_BLINK * 0.75, 12, 0, 1.0, table=30)
    lit = {p for p, rgb in enumerate(on) if rgb == rings.DIM}
    assert lit == {rd.place(s, 30, 12)[0] for s in parts[2]}
    assert not any(map(any, off)), off

    def press(at: float, length: float) -> None:
        pads.press(6, at)
        pads.release(6, at + length)
        while raw:
            panel.handle(raw.pop(0))
        panel.tick(at + length + 0.1)

    press(10.0, 1.0)            # a hold opens the part on its place 1: its second seat
    shown = pads.pictures[6]
    assert isinstance(shown, rings.Pick) and not shown.part
    assert shown.eligible == frozenset(parts[2]) and shown.cursor == parts[2][1]
    assert _drawn_cursor(30, parts[2], parts[2][1])[0] == {rd.place(parts[2][1], 30, 12)[0]}
    for k in range(len(parts[2]) - 1):     # past its seats to its "nobody"
        press(20.0 + k, 0.1)
    assert pads.pictures[6] == rings.Pick(frozenset(parts[2]), None, None)
    press(40.0, 1.0)            # a hold there: back to the parts, on this part, nobody chosen
    assert pads.pictures[6] == rings.Pick(frozenset(parts[2]), None, None, part=True)
    press(50.0, 0.1)            # a short press: the next part
    assert pads.pictures[6] == rings.Pick(frozenset(parts[3]), None, None, part=True)
    # the budget counts a part as any private picture: never above its allowance
    for pic in (rings.Pick(frozenset(parts[2]), None, 17, part=True),
                rings.Vote(frozenset(range(1, 31)), None, 3, part=True)):
        drawn = sum(map(sum, rings.render(pic, 0.0, 12, 0, 1.0, table=30)))
        assert drawn <= rd.allowance(rings.encode(pic, 30, 12), 12)


@pytest.mark.parametrize("n", range(4, 31))
def test_the_ring_points_at_the_cursor_seat(n: int) -> None:
    """The picture of a cursor on seat s lights s's light, and only it, in the cursor's
    colour; where seats share the light, it flashes s's place among them."""
    eligible = tuple(range(1, n + 1))
    for s in eligible:
        pixels, flashes = _drawn_cursor(n, eligible, s)
        pixel, slot, sharing = rd.place(s, n, 12) if n > 12 else (s - 1, 0, 1)
        assert pixels == {pixel}, (n, s, pixels)
        if sharing > 1:
            assert flashes == slot + 1, (n, s, flashes)
    assert _drawn_cursor(n, eligible, None)[0] == set()


def test_the_audits_28_seat_commissar_shoots_the_seat_he_named() -> None:
    """The audit's case through observe itself: `commissar shoot 16` at 28 seats."""
    from table_app.rules import run_script
    from table_app.tools.observe import play

    script = "format city\nplayers 28\nseed 5\nnight\nday\nnight\ncommissar shoot 16\nday\n"
    _, table = play(script)
    assert table.game.outcome() == run_script(script).outcome()
    assert {"seat": 16, "phase": "night 2", "by": "commissar"} in \
        table.game.outcome().to_json()["out"]
