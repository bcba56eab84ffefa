"""The host's keys, as pygame delivers them: seat keys with Shift, Shift alone, arrows."""

from __future__ import annotations

import os

import pygame
import pytest

from table_app.table import Host
from table_app.table.host import HostKeys

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")


def key(k: int, shift: bool = False, text: str = "") -> pygame.event.Event:
    mod = pygame.KMOD_LSHIFT if shift else 0
    return pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode=text)


@pytest.fixture
def keys() -> tuple[HostKeys, list[Host]]:
    pygame.init()
    sent: list[Host] = []
    return HostKeys(sent.append, lambda: False), sent


def test_foul_on_the_seat_pressed_with_shift(keys) -> None:  # type: ignore[no-untyped-def]
    hk, sent = keys
    hk.handle_pygame(key(pygame.K_f, text="f"))
    hk.handle_pygame(key(pygame.K_LSHIFT, shift=True))            # Shift alone: nothing
    hk.handle_pygame(key(pygame.K_3, shift=True, text="#"))       # Shift+3 types '#'
    assert sent == [Host(("foul", "3"))]


def test_disqualify_seat_twelve_and_act_for_a_seat(keys) -> None:  # type: ignore[no-untyped-def]
    hk, sent = keys
    hk.handle_pygame(key(pygame.K_d, text="d"))
    hk.handle_pygame(key(pygame.K_LSHIFT, shift=True))
    hk.handle_pygame(key(pygame.K_EQUALS, shift=True, text="+"))
    assert sent == [] and hk.mode == ["disqualify", "12"]      # not yet: Enter confirms
    hk.handle_pygame(key(pygame.K_RETURN, text="\r"))
    hk.handle_pygame(key(pygame.K_a, text="a"))
    hk.handle_pygame(key(pygame.K_0, shift=True, text=")"))
    hk.handle_pygame(key(pygame.K_SPACE, shift=True, text=" "))
    assert sent == [Host(("disqualify", "12")), Host(("act", "10", "-"))]


def test_shift_alone_and_arrows_send_nothing(keys) -> None:  # type: ignore[no-untyped-def]
    hk, sent = keys
    for k in (pygame.K_LSHIFT, pygame.K_RSHIFT, pygame.K_UP, pygame.K_LEFT, pygame.K_F1):
        hk.handle_pygame(key(k, shift=k in (pygame.K_LSHIFT, pygame.K_RSHIFT)))
    assert sent == []


def test_a_seat_key_without_shift_is_a_pad(keys) -> None:  # type: ignore[no-untyped-def]
    hk, sent = keys
    assert hk.handle_pygame(key(pygame.K_5, text="5")) is False
    assert hk.handle_pygame(key(pygame.K_s, text="s")) is True and sent == [Host(("start",))]


def test_a_stray_key_cancels_a_half_typed_command(keys) -> None:  # type: ignore[no-untyped-def]
    hk, sent = keys
    hk.handle_pygame(key(pygame.K_f, text="f"))
    hk.handle_pygame(key(pygame.K_UP))                           # no character: nothing...
    hk.handle_pygame(key(pygame.K_x, text="x"))                  # ...a stray key cancels
    hk.handle_pygame(key(pygame.K_3, shift=True, text="#"))
    assert sent == []


def test_a_disqualification_by_keyboard_asks_for_enter(keys) -> None:  # type: ignore[no-untyped-def]
    """A new host's trial: D then Shift+- removed seat 11 at once, where a tap asks twice.
    Now Enter confirms; any other key lets it go (and is not taken as anything else)."""
    hk, sent = keys
    hk.handle_pygame(key(pygame.K_d, text="d"))
    hk.handle_pygame(key(pygame.K_MINUS, shift=True, text="_"))
    hk.handle_pygame(key(pygame.K_s, text="s"))                  # a slip: let go, not Start
    assert sent == [] and hk.mode == []
    hk.handle_pygame(key(pygame.K_d, text="d"))
    hk.handle_pygame(key(pygame.K_MINUS, shift=True, text="_"))
    hk.handle_pygame(key(pygame.K_RETURN, text="\r"))
    assert sent == [Host(("disqualify", "11"))]


def test_a_big_tables_seats_13_to_30_by_their_simulator_keys(keys) -> None:  # type: ignore[no-untyped-def]
    """A new host's trial at 20: seats 13-30 had no keyboard route for a foul, a removal or
    an act. After F, D or A they take their pads' keys: F1-F12 seats 13-24, Shift+F1-F6
    seats 25-30."""
    hk, sent = keys
    hk.handle_pygame(key(pygame.K_f, text="f"))
    hk.handle_pygame(key(pygame.K_F5))
    hk.handle_pygame(key(pygame.K_d, text="d"))
    hk.handle_pygame(key(pygame.K_F6, shift=True))
    hk.handle_pygame(key(pygame.K_RETURN, text="\r"))
    hk.handle_pygame(key(pygame.K_a, text="a"))
    hk.handle_pygame(key(pygame.K_F12))
    hk.handle_pygame(key(pygame.K_1, shift=True, text="!"))
    assert sent == [Host(("foul", "17")), Host(("disqualify", "30")), Host(("act", "24", "1"))]
