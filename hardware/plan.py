"""The power budget and the cable plan, worked out from the firmware's own drawing code.

    python3 hardware/plan.py        # writes hardware/power-and-cables.md

Each ring picture is drawn by `firmware_bridge/ringdraw.py` exactly as the controller draws
it, at the night and day brightness caps, and its current is summed at 20 mA per colour
channel at full (WS2812B). The controller also caps the whole table at `BUDGET_MA`. The cables
are Cat5e patch cords (24 AWG), whose voltage drop is worked out for the worst ring.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

import protection  # noqa: E402
from firmware_bridge import fwconfig  # noqa: E402
from firmware_bridge import ringdraw as rd  # noqa: E402
from table_app.pads.multi import JACKS, controllers_for  # noqa: E402
from table_app.pads.rings import (  # noqa: E402
    CheckShown,
    Countdown,
    Fault,
    Pick,
    RoleCard,
    Vote,
    YesNo,
    encode,
)

MA_PER_CHANNEL = 20.0          # a WS2812B colour channel at full
OHM_PER_M_24AWG = 0.0842       # one conductor of Cat5e
PLUS_CONDUCTORS = 2            # pins 4 and 5
RETURN_CONDUCTORS = 4          # pins 2, 6, 7, 8 (all grounds, tied at both ends)
NIGHT_CAP, DAY_CAP = 0.25, 0.6  # the app's defaults (settings: light.night_cap, day_cap)
SEAT_SPACING = 0.60            # m between neighbours' eyes (the hood's table, pad.scad)
PAD_INSET = 0.35               # m from a player's eyes to his pad
MIN_RING_VOLTS = 3.7           # WS2812B: 3.5 V at least; keep a margin
LENGTHS = (1.0, 1.5, 2.0, 3.0, 5.0)
DARK_PIXEL_MA = 0.7            # a WS2812B lit black still runs its chip (0.6-1 mA measured)
# the cord's way from a pad to the box under the middle: back from the pad to the table's
# edge, down its edge and under the top (apron), along the underside to the middle, down
# to the box on the floor or a shelf, and slack at both plugs
EYE_TO_EDGE = 0.20             # m from a seated player's eyes back to the table's edge
TABLE_EDGE_DROP = 0.12         # m: over the rim and under the apron
BOX_DROP = 0.25                # m: from the underside down to the box
SLACK = 0.20                   # m: at the two plugs
CORDS = (1.5, 2.0, 3.0, 5.0)   # the patch cords shops sell
TO_THE_PI = 0.50               # m: from the table's edge to the Pi on the host's side table
USB_CABLES = (1.0, 2.0, 3.0, 5.0)  # USB A to micro-B cables sold; 5 m is USB 2.0's most
LONG_WIDTH = 0.80              # m across a long table, a row of players down each side
RING_SIZES = (12, 16, 24)      # the rings a pad may have (pads.ring, fwconfig.RING)
BIG_TABLES = (16, 20, 24, 30)  # the big tables the plan lists
PICO_MA = 50.0                 # the Pico and three 74AHCT125

PICTURES = [
    ("a question: 11 seats dim, the cursor", Pick(frozenset(range(1, 12)), 5)),
    ("the vote: 4 nominees, the cursor", Vote(frozenset({2, 5, 7, 9}), 5)),
    ("yes/no", YesNo(1)),
    ("a check's answer (one pixel)", CheckShown(4, "red")),
    ("a role card (two pixels)", RoleCard("mafia", 2)),
    ("the speaker's full minute (12 pixels)", Countdown(60, 60)),
    ("a pad fault (6 pixels)", Fault()),
]


def ring_ma(picture: object, cap: float, table: int = 12, size: int = 12) -> float:
    """A ring's current for `picture` at a table of `table` seats on rings of `size` pixels:
    its brightest moment (a countdown or a shared light's flashes change by themselves)."""
    data = encode(picture, table, size)                 # type: ignore[arg-type]
    moments = [k * 0.05 for k in range(int(rd.CUE_CYCLE / 0.05))] if rd.animated(data, size) \
        else [0.0]
    return max(sum(sum(c) for c in rd.render(data, t, size, 0, cap)) for t in moments) \
        * MA_PER_CHANNEL / 255


def drop(amps: float, metres: float) -> float:
    ohms = metres * OHM_PER_M_24AWG * (1 / PLUS_CONDUCTORS + 1 / RETURN_CONDUCTORS)
    return amps * ohms


def table_radius(seats: int = 12, spacing: float = SEAT_SPACING) -> float:
    """A round table's radius (to the players' eyes, less nothing: they sit at its edge)."""
    return seats * spacing / (2 * math.pi)


def cord_route(seats: int = 12, spacing: float = SEAT_SPACING) -> float:
    """Metres of cord from a pad to the box under the middle of a round table."""
    to_edge = PAD_INSET - EYE_TO_EDGE
    return (to_edge + TABLE_EDGE_DROP + table_radius(seats, spacing) - EYE_TO_EDGE + BOX_DROP
            + SLACK)


def cord_to_buy(seats: int = 12, spacing: float = SEAT_SPACING) -> float:
    """The shortest patch cord sold that makes the route."""
    need = cord_route(seats, spacing)
    return next(c for c in CORDS if c >= need)


def idle_ma(rings: int = 12, size: int = 12) -> float:
    """What the rings draw lit black: every pixel's chip runs."""
    return rings * size * DARK_PIXEL_MA


def supply_amps(ma: float) -> float:
    """A 5 V supply half again over `ma`, to the half ampere."""
    return math.ceil(ma * 1.5 / 500) * 0.5


def box_ma(table: int, size: int) -> dict[str, float]:
    """One controller box of a table of `table` seats on rings of `size` pixels, with all
    its twelve jacks taken (any pad goes in any jack: a box may have all twelve): what its
    rings would ask by day, what the firmware's budget lets them draw, their dark current,
    the whole box and its supply."""
    brightest = max(ring_ma(pic, DAY_CAP, table, size) for _, pic in big_pictures(table))
    ask = JACKS * brightest
    lit = min(ask, fwconfig.BUDGET_MA)
    dark = idle_ma(JACKS, size)
    whole = lit + PICO_MA + dark
    return {"ring": brightest, "ask": ask, "lit": lit, "dark": dark, "whole": whole,
            "supply": supply_amps(whole), "kept": lit / ask}


def big_pictures(table: int) -> list[tuple[str, object]]:
    """The day's brightest pictures at a table of `table` seats."""
    return [("a question: every other seat dim, the cursor", Pick(frozenset(range(1, table)), 5)),
            ("the speaker's full minute", Countdown(60, 60))]


def usb_to_buy(metres: float) -> float | None:
    """The shortest USB cable sold that makes `metres`, or None past USB 2.0's 5 m."""
    return next((c for c in USB_CABLES if c >= metres), None)


def round_usb_route(seats: int, spacing: float = SEAT_SPACING) -> float:
    """Metres of USB cable from the boxes under the middle of a round table to the Pi on a
    side table at the host's place: up from the box, along the underside to the edge, over
    it, and on to the Pi."""
    return (BOX_DROP + table_radius(seats, spacing) - EYE_TO_EDGE + TABLE_EDGE_DROP
            + TO_THE_PI + SLACK)


def long_table(seats: int, spacing: float = SEAT_SPACING,
               width: float = LONG_WIDTH) -> dict[str, float]:
    """A long table (tables pushed end to end, a row of players down each side) with one
    box under the middle of each of its parts and the Pi at the host's place, the middle of
    one long side: the table's length, the longest pad cord's route and the longest USB
    route."""
    boxes = controllers_for(seats)
    per_side = math.ceil(seats / 2)
    length = per_side * spacing
    # a box serves the seats of its part on both sides; its farthest pad is at its part's end
    part = math.ceil(per_side / boxes)
    along = (part - 1) / 2 * spacing
    cord = (PAD_INSET - EYE_TO_EDGE) + TABLE_EDGE_DROP + along + width / 2 + BOX_DROP + SLACK
    middles = [(k + 0.5) * length / boxes for k in range(boxes)]
    farthest = max(abs(m - length / 2) for m in middles)
    usb = BOX_DROP + farthest + width / 2 + TABLE_EDGE_DROP + TO_THE_PI + SLACK
    return {"boxes": boxes, "length": length, "cord": cord, "usb": usb}


def big_table() -> list[str]:
    """The plan's section for a table of 13 to 30 seats: two or three controller boxes."""
    out = [
        "",
        "## A big table: two or three controllers",
        "",
        "A table of 13 to 30 seats has one controller box for every twelve pads (two for 13-24, "
        "three for 25-30), each the same board, firmware and supply as the table of twelve, "
        "each on its own USB port of the Pi (a Pi 4 or 5 has four: three controllers and a "
        "keyboard; no hub is needed, and an unpowered one would feed three Picos from one "
        "port). Every box has its own 5 V supply and its own budget (the firmware's "
        f"BUDGET_MA = {fwconfig.BUDGET_MA} mA), and a short in one box blows only its own "
        "fuse. (A box whose supply is off keeps its Pico running from the Pi's USB: its "
        "buttons still work and its rings are dark, so switch every box on before `table-app "
        "check`, which finds dark rings.) Plug the Pi and every box into one power strip.",
        "",
        "One box, all twelve jacks taken, by day (the brightest pictures of a big table: a "
        "question with every other seat dim, the speaker's full minute), on rings of each "
        "size (`pads.ring` on the Pi, `RING` in the firmware's `fwconfig.py`):",
        "",
        "| table | ring | brightest ring | twelve ask | the budget lets | dark rings | the box "
        "| supply per box |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for seats in (24, 30):
        for size in RING_SIZES:
            b = box_ma(seats, size)
            dimmed = "" if b["kept"] >= 1 else f" ({b['kept']:.0%})"
            out.append(f"| {seats} seats | {size} pixels | {b['ring']:.0f} mA | "
                       f"{b['ask']:.0f} mA | {b['lit']:.0f} mA{dimmed} | {b['dark']:.0f} mA | "
                       f"{b['whole']:.0f} mA | 5 V, {b['supply']:.1f} A |")
    b24 = box_ma(30, 24)
    out += [
        "",
        "Where the budget lets less than the rings ask, the firmware dims every ring of that "
        "box alike (the share in brackets) while the brightest pictures are up; a question's "
        "cursor and choice stay the brightest lights on the ring. At night one ring at a "
        "time is lit and nothing dims. "
        f"On 24-pixel rings the dark current alone is {b24['dark']:.0f} mA a box; the same "
        "3 A supply holds it.",
        "",
        "### Cables at a big table",
        "",
        "At a round table the boxes sit together under the middle, and every pad's cord is "
        "routed as at twelve seats; their USB cables go under the table to the Pi at the "
        "host's place:",
        "",
        "| round table | across | boxes | pad cord route | cord to buy | USB route "
        "| USB cable |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for seats in BIG_TABLES:
        usb = round_usb_route(seats)
        cable = usb_to_buy(usb)
        out.append(f"| {seats} seats, {SEAT_SPACING * 100:.0f} cm a seat | "
                   f"{2 * (table_radius(seats) - EYE_TO_EDGE):.1f} m | "
                   f"{controllers_for(seats)} | {cord_route(seats):.2f} m | "
                   f"{cord_to_buy(seats):.1f} m | {usb:.2f} m | "
                   f"{f'{cable:.0f} m' if cable else 'too long for USB'} |")
    out += [
        "",
        f"A long table (tables end to end, {LONG_WIDTH * 100:.0f} cm across, a row of players "
        "down each side) spreads its boxes: one under the middle of each part of the table, "
        "the Pi at the host's place in the middle of one long side:",
        "",
        "| long table | its length | boxes | pad cord route | cord to buy | longest USB route "
        "| USB cable |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for seats in BIG_TABLES:
        t = long_table(seats)
        cable = usb_to_buy(t["usb"])
        out.append(f"| {seats} seats, {SEAT_SPACING * 100:.0f} cm a seat | {t['length']:.1f} m | "
                   f"{t['boxes']:.0f} | {t['cord']:.2f} m | "
                   f"{next(c for c in CORDS if c >= t['cord']):.1f} m | {t['usb']:.2f} m | "
                   f"{f'{cable:.0f} m' if cable else 'too long for USB'} |")
    worst = max(box_ma(30, size)["ring"] for size in RING_SIZES)
    longest = max(max(cord_to_buy(s), next(c for c in CORDS if c >= long_table(s)["cord"]))
                  for s in BIG_TABLES)
    v = drop(worst / 1000, longest)
    out += [
        "",
        f"No cord is longer than {longest:.0f} m and no USB cable than USB 2.0's 5 m: the "
        f"brightest ring of any size ({worst:.0f} mA, a 24-pixel ring's full minute) loses "
        f"{v * 1000:.0f} mV over {longest:.0f} m of cord and gets {5 - v:.2f} V. A cord or a "
        "USB cable longer than the table needs only adds to the tangle under it; buy every "
        "pad's cord for the widest table the club plays at.",
        "",
    ]
    return out


def plan() -> str:
    rows = [(name, ring_ma(pic, NIGHT_CAP), ring_ma(pic, DAY_CAP)) for name, pic in PICTURES]
    worst_ring = max(max(n, d) for _, n, d in rows)
    # the most the whole table can ask for: every seat the day's brightest picture, then the
    # controller's budget
    table_ask = 12 * max(d for _, _, d in rows)
    table_ma = min(table_ask, fwconfig.BUDGET_MA)
    pico_ma = PICO_MA
    dark_ma = idle_ma()
    supply_a = supply_amps(table_ma + pico_ma + dark_ma)
    lead_v = (table_ma + pico_ma) / 1000 * 2 * 2.0 * 0.021   # the supply's lead, 2 m
    out = [
        "# Power budget and cable plan",
        "",
        "Worked out by `python3 hardware/plan.py` from the firmware's own drawing code",
        "(`firmware_bridge/ringdraw.py`) and settings (`firmware_bridge/fwconfig.py`); a test",
        "checks this file is what it prints. WS2812B: 20 mA a colour channel at full.",
        "",
        "## One ring, by picture",
        "",
        f"| picture | night ({NIGHT_CAP:.0%} cap) | day ({DAY_CAP:.0%} cap) |",
        "| --- | --- | --- |",
    ]
    out += [f"| {name} | {n:.0f} mA | {d:.0f} mA |" for name, n, d in rows]
    out += [
        "",
        "## The whole table",
        "",
        f"- At night one ring at a time is lit (the seat that decides): at most "
        f"{max(n for _, n, _ in rows):.0f} mA.",
        f"- By day every seat may show the brightest picture at once: 12 x "
        f"{max(d for _, _, d in rows):.0f} mA = {table_ask:.0f} mA; the controller keeps the "
        f"whole table within BUDGET_MA = {fwconfig.BUDGET_MA} mA"
        + (" (it never has to dim)." if table_ask <= fwconfig.BUDGET_MA else
           " by dimming every ring alike."),
        f"- Dark rings still draw: 144 pixels' chips at about {DARK_PIXEL_MA} mA each, "
        f"{dark_ma:.0f} mA, night and day, even with every ring black.",
        f"- With the Pico and the level shifters ({pico_ma:.0f} mA): "
        f"{table_ma + pico_ma + dark_ma:.0f} mA at most. Supply: 5 V, {supply_a:.1f} A or more "
        f"(half again over the most it draws); the fuse F1: 3.15 A slow, and a 0.5 A "
        f"resettable fuse in each jack's 5 V, meant to trip on a crushed cord so the "
        f"table plays on; whether it does depends on how the supply behaves in a short "
        f"(see Protection, worked out, below: an adaptor that hiccups may never let it trip).",
        "",
        "## Cables",
        "",
        "The controller box sits under the middle of the table. A pad's cord goes back to "
        f"the table's edge ({PAD_INSET - EYE_TO_EDGE:.2f} m), over it and under the apron "
        f"({TABLE_EDGE_DROP:.2f} m), along the underside to the middle, down to the box "
        f"({BOX_DROP:.2f} m), with {SLACK:.2f} m of slack at the plugs:",
        "",
        "| round table | across | the route | cord to buy |",
        "| --- | --- | --- | --- |",
        *[f"| {n} seats, {sp * 100:.0f} cm a seat | "
          f"{2 * (table_radius(n, sp) - EYE_TO_EDGE):.1f} m | "
          f"{cord_route(n, sp):.2f} m | {cord_to_buy(n, sp):.1f} m |"
          for n, sp in ((12, 0.45), (12, SEAT_SPACING), (12, 0.70))],
        "",
        "Every pad has the same cord (Cat5e, 24 AWG, RJ45 at both ends): any pad plugs into "
        "any seat, and a broken one is swapped in a minute. Buy them all for the widest "
        "table the club plays at.",
        "",
        f"Voltage drop to the worst ring ({worst_ring:.0f} mA; +5 V on {PLUS_CONDUCTORS} "
        f"conductors, the return on {RETURN_CONDUCTORS}):",
        "",
        "| cord | drop | at the ring |",
        "| --- | --- | --- |",
    ]
    for m in LENGTHS:
        v = drop(worst_ring / 1000, m)
        out.append(f"| {m:.1f} m | {v * 1000:.0f} mV | {5 - v:.2f} V"
                   f"{'' if 5 - v >= MIN_RING_VOLTS else ' (too low)'} |")
    out += [
        "",
        "Data and button each travel twisted with a ground (pins 1-2 and 3-6), so a 5 m cord",
        "still carries clean edges; the 74AHCT125 drives 5 V levels into it (the WS2812B wants",
        "3.5 V for a high, more than the Pico's 3.3 V) through 33 ohm, which with the buffer's",
        "own output resistance about matches the pair and damps the reflection (a series",
        "termination at the source). The 330 ohm at each ring's DIN does not damp anything at",
        "that end: it limits the current into DIN's clamp diodes when data arrives at a ring",
        "whose supply is not up yet (a pad plugged in, a cord's 5 V contacts last to meet).",
        "",
        "The supply's own lead to the controller box: 18 AWG (0.021 ohm a metre a conductor),",
        f"at most 2 m: {lead_v * 1000:.0f} mV at the "
        "most the table draws.",
    ]
    out += protection.section(worst_ring / 1000, lead_v,
                              (table_ma + pico_ma + dark_ma) / 1000)
    return "\n".join(out + big_table())


def main() -> int:
    path = HERE / "power-and-cables.md"
    path.write_text(plan())
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
