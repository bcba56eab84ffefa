"""A ring as a map of a big table: every table size 4 to 30 on every ring size offered.

A table bigger than its rings puts two or three neighbours on one light; the seat the
cursor is on then flashes its place in that light (ringdraw.place and ringdraw.cue)."""

from __future__ import annotations

import json
import random
import subprocess
from pathlib import Path

import pytest

from firmware_bridge import ringdraw as rd
from table_app.pads.rings import CheckShown, Pick, Vote, encode, render

RING_SIZES = (12, 16, 24)
TABLES = range(4, 31)
FIRMWARE = Path(rd.__file__).parent
#: one cue's cycle, sampled finer than its flashes
MOMENTS = tuple(round(i * 0.05, 2) for i in range(int(rd.CUE_CYCLE / 0.05)))


def film(picture: Pick | Vote | CheckShown, size: int, table: int, turn: int = 0
         ) -> tuple[tuple[tuple[int, int, int], ...], ...]:
    """What a ring shows over one cycle of the cue: a picture as a player sees it."""
    return tuple(tuple(render(picture, t, size, turn, 1.0, table)) for t in MOMENTS)


@pytest.mark.parametrize("size", RING_SIZES)
def test_every_seat_s_cursor_looks_different_at_every_table_size(size: int) -> None:
    for table in TABLES:
        everyone = frozenset(range(1, table + 1))
        for kind in (Pick, Vote):
            films = {s: film(kind(everyone, s), size, table) for s in range(1, table + 1)}
            films[0] = film(kind(everyone, None), size, table)
            assert len(set(films.values())) == len(films), (size, table, kind.__name__)


@pytest.mark.parametrize("size", RING_SIZES)
def test_a_choice_and_an_answer_show_their_seat_apart_from_every_other(size: int) -> None:
    for table in TABLES:
        everyone = frozenset(range(1, table + 1))
        chosen = {film(Pick(everyone, s, s), size, table) for s in range(1, table + 1)}
        assert len(chosen) == table
        for result in rd.RESULTS:
            answers = {film(CheckShown(s, result), size, table) for s in range(1, table + 1)}
            assert len(answers) == table, (size, table, result)


def _turn_to(seat: int, table: int, size: int) -> int:
    """The pixel of a pad's ring at `seat` that points at seat 1, the ring laid so that the
    pixel nearest its player points at him (what `table-app check` finds)."""
    home = round((seat - 1) * size / table) % size if table > size else (seat - 1) % size
    # pixel `home` faces the player, and seat `seat` is drawn at place(seat) + turn
    return (home - rd.place(seat, table, size)[0]) % size


@pytest.mark.parametrize("size", RING_SIZES)
def test_a_player_finds_his_own_seat_on_his_own_ring(size: int) -> None:
    # a seat's light is the one nearest its player (within a pixel of where he sits), and
    # on his ring, turned as it lies before him, his cursor looks like no other seat's
    for table in TABLES:
        everyone = frozenset(range(1, table + 1))
        for seat in range(1, table + 1):
            turn = _turn_to(seat, table, size)
            pixel, slot, sharing = rd.place(seat, table, size)
            where = (pixel + turn) % size
            if table <= size:
                assert where == (seat - 1) % size
            else:
                # the light's angle against the player's own direction round the table
                off = abs(where / size - (seat - 1) / table) % 1.0
                assert min(off, 1 - off) < 1 / size, (size, table, seat)
            mine = film(Pick(everyone, seat), size, table, turn)
            lit = [k for k in range(size) if any(frame[k] == rd.CURSOR for frame in mine)]
            assert lit == [where]
            others = {film(Pick(everyone, s), size, table, turn)
                      for s in everyone - {seat}}
            assert mine not in others


def test_a_shared_light_flashes_its_seat_s_place_and_a_lone_one_stays_steady() -> None:
    everyone = frozenset(range(1, 31))
    # 30 seats on 12 pixels: pixel 0 holds seats 1-3, pixel 1 seats 4-5
    assert [rd.place(s, 30, 12) for s in (1, 2, 3, 4, 5)] == [
        (0, 0, 3), (0, 1, 3), (0, 2, 3), (1, 0, 2), (1, 1, 2)]
    for seat, flashes in ((1, 1), (2, 2), (3, 3), (4, 1), (5, 2)):
        pixel = rd.place(seat, 30, 12)[0]
        seen = [render(Pick(everyone, seat), t, 12, 0, 1.0, 30)[pixel] for t in MOMENTS]
        # each flash lights the cursor; between them the light is the eligible dim
        rises = sum(1 for a, b in zip([rd.DIM, *seen], seen, strict=False)
                    if a != rd.CURSOR and b == rd.CURSOR)
        assert rises == flashes, (seat, seen)
        assert set(seen) == {rd.CURSOR, rd.DIM}
    # 30 seats on a 24-pixel ring: seat 2 has a light of its own, steady
    lone = [s for s in everyone if rd.place(s, 30, 24)[2] == 1]
    assert lone
    for seat in lone:
        pixel = rd.place(seat, 30, 24)[0]
        assert {render(Pick(everyone, seat), t, 24, 0, 1.0, 30)[pixel] for t in MOMENTS} \
            == {rd.CURSOR}


def test_a_cursor_beside_the_choice_on_one_light_shows_both() -> None:
    everyone = frozenset(range(1, 31))
    seen = {render(Pick(everyone, 2, 1), t, 12, 0, 1.0, 30)[0] for t in MOMENTS}
    assert seen == {rd.CURSOR, rd.CHOSEN}


def test_a_table_the_ring_holds_draws_as_it_always_did() -> None:
    # 12 seats and fewer on 12 pixels: the narrow pictures, one pixel a seat, unchanged
    for table in range(4, 13):
        pic = Pick(frozenset({1, 3}), 3, 1)
        assert encode(pic, table, 12)[0] == rd.PICK
        assert film(pic, 12, table) == (tuple(render(pic, 0.0)),) * len(MOMENTS)
    # 14 seats on 16 pixels: wide or not, one pixel a seat and nothing flashes
    pic = Vote(frozenset({13, 14}), 14)
    assert encode(pic, 14, 16)[0] == rd.VOTE
    assert len(set(film(pic, 16, 14))) == 1
    assert encode(pic, 20, 24)[0] == rd.VOTE_WIDE
    assert len(set(film(pic, 24, 20))) == 1
    assert not rd.animated(encode(pic, 20, 24), 24)
    assert rd.animated(encode(pic, 20, 12), 12)


def test_secret_pictures_light_the_same_whatever_they_say_at_a_big_table() -> None:
    # an answer's light has one place and one colour: red and black at the same seat flash
    # alike, only their colour differs
    for size in RING_SIZES:
        for seat in (1, 14, 29):
            lit = [[sum(1 for c in frame if c != rd.OFF) for frame in
                    film(CheckShown(seat, r), size, 30)] for r in ("red", "black")]
            assert lit[0] == lit[1]


def _micropython() -> str:
    from tests.test_firmware import micropython
    return micropython()


def test_the_pico_draws_a_big_table_pixel_for_pixel_as_the_pi_does() -> None:
    # the Pico draws a wide picture with viper machine code; the Pi with the same functions
    rng = random.Random(30)
    cases = []
    for _ in range(60):
        table = rng.randrange(13, 31)
        size = rng.choice(RING_SIZES)
        everyone = range(1, table + 1)
        pool = frozenset(s for s in everyone if rng.random() < 0.6)
        kind = rng.choice((Pick, Vote))
        pic = kind(pool, rng.choice([None, *everyone]), rng.choice([None, *everyone]),
                   rng.random() < 0.3)     # a part of a big choice, blinking: a third
        cases.append((list(encode(pic, table, size)), size, rng.randrange(size),
                      rng.choice(MOMENTS)))
        target = rng.choice(list(everyone))
        cases.append((list(encode(CheckShown(target, rng.choice(rd.RESULTS)), table, size)),
                      size, rng.randrange(size), rng.choice(MOMENTS)))
    code = (f"import sys; sys.path.insert(0, {str(FIRMWARE)!r})\n"
            "import ringdraw as rd, json\n"
            f"for p, size, turn, t in {cases!r}:\n"
            "    print(json.dumps([rd.render(bytes(p), t, size, turn, 1.0),"
            " rd.animated(bytes(p), size)]))\n")
    proc = subprocess.run([_micropython(), "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert len(lines) == len(cases)
    for (p, size, turn, t), line in zip(cases, lines, strict=True):
        want = [[list(c) for c in rd.render(bytes(p), t, size, turn, 1.0)],
                rd.animated(bytes(p), size)]
        assert json.loads(line) == want, (p, size, turn, t)


def test_the_legend_tells_seats_that_share_a_light_apart() -> None:
    from table_app.pads.legend import BIG_TABLE, LEGEND
    words = " ".join(w for *_, w in LEGEND + BIG_TABLE)
    assert "share" in words and "twice" in words
