"""The host's commands at the table: start, pause, resume, skip, foul, disqualify, act for a
seat whose pad is broken, and assign a role at a card deal. A command the rules refuse, or a
malformed one, becomes a note on the host's screen, never a crash."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from ..rules import RulesError
from ..rules import actions as A
from ..sound.catalogue import LANGS
from .context import Control, TableContext
from .kinds import TableStage


class Dealing(Protocol):
    """What the host's commands ask of the deal (deal.DealFlow, handed over by the table: no
    flow imports another)."""

    def begin(self) -> None: ...

    def call(self, role: str | None = None) -> None: ...

    def host_start(self) -> None: ...

    def look_again(self) -> None: ...

    def assign(self, seat: int, role: str) -> None: ...


class HostCommands:
    """The host's commands: one method a command word, found in a table of them."""

    def __init__(self, ctx: TableContext, deal: Dealing, table: Control) -> None:
        self.ctx = ctx
        self.deal = deal
        self.table = table
        self._commands: dict[str, Callable[[tuple[str, ...]], None]] = {
            "begin": lambda args: deal.begin(),
            "start": self._start,
            "pause": self._pause,
            "resume": self._resume,
            "disk": self._disk,
            "lang": self._lang,
            "skip": self._skip,
            "foul": lambda args: self._foul(A.Foul, "foul", args),
            "disqualify": lambda args: self._foul(A.Disqualify, "disqualify", args),
            "act": self._act,
            "call": lambda args: deal.call(args[0] if args else None),
            "again": lambda args: deal.look_again(),
            "assign": self._assign,
        }

    def run(self, cmd: tuple[str, ...]) -> None:
        """Carry out one host command (its word, then its arguments)."""
        name, args = cmd[0], cmd[1:]
        run = self._commands.get(name)
        if run is None or (name == "assign" and self.ctx.stage is not TableStage.REGISTER):
            self.ctx.note(f"unknown host command: {' '.join(cmd)}")
            return
        missing = [a for a in args if a.isdigit() and not 1 <= int(a) <= self.ctx.cfg.players]
        if missing and name in ("foul", "disqualify", "act", "assign"):
            # (seat 28 at a table of 20 was "not possible now", as if its time would come)
            self.ctx.tell("no_seat", seat=missing[0], players=str(self.ctx.cfg.players))
            return
        try:
            run(args)
        except (RulesError, ValueError, IndexError):
            # in the host's language ("disqualify 1: the game has not started" stood in
            # English on a Georgian screen); why, the rules' words, only in English, so not
            self.ctx.tell("refused", what_t=name, seats=" ".join(f"№{a}" for a in args
                                                                if a.isdigit()))

    def seat(self, text: str) -> int:
        seat = int(text)
        if not 1 <= seat <= self.ctx.cfg.players:
            raise ValueError(f"there is no seat {seat}")
        return seat

    # -- the commands --------------------------------------------------------------------
    def _start(self, args: tuple[str, ...]) -> None:
        self.deal.host_start()                   # the host moves the viewing on
        self.table.start_game()

    def _pause(self, args: tuple[str, ...]) -> None:
        if self.ctx.stage is TableStage.OVER:
            return                  # a game over has no time to hold (nor "pause" to say)
        self.table.pause("host")
        self.ctx.say(["pause"])

    def _resume(self, args: tuple[str, ...]) -> None:
        if self.ctx.stage is TableStage.OVER:
            return                  # (Space on the end screen said "we go on" of it)
        self.table.resume_host()

    def _disk(self, args: tuple[str, ...]) -> None:
        # the journal could not be written (TableApp): the game holds still until it can be
        # again, as for the host's pause
        if args[0] == "full":
            self.table.pause("disk")
            self.ctx.say(["pause"])
        else:
            self.table.unpause({"disk"}, "resume")

    def _lang(self, args: tuple[str, ...]) -> None:
        # the host's language for the rest of the game (a resumed game asked for in another):
        # screen, voice and plural forms
        if args[0] not in LANGS:
            raise ValueError(f"no language {args[0]!r} (one of {', '.join(LANGS)})")
        self.ctx.cfg.lang = self.ctx.narrator.lang = args[0]
        set_lang = getattr(self.ctx.voice, "set_lang", None)
        if set_lang is not None:
            set_lang(args[0])

    def _skip(self, args: tuple[str, ...]) -> None:
        t = self.ctx.timers.timer
        if t is not None and not self.ctx.timers.paused:
            t.deadline = self.ctx.now
            self.table.run_timer()

    def _foul(self, make: Callable[[int], A.Action], name: str, args: tuple[str, ...]) -> None:
        seat = self.seat(args[0])
        self.ctx.apply(make(seat))
        self.ctx.writer.line(f"{name} {seat}")
        self.ctx.after()

    def _act(self, args: tuple[str, ...]) -> None:
        seat = self.seat(args[0])
        if seat not in self.ctx.questions.now:
            # his window closed before the host's tap: say so, never drop it unseen
            self.ctx.tell("act_late", seat=str(seat))
            return
        self.table.confirmed(seat, None if args[1] == "-" else self.seat(args[1]))
        # said, without whose or what (a host's act for a seat vanished with no sign)
        self.ctx.tell("act_done")

    def _assign(self, args: tuple[str, ...]) -> None:
        self.deal.assign(self.seat(args[0]), args[1])
