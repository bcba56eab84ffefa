"""The `table-app` command: run the table, replay a game script, simulate games."""

from __future__ import annotations

import argparse
import json
import os
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path

from .paths import note_failed_start, take_failed_starts

# (the formats alone: the engine and the scripts are imported by the commands that play,
# so the table's start to its setup screen does not wait for them)
from .rules import BUILTIN_FORMATS, Format, RulesError, find_format, formats_beside, load_format
from .settings import BACKENDS as PAD_BACKENDS
from .words import LANGS

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")      # no banner before our words
# gpiozero says so when it falls back off a Pi; the table says what it means, once
warnings.filterwarnings("ignore", module="gpiozero")


def cmd_replay(args: argparse.Namespace) -> int:
    try:
        with open(args.file, encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as exc:
        print(f"table-app: cannot read {args.file}: {exc}", file=sys.stderr)
        return 2
    from .rules.narrate import narrate
    from .rules.script import ScriptError, run_script
    try:
        replay = run_script(text, formats_beside(Path(args.file).parent))
    except ScriptError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(replay.outcome().to_json()))
    else:
        print("\n".join(narrate(replay)))
        if replay.game.winner is None:
            print(f"The game goes on ({replay.game.phase_label()}).")
    return 0


def _format(args: argparse.Namespace) -> Format:
    if getattr(args, "format_file", None):
        return load_format(args.format_file)
    return find_format(args.format)


def cmd_simulate(args: argparse.Namespace) -> int:
    from .tools import simulate

    try:
        fmt = _format(args)
        players = args.players or fmt.default_players or fmt.min_players
        fmt.check_players(players)
    except RulesError as exc:
        print(f"table-app: {exc}", file=sys.stderr)
        return 2
    if args.jobs is not None and args.jobs < 1:
        print("table-app: --jobs takes 1 or more", file=sys.stderr)
        return 2
    return simulate.main(fmt, players, args.games, args.seed, args.policy,
                         True if args.progress else None, args.jobs)


def cmd_observe(args: argparse.Namespace) -> int:
    from .tools import observe

    return observe.main(args.file, args.press_at, args.seed, args.lang)


def cmd_firmware(args: argparse.Namespace) -> int:
    from .admin.firmware import install

    return install(args.port, args.dry_run)


def cmd_check(args: argparse.Namespace) -> int:
    from .admin import check
    from .settings import SettingsError, apply, load_settings

    try:
        apply(args, load_settings())
    except SettingsError as exc:
        print(f"table-app: {exc}", file=sys.stderr)
        return 2
    try:
        return check.main(args.pads, args.wait, not args.no_write, args.audio_device or None,
                          sound=not args.no_sound)
    except KeyboardInterrupt:
        print("table-app: check stopped; nothing written", file=sys.stderr)
        return 130


def cmd_play(args: argparse.Namespace) -> int:
    from . import run
    from .pads import PadError
    from .settings import SettingsError, apply, load_settings
    from .table.journal import JournalError

    if args.players is not None and args.players < 1:
        print("table-app: --players takes 1 or more", file=sys.stderr)
        return 2
    chosen = bool(args.format or args.format_file)      # on the command line: a game now
    try:
        # the table opens whatever the file says (systemd would only start it again and
        # again): each mistaken setting at its default, the mistake on the host's screen
        settings = load_settings(lenient=not args.demo)
    except SettingsError as exc:
        print(f"table-app: {exc}", file=sys.stderr)
        return 2
    args.notices = [("settings_bad", m) for m in settings.mistakes]
    # the settings' format is the one a new game offers first on the setup screen; the demo
    # has no setup screen and plays it
    args.offer_format = settings.format if settings.format in BUILTIN_FORMATS else None
    settings.format = None
    # a --lang on the command line is the host's word for the game it resumes too
    args.lang_given = args.lang is not None
    if not args.demo and not chosen:
        # the setup screen offers first what the host chose last time (a club plays the
        # same game night after night), before the settings' defaults
        from .screen.setup import load_choices
        chose = load_choices()
        args.offer_format = chose.get("format", args.offer_format)
        for name in ("players", "lang", "deal"):
            if getattr(args, name, None) is None and name in chose:
                setattr(args, name, chose[name])
    apply(args, settings)
    if args.demo and not chosen:
        args.format = args.offer_format or "yakuza"
    args.lang = args.lang or "en"
    args.deal = args.deal or "app"
    args.volume = 0.9 if args.volume is None else args.volume
    if args.demo or chosen:
        # checked before anything is written: a refused start never reaches the journal
        refused = _start_refused(args)
        if refused:
            print(f"table-app: {refused}", file=sys.stderr)
            return 2
    taken: list[str] = []
    if not args.demo:
        taken = take_failed_starts()
        if taken:
            # the host learns on the setup screen why the table did not come up before
            args.notices.append(("failed_starts", f"{len(taken)} × {taken[-1]}"))
    from . import systemd
    try:
        if args.demo:
            return run.demo(args)
        from .window.table import play
        return play(args)
    except (RulesError, ValueError, OSError, JournalError, PadError) as exc:
        print(f"table-app: {exc}", file=sys.stderr)
        if not args.demo:
            # what this start took and never showed goes back, before its own reason
            note_failed_start(str(exc), [] if systemd.ready else taken)
        return 2
    except KeyboardInterrupt:             # Ctrl-C anywhere: a quiet stop, the journal kept
        # (before BaseException's clause, which re-raised it: `table-app`'s Ctrl-C on the
        # setup screen ended in a traceback)
        print("table-app: stopped (the game resumes where it was)", file=sys.stderr)
        return 130
    except BaseException:
        if not systemd.ready:
            note_failed_start("", taken)          # (systemd's ExecStopPost adds its line)
        raise


def _table_seats(args: argparse.Namespace) -> int:
    """How many pads the table this command runs has: the demo's bots press as many fake
    pads as the game has players, the simulator has the biggest table's 30, and a real
    table has the settings' `pads.seats` (12 a controller)."""
    from firmware_bridge.ringdraw import MAX_SEATS

    from .pads.factory import backend_kind

    if args.demo or backend_kind(args.pads) == "sim":
        return MAX_SEATS
    return int(getattr(args, "pad_seats", None) or 12)


def _start_refused(args: argparse.Namespace) -> str | None:
    """Why the game the command line asks for cannot start at this table's pads (None if
    it can)."""
    from .pads import PadError
    from .table.app import check_start
    try:
        check_start(args.format, args.players, args.lang, args.deal, args.format_file,
                    _table_seats(args))
    except (RulesError, ValueError, PadError) as exc:
        return str(exc)
    return None


def _table_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--format", choices=BUILTIN_FORMATS,
                   help="yakuza (default), classic or city; without it a new game opens on "
                        "the setup screen")
    p.add_argument("--format-file", help="a house variant (a format TOML file)")
    p.add_argument("--players", type=int,
                   help="players at the table: 4 to 30 in the city format (a table of more "
                        "than 12 has pads.seats and two or three pad controllers)")
    p.add_argument("--lang", default=None, choices=LANGS,
                   help="the narration's and the screen's language (default: the settings', "
                        "else en)")
    p.add_argument("--deal", default=None, choices=("app", "cards"),
                   help="app: the app deals and each player holds his button to see his "
                        "role; cards: the host deals cards and roles register on night 0")
    p.add_argument("--seed", type=int, help="deal from this seed (default: a new one)")
    p.add_argument("--journal", help="the game's journal (resumed if unfinished)")
    p.add_argument("--new", action="store_true", help="start a new game, discard the journal")
    p.add_argument("--pads", choices=PAD_BACKENDS, default=None)
    p.add_argument("--voice-pack", help="a folder of recorded clips that replace the voice")
    p.add_argument("--volume", type=float, default=None, help="the voice's volume, 0 to 1")
    p.add_argument("--silent", action="store_true", help="print the narration, play nothing")
    p.add_argument("--fullscreen", action="store_true",
                   help="the host's screen fills the display (the Pi's panel, a kiosk)")
    p.add_argument("--public-window", action="store_true",
                   help="open the room's own window (for a second display or a projector); "
                        "V opens and closes it")
    p.add_argument("--demo", action="store_true",
                   help="headless: bot players press fake pads; prints the narration")
    p.add_argument("--speed", type=float, default=20.0,
                   help="demo: game seconds per real second")
    p.add_argument("--fast", action="store_true", help="demo: a fake clock, no waiting")
    p.add_argument("--pace", type=float, default=0.0,
                   help="demo --fast: real seconds to spend on each input")
    p.add_argument("--script-out", help="demo: write the game's script here at the end")
    p.add_argument("--no-record", action="store_true",
                   help="keep this table's games out of the records")
    p.set_defaults(func=cmd_play)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="table-app", description=__doc__)
    _table_options(p)
    sub = p.add_subparsers(dest="command")
    _table_options(sub.add_parser("play", help="run the table (the default)"))
    r = sub.add_parser("replay", help="replay a game script")
    r.add_argument("file")
    r.add_argument("--json", action="store_true", help="print the outcome as one JSON object")
    r.set_defaults(func=cmd_replay)

    s = sub.add_parser("simulate", help="play many bot games and print each side's win rate")
    s.add_argument("--format", default="yakuza", choices=BUILTIN_FORMATS)
    s.add_argument("--format-file", help="a house variant (a format TOML file)")
    s.add_argument("--players", type=int)
    s.add_argument("--games", type=int, default=1000)
    s.add_argument("--seed", type=int, default=0)
    s.add_argument("--policy", choices=("random", "informed"), default="random",
                   help="random legal actions, or bots that act on what their side knows")
    s.add_argument("--progress", action="store_true", help="show the progress bar")
    s.add_argument("--jobs", type=int, default=None,
                   help="processes to play in (default: every core); the same table for any")
    s.set_defaults(func=cmd_simulate)

    o = sub.add_parser("observe", help="play a game script at a virtual table and print "
                                        "what the room perceives (sounds, rings, public screen)")
    o.add_argument("file")
    o.add_argument("--press-at", type=float, default=3.0,
                   help="seconds into its window a night decision starts being pressed")
    o.add_argument("--seed", type=int, default=0,
                   help="the table's own randomness, for scripts with deal lines")
    o.add_argument("--lang", default=None, choices=LANGS,
                   help="the narration's language (default: the TABLE_APP_SETTINGS file's "
                        "lang, else en)")
    o.set_defaults(func=cmd_observe)

    from .records.cli import add_parser as records_parser
    records_parser(sub)

    c = sub.add_parser("check", help="test the whole table: every ring and button, which "
                       "button is whose, each ring's turn, the link and the sound")
    c.add_argument("--pads", choices=PAD_BACKENDS, default=None)
    c.add_argument("--wait", type=float, default=30.0,
                   help="seconds to wait for each ring's press (default 30)")
    c.add_argument("--no-write", action="store_true",
                   help="report only; leave the settings as they are")
    c.add_argument("--no-sound", action="store_true", help="skip the test sound")
    c.set_defaults(func=cmd_check)

    f = sub.add_parser("firmware", help="the pad controller's firmware")
    fsub = f.add_subparsers(dest="action", required=True)
    inst = fsub.add_parser("install", help="put the firmware on a Pico, or update it (the "
                           "running controller restarts into safe mode first)")
    inst.add_argument("--port", help="the Pico's serial port (default: found by USB id)")
    inst.add_argument("--dry-run", action="store_true", help="print the mpremote command")
    inst.set_defaults(func=cmd_firmware)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    code: int = args.func(args)
    return code


if __name__ == "__main__":
    sys.exit(main())
