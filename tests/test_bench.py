"""The benchmark's command line and its JSON (the figures themselves are never asserted)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from table_app.bench import BENCHES, parse


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
