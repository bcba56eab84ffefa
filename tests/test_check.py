"""`table-app check` on every pad backend: the fake, the simulator, gpiozero's mock pins and
the real firmware in MicroPython. A host walks round the table pressing each lit pad; two pads
are cross-wired, one ring is dead, one button is stuck down."""

from __future__ import annotations

import queue
from collections.abc import Iterator
from pathlib import Path

import pytest
from pad_rigs import RIGS, Rig, SerialRig

from table_app.check import SelfTest
from table_app.pads.events import PadEdge
from table_app.pads.rings import Dark, Pick
from table_app.settings import load_settings, write_pad_layout


@pytest.fixture(params=["fake", "sim", "gpio", "gpio-rings", "serial"])
def rig(request: pytest.FixtureRequest) -> Iterator[Rig]:
    r: Rig = RIGS[request.param]()
    yield r
    r.close()


def _feed(rig: Rig, test: SelfTest) -> None:
    if isinstance(rig, SerialRig):
        rig.settle()
    rig.backend.poll()
    while True:
        try:
            test.handle(rig.q.get_nowait())
        except queue.Empty:
            break
    test.tick(rig.clock.now())


def _self_test(rig: Rig) -> SelfTest:
    # the host's time for each step: the real firmware on a loaded machine can take seconds
    # to bring a tap round (its settle waits up to 5 s), where the others answer at once
    return SelfTest(rig.backend, wait=6.0 if isinstance(rig, SerialRig) else 2.0, hold=0.7)


def _tap(rig: Rig, test: SelfTest, button: int) -> None:
    rig.press(button)
    rig.seen_down(button)
    rig.wait(0.1)
    rig.release(button)
    rig.wait(0.05)
    _feed(rig, test)


def _walk(rig: Rig, test: SelfTest, button_of: dict[int, int | None],
          ring_of: dict[int, int | None], turns: dict[int, int]) -> list[int]:
    """Play the host: press each seat's button in turn (None: it cannot be pressed), then
    the button of each lit ring's seat (None: that ring is dead), then tap its light round
    `turns[seat]` times and hold. Returns the rings lit, in order."""
    lit = []
    test.start(rig.clock.now())
    while not test.done:
        if test.stage == "order":
            b = button_of.get(test.seat, test.seat)
            if b is None:
                rig.wait(test.wait + 0.1)
                _feed(rig, test)
                continue
            _tap(rig, test, b)
        elif test.stage == "press":
            k = test.ring
            lit.append(k)
            # only this ring is lit, on every backend's own pictures
            assert isinstance(rig.backend.pictures[k], Pick)
            assert all(rig.backend.pictures[j] == Dark() for j in range(1, 13) if j != k)
            seat = next((s for s in range(1, 13) if ring_of.get(s, s) == k), None)
            b = None if seat is None else button_of.get(seat, seat)
            if b is None:
                rig.wait(test.wait + 0.1)         # nobody can answer: the ring is dead
                _feed(rig, test)
                continue
            _tap(rig, test, b)
        elif test.stage == "turn":
            b = test.button
            for _ in range(turns.get(test.turning, 0)):
                _tap(rig, test, b)
            rig.press(b)
            rig.seen_down(b)
            rig.wait(rig.hold_for)
            _feed(rig, test)
            rig.release(b)
            rig.wait(0.05)
            _feed(rig, test)
    return lit


SWAPPED_BUTTONS: dict[int, int | None] = {3: 5, 5: 3}
SWAPPED_RINGS: dict[int, int | None] = {2: 7, 7: 2}


def test_check_finds_wiring_turns_a_dead_ring_and_a_stuck_button(rig: Rig) -> None:
    rig.press(11)                                  # a button down before the check begins
    rig.wait(0.1)
    test = _self_test(rig)
    _feed(rig, test)
    buttons = {**SWAPPED_BUTTONS, 11: None}        # seat 11's button is the stuck one
    rings = {**SWAPPED_RINGS, 9: None}             # ring 9 is dead: nobody sees it lit
    lit = _walk(rig, test, buttons, rings, {2: 3, 7: 11})
    report = test.report
    assert lit == list(range(1, 13))
    assert report.stuck == [11] and report.silent == [11]
    assert report.dead == [9, 11]                  # 11: lit, but its seat cannot answer
    assert report.buttons == {k: (buttons.get(k) or k) for k in range(1, 13) if k != 11}
    assert report.rings == {k: (rings.get(k) or k) for k in range(1, 13) if k not in (9, 11)}
    if rig.mode == "count":                        # one LED a seat: nothing to turn
        assert report.rotation == {}
    else:
        assert {k: r for k, r in report.rotation.items() if r} == {2: 3, 7: 11}
    problems = report.problems()
    assert any("button 11 is down from the start" in p for p in problems)
    assert any(p.startswith("seat 11: no button was pressed") for p in problems)
    assert any(p.startswith("ring 9: no button answered") for p in problems)
    assert not report.complete                     # nothing to write from this
    rig.release(11)


def test_a_complete_check_is_written_and_the_table_uses_it(rig: Rig, tmp_path: Path) -> None:
    test = _self_test(rig)
    _feed(rig, test)
    _walk(rig, test, SWAPPED_BUTTONS, SWAPPED_RINGS, {2: 3})
    report = test.report
    assert report.complete and not report.problems()
    settings = tmp_path / "settings.toml"
    settings.write_text('lang = "ka"   # the club\'s language\n\n[pads]\nport = "/dev/x"\n')
    buttons, rotation, rings = report.layout()
    write_pad_layout(buttons, rotation, rings, settings)
    s = load_settings(settings)
    assert s.lang == "ka" and s.port == "/dev/x"   # the rest of the file is kept
    assert "# the club's language" in settings.read_text()
    assert s.buttons == [1, 2, 5, 4, 3, 6, 7, 8, 9, 10, 11, 12]
    assert s.rings == [1, 7, 3, 4, 5, 6, 2, 8, 9, 10, 11, 12]
    turned = 0 if rig.mode == "count" else 3
    assert s.rotation == [0, turned] + [0] * 10

    # the table with that layout: button 5 is seat 3, and seat 2 is drawn turned on ring 7
    rig.backend.set_layout(s.buttons, s.rotation, s.rings)
    while not rig.q.empty():
        rig.q.get_nowait()
    rig.press(5)
    rig.wait(0.1)
    rig.release(5)
    rig.wait(0.05)
    if isinstance(rig, SerialRig):
        rig.waiting.clear()                        # heard as seat 3, not as button 5
        rig.wait(0.3)
    rig.backend.poll()
    edges = []
    while not rig.q.empty():
        ev = rig.q.get_nowait()
        if isinstance(ev, PadEdge):
            edges.append((ev.seat, ev.pressed))
    assert edges == [(3, True), (3, False)]
    if rig.mode != "count":
        rig.backend.show(2, Pick(frozenset({1, 4}), 1))
        px = rig.backend.pixels(2)
        lit = [i for i, c in enumerate(px) if c == max(px, key=sum)]
        assert lit == [3]                          # seat 1's cursor, turned by 3
        if isinstance(rig, SerialRig):             # the controller draws it on ring 7
            assert rig.fw.wait_ring(7, lambda p: p == [tuple(c) for c in px], timeout=3)
            assert rig.fw.wait_ring(2, lambda p: not any(map(any, p)), timeout=3)


def test_settings_refuse_a_layout_that_is_not_one_button_a_seat(tmp_path: Path) -> None:
    from table_app.settings import SettingsError
    bad = tmp_path / "s.toml"
    bad.write_text("[pads]\nbuttons = [1, 1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]\n")
    with pytest.raises(SettingsError, match="pads.buttons must name each of 1 to 12 once"):
        load_settings(bad)
    bad.write_text("[pads]\nrings = [2, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]\n")
    with pytest.raises(SettingsError, match="pads.rings must name each of 1 to 12 once"):
        load_settings(bad)
    bad.write_text("[pads]\nrotation = [0, 12, 0]\n")
    with pytest.raises(SettingsError, match="12 whole numbers from 0 to 11"):
        load_settings(bad)


def test_the_command_reports_a_table_where_nobody_presses(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys
    env = {**os.environ, "TABLE_APP_SETTINGS": str(tmp_path / "settings.toml")}
    proc = subprocess.run([sys.executable, "-m", "table_app", "check", "--pads", "fake",
                           "--wait", "0.05"], capture_output=True, text=True, env=env,
                          timeout=120)
    assert proc.returncode == 1, proc.stderr
    out = proc.stdout
    assert "seat 1: press the button of this seat's pad" in out
    assert "PROBLEM: seat 12: no button was pressed for it" in out
    assert "sound: a tick played on the default output" in out
    assert "nothing written" in out and not (tmp_path / "settings.toml").exists()


def test_the_sound_check_says_when_no_output_opens() -> None:
    import os
    import subprocess
    import sys
    code = ("from table_app.admin.check import check_sound; t, ok = check_sound('Pi speaker'); "
            "print(ok); print(t)")
    env = {**os.environ, "SDL_AUDIODRIVER": "no-such-driver"}
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, timeout=60)
    ok, text = proc.stdout.split("\n", 1)
    assert ok == "False"
    assert text.startswith("sound: cannot open 'Pi speaker'") and "outputs here:" in text


def test_the_check_on_the_host_screen_in_the_tables_language_with_the_voice() -> None:
    # the check was terminal-only and English: a club's Pi has a touch panel and a speaker
    import re

    import pygame
    from pad_rigs import FakeRig

    from table_app.screen.checkscreen import CheckScreen
    from table_app.screen.paint import Painter
    from table_app.table.virtual import Recorder
    pygame.display.init()
    rig = FakeRig()
    try:
        test = _self_test(rig)
        voice = Recorder()
        screen = CheckScreen(test, voice, "ka")
        painter = Painter(keep=True)
        surf = pygame.Surface((800, 480))
        drawn = painter.drawn
        assert drawn is not None

        def look() -> None:
            screen.update()
            screen.draw(painter, surf)
        test.start(rig.clock.now())
        look()
        assert "ადგილი 1: დააჭირეთ ამ ადგილის პულტის ღილაკს" in drawn
        assert voice.said[-1][1] == "check_seat num_1 check_press_button"
        for b in range(1, 13):                  # the host walks round the table
            _tap(rig, test, b)
            look()
        assert "რგოლი 1 ანთია: დააჭირეთ ამ პულტის ღილაკს" in drawn
        said = [s for _, s in voice.said]
        assert said[:12] == [f"check_seat num_{k} check_press_button" for k in range(1, 13)]
        while not test.done:
            if test.stage == "press":
                _tap(rig, test, test.ring)
            else:
                rig.press(test.button)
                rig.wait(rig.hold_for)
                _feed(rig, test)
                rig.release(test.button)
                rig.wait(0.05)
                _feed(rig, test)
            look()
        screen.written = "check_written"
        drawn.clear()
        buttons = screen.draw(painter, surf)
        assert voice.said[-1][1] == "check_done_ready"
        assert "მაგიდა მზადაა" in drawn and "ადგილი 7: ღილაკი 7, რგოლი 7, მობრუნება 0" in drawn
        assert not [s for s in drawn if re.search("[A-Za-z]{2,}", s)], drawn
        assert painter.overflows == [] and painter.shrunk == []
        done = next(b for b in buttons if b.cmd == ("done",))
        screen.touch((done.rect[0] + 5, done.rect[1] + 5), buttons)
        assert screen.closed
    finally:
        rig.close()
