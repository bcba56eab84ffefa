"""`table-app records ...`: the club's games, players, statistics, rating and protocol sheets."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from .game import RecordsError

if TYPE_CHECKING:
    from .store import Records


def add_parser(sub: argparse._SubParsersAction) -> None:   # type: ignore[type-arg]
    r = sub.add_parser("records", help="the club's finished games, players, stats, rating")
    r.add_argument("--db", help="the records' database URL (default: the settings', else "
                                "the SQLite file in the table's data folder)")
    rs = r.add_subparsers(dest="action", required=True)
    ls = rs.add_parser("list", help="the games, newest last")
    _filters(ls)
    show = rs.add_parser("show", help="one game: its seats, how it went and its outcome")
    show.add_argument("id", help="the game's id (its first characters are enough)")
    ex = rs.add_parser("export", help="every game (filtered) as CSV or JSON")
    ex.add_argument("--format", dest="as_format", choices=("csv", "json"), default="json")
    _filters(ex, "--rules")
    im = rs.add_parser("import", help="games from a JSON export (nothing is doubled)")
    im.add_argument("file")
    st = rs.add_parser("stats", help="per player and per format")
    _filters(st)
    ra = rs.add_parser("rating", help="the players' rating (openskill, Plackett-Luce)")
    ra.add_argument("--club", help="this club's games only")
    ra.add_argument("--season", help="a year (2026), a month (2026-11) or a span "
                                     "(2026-09-01..2026-12-31)")
    pr = rs.add_parser("protocol", help="a game's protocol sheet as PDF (and JSON)")
    pr.add_argument("id")
    pr.add_argument("--out", help="the PDF's path (default: protocol-<id>.pdf in the table's "
                    "data folder, ~/.local/state/table-app/protocols)")
    pr.add_argument("--json", action="store_true", help="print the sheet's data as JSON")
    rn = rs.add_parser("rename", help="a player's new spelling (merges into an existing one)")
    rn.add_argument("old")
    rn.add_argument("new")
    at = rs.add_parser("attribute", help="say after the fact who sat at a seat")
    at.add_argument("id")
    at.add_argument("seat", type=int)
    at.add_argument("name")
    da = rs.add_parser("date", help="set when a game ended (a Pi without a clock guessed)")
    da.add_argument("id")
    da.add_argument("when", nargs="+", help="as 2026-12-01 21:30 (this Pi's time zone)")
    sy = rs.add_parser("sync", help="send the games the league's database lacks")
    sy.add_argument("--to", help="the league's URL (default: the settings' records.url)")
    r.set_defaults(func=main)


def _filters(p: argparse.ArgumentParser, fmt_flag: str = "--format") -> None:
    p.add_argument("--player")
    p.add_argument(fmt_flag, dest="fmt", help="yakuza, classic, city, or a house format's id")
    p.add_argument("--since", help="first date, YYYY-MM-DD")
    p.add_argument("--until", help="last date, YYYY-MM-DD")


def _open(url: str | None) -> Records:
    # (SQLAlchemy loads here, not when the app's command line is built: it was a third of
    # the table's start to its setup screen)
    from .. import settings as st
    from .store import Records
    s = st.load_settings()
    return Records(url or s.records_local or None)


def main(args: argparse.Namespace) -> int:
    try:
        code = _run(args)
        sys.stdout.flush()
        return code
    except RecordsError as e:
        print(f"table-app: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # the reader stopped reading (`records show ... | head`): nothing more to say, and
        # no traceback; what is left unflushed goes nowhere
        import os
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


def _column(names: Iterable[str]) -> int:
    """A name column's width: the longest name in it (a 30-letter name ran into the next
    column of a fixed 20), and no less than 20, so short names line up as before."""
    return max([20, *(len(n) for n in names)])


def _run(args: argparse.Namespace) -> int:
    from .. import settings as st
    try:
        s = st.load_settings()
    except st.SettingsError as e:
        raise RecordsError(str(e)) from None
    db = _open(args.db)
    filters = {k: getattr(args, k2) for k, k2 in (("player", "player"), ("fmt", "fmt"),
                                                  ("since", "since"), ("until", "until"))
               if getattr(args, k2, None)}
    a = args.action
    if a == "list":
        for g in db.games(**filters):
            names = ", ".join(x.name for x in g.seats if not x.name.startswith("seat "))
            # (a date the Pi guessed, its clock not set, is marked ~)
            mark = "~" if g.dated == "guessed" else " "
            print(f"{g.id[:8]} {mark}{g.ended[:16]}  {g.format:8} {g.players:2}  "
                  f"winner {g.winner or '-':8}  {names}")
    elif a == "show":
        g = db.game(args.id)
        from .protocol import _title, protocol_data, spoken, w
        d = protocol_data(g)
        lang = g.lang                    # the game's language, as its sheet and its voice
        print(f"{g.id}  {g.ended}  {_title(g.format, lang)}, {g.players} "
              f"{w('players', lang)}, {w('host', lang)}: {g.host or '-'}")
        wide = _column(x["name"] for x in d["seats"])
        for x in d["seats"]:
            # (fouls last: after the padded role, ", fouls: 2" stood six spaces from it)
            fouls = f"  {w('fouls', lang)}: {x['fouls']}" if x["fouls"] else ""
            print(f"  {x['seat']:2}  {x['name']:{wide}} {x['role']:14} {x['out']}".rstrip()
                  + fouls)
        for c in d["checks"]:
            print(f"  {w('checks', lang)}, {c['phase']}: {c['by']} -> {c['seat']}: "
                  f"{c['result']}")
        for line in spoken(g.script, lang):
            print("  " + line)
        print(f"{w('winner', lang)}: {d['winner']}")
    elif a == "export":
        sys.stdout.write(db.export(args.as_format, **filters))
    elif a == "import":
        try:
            text = Path(args.file).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            raise RecordsError(f"{args.file}: {e}") from None
        added, same = db.import_json(text)
        print(f"{added} games added, {same} already there")
    elif a == "stats":
        from .rating import player_stats, side_rates
        games = db.games(**filters)
        print(f"{len(games)} games")
        stats = player_stats(games)
        wide = _column(p.name for p in stats)
        for p in stats:
            sides = ", ".join(f"{k} {v[1]}/{v[0]}" for k, v in sorted(p.by_side.items()))
            roles = ", ".join(f"{k} {v[1]}/{v[0]}" for k, v in sorted(p.by_role.items()))
            print(f"  {p.name:{wide}} games {p.games:3}  wins {p.wins:3}  survived {p.survived:3}"
                  f"  fouls {p.fouls:2}  by side: {sides}  by role: {roles}")
        for (fmt, n), rates in side_rates(games).items():
            text = ", ".join(f"{side} {r:.0%} [{lo:.0%}-{hi:.0%}]"
                             for side, (r, lo, hi) in rates.items())
            print(f"  {fmt} {n} seats: {text}")
    elif a == "rating":
        from .rating import rating, season, standings
        games = season(db.games(club=args.club), args.season)
        rated = {r.name: r for r in rating(games)}
        # the points table ranks; each figure said with how it was made
        table = standings(games)
        wide = _column(standing.name for standing in table)
        for i, standing in enumerate(table, 1):
            r = rated.get(standing.name)
            skill = (f"openskill {r.ordinal:6.2f} (mu {r.mu:.2f} - 3 x sigma {r.sigma:.2f})"
                     if r is not None else "openskill -")
            print(f"{i:3}. {standing.name:{wide}} points {standing.points:3} = wins "
                  f"{standing.wins} of {standing.games} games ({standing.share:.0%})   {skill}")
        print(f"{len(games)} games. Ranked by points (1 a game the player's side won), then "
              f"by the share of games won. openskill (Plackett-Luce: each game's sides as "
              f"teams, the winner first) is shown beside it: mu - 3 x sigma, the skill it "
              f"is sure of; sigma shrinks slowly at big tables.")
    elif a == "protocol":
        from .protocol import protocol_data, protocol_pdf
        g = db.game(args.id)
        if args.json:
            print(json.dumps(protocol_data(g), ensure_ascii=False, indent=1))
        # every role of the game: into the table's own data folder, unless the host names
        # a path (a sheet left in whatever folder he stood in was readable by anyone)
        from ..paths import state_dir
        out = Path(args.out) if args.out else \
            state_dir() / "protocols" / f"protocol-{g.id[:8]}.pdf"
        protocol_pdf(g, out)
        print(f"wrote {out}", file=sys.stderr if args.json else sys.stdout)
    elif a == "rename":
        db.rename(args.old, args.new)
    elif a == "attribute":
        db.attribute(db.game(args.id).id, args.seat, args.name)
    elif a == "date":
        g = db.redate(args.id, " ".join(args.when))
        print(f"{g.id[:8]} now ended {g.ended}")
    elif a == "sync":
        url = args.to or s.records_url
        if not url:
            raise RecordsError("no league database: give --to URL or set records.url")
        from .store import Records
        from .sync import send
        got = send(db, Records(url))
        print(f"{got.sent} games sent, {got.same} already there")
        for gid, why in got.held:
            print(f"game {gid} is not sent, and waits: {why}")
        if got.held:
            return 1
    return 0
