"""The benchmark's command line and its JSON (the figures themselves are never asserted)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from table_app.tools.bench import BENCHES, parse


def test_no_bench_named_runs_every_one() -> None:
    # `make bench` names none: it once failed on argparse's check of the empty default
    assert parse([]).which == list(BENCHES)
    assert parse(["rules", "idle"]).which == ["rules", "idle"]


def test_an_unknown_bench_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        parse(["rulez"])
    assert "no bench 'rulez'" in capsys.readouterr().err


def test_rules_prints_one_json_object_a_figure() -> None:
    proc = subprocess.run([sys.executable, "-m", "table_app.bench", "rules", "--seconds",
                           "0.1", "--json"], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    figures = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [f["name"] for f in figures] == ["rules_yakuza_12", "rules_classic_11",
                                            "rules_city_12", "rules_city_30"]
    for f in figures:
        assert {"name", "unit", "value", "floor", "ratio", "runs"} <= set(f)
        assert f["value"] > 0 and f["floor"] > 0 and len(f["runs"]) == 15
        assert f["engine"].startswith(("compiled", "interpreted"))


def test_a_ratio_is_the_median_of_each_repetitions_own_ratio() -> None:
    # a stall that hits one repetition of the figure and another of its floor moves two
    # ratios, not the medians of both sides: 4/3 from the medians, 2 from the repetitions
    from table_app.tools.bench_path import _figure

    fig = _figure("x", "ms", [2.0, 4.0, 9.0], [1.0, 4.0, 3.0])
    assert fig["ratios"] == [2.0, 1.0, 3.0]
    assert fig["ratio"] == 2.0
    assert (fig["value"], fig["floor"]) == (4.0, 3.0)


def _child(code: str) -> subprocess.Popen[str]:
    """A Python child running `code`, talked to through its stdin and stdout."""
    return subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)


def test_a_process_cpu_time_is_read_finer_than_a_clock_tick() -> None:
    # the idle figure reads another process's CPU time over 2 s windows: in clock ticks
    # (10 ms) an idle loop's share moved in steps of 0.5 %. A child spins 25 ms of CPU in a
    # thread that has ended by the time it is read: it counts, and not rounded to a tick.
    from table_app.tools.bench_idle import cpu_seconds

    code = ("import threading, time, sys\n"
            "def spin():\n"
            "    t = time.thread_time()\n"
            "    while time.thread_time() - t < 0.025:\n"
            "        pass\n"
            "th = threading.Thread(target=spin); th.start(); th.join()\n"
            "print('spun', flush=True); sys.stdin.read()\n")
    child = _child(code)
    try:
        assert child.stdout is not None and child.stdout.readline() == "spun\n"
        spent = cpu_seconds(child.pid)
    finally:
        child.communicate("", timeout=30)
    assert spent >= 0.025
    assert abs(spent * 100 - round(spent * 100)) > 1e-6     # not a whole number of ticks


def test_the_firmware_replay_times_the_real_controller_beside_its_floor() -> None:
    # the warm figure runs the real controller in the unix MicroPython: each repetition a
    # work per tap and a floor, both measured (the controller's own ticks_us, sent in STATS)
    from table_app.tools.bench_replay import firmware_replay

    fig = firmware_replay(taps=12, reps=2)
    assert fig["name"] == "firmware_work_replayed" and fig["unit"] == "us"
    assert len(fig["runs"]) == len(fig["floor_runs"]) == len(fig["ratios"]) == 2
    assert all(r > 0 for r in fig["runs"]) and all(f > 0 for f in fig["floor_runs"])


def test_the_emulated_controller_s_figures_are_the_same_in_two_fresh_runs(
        tmp_path) -> None:  # type: ignore[no-untyped-def]
    # emulated time: two fresh emulated Picos running the same firmware give the same
    # figures, whatever the machine does meanwhile; each says so
    from pico_rig import pico_host

    from table_app.tools import bench_pico
    host = pico_host()
    # (ten taps timed each way: a step's time is bimodal, and the figure takes its lower
    # mode, which two taps may miss on a loaded machine)
    runs = [bench_pico._parts(host, tmp_path / str(i), taps=20) for i in range(2)]
    names = [f["name"] for f in runs[0]]
    assert names == ["firmware_work_per_press", "scan_period_p50", "scan_period_max",
                     "ring_update_cpu", "ring_frame_wire"]
    assert all(f["clock"] == "emulated" and f["value"] > 0 and f["floor"] > 0
               for f in runs[0])
    # (the same to the microsecond: a tap lands at a moment that follows the machine, so a
    # figure read with ticks_us, 1 us a tick, may read one more or less; a tap's work is
    # counted in the core's cycles and differs by a few, its timestamp's bytes taking other
    # branches of the frame's encoding)
    for a, b in zip(runs[0], runs[1], strict=True):
        assert abs(a["value"] - b["value"]) <= 1.0 and abs(a["floor"] - b["floor"]) <= 1.0, \
            (a, b)


def test_the_big_table_bench_taps_each_of_three_emulated_controllers() -> None:
    # three emulated Picos, each its own link, one table of 30 on the Pi's real SerialPads
    # and TablePads: every board's taps reach its own ring, beside the floor's taps on the
    # first board alone as a table of 12
    from pico_rig import pico_host

    from table_app.tools import bench_pico_taps
    pico_host()                               # (skipped where no emulator runs; CI fails)
    p50, p99 = bench_pico_taps.bench_big_table_emulated(taps=2)
    assert (p50["name"], p99["name"]) == ("big_table_tap_to_ring_p50",
                                          "big_table_tap_to_ring_p99")
    taps = p50["taps_ms"]
    assert sorted(taps) == list(bench_pico_taps.TABLE_BOARDS)
    assert all(len(v) == 2 and all(0 < x < 1000 for x in v) for v in taps.values()), taps
    assert len(p50["floor_taps_ms"]) == 4 and p50["floor"] > 0
    assert p50["taps"] == 6 and p50["value"] <= p99["value"]
    # every board was linked to the table once, paired, and kept its link
    assert all(s["connects"] == 1 and s["disconnects"] == 0 for s in p50["links"].values())


def test_a_process_wakeups_are_counted_over_all_its_threads() -> None:
    # the idle figure counts a process's wakeups: a child whose second thread sleeps 100
    # times is switched in at least 100 times more than before
    from table_app.tools.bench_idle import wakeups

    code = ("import threading, time, sys\n"
            "print('up', flush=True); sys.stdin.readline()\n"
            "def nap():\n"
            "    for _ in range(100):\n"
            "        time.sleep(0.002)\n"
            "    print('slept', flush=True)\n"
            "    sys.stdin.read()\n"
            "threading.Thread(target=nap).start()\n")
    child = _child(code)
    try:
        assert child.stdout is not None and child.stdout.readline() == "up\n"
        before = wakeups(child.pid)
        assert child.stdin is not None
        child.stdin.write("\n")
        child.stdin.flush()
        assert child.stdout.readline() == "slept\n"
        after = wakeups(child.pid)                 # the napping thread still lives
    finally:
        child.communicate("", timeout=30)
    assert after - before >= 100


def test_the_idle_bench_measures_the_start_and_three_screens_beside_a_bare_window() -> None:
    proc = subprocess.run([sys.executable, "-m", "table_app.bench", "idle", "--seconds",
                           "0.6", "--json"], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    figures = {f["name"]: f for f in map(json.loads, proc.stdout.splitlines())}
    assert list(figures) == ["start_to_ready"] + [
        f"idle_{what}_{screen}" for screen in ("setup", "night", "speech")
        for what in ("cpu", "wakeups")]
    for f in figures.values():
        assert f["value"] > 0 and f["floor"] > 0 and len(f["runs"]) == 3 and f["target"]
