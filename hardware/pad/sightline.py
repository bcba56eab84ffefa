"""The pad's hood, checked from the numbers in pad.scad: who can see the ring's light?

    python3 hardware/pad/sightline.py        # prints the figures, writes sightline.svg

Three ways the light could reach another player, each checked:

- **the window**: rays leaving the diffuser past the hood's rim and its top ridge (below);
- **the lit inside**: the hood's inner wall and ridges, lit by the diffuser, seen by a
  viewer beyond the window's cut-off (`wall_glow`: a matte black interior still sends back
  5 %); the light-trap ridges and a louvre film on the diffuser keep what he sees in shadow;
- **the base**: the ring's wires go down through a hole its board covers, so no light gets
  into the base and out round the button's cap or the keystone (`leaks`).

Checked at 12-seat round tables and long tables of 450 to 700 mm a seat, with each other
player seated, standing behind his chair and leaning in, and the player himself sitting,
leaning back and leaning in (`tables`, `player_views`); `markdown` is the table the hardware
README shows.

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


def _apertures(n: dict[str, float]) -> list[tuple[float, float]]:
    """(height above the diffuser, radius) of what a ray leaving the diffuser must pass: the
    top ridge's inner edge and the tube's rim (a straight ray is farthest from the axis at
    its ends, so the lower ridges never cut more than these)."""
    r = n["window_d"] / 2
    out = [(n["hood_h"], r)]
    if n.get("ridge", 0.0):
        out.append((_ridges(n)[-1], r - n["ridge"]))
    return out


def seen(n: dict[str, float], direction: tuple[float, float, float],
         points: list[tuple[float, float]]) -> float:
    """The share of `points` (on the diffuser, hood frame) a viewer looking back along
    `direction` (from the pad to his eyes, table frame) can see through the hood."""
    dx, dy, dz = to_hood(_unit(direction), n["tilt"])
    if dz <= 1e-9:
        return 0.0                                 # behind the diffuser's face
    louvre = n.get("louvre_deg", 0.0)
    if louvre and math.degrees(math.atan2(abs(dx), dz)) > louvre:
        return 0.0                                 # the film's louvres pass nothing there
    holes = [(h / dz, r) for h, r in _apertures(n)]
    ok = sum(1 for px, py in points
             if all(math.hypot(px + k * dx, py + k * dy) <= r for k, r in holes))
    return ok / len(points)


def off_axis(n: dict[str, float], direction: tuple[float, float, float]) -> float:
    """Degrees between the hood's axis and the direction to a viewer's eyes."""
    axis = (0.0, -math.sin(math.radians(n["tilt"])), math.cos(math.radians(n["tilt"])))
    u = _unit(direction)
    return math.degrees(math.acos(max(-1.0, min(1.0, sum(
        a * b for a, b in zip(u, axis, strict=True))))))


# -- the light on the hood's inside: what a viewer beyond the window's cut-off still sees -----
#: matte black PETG's diffuse reflectance (a glossy or grey interior is several times more)
MATTE_BLACK = 0.05


def _ridges(n: dict[str, float]) -> list[float]:
    """The heights of the ridges' flat undersides, from the diffuser (the top one's slope
    ends 1 mm below the rim; pad.scad's ridge_heights)."""
    p, rise, top = n.get("ridge_pitch", 0.0), n.get("ridge_rise", 0.0), n["hood_h"]
    if not p:
        return []
    out, z = [], top - rise - 1
    while z > p / 2:
        out.append(z)
        z -= p
    return sorted(out)


def _obstacles(n: dict[str, float]) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """The ridges in the meridional section (x across, z up the axis), both sides: each a
    flat underside and a sloping top."""
    r, d, rise = n["window_d"] / 2, n.get("ridge", 0.0), n.get("ridge_rise", 0.0)
    segs = []
    for z in _ridges(n):
        for side in (-1, 1):
            edge = (side * (r - d), z)
            segs.append(((side * r, z), edge))               # the underside
            segs.append((edge, (side * r, z + rise)))        # the top
    return segs


def _crosses(p: tuple[float, float], q: tuple[float, float],
             a: tuple[float, float], b: tuple[float, float]) -> bool:
    """Does segment p-q cross segment a-b (touching an end does not count)?"""
    def side(o: tuple[float, float], s: tuple[float, float], t: tuple[float, float]) -> float:
        return (s[0] - o[0]) * (t[1] - o[1]) - (s[1] - o[1]) * (t[0] - o[0])
    d1, d2 = side(a, b, p), side(a, b, q)
    d3, d4 = side(p, q, a), side(p, q, b)
    eps = 1e-9
    return (d1 * d2 < -eps) and (d3 * d4 < -eps)


def _surfaces(n: dict[str, float]) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """Points on the hood's inside in the section, each with its normal (into the tube)."""
    r, d, rise, top = n["window_d"] / 2, n.get("ridge", 0.0), n.get("ridge_rise", 0.0), \
        n["hood_h"]
    ridges = _ridges(n)
    out = []
    for side in (-1, 1):
        # the wall between the ridges (and below the first)
        spans, z0 = [], 0.0
        for z in ridges:
            spans.append((z0, z))
            z0 = z + rise
        spans.append((z0, top))
        for lo, hi in spans:
            for i in range(1, 8):
                out.append(((side * r, lo + (hi - lo) * i / 8), (-side, 0.0)))
        # each ridge's sloping top, facing up and in
        norm = math.hypot(rise, d) or 1.0
        for z in ridges:
            for i in range(1, 6):
                f = i / 6
                out.append(((side * (r - d * (1 - f)), z + rise * f),
                            (-side * rise / norm, d / norm)))
    return out


def wall_glow(n: dict[str, float], alpha: float) -> float:
    """The brightest part of the hood's inside a viewer `alpha` degrees off its axis sees,
    as a share of the diffuser's own brightness (0: everything he sees is in shadow). In the
    section through the axis and his eyes, where he sees deepest: each point he sees is lit
    by the part of the diffuser it sees (a 2-D view factor, Lambertian), and sends back
    MATTE_BLACK of it. Light that bounced twice (at most MATTE_BLACK squared) is left out."""
    if alpha >= 90:
        return 0.0
    r, top = n["window_d"] / 2, n["hood_h"]
    a = math.radians(alpha)
    u = (math.sin(a), math.cos(a))                  # toward the viewer, in the section
    segs = _obstacles(n)
    width = r - 0.2
    emitters = [(-width + 2 * width * (i + 0.5) / 120, 0.0) for i in range(120)]
    dx = 2 * width / 120
    # a louvre film on the diffuser sends no light further than this off the axis
    louvre = math.tan(math.radians(n.get("louvre_deg", 0.0) or 89.9))
    brightest = 0.0
    for p, normal in _surfaces(n):
        if normal[0] * u[0] + normal[1] * u[1] <= 0:
            continue                                 # faces away from him
        if u[1] <= 0:
            continue
        k = (top - p[1]) / u[1]
        out = (p[0] + k * u[0], top)
        if abs(out[0]) > r or any(_crosses(p, out, s0, s1) for s0, s1 in segs):
            continue                                 # hidden from him
        lit = 0.0
        for e in emitters:
            vx, vz = e[0] - p[0], e[1] - p[1]
            dist = math.hypot(vx, vz)
            cos_r = (normal[0] * vx + normal[1] * vz) / dist
            cos_e = -vz / dist                       # the diffuser faces up
            if cos_r <= 0 or cos_e <= 0 or abs(vx) > louvre * abs(vz):
                continue
            if any(_crosses(p, e, s0, s1) for s0, s1 in segs):
                continue
            lit += cos_r * cos_e / (2 * dist) * dx
        brightest = max(brightest, MATTE_BLACK * lit)
    return brightest


# -- the tables it is checked at -------------------------------------------------------------
SPACINGS = (450, 500, 550, 600, 650, 700)        # mm between neighbours' eyes
LONG_TABLE_WIDTH = 900.0


def _postures(n: dict[str, float]) -> dict[str, tuple[float, float, float]]:
    """How a neighbour may hold himself: (along the table's edge toward the player, toward
    the table, eyes above the table), from where he sits."""
    h = n["eye_height"]
    return {"seated": (0.0, 0.0, h), "standing": (0.0, -150.0, 850.0),
            "leaning in": (250.0, 150.0, 320.0)}


def table_viewers(n: dict[str, float], shape: str, spacing: float
                  ) -> dict[str, tuple[float, float, float]]:
    """Directions from the pad to the other players' eyes at a 12-seat round table or a
    long table (six a side) of `spacing` mm a seat, in every posture."""
    d = n["eye_distance"]
    out: dict[str, tuple[float, float, float]] = {}
    for posture, (along, inward, height) in _postures(n).items():
        if shape == "round":
            radius = 12 * spacing / (2 * math.pi)
            pad = (0.0, -radius + d)
            for k, name in ((1, "neighbour"), (2, "two seats away"), (6, "across")):
                a = math.radians(-90 + 30 * k)
                # his own tangent (toward the player) and his own way in
                tx, ty = math.sin(a), -math.cos(a)
                rx, ry = -math.cos(a), -math.sin(a)
                ex = radius * math.cos(a) + along * tx * (1 if k != 6 else 0) + inward * rx
                ey = radius * math.sin(a) + along * ty * (1 if k != 6 else 0) + inward * ry
                out[f"{name}, {posture}"] = (ex - pad[0], ey - pad[1], height)
        else:
            pad = (0.0, d)
            for k, name in ((1, "neighbour"), (2, "two seats away")):
                out[f"{name}, {posture}"] = (k * spacing - along, inward - pad[1], height)
            out[f"across, {posture}"] = (0.0, LONG_TABLE_WIDTH - inward - pad[1], height)
            out[f"across and one along, {posture}"] = (spacing - along,
                                                       LONG_TABLE_WIDTH - inward - pad[1],
                                                       height)
    return out


def player_views(n: dict[str, float]) -> dict[str, tuple[float, float, float]]:
    """The player's own eyes: sitting as the hood is made for, leaning back, leaning in."""
    return {"sitting": (0.0, -n["eye_distance"], n["eye_height"]),
            "leaning back": (0.0, -(n["eye_distance"] + 130), n["eye_height"] + 20),
            "leaning in": (0.0, -(n["eye_distance"] - 100), n["eye_height"] - 30)}


def tables(n: dict[str, float] | None = None) -> list[dict[str, object]]:
    """Every table the hood is checked at: for each, the most any other player sees of the
    window, the brightest lit inside he sees, and the closest one comes to the cut-off."""
    n = n or numbers()
    window = disc(n["window_d"] / 2 - n.get("ridge", 0.0), 16)
    rows: list[dict[str, object]] = []
    glow_at: dict[int, float] = {}

    def glow(alpha: float) -> float:
        key = int(alpha * 2)                     # half a degree is fine enough
        if key not in glow_at:
            glow_at[key] = wall_glow(n, key / 2)
        return glow_at[key]
    for shape in ("round", "long"):
        for spacing in SPACINGS:
            views = table_viewers(n, shape, spacing)
            worst_seen, worst_glow, who = 0.0, 0.0, ""
            closest = 180.0
            for name, v in views.items():
                share = seen(n, v, window)
                alpha = off_axis(n, v)
                g = glow(alpha)
                closest = min(closest, alpha)
                if share > worst_seen or (share == worst_seen and g > worst_glow):
                    worst_seen, worst_glow, who = share, max(worst_glow, g), name
                worst_glow = max(worst_glow, g)
            rows.append({"table": shape, "spacing": spacing, "sees_window": worst_seen,
                         "glow": worst_glow, "closest_deg": closest, "who": who,
                         "safe": worst_seen == 0.0 and worst_glow == 0.0})
    return rows


def leaks(n: dict[str, float]) -> float:
    """Light into the base, as a share of the ring's wire hole left uncovered by the ring's
    board (0: the board covers it; the button's gap and the keystone then show nothing)."""
    inner, outer = n["ring_id"] / 2, n["ring_od"] / 2
    lo, hi = n["wire_r"] - n["wire_hole"] / 2, n["wire_r"] + n["wire_hole"] / 2
    covered = max(0.0, min(hi, outer) - max(lo, inner))
    return 1.0 - covered / n["wire_hole"]


def markdown(n: dict[str, float] | None = None) -> str:
    """The README's table: at each table, the most another player sees, with and without
    the louvre film."""
    n = n or numbers()
    film, bare = tables(n), tables({**n, "louvre_deg": 0.0})
    rows = ["| table | a seat | with the film: window seen | lit inside seen | safe "
            "| without it: window | lit inside | safe |",
            "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for f, b in zip(film, bare, strict=True):
        rows.append(
            f"| {f['table']} | {f['spacing']} mm | {100 * float(str(f['sees_window'])):.0f} % "
            f"| {100 * float(str(f['glow'])):.2f} % | {'yes' if f['safe'] else '**no**'} "
            f"| {100 * float(str(b['sees_window'])):.0f} % "
            f"| {100 * float(str(b['glow'])):.2f} % | {'yes' if b['safe'] else '**no**'} |")
    return "\n".join(rows)


def render(readme: str) -> str:
    """The hardware README with its table of tables (between `<!-- sightlines -->` and
    `<!-- /sightlines -->`) made again from pad.scad's numbers."""
    head, sep, rest = readme.partition("<!-- sightlines -->\n")
    if not sep:
        return readme
    _, end, tail = rest.partition("<!-- /sightlines -->")
    return head + sep + markdown() + "\n" + end + tail


def report(n: dict[str, float] | None = None) -> dict[str, float]:
    """The figures the README and the test use."""
    n = n or numbers()
    r = n["window_d"] / 2 - n.get("ridge", 0.0)
    v = viewers(n)
    window = disc(r)
    out = {
        "cutoff_deg": math.degrees(math.atan(2 * r / _apertures(n)[-1][0])),
        "player_all_leds_within_deg": math.degrees(math.atan(
            (r - n["led_circle"] / 2 - 2.5) / _apertures(n)[-1][0])),
        "player_off_axis_deg": off_axis(n, v["player"]),
        "neighbour_off_axis_deg": off_axis(n, v["neighbour"]),
    }
    t = n["eye_tolerance"]                # the eyes anywhere on a cone of that angle
    out["player_sees_leds"] = min(
        seen(n, _tilted(v["player"], t * math.cos(a), t * math.sin(a)), leds(n))
        for a in [math.radians(15 * i) for i in range(24)] + [0.0])
    for name, view in player_views(n).items():
        out[f"player {name} sees leds"] = seen(n, view, leds(n))
    for name in ("neighbour", "two seats away", "across the table"):
        out[f"{name} sees window"] = seen(n, v[name], window)
        out[f"{name} sees lit inside"] = wall_glow(n, off_axis(n, v[name]))
    out["light into the base"] = leaks(n)
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
    for row in tables():
        print(f"{row['table']} table, {row['spacing']} mm a seat: "
              f"{'safe' if row['safe'] else 'NOT SAFE (' + str(row['who']) + ')'}")
    ok = rep["player_sees_leds"] == 1.0 and rep["light into the base"] == 0.0 and all(
        rep[f"{w} sees window"] == 0.0 and rep[f"{w} sees lit inside"] == 0.0
        for w in ("neighbour", "two seats away", "across the table"))
    print("the hood works" if ok else "THE HOOD LEAKS: change pad.scad")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
