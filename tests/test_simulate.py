"""The balance simulator: win rates with intervals, reproducible by seed, errors counted."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from table_app.records.interval import wilson
from table_app.rules import find_format
from table_app.tools.simulate import simulate


def test_wilson_interval_known_values() -> None:
    p, lo, hi = wilson(50, 100)
    assert p == 0.5 and lo == pytest.approx(0.4038, abs=1e-3) and hi == pytest.approx(0.5962,
                                                                                      abs=1e-3)
    p, lo, hi = wilson(0, 20)
    assert p == 0 and lo == 0 and 0.15 < hi < 0.17
    assert wilson(0, 0) == (0.0, 0.0, 0.0)


@pytest.mark.parametrize("fmt_id, players", [("yakuza", 12), ("classic", 11), ("city", 20)])
def test_simulation_is_reproducible_and_adds_up(fmt_id: str, players: int) -> None:
    fmt = find_format(fmt_id)
    a = simulate(fmt, players, 200, seed=5)
    b = simulate(fmt, players, 200, seed=5)
    assert a.wins == b.wins and a.days == b.days
    assert sum(a.wins.values()) == a.games == 200 and not a.errors
    assert set(a.wins) <= set(fmt.teams)
    c = simulate(fmt, players, 200, seed=6)
    assert (c.wins, c.days) != (a.wins, a.days)


def test_policies_differ() -> None:
    fmt = find_format("yakuza")
    rnd = simulate(fmt, 12, 300, seed=1, policy="random")
    inf = simulate(fmt, 12, 300, seed=1, policy="informed")
    assert rnd.wins != inf.wins


def test_cli_prints_rates_with_intervals() -> None:
    proc = subprocess.run([sys.executable, "-m", "table_app", "simulate", "--format", "city",
                           "--players", "8", "--games", "300", "--seed", "3"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    rows = re.findall(r"^\s+(city|mafia|killer)\s+([\d.]+) %\s+\(95 % CI\s+([\d.]+) -\s+([\d.]+)\)",
                      proc.stdout, re.M)
    assert [r[0] for r in rows] == ["city", "mafia", "killer"]
    total = sum(float(r[1]) for r in rows)
    assert 99.5 < total < 100.5
    for _, p, lo, hi in rows:
        assert float(lo) <= float(p) <= float(hi)
    assert "mean length:" in proc.stdout


def test_cli_rejects_a_bad_player_count() -> None:
    proc = subprocess.run([sys.executable, "-m", "table_app", "simulate", "--format", "classic",
                           "--players", "12", "--games", "5"], capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 2 and "for 5 to 11 players" in proc.stderr


def test_parallel_processes_give_the_same_table_as_one() -> None:
    fmt = find_format("classic")
    one = simulate(fmt, 11, 300, seed=9, jobs=1)
    two = simulate(fmt, 11, 300, seed=9, jobs=2)
    assert (one.games, one.wins, one.days, one.nights, one.errors) == \
        (two.games, two.wins, two.days, two.nights, two.errors)


def test_cli_jobs_prints_the_same_report() -> None:
    def run(jobs: str) -> str:
        proc = subprocess.run([sys.executable, "-m", "table_app", "simulate", "--format", "city",
                               "--players", "12", "--games", "200", "--seed", "4",
                               "--jobs", jobs], capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0, proc.stderr
        return "\n".join(line for line in proc.stdout.splitlines() if "games/s" not in line)
    assert run("1") == run("2")


def test_cli_zero_games_is_an_error() -> None:
    proc = subprocess.run([sys.executable, "-m", "table_app", "simulate", "--games", "0"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "--games 1 or more" in proc.stderr and proc.stdout == ""
