"""The host's keys (on the simulator's window or the Pi's keyboard), until the host screen.

    S          start the game (after the deal)
    Space      pause / resume
    Enter      skip the running speech or window
    U          undo the last foul, disqualification or act-for-a-seat
    F, then a seat key with Shift: foul;   D, then Shift+seat: disqualify
    A, then Shift+seat, then Shift+target (or Shift+Space for nothing): act for that seat
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .core import Host

SEAT_KEYS = "1234567890-="


class HostKeys:
    """Turns key presses into host commands on the app's queue."""

    def __init__(self, put: Callable[[Any], None]) -> None:
        self.put = put
        self.mode: list[str] = []
        self.paused = False

    def help(self) -> str:
        return (__doc__ or "").strip()

    def command(self, key: str, shift: bool = False) -> Host | None:
        """One key; the command it completes, if any."""
        if self.mode:
            if key in SEAT_KEYS and shift:
                self.mode.append(str(SEAT_KEYS.index(key) + 1))
            elif key == " " and shift and self.mode[0] == "act" and len(self.mode) == 2:
                self.mode.append("-")
            else:
                self.mode = []
                return None
            need = 3 if self.mode[0] == "act" else 2
            if len(self.mode) == need:
                cmd, self.mode = tuple(self.mode), []
                return Host(cmd)
            return None
        if key == " ":
            self.paused = not self.paused
            return Host(("pause",) if self.paused else ("resume",))
        if key == "\r":
            return Host(("skip",))
        if key in "sS":
            return Host(("start",))
        if key in "uU":
            return Host(("undo",))
        if key in "fF":
            self.mode = ["foul"]
        elif key in "dD":
            self.mode = ["disqualify"]
        elif key in "aA":
            self.mode = ["act"]
        return None

    def handle_pygame(self, ev: Any) -> bool:
        """A pygame event that is a host key (True) or not (False, left for the pads)."""
        import pygame
        if ev.type != pygame.KEYDOWN:
            return ev.type == pygame.KEYUP and bool(ev.mod & pygame.KMOD_SHIFT)
        shift = bool(ev.mod & pygame.KMOD_SHIFT)
        key = ev.unicode.lower() if ev.unicode else ""
        if key in SEAT_KEYS and key and not shift and not self.mode:
            return False                  # a pad
        cmd = self.command(key if key != "" else ("\r" if ev.key == pygame.K_RETURN else ""),
                           shift)
        if cmd is not None:
            self.put(cmd)
        return True
