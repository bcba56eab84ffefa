"""The room's own window: the public view alone, for a second display or a projector.

The host's screen is never mirrored to the room: the public view gets a window of its own
(an SDL window beside the host's), drawn only from `PublicState`, which holds nothing secret.
The pad simulator lives in the host's window, so the room never sees it either.
"""

from __future__ import annotations

from typing import Any

from .model import HostView
from .paint import SIZE
from .render import Screen


class PublicWindow:
    """A second window that shows the public view and nothing else."""

    def __init__(self, size: tuple[int, int] = SIZE, display: int | None = None,
                 fullscreen: bool = False) -> None:
        import pygame
        from pygame._sdl2.video import Renderer, Window

        self.pg = pygame
        kwargs: dict[str, Any] = {"size": size}
        if fullscreen:
            kwargs["fullscreen_desktop"] = True
        self.window = Window("Mafia table: the room", **kwargs)
        desktops = pygame.display.get_desktop_sizes() if pygame.display.get_init() else []
        if display is None:
            display = 1 if len(desktops) > 1 else 0     # a second display is the room's
        if 0 < display < len(desktops):
            # SDL places a window on a display by its position: that display's left edge
            self.window.position = (sum(w for w, _ in desktops[:display]), 0)
        self.renderer = Renderer(self.window)
        self.surface = pygame.Surface(size)
        self.screen = Screen(self.surface, public=True)

    def update(self, view: HostView) -> bool:
        """Draw the room's view when it changed; True if it drew."""
        from pygame._sdl2.video import Texture

        if not self.screen.update(view):
            return False
        texture = Texture.from_surface(self.renderer, self.surface)
        self.renderer.clear()
        texture.draw()
        self.renderer.present()
        return True

    def close(self) -> None:
        self.window.destroy()
