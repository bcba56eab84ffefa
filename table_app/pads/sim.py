"""The pad simulator: twelve pads round a table in a pygame window; a big table (13-30) as
its two or three pad controllers, twelve pads each, one under the other.

Keys 1-9, 0, -, = are seats 1-12 (key down and key up, so holds work), F1-F12 seats 13-24
and Shift+F1-F6 seats 25-30 (a big table's second and third controllers), and the window
says so (beside the table, or on each controller); the mouse presses the pad under it. Each
pad shows its ring as the hardware would: pixel k sits where seat k+1 sits at the table, so
the ring is a map. The default backend where no hardware is found, so the app runs on any
laptop.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from ..clock import Clock
from .base import PadBackend, Sink

KEYS = "1234567890-="
#: the pads a controller has (the firmware's jacks)
JACKS = 12
#: the keys of seats 1-12, as the window says them
KEY_NAMES = "1-9, 0, -, ="


def key_names(c: int, seats: int) -> str:
    """The keys of controller c's (0, 1, 2) seats at a table of `seats`: "F1-F8" for seats
    13-20."""
    last = min(seats, (c + 1) * JACKS) - c * JACKS
    if c == 0:
        # ("1--" at 11 seats, "1-0" at 10: the range ran past 9 into the keys after it)
        return ("1" if last == 1 else f"1-{last}") if last <= 9 else \
            ", ".join(["1-9", *KEYS[9:last]])
    keys = f"F1-F{last}" if last > 1 else "F1"
    return keys if c == 1 else f"Shift+{keys}"
#: an LED looks far brighter than its duty cycle (the eye's response is about a power of
#: 1/2.2): a ring at the night's 25 % drawn at 25 % of the screen's white was a role card
#: of one navy and one grey speck nobody could read
GAMMA = 1 / 2.2
TABLE_GREEN = (18, 60, 38)
BACKGROUND = (14, 14, 18)
PAD = (48, 48, 56)
PAD_DOWN = (90, 90, 110)
TEXT = (230, 230, 230)
CONTROLLER = (34, 36, 46)
#: an LED that is off: darker than its pad, so that one lit at the night's cap stands out
UNLIT = (22, 22, 26)
#: the ring the screens draw round the seat whose turn it is (to look at his role, to speak)
TURN = (60, 200, 90)
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
#: the smallest text the simulator draws (the 7-inch panel at arm's length)
TEXT_SIZE = 14
SEAT_SIZE = 16


class SimPads(PadBackend):
    """A simulated table of pads, drawn with pygame."""

    name = "sim"

    def __init__(self, seats: int, sink: Sink, clock: Clock | None = None,
                 size: tuple[int, int] = (720, 720), surface: Any = None,
                 ring_size: int = 12) -> None:
        self.ring_size = ring_size
        super().__init__(seats, sink, clock)
        self.size = size
        self.surface = surface
        self.own_window = surface is None
        self.keys_down: set[int] = set()
        self.mouse_seat: int | None = None
        self.closed = False
        self._font: Any = None
        self._small: Any = None
        #: the table's language, for what the window says (the table sets it)
        self.lang = "en"
        #: where the game is and its timer, one line (the table sets it)
        self.status = ""
        #: the seat whose turn it is, ringed as on the screens (the table sets it; 0: none):
        #: where the screens take turns on a small panel, the pads' pane had no cue of it
        self.turn = 0
        #: what the last frame said, and at what size (the tests read it)
        self.said: list[tuple[str, int]] = []
        self.dirty = True
        #: what the last frame showed: a frame that would show the same is not drawn again
        #: (a speaker's countdown woke the window ten times a second, and each time it was
        #: drawn whole: 2.2 % of a core beside a bare window's 0.8 %)
        self._shown: tuple[Any, ...] = ()

    # -- geometry ------------------------------------------------------------------------
    def _angle(self, seat: int) -> float:
        # seat 1 at the top, clockwise
        return -math.pi / 2 + 2 * math.pi * (seat - 1) / self.table

    def controllers(self) -> int:
        """How many pad controllers the table has (twelve pads each)."""
        return max(1, -(-self.table // JACKS))

    def _block(self, c: int) -> tuple[int, int, int, int]:
        """Controller c's (0, 1, 2) box at a big table: its rows of six pads under a line
        that names it, its seats and their keys."""
        w, h = self.size
        n = self.controllers()
        each = h // 3
        top = (h - n * each) // 2 + c * each
        return 4, top + 2, w - 8, each - 4

    def pad_centre(self, seat: int) -> tuple[int, int]:
        w, h = self.size
        if self.table > JACKS:
            c, j = divmod(seat - 1, JACKS)
            bx, by, bw, bh = self._block(c)
            col, row = j % 6, j // 6
            step = bw / 6
            return int(bx + step * (col + 0.5)), by + TEXT_SIZE + 8 + self.pad_radius() + \
                row * (2 * self.pad_radius() + 8)
        r = min(w, h) * 0.39
        a = self._angle(seat)
        return int(w / 2 + r * math.cos(a)), int(h / 2 + r * math.sin(a))

    def pad_radius(self) -> int:
        if self.table > JACKS:
            # two rows of six pads in a controller's third of the window
            bh = self._block(0)[3]
            return int(min((bh - TEXT_SIZE - 8 - 8 - 4) / 4, self.size[0] / 14))
        return int(min(self.size) * 0.075)

    def _pixel_angle(self, k: int) -> float:
        # pixel k of an unturned ring, clockwise from the top (where seat 1 sits)
        return -math.pi / 2 + 2 * math.pi * k / self.ring_size

    def seat_at(self, pos: tuple[int, int]) -> int | None:
        for s in range(1, self.table + 1):
            cx, cy = self.pad_centre(s)
            if (pos[0] - cx) ** 2 + (pos[1] - cy) ** 2 <= self.pad_radius() ** 2:
                return s
        return None

    # -- life ----------------------------------------------------------------------------
    def start(self) -> None:
        import pygame
        pygame.display.init()             # (not the audio: the table's voice opens it)
        pygame.font.init()
        if self.own_window:
            pygame.display.set_caption("Mafia table: pad simulator")
            self.surface = pygame.display.set_mode(self.size)
        self._fonts()
        self.draw()

    def _fonts(self) -> None:
        import pygame
        pygame.font.init()
        path = FONT if Path(FONT).exists() else None
        self._font = pygame.font.Font(path, SEAT_SIZE)
        self._small = pygame.font.Font(path, TEXT_SIZE)

    def close(self) -> None:
        import pygame
        if self.own_window and pygame.get_init():
            pygame.display.quit()
        self.closed = True

    def poll(self, events: list[Any] | None = None) -> None:
        """Turn pygame events into pad edges (from the main thread), then redraw."""
        import pygame
        if events is None:
            events = pygame.event.get()
        for ev in events:
            self.handle_event(ev)
        self.draw()
        if self.own_window:
            pygame.display.flip()

    def handle_event(self, ev: Any) -> bool:
        """One pygame event; True if it was a pad's."""
        import pygame
        if ev.type == pygame.QUIT:
            self.closed = True
            return True
        if ev.type in (pygame.KEYDOWN, pygame.KEYUP) and pygame.K_F1 <= ev.key <= pygame.K_F12:
            k = ev.key - pygame.K_F1
            if ev.type == pygame.KEYUP:          # whichever of its two seats it pressed
                seat = next((s for s in (13 + k, 25 + k) if s in self.keys_down), 0)
            else:
                seat = 25 + k if ev.mod & pygame.KMOD_SHIFT and k < 6 else 13 + k
            if 0 < seat <= self.table:
                self._press(seat, ev.type == pygame.KEYDOWN)
                return True
            return False
        if ev.type in (pygame.KEYDOWN, pygame.KEYUP):
            name = pygame.key.name(ev.key) if ev.key else ""
            if ev.unicode in KEYS and ev.unicode:
                name = ev.unicode
            if len(name) == 1 and name in KEYS:
                seat = KEYS.index(name) + 1
                if seat <= self.table:
                    self._press(seat, ev.type == pygame.KEYDOWN)
                    return True
            return False
        if ev.type == pygame.MOUSEBUTTONDOWN and ev.button == 1:
            at = self.seat_at(ev.pos)
            if at is not None:
                self.mouse_seat = seat = at
                self._press(seat, True)
                return True
        if ev.type == pygame.MOUSEBUTTONUP and ev.button == 1 and self.mouse_seat is not None:
            seat, self.mouse_seat = self.mouse_seat, None
            self._press(seat, False)
            return True
        return False

    def _press(self, seat: int, down: bool) -> None:
        if down == (seat in self.keys_down):
            return               # key repeat, or a release with no press
        (self.keys_down.add if down else self.keys_down.discard)(seat)
        self.dirty = True
        self._edge(seat, down)

    def _show(self, seat: int, picture: Any) -> None:
        self.dirty = True

    def set_table(self, players: int) -> None:
        super().set_table(players)
        self.dirty = True            # the pads are laid out again round the table

    # -- drawing -------------------------------------------------------------------------
    def changes_in(self, now: float | None = None) -> float | None:
        """Seconds until a ring changes by itself (a countdown's pixel, a blink, a flash):
        the window is drawn again then; None when no ring will."""
        from .rings import changes_in

        soon = [changes_in(self.pictures[seat], self.age(seat, now), self.table, self.ring_size)
                for seat in range(1, self.table + 1)]
        return min((s for s in soon if s is not None), default=None)

    def draw(self, t: float | None = None) -> bool:
        """The window's pads as they are at `t`; False when that is what it already shows."""
        import pygame
        if self.surface is None:
            return False
        from firmware_bridge.ringdraw import animated

        t = self.clock.now() if t is None else t
        # a ring changes by itself only if its picture is animated (a new picture, a new
        # cap: `dirty`); the others' pixels are not worked out again to learn nothing moved
        moving = tuple(tuple(self.pixels(seat, t)) for seat in range(1, self.table + 1)
                       if animated(self.encode(self.pictures[seat]), self.ring_size))
        shows = (moving, self.status, self.lang, frozenset(self.keys_down), self.size,
                 self.light_cap, self.turn)
        if shows == self._shown and not self.dirty:
            return False
        self._shown = shows
        surf = self.surface
        w, h = self.size
        if self._font is None:
            self._fonts()           # (drawn on a surface of the table's window, unstarted)
        surf.fill(BACKGROUND)
        self.said = []
        big = self.table > JACKS
        if big:
            for c in range(self.controllers()):
                self._controller(surf, c)
        else:
            pygame.draw.circle(surf, TABLE_GREEN, (w // 2, h // 2), int(min(w, h) * 0.28))
            if self._small is not None:
                said = self._say("sim_keys", keys=key_names(0, self.table))
                surf.blit(self._small.render(said, True, TEXT), (6, 4))
                self.said.append((said, TEXT_SIZE))
        if self.status and self._font is not None:
            # the clock, where a pane of its own hides the host's (centred on a round
            # table, at the bottom right under a big table's controllers' pads)
            label = self._font.render(self.status, True, TEXT)
            surf.blit(label, label.get_rect(bottomright=(w - 8, h - 6)) if big
                      else label.get_rect(center=(w // 2, h // 2)))
            self.said.append((self.status, SEAT_SIZE))
        pr = self.pad_radius()
        dot = max(3, pr * 12 // (7 * self.ring_size))
        for seat in range(1, self.table + 1):
            cx, cy = self.pad_centre(seat)
            pygame.draw.circle(surf, PAD_DOWN if seat in self.keys_down else PAD, (cx, cy), pr)
            if seat == self.turn:
                pygame.draw.circle(surf, TURN, (cx, cy), pr + 4, 3)
            pixels = self.pixels(seat, t)
            brightest = max(max(shown(c)) for c in pixels)
            for k, colour in enumerate(pixels):
                a = self._pixel_angle(k)
                px = cx + int(pr * 0.72 * math.cos(a))
                py = cy + int(pr * 0.72 * math.sin(a))
                if any(colour):
                    # a lit LED a size larger than an unlit one: at the night's cap a ring
                    # drawn as its bare colour was nearly invisible
                    pygame.draw.circle(surf, seen(shown(colour), brightest), (px, py),
                                       dot + 1)
                else:
                    pygame.draw.circle(surf, UNLIT, (px, py), dot)
            if self._font is not None:
                label = self._font.render(str(seat), True, TEXT)
                surf.blit(label, label.get_rect(center=(cx, cy)))
                self.said.append((str(seat), SEAT_SIZE))
        self.dirty = False
        return True

    def _say(self, key: str, **fields: str) -> str:
        from ..words import t
        return t(key, self.lang).format(**fields)

    def _controller(self, surf: Any, c: int) -> None:
        """Controller c's box, and the line that says its seats and their keys."""
        import pygame
        x, y, w, h = self._block(c)
        pygame.draw.rect(surf, CONTROLLER, (x, y, w, h), border_radius=8)
        first, last = c * JACKS + 1, min(self.table, (c + 1) * JACKS)
        if self._small is not None:
            said = self._say("sim_controller", n=str(c + 1), seats=f"{first}-{last}",
                             keys=key_names(c, self.table))
            surf.blit(self._small.render(said, True, TEXT), (x + 8, y + 3))
            self.said.append((said, TEXT_SIZE))

    def texts(self) -> list[tuple[str, int]]:
        """What the window says beside its pads' numbers, and at what size."""
        self.draw()
        return [(said, size) for said, size in self.said if not said.isdigit()]

    def screenshot(self, path: str | Path) -> None:
        import pygame
        self.draw()
        pygame.image.save(self.surface, str(path))

    def pixel_at_ring(self, seat: int, k: int) -> tuple[int, int, int]:
        """The colour drawn for pixel k of a seat's ring (for tests that look at the screen)."""
        cx, cy = self.pad_centre(seat)
        a = self._pixel_angle(k)
        pr = self.pad_radius()
        x, y = cx + int(pr * 0.72 * math.cos(a)), cy + int(pr * 0.72 * math.sin(a))
        c = self.surface.get_at((x, y))
        return int(c.r), int(c.g), int(c.b)


def seen(colour: tuple[int, int, int], brightest: int = 0,
         floor: int = 190) -> tuple[int, int, int]:
    """A lit pixel as the window draws it, in a ring whose brightest channel is `brightest`
    (by default its own): the ring lifted as one, its brightest from `floor` up to 255 in
    its own hue (an LED at the night's cap still shines in a dark room; on a screen its dim
    colour on a dark pad was nearly invisible), the others by the same factor. Lifted pixel
    by pixel, a night's cursor (192) and the seats it can pick (159) looked alike."""
    top = max(brightest, max(colour))
    if max(colour) == 0:
        return colour
    lifted = floor + (255 - floor) * top / 255
    r, g, b = (min(255, round(v * lifted / top)) for v in colour)
    return r, g, b


def shown(colour: tuple[int, int, int]) -> tuple[int, int, int]:
    """A ring pixel's colour as the simulator draws it: as bright as the LED looks."""
    r, g, b = (round(255 * (v / 255) ** GAMMA) for v in colour)
    return r, g, b
