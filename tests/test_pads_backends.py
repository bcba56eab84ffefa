"""What is particular to each pad backend: the pin map, the LED's blinks, the simulator's
window and mouse, ring pictures, and the backend switch."""

from __future__ import annotations

import os
import queue
from pathlib import Path

import pygame
import pytest
from pad_rigs import GpioRig, SimRig

from firmware_bridge.ringdraw import ANSWER
from table_app.clock import FakeClock
from table_app.pads import FakePads, PadError, make_pads
from table_app.pads.factory import backend_kind
from table_app.pads.gpio import load_pins
from table_app.pads.rings import (
    CHOSEN,
    CURSOR,
    DIM,
    OFF,
    CheckShown,
    Countdown,
    Dark,
    Pick,
    RoleCard,
    _count_phase,
    led_level,
    render,
)
from table_app.pads.sim import seen, shown

PINS = (Path(__file__).parent.parent / "hardware" / "pins.toml").read_text()
ROOT = Path(__file__).parent.parent


# -- the pin map -------------------------------------------------------------------------
def test_the_shipped_pin_map_is_valid() -> None:
    pins = load_pins(seats=12)
    assert len(set(pins.buttons.values()) | set(pins.leds.values())) == 24
    assert pins.hold_time == 0.7


@pytest.mark.parametrize("change, message", [
    (("1 = { button = 4, led = 18 }", "1 = { button = 4, led = 19 }"),
     "GPIO 19 is used twice: seat 1 led and seat 2 led"),
    (("1 = { button = 4, led = 18 }", "1 = { button = 0, led = 18 }"),
     "seat 1 button: GPIO 0 is reserved for the HAT ID EEPROM"),
    (("3 = { button = 6, led = 20 }", "3 = { button = 14, led = 20 }"),
     "GPIO 14 is reserved for the serial console"),
    (("1 = { button = 4, led = 18 }", "1 = { button = 40, led = 18 }"),
     "seat 1 button: '40' is not a GPIO"),
    (("12 = { button = 3, led = 17 }\n", ""), "the pin map has 11 seats, the game has 12"),
    (("11 = { button = 2, led = 16 }", "11 = { button = 16, led = 2 }"),
     "seat 11 led: GPIO 2 (SDA) has a pull-up on the Pi's board, so its LED would glow"),
    (("[seats]", "[seats"), "not valid TOML"),
    (("hold_time = 0.7", "hold_time = -1"), "hold_time must be a positive"),
    (("1 = { button = 4, led = 18 }", "1 = { button = 4 }"), "needs exactly 'button' and 'led'"),
])
def test_a_bad_pin_map_is_refused_with_a_clear_message(change: tuple[str, str],
                                                       message: str) -> None:
    assert change[0] in PINS
    with pytest.raises(PadError) as info:
        load_pins("pins.toml", seats=12, text=PINS.replace(*change))
    assert message in str(info.value) and str(info.value).startswith("pins.toml")


def test_a_pin_map_for_another_seat_count() -> None:
    with pytest.raises(PadError, match="the pin map has 12 seats, the game has 10"):
        load_pins(seats=10)


# -- the one-LED pad ---------------------------------------------------------------------
def test_the_led_blinks_the_count_back() -> None:
    for n in (1, 3, 7):
        edges, was = 0, False
        cycle = n * 0.5 + 1.2
        for i in range(int(cycle * 1000)):
            on = _count_phase(n, i / 1000)
            edges += on and not was
            was = on
        assert edges == n
    assert led_level(Pick(frozenset({1, 2}), cursor=None)) == pytest.approx(0.1)
    assert led_level(Pick(frozenset({1, 2}), cursor=2, chosen=2)) == 1.0
    assert led_level(Dark()) == 0.0


def test_gpio_backend_drives_the_led_pin() -> None:
    rig = GpioRig()
    try:
        rig.panel.ask(2, [1, 3, 4])
        rig.tap(2)
        rig.tap(2)
        rig.hold(2)          # counted to 2: not eligible, so nothing chosen
        rig.panel.ask(2, [1, 3, 4])
        for _ in range(3):
            rig.tap(2)
        rig.hold(2)
        assert rig.panel.grammar.choice(2) == 3
        rig.wait(0.1)
        led_pin = rig.factory.pin(rig.pins.leds[2])
        assert led_pin.state == pytest.approx(1.0)       # a choice: steady on
        rig.panel.stop(2)
        rig.wait(0.1)
        assert led_pin.state == 0.0
    finally:
        rig.close()


def test_gpio_count_past_the_eligible_confirms_nothing() -> None:
    rig = GpioRig()
    try:
        rig.panel.ask(5, [1, 3])
        rig.tap(5)
        rig.tap(5)
        out = rig.hold(5)
        from table_app.pads import Confirmed
        assert [c.choice for c in out if isinstance(c, Confirmed)] == [None]
        assert rig.panel.grammar.choice(5) is None
    finally:
        rig.close()


# -- rings ---------------------------------------------------------------------------------
def test_ring_pictures() -> None:
    px = render(Pick(frozenset({2, 5}), cursor=5, chosen=2))
    assert px[1] == CHOSEN and px[4] == CURSOR and px[0] == OFF
    assert render(Pick(frozenset({2}))) [1] == DIM
    # rotation turns the map: pixel k points at seat k+1 from where the pad sits
    assert render(Pick(frozenset({2})), rotation=3)[4] == DIM
    red = render(CheckShown(7, "red"))
    black = render(CheckShown(7, "black"))
    # every answer lights one pixel at the target seat: only its colour tells the result
    assert [i for i, p in enumerate(red) if p != OFF] == [6]
    assert [i for i, p in enumerate(black) if p != OFF] == [6] and red[6] != black[6]
    assert red[6] == ANSWER[0] and black[6] == ANSWER[1]
    assert max(red[6]) == max(black[6])                # equally bright
    cards = [render(RoleCard(side, n)) for side in ("city", "mafia") for n in (1, 5, 9)]
    assert {sum(p != OFF for p in c) for c in cards} == {2}      # a card is always 2 pixels
    assert render(Countdown(30, 60))[:7] == [render(Countdown(30, 60))[0]] * 6 + [OFF]
    assert sum(p != OFF for p in render(Countdown(60, 60))) == 12
    dim = render(Pick(frozenset({2}), cursor=2), cap=0.25)
    # dimmed as the controller dims: the cap as a byte (round(0.25 * 255) = 64), then
    # 255 * 64 // 255
    assert dim[1] == (64, 64, 64)
    # the last 10 s blink
    assert render(Countdown(5, 60), t=0.1) != render(Countdown(5, 60), t=0.3)


# -- the simulator -------------------------------------------------------------------------
def test_simulator_window_shows_the_rings(tmp_path: Path) -> None:
    rig = SimRig()
    try:
        sim = rig.backend
        rig.panel.ask(1, [2, 6, 9])
        rig.tap(1)                           # from nobody to 2
        rig.tap(1)                           # cursor on 6
        rig.panel.show(4, CheckShown(8, "red"))
        out = tmp_path / "sim.png"
        if os.environ.get("UPDATE_SCREENSHOTS"):
            out = ROOT / "docs" / "simulator.png"
        sim.screenshot(out)
        assert out.stat().st_size > 5000
        img = pygame.image.load(str(out))
        assert img.get_size() == (720, 720)
        # (a lit LED drawn as it looks, lifted so that a dim one still shows on its pad)
        # (a ring lifted as one, from its brightest pixel: the cursor's)
        top = max(shown(CURSOR))
        assert sim.pixel_at_ring(1, 5) == seen(shown(CURSOR), top)  # seat 1 points at seat 6
        assert sim.pixel_at_ring(1, 1) == seen(shown(DIM), top) == sim.pixel_at_ring(1, 8)
        assert max(seen(shown(DIM), top)) < max(seen(shown(CURSOR)))  # the cursor brighter
        unlit = sim.pixel_at_ring(7, 0)                       # a dark pad
        assert all(sim.pixel_at_ring(7, i) == unlit for i in range(12))
        assert sim.pixel_at_ring(4, 7) == seen(shown(ANSWER[0]))
        assert sim.pixel_at_ring(4, 0) == unlit
    finally:
        rig.close()


def test_simulator_mouse_presses_a_pad() -> None:
    rig = SimRig()
    try:
        sim = rig.backend
        rig.panel.ask(3, [1, 2])
        pos = sim.pad_centre(3)
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=pos))
        sim.poll()
        rig.wait(0.1)
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, button=1, pos=(0, 0)))
        sim.poll()
        rig.wait(0.05)
        from table_app.pads import Moved
        assert [m.cursor for m in rig.pump() if isinstance(m, Moved)] == [1]
    finally:
        rig.close()


def test_backend_switch(monkeypatch: pytest.MonkeyPatch) -> None:
    q: queue.Queue[object] = queue.Queue()
    monkeypatch.setenv("TABLE_APP_PADS", "fake")
    assert backend_kind() == "fake"
    pads = make_pads(None, 12, q.put, FakeClock())
    assert isinstance(pads, FakePads)
    monkeypatch.setenv("TABLE_APP_PADS", "teleport")
    with pytest.raises(PadError, match="unknown pad backend 'teleport'"):
        backend_kind()
    monkeypatch.setenv("TABLE_APP_PADS", "auto")
    assert backend_kind() == "sim"          # no Pico here: the simulator


def test_a_club_s_own_backend_registers_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    from table_app.pads import factory

    class Teleport(FakePads):
        name = "teleport"

    monkeypatch.setitem(factory.REGISTRY, "teleport", lambda seats, sink, clock, **o: Teleport(
        seats, sink, clock))
    monkeypatch.setenv("TABLE_APP_PADS", "teleport")
    pads = make_pads(None, 12, lambda e: None, FakeClock())
    assert isinstance(pads, Teleport) and "teleport" in factory.backends()


def test_the_settings_name_every_registered_backend() -> None:
    from table_app import settings
    from table_app.pads import factory
    assert sorted(settings.BACKENDS) == sorted(("auto", *factory.backends()))
    # the backends it knows are imported only when made: asking for the fake one loads none
    code = ("import sys; from table_app.pads import make_pads; make_pads('fake', 12, print); "
            "print(sorted(m for m in sys.modules if m.startswith('table_app.pads.')))")
    import subprocess
    import sys
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60, check=True).stdout
    assert "table_app.pads.gpio" not in out and "table_app.pads.serial_pads" not in out
    assert "table_app.pads.sim" not in out and "table_app.pads.factory" in out


def test_the_ring_legend_draws_every_picture(tmp_path: Path) -> None:
    from table_app.pads.legend import LEGEND, draw
    kinds = {type(p).__name__ for p, _ in LEGEND}
    assert kinds == {"Dark", "RoleCard", "Pick", "Vote", "YesNo", "CheckShown", "Countdown",
                     "Fault"}
    pygame.display.init()
    surf = pygame.Surface((900, 1200))
    draw(surf)
    out = ROOT / "docs" / "ring-legend.png" if os.environ.get("UPDATE_SCREENSHOTS") else \
        tmp_path / "legend.png"
    pygame.image.save(surf, str(out))
    assert out.stat().st_size > 10000
    # the picture states a player must tell apart look different
    chosen = render(Pick(frozenset({2, 5, 9}), cursor=5, chosen=5))
    cursor = render(Pick(frozenset({2, 5, 9}), cursor=5))
    assert chosen[4] == CHOSEN and cursor[4] == CURSOR


def test_the_fake_pads_keep_the_latest_pictures_not_every_one() -> None:
    # a demo table's pads kept every picture they were shown, some 200 KB a game, for as long
    # as the table ran
    pads = FakePads(12, lambda e: None, FakeClock())
    shows = 10 * FakePads.HISTORY
    for n in range(shows):
        pads.show(n % 12 + 1, Pick(frozenset({n % 7 + 1}), cursor=n % 5 + 1))
    assert len(pads.history) <= 2 * FakePads.HISTORY
    n = shows - 1
    assert pads.history[-1] == (n % 12 + 1, Pick(frozenset({n % 7 + 1}), cursor=n % 5 + 1))


def test_a_role_card_at_night_brightness_is_readable_on_the_simulator() -> None:
    # at the deal's 25 % cap the simulated ring drew the card as one navy and one grey
    # pixel at 25 % of the screen's white: unreadable; an LED at 25 % looks far brighter
    from table_app.pads.rings import RoleCard
    from table_app.rules import find_format
    from table_app.rules.roles import ROLE
    rig = SimRig()
    try:
        sim = rig.backend
        rig.panel.set_cap(0.25)
        fmt = find_format("yakuza")
        for seat, role in enumerate(("don", "detective", "yakuza", "civilian"), 1):
            rig.panel.show(seat, RoleCard(fmt.team_of[role], ROLE[role].card))
        sim.draw()
        for seat in (1, 2, 3, 4):
            lit = [max(sim.pixel_at_ring(seat, k)) for k in range(12)
                   if any(sim.pixels(seat, rig.clock.now())[k])]
            assert lit and max(lit) >= 110, (seat, lit)
    finally:
        rig.close()


def test_a_nights_cursor_stands_out_on_the_simulator() -> None:
    """A new host's trial: at the night's cap the simulator's cursor (192) and the seats it
    could pick (159, lifted pixel by pixel) looked alike. The ring is lifted as one now:
    the cursor at least 1.6 times as bright as the seats beside it, every lit pixel still
    brighter than the pad it sits on."""
    from table_app.pads.sim import PAD
    rig = SimRig()
    try:
        sim = rig.backend
        rig.panel.ask(1, [2, 6, 9])
        rig.tap(1)
        rig.tap(1)                                              # the cursor on seat 6
        for cap in (1.0, 0.25, 0.1):                            # the day's, the nights'
            dim = tuple(round(v * cap) for v in DIM)
            cursor = tuple(round(v * cap) for v in CURSOR)
            sim.pixels = lambda seat, t=None, d=dim, c=cursor: (     # type: ignore[method-assign]
                [d if k in (1, 8) else c if k == 5 else (0, 0, 0) for k in range(12)]
                if seat == 1 else [(0, 0, 0)] * 12)
            sim.dirty = True
            sim.draw()
            pointed, other = max(sim.pixel_at_ring(1, 5)), max(sim.pixel_at_ring(1, 1))
            assert pointed >= 1.6 * other, (cap, pointed, other)
            assert other > max(PAD) + 30, (cap, other)
    finally:
        rig.close()
