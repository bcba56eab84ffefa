"""What a club sets once, in one TOML file: `~/.config/table-app/settings.toml` (or the file
`TABLE_APP_SETTINGS` names). Every key is optional; a command-line flag wins over the file.

    lang = "ka"                       # ka, en, uz, ru
    format = "yakuza"                 # the format a new game offers first
    players = 12
    deal = "app"                      # app or cards
    voice_pack = "/home/club/voices"  # a folder of recorded clips (README: voice packs)
    volume = 0.9                      # the voice, 0 to 1

    [pads]
    backend = "auto"                  # auto, sim, gpio, serial, fake
    port = "/dev/table-pads"          # the pad controller (serial)
    pins = "/etc/table-app/pins.toml" # the pin map (gpio)
    buttons = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]  # each seat's button
    rotation = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]    # each ring's pixel that points at seat 1
    rings = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]    # each seat's ring (its pin)
    seats = 12                        # pads at the table: 12 a controller, up to 30 on three
    ring = 12                         # pixels a ring: 12, 16 or 24, as the rings were built
    controllers = ["e6614c311b7e5b2d", "e6614c311b7e5c41"]   # a big table's, by their ids

`table-app check` finds `buttons`, `rings`, `rotation` (and a big table's `controllers`) at
the table and writes them here. At a table of more than 12 pads, controller 2's jack 1 is
button (and ring) 13, controller 3's is 25.

    [light]
    night_cap = 0.25                  # rings' brightness at night and at the deal, 0 to 1
    day_cap = 0.6                     # by day and in the vote

    [audio]
    device = ""                       # an SDL audio device name; "" for the default

    [records]
    host = "Nino"                     # the host, on every protocol sheet
    club = "Tbilisi Mafia Club"       # and the club, the table
    table = "table 1"
    url = "postgresql://table1@league.example/records"   # a league's database (optional)
    local = "sqlite:////var/lib/table-app/records.sqlite" # this table's own (the default)

A file that cannot be read as settings is one clear error naming the file and the key.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .paths import config_dir, sync_folder, write_private
from .words import LANGS

ENV = "TABLE_APP_SETTINGS"
# the pads' names (pads/factory.py registers them; written out so that reading the
# settings loads no pad code: tests/test_pads_backends.py holds the two lists alike)
BACKENDS = ("auto", "sim", "gpio", "serial", "fake")


class SettingsError(ValueError):
    """A settings file that says something the app cannot use."""


@dataclass
class Settings:
    """A club's settings (defaults where the file says nothing)."""

    lang: str | None = None
    format: str | None = None
    players: int | None = None
    deal: str | None = None
    voice_pack: str | None = None
    volume: float | None = None
    pads: str | None = None
    port: str | None = None
    pins: str | None = None
    buttons: list[int] | None = None
    rotation: list[int] | None = None
    rings: list[int] | None = None
    seats: int = 12
    ring: int = 12
    controllers: list[str] | None = None
    night_cap: float = 0.25
    day_cap: float = 0.6
    audio_device: str = ""
    records_url: str = ""
    records_local: str = ""
    host: str = ""
    club: str = ""
    table_name: str = ""
    source: str = ""
    unknown: list[str] = field(default_factory=list)
    #: what `load_settings(lenient=True)` left at its default, one line each
    mistakes: list[str] = field(default_factory=list)


def settings_path() -> Path:
    chosen = os.environ.get(ENV)
    if chosen:
        return Path(chosen)
    return config_dir() / "settings.toml"


def load_settings(path: Path | None = None, lenient: bool = False) -> Settings:
    """The settings file, checked; no file is all defaults. The first mistake is raised,
    unless `lenient` (the table itself, which must open whatever the file says): then every
    mistaken key keeps its default and is said in `mistakes`, and the rest still count."""
    p = path or settings_path()
    if not p.exists():
        return Settings(source=str(p))
    mistakes: list[str] = []

    def take(check: Any, *args: Any) -> Any:
        try:
            return check(p, *args)
        except SettingsError as exc:
            if not lenient:
                raise
            mistakes.append(str(exc))
            return None

    try:
        raw = tomllib.loads(p.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, RecursionError) as exc:
        why = "not valid TOML" if isinstance(exc, tomllib.TOMLDecodeError | RecursionError) \
            else "cannot read the settings"
        # (brackets nested thousands deep ran Python's parser out of stack)
        err = SettingsError(f"{p}: {why}: "
                            f"{'nested too deep' if isinstance(exc, RecursionError) else exc}")
        if not lenient:
            raise err from None
        return Settings(source=str(p), mistakes=[str(err)])
    s = Settings(source=str(p))
    top = dict(raw)
    pads = take(_table, top.pop("pads", {}), "pads") or {}
    light = take(_table, top.pop("light", {}), "light") or {}
    audio = take(_table, top.pop("audio", {}), "audio") or {}
    records = take(_table, top.pop("records", {}), "records") or {}
    s.records_url = take(_text, records.pop("url", None), "records.url") or ""
    s.records_local = take(_text, records.pop("local", None), "records.local") or ""
    s.host = take(_text, records.pop("host", None), "records.host") or ""
    s.club = take(_text, records.pop("club", None), "records.club") or ""
    s.table_name = take(_text, records.pop("table", None), "records.table") or ""
    s.lang = take(_choice, top.pop("lang", None), "lang", LANGS)
    s.format = take(_text, top.pop("format", None), "format")
    s.players = take(_whole, top.pop("players", None), "players", 1, 30)
    s.deal = take(_choice, top.pop("deal", None), "deal", ("app", "cards"))
    s.voice_pack = take(_folder, top.pop("voice_pack", None), "voice_pack")
    s.volume = take(_share, top.pop("volume", None), "volume")
    s.pads = take(_choice, pads.pop("backend", None), "pads.backend", BACKENDS)
    s.port = take(_text, pads.pop("port", None), "pads.port")
    s.pins = take(_text, pads.pop("pins", None), "pads.pins")
    s.seats = take(_whole, pads.pop("seats", None), "pads.seats", 1, 30) or 12
    ring = take(_whole, pads.pop("ring", None), "pads.ring", 12, 24)
    if ring is not None and ring not in RING_SIZES:
        take(_bad, f"pads.ring takes one of {', '.join(map(str, RING_SIZES))}")
        ring = None
    s.ring = ring or 12
    s.controllers = take(_names, pads.pop("controllers", None), "pads.controllers")
    inputs = 12 * max(-(-s.seats // 12), len(s.controllers or ()))
    s.buttons = take(_each_seat, pads.pop("buttons", None), "pads.buttons", s.seats, inputs)
    s.rotation = take(_seats, pads.pop("rotation", None), "pads.rotation", 0, s.ring - 1,
                      s.seats)
    s.rings = take(_each_seat, pads.pop("rings", None), "pads.rings", s.seats, inputs)
    night = take(_share, light.pop("night_cap", None), "light.night_cap")
    day = take(_share, light.pop("day_cap", None), "light.day_cap")
    s.night_cap = s.night_cap if night is None else night
    s.day_cap = s.day_cap if day is None else day
    s.audio_device = take(_text, audio.pop("device", None), "audio.device") or ""
    for rest, where in ((top, ""), (pads, "pads."), (light, "light."), (audio, "audio."),
                        (records, "records.")):
        for key in rest:
            take(_unknown, f"{where}{key}")
    s.mistakes = mistakes
    return s


def _unknown(p: Path, key: str) -> None:
    raise SettingsError(f"{p}: unknown setting '{key}'")


def _folder(p: Path, v: Any, key: str) -> str | None:
    folder = _text(p, v, key)
    try:
        there = folder is None or Path(folder).is_dir()
    except OSError as exc:       # a name too long, a folder that cannot be looked into
        raise SettingsError(f"{p}: {key}: {(folder or '')[:80]}... cannot be a folder here "
                            f"({exc.strerror or exc})") from None
    if not there:
        raise SettingsError(f"{p}: {key}: no folder at {folder}")
    return folder


#: the rings a club may build its pads with (pixels a ring)
RING_SIZES = (12, 16, 24)


def _bad(p: Path, why: str) -> None:
    raise SettingsError(f"{p}: {why}")


def _names(p: Path, v: Any, key: str) -> list[str] | None:
    if v is None:
        return None
    if (not isinstance(v, list) or not 1 <= len(v) <= 3
            or any(not isinstance(x, str) or not x or " " in x for x in v)
            or len(set(v)) != len(v)):
        raise SettingsError(f"{p}: {key} takes a list of one to three controller ids (each "
                            f"once, as `table-app check` writes them)")
    return list(v)


def _each_seat(p: Path, v: Any, key: str, n: int = 12, inputs: int = 12) -> list[int] | None:
    seats = _seats(p, v, key, 1, inputs, n)
    if seats is not None and len(set(seats)) != n:
        if inputs == n:
            raise SettingsError(f"{p}: {key} must name each of 1 to {n} once")
        raise SettingsError(f"{p}: {key} must name each seat's own one of 1 to {inputs}, "
                            f"none twice")
    return seats


def _table(p: Path, v: Any, key: str) -> dict[str, Any]:
    if not isinstance(v, dict):
        raise SettingsError(f"{p}: [{key}] must be a table")
    return dict(v)


def _text(p: Path, v: Any, key: str) -> str | None:
    if v is None:
        return None
    if not isinstance(v, str) or "\0" in v:
        raise SettingsError(f"{p}: {key} takes a text")
    return v


def _choice(p: Path, v: Any, key: str, allowed: tuple[str, ...]) -> str | None:
    if v is None:
        return None
    if v not in allowed:
        raise SettingsError(f"{p}: {key} takes one of {', '.join(allowed)}, not {v!r}")
    return str(v)


def _whole(p: Path, v: Any, key: str, lo: int, hi: int) -> int | None:
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise SettingsError(f"{p}: {key} takes a whole number from {lo} to {hi}")
    return v


def _seats(p: Path, v: Any, key: str, lo: int, hi: int, n: int = 12) -> list[int] | None:
    if v is None:
        return None
    if (not isinstance(v, list) or len(v) != n
            or any(isinstance(x, bool) or not isinstance(x, int) or not lo <= x <= hi
                   for x in v)):
        raise SettingsError(f"{p}: {key} takes {n} whole numbers from {lo} to {hi}, "
                            f"one per seat (pads.seats: {n})")
    return list(v)


def write_pad_layout(buttons: list[int], rotation: list[int], rings: list[int] | None = None,
                     path: Path | None = None, controllers: list[str] | None = None) -> Path:
    """Put `pads.buttons`, `pads.rings` and `pads.rotation` (and a big table's
    `pads.controllers`, and its `pads.seats`) into the settings file, keeping everything
    else in it (comments too); the file is checked again before it replaces the old one."""
    p = path or settings_path()
    text = p.read_text(encoding="utf-8") if p.exists() else ""
    lines = text.splitlines()
    new = {"buttons": f"buttons = {buttons}", "rotation": f"rotation = {rotation}",
           "rings": f"rings = {rings or list(range(1, len(buttons) + 1))}"}
    # a table of 12 says nothing of its seats (the default), unless the file did
    new["seats"] = f"seats = {len(buttons)}"
    if controllers:
        new["controllers"] = "controllers = [" + ", ".join(f'"{c}"' for c in controllers) + "]"
    section = ""
    pads_at = None
    had_seats = False
    kept: list[str] = []
    for line in lines:
        bare = line.strip()
        if bare.startswith("["):
            section = bare.strip("[] ").split("]")[0].strip()
            if section == "pads":
                pads_at = len(kept)
        key = bare.split("=", 1)[0].strip() if "=" in bare else ""
        had_seats = had_seats or (section == "pads" and key == "seats")
        if section == "pads" and key in new:
            continue                     # replaced below
        kept.append(line)
    block = [new[k] for k in ("seats", "controllers", "buttons", "rings", "rotation")
             if k in new and (k != "seats" or len(buttons) != 12 or had_seats)]
    if pads_at is None:
        kept += ([""] if kept else []) + ["[pads]", *block]
    else:
        kept[pads_at + 1:pads_at + 1] = block
    out = "\n".join(kept) + "\n"
    tmp = write_private(p.with_name(p.name + ".new"), out)
    try:
        load_settings(tmp)
    except SettingsError:
        tmp.unlink()
        raise
    tmp.replace(p)               # 0600 like every file the app writes (it may hold a password)
    sync_folder(p.parent)        # the new name durable: a power cut kept the old layout
    return p


def _share(p: Path, v: Any, key: str) -> float | None:
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 <= v <= 1:
        raise SettingsError(f"{p}: {key} takes a number from 0 to 1")
    return float(v)


def apply(args: Any, s: Settings) -> None:
    """Fill what the command line left open from the settings; the environment carries the
    pads' settings to the backends (a flag or a variable already set wins)."""
    for name in ("lang", "format", "players", "deal", "voice_pack", "volume", "pads"):
        if getattr(args, name, None) is None and getattr(s, name) is not None:
            setattr(args, name, getattr(s, name))
    if s.port:
        os.environ.setdefault("TABLE_APP_PORT", s.port)
    if s.pins:
        os.environ.setdefault("TABLE_APP_PINS", s.pins)
    args.night_cap, args.day_cap, args.audio_device = s.night_cap, s.day_cap, s.audio_device
    args.buttons, args.rotation, args.rings = s.buttons, s.rotation, s.rings
    args.pad_seats, args.ring, args.controllers = s.seats, s.ring, s.controllers
    args.records = s
