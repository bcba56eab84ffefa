"""The controller's protection, worked out (issue #52, findings 5-7): what the per-jack fuse
and a thin cord cost the ring in volts, whether a short on one cord trips its fuse with the
supply the box has, and what a wrong cable (an Ethernet port, passive PoE) does to a jack.

plan.py writes these figures into power-and-cables.md; the tests check them. The part
figures are the datasheets' as issue #52 quotes them (MF-R050, 74AHCT125, WS2812B);
what only a built box can show is said so where it is written.
"""

from __future__ import annotations

import math

# -- the per-jack resettable fuse, Bourns MF-R050 ------------------------------------------
FUSE_HOLD_A = 0.5           # carries this for ever
FUSE_TRIP_A = 1.0           # trips, in time, at this or more
FUSE_R_MIN = 0.41           # ohm, new, at its lowest
FUSE_R_MAX = 0.77           # ohm, new, at its highest
FUSE_R_TRIPPED = 1.17       # ohm, at most, an hour after it tripped once (R1max)
FUSE_TRIP_S = 4.0           # s, the longest it takes to trip ...
FUSE_TRIP_TEST_A = 2.5      # ... at this current
FUSE_V_MAX = 60.0           # V it withstands tripped

# -- cords --------------------------------------------------------------------------------
OHM_PER_M = {24: 0.0842, 28: 0.213}   # one copper conductor a metre, by AWG
PLUS, RETURN = 2, 4                   # conductors: +5 V on pins 4, 5; GND on 2, 6, 7, 8
CORD_LENGTHS = (1.0, 2.0, 3.0, 5.0)

# -- the data line's buffer and the jack's series resistor ----------------------------------
BUFFER_ABS_MAX_MA = 25.0    # 74AHCT125: the most one output may source or sink
DATA_SERIES_OHM = 33.0      # the board's resistor into the cord now
SAFE_SERIES_OHM = 220.0     # the one that keeps an Ethernet port's winding within that
WINDING_OHM = 1.0           # an Ethernet port's transformer winding (pins 1-2): under 1 ohm
PAIR_Z0 = 100.0             # ohm, a Cat5e pair
NS_PER_M = 5.0              # a signal's delay along a cord
WS_VIH = 3.5                # V, the WS2812B's "high" at 5 V (0.7 VDD)
WS_T0H_MIN_NS = 250.0       # the shortest high a 0 bit has (0.40 us - 0.15 us)
RING_VDD_MAX = 5.3          # V, the WS2812B's supply at most
PAD_CAP_V = 10.0            # the 100 uF capacitor at the ring
PASSIVE_POE_V = (24.0, 48.0)
POE_SIGNATURE_KOHM = (19.0, 26.5)   # what an 802.3af/at switch must see before it powers
DARK_RING_MA = 12 * 0.7     # a pad's ring, dark, at 5 V


def cord_ohms(metres: float, awg: int) -> float:
    """A cord's round trip: +5 V on PLUS conductors out, the return on RETURN."""
    return metres * OHM_PER_M[awg] * (1 / PLUS + 1 / RETURN)


def drop_rows(ring_a: float, lead_v: float, supply_v: float = 5.0,
              ) -> list[dict[str, float]]:
    """For each cord (24 and 28 AWG, each length): the cord's drop, the fuse's (new, at its
    lowest and highest; after a trip) and the worst ring's volts (the supply's lead at the
    most the box draws, the cord, a tripped-once fuse), at `ring_a` through one jack."""
    rows = []
    for awg in (24, 28):
        for m in CORD_LENGTHS:
            cord = ring_a * cord_ohms(m, awg)
            rows.append({"awg": awg, "metres": m, "cord_v": cord,
                         "fuse_min_v": ring_a * FUSE_R_MIN, "fuse_max_v": ring_a * FUSE_R_MAX,
                         "fuse_tripped_v": ring_a * FUSE_R_TRIPPED,
                         "ring_v": supply_v - lead_v - cord - ring_a * FUSE_R_TRIPPED})
    return rows


def trip_seconds(amps: float) -> float:
    """The longest an MF-R050 may take to trip at `amps`, from its one datasheet point by
    the usual heat balance (I^2 - Ihold^2) t = constant: an estimate away from 2.5 A, and
    no trip at all at or below the hold current."""
    if amps <= FUSE_HOLD_A:
        return float("inf")
    k = (FUSE_TRIP_TEST_A ** 2 - FUSE_HOLD_A ** 2) * FUSE_TRIP_S
    return k / (amps ** 2 - FUSE_HOLD_A ** 2)


def short_amps(metres: float, awg: int, fuse_ohm: float, supply_v: float = 5.0) -> float:
    """What a dead short at a cord's far end draws, if the supply holds its volts."""
    return supply_v / (fuse_ohm + cord_ohms(metres, awg))


def supply_limit_needed(box_a: float) -> float:
    """A supply that limits its current (and keeps it up) must let this much through so a
    shorted cord's fuse gets FUSE_TRIP_TEST_A while every other ring takes the most it may."""
    return box_a + FUSE_TRIP_TEST_A


def hiccup_rms(peak_a: float, on_ms: float, period_ms: float) -> float:
    """The heating (RMS) current a supply in hiccup mode passes: bursts of `peak_a`."""
    return peak_a * math.sqrt(on_ms / period_ms)


def hiccup_duty_max(peak_a: float) -> float:
    """The share of the time a hiccup supply's bursts of `peak_a` may last and still never
    heat the fuse past its hold current."""
    return (FUSE_HOLD_A / peak_a) ** 2


def ethernet_ma(series_ohm: float, supply_v: float = 5.0) -> float:
    """DATA driven high into an Ethernet port: pins 1 and 2 (DATA and GND here) are the two
    ends of one transformer winding, so the buffer drives a short through `series_ohm`
    (its own output resistance, left out, makes it a little less)."""
    return supply_v / (series_ohm + WINDING_OHM) * 1000


def edge_ns(series_ohm: float, metres: float, supply_v: float = 5.0) -> tuple[float, float]:
    """A rising edge through `series_ohm` into a cord of `metres` with a ring's high input at
    its end: (the volts of its first step there, when it passes WS_VIH in ns): a source
    resistor over the pair's impedance climbs in steps, one every round trip."""
    gamma = (series_ohm - PAIR_Z0) / (series_ohm + PAIR_Z0)
    step = supply_v * PAIR_Z0 / (series_ohm + PAIR_Z0)
    v, k = 0.0, 0
    while True:
        v += 2 * step * gamma ** k if k else 2 * step
        k += 1
        if v >= WS_VIH:
            return 2 * step, (2 * k - 1) * metres * NS_PER_M
        if k > 50:
            return 2 * step, float("inf")


def section(ring_a: float, lead_v: float, box_a: float) -> list[str]:
    """power-and-cables.md's lines on the fuse, the supply and the wrong cable."""
    out = [
        "",
        "## Protection, worked out",
        "",
        f"Each jack's 5 V goes through an MF-R050 resettable fuse: {FUSE_R_MIN}-{FUSE_R_MAX} ohm "
        f"new, up to {FUSE_R_TRIPPED} ohm after it has tripped once. With it, the voltage "
        f"drop to the worst ring ({ring_a * 1000:.0f} mA) on a 24 AWG patch cord and on a thin "
        f"28 AWG one, and the worst ring's volts (5 V less the supply's lead, "
        f"{lead_v * 1000:.0f} mV, the cord and a fuse that tripped once):",
        "",
        "| cord | cord's drop | fuse, new | fuse, tripped once | the worst ring gets |",
        "| --- | --- | --- | --- | --- |",
    ]
    for r in drop_rows(ring_a, lead_v):
        out.append(f"| {r['metres']:.1f} m, {r['awg']:.0f} AWG | {r['cord_v'] * 1000:.0f} mV "
                   f"| {r['fuse_min_v'] * 1000:.0f}-{r['fuse_max_v'] * 1000:.0f} mV "
                   f"| {r['fuse_tripped_v'] * 1000:.0f} mV | {r['ring_v']:.2f} V |")
    need = supply_limit_needed(box_a)
    short_lo = short_amps(5.0, 28, FUSE_R_TRIPPED)
    weak = 3.0 * 1.05 - box_a
    out += [
        "",
        "Every ring stays above the WS2812B's 3.5 V; the fuse costs more than the cord.",
        "",
        f"**A crushed cord.** A short at a cord's far end, through the fuse and the cord, "
        f"draws {short_lo:.1f} A or more (5 m of 28 AWG, a tripped-once fuse) if the supply "
        f"keeps its 5 V. The MF-R050 holds {FUSE_HOLD_A} A for ever and may take up to "
        f"{FUSE_TRIP_S:.0f} s to trip at {FUSE_TRIP_TEST_A} A (about "
        f"{trip_seconds(1.5):.0f} s at 1.5 A, by the heat balance from that one datasheet "
        f"point). A supply does not keep its 5 V into a short: what it does then decides.",
        "",
        f"- A small adaptor such as the listed 3 A one (Mean Well GST18E05) commonly protects "
        f"itself by hiccup (its datasheet's overload line says which): it stops, waits and "
        f"tries again. The fuse is then heated as by the bursts' RMS current: bursts of 4 A "
        f"for {hiccup_duty_max(4.0) * 100:.1f} % of the time or less heat it as "
        f"{hiccup_rms(4.0, hiccup_duty_max(4.0) * 1000, 1000) * 1000:.0f} mA, its hold "
        f"current: it never trips, and a little more takes far longer than "
        f"{FUSE_TRIP_S:.0f} s. **Then the whole table goes dark and stays dark until the "
        f"cord is unplugged**; the Pico stays up on the Pi's USB and `table-app check` "
        f"names every ring dark. Even a 3 A supply that limits its current at 105 % leaves "
        f"the short "
        f"only {weak:.1f} A while the other rings draw the most they may ({box_a:.2f} A "
        f"for the box), and the fuse up to {trip_seconds(weak):.0f} s.",
        f"- **So the fuse trips with a supply that limits its current and keeps it up "
        f"(datasheet: \"constant current\" overload, not hiccup, not latch-off) at "
        f"{need:.2f} A or more: a 5 V 5 A one.** Then the short gets at least "
        f"{FUSE_TRIP_TEST_A} A however bright the rest is, and its fuse trips within "
        f"{FUSE_TRIP_S:.0f} s; meanwhile the rail sags and every ring blinks out, then the "
        f"other eleven come back at the firmware's next send (about a second). F1 must then "
        f"carry the supply's limit for those seconds: a 4 A slow fuse (a slow fuse holds "
        f"1.5 times its rating, 6 A, for an hour) in place of the 3.15 A.",
        "- Not yet done: the parts list still names the 3 A adaptor and F1 3.15 A; "
        "and only a built box, a cord shorted on purpose, shows the trip.",
        "",
        "**The wrong cable.** The jacks are RJ45 and so are network ports:",
        "",
        f"- A pad's jack patched into an Ethernet port: pins 1 and 2 (DATA and GND here) are "
        f"the two ends of one of the port's transformer windings (under {WINDING_OHM:.0f} "
        f"ohm), so DATA driven high is shorted to ground through the {DATA_SERIES_OHM:.0f} "
        f"ohm resistor: about {ethernet_ma(DATA_SERIES_OHM):.0f} mA from a 74AHCT125 output "
        f"rated {BUFFER_ABS_MAX_MA:.0f} mA at most. BTN (pin 3) meets pin 6 the same way: "
        f"the seat reads a held button (0.5 mA through its 10 k), harmless.",
        f"- A {SAFE_SERIES_OHM:.0f} ohm series resistor in place of the "
        f"{DATA_SERIES_OHM:.0f} ohm keeps that short to {ethernet_ma(SAFE_SERIES_OHM):.0f} mA, "
        f"within the buffer's rating, for as long as it lasts. The edge still gets there: into "
        f"a 100 ohm pair its first step is {edge_ns(SAFE_SERIES_OHM, 5.0)[0]:.1f} V at the "
        f"ring and it passes the WS2812B's {WS_VIH} V after "
        f"{edge_ns(SAFE_SERIES_OHM, 5.0)[1]:.0f} ns on a 5 m cord, well inside a 0 bit's "
        f"{WS_T0H_MIN_NS:.0f} ns high. Recommended; not yet on the schematic (schematic.py), "
        f"and only a scope on a built box shows the edge.",
        f"- Passive PoE (an injector, or a switch with it turned on) puts "
        f"{PASSIVE_POE_V[0]:.0f}-{PASSIVE_POE_V[1]:.0f} V on pins 4-5 against 7-8 without "
        f"asking: a pad's ring (its supply {RING_VDD_MAX} V at most) and its {PAD_CAP_V:.0f} V "
        f"capacitor die. No small series part on the pad survives that and still feeds the "
        f"ring; the labels are the protection: \"MAFIA PAD - not Ethernet\" on both plugs, "
        f"\"pads only - not Ethernet\" on the box. Standard PoE (802.3af/at) is safe: it "
        f"powers only a port that shows a {POE_SIGNATURE_KOHM[0]:.0f}-"
        f"{POE_SIGNATURE_KOHM[1]:.1f} kohm signature, and a pad (a dark ring draws about "
        f"{DARK_RING_MA:.0f} mA, under 1 kohm, and 100 uF) is none.",
    ]
    return out
