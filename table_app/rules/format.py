"""Formats: a rule set as data (a TOML file) plus small hooks (a Python class).

The data says who plays, who wakes in which order, how long everything lasts and which rule
decisions apply; the hooks hold what data cannot say well (how a side wins). A club copies a
TOML file, changes it and loads it with `load_format(path)`; `find_format(id)` gives a built-in.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, ClassVar

from .errors import FormatError, InvalidAction
from .roles import DECISIONS, OPTION_DEFAULTS, OPTION_TYPES, ROLE, ROLES, OptionValue
from .tally import Tally

BUILTIN_FORMATS = ("yakuza", "classic", "city")


@dataclass(frozen=True, slots=True)
class Window:
    """One night window: which roles open their eyes and what they may decide."""

    name: str
    wakes: tuple[str, ...]
    decisions: tuple[str, ...]
    timer: str
    night1_timer: str | None
    from_night: int


class Format:
    """A rule set. Subclasses are the hooks; instances carry the data of one TOML file."""

    hooks: ClassVar[str] = "base"

    def __init__(self, data: Mapping[str, Any], source: str) -> None:
        self.source = source
        try:
            self._load(data)
        except FormatError as exc:
            raise FormatError(f"{source}: {exc}") from None
        except (KeyError, TypeError, ValueError, AttributeError, OverflowError) as exc:
            raise FormatError(f"{source}: malformed format data ({exc!r})") from None

    # -- loading -------------------------------------------------------------------------
    def _load(self, data: Mapping[str, Any]) -> None:
        """Read and check every section (each reader below is one section, and says which
        entry is wrong)."""
        self._players(data)
        self._roles(data)
        self._composition(data)
        self._timers(data)
        self.options: dict[str, OptionValue] = dict(OPTION_DEFAULTS)
        for name, value in dict(data.get("options", {})).items():
            self.options[name] = check_option(name, value)
        self._night(data)

    def _players(self, data: Mapping[str, Any]) -> None:
        self.id: str = str(data["id"])
        self.title: str = str(data.get("title", self.id))
        players = data["players"]
        self.min_players: int = int(players["min"])
        self.max_players: int = int(players["max"])
        default = players.get("default")
        self.default_players: int | None = None if default is None else int(default)
        if not 1 <= self.min_players <= self.max_players:
            raise FormatError(f"players: min {self.min_players} and max {self.max_players}")

    def _roles(self, data: Mapping[str, Any]) -> None:
        if "teams" in data:
            raise FormatError("teams: a role's side is part of the role now; list the "
                              "format's roles with roles = [...] instead")
        names = data["roles"]
        if not isinstance(names, list) or not names:
            raise FormatError("roles: a list of role ids")
        self.role_order: tuple[str, ...] = tuple(str(r) for r in names)
        self.team_of: dict[str, str] = {}
        for role in self.role_order:
            if role not in ROLE:
                raise FormatError(f"roles: no rule knows the role '{role}'")
            if role in self.team_of:
                raise FormatError(f"roles: '{role}' is listed twice")
            self.team_of[role] = ROLE[role].side
        self.roles = frozenset(self.team_of)
        #: side -> its roles, sides in the order the roles list them
        self.teams: dict[str, tuple[str, ...]] = {}
        for role in self.role_order:
            side = self.team_of[role]
            self.teams[side] = self.teams.get(side, ()) + (role,)

    def _composition(self, data: Mapping[str, Any]) -> None:
        self.composition: dict[int, dict[str, int]] = {}
        for key, counts in dict(data["composition"]).items():
            n = _whole(key, f"composition: '{key}' is not a player count")
            if not isinstance(counts, dict):
                raise FormatError(f"composition.{key}: a table of role = count")
            for role, count in counts.items():
                if role not in ROLES:
                    raise FormatError(f"composition.{key}: no rule knows the role '{role}'")
                if role not in self.roles:
                    raise FormatError(f"composition.{key}: role '{role}' is not in roles")
                if isinstance(count, bool) or not isinstance(count, int) or count < 0:
                    raise FormatError(f"composition.{key}: '{role}' needs a whole number")
            total = sum(int(c) for c in counts.values())
            if total != n:
                raise FormatError(f"composition.{key}: the roles add up to {total}, not {n}")
            self.composition[n] = {r: int(c) for r, c in counts.items() if int(c)}
        #: each seat count's roles, sorted: a deal is the composition when its roles sort to this
        self.sorted_roles = {n: tuple(sorted(r for r, c in counts.items() for _ in range(c)))
                             for n, counts in self.composition.items()}
        for n in range(self.min_players, self.max_players + 1):
            if n not in self.composition:
                raise FormatError(f"composition: no row for {n} players")

    def _timers(self, data: Mapping[str, Any]) -> None:
        self.timers: dict[str, int] = {}
        for k, v in dict(data["timers"]).items():
            if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 3600:
                raise FormatError(f"timers.{k}: a whole number of seconds from 0 to 3600")
            self.timers[str(k)] = v

    def _night(self, data: Mapping[str, Any]) -> None:
        self.windows: tuple[Window, ...] = tuple(self._window(w) for w in data["night"])
        seen: set[str] = set()
        for w in self.windows:
            for d in w.decisions:
                if d in seen:
                    raise FormatError(f"night: decision '{d}' is in two windows")
                seen.add(d)
        self.window_of: dict[str, Window] = {d: w for w in self.windows for d in w.decisions}
        for needed in ("speech",):
            if needed not in self.timers:
                raise FormatError(f"timers: '{needed}' is missing")

    def _window(self, w: Mapping[str, Any]) -> Window:
        name = str(w["window"])
        wakes = tuple(w["wakes"])
        decisions = tuple(w.get("decisions", ()))
        for role in wakes:
            if role not in self.roles:
                raise FormatError(f"night window '{name}': role '{role}' is not in the format")
        for d in decisions:
            if d not in DECISIONS:
                raise FormatError(f"night window '{name}': no rule knows the decision '{d}'")
            if DECISIONS[d] not in self.roles:
                raise FormatError(
                    f"night window '{name}': decision '{d}' needs the role "
                    f"'{DECISIONS[d]}', which is not in the format")
        timer = str(w["timer"])
        night1 = w.get("night1_timer")
        for t in (timer, night1):
            if t is not None and t not in self.timers:
                raise FormatError(f"night window '{name}': no timer named '{t}'")
        return Window(name, wakes, decisions, timer, None if night1 is None else str(night1),
                      int(w.get("from_night", 1)))

    # -- queries the engine uses ---------------------------------------------------------
    def check_players(self, n: int) -> None:
        if not self.min_players <= n <= self.max_players:
            if self.min_players == self.max_players:
                raise InvalidAction(
                    f"the {self.id} format is for {self.min_players} players, not {n}")
            raise InvalidAction(
                f"the {self.id} format is for {self.min_players} to {self.max_players} "
                f"players, not {n}")

    def roles_for(self, n: int) -> list[str]:
        """The roles dealt at a table of `n` seats, in a fixed order (the deal shuffles them)."""
        self.check_players(n)
        return [role for role, count in self.composition[n].items() for _ in range(count)]

    def option_value(self, name: str, text: str) -> OptionValue:
        """Parse an option as a game script or the command line writes it."""
        if name not in OPTION_TYPES:
            raise InvalidAction(f"unknown option '{name}'")
        kind, _ = OPTION_TYPES[name]
        value: OptionValue
        if kind is bool:
            low = text.lower()
            if low in ("true", "yes", "on", "1"):
                value = True
            elif low in ("false", "no", "off", "0"):
                value = False
            else:
                raise InvalidAction(f"option {name} takes true or false, not '{text}'")
        elif kind is int:
            try:
                value = int(text)
            except ValueError:
                raise InvalidAction(f"option {name} takes a whole number, not '{text}'") from None
        elif kind is list:
            value = [v for v in text.split(",") if v and v != "-"]
        else:
            value = text
        try:
            return check_option(name, value)
        except FormatError as exc:
            raise InvalidAction(str(exc)) from None

    # -- hooks ---------------------------------------------------------------------------
    def winner(self, t: Tally) -> str | None:
        """The spec's win order: city, then the Yakuza clan, then the maniac, then the Mafia.

        A side is armed while it can still kill at night (the Mafia while one of it may
        lead, the clan while its killer lives, the maniac while he has a kill left)."""
        c = t.count
        mafia, clan = c.get("mafia", 0), c.get("yakuza", 0)
        maniac, city = c.get("maniac", 0), c.get("city", 0)
        if mafia == 0 and clan == 0 and maniac == 0:
            return "city"
        if clan and ((mafia == 0 and clan >= city) or (city == 0 and clan >= mafia)):
            return "yakuza"
        if maniac and t.alive <= 2:
            # 1x1, or alone after a night that kills the last two others
            return "maniac"
        if mafia:
            rest = t.alive - mafia
            if mafia > rest:
                return "mafia"
            # level with the rest: enough only while no other team can still kill
            if mafia == rest and not any(s not in ("mafia", "city") for s in t.armed):
                return "mafia"
        return None


class YakuzaFormat(Format):
    """MAFIA.GE's Yakuza format: the general win order with the Yakuza clan."""

    hooks = "yakuza"


class ClassicFormat(Format):
    """The Georgian classic game: the general win order with the maniac."""

    hooks = "classic"


class CityFormat(Format):
    """The city game: its own three win lines."""

    hooks = "city"

    def winner(self, t: Tally) -> str | None:
        c = t.count
        mafia, killer = c.get("mafia", 0), c.get("killer", 0)
        if mafia == 0 and killer == 0:
            return "city"
        if killer and t.alive == 1:
            return "killer"
        if mafia and mafia >= t.alive - mafia:
            return "mafia"
        return None


HOOKS: dict[str, type[Format]] = {
    cls.hooks: cls for cls in (YakuzaFormat, ClassicFormat, CityFormat)}


def check_option(name: str, value: object) -> OptionValue:
    """Check one option's value against the registry; return it as the engine wants it."""
    if name not in OPTION_TYPES:
        raise FormatError(f"unknown option '{name}'")
    kind, allowed = OPTION_TYPES[name]
    if kind is bool:
        if not isinstance(value, bool):
            raise FormatError(f"option {name} takes true or false")
        return value
    if kind is int:
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise FormatError(f"option {name} takes a whole number")
        return value
    if kind is list:
        if not isinstance(value, Sequence) or isinstance(value, str):
            raise FormatError(f"option {name} takes a list")
        items = [str(v) for v in value]
        for v in items:
            if allowed and v not in allowed:
                raise FormatError(f"option {name}: '{v}' is not one of {', '.join(allowed)}")
        return items
    if not isinstance(value, str) or (allowed and value not in allowed):
        raise FormatError(f"option {name} takes one of {', '.join(allowed)}")
    return value


def _whole(key: object, why: str) -> int:
    try:
        n = int(str(key))
    except ValueError:
        raise FormatError(why) from None
    if n < 1:
        raise FormatError(why)
    return n


def _build(data: Mapping[str, Any], source: str) -> Format:
    hooks = str(data.get("hooks", "base"))
    cls = HOOKS.get(hooks)
    if cls is None:
        raise FormatError(f"{source}: unknown hooks '{hooks}' (one of {', '.join(HOOKS)})")
    return cls(data, source)


_CACHE: dict[str, Format] = {}


def find_format(format_id: str) -> Format:
    """The built-in format with this id (`yakuza`, `classic`, `city`)."""
    fmt = _CACHE.get(format_id)
    if fmt is None:
        if format_id not in BUILTIN_FORMATS:
            raise InvalidAction(
                f"unknown format '{format_id}' (one of {', '.join(BUILTIN_FORMATS)})")
        text = resources.files(__package__).joinpath("formats", f"{format_id}.toml").read_text(
            encoding="utf-8")
        fmt = _build(tomllib.loads(text), f"{format_id}.toml")
        _CACHE[format_id] = fmt
    return fmt


def load_format(path: str | Path) -> Format:
    """A house variant from a TOML file a club wrote (a copy of a built-in, changed)."""
    p = Path(path)
    try:
        data = tomllib.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise FormatError(f"{p}: no such format file") from None
    except IsADirectoryError:
        raise FormatError(f"{p}: a folder, not a format file") from None
    except OSError as exc:
        raise FormatError(f"{p}: cannot read it ({exc.strerror or exc})") from None
    except UnicodeDecodeError as exc:
        raise FormatError(f"{p}: not UTF-8 text (byte {exc.start})") from None
    except tomllib.TOMLDecodeError as exc:
        raise FormatError(f"{p}: not valid TOML: {exc}") from None
    except RecursionError:             # brackets nested thousands deep
        raise FormatError(f"{p}: not valid TOML: nested too deep") from None
    return _build(data, str(p))


def club_formats(folder: str | Path) -> tuple[dict[str, tuple[Format, Path]], list[str]]:
    """A club's own formats: every `*.toml` in `folder` by its format's id, with its file;
    and, one line each, the files that cannot be read (their mistake, naming the file), or
    whose id is a built-in's or another file's (left out, not played by mistake)."""
    found: dict[str, tuple[Format, Path]] = {}
    bad: list[str] = []
    base = Path(folder)
    if not base.is_dir():
        return found, bad
    for f in sorted(base.glob("*.toml")):
        try:
            fmt = load_format(f)
        except FormatError as exc:
            bad.append(str(exc))
            continue
        if fmt.id in BUILTIN_FORMATS or fmt.id in found:
            bad.append(f"{f}: id '{fmt.id}' is taken (by a built-in format or "
                       f"{found[fmt.id][1].name if fmt.id in found else 'the app'})")
            continue
        found[fmt.id] = (fmt, f)
    return found, bad


def formats_beside(folder: str | Path) -> Callable[[str], Format]:
    """What a game script's `format house.toml` reads: a format file named relative to the
    script's own folder (the script's parser is handed this, and reads no file itself)."""
    base = Path(folder)
    return lambda name: load_format(base / name)


def format_from_text(text: str, source: str = "<format>") -> Format:
    """A format from TOML text (what `load_format` does once the file is read)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise FormatError(f"{source}: not valid TOML: {exc}") from None
    except RecursionError:             # brackets nested thousands deep
        raise FormatError(f"{source}: not valid TOML: nested too deep") from None
    return _build(data, source)
