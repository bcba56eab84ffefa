"""The club's settings file: read, checked with clear errors, and used."""

from __future__ import annotations

import os
import subprocess
import sys
from argparse import Namespace
from pathlib import Path

import pytest

from table_app.settings import SettingsError, apply, load_settings
from table_app.table.journal import Journal


def write(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "settings.toml"
    p.write_text(text, encoding="utf-8")
    return p


def test_no_file_is_all_defaults(tmp_path: Path) -> None:
    s = load_settings(tmp_path / "none.toml")
    assert s.lang is None and s.night_cap == 0.25 and s.day_cap == 0.6


def test_a_full_file_is_read(tmp_path: Path) -> None:
    pack = tmp_path / "voices"
    pack.mkdir()
    s = load_settings(write(tmp_path, f'lang = "ka"\nformat = "city"\nplayers = 10\n'
                                      f'voice_pack = "{pack}"\nvolume = 0.5\n'
                                      '[pads]\nbackend = "serial"\nport = "/dev/table-pads"\n'
                                      '[light]\nnight_cap = 0.1\nday_cap = 0.4\n'
                                      '[audio]\ndevice = "USB Audio"\n'))
    assert (s.lang, s.format, s.players, s.volume) == ("ka", "city", 10, 0.5)
    assert (s.pads, s.port, s.night_cap, s.day_cap, s.audio_device) == (
        "serial", "/dev/table-pads", 0.1, 0.4, "USB Audio")


@pytest.mark.parametrize("text, why", [
    ('lang = "fr"', "lang takes one of ka, en, uz, ru"),
    ("players = 0", "players takes a whole number from 1 to 30"),
    ("volume = 3", "volume takes a number from 0 to 1"),
    ("[light]\nnight_cap = true", "light.night_cap takes a number"),
    ("[pads]\nbackend = \"usb\"", "pads.backend takes one of"),
    ("colour = 1", "unknown setting 'colour'"),
    ("[pads]\nspeed = 1", "unknown setting 'pads.speed'"),
    ('voice_pack = "/no/such/folder"', "voice_pack: no folder"),
    ("pads = 3", "[pads] must be a table"),
    ("lang = ", "not valid TOML"),
])
def test_a_bad_setting_names_the_file_and_the_key(tmp_path: Path, text: str, why: str) -> None:
    with pytest.raises(SettingsError) as info:
        load_settings(write(tmp_path, text))
    assert str(info.value).startswith(str(tmp_path / "settings.toml")) and why in str(info.value)


def test_flags_win_over_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TABLE_APP_PORT", raising=False)
    s = load_settings(write(tmp_path, 'lang = "uz"\ndeal = "cards"\n[pads]\nport = "/dev/x"\n'))
    args = Namespace(lang="ru", format=None, players=None, deal=None, voice_pack=None,
                     volume=None, pads=None)
    apply(args, s)
    assert args.lang == "ru" and args.deal == "cards" and os.environ["TABLE_APP_PORT"] == "/dev/x"
    assert (args.night_cap, args.day_cap) == (0.25, 0.6)


def test_the_app_uses_them(tmp_path: Path) -> None:
    settings = write(tmp_path, 'lang = "ru"\n[light]\nnight_cap = 0.1\nday_cap = 0.3\n')
    env = {**os.environ, "TABLE_APP_SETTINGS": str(settings)}
    journal = tmp_path / "demo.journal"
    proc = subprocess.run([sys.executable, "-m", "table_app", "--demo", "--fast", "--seed", "3",
                           "--journal", str(journal)], capture_output=True, text=True,
                          env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "Город засыпает." in proc.stdout
    start = Journal.read(journal)[0]
    assert start["lang"] == "ru" and start["caps"] == [0.1, 0.3]


def test_a_bad_settings_file_is_a_one_line_error(tmp_path: Path) -> None:
    settings = write(tmp_path, "volume = 7\n")
    proc = subprocess.run([sys.executable, "-m", "table_app", "--demo", "--fast"],
                          capture_output=True, text=True, timeout=60,
                          env={**os.environ, "TABLE_APP_SETTINGS": str(settings)})
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1
    assert "volume takes a number from 0 to 1" in proc.stderr


def test_the_table_keeps_every_good_setting_beside_a_mistaken_one(tmp_path: Path) -> None:
    # a typo in one key must not switch a Georgian table to English
    text = ('lang = "ka"\nvolume = 3\ncolour = "red"\n[light]\nnight_cap = 0.1\n'
            '[pads]\nbuttons = [1, 1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]\n')
    path = write(tmp_path, text)
    with pytest.raises(SettingsError, match="volume takes a number from 0 to 1"):
        load_settings(path)                     # the commands: the first mistake, and stop
    s = load_settings(path, lenient=True)       # the table: every mistake, the rest kept
    assert (s.lang, s.night_cap, s.volume, s.buttons) == ("ka", 0.1, None, None)
    assert [m.split(": ", 1)[1] for m in s.mistakes] == [
        "volume takes a number from 0 to 1", "pads.buttons must name each of 1 to 12 once",
        "unknown setting 'colour'"]
    path.write_text('lang = "ka\n')
    broken = load_settings(path, lenient=True)
    assert broken.lang is None and "not valid TOML" in broken.mistakes[0]


# -- hostile files: a clear word, never a traceback -----------------------------------------
DEEP = "[" * 50_000 + "]" * 50_000


def test_a_voice_pack_path_too_long_for_the_system_is_a_bad_setting(tmp_path: Path) -> None:
    # it made every command, `records` included, die with "File name too long"
    p = tmp_path / "settings.toml"
    p.write_text(f'voice_pack = "/{"v" * 300}"\n')
    with pytest.raises(SettingsError, match="voice_pack: .* cannot be a folder here"):
        load_settings(p)
    assert any("voice_pack" in m for m in load_settings(p, lenient=True).mistakes)
    env = {**os.environ, "TABLE_APP_SETTINGS": str(p)}
    proc = subprocess.run([sys.executable, "-m", "table_app", "records", "--db",
                           f"sqlite:///{tmp_path / 'r.sqlite'}", "list"],
                          capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    assert proc.stderr.startswith(f"table-app: {p}: voice_pack: /vvv"), proc.stderr


def test_files_of_brackets_nested_deep_are_refused_not_a_crash(tmp_path: Path) -> None:
    # RecursionError out of the JSON and TOML parsers: the table died opening them
    from table_app.pads import PadError
    from table_app.pads.gpio import load_pins
    from table_app.records.game import RecordsError
    from table_app.records.store import Records
    from table_app.rules.format import FormatError, load_format
    from table_app.screen.setup import load_names
    settings = tmp_path / "settings.toml"
    settings.write_text(f"players = {DEEP}\n")
    with pytest.raises(SettingsError, match="not valid TOML: nested too deep"):
        load_settings(settings)
    names = tmp_path / "names.json"
    names.write_text(DEEP)
    assert load_names(names) == {}
    fmt = tmp_path / "house.toml"
    fmt.write_text(f"x = {DEEP}\n")
    with pytest.raises(FormatError, match="nested too deep"):
        load_format(fmt)
    with pytest.raises(PadError, match="nested too deep"):
        load_pins(text=f"seats = {DEEP}\n")
    with pytest.raises(RecordsError, match="nested too deep"):
        Records(f"sqlite:///{tmp_path / 'r.sqlite'}").import_json(DEEP)
    journal = tmp_path / "j"
    start = ('{"t":0,"k":"start","fmt":"yakuza","players":12,"lang":"en","deal":"app",'
             '"seed":1}\n')
    journal.write_text(start + DEEP + "\n" + '{"t":1,"k":"tick"}\n')
    entries, notes = Journal.load(journal)
    assert [e["k"] for e in entries] == ["start", "tick"]
    assert notes == ["journal line 2 left out: not an entry"]
