"""The pad contract: the same suite against every backend (fake, simulator, gpiozero, and the
real firmware in MicroPython over a pseudo-terminal to the pyserial backend).

Ring backends move the cursor to the next eligible seat clockwise; the one-LED GPIO backend
counts (N short presses choose seat N). Everything else is the same for all.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from pad_rigs import RIGS, Rig

from table_app.pads import (
    Confirmed,
    Moved,
    OutOfTurn,
    PadFault,
    PadRecovered,
    Pressed,
    Released,
)
from table_app.pads.rings import Dark, Fault, Pick


@pytest.fixture(params=["fake", "sim", "gpio", "gpio-rings", "serial"])
def rig(request: pytest.FixtureRequest) -> Iterator[Rig]:
    r: Rig = RIGS[request.param]()
    yield r
    r.close()


def kinds(events: list[object], *types: type) -> list[object]:
    return [e for e in events if isinstance(e, types)]


def first_cursor(r: Rig, seat: int, eligible: list[int]) -> int:
    """Where one short press puts a cursor that starts on nobody: the first eligible seat
    clockwise from seat 1, or 1 when counting."""
    if r.mode == "count":
        return 1
    return min(eligible)


def test_a_short_press_moves_the_cursor(rig: Rig) -> None:
    rig.panel.ask(3, [1, 2, 4, 5, 9])
    out = rig.tap(3)
    moved = kinds(out, Moved)
    assert moved == [Moved(3, first_cursor(rig, 3, [1, 2, 4, 5, 9]), moved[0].t)]
    assert len(kinds(out, Pressed)) == 1 and len(kinds(out, Released)) == 1
    pic = rig.backend.pictures[3]
    assert isinstance(pic, Pick) and pic.cursor == moved[0].cursor and pic.chosen is None


def test_presses_walk_round_the_table(rig: Rig) -> None:
    rig.panel.ask(11, [2, 7, 12])
    seen = []
    for _ in range(4):
        seen += [m.cursor for m in kinds(rig.tap(11), Moved)]
    # round the ring, and past the last eligible seat to nobody (a hold there: nothing)
    assert seen == ([1, 2, 3, 4] if rig.mode == "count" else [2, 7, 12, None])


def test_a_hold_confirms_and_a_new_hold_replaces(rig: Rig) -> None:
    eligible = [1, 2, 3, 4, 6]
    rig.panel.ask(5, eligible)
    rig.tap(5)
    first = rig.panel.grammar.cursor(5)
    out = rig.hold(5)
    assert [(c.seat, c.choice) for c in kinds(out, Confirmed)] == [(5, first)]
    assert not kinds(out, Moved)                  # the hold is not also a move
    pic = rig.backend.pictures[5]
    assert isinstance(pic, Pick) and pic.chosen == first
    rig.tap(5)
    second = rig.panel.grammar.cursor(5)
    assert second != first
    out = rig.hold(5)
    assert [c.choice for c in kinds(out, Confirmed)] == [second]
    assert rig.panel.grammar.choice(5) == second


def test_a_bounce_storm_is_one_press(rig: Rig) -> None:
    rig.panel.ask(2, [1, 3, 4])
    rig.bounce(2, 9)                 # down, up, down ... ending down
    rig.wait(0.1)
    out = rig.pump()
    rig.bounce(2, 7)                 # a release that bounces: up, down, up ... ending up
    rig.release(2)
    rig.wait(0.1)
    out += rig.pump()
    assert len(kinds(out, Pressed)) == 1
    assert len(kinds(out, Released)) == 1
    assert len(kinds(out, Moved)) == 1 and not kinds(out, Confirmed)


def test_a_spike_shorter_than_a_press_means_nothing(rig: Rig) -> None:
    rig.panel.ask(2, [1, 3, 4])
    rig.spike(2, 0.004)              # asked: no move
    rig.spike(9, 0.004)              # not asked: no "movement" for the host either
    rig.wait(0.1)
    assert not kinds(rig.pump(), Pressed, Released, Moved, OutOfTurn)
    assert rig.panel.grammar.cursor(2) is None
    rig.press(9)                     # a real press from a seat not asked: the host hears of it
    rig.wait(0.05)
    out = rig.pump()
    rig.release(9)
    rig.wait(0.05)
    out += rig.pump()
    assert [e.seat for e in kinds(out, OutOfTurn)] == [9]


def test_a_stuck_button_is_a_fault_until_released(rig: Rig) -> None:
    rig.panel.ask(7, [1, 2, 3])
    stuck = rig.cfg.stuck
    rig.press(7)
    rig.pump()
    rig.wait(stuck + 0.2)
    out = rig.pump()
    assert [(f.seat, f.reason) for f in kinds(out, PadFault)] == [(7, "stuck")]
    assert isinstance(rig.backend.pictures[7], Fault)
    rig.wait(0.3)
    assert kinds(rig.pump(), PadFault) == []      # said once
    rig.release(7)
    rig.wait(0.05)
    out = rig.pump()
    assert [r.reason for r in kinds(out, PadRecovered)] == ["stuck"]
    assert not kinds(out, Moved, Confirmed)       # the stuck press chose nothing
    assert isinstance(rig.backend.pictures[7], Pick)
    assert kinds(rig.tap(7), Moved)               # and the pad works again


def test_a_hold_straddling_the_window_end_confirms_nothing(rig: Rig) -> None:
    rig.panel.ask(4, [1, 2, 3])
    rig.tap(4)
    rig.press(4)
    rig.wait(0.3)
    rig.pump()
    rig.panel.stop(4)                # the window closes mid-hold
    rig.wait(0.6)
    rig.release(4)
    rig.wait(0.05)
    out = rig.pump()
    assert not kinds(out, Confirmed, Moved)
    assert rig.backend.pictures[4] == Dark()
    # a press begun before the next window opened does not count in it either
    rig.press(4)
    rig.wait(0.2)
    rig.pump()
    rig.panel.ask(4, [1, 2, 3])
    rig.wait(0.7)
    rig.release(4)
    rig.wait(0.05)
    assert not kinds(rig.pump(), Confirmed, Moved)


def test_out_of_turn_presses_go_to_the_host_and_never_light_the_ring(rig: Rig) -> None:
    rig.panel.ask(1, [2, 3])
    shows = rig.backend.shows
    out = rig.tap(9) + rig.hold(9)
    assert [e.seat for e in kinds(out, OutOfTurn)] == [9, 9]
    assert not kinds(out, Moved, Confirmed)
    assert rig.backend.pictures[9] == Dark()
    assert rig.backend.shows == shows


def test_edges_carry_monotonic_timestamps(rig: Rig) -> None:
    rig.panel.ask(6, [1, 2])
    out = rig.tap(6) + rig.hold(6) + rig.tap(6)
    times = [e.t for e in out if isinstance(e, Pressed | Released)]
    assert len(times) == 6 and times == sorted(times)


def test_a_picture_no_ring_can_draw_is_refused_alike(rig: Rig) -> None:
    """An answer word the rings' drawing does not know (a club's new act that forgot its
    picture) is refused by every backend as the pad controller's encoding refuses it: the
    fake did not encode, so the table's tests stayed green while every real backend failed."""
    from table_app.pads.rings import CheckShown
    with pytest.raises(ValueError):
        rig.backend.show(2, CheckShown(3, "a word no ring knows"))
    rig.backend.show(2, CheckShown(3, "red"))          # a known one still goes
