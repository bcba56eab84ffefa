"""Game scripts: the plain-text record of one game's decisions (shared/spec/game-script.md).

`run_script(text)` parses and replays a script through the engine and returns the finished
`Replay`; any malformed or forbidden statement raises `ScriptError` with its line number.
Nothing here reads files or prints: the command line does that.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from . import actions as A
from . import effects as E
from .engine import Game, composition_error, deal_from_seed
from .errors import RulesError
from .format import Format, find_format
from .roles import DECISION, DECISIONS, ROLES, UNIQUE_ROLES, OptionValue
from .state import Outcome

HEADER = ("format", "players", "option", "deal", "seed")
#: reads a house format file a script names (`format house.toml`); the caller's, not ours
HouseFormats = Callable[[str], Format]
#: in a deal: every seat it does not name takes what the composition has left
REST = "rest"


class ScriptError(Exception):
    """A statement the script format or the rules reject; `line` counts from 1."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line
        self.message = message


@dataclass
class Replay:
    """A replayed game: the final state, and the effects each line produced (for narration)."""

    game: Game
    deal_line: int
    steps: list[tuple[int, str, list[E.Effect]]] = field(default_factory=list)
    dealt: tuple[str, ...] = ()          # the roles as dealt, seat 1 first
    seed: int | None = None              # the header's `seed N`, if it had one
    options: dict[str, OptionValue] = field(default_factory=dict)   # the header's options
    #: each statement after the header, with its line: (line, words)
    statements: list[tuple[int, list[str]]] = field(default_factory=list)

    def outcome(self) -> Outcome:
        """How the replayed game stands (`outcome().to_json()` is the `--json` object)."""
        return self.game.outcome()


def _is_number(word: str) -> bool:
    """ASCII digits with no sign, separator or leading zero (`0` itself is a number)."""
    return word.isascii() and word.isdigit() and (word == "0" or word[0] != "0")


def _int(word: str, line: int, what: str = "a seat number") -> int:
    # Python's int() also reads `1_1`, `+3`, ` 3` and full-width digits: a script does not
    if not _is_number(word):
        raise ScriptError(line, f"expected {what} in ASCII digits, not '{word}'")
    return int(word)


def tokenize(text: str) -> list[tuple[int, list[str]]]:
    """Statements with their line numbers: comments and blank lines dropped."""
    out = []
    for no, raw in enumerate(text.splitlines(), 1):
        words = raw.split("#", 1)[0].split()
        if words:
            out.append((no, words))
    return out


class _Header:
    def __init__(self, house: HouseFormats | None = None) -> None:
        self.house = house
        self.fmt: Format | None = None
        self.fmt_line = 0
        self.players: int | None = None
        self.players_line = 0
        self.options: list[tuple[int, str, str]] = []
        self.deal: dict[int, tuple[str, int]] = {}
        self.deal_line = 0
        self.rest_line = 0          # where the deal said `rest` (0: it did not)
        self.seed: int | None = None
        self.seed_line = 0

    def take(self, line: int, words: list[str]) -> None:
        kw = words[0]
        args = words[1:]
        if kw == "format":
            if len(args) != 1:
                raise ScriptError(line, "format takes one id (yakuza, classic or city) or a "
                                  "house format file (NAME.toml)")
            if self.fmt is not None:
                raise ScriptError(line, "the format is already given")
            try:
                if not args[0].endswith(".toml"):
                    self.fmt = find_format(args[0])
                elif self.house is None:
                    raise ScriptError(line, f"'{args[0]}' is a house format file: it is read "
                                      "beside a script file (table-app replay FILE)")
                else:
                    self.fmt = self.house(args[0])
            except RulesError as exc:
                raise ScriptError(line, str(exc)) from None
            self.fmt_line = line
        elif kw == "players":
            if len(args) != 1:
                raise ScriptError(line, "players takes one number")
            if self.players is not None:
                raise ScriptError(line, "the player count is already given")
            self.players = _int(args[0], line, "a player count")
            self.players_line = line
        elif kw == "option":
            if len(args) != 2:
                raise ScriptError(line, "option takes a name and a value")
            self.options.append((line, args[0], args[1]))
        elif kw == "deal":
            if self.seed is not None:
                raise ScriptError(line, "a script has a deal or a seed, not both")
            if not args:
                raise ScriptError(line, "deal takes SEAT=ROLE pairs")
            for word in args:
                if word == REST:
                    if self.rest_line:
                        raise ScriptError(line, f"the deal says '{REST}' once")
                    self.rest_line = line
                    continue
                seat_text, eq, role = word.partition("=")
                if not eq or not role:
                    raise ScriptError(line, f"expected SEAT=ROLE, not '{word}'")
                seat = _int(seat_text, line)
                if role not in ROLES:
                    raise ScriptError(line, f"unknown role '{role}'")
                if seat in self.deal:
                    raise ScriptError(line, f"seat {seat} is dealt twice")
                self.deal[seat] = (role, line)
            self.deal_line = line
        elif kw == "seed":
            if self.deal or self.rest_line:
                raise ScriptError(line, "a script has a deal or a seed, not both")
            if len(args) != 1 or self.seed is not None:
                raise ScriptError(line, "seed takes one number, once")
            self.seed = _int(args[0], line, "a number")
            self.seed_line = line

    def _deal_the_rest(self, fmt: Format, players: int) -> None:
        # `rest`: the seats the deal does not name take the roles the composition has left,
        # in the order of the role ids, from the lowest seat up. A format that gains a role
        # (in a civilian's place) then leaves a script that names the roles it plays with
        # as it was: the new role goes to a seat the script never named.
        left = Counter(fmt.composition[players])
        for seat in sorted(self.deal):
            role, role_line = self.deal[seat]
            if role not in fmt.roles:
                raise ScriptError(role_line, f"the {fmt.id} format has no role '{role}'")
            if left[role] == 0:
                raise ScriptError(role_line, f"the {fmt.id} format deals "
                                  f"{fmt.composition[players].get(role, 0)} {role} for "
                                  f"{players} players, and this deal names more")
            left[role] -= 1
        roles = [r for r in ROLES for _ in range(max(0, left[r]))]
        free = [s for s in range(1, players + 1) if s not in self.deal]
        if len(roles) != len(free):
            raise ScriptError(self.rest_line, f"'{REST}' has {len(free)} seats left for "
                              f"{len(roles)} roles")
        for seat, role in zip(free, roles, strict=True):
            self.deal[seat] = (role, self.rest_line)

    def options_given(self) -> dict[str, OptionValue]:
        assert self.fmt is not None
        return {name: self.fmt.option_value(name, value) for _, name, value in self.options}

    def build(self, line: int) -> tuple[Game, list[E.Effect], int]:
        """The game the header describes, dealt; `line` is where the first phase begins."""
        if self.fmt is None:
            raise ScriptError(line, "no format: the script must say 'format ID' first")
        fmt = self.fmt
        options: dict[str, OptionValue] = {}
        for opt_line, name, value in self.options:
            try:
                options[name] = fmt.option_value(name, value)
            except RulesError as exc:
                raise ScriptError(opt_line, str(exc)) from None
        players = self.players if self.players is not None else fmt.default_players
        if players is None:
            raise ScriptError(self.fmt_line, f"the {fmt.id} format needs 'players N'")
        try:
            game = Game(fmt, players, options)
        except RulesError as exc:
            raise ScriptError(self.players_line or self.fmt_line, str(exc)) from None
        if self.seed is not None:
            deal = deal_from_seed(fmt, players, self.seed)
            deal_line = self.seed_line
        elif self.deal or self.rest_line:
            for seat, (_, seat_line) in self.deal.items():
                if not 1 <= seat <= players:
                    raise ScriptError(
                        seat_line, f"there is no seat {seat} (seats are 1 to {players})")
            if self.rest_line:
                self._deal_the_rest(fmt, players)
            missing = [s for s in range(1, players + 1) if s not in self.deal]
            if missing:
                raise ScriptError(self.deal_line,
                                  "not dealt: seat " + ", ".join(map(str, missing)))
            deal = A.Deal(tuple(self.deal[s][0] for s in range(1, players + 1)))
            deal_line = self.deal_line
            seen: set[str] = set()
            for s in range(1, players + 1):
                role, role_line = self.deal[s]
                if role not in fmt.roles:
                    raise ScriptError(role_line, f"the {fmt.id} format has no role '{role}'")
                if role in UNIQUE_ROLES and role in seen:
                    raise ScriptError(role_line, f"seat {s}: there is only one {role}")
                seen.add(role)
            why = composition_error(fmt, players, deal.roles)
            if why:
                raise ScriptError(self.deal_line, why)
        else:
            raise ScriptError(line, "no deal: the header needs 'deal S=ROLE ...' or 'seed N'")
        try:
            fx = game.apply(deal)
        except RulesError as exc:
            raise ScriptError(deal_line, str(exc)) from None
        return game, fx, deal_line


def _voters(kw: str, words: list[str], line: int) -> tuple[int, list[int]]:
    """`T: S S S` as (T, [S...]): the colon is attached to the nominee, then a space."""
    if not words or not words[0].endswith(":") or ":" in words[0][:-1]:
        raise ScriptError(line, f"expected '{kw} T: S S S' (the nominee, a colon, a space, "
                          f"the voters)")
    return _int(words[0][:-1], line), _seats(words[1:], line)


def _seats(words: list[str], line: int) -> list[int]:
    for w in words:
        if ":" in w:
            raise ScriptError(line, f"expected a seat number in ASCII digits, not '{w}' "
                              "(one colon, after the nominee)")
    return [_int(w, line) for w in words]


def run_script(text: str, house: HouseFormats | None = None) -> Replay:
    """Replay a whole script; raise ScriptError at the first bad line. `house` reads a house
    format file the header names (`formats_beside(the script's folder)`)."""
    statements = tokenize(text)
    header = _Header(house)
    replay: Replay | None = None
    last_line = statements[-1][0] if statements else 1
    for line, words in statements:
        kw = words[0]
        if kw in HEADER:
            if replay is not None:
                raise ScriptError(line, f"'{kw}' belongs in the header, before the first night")
            header.take(line, words)
            continue
        if replay is None:
            game, fx, deal_line = header.build(line)
            replay = Replay(game, deal_line, [(deal_line, "deal", fx)], tuple(game.roles[1:]),
                            header.seed, header.options_given())
        replay.statements.append((line, words))
        try:
            fx = _statement(replay.game, line, kw, words[1:])
        except RulesError as exc:
            raise ScriptError(line, str(exc)) from None
        replay.steps.append((line, " ".join(words), fx))
    if replay is None:
        game, fx, deal_line = header.build(last_line)
        replay = Replay(game, deal_line, [(deal_line, "deal", fx)], tuple(game.roles[1:]),
                        header.seed, header.options_given())
    else:
        # the script ends where the game stands: its phase closes as if its time ran out
        try:
            fx = replay.game.finish_phase()
        except RulesError as exc:
            raise ScriptError(last_line, str(exc)) from None
        if fx:
            replay.steps.append((last_line, "(end of script)", fx))
    return replay


def _over(game: Game, line: int) -> None:
    if game.phase == "over":
        raise ScriptError(line, f"the game is over: {game.winner} won")


def _close_until(game: Game, steps: tuple[str, ...], fx: list[E.Effect]) -> None:
    """Close the day's running steps until one of `steps` (or the day's end) is reached."""
    while game.phase == "day" and game.step not in steps and game.step != "done":
        fx += game.apply(A.Close())


def _statement(game: Game, line: int, kw: str, args: list[str]) -> list[E.Effect]:
    """One statement after the header: its handler, by its first word."""
    _over(game, line)
    if kw in ("night", "day"):
        return _phase(game, line, kw, args)
    if game.phase == "ready":
        raise ScriptError(line, "the game has not begun: the first phase is 'night'")
    if kw in DECISIONS:
        return _decision(game, line, kw, args)
    handler = _HANDLERS.get(kw)
    if handler is not None:
        return handler(game, line, kw, args)
    if kw == "removeall":
        raise ScriptError(line, "expected 'removeall: S S S' (the colon attached)")
    if kw in ROLES:
        raise ScriptError(line, f"the {kw} has no night decision of its own")
    raise ScriptError(line, f"unknown statement '{kw}'")


def _phase(game: Game, line: int, kw: str, args: list[str]) -> list[E.Effect]:
    """`night` or `day`: the running phase closes as if its time ran out, the next begins."""
    if args:
        raise ScriptError(line, f"'{kw}' takes nothing after it")
    if kw == "night" and game.phase == "night":
        raise ScriptError(line, f"night {game.night_no} has not ended: a 'day' comes first")
    if kw == "day" and game.phase != "night":
        what = "the game has not begun" if game.phase == "ready" else \
            f"day {game.day_no} has not ended"
        raise ScriptError(line, f"a day follows a night: {what}")
    fx = game.finish_phase()
    _over(game, line)      # the phase's end decided the game: no new phase begins
    return fx + game.apply(A.BeginNight() if kw == "night" else A.BeginDay())


def _timeout(game: Game, line: int, kw: str, args: list[str]) -> list[E.Effect]:
    if len(args) != 1:
        raise ScriptError(line, "timeout takes one role")
    if args[0] not in DECISIONS:
        raise ScriptError(line, f"unknown role '{args[0]}'")
    return game.apply(A.Timeout(args[0]))


def _nominate(game: Game, line: int, kw: str, args: list[str]) -> list[E.Effect]:
    if len(args) != 2:
        raise ScriptError(line, "nominate takes two seats: S T")
    return game.apply(A.Nominate(_int(args[0], line), _int(args[1], line)))


def _ballots(game: Game, line: int, kw: str, args: list[str]) -> list[E.Effect]:
    """`vote T: S S`, `revote T: S S`: the day's running steps close until that vote."""
    fx: list[E.Effect] = []
    target, seats = _voters(kw, args, line)
    if game.phase != "day":
        raise ScriptError(line, "votes are cast in the day")
    if kw == "vote":
        _close_until(game, ("vote", "tie", "revote", "removeall", "take"), fx)
    else:
        _close_until(game, ("revote", "removeall", "take"), fx)
        _over(game, line)
    if game.step != kw:
        raise ScriptError(line, _no_vote(game, kw))
    for seat in seats:
        fx += game.apply(A.Ballot(seat, target))
    return fx


def _removeall(game: Game, line: int, kw: str, args: list[str]) -> list[E.Effect]:
    fx: list[E.Effect] = []
    seats = _seats(args, line)
    if game.phase != "day":
        raise ScriptError(line, "the remove-all question is asked in the day")
    _close_until(game, ("removeall", "take"), fx)
    _over(game, line)
    if game.step != "removeall":
        raise ScriptError(line, _no_vote(game, "removeall"))
    for seat in seats:
        fx += game.apply(A.RemoveAllYes(seat))
    return fx


def _take(game: Game, line: int, kw: str, args: list[str]) -> list[E.Effect]:
    fx: list[E.Effect] = []
    if len(args) != 2:
        raise ScriptError(line, "take takes two seats: S T")
    if game.phase == "day" and game.step in ("vote", "revote", "removeall"):
        fx += game.apply(A.Close())
        _over(game, line)
    return fx + game.apply(A.Take(_int(args[0], line), _int(args[1], line)))


def _host(game: Game, line: int, kw: str, args: list[str]) -> list[E.Effect]:
    """`foul S`, `disqualify S`: the host's commands."""
    if len(args) != 1:
        raise ScriptError(line, f"{kw} takes one seat")
    seat = _int(args[0], line)
    return game.apply(A.Foul(seat) if kw == "foul" else A.Disqualify(seat))


#: the statements after the header (but the phases and the night decisions), by first word
_HANDLERS: dict[str, Callable[[Game, int, str, list[str]], list[E.Effect]]] = {
    "timeout": _timeout, "nominate": _nominate, "vote": _ballots, "revote": _ballots,
    "removeall:": _removeall, "take": _take, "foul": _host, "disqualify": _host,
}


def _no_vote(game: Game, kw: str) -> str:
    if game.step == "done" and not game.nominators and game.opt["vote"] == "nominees":
        return "nobody is nominated, so there is no vote"
    if kw == "vote":
        return "the vote is over" if game.step != "done" else "no vote is open"
    if kw == "revote":
        if game.opt["tie"] != "revote":
            return f"the {game.fmt.id} format has no repeat vote"
        return "there is no repeat vote: the vote was not tied"
    if game.opt["tie"] != "revote":
        return f"the {game.fmt.id} format has no remove-all question"
    return "there is no remove-all question: the repeat vote was not tied"


def _decision(game: Game, line: int, kw: str, args: list[str]) -> list[E.Effect]:
    mode = ""
    modes = [m for m, _ in DECISION[kw].modes]
    if modes:
        if len(args) == 1 and args[0] == "-":
            return game.apply(A.Decide(kw, None))
        if len(args) != 2 or args[0] not in modes:
            raise ScriptError(line, "expected " + " or ".join(f"'{kw} {m} T'" for m in modes))
        mode, args = args[0], args[1:]
    if len(args) != 1:
        raise ScriptError(line, f"expected '{kw} T' or '{kw} -'")
    target = None if args[0] == "-" else _int(args[0], line)
    return game.apply(A.Decide(kw, target, mode))
