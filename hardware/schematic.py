"""The pad controller board, the Pi's ring board and one pad, drawn from this file with
schemdraw.

    python3 hardware/schematic.py      # writes controller.svg, pi-rings.svg and pad.svg

Nets with the same label are connected. One of the twelve seat channels is drawn on the
controller; the other eleven are the same, on the pins the table under the drawing names.
"""

from __future__ import annotations

import sys
from pathlib import Path

import schemdraw
import schemdraw.elements as elm

HERE = Path(__file__).resolve().parent

# (seat, button GP, ring data GP): firmware_bridge/fwconfig.py's BUTTON_PINS and RING_PINS
CHANNELS = list(zip(range(1, 13), range(2, 14), (14, 15, 16, 17, 18, 19, 20, 21, 22, 26, 27, 28),
                    strict=True))

# the Pico's physical pins (its pinout: GP numbers to the 40 pins round the board)
PICO_PIN = {0: 1, 1: 2, 2: 4, 3: 5, 4: 6, 5: 7, 6: 9, 7: 10, 8: 11, 9: 12, 10: 14, 11: 15,
            12: 16, 13: 17, 14: 19, 15: 20, 16: 21, 17: 22, 18: 24, 19: 25, 20: 26, 21: 27,
            22: 29, 26: 31, 27: 32, 28: 34}
# a 74AHCT125's gates (DIP-14): gate -> (OE, A, Y) pins; VCC 14, GND 7
GATE_PINS = {1: (1, 2, 3), 2: (4, 5, 6), 3: (10, 9, 8), 4: (13, 12, 11)}


def buffer_gate(seat: int) -> tuple[str, int]:
    """Which 74AHCT125 and which of its gates drives seat `seat`'s ring: U2 seats 1-4..."""
    return f"U{2 + (seat - 1) // 4}", (seat - 1) % 4 + 1


def wiring_table() -> str:
    """Per jack: the button's and the ring's Pico pin (GP and physical), the buffer gate."""
    rows = ["| jack (seat) | button: Pico GP (pin) | ring data: Pico GP (pin) "
            "| buffer gate: A pin, Y pin |", "| --- | --- | --- | --- |"]
    for seat, button, ring in CHANNELS:
        chip, gate = buffer_gate(seat)
        _, a, y = GATE_PINS[gate]
        rows.append(f"| J{seat} | GP{button} ({PICO_PIN[button]}) | GP{ring} ({PICO_PIN[ring]}) "
                    f"| {chip} gate {gate}: {a}, {y} |")
    return "\n".join(rows)


# the ring board on the Pi's header: (seat, button GPIO) from pins-rings.toml, the
# decoders' select pins A0..A3, and which decoder output is which jack's DATA
RING_BOARD_BUTTONS = [(1, 4), (2, 5), (3, 6), (4, 12), (5, 13), (6, 16), (7, 17), (8, 20),
                      (9, 21), (10, 22), (11, 2), (12, 3)]
RING_BOARD_SELECT = (23, 24, 25, 26)
RING_BOARD_OUTPUTS = [(j, "U1" if j <= 8 else "U2", f"Y{j - 1 if j <= 8 else j - 5}")
                      for j in range(1, 13)]

# RJ45 (T568B colours) on every pad cable: data and button each twisted with a ground, the
# 5 V on a pair and the return on two more conductors
JACK = {1: "DATA", 2: "GND", 3: "BTN", 4: "+5V", 5: "+5V", 6: "GND", 7: "GND", 8: "GND"}


def _ring_supply(d: schemdraw.Drawing) -> elm.Dot:
    """The rings' 5 V in: the fuse, the rail, its bulk capacitor; returns the rail's dot."""
    d += elm.Label().label("+5 V in (5 V 3 A supply)", loc="left", halign="right").at((0, 0))
    d += elm.FuseIEC().right().at((0, 0)).label("F1 3.15 A slow", loc="top")
    d += (rail := elm.Dot())
    d += elm.Line().right(4)
    d += elm.Label().label("+5V_RINGS", loc="right", halign="left")
    d += elm.Capacitor(polar=True).down().at(rail.center).label("C1 1000 uF 10 V", loc="bottom")
    d += elm.Ground()
    return rail


def _button(d: schemdraw.Drawing, names: tuple[str, str, str, str]) -> None:
    """One seat's button from where the drawing stands: the series resistor to the jack, the
    pull-up to 3V3, the filter capacitor, the ESD diode at the connector (their labels)."""
    series, pull_up, cap, esd = names
    d += (btn_in := elm.Dot())
    d += elm.Resistor().right().label(series, loc="top")
    d += (btn_j := elm.Dot())
    d += elm.Line().right(2)
    d += elm.Label().label("BTN n (jack n pin 3)", loc="right", halign="left")
    d += elm.Resistor().up().at(btn_in.center).label(pull_up, loc="bottom")
    d += elm.Label().label("+3V3", loc="top")
    d += elm.Capacitor().down().at(btn_in.center).label(cap, loc="bottom")
    d += elm.Ground()
    d += elm.DiodeTVS().down().at(btn_j.center).label(esd, loc="bottom")
    d += elm.Ground()


def controller() -> schemdraw.Drawing:
    d = schemdraw.Drawing(show=False, margin=2.5)
    d.config(fontsize=11, unit=2.2)

    # -- the ring supply: fuse, bulk capacitor, a Schottky diode into the Pico's VSYS -------
    rail = _ring_supply(d)
    d += elm.Line().right(2).at((rail.center[0] + 2, 0))
    d += elm.Line().down(2.5).at((rail.center[0] + 2, 0))
    d += elm.Schottky().right().label("D1 SS14", loc="top")
    d += elm.Label().label("D1: the Pico's USB never feeds the rings", halign="left").at(
        (rail.center[0] + 2, -3.6))
    d += elm.Label().label("VSYS", loc="right", halign="left")

    # -- the Pico ---------------------------------------------------------------------------
    pico = elm.Ic(pins=[
        elm.IcPin(name="VSYS", side="left"),
        elm.IcPin(name="GND", side="left"),
        elm.IcPin(name="3V3(OUT)", side="left"),
        elm.IcPin(name="USB", side="left"),
        elm.IcPin(name="GP14..22, 26..28 (rings)", side="right"),
        elm.IcPin(name="GP2..GP13 (buttons)", side="right"),
    ], edgepadW=6.0, edgepadH=0.8, pinspacing=1.6,
        label="U1\nRaspberry Pi\nPico").theta(0).anchor("center").at((4, -10))
    d += pico
    d += elm.Line().left(1.5).at(pico.VSYS)
    d += elm.Label().label("VSYS", loc="left", halign="right")
    d += elm.Line().left(1.5).at(pico.GND)
    d += elm.Ground()
    d += elm.Line().left(1.5).at(pico["3V3(OUT)"])
    d += elm.Label().label("+3V3", loc="left", halign="right")
    d += elm.Line().left(1.5).at(pico.USB)
    d += elm.Label().label("to the Pi", loc="left", halign="right")

    # -- one seat's button: pull-up, RC filter, ESD diode at the connector ------------------
    d += elm.Line().right(3).at(pico["GP2..GP13 (buttons)"])
    _button(d, ("R2 1 k", "R1 10 k", "C2 100 nF", "D2 ESD (SRV05-4 D2-D4,\nits VDD to +3V3)"))

    # -- one seat's ring data: a 5 V buffer, then the cable ---------------------------------
    d += elm.Line().right(1.5).at(pico["GP14..22, 26..28 (rings)"])
    d += elm.Line().down(6)
    d += elm.Line().right(3)
    shifter = elm.Ic(pins=[
        elm.IcPin(name="A", side="left", slot="1/2"),
        elm.IcPin(name="OE", side="left", slot="2/2", invert=True),
        elm.IcPin(name="Y", side="right"),
    ], edgepadW=1.5, pinspacing=1.2, label="U2..U4\n74AHCT125").theta(0).anchor("A").at(d.here)
    d += shifter
    d += elm.Line().left(0.8).at(shifter.OE)
    d += elm.Ground()
    d += elm.Resistor().right().at(shifter.Y).label("R3 33", loc="top")
    d += (data_j := elm.Dot())
    d += elm.Line().right(1)
    d += elm.Label().label("DATA n (jack n pin 1)", loc="right", halign="left")
    d += elm.DiodeTVS().down().at(data_j.center).label("D5 ESD (SRV05-4 D5-D7,\nits VDD to "
                                                      "+5V_RINGS)", loc="bottom")
    d += elm.Ground()
    d += elm.Label().label("VCC (pin 14): +5V_RINGS, 100 nF to GND at each of U2-U4",
                           halign="left").at((shifter.center[0] - 3.5, shifter.center[1] - 3.6))

    # -- the jack ---------------------------------------------------------------------------
    jack = elm.Ic(pins=[elm.IcPin(name=f"{p} {n}", side="left") for p, n in JACK.items()],
                  pinspacing=0.9, edgepadH=0.5, edgepadW=1.6,
                  label="J1..J12 RJ45").theta(0).anchor("center").at((27, -8))
    d += jack
    d += elm.Label().label("one jack a seat; pins 4, 5: +5V_RINGS through F2..F13 "
                           "(0.5 A PTC, one a jack); 2, 6, 7, 8: GND",
                           halign="center").at((27, -13.5))
    table = "\n".join(
        f"seat {s:2}: BTN GP{b} (pin {PICO_PIN[b]}), DATA GP{r} (pin {PICO_PIN[r]}) "
        f"via {buffer_gate(s)[0]} gate {buffer_gate(s)[1]}" for s, b, r in CHANNELS)
    d += elm.Label().label(table, halign="left", valign="top", fontsize=9).at((-2, -21))
    return d


def pad() -> schemdraw.Drawing:
    d = schemdraw.Drawing(show=False, margin=1.5)
    d.config(fontsize=11, unit=2.2)
    jack = elm.Ic(pins=[elm.IcPin(name=f"{p} {n}", side="right") for p, n in JACK.items()],
                  pinspacing=1.0, edgepadH=0.5, edgepadW=1.6,
                  label="J1\nRJ45").theta(0).anchor("center").at((0, 0))
    d += jack
    # the data: 330 ohm at the ring's DIN (this end of the cable, not the controller's)
    d += elm.Line().right(1.5).at(jack["1 DATA"])
    d += elm.Resistor().right().label("R1 330 (at the ring's DIN)", loc="bottom")
    d += elm.Line().right(1.5)
    ring = elm.Ic(pins=[
        elm.IcPin(name="DIN", side="left"),
        elm.IcPin(name="5V", side="top"),
        elm.IcPin(name="GND", side="bottom"),
    ], edgepadW=2.2, edgepadH=1.0,
        label="12 x WS2812B\nring, 37 mm").theta(0).anchor("DIN").at(d.here)
    d += ring
    d += elm.Line().up(1).at(ring["5V"])
    d += elm.Label().label("+5V", loc="top")
    d += elm.Line().down(0.6).at(ring.GND)
    d += elm.Ground(lead=False)
    # the ring's own reservoir, right at it
    cx = ring.center[0] + 4.5
    d += elm.Label().label("+5V", loc="top").at((cx, ring.center[1] + 2.2))
    d += elm.Capacitor(polar=True).down().at((cx, ring.center[1] + 2.2)).label(
        "C1 100 uF 10 V\n(at the ring)", loc="bottom")
    d += elm.Ground()
    # power in on two conductors, ground on four
    for p in ("4 +5V", "5 +5V"):
        d += elm.Line().right(1).at(jack[p])
        d += elm.Label().label("+5V", loc="right", halign="left")
    for p in ("2 GND", "6 GND", "7 GND", "8 GND"):
        d += elm.Line().right(0.8).at(jack[p])
        d += elm.Ground(lead=False)
    # the button: to ground, conditioned at the controller's end
    d += elm.Line().right(1.2).at(jack["3 BTN"])
    d += elm.Button().right().label("S1 silent 12x12 tactile", loc="top")
    d += elm.Ground()
    return d


def pi_rings() -> schemdraw.Drawing:
    """The ring board: SPI0's MOSI through two 74HCT238 decoders to the twelve jacks' DATA,
    the buttons to GPIO, the rings' own 5 V supply."""
    d = schemdraw.Drawing(show=False, margin=2.5)
    d.config(fontsize=11, unit=2.2)
    # -- the rings' supply (the Pi has its own) -----------------------------------------------
    rail = _ring_supply(d)
    d += elm.Label().label("GND is joined to the Pi's GND (header pin 6); the Pi's 5 V is not "
                           "connected", halign="left").at((rail.center[0] + 1, -3.2))

    # -- the Pi's header --------------------------------------------------------------------
    pi = elm.Ic(pins=[
        elm.IcPin(name="buttons (table below)", side="right"),
        elm.IcPin(name="GPIO10 MOSI (pin 19)", side="right"),
        elm.IcPin(name="GPIO23 A0 (pin 16)", side="right"),
        elm.IcPin(name="GPIO24 A1 (pin 18)", side="right"),
        elm.IcPin(name="GPIO25 A2 (pin 22)", side="right"),
        elm.IcPin(name="GPIO26 A3 (pin 37)", side="right"),
        elm.IcPin(name="3V3 (pin 1)", side="left"),
        elm.IcPin(name="GND (pin 6)", side="left"),
    ], edgepadW=7.0, edgepadH=0.8, pinspacing=1.3,
        label="Raspberry Pi 4 / 5\n40-pin header").theta(0).anchor("center").at((3, -11))
    d += pi
    d += elm.Line().left(1.5).at(pi["3V3 (pin 1)"])
    d += elm.Label().label("+3V3", loc="left", halign="right")
    d += elm.Line().left(1.5).at(pi["GND (pin 6)"])
    d += elm.Ground()

    # -- the decoders: MOSI on G1, the select pins on A0..A2 and G2A ------------------------
    u1 = elm.Ic(pins=[
        elm.IcPin(name="G1", side="left"), elm.IcPin(name="A0", side="left"),
        elm.IcPin(name="A1", side="left"), elm.IcPin(name="A2", side="left"),
        elm.IcPin(name="G2A", side="left", invert=True),
        elm.IcPin(name="G2B", side="left", invert=True),
        elm.IcPin(name="Y0..Y7", side="right"),
    ], edgepadW=4.5, pinspacing=1.1,
        label="U1 74HCT238\n(jacks 1-8)").theta(0).anchor("center").at((20, -6))
    d += u1
    u2 = elm.Ic(pins=[
        elm.IcPin(name="G1", side="left"), elm.IcPin(name="A0", side="left"),
        elm.IcPin(name="A1", side="left"), elm.IcPin(name="A2", side="left"),
        elm.IcPin(name="G2A", side="left", invert=True),
        elm.IcPin(name="G2B", side="left", invert=True),
        elm.IcPin(name="Y4..Y7", side="right"),
    ], edgepadW=4.5, pinspacing=1.1,
        label="U2 74HCT238\n(jacks 9-12)").theta(0).anchor("center").at((20, -17))
    d += u2
    nets = {"G1": "MOSI", "A0": "A0", "A1": "A1"}
    for u, extra in ((u1, {"A2": "A2", "G2A": "A3"}), (u2, {"A2": "A3", "G2A": "A2"})):
        for pin, net in {**nets, **extra}.items():
            d += elm.Line().left(1.2).at(u[pin])
            d += elm.Label().label(net, loc="left", halign="right")
        d += elm.Line().left(0.8).at(u.G2B)
        d += elm.Ground(lead=False)
    for name, net in (("GPIO10 MOSI (pin 19)", "MOSI"), ("GPIO23 A0 (pin 16)", "A0"),
                      ("GPIO24 A1 (pin 18)", "A1"), ("GPIO25 A2 (pin 22)", "A2"),
                      ("GPIO26 A3 (pin 37)", "A3")):
        d += elm.Line().right(1.5).at(pi[name])
        d += elm.Label().label(net, loc="right", halign="left")
    d += elm.Label().label("VCC (pin 16): +5V_RINGS, 100 nF to GND at each; Y0..Y3 of U2 open",
                           halign="left").at((16, -22.5))
    # -- one jack's data: 33 ohm at the decoder's output; the 330 ohm is at the ring ---------
    for u, pin in ((u1, "Y0..Y7"), (u2, "Y4..Y7")):
        d += elm.Resistor().right().at(u[pin]).label("33", loc="top")
        d += elm.Line().right(1)
        d += elm.Label().label("DATA n (jack n pin 1)", loc="right", halign="left")

    # -- one seat's button, as on the controller ---------------------------------------------
    d += elm.Line().right(1.5).at(pi["buttons (table below)"])
    d += elm.Line().down(11)
    d += elm.Line().right(2)
    _button(d, ("1 k", "10 k", "100 nF", "ESD (SRV05-4)"))

    # -- the jack: the same pad and cord as the controller's ---------------------------------
    jack = elm.Ic(pins=[elm.IcPin(name=f"{p} {n}", side="left") for p, n in JACK.items()],
                  pinspacing=0.9, edgepadH=0.5, edgepadW=1.6,
                  label="J1..J12 RJ45").theta(0).anchor("center").at((40, -10))
    d += jack
    d += elm.Label().label("pins 4, 5: +5V_RINGS through a 0.5 A PTC a jack; 2, 6, 7, 8: GND",
                           halign="center").at((40, -15.5))
    rows = [f"seat {s:2}: BTN GPIO{b:<2}  DATA {u} {y}"
            for (s, b), (_, u, y) in zip(RING_BOARD_BUTTONS, RING_BOARD_OUTPUTS, strict=True)]
    d += elm.Label().label("\n".join(rows), halign="left", valign="top",
                           fontsize=9).at((-2, -31))
    return d


def main() -> int:
    schemdraw.use("svg")
    for name, draw in (("controller", controller), ("pi-rings", pi_rings), ("pad", pad)):
        path = HERE / f"{name}.svg"
        path.write_bytes(draw().get_imagedata("svg"))
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
