"""The pad controller board and one pad, drawn from this file with schemdraw.

    python3 hardware/schematic.py      # writes hardware/controller.svg and hardware/pad.svg

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

# RJ45 (T568B colours) on every pad cable: data and button each twisted with a ground, the
# 5 V on a pair and the return on two more conductors
JACK = {1: "DATA", 2: "GND", 3: "BTN", 4: "+5V", 5: "+5V", 6: "GND", 7: "GND", 8: "GND"}


def controller() -> schemdraw.Drawing:
    d = schemdraw.Drawing(show=False, margin=2.5)
    d.config(fontsize=11, unit=2.2)

    # -- the ring supply: fuse, bulk capacitor, a Schottky diode into the Pico's VSYS -------
    d += elm.Label().label("+5 V in (5 V 3 A supply)", loc="left", halign="right").at((0, 0))
    d += elm.FuseIEC().right().at((0, 0)).label("F1 3.15 A slow", loc="top")
    d += (rail := elm.Dot())
    d += elm.Line().right(4)
    d += elm.Label().label("+5V_RINGS", loc="right", halign="left")
    d += elm.Capacitor(polar=True).down().at(rail.center).label("C1 1000 uF 10 V", loc="bottom")
    d += elm.Ground()
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
    d += (btn_in := elm.Dot())
    d += elm.Resistor().right().label("R2 1 k", loc="bottom")
    d += (btn_j := elm.Dot())
    d += elm.Line().right(2)
    d += elm.Label().label("BTN n (jack n pin 3)", loc="right", halign="left")
    d += elm.Resistor().up().at(btn_in.center).label("R1 10 k", loc="left")
    d += elm.Label().label("+3V3", loc="top")
    d += elm.Capacitor().down().at(btn_in.center).label("C2 100 nF", loc="left")
    d += elm.Ground()
    d += elm.DiodeTVS().down().at(btn_j.center).label("D2 ESD (SRV05-4)", loc="bottom")
    d += elm.Ground()

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
    d += elm.Line().right(1)
    d += elm.Label().label("DATA n (jack n pin 1)", loc="right", halign="left")
    d += elm.Label().label("VCC: +5V_RINGS (5 V out for the rings' data)",
                           halign="left").at((shifter.center[0] - 1.5, shifter.center[1] - 2.2))

    # -- the jack ---------------------------------------------------------------------------
    jack = elm.Ic(pins=[elm.IcPin(name=f"{p} {n}", side="left") for p, n in JACK.items()],
                  pinspacing=0.9, edgepadH=0.5, edgepadW=1.6,
                  label="J1..J12 RJ45").theta(0).anchor("center").at((27, -8))
    d += jack
    d += elm.Label().label("one jack a seat; pins 4, 5: +5V_RINGS; 2, 6, 7, 8: GND",
                           halign="center").at((27, -13.5))
    table = "\n".join(f"seat {s:2}: BTN GP{b}, DATA GP{r}" for s, b, r in CHANNELS)
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


def main() -> int:
    schemdraw.use("svg")
    for name, draw in (("controller", controller), ("pad", pad)):
        path = HERE / f"{name}.svg"
        path.write_bytes(draw().get_imagedata("svg"))
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
