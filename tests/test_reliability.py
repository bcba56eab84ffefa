"""Nothing freezes, nothing is lost: stuck buttons, restarts with a button down, a loop that
runs behind its queue."""

from __future__ import annotations

from pathlib import Path

from table_app.pads.events import PadEdge
from table_app.table import Host, Tick
from table_app.table.virtual import run_virtual, virtual_table


def _to_speech(tmp_path: Path, seed: int = 3):  # type: ignore[no-untyped-def]
    app, bots, clock, pads = virtual_table(tmp_path / "j", seed=seed)
    table = run_virtual(app, bots, clock,
                        until=lambda t: t.game.phase == "day" and "speech" in t.asked.values())
    return app, bots, clock, pads, table


def _drain(app) -> None:  # type: ignore[no-untyped-def]
    while not app.inbox.empty():
        app.feed(app.inbox.get_nowait())


def test_a_stuck_button_pauses_and_its_release_resumes(tmp_path: Path) -> None:
    app, bots, clock, pads, table = _to_speech(tmp_path)
    seat = next(s for s in range(1, 13) if s not in table.asked)
    pads.press(seat)
    _drain(app)
    clock.advance(21)
    app.feed(Tick())
    assert table.paused and any("stuck" in r for r in table.pause_reasons)
    left = table.time_left()
    pads.release(seat)                 # let go while paused: the release is heard
    _drain(app)
    assert not table.paused and table.time_left() == left


def test_the_host_cannot_resume_past_a_stuck_button_but_its_release_does(tmp_path: Path) -> None:
    app, bots, clock, pads, table = _to_speech(tmp_path)
    seat = next(s for s in range(1, 13) if s not in table.asked)
    pads.press(seat)
    _drain(app)
    clock.advance(21)
    app.feed(Tick())
    app.feed(Host(("resume",)))
    assert table.paused                # the pad is still faulty
    pads.release(seat)
    _drain(app)
    assert not table.paused


def test_a_restart_with_a_button_held_does_not_freeze(tmp_path: Path) -> None:
    """Killed while a button is down; on restart the hardware says it is up: the table
    believes the hardware, journals that, and the game goes on."""
    app, bots, clock, pads, table = _to_speech(tmp_path)
    seat = next(iter(table.asked))
    pads.press(seat)
    _drain(app)
    app.close()                        # killed here: the button is never released
    app2, bots2, clock2, pads2 = virtual_table(tmp_path / "j", seed=3)
    assert app2.resumed
    assert not app2.table.panel.grammar.is_down(seat)
    assert app2.entries[-1]["k"] == "level" and app2.entries[-1]["s"] == seat
    clock2.advance(30)
    app2.feed(Tick())
    assert not app2.table.paused
    end = run_virtual(app2, bots2, clock2)
    assert end.stage == "over"


def test_a_loop_behind_its_queue_does_not_call_a_press_stuck(tmp_path: Path) -> None:
    """A press and its release 0.1 s apart on the pad's clock, taken off the queue 30 s late:
    a short press, not a stuck button."""
    app, bots, clock, pads, table = _to_speech(tmp_path)
    seat = next(s for s in range(1, 13) if s not in table.asked)
    t0 = clock.now()
    clock.advance(30)
    app.feed(PadEdge(seat, True, t0))
    app.feed(PadEdge(seat, False, t0 + 0.1))
    assert not table.paused and not any("stuck" in r for r in table.pause_reasons)
