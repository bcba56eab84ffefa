"""`table-app check` on every pad backend: the fake, the simulator, gpiozero's mock pins and
the real firmware in MicroPython. A host walks round the table pressing each lit pad; two pads
are cross-wired, one ring is dead, one button is stuck down."""

from __future__ import annotations

import queue
from collections.abc import Iterator
from pathlib import Path

import pytest
from pad_rigs import FakeRig, GpioRig, Rig, SerialRig, SimRig

from table_app.check import SelfTest
from table_app.pads.events import PadEdge
from table_app.pads.rings import Dark, Pick
from table_app.settings import load_settings, write_pad_layout


@pytest.fixture(params=["fake", "sim", "gpio", "serial"])
def rig(request: pytest.FixtureRequest) -> Iterator[Rig]:
    r: Rig = {"fake": FakeRig, "sim": SimRig, "gpio": GpioRig,
              "serial": SerialRig}[request.param]()
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


def _walk(rig: Rig, test: SelfTest, wiring: dict[int, int | None],
          turns: dict[int, int]) -> list[int]:
    """Play the host: press the button wired to each lit ring (None: nobody can), then tap
    the light round `turns[ring]` times and hold. Returns the ring lit at each press stage."""
    lit = []
    test.start(rig.clock.now())
    while not test.done:
        k = test.ring
        if test.stage == "press":
            lit.append(k)
            # only this ring is lit, on every backend's own pictures
            assert isinstance(rig.backend.pictures[k], Pick)
            assert all(rig.backend.pictures[j] == Dark() for j in range(1, 13) if j != k)
            b = wiring.get(k, k)
            if b is None:
                rig.wait(test.wait + 0.1)         # nobody presses: the ring is dead
                _feed(rig, test)
                continue
            rig.press(b)
            rig.wait(0.1)
            rig.release(b)
            rig.wait(0.05)
            _feed(rig, test)
        elif test.stage == "turn":
            b = test.button
            for _ in range(turns.get(k, 0)):
                rig.press(b)
                rig.wait(0.1)
                rig.release(b)
                rig.wait(0.05)
                _feed(rig, test)
            rig.press(b)
            rig.wait(rig.hold_for)
            _feed(rig, test)
            rig.release(b)
            rig.wait(0.05)
            _feed(rig, test)
    return lit


def test_check_finds_wiring_turns_a_dead_ring_and_a_stuck_button(rig: Rig) -> None:
    rig.press(11)                                  # a button down before the check begins
    rig.wait(0.1)
    test = SelfTest(rig.backend, wait=2.0, hold=0.7)
    _feed(rig, test)
    wiring: dict[int, int | None] = {3: 5, 5: 3, 9: None, 11: None}
    turns = {2: 3, 7: 11}
    lit = _walk(rig, test, wiring, turns)
    report = test.report
    assert lit == list(range(1, 13))
    assert report.stuck == [11]
    assert report.dead == [9, 11]
    assert report.buttons == {k: (wiring.get(k) or k) for k in range(1, 13)
                              if k not in (9, 11)}
    if rig.mode == "count":                        # one LED a seat: nothing to turn
        assert report.rotation == {}
    else:
        assert {k: r for k, r in report.rotation.items() if r} == {2: 3, 7: 11}
    problems = report.problems()
    assert any("button 11 is down from the start" in p for p in problems)
    assert any(p.startswith("ring 9: no button answered") for p in problems)
    assert any("buttons never pressed: 9" in p for p in problems)
    assert not report.complete                     # nothing to write from this
    rig.release(11)


def test_a_complete_check_is_written_and_the_table_uses_it(rig: Rig, tmp_path: Path) -> None:
    test = SelfTest(rig.backend, wait=2.0, hold=0.7)
    _feed(rig, test)
    wiring: dict[int, int | None] = {3: 5, 5: 3}
    _walk(rig, test, wiring, {2: 3})
    report = test.report
    assert report.complete and not report.problems()
    settings = tmp_path / "settings.toml"
    settings.write_text('lang = "ka"   # the club\'s language\n\n[pads]\nport = "/dev/x"\n')
    buttons, rotation = report.layout()
    write_pad_layout(buttons, rotation, settings)
    s = load_settings(settings)
    assert s.lang == "ka" and s.port == "/dev/x"   # the rest of the file is kept
    assert "# the club's language" in settings.read_text()
    assert s.buttons == [1, 2, 5, 4, 3, 6, 7, 8, 9, 10, 11, 12]
    turned = 0 if rig.mode == "count" else 3
    assert s.rotation == [0, turned] + [0] * 10

    # the table with that layout: button 5 is seat 3, and ring 2 is drawn turned
    rig.backend.set_layout(s.buttons, s.rotation)
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
        if isinstance(rig, SerialRig):             # and the controller draws it so
            assert rig.fw.wait_ring(2, lambda p: p == [tuple(c) for c in px], timeout=3)


def test_settings_refuse_a_layout_that_is_not_one_button_a_seat(tmp_path: Path) -> None:
    from table_app.settings import SettingsError
    bad = tmp_path / "s.toml"
    bad.write_text("[pads]\nbuttons = [1, 1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]\n")
    with pytest.raises(SettingsError, match="each button 1 to 12 once"):
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
    assert "ring 1 is lit: press the button of that pad" in out
    assert "ring 12 is lit" in out
    assert "PROBLEM: rings 1-12: no button answered: the chain may break at ring 1" in out
    assert "sound: a tick played on the default output" in out
    assert "nothing written" in out and not (tmp_path / "settings.toml").exists()


def test_the_sound_check_says_when_no_output_opens() -> None:
    import os
    import subprocess
    import sys
    code = ("from table_app.check import check_sound; t, ok = check_sound('Pi speaker'); "
            "print(ok); print(t)")
    env = {**os.environ, "SDL_AUDIODRIVER": "no-such-driver"}
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, timeout=60)
    ok, text = proc.stdout.split("\n", 1)
    assert ok == "False"
    assert text.startswith("sound: cannot open 'Pi speaker'") and "outputs here:" in text
