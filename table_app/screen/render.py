"""The screen: the host's view or the room's drawn with pygame (800x480, the Pi's display),
by host.py and tableview.py, with paint.py's fonts and labels.py's places.

A view is drawn only when its model changed (the timer changes once a second), so an idle
table costs almost nothing. Every text comes from the catalogues (`words.t`) in the game's
language; the font is DejaVu Sans (it has Georgian), else pygame's own.
"""

from __future__ import annotations

from typing import Any

from .host import draw_host
from .model import HostView
from .paint import Button, Painter
from .tableview import draw_public


class Screen:
    """A view on a surface that redraws only when its model changed (at most 30 fps)."""

    FPS = 30

    def __init__(self, surface: Any, public: bool = False) -> None:
        self.surface = surface
        self.public = public
        self.painter = Painter()
        self.last: Any = None
        self.buttons: list[Button] = []
        self.draws = 0
        self.selected: int | None = None
        self.acting: int | None = None
        self.confirm: tuple[str, ...] | None = None   # a removal waiting for its second tap
        #: a command half typed on the host's keyboard (HostKeys.mode), shown as it goes
        self.keys: tuple[str, ...] = ()
        #: roles (and night choices) hidden unless the host holds his roles button down
        #: (`peek`): a player beside him can read a 7-inch panel; nothing goes to the table
        self.hide_roles = True
        self.peek = False

    def update(self, view: HostView) -> bool:
        """Draw if anything changed; True if it drew."""
        if self.last is not None and not self.public:
            ended = self.last[0].public.phase == "over" if isinstance(self.last[0], HostView) \
                else False
            if ended and view.public.phase != "over":
                # a new game: nothing tapped in the last one carries over (the seat bar
                # "#6 Foul / Disqualify / Act for" stayed up into the next game's deal)
                self.selected = self.acting = self.confirm = None
        # a game over shows its roles: the table wants to see them (a trial host had to
        # hold his roles button for the players round him)
        hidden = self.hidden and view.public.phase != "over"
        model = (view.public if self.public else view, self.selected, self.acting,
                 self.confirm, self.public, hidden, self.keys)
        if model == self.last:
            return False
        self.last = model
        self.draws += 1
        if self.public:
            draw_public(self.painter, self.surface, view.public)
            self.buttons = []
        else:
            self.buttons = draw_host(self.painter, self.surface, view, self.selected,
                                     self.acting, self.confirm, hidden, self.keys)
        return True

    @property
    def hidden(self) -> bool:
        """Are roles and night choices hidden now (not peeked at)?"""
        return self.hide_roles and not self.peek

    def release(self) -> bool:
        """The finger (or the R key) let go: a peek at the roles ends. True if it did."""
        if not self.peek:
            return False
        self.peek = False
        return True

    def asking(self) -> bool:
        """Is a question of the host's own open (a seat tapped for its actions, a target to
        tap for it, a removal waiting for its second tap)?"""
        return self.selected is not None or self.acting is not None or self.confirm is not None

    def dismiss(self) -> bool:
        """The open question closed, nothing done (Escape, a tap beside every button, Undo
        while it is open). True if one was open."""
        was = self.asking()
        self.selected = self.acting = self.confirm = None
        return was

    def touch(self, pos: tuple[int, int]) -> tuple[str, ...] | None:
        """A tap: the command of the button under it (a seat selects it for its actions)."""
        for b in self.buttons:
            if b.hit(pos) and b.cmd == ("undo",) and self.dismiss():
                # Undo while a question is open backs out of the question: a host tapping it
                # to leave "Disqualify #4? Tap again" undid his last foul instead
                return None
            if b.hit(pos):
                if b.cmd[0] == "seat":
                    seat = int(b.cmd[1])
                    if self.acting is not None:          # act for that seat: this target
                        cmd, self.acting = ("act", str(self.acting), str(seat)), None
                        return cmd
                    self.confirm = None
                    self.selected = None if self.selected == seat else seat
                    return None
                if b.cmd[0] == "act" and len(b.cmd) == 2:
                    self.acting = int(b.cmd[1])          # the next seat tapped is the choice
                    self.selected = None
                    return None
                if b.cmd == ("roles",):
                    self.peek = True                  # till the finger lets go
                    return None
                if b.cmd[0] == "confirm":
                    if self.confirm == b.cmd[1:]:      # the same button again: it is meant
                        self.confirm = None
                        return ("start",) if b.cmd[1] == "begin" else b.cmd[1:]
                    self.confirm = b.cmd[1:]          # ask once more
                    self.selected = None
                    return None
                self.acting = None
                self.confirm = None
                if b.cmd[0] in ("foul", "disqualify", "assign"):
                    self.selected = None
                return b.cmd
        self.dismiss()                              # a tap beside every button: back out
        return None
