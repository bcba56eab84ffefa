"""The host's keys (on the simulator's window or the Pi's keyboard), until the host screen.

    S          start the game (after the deal)
    Space      pause / resume
    Enter      skip the running speech or window
    U          undo the last foul, disqualification or act-for-a-seat
    F, then a seat key with Shift: foul;   D, then Shift+seat, then Enter: disqualify
    A, then Shift+seat, then Shift+target (or Shift+Space for nothing): act for that seat
    (a seat key with Shift is seats 1-12; seats 13-30 take their simulator's keys,
    F1-F12 and Shift+F1-F6, after F, D or A)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .config import Host

SEAT_KEYS = "1234567890-="


class HostKeys:
    """Turns key presses into host commands on the app's queue."""

    def __init__(self, put: Callable[[Any], None], paused: Callable[[], bool]) -> None:
        self.put = put
        #: whether the game is paused now: Space pauses a running game and resumes a paused
        #: one (a flag of the keys' own missed the screen's Pause button: Space after it
        #: paused again)
        self.paused = paused
        self.mode: list[str] = []

    def help(self) -> str:
        return (__doc__ or "").strip()

    def command(self, key: str, shift: bool = False) -> Host | None:
        """One key (a seat key is named by its unshifted character); the command it
        completes, if any. A key that means nothing here means nothing: it cancels a
        half-typed command and sends none."""
        if not key:
            return None                   # Shift alone, an arrow, a key with no character
        if self.mode:
            if self.mode[0] == "disqualify" and len(self.mode) == 2:
                # a removal is not undone by a slip of the finger: Enter confirms it (as a
                # second tap does on the screen); any other key lets it go
                cmd, self.mode = tuple(self.mode), []
                return Host(cmd) if key == "\r" else None
            seat = _seat(key, shift)
            if seat:
                self.mode.append(str(seat))
            elif key == " " and shift and self.mode[0] == "act" and len(self.mode) == 2:
                self.mode.append("-")
            else:
                self.mode = []
                return None
            need = 3 if self.mode[0] == "act" else 2
            if len(self.mode) == need and self.mode[0] != "disqualify":
                cmd, self.mode = tuple(self.mode), []
                return Host(cmd)
            return None
        if key == " ":
            return Host(("resume",) if self.paused() else ("pause",))
        if key == "\r":
            return Host(("skip",))
        if key in ("s", "S"):
            return Host(("start",))
        if key in ("u", "U"):
            return Host(("undo",))
        if key in ("f", "F"):
            self.mode = ["foul"]
        elif key in ("d", "D"):
            self.mode = ["disqualify"]
        elif key in ("a", "A"):
            self.mode = ["act"]
        return None

    def handle_pygame(self, ev: Any) -> bool:
        """A pygame event that is a host key (True) or not (False, left for the pads)."""
        import pygame
        if ev.type != pygame.KEYDOWN:
            return ev.type == pygame.KEYUP and bool(ev.mod & pygame.KMOD_SHIFT)
        shift = bool(ev.mod & pygame.KMOD_SHIFT)
        key = _key_name(ev, pygame)
        if key in SEAT_KEYS and key and not shift and not self.mode:
            return False                  # a pad
        cmd = self.command(key, shift)
        if cmd is not None:
            self.put(cmd)
        return True


def _seat(key: str, shift: bool) -> int:
    """The seat a key names in a command (0: none): Shift and a seat key is 1-12; a big
    table's F1-F12 are 13-24 and Shift+F1-F6 25-30, as on the simulator's pads."""
    if key in SEAT_KEYS and key and shift:
        return SEAT_KEYS.index(key) + 1
    if key[:1] == "F" and key[1:].isdigit():
        k = int(key[1:])
        return 24 + k if shift and k <= 6 else 12 + k
    return 0


def _key_name(ev: Any, pygame: Any) -> str:
    """The key as its unshifted character: Shift+3 is "3" (not "#" or "№" on the keyboard's
    layout), Enter is "\\r", a key with no character is ""."""
    if ev.key == pygame.K_RETURN or ev.key == pygame.K_KP_ENTER:
        return "\r"
    if ev.key == pygame.K_SPACE:
        return " "
    seat_keys = {getattr(pygame, f"K_{c}"): c for c in "1234567890"}
    seat_keys.update({pygame.K_MINUS: "-", pygame.K_EQUALS: "="})
    if ev.key in seat_keys:
        return seat_keys[ev.key]
    if pygame.K_F1 <= ev.key <= pygame.K_F12:
        return f"F{ev.key - pygame.K_F1 + 1}"
    letters = {getattr(pygame, f"K_{c}"): c for c in "sufda"}
    if ev.key in letters:
        return letters[ev.key]
    text = ev.unicode or ""
    return "?" if text.isprintable() and text else ""     # some other key: it cancels
