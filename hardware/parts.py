"""What to buy, as data: each table's parts and their sums, written into hardware/README.md
(with the controller's wiring table, from schematic.py).

    python3 hardware/parts.py       # rewrites the generated tables in hardware/README.md

Prices are rough (2026, small quantities, USD); the totals are summed here, never typed, and
a test checks the README holds exactly these tables.
"""

from __future__ import annotations

import json
import math
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def pad_grams() -> int:
    """The grams of filament a pad's printed parts take with the README's profile: the
    slicer's figure (slicer/figures.json, from slicing.py), rounded up."""
    figs = json.loads((HERE / "slicer" / "figures.json").read_text())["petg-readme"]
    return math.ceil(sum(f["grams"] for f in figs.values()))


# (qty, part, part number or search name, each)
Part = tuple[int, str, str, float]

PAD: list[Part] = [
    (1, "12-pixel WS2812B ring, 37 mm", '"WS2812B 12 bit RGB LED ring 37mm"', 1.50),
    (1, "silent tactile switch, 12 x 12 x 7.3 mm, with a round cap",
     '"12x12 silent tactile switch" (soft, no click)', 0.30),
    (1, "RJ45 keystone jack, Cat5e or Cat6, tool-less", '"Cat6 keystone jack toolless"', 1.50),
    (1, "330 ohm resistor, 1/4 W (at the ring's DIN)", "", 0.02),
    (1, "100 uF 10 V electrolytic capacitor (at the ring)", "", 0.10),
    (1, "Cat5e patch cord, 2 m (see power-and-cables.md for the table's length)", "", 2.00),
    (1, "label for both plugs: \"MAFIA PAD - not Ethernet\"", "", 0.05),
    (1, "louvre (privacy) film, 2-way, 60 degrees, cut to a 52.4 mm disc (on the diffuser)",
     '"privacy filter film 2-way" (an A4 sheet makes 20)', 0.70),
    (pad_grams(), "g of PETG filament (base, collar and hood in black, diffuser in white: "
     "the slicer's figure)", "", 0.025),
    (2, "M3 heat-set inserts, 5.7 mm long (in the collar's foot, 7 mm deep holes)",
     '"M3 x 5.7 heat set insert"', 0.05),
    (2, "M3 x 8 pan head screws (the collar, from inside the base)", "DIN 7985", 0.03),
    (1, "perfboard, 26 x 18 mm (the switch's board)", "", 0.10),
    (2, "M2 x 6 self-tapping screws (the switch's board)", "", 0.02),
    (3, "rubber feet, 8 mm, self-adhesive (on the pads inside the base's rim)", "", 0.03),
    (1, "hookup wire (30 cm, 24 AWG) and heat-shrink", "", 0.25),
]

CONTROLLER: list[Part] = [
    (1, "Raspberry Pi Pico", "SC0915", 4.00),
    (2, "20-pin female header (the Pico socketed)", "", 0.30),
    (3, "quad buffer, 5 V, TTL inputs (the rings' data at 5 V)", "SN74AHCT125N (DIP-14)", 0.60),
    (3, "DIP-14 socket", "", 0.15),
    (6, "4-line ESD protection array (12 button and 12 data lines)",
     "SRV05-4 (SOT-23-6)", 0.30),
    (6, "SOT-23-6 to DIP adapter board", "", 0.30),
    (12, "resettable fuse 0.5 A, one in each jack's 5 V", "MF-R050", 0.15),
    (1, "Schottky diode, 1 A", "SS14 (or 1N5819)", 0.10),
    (1, "fuse 3.15 A slow, 5 x 20 mm, and a holder", "", 1.00),
    (1, "1000 uF 10 V electrolytic capacitor", "", 0.30),
    (12, "10 k, 1 k and 33 ohm resistors (one of each per seat)", "", 0.06),
    (15, "100 nF ceramic capacitor (one per button, one per buffer)", "", 0.05),
    (12, "RJ45 keystone jack (or a 12-port keystone panel)", "", 1.50),
    (1, "5 V 3 A supply and a panel barrel jack 5.5/2.1 mm", "Mean Well GST18E05-P1J", 10.00),
    (1, "perfboard 100 x 160 mm, a box, USB A to micro-B cable", "", 6.00),
    (1, "hookup wire, 24 AWG, a few metres", "", 1.00),
    (13, "labels (each jack's seat number, \"pads only - not Ethernet\" on the box)", "", 0.04),
]

RING_BOARD: list[Part] = [
    (2, "3-to-8 decoder, 5 V, TTL inputs", "74HCT238N (DIP-16)", 0.60),
    (2, "DIP-16 socket", "", 0.20),
    (12, "RJ45 jack, PCB mount, 8P8C unshielded", "", 0.50),
    (12, "resettable fuse 0.5 A", "MF-R050", 0.15),
    (6, "4-line ESD protection array (12 data and 12 button lines)",
     "SRV05-4 (SOT-23-6, on an adapter)", 0.50),
    (12, "33 ohm, 1 k and 10 k resistors (one of each per seat)", "", 0.06),
    (14, "100 nF ceramic capacitor (one per button, one per decoder)", "", 0.05),
    (1, "1000 uF 10 V electrolytic capacitor", "", 0.30),
    (1, "fuse 3.15 A slow, 5 x 20 mm, and a holder", "", 1.00),
    (1, "5 V 3 A supply and a panel barrel jack 5.5/2.1 mm", "Mean Well GST18E05-P1J", 10.00),
    (1, "40-way ribbon cable with IDC sockets, to the Pi's header", "", 2.50),
    (1, "perfboard 100 x 160 mm and a box", "", 5.00),
]

THE_PI: list[Part] = [
    (1, "Raspberry Pi 4 Model B, 2 GB (a Pi 5 has no headphone jack: use USB or HDMI audio)",
     "SC0193", 45.00),
    (1, "its power supply (Pi 4: 5.1 V 3 A USB-C; Pi 5: 27 W)", "SC0218", 8.00),
    (1, "microSD card, 32 GB, high endurance", '"SanDisk High Endurance 32GB"', 10.00),
    (1, "Raspberry Pi Touch Display 7\" (800 x 480) with its ribbon cable, or any HDMI screen",
     "", 60.00),
    (1, "powered speaker, 3.5 mm or USB", "", 15.00),
]

#: rough prices of the lengths a big table's cables come in: Cat5e patch cords, and USB A
#: to micro-B cables (the controller's list has a short one in its box's line)
CORD_USD = {1.5: 1.50, 2.0: 2.00, 3.0: 2.50, 5.0: 3.50}
USB_USD = {1.0: 2.00, 2.0: 3.00, 3.0: 4.00, 5.0: 6.00}
POWER_STRIP = (1, "power strip, 6 outlets (the Pi and every controller's supply)", "", 10.00)
BIG_TABLES = (16, 20, 24, 30)

LISTS = {"pad": PAD, "controller": CONTROLLER, "ring-board": RING_BOARD, "pi": THE_PI}
TITLES = {"pad": "per pad", "controller": "the controller", "ring-board": "the ring board",
          "pi": "the Pi"}


def total(parts: list[Part]) -> float:
    return sum(q * each for q, _, _, each in parts)


def usd(x: float) -> str:
    return f"{x:.3f}".rstrip("0").rstrip(".") if x < 1 else f"{x:.2f}"


def table(name: str) -> str:
    """The parts of `name` as a markdown table, its sum on the last line."""
    parts = LISTS[name]
    rows = ["| qty | part | part number or search name | each | sum |",
            "| --- | --- | --- | --- | --- |"]
    rows += [f"| {q} | {part} | {number} | {usd(each)} | {q * each:.2f} |"
             for q, part, number, each in parts]
    rows.append(f"| | **{TITLES[name]}** | | | **{total(parts):.2f} USD** |")
    return "\n".join(rows)


def summary() -> str:
    pads = 12 * total(PAD)
    return (f"A table of twelve pads: {pads:.0f} USD in pads, {total(CONTROLLER):.0f} in the "
            f"controller (or {total(RING_BOARD):.0f} in the ring board), {total(THE_PI):.0f} in "
            f"the Pi.")


def big_table(seats: int) -> dict[str, float]:
    """What a table of `seats` pads on two or three controllers costs (USD): the pads, each
    with its cord for the table (the longer of a round and a long table's, as plan.py works
    them out), a controller per twelve pads with a USB cable long enough, the Pi and a
    power strip."""
    sys.path.insert(0, str(HERE))
    import plan
    cord = max(plan.cord_to_buy(seats),
               next(c for c in plan.CORDS if c >= plan.long_table(seats)["cord"]))
    usb = plan.usb_to_buy(max(plan.round_usb_route(seats), plan.long_table(seats)["usb"]))
    if usb is None:
        raise ValueError(f"a table of {seats} needs a USB cable longer than USB 2.0 allows")
    boxes = plan.controllers_for(seats)
    cord_in_pad = next(each for _, p, _, each in PAD if "patch cord" in p)
    pads = seats * (total(PAD) - cord_in_pad + CORD_USD[cord])
    controllers = boxes * (total(CONTROLLER) + USB_USD[usb])
    strip = POWER_STRIP[0] * POWER_STRIP[3]
    return {"seats": seats, "cord": cord, "usb": usb, "boxes": boxes, "pads": pads,
            "controllers": controllers, "pi": total(THE_PI), "strip": strip,
            "total": pads + controllers + total(THE_PI) + strip}


def big_tables() -> str:
    """The big tables' costs as a markdown table."""
    rows = ["| table | pads, with their cords | controllers, with their USB cables | the Pi "
            "| power strip | all |",
            "| --- | --- | --- | --- | --- | --- |"]
    for seats in BIG_TABLES:
        b = big_table(seats)
        rows.append(f"| {seats} seats | {b['pads']:.0f} USD ({b['cord']:.0f} m cords) | "
                    f"{b['controllers']:.0f} USD ({b['boxes']:.0f} x, {b['usb']:.0f} m USB) | "
                    f"{b['pi']:.0f} USD | {b['strip']:.0f} USD | **{b['total']:.0f} USD** |")
    return "\n".join(rows)


def render(readme: str) -> str:
    """`readme` with every generated block (between <!-- parts:NAME --> and
    <!-- /parts:NAME -->) written anew."""
    def block(m: re.Match[str]) -> str:
        name = m.group(1)
        if name == "wiring":
            sys.path.insert(0, str(HERE))
            import schematic
            body = schematic.wiring_table()
        elif name == "printed":
            sys.path.insert(0, str(HERE))
            import slicing
            body = slicing.table()
        else:
            body = (summary() if name == "summary" else big_tables() if name == "big"
                    else table(name))
        return f"<!-- parts:{name} -->\n{body}\n<!-- /parts:{name} -->"
    return re.sub(r"<!-- parts:([\w-]+) -->\n(?:.*?\n)?<!-- /parts:\1 -->", block, readme,
                  flags=re.S)


def main() -> int:
    path = HERE / "README.md"
    path.write_text(render(path.read_text()))
    print(f"wrote the parts tables into {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
