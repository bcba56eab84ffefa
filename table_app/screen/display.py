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
    """The window, and the canvas the table draws on (the window itself when they match)."""

    def __init__(self, pygame: Any, size: tuple[int, int], fullscreen: bool = False) -> None:
        self.pg = pygame
        self.size = size
        flags = pygame.FULLSCREEN if fullscreen else 0
        self.window = pygame.display.set_mode(size, flags)
        self._fit()

    def _fit(self) -> None:
        got = self.window.get_size()
        if got == self.size:
            self.canvas = self.window
            self.scale, self.offset, self.shown = 1.0, (0, 0), self.size
            return
        self.canvas = self.pg.Surface(self.size).convert()
        self.scale = min(got[0] / self.size[0], got[1] / self.size[1])
        self.shown = (max(1, int(self.size[0] * self.scale)),
                      max(1, int(self.size[1] * self.scale)))
        self.offset = ((got[0] - self.shown[0]) // 2, (got[1] - self.shown[1]) // 2)

    @property
    def scaled(self) -> bool:
        return self.canvas is not self.window

    def flip(self) -> None:
        """Show what was drawn on the canvas."""
        if self.scaled:
            self.window.fill((0, 0, 0))
            self.window.blit(self.pg.transform.smoothscale(self.canvas, self.shown), self.offset)
        self.pg.display.flip()

    def to_canvas(self, pos: tuple[int, int]) -> tuple[int, int] | None:
        """A point of the window on the canvas (None in the black margins)."""
        x = (pos[0] - self.offset[0]) / self.scale
        y = (pos[1] - self.offset[1]) / self.scale
        if not (0 <= x < self.size[0] and 0 <= y < self.size[1]):
            return None
        return int(x), int(y)

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
