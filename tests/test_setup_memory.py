"""The setup screen offers first what the host chose last time (a new host's trial: the
language, the format and the players went back to English, Yakuza and 12 at every start,
while the names were remembered)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from table_app.cli import main
from table_app.screen.setup import Setup, choices_path, load_choices, save_choices
from table_app.window import loops


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.setenv("TABLE_APP_SETTINGS", str(tmp_path / "config" / "none.toml"))
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    monkeypatch.setenv("TABLE_APP_PADS", "fake")
    return tmp_path


def _offered(monkeypatch: pytest.MonkeyPatch, *argv: str) -> Setup:
    seen: list[Setup] = []

    def closed(pygame: Any, display: Any, area: Any, setup: Setup, pulse: Any = None) -> None:
        seen.append(setup)
        return None                     # the host closed the window
    monkeypatch.setattr(loops, "setup_screen", closed)
    main(["--silent", "--no-record", *argv])
    assert seen
    return seen[0]


def test_the_last_choices_are_offered_again(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = _offered(monkeypatch)
    assert (first.fmt, first.players, first.lang, first.deal) == ("yakuza", 12, "en", "app")
    save_choices(Setup("city", 9, "ru", "cards", {}))
    assert choices_path().stat().st_mode & 0o077 == 0
    again = _offered(monkeypatch)
    assert (again.fmt, again.players, again.lang, again.deal) == ("city", 9, "ru", "cards")
    # the command line still wins
    told = _offered(monkeypatch, "--lang", "ka")
    assert told.lang == "ka" and told.fmt == "city"


def test_a_broken_or_strange_choices_file_is_left_out(home: Path) -> None:
    path = choices_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("{not json")
    assert load_choices() == {}
    path.write_text(json.dumps({"format": "city", "players": 99, "lang": "fr",
                                "deal": "app", "x": 1}))
    assert load_choices() == {"format": "city", "deal": "app"}


def test_a_club_format_that_is_gone_is_not_offered(home: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    save_choices(Setup("classic_fast", 9, "en", "app", {}))
    offered = _offered(monkeypatch)
    assert offered.fmt == "yakuza"


def test_ctrl_c_on_the_setup_screen_is_a_quiet_stop(home: Path, monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """`table-app` (the README's command) stopped with Ctrl-C on the setup screen ended in a
    traceback: its quiet stop stood after a clause that raised it again."""
    def interrupted(*args: Any, **kw: Any) -> None:
        raise KeyboardInterrupt
    monkeypatch.setattr(loops, "setup_screen", interrupted)
    assert main(["--silent", "--no-record"]) == 130
    assert capsys.readouterr().err.strip().splitlines()[-1] == (
        "table-app: stopped (the game resumes where it was)")
