"""Issue 46, a club night a host runs alone: each finding a host met, as a test that failed
before its fix (the screens are drawn under the dummy video driver)."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from table_app.screen import Names, Screen, host_view, public_state
from table_app.screen.render import SIZE, Painter, draw_host, draw_public
from table_app.table.virtual import run_virtual, virtual_table


def _surface() -> pygame.Surface:
    pygame.display.init()
    return pygame.Surface(SIZE)


@pytest.mark.parametrize("players", [13, 20, 30])
def test_a_big_table_with_an_unnamed_seat_draws(tmp_path: Path, players: int) -> None:
    # finding 12: a table of 13-30 where any seat had no name crashed at its first draw
    # (KeyError in draw_table), on the public view and on the host's with roles hidden
    app, bots, clock, _ = virtual_table(tmp_path / "j", seed=3, fmt_id="city",
                                        players=players, seats=30)
    table = run_virtual(app, bots, clock, until=lambda t: t.game.phase == "night"
                        and bool(t.asked))
    names = Names({1: "Nino", 5: "Aziz"})
    surf = _surface()
    p = Painter(keep=True)
    draw_public(p, surf, public_state(table, names, now=clock.now()))
    assert "Nino" in (p.drawn or []) and "Aziz" in (p.drawn or [])
    for hide in (False, True):
        buttons = draw_host(p, surf, host_view(table, names, now=clock.now()), hide_roles=hide)
        assert len([b for b in buttons if b.cmd[0] == "seat"]) == players
    screen = Screen(surf)
    screen.hide_roles = True
    assert screen.update(host_view(table, names, now=clock.now()))
