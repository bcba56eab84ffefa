"""The table's one window: the host's screen (and the pad simulator beside it) drawn at the
size they are laid out for, and shown on whatever the display really gives.

A window on a desktop is the size asked for. A full screen is not always: Debian's pygame
2.1.2 (SDL 2.26) on the console gives the display's own mode (1024x768, 1920x1080), however
small the size asked. Then the table is drawn on a canvas of its own size and shown scaled
to fit, in the middle, with touches mapped back, so every layout stays what it was drawn for.
"""

from __future__ import annotations

import ctypes
from typing import Any


class Display:
    """The window, and the canvas the table draws on (the window itself when they match).

    A canvas wider than the screen (the host's 800 px and the pad simulator's 480 beside
    it, on a 7-inch panel of 800x480 or 1024x600) is shown a pane at a time, never shrunk:
    the host's screen, or with Tab the simulator (and the host screen's right column, its
    buttons). A full screen is the display's own size (the mode SDL picks for a size asked
    can be larger than the panel, and cut it), the canvas fitted into it."""

    def __init__(self, pygame: Any, size: tuple[int, int], fullscreen: bool = False,
                 pane: int | None = None) -> None:
        self.pg = pygame
        self.size = size
        #: the width of the part shown when the whole canvas does not fit (the host's)
        self.pane = pane
        self.pan = 0
        if fullscreen:
            self.window = pygame.display.set_mode((0, 0), pygame.FULLSCREEN)
        else:
            self.window = pygame.display.set_mode(_within(pygame, size))
        self._fit()

    def _fit(self) -> None:
        got = self.window.get_size()
        if got == self.size:
            self.canvas = self.window
            self.scale, self.offset, self.shown = 1.0, (0, 0), self.size
            self.view = self.size
            return
        self.canvas = self.pg.Surface(self.size).convert()
        w, h = self.size
        if self.pane and min(got[0] / w, got[1] / h) < 1 and self.pane < w:
            w = self.pane                   # a pane at a time, at its full size
        self.view = (w, h)
        self.pan = min(self.pan, self.size[0] - w)
        self.scale = min(got[0] / w, got[1] / h)
        self.shown = (max(1, int(w * self.scale)), max(1, int(h * self.scale)))
        self.offset = ((got[0] - self.shown[0]) // 2, (got[1] - self.shown[1]) // 2)

    @property
    def scaled(self) -> bool:
        return self.canvas is not self.window

    @property
    def panes(self) -> bool:
        """Is the canvas shown a pane at a time (Tab changes which)?"""
        return self.scaled and self.view[0] < self.size[0]

    def toggle(self) -> bool:
        """Show the other pane (the host's screen, or the simulator); False: one pane."""
        if not self.panes:
            return False
        self.pan = 0 if self.pan else self.size[0] - self.view[0]
        return True

    def key(self, ev: Any) -> bool:
        """Tab, which shows the other pane: True if it was that (and it did)."""
        pg = self.pg
        return ev.type == pg.KEYDOWN and ev.key == pg.K_TAB and self.toggle()

    def flip(self) -> None:
        """Show what was drawn on the canvas."""
        if self.scaled:
            part = self.canvas.subsurface((self.pan, 0, *self.view))
            self.window.fill((0, 0, 0))
            if self.shown == self.view:
                self.window.blit(part, self.offset)
            else:
                self.window.blit(self.pg.transform.smoothscale(part, self.shown), self.offset)
        self.pg.display.flip()

    def to_canvas(self, pos: tuple[int, int]) -> tuple[int, int] | None:
        """A point of the window on the canvas (None in the black margins)."""
        x = (pos[0] - self.offset[0]) / self.scale
        y = (pos[1] - self.offset[1]) / self.scale
        if not (0 <= x < self.view[0] and 0 <= y < self.view[1]):
            return None
        return int(x) + self.pan, int(y)

    def event(self, ev: Any) -> Any:
        """`ev` with its position on the canvas; None for a touch in the margins."""
        pg = self.pg
        # a touch on the panel comes as the mouse's too (SDL's default)
        if not self.scaled or ev.type not in (pg.MOUSEBUTTONDOWN, pg.MOUSEBUTTONUP,
                                              pg.MOUSEMOTION):
            return ev
        pos = self.to_canvas(ev.pos)
        if pos is None:
            return None
        attrs = dict(ev.dict)
        attrs["pos"] = pos
        return pg.event.Event(ev.type, attrs)


def _within(pygame: Any, size: tuple[int, int]) -> tuple[int, int]:
    """A window of `size`, or as much of it as the desktop holds (a host screen and its
    simulator, 1280 px, on an 800 px panel ran off it: Start was off the screen)."""
    try:
        desktops = pygame.display.get_desktop_sizes()
    except pygame.error:
        desktops = []
    if not desktops:
        return size
    dw, dh = desktops[0]
    return (min(size[0], dw), min(size[1], dh))


def video_drivers() -> list[str]:
    """The video drivers of the SDL that pygame really loaded (the one in the wheel, or the
    system's), as SDL names them: a console table needs "KMSDRM" among them. Read from the
    library itself, since pygame 2.1 has no call for it."""
    import pygame  # noqa: F401  (loads SDL)

    path = None
    with open("/proc/self/maps", encoding="utf-8", errors="replace") as maps:
        for line in maps:
            name = line.rsplit("/", 1)[-1].strip()
            if name.startswith("libSDL2-2") or name.startswith("libSDL2.so"):
                path = line.split(None, 5)[-1].strip()
                break
    if path is None:
        return []
    sdl = ctypes.CDLL(path)
    sdl.SDL_GetVideoDriver.restype = ctypes.c_char_p
    sdl.SDL_GetVideoDriver.argtypes = [ctypes.c_int]
    return [sdl.SDL_GetVideoDriver(i).decode() for i in range(sdl.SDL_GetNumVideoDrivers())]
