"""Rings on the Pi's own pins: the bytes the GPIO backend puts on SPI, read back as a ring
reads them (tests/ws2812_wire.py, from the datasheet), are the pictures the table drew."""

from __future__ import annotations

import dataclasses
import sys
import types
from collections.abc import Iterator
from typing import Any

import pytest
from pad_rigs import RINGS_PINS, GpioRingRig
from ws2812_wire import WireError, latched, pixels

from firmware_bridge import ringdraw as rd
from table_app.pads.base import PadError
from table_app.pads.gpio import GpioPads, load_pins
from table_app.pads.pi_rings import SPI_HZ, MockSpi, spi_bytes
from table_app.pads.rings import (
    CheckShown,
    Countdown,
    Dark,
    Fault,
    Pick,
    Picture,
    RoleCard,
    Vote,
    YesNo,
    budget_level,
    render,
)

MA_PER_CHANNEL = 20 / 255          # a WS2812 channel at full draws about 20 mA


@pytest.fixture
def rig() -> Iterator[GpioRingRig]:
    r = GpioRingRig()
    r.backend.rings.close()        # the tests draw themselves, on the rig's fake clock
    yield r
    r.close()


def on_rings(spi: MockSpi, since: int = 0) -> dict[int, list[tuple[int, int, int]]]:
    """Each ring's pixels as it last latched them, from the SPI writes since `since`: the
    select pins' number at each write says which ring (the decoders' output + 1)."""
    out: dict[int, list[tuple[int, int, int]]] = {}
    for select, data in spi.sent[since:]:
        frames = latched(data, SPI_HZ)
        assert len(frames) == 1 and len(frames[0]) == 36
        out[select + 1] = pixels(frames[0])
    return out


def current_ma(rings: dict[int, list[tuple[int, int, int]]]) -> float:
    return sum(sum(p) for px in rings.values() for p in px) * MA_PER_CHANNEL


PICTURES: list[Picture] = [
    Pick(frozenset({2, 5, 9}), cursor=5), Pick(frozenset({1, 12}), cursor=None, chosen=12),
    Vote(frozenset({3, 4}), cursor=4, chosen=3), YesNo(cursor=1), YesNo(chosen=2),
    CheckShown(7, "red"), CheckShown(3, "black"), CheckShown(11, "detective"),
    Countdown(50.0, 60.0), RoleCard("mafia", 3), Fault(), Dark()]


def test_every_picture_comes_out_of_its_ring_as_drawn(rig: GpioRingRig) -> None:
    b = rig.backend
    # pads plugged anywhere, rings turned: as `table-app check` found them
    order = [7, 3, 12, 1, 9, 5, 2, 11, 4, 8, 6, 10]
    turns = [0, 3, 11, 6, 1, 0, 9, 2, 5, 7, 4, 8]
    b.set_layout(rings=order, rotation=turns)
    b.set_cap(0.6)
    for seat, pic in enumerate(PICTURES, 1):
        b.show(seat, pic)
    rig.clock.advance(0.35)          # animations on: the countdown and the fault move
    mark = len(rig.spi.sent)
    b.rings.draw()
    got = on_rings(rig.spi, mark)
    assert sorted(got) == list(range(1, 13))
    assert current_ma(got) < 1500
    # dimmed by the budget's level worked out from the rings' allowances (the most a
    # private picture may light), never from what they show: the same for any pictures
    level = budget_level(PICTURES, 0.6, 1500)
    for seat, pic in enumerate(PICTURES, 1):
        want = render(pic, b.age(seat), 12, turns[seat - 1], 0.6, level=level)
        assert got[order[seat - 1]] == want, (seat, pic)
        assert want == b.pixels(seat)        # what the host screen shows of that ring


def test_the_current_budget_dims_the_table_as_the_controller_does(rig: GpioRingRig) -> None:
    b = rig.backend
    for seat in range(1, 13):        # the brightest table there is: every pixel lit
        b.show(seat, Pick(frozenset(range(1, 13)), cursor=seat))
    b.rings.draw()
    got = on_rings(rig.spi)
    full = {s: render(b.pictures[s], 0.0) for s in range(1, 13)}
    assert current_ma(full) > 1500                          # undimmed it would be too much
    assert 0.8 * 1500 < current_ma(got) <= 1500             # dimmed within the budget
    level = rd.budget_level(12 * rd.allowance(b"", 12), 1500)   # from the allowances
    assert got[1][0] == tuple(v * level >> 8 for v in full[1][0])    # the controller's table


def test_only_a_ring_that_changed_is_written_and_a_still_one_each_second(
        rig: GpioRingRig) -> None:
    b = rig.backend
    b.rings.draw()
    mark = len(rig.spi.sent)
    b.show(4, Pick(frozenset({1, 2}), cursor=2))
    b.rings.draw()
    assert [s for s, _ in rig.spi.sent[mark:]] == [3]       # ring 4 alone (select 3)
    mark = len(rig.spi.sent)
    rig.clock.advance(0.5)
    b.rings.draw()
    assert rig.spi.sent[mark:] == []                         # nothing moved
    rig.clock.advance(0.6)
    b.rings.draw()                   # a second on: every ring again (a pad plugged in)
    assert sorted(on_rings(rig.spi, mark)) == list(range(1, 13))


def test_the_rings_go_dark_at_start_and_at_close(rig: GpioRingRig) -> None:
    # at start: whatever the rings latched at power-up is written over
    assert on_rings(rig.spi, 0)[1] == [(0, 0, 0)] * 12
    b = rig.backend
    b.show(2, RoleCard("city", 4))
    b.rings.draw()
    assert any(on_rings(rig.spi)[2])
    spi = rig.spi
    b.close()
    last = on_rings(spi)
    assert all(px == [(0, 0, 0)] * 12 for px in last.values()) and len(last) == 12


def test_the_bit_times_hold_at_the_clocks_a_pi_really_gives() -> None:
    data = spi_bytes(bytes(range(0, 256, 7))[:36])
    # asked for 2.4 MHz, a Pi 4 (core 500 MHz, an even divider) and a Pi 5 (RP1, 200 MHz)
    # both give 2.38 MHz; within 5 % either way the ring still reads it
    for hz in (2_380_952, 2_400_000, 2_280_000, 2_520_000):
        assert latched(data, hz) == [bytes(range(0, 256, 7))[:36]]
    # a Pi 4 whose core clock is left to drop to 250 MHz halves the SPI clock: garbage,
    # which is why /boot/firmware/config.txt pins it (see pi_rings.py)
    with pytest.raises(WireError):
        latched(data, SPI_HZ // 2)


def test_a_pi_without_spi_says_what_to_do(monkeypatch: pytest.MonkeyPatch) -> None:
    class NoDevice:
        def open(self, bus: int, device: int) -> None:
            raise FileNotFoundError(2, "No such file or directory")

    monkeypatch.setitem(sys.modules, "spidev", types.SimpleNamespace(SpiDev=NoDevice))
    monkeypatch.delenv("TABLE_APP_SPI", raising=False)
    from gpiozero.pins.mock import MockFactory
    factory = MockFactory()
    pads = GpioPads(12, lambda e: None, pins=load_pins(RINGS_PINS, seats=12),
                    pin_factory=factory)
    with pytest.raises(PadError, match=r"/dev/spidev0\.0 .*dtparam=spi=on"):
        pads.start()
    assert not pads.buttons and not pads.select            # every pin given back
    factory.close()


@pytest.mark.parametrize("change, message", [
    ("1 = { button = 4 }", None),
    ("1 = { button = 10 }", r"GPIO 10 is reserved for SPI0 \(MOSI"),
    ("1 = { button = 4, led = 18 }", r"seat 1 needs exactly 'button'"),
    ("1 = { button = 23 }", r"GPIO 23 is used twice: rings select A0 and seat 1 button"),
])
def test_a_rings_pin_map_is_checked(change: str, message: str | None) -> None:
    text = RINGS_PINS.read_text().replace("1 = { button = 4 }", change)
    if message is None:
        assert load_pins(text=text, seats=12).rings is not None
    else:
        with pytest.raises(PadError, match=message):
            load_pins(text=text, seats=12)
    with pytest.raises(PadError, match="four GPIO numbers"):
        load_pins(text=text.replace("select = [23, 24, 25, 26]", "select = [23, 24]"))


@pytest.mark.parametrize("fmt_id, players", [("yakuza", 12), ("classic", 11), ("city", 12)])
def test_a_whole_game_s_pictures_come_out_of_the_pi_s_rings(tmp_path: Any, fmt_id: str,
                                                             players: int) -> None:
    """The table plays a whole game with its bots on a fake clock; every picture it shows
    also goes to the GPIO backend's rings, drawn at once: each ring's bytes on the wire,
    decoded, are what the table drew for that seat (and what its host screen shows)."""
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    from table_app.table.virtual import run_virtual, virtual_table
    app, bots, clock, pads = virtual_table(tmp_path / "j", fmt_id=fmt_id, players=players,
                                           seed=4)
    factory = MockFactory(pin_class=MockPWMPin)
    pins = dataclasses.replace(load_pins(RINGS_PINS, seats=12), bounce_time=None)
    gpio = GpioPads(12, lambda e: None, clock, pins=pins, pin_factory=factory)   # the table's
    gpio.spi = spi = MockSpi(gpio.select_levels)
    gpio.start()
    gpio.rings.close()               # drawn here, on the game's clock
    shown = pads._show
    seen: set[str] = set()

    def check() -> None:
        mark = len(spi.sent)
        gpio.rings.draw()
        got = on_rings(spi, mark)
        # the budget's level from the rings' allowances, never from what they show
        level = budget_level([gpio.pictures[s] for s in range(1, 13)], gpio.light_cap, 1500)
        for ring, px in got.items():
            want = render(gpio.pictures[ring], gpio.age(ring), 12, 0, gpio.light_cap,
                          level=level)
            assert px == want, (ring, gpio.pictures[ring])
            assert px == gpio.pixels(ring)          # and what the host screen shows of it
            seen.add(type(gpio.pictures[ring]).__name__)

    def tee(seat: int, picture: Any) -> None:
        shown(seat, picture)
        gpio.show(seat, picture)
        check()

    pads._show = tee                                  # type: ignore[method-assign]
    pads._cap_changed = lambda: gpio.set_cap(pads.light_cap)   # type: ignore[method-assign]
    gpio.set_cap(pads.light_cap)
    try:
        run_virtual(app, bots, clock)
    finally:
        gpio.close()
        factory.close()
    assert app.table.stage == "over" and app.table.game.winner
    assert {"Pick", "Vote", "Countdown", "RoleCard", "Dark"} <= seen, seen
    assert all(gpio.pictures[s] == pads.pictures[s] for s in range(1, players + 1))


class _Fingers(GpioPads):
    """The GPIO backend with rings, its buttons pressed on gpiozero's mock pins: the bots'
    press(seat, at) drives the pin low, as a finger pulls it to ground (the edge is stamped
    by the backend, on the game's clock, which the table has set to that moment)."""

    def press(self, seat: int, at: float | None = None) -> None:
        self.factory.pin(self.pins.buttons[seat]).drive_low()

    def release(self, seat: int, at: float | None = None) -> None:
        self.factory.pin(self.pins.buttons[seat]).drive_high()


@pytest.mark.parametrize("fmt_id, players", [("yakuza", 12), ("classic", 11), ("city", 12)])
def test_a_whole_game_plays_from_the_pi_s_buttons_and_rings(tmp_path: Any, fmt_id: str,
                                                            players: int) -> None:
    """No fake pads at all: the bots press the GPIO backend's buttons on mock pins, the
    table asks and shows through it, and every ring's bytes on the wire are its picture."""
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    from table_app.table.virtual import run_virtual, virtual_table
    factory = MockFactory(pin_class=MockPWMPin)
    pins = dataclasses.replace(load_pins(RINGS_PINS, seats=12), bounce_time=None)
    made: list[_Fingers] = []

    def pads_from(sink: Any, clock: Any) -> Any:
        pads = _Fingers(12, sink, clock, pins=pins, pin_factory=factory)
        pads.spi = MockSpi(pads.select_levels)
        pads.start()
        pads.rings.close()           # drawn below, on the game's clock
        made.append(pads)
        return pads

    app, bots, clock, _ = virtual_table(tmp_path / "j", fmt_id=fmt_id, players=players,
                                        seed=4, pads_from=pads_from)
    gpio = made[0]
    spi = gpio.spi
    checked = 0
    try:
        while app.table.stage != "over":
            turn = (app.table.stage, app.table.game.phase_label())
            run_virtual(app, bots, clock, until=lambda t, turn=turn: (
                t.stage, t.game.phase_label()) != turn)
            mark = len(spi.sent)
            gpio.rings.written.clear()      # every ring written again, as once a second
            gpio.rings.draw()
            got = on_rings(spi, mark)
            level = budget_level([gpio.pictures[s] for s in range(1, 13)], gpio.light_cap,
                                 1500)
            for ring in range(1, 13):
                want = render(gpio.pictures[ring], gpio.age(ring), 12, 0, gpio.light_cap,
                              level=level)
                assert got[ring] == want, (turn, ring, gpio.pictures[ring])
            checked += 1
    finally:
        gpio.close()
        factory.close()
    assert app.table.game.winner and checked >= 5
    edges = [e for e in app.entries if e["k"] == "edge"]
    assert len(edges) > 40           # the game was played on the pins


def test_the_budget_dims_by_what_the_room_may_know_not_by_private_pictures(
        rig: GpioRingRig) -> None:
    """At raised caps the budget engages; its level must not say where a cursor is, what a
    ballot or a card shows, or which seats are awake: only countdowns and faults count as
    they are, every other ring as the most a private picture may light."""
    b = rig.backend
    b.set_cap(1.0)
    levels = set()
    for private in ([Dark()] * 12,
                    [Vote(frozenset(range(1, 13)), cursor=s, chosen=s % 12 + 1)
                     for s in range(1, 13)],
                    [Pick(frozenset({2, 3}), cursor=2)] + [Dark()] * 11,
                    [RoleCard("mafia", 3), CheckShown(4, "black")] + [Dark()] * 10):
        for seat, pic in enumerate(private, 1):
            b.show(seat, pic)
        b.rings.draw()
        levels.add(budget_level(private, 1.0, 1500))
        got = on_rings(rig.spi)
        # seat 1's ring is drawn under that one level, whatever the others show
        assert got[1] == render(b.pictures[1], b.age(1), 12, 0, 1.0, level=min(levels))
    assert len(levels) == 1 and levels.pop() < 256      # engaged, and the same every time
