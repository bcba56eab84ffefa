"""The pad's hood, checked from the numbers in pad.scad: who can see the ring's light?

    python3 hardware/pad/sightline.py        # prints the angles, writes sightline.svg

The hood is a tube of inside diameter `window_d` standing `hood_h` above the diffuser, its axis
leaning `tilt` degrees from upright toward the seated player. A ray of light leaves the
diffuser only if it clears the tube's rim, so a viewer sees the point p of the diffuser when
p + (hood_h / d_z) * (d_x, d_y) still lies inside the window, d being the direction to his
eyes in the hood's own frame (z along its axis). The check samples the whole diffuser for:
the player (and his eyes moved by `eye_tolerance` degrees any way), who must see every LED,
and his neighbours, the players two seats away and the players across the table, who must
see none of the window at all.
"""

from __future__ import annotations

import math
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SCAD = HERE / "pad.scad"


def numbers(path: Path = SCAD) -> dict[str, float]:
    """The `name = number;` assignments of pad.scad."""
    found = re.findall(r"^(\w+)\s*=\s*(-?[\d.]+)\s*;", path.read_text(), re.M)
    return {k: float(v) for k, v in found}


def _unit(v: tuple[float, float, float]) -> tuple[float, float, float]:
    n = math.sqrt(sum(c * c for c in v))
    return (v[0] / n, v[1] / n, v[2] / n)


def to_hood(v: tuple[float, float, float], tilt: float) -> tuple[float, float, float]:
    """A table-frame direction (x right, y away from the player, z up) in the hood's frame:
    the hood's axis is z turned `tilt` degrees toward the player (toward -y)."""
    a = math.radians(tilt)
    x, y, z = v
    # rotate by -tilt about x: the hood's axis (0, -sin a, cos a) becomes (0, 0, 1)
    return (x, y * math.cos(a) + z * math.sin(a), -y * math.sin(a) + z * math.cos(a))


def seen(n: dict[str, float], direction: tuple[float, float, float],
         points: list[tuple[float, float]]) -> float:
    """The share of `points` (on the diffuser, hood frame) a viewer looking back along
    `direction` (from the pad to his eyes, table frame) can see."""
    dx, dy, dz = to_hood(_unit(direction), n["tilt"])
    if dz <= 1e-9:
        return 0.0                                 # behind the diffuser's face
    r = n["window_d"] / 2
    k = n["hood_h"] / dz
    ok = sum(1 for px, py in points if math.hypot(px + k * dx, py + k * dy) <= r)
    return ok / len(points)


def disc(radius: float, rings: int = 24) -> list[tuple[float, float]]:
    pts = [(0.0, 0.0)]
    for i in range(1, rings + 1):
        rr = radius * i / rings
        m = 6 * i
        pts += [(rr * math.cos(2 * math.pi * j / m), rr * math.sin(2 * math.pi * j / m))
                for j in range(m)]
    return pts


def leds(n: dict[str, float]) -> list[tuple[float, float]]:
    """The twelve LED centres and the corners of their 5 mm bodies."""
    r = n["led_circle"] / 2
    out = []
    for k in range(12):
        a = 2 * math.pi * k / 12
        cx, cy = r * math.cos(a), r * math.sin(a)
        out += [(cx + ex, cy + ey) for ex in (-2.5, 0, 2.5) for ey in (-2.5, 0, 2.5)]
    return out


def viewers(n: dict[str, float]) -> dict[str, tuple[float, float, float]]:
    """Directions from the pad to each viewer's eyes (table frame, mm)."""
    d, h, s = n["eye_distance"], n["eye_height"], n["seat_spacing"]
    # a 12-seat round table of that spacing: its radius, and where seat k's eyes are
    radius = 12 * s / (2 * math.pi)
    # the table's centre at the origin, the player's eyes at (0, -radius), his pad `d` in
    # front of him toward the centre; seat k's eyes are k * 30 degrees round. The pad's frame
    # is the table's (y from the player toward the centre), so directions are differences
    pad = (0.0, -radius + d)
    out = {"player": (0.0, -d, h)}
    for k, name in ((1, "neighbour"), (2, "two seats away"), (6, "across the table")):
        a = math.radians(-90 + 30 * k)
        out[name] = (radius * math.cos(a) - pad[0], radius * math.sin(a) - pad[1], h)
    return out


def report(n: dict[str, float] | None = None) -> dict[str, float]:
    """The figures the README and the test use."""
    n = n or numbers()
    r = n["window_d"] / 2
    v = viewers(n)
    off = {}
    axis = _unit((0.0, -math.sin(math.radians(n["tilt"])), math.cos(math.radians(n["tilt"]))))
    for name, direction in v.items():
        u = _unit(direction)
        off[name] = math.degrees(math.acos(max(-1.0, min(1.0, sum(
            a * b for a, b in zip(u, axis, strict=True))))))
    window = disc(r)
    out = {
        "cutoff_deg": math.degrees(math.atan(n["window_d"] / n["hood_h"])),
        "player_all_leds_within_deg": math.degrees(math.atan(
            (r - n["led_circle"] / 2 - 2.5) / n["hood_h"])),
        "player_off_axis_deg": off["player"],
        "neighbour_off_axis_deg": off["neighbour"],
    }
    t = n["eye_tolerance"]                # the eyes anywhere on a cone of that angle
    out["player_sees_leds"] = min(
        seen(n, _tilted(v["player"], t * math.cos(a), t * math.sin(a)), leds(n))
        for a in [math.radians(15 * i) for i in range(24)] + [0.0])
    for name in ("neighbour", "two seats away", "across the table"):
        out[f"{name} sees window"] = seen(n, v[name], window)
    return out


def _tilted(v: tuple[float, float, float], yaw: float, pitch: float,
            ) -> tuple[float, float, float]:
    """`v` turned `yaw` degrees about the vertical and `pitch` degrees up or down."""
    x, y, z = _unit(v)
    a = math.radians(yaw)
    x, y = x * math.cos(a) - y * math.sin(a), x * math.sin(a) + y * math.cos(a)
    horiz = math.hypot(x, y)
    el = math.atan2(z, horiz) + math.radians(pitch)
    return (x / horiz * math.cos(el), y / horiz * math.cos(el), math.sin(el))


def svg(n: dict[str, float] | None = None) -> str:
    """A side section through the pad (the player to the left) with the sight lines."""
    n = n or numbers()
    rep = report(n)
    s = 3.0                                         # px per mm
    ox, oy = 300.0, 340.0                           # the hood's foot on the base
    tilt = math.radians(n["tilt"])
    ax, ay = -math.sin(tilt), -math.cos(tilt)       # the axis, on screen (y down)
    px_, py_ = math.cos(tilt), -math.sin(tilt)      # across the axis
    r, h = n["window_d"] / 2, n["hood_h"] + n["ring_t"] + n["diffuser_t"]

    def pt(along: float, across: float) -> str:
        x = ox + s * (ax * along + px_ * across)
        y = oy + s * (ay * along + py_ * across)
        return f"{x:.1f},{y:.1f}"

    def ray(angle_deg: float, length: float, colour: str, label: str) -> str:
        a = math.radians(angle_deg)                 # off the axis, toward the player: +
        dx = ax * math.cos(a) - px_ * math.sin(a)
        dy = ay * math.cos(a) - py_ * math.sin(a)
        cx, cy = ox + s * ax * (n["ring_t"] + n["diffuser_t"]), oy + s * ay * (
            n["ring_t"] + n["diffuser_t"])
        x2, y2 = cx + dx * length, cy + dy * length
        return (f'<line x1="{cx:.1f}" y1="{cy:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
                f'stroke="{colour}" stroke-width="2" stroke-dasharray="6,4"/>'
                f'<text x="{x2 + 4:.1f}" y="{y2:.1f}" font-size="14" fill="{colour}">'
                f'{label}</text>')

    base_w = n["base_d"] * s
    parts = [
        '<svg xmlns="http://www.w3.org/2000/svg" width="760" height="460" '
        'font-family="DejaVu Sans, sans-serif">',
        '<rect width="760" height="460" fill="white"/>',
        f'<rect x="{ox - base_w / 2 - s * n["hood_y"]:.1f}" y="{oy:.1f}" width="{base_w:.1f}" '
        f'height="{n["base_h"] * s:.1f}" fill="#bbb"/>',
        # the hood's two walls in section, the diffuser and the ring
        f'<polygon points="{pt(0, r)} {pt(h, r)} {pt(h, r + n["wall"])} {pt(0, r + n["wall"])}"'
        ' fill="#555"/>',
        f'<polygon points="{pt(0, -r)} {pt(h, -r)} {pt(h, -r - n["wall"])} '
        f'{pt(0, -r - n["wall"])}" fill="#555"/>',
        f'<polygon points="{pt(n["ring_t"], -r)} {pt(n["ring_t"], r)} '
        f'{pt(n["ring_t"] + n["diffuser_t"], r)} {pt(n["ring_t"] + n["diffuser_t"], -r)}" '
        'fill="#eee" stroke="#999"/>',
        ray(0, 260, "#1a7f37", f'to the player ({rep["player_off_axis_deg"]:.0f} deg off axis)'),
        ray(rep["cutoff_deg"], 230, "#b35900",
            f'light stops beyond {rep["cutoff_deg"]:.0f} deg'),
        ray(-rep["cutoff_deg"], 230, "#b35900", ""),
        ray(-rep["neighbour_off_axis_deg"], 250, "#b00020",
            f'neighbour: {rep["neighbour_off_axis_deg"]:.0f} deg off axis, sees nothing'),
        f'<text x="20" y="24" font-size="16">Pad hood, side section: window '
        f'{n["window_d"]:.0f} mm, depth {n["hood_h"]:.0f} mm, leaning {n["tilt"]:.0f} deg</text>',
        f'<text x="20" y="425" font-size="13">Eyes {n["eye_height"]:.0f} mm above the table, '
        f'{n["eye_distance"]:.0f} mm behind the pad; seats {n["seat_spacing"]:.0f} mm apart.'
        '</text>',
        '<text x="20" y="445" font-size="13">The neighbour sits off to the side: his angle '
        'off the hood\'s axis is drawn in this plane.</text>',
        "</svg>",
    ]
    return "\n".join(parts) + "\n"


def main() -> int:
    rep = report()
    for k, v in rep.items():
        print(f"{k}: {v:.3f}")
    (HERE / "sightline.svg").write_text(svg())
    ok = rep["player_sees_leds"] == 1.0 and all(
        rep[f"{w} sees window"] == 0.0 for w in ("neighbour", "two seats away",
                                                  "across the table"))
    print("the hood works" if ok else "THE HOOD LEAKS: change pad.scad")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
