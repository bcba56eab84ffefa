"""A big table: two or three pad controllers as one table (`TablePads`), the check that maps
their seats, a 30-seat city game from three controllers' pads, a controller that drops out,
and the room's view of 20-seat games that differ in one secret."""

from __future__ import annotations

import queue
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from table_app.check import SelfTest
from table_app.clock import FakeClock
from table_app.pads import FakePads
from table_app.pads.events import PadEdge, PadLink
from table_app.pads.multi import JACKS, TablePads
from table_app.pads.rings import Dark, Pick, RoleCard, encode
from table_app.rules import run_script
from table_app.settings import load_settings, write_pad_layout
from table_app.table.virtual import run_virtual, virtual_table
from table_app.tools.observe import format_line, observe


class Board(FakePads):
    """One controller's twelve jacks, known by its board id."""

    def __init__(self, board_id: str, sink: Any, clock: FakeClock) -> None:
        super().__init__(JACKS, sink, clock)
        self.board_id = board_id


def table_of(seats: int, boards: list[str], sink: Any, clock: FakeClock,
             ids: tuple[str, ...] = ()) -> tuple[TablePads, dict[str, Board]]:
    """A table whose controllers are plugged into the Pi's ports in the order `boards`."""
    made: dict[str, Board] = {}

    def make(k: int, child_sink: Any) -> Board:
        made[boards[k]] = Board(boards[k], child_sink, clock)
        return made[boards[k]]
    pads = TablePads(seats, sink, clock, make=make, controllers=len(boards), ids=ids)
    return pads, made


class Room:
    """Where each seat's pad is plugged: (controller id, jack), and how its ring lies."""

    def __init__(self, seats: int, boards: list[str], rng: random.Random) -> None:
        jacks = [(b, j) for b in boards for j in range(1, JACKS + 1)]
        rng.shuffle(jacks)
        self.jack = {s: jacks[s - 1] for s in range(1, seats + 1)}
        self.turn = {s: rng.randrange(12) for s in range(1, seats + 1)}

    def seat_at(self, board: str, jack: int) -> int | None:
        return next((s for s, at in self.jack.items() if at == (board, jack)), None)


def _tap(made: dict[str, Board], at: tuple[str, int], clock: FakeClock, q: queue.Queue[Any],
         test: SelfTest, hold: float = 0.1) -> None:
    made[at[0]].press(at[1])
    clock.advance(hold)
    made[at[0]].release(at[1])
    clock.advance(0.05)
    while not q.empty():
        test.handle(q.get_nowait())
    test.tick(clock.now())


def test_the_check_maps_24_seats_on_two_controllers_plugged_at_random(tmp_path: Path) -> None:
    rng = random.Random(24)
    boards = ["e6614c311b7e5b2d", "e6614c311b7e9a01"]
    clock = FakeClock()
    q: queue.Queue[Any] = queue.Queue()
    ports = boards[:]
    rng.shuffle(ports)                           # any controller in any USB port
    pads, made = table_of(24, ports, q.put, clock)
    room = Room(24, boards, rng)
    test = SelfTest(pads, wait=2.0, hold=0.7)
    test.start(clock.now())
    lit = []
    while not test.done:
        if test.stage == "order":
            _tap(made, room.jack[test.seat], clock, q, test)
        elif test.stage == "press":
            ring = test.ring
            lit.append(ring)
            # the lit ring is on one controller's jack: the pad plugged there answers
            shown = [(b, j) for b, child in made.items() for j in range(1, JACKS + 1)
                     if isinstance(child.pictures[j], Pick)]
            assert len(shown) == 1
            seat = room.seat_at(*shown[0])
            assert seat is not None
            _tap(made, room.jack[seat], clock, q, test)
        else:
            at = room.jack[test.turning]
            for _ in range(room.turn[test.turning]):
                _tap(made, at, clock, q, test)
            _tap(made, at, clock, q, test, hold=0.8)
    report = test.report
    assert report.complete and not report.problems()
    assert len(lit) == 24
    assert sorted(report.controllers) == sorted(boards)
    settings = tmp_path / "settings.toml"
    buttons, rotation, rings = report.layout()
    write_pad_layout(buttons, rotation, rings, settings, controllers=report.controllers)
    s = load_settings(settings)
    assert s.seats == 24 and s.controllers == report.controllers
    assert s.rotation == [room.turn[k] for k in range(1, 25)]

    # the next club night: the controllers in the other ports, and every seat is its own
    q2: queue.Queue[Any] = queue.Queue()
    again, made2 = table_of(24, ports[::-1], q2.put, clock, ids=tuple(s.controllers or ()))
    again.set_layout(s.buttons, s.rotation, s.rings)
    for seat in range(1, 25):
        board, jack = room.jack[seat]
        made2[board].press(jack)
        made2[board].release(jack)
        got = [q2.get_nowait(), q2.get_nowait()]
        assert [(e.seat, e.pressed) for e in got] == [(seat, True), (seat, False)]
        again.show(seat, Pick(frozenset({seat}), seat))
        assert made2[board].pictures[jack] == Pick(frozenset({seat}), seat)
        assert made2[board].rotation.get(jack, 0) == room.turn[seat]
    assert all(p == Dark() for b in made2.values() for j, p in b.pictures.items()
               if room.seat_at(b.board_id, j) is None)


def test_a_table_of_30_on_three_controllers_checks_without_the_spare_jacks() -> None:
    # 36 jacks, 30 pads: the check lights the found pads' rings only, and is done
    rng = random.Random(30)
    boards = ["aa01", "aa02", "aa03"]
    clock = FakeClock()
    q: queue.Queue[Any] = queue.Queue()
    pads, made = table_of(30, boards, q.put, clock)
    room = Room(30, boards, rng)
    test = SelfTest(pads, wait=2.0, hold=0.7)
    test.start(clock.now())
    waited = clock.now()
    while not test.done:
        if test.stage == "order":
            _tap(made, room.jack[test.seat], clock, q, test)
        elif test.stage == "press":
            shown = [(b, j) for b, child in made.items() for j in range(1, JACKS + 1)
                     if isinstance(child.pictures[j], Pick)]
            assert len(shown) == 1 and room.seat_at(*shown[0]) is not None
            _tap(made, room.jack[room.seat_at(*shown[0]) or 0], clock, q, test)
        else:
            _tap(made, room.jack[test.turning], clock, q, test, hold=0.8)
    assert test.report.complete and not test.report.problems()
    assert clock.now() - waited < 30 * 3            # no spare jack was waited for


def test_a_controller_that_drops_out_pauses_naming_its_seats_till_all_are_back() -> None:
    clock = FakeClock()
    q: queue.Queue[Any] = queue.Queue()
    pads, made = table_of(30, ["c1", "c2", "c3"], q.put, clock, ids=("c1", "c2", "c3"))
    made["c2"].link(0, False, "pad controller disconnected")
    made["c3"].link(0, False, "pad controller disconnected")
    downs = [q.get_nowait(), q.get_nowait()]
    assert [d.reason for d in downs] == ["pad controller disconnected (seats 13-24)",
                                         "pad controller disconnected (seats 25-30)"]
    made["c2"].link(0, True, "pad controller 0.5.0 connected")
    assert q.empty()                        # controller 3 is still out: still paused
    made["c3"].link(0, True, "pad controller 0.5.0 connected")
    back = q.get_nowait()
    assert isinstance(back, PadLink) and back.up


def test_the_host_reads_which_seats_a_dropped_controller_holds(tmp_path: Path) -> None:
    # the pause names the seats in the host's language
    def pads_from(sink: Any, clock: FakeClock) -> TablePads:
        return table_of(24, ["c1", "c2"], sink, clock, ids=("c1", "c2"))[0]
    app, bots, clock, pads = virtual_table(tmp_path / "j.jsonl", seed=2, fmt_id="city",
                                           players=24, lang="ru",
                                           pads_from=pads_from)  # type: ignore[arg-type]
    assert isinstance(pads, TablePads)
    pads.children[1].link(0, False, "pad controller disconnected")  # type: ignore[attr-defined]
    app.feed(app.inbox.get_nowait())
    table = app.table
    assert table is not None and table.paused
    from table_app.words import note_text
    notes = [note_text(n.key, n.fields, "ru") for n in table.ctx.log
             if getattr(n, "key", "") == "pad_fault_controller_seats"]
    assert notes == ["Контроллер пультов мест 13-24: отключён (проверьте USB-кабель)"], \
        table.ctx.log


def _three_controllers(sink: Any, clock: FakeClock) -> TablePads:
    pads, _ = table_of(30, ["pico-a", "pico-b", "pico-c"], sink, clock,
                       ids=("pico-a", "pico-b", "pico-c"))
    # the pads plugged at random, as a check found them
    rng = random.Random(3)
    buttons = rng.sample(range(1, 37), 30)
    pads.set_layout(buttons, [rng.randrange(12) for _ in range(30)], buttons)
    return pads


def test_a_30_seat_city_game_plays_from_three_controllers_pads(tmp_path: Path) -> None:
    app, bots, clock, pads = virtual_table(tmp_path / "j.jsonl", seed=7, fmt_id="city",
                                           players=30,
                                           pads_from=_three_controllers)  # type: ignore
    assert isinstance(pads, TablePads)
    heard: Counter[int] = Counter()
    for k, child in enumerate(pads.children):
        feed = child._out

        def spy(ev: Any, k: int = k, feed: Any = feed) -> None:
            if isinstance(ev, PadEdge):
                heard[k] += 1
            feed(ev)
        child._out = spy
    table = run_virtual(app, bots, clock)
    assert table.stage == "over"
    roles = table.game.roles
    for role in ("hobo", "sorcerer", "werewolf"):
        assert role in roles
    # every controller's pads were pressed, and the rings were sent the wide pictures
    assert set(heard) == {0, 1, 2} and min(heard.values()) > 30
    hobo = roles.index("hobo") + 1
    child, jack = pads._where(hobo)  # type: ignore[misc]
    asked = [p for j, p in child.history if j == jack and isinstance(p, Pick)]
    assert asked, "the Hobo was never asked on his pad"
    assert all(encode(p, 30, 12)[0] == 8 for p in asked)
    assert any(isinstance(p, RoleCard) for j, p in child.history if j == jack)
    journal = (tmp_path / "j.jsonl").read_text()
    assert '"hobo"' in journal or "hobo" in table.game_script()


# -- the room's view at 20 seats ---------------------------------------------------------------
CITY20 = {1: "civilian", 2: "commissar", 3: "doctor", 4: "don", 5: "mafioso", 6: "lover",
          7: "civilian", 8: "lawyer", 9: "sergeant", 10: "killer", 11: "mafioso",
          12: "civilian", 13: "hobo", 14: "mafioso", 15: "civilian", 16: "sorcerer",
          17: "civilian", 18: "mafioso", 19: "civilian", 20: "civilian"}


def _script(deal: dict[int, str], body: str, swap: tuple[int, int] | None = None) -> str:
    d = dict(deal)
    if swap:
        a, b = swap
        d[a], d[b] = d[b], d[a]
    return (f"format city\nplayers {len(d)}\ndeal "
            + " ".join(f"{s}={r}" for s, r in sorted(d.items())) + "\n" + body)


def _room(text: str, secret: set[int]) -> list[str]:
    return [format_line(ln) for ln in observe(text)  # type: ignore[arg-type]
            if ln.get("ring") not in secret]


@pytest.mark.parametrize("body, swap, secret", [
    # which seat is a mafioso (14) and which a civilian (15)
    ("night\nmafia 1\nday\nnight\nmafia 7\ncommissar check 17\nday\n", (14, 15), {14, 15}),
    # the Commissar's check of seat 14: black, or (swapped with 15) red
    ("night\ncommissar check 14\nmafia 1\nday\n", (14, 15), {2, 14, 15}),
    # which seat is the Hobo (13, or 12) as he goes to witness, two nights
    ("night\nmafia 1\nhobo 4\nday\nnight\nmafia 7\nhobo 5\nday\n", (12, 13), {12, 13}),
    # which seat is the Sorcerer (16, or 17) through a night and a day's vote
    ("night\nmafia 1\nkiller 3\nday\nnominate 2 5\nvote 5: 2 4 6 7 8 9 10 11 12 13\n"
     "night\nmafia 7\nday\n", (16, 17), {16, 17}),
])
def test_games_of_20_that_differ_in_one_secret_look_the_same_to_the_room(
        body: str, swap: tuple[int, int], secret: set[int]) -> None:
    a, b = _script(CITY20, body), _script(CITY20, body, swap)
    run_script(a), run_script(b)
    ra, rb = _room(a, secret), _room(b, secret)
    for i, (x, y) in enumerate(zip(ra, rb, strict=False)):
        assert x == y, f"line {i} differs:\n  {x[:300]}\n  {y[:300]}"
    assert len(ra) == len(rb)
    # the rings there are a map of 20 seats on 12 pixels: lights are shared, and flash
    assert any('"ring"' in x for x in ra)


def test_the_hobo_sees_on_his_own_ring_who_came_to_kill_at_the_seat_he_visited(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # the rules told the Hobo who came (E.Witness, for his seat alone), and the table
    # showed it nowhere: his pad stayed dark at dawn, the host's screen said nothing
    from table_app.pads.rings import CheckShown
    from table_app.pads.rings import Picture as Pic
    from table_app.tools import observe as obs
    shown: list[tuple[int, Pic]] = []
    when: list[float] = []
    real = obs.WatchedPads._show

    def spy(self: Any, seat: int, picture: Pic) -> None:
        shown.append((seat, picture))
        when.append(self.clock.now())
        real(self, seat, picture)

    monkeypatch.setattr(obs.WatchedPads, "_show", spy)
    hobo = 13
    # night 1: the Mafia (the Don, seat 4, makes its kill) comes to seat 1, where the Hobo
    # goes; night 2 nobody comes to seat 5, where he goes
    _, table = obs.play(_script(CITY20, "night\nmafia 1\nhobo 1\nday\nnight\nmafia 7\n"
                                        "hobo 5\nday\n"))
    answers = [p for s, p in shown if s == hobo and isinstance(p, CheckShown)]
    assert answers == [CheckShown(4, "came"), CheckShown(5, "nobody_came")], answers
    # shown to nobody else: no other ring had an answer but the Commissar's (none here)
    assert not [s for s, p in shown if isinstance(p, CheckShown) and s != hobo]
    # kept till the morning, as a check found at dawn: the next picture on his ring comes
    # when the dawn's pause is over
    from table_app.table.context import DAWN
    at = [i for i, (s, p) in enumerate(shown) if s == hobo and p == answers[0]][0]
    after = [when[i] for i in range(at + 1, len(shown)) if shown[i][0] == hobo]
    assert after and after[0] - when[at] >= DAWN, (when[at], after[:1])
    notes = [n.text for n in table.log]
    assert "Hobo: at seat 1 he saw 4 come to kill" in notes, notes
    assert "Hobo: nobody came to kill at seat 5" in notes


@pytest.mark.parametrize("script, seat, role", [
    # killed by the Don, the Werewolf (seat 1) joins the Mafia
    ("werewolf_joins_mafia", 1, "mafioso"),
    # shot by the Commissar, the Werewolf becomes a Sergeant; the Commissar dies the next
    # night and he takes over
    ("werewolf_becomes_sergeant", 1, "commissar"),
])
def test_a_seat_whose_role_changes_is_shown_its_new_card_on_its_own_ring(
        monkeypatch: pytest.MonkeyPatch, script: str, seat: int, role: str) -> None:
    # the rules told the seat (E.RoleChanged, for it alone) and the table showed it nowhere:
    # a Werewolf who had joined the Mafia was never told so
    from table_app.pads.rings import Picture as Pic
    from table_app.pads.rings import RoleCard
    from table_app.rules import find_format
    from table_app.rules.roles import ROLE
    from table_app.tools import observe as obs
    shown: list[tuple[int, Pic]] = []
    real = obs.WatchedPads._show

    def spy(self: Any, s: int, picture: Pic) -> None:
        shown.append((s, picture))
        real(self, s, picture)

    monkeypatch.setattr(obs.WatchedPads, "_show", spy)
    text = (Path(__file__).parent / "scripts" / "city" / f"{script}.script").read_text()
    _, table = obs.play(text)
    card = RoleCard(find_format("city").team_of[role], ROLE[role].card)
    cards = [p for s, p in shown if s == seat and isinstance(p, RoleCard)]
    assert cards[-1] == card, cards
    # every other seat was only ever shown its own card, the deal's
    fmt, roles = find_format("city"), table.game.roles
    for s, p in shown:
        if s != seat and isinstance(p, RoleCard):
            assert p == RoleCard(fmt.team_of[roles[s]], ROLE[roles[s]].card), (s, p)
    notes = [n.text for n in table.log]
    assert any(n.startswith(f"Seat {seat} is now the ") for n in notes), notes
