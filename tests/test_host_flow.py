"""A club night from the host's screen alone: every command a touch, in each format, from the
first deal to the next game; what the screen and the rings show is checked at each step."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame
import pytest

from table_app.pads.rings import Dark
from table_app.rules import deal_from_seed
from table_app.screen.model import Names, host_view
from table_app.screen.paint import SIZE
from table_app.screen.render import Screen
from table_app.table import Tick
from table_app.table.virtual import run_virtual, virtual_table


class Host:
    """The host's finger on the screen."""

    def __init__(self, app, clock) -> None:  # type: ignore[no-untyped-def]
        pygame.display.init()
        self.app, self.clock = app, clock
        self.screen = Screen(pygame.Surface(SIZE))

    def view(self):  # type: ignore[no-untyped-def]
        self.screen.last = None
        self.screen.update(host_view(self.app.table, Names({1: "Nino"}), now=self.clock.now()))
        return self.screen

    def tap(self, cmd: tuple[str, ...]) -> None:
        """Tap the button that sends (or, for a seat, selects) `cmd`; what it sends is fed."""
        button = next((b for b in self.view().buttons if b.cmd == cmd), None)
        assert button is not None, (cmd, [b.cmd for b in self.screen.buttons])
        x, y, w, h = button.rect
        sent = self.screen.touch((x + w // 2, y + h // 2))
        if sent is not None:
            from table_app.table import Host as HostCommand
            self.app.feed(HostCommand(sent))


def _day(app, bots, clock, n: int = 1):  # type: ignore[no-untyped-def]
    return run_virtual(app, bots, clock, until=lambda t: t.game.phase == "day"
                       and t.game.day_no == n and "speech" in t.asked.values())


@pytest.mark.parametrize("fmt_id, players, deal", [("yakuza", 12, "app"),
                                                    ("classic", 11, "cards"),
                                                    ("city", 12, "app")])
def test_a_club_night_from_the_screen(tmp_path: Path, fmt_id: str, players: int,
                                      deal: str) -> None:
    app, bots, clock, pads = virtual_table(tmp_path / "j", seed=31, fmt_id=fmt_id,
                                           players=players, deal=deal)
    host = Host(app, clock)
    table = app.table
    if deal == "cards":
        # the calling waits until the host has dealt the cards and says so
        roles = deal_from_seed(table.cfg.fmt, players, 31).roles
        doctor, detective = (roles.index(r) + 1 for r in ("doctor", "detective"))
        clock.advance(30.0)
        app.feed(Tick())
        assert not host_view(table).calling and not table.registering
        # the doctor's and the detective's holders miss their calls
        bots.plans[doctor] = ("register", "doctor")
        bots.plans[detective] = ("register", "detective")
        host.tap(("call",))
        assert host_view(table).calling                     # the called role is shown
        run_virtual(app, bots, clock, until=lambda t: not t.registering)
        assert table.stage == "register"
        assert host_view(table).missing == ("detective", "doctor")
        places = {b.cmd: b.rect for b in host.view().buttons if b.cmd[0] == "call"}
        # the doctor is called again, and presses this time
        del bots.plans[doctor]
        host.tap(("call", "doctor"))
        assert host_view(table).calling == "doctor"
        run_virtual(app, bots, clock, until=lambda t: not t.registering)
        assert host_view(table).missing == ("detective",)
        # the detective's card, assigned by touch: his button has not moved
        assert {b.cmd: b.rect for b in host.view().buttons
                if b.cmd[0] == "call"}[("call", "detective")] == places[("call", "detective")]
        host.tap(("seat", str(detective)))
        assign = next(b for b in host.view().buttons if b.cmd[0] == "assign"
                      and b.cmd[2] == "detective")
        assert assign.rect == places[("call", "detective")]
        host.tap(("assign", str(detective), "detective"))
        assert table.stage == "ready" and table.game.roles[doctor] == "doctor"
        assert table.game.roles[detective] == "detective"
    bots_start = bots.observe                           # the host, not the bots, starts
    bots.observe = lambda t, now: [c for c in bots_start(t, now) if c != ("start",)]
    run_virtual(app, bots, clock, until=lambda t: t.stage == "ready")
    host.tap(("start",))
    assert table.stage == "play"
    # night: only the seats asked light their rings
    run_virtual(app, bots, clock, until=lambda t: t.game.phase == "night" and bool(t.asked))
    lit = {s for s in range(1, players + 1) if pads.pictures[s] != Dark()}
    assert lit <= set(table.asked)
    table = _day(app, bots, clock)
    living = table.game.living()
    speaker = table.game.waiting().speaker
    a, b = [s for s in living if s != speaker][:2]
    # a foul on seat a, a disqualification of seat b (asked twice), on the right seats
    host.tap(("seat", str(a)))
    host.tap(("foul", str(a)))
    assert table.game.fouls[a] == 1 and host_view(table).public.seats[a - 1].fouls == 1
    # the same with the keys: F, then the seat's key with Shift (whatever Shift+key types)
    from table_app.table.host import SEAT_KEYS, HostKeys
    keyed = next(s for s in living if s not in (speaker, a, b))
    sent: list = []

    def put(cmd: Any) -> None:
        sent.append(cmd)
        app.feed(cmd)

    keys = HostKeys(put, lambda: app.table.paused)
    seat_key = getattr(pygame, "K_" + {"-": "MINUS", "=": "EQUALS"}.get(
        SEAT_KEYS[keyed - 1], SEAT_KEYS[keyed - 1]))
    for k, shift in ((pygame.K_f, False), (pygame.K_LSHIFT, True), (seat_key, True),
                     (pygame.K_SPACE, False), (pygame.K_SPACE, False)):
        keys.handle_pygame(pygame.event.Event(pygame.KEYDOWN, key=k, unicode="",
                                              mod=pygame.KMOD_LSHIFT if shift else 0))
    assert [c.cmd for c in sent] == [("foul", str(keyed)), ("pause",), ("resume",)]
    assert table.game.fouls[keyed] == 1 and not table.paused
    # Space after the screen's Pause button resumes (the keys kept a flag of their own,
    # and Space after the button paused again: trial 18)
    host.tap(("pause",))
    assert table.paused
    keys.handle_pygame(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SPACE, unicode=" ",
                                          mod=0))
    assert sent[-1].cmd == ("resume",) and not table.paused
    host.tap(("seat", str(b)))
    host.tap(("confirm", "disqualify", str(b)))
    assert table.game.alive[b]                          # not yet: it asks once more
    host.tap(("disqualify", str(b)))
    assert not table.game.alive[b]
    assert not host_view(table).public.seats[b - 1].alive
    # act for the speaker whose pad is broken: he nominates, or ends his speech
    if table.game.phase == "day" and table.game.step == "speeches":
        speaker = table.game.waiting().speaker
        host.tap(("seat", str(speaker)))
        host.tap(("act", str(speaker)))
        if table.game.opt["vote"] == "nominees":
            target = next(s for s in table.game.living() if s != speaker)
            host.tap(("seat", str(target)))
            assert target in table.game.nominees
        else:
            host.tap(("act", str(speaker), "-"))        # nothing: his speech ends
    # the game to its end, then the next game from the same button
    table = run_virtual(app, bots, clock)
    assert table.stage == "over" and host_view(table).public.winner
    labels = {b.cmd: b.label for b in host.view().buttons}
    assert labels[("start",)] == "Next game"
    # nothing that does nothing now (pause, skip), and the next deal on one tap
    assert set(labels) == {("start",), ("setup",), ("roles",)} | {
        c for c in labels if c[0] == "seat"}, labels
    host.tap(("start",))
    assert app.table is not table and app.table.stage in ("deal", "register")
    assert app.table.cfg.players == players and app.table.cfg.fmt.id == fmt_id


def test_after_a_game_the_host_may_go_back_to_the_setup(tmp_path: Path) -> None:
    app, bots, clock, pads = virtual_table(tmp_path / "j", seed=2, fmt_id="classic", players=9)
    run_virtual(app, bots, clock)
    host = Host(app, clock)
    assert ("setup",) in {b.cmd for b in host.view().buttons}
