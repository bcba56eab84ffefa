"""The host's commands at the table: start, pause, resume, skip, foul, disqualify, act for a
seat whose pad is broken, and assign a role at a card deal. A command the rules refuse, or a
malformed one, becomes a note on the host's screen, never a crash."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..pads.rings import Dark
from ..rules import RulesError
from ..rules import actions as A
from ..sound.catalogue import LANGS

if TYPE_CHECKING:
    from .core import Table


class HostCommands:
    """The host's commands (a part of `Table`)."""

    # -- the host ------------------------------------------------------------------------
    def _host(self: Table, cmd: tuple[str, ...]) -> None:
        name, args = cmd[0], cmd[1:]
        try:
            if name == "begin":
                self.begin()
            elif name == "start":
                if self.stage == "deal":          # the host moves the viewing on
                    if self.viewer:
                        self.panel.show(self.viewer, Dark())
                    self._ready("host_started")
                self.start_game()
            elif name == "pause":
                self._pause("host")
                self.say(["pause"])
            elif name == "resume":
                self.pause_reasons.discard("host")
                if not self.pause_reasons:
                    self.say(["resume"])
                    self.timers.resume(self.now)
            elif name == "disk":
                # the journal could not be written (TableApp): the game holds still until
                # it can be again, as for the host's pause
                if args[0] == "full":
                    self._pause("disk")
                    self.say(["pause"])
                else:
                    self._unpause({"disk"}, "resume")
            elif name == "lang":
                # the host's language for the rest of the game (a resumed game asked for in
                # another): screen, voice and plural forms
                if args[0] not in LANGS:
                    raise ValueError(f"no language {args[0]!r} (one of {', '.join(LANGS)})")
                self.cfg.lang = self.narrator.lang = args[0]
                set_lang = getattr(self.voice, "set_lang", None)
                if set_lang is not None:
                    set_lang(args[0])
            elif name == "skip":
                t = self.timers.timer
                if t is not None and not self.paused:
                    t.deadline = self.now
                    self._run_timer()
            elif name in ("foul", "disqualify"):
                seat = self._seat_arg(args[0])
                self._apply(A.Foul(seat) if name == "foul" else A.Disqualify(seat))
                self.writer.line(f"{name} {seat}")
                self._after()
            elif name == "act":
                seat = self._seat_arg(args[0])
                if seat not in self.questions.now:
                    # his window closed before the host's tap: say so, never drop it unseen
                    self._tell("act_late", seat=str(seat))
                    return
                self._confirmed(seat, None if args[1] == "-" else self._seat_arg(args[1]))
            elif name == "call":
                self.call(args[0] if args else None)
            elif name == "assign" and self.stage == "register":
                seat, role = self._seat_arg(args[0]), args[1]
                if role not in self.cfg.fmt.roles:
                    raise ValueError(f"the {self.cfg.fmt.id} format has no role '{role}'")
                self.registered[seat] = role
                if not self.registering:
                    self._finish_registration()
            else:
                self._note(f"unknown host command: {' '.join(cmd)}")
        except (RulesError, ValueError, IndexError) as exc:
            self._note(f"{' '.join(cmd)}: {exc}")

    def _seat_arg(self: Table, text: str) -> int:
        seat = int(text)
        if not 1 <= seat <= self.cfg.players:
            raise ValueError(f"there is no seat {seat}")
        return seat

    def _pause(self: Table, reason: str) -> None:
        self.pause_reasons.add(reason)
        self.timers.pause(self.now)

    def _unpause(self: Table, reasons: set[str], clip: str) -> None:
        """Those reasons gone; the game goes on (saying `clip`) when they were the last."""
        self.pause_reasons -= reasons
        if self.paused and not self.pause_reasons:
            self.say([clip])
            self.timers.resume(self.now)
