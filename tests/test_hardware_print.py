"""The pad as a printer and a builder meet it (issue #52): every printed part sliced by
PrusaSlicer (headless) with the README's profile and a common one, the parts list the
slicer's figures; and the README's build steps done on the meshes, each part swept along its
way in past everything already placed, the ring and the diffuser centred by their seat."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import pytest

HW = Path(__file__).resolve().parent.parent / "hardware"
sys.path[:0] = [str(HW), str(HW / "pad")]

from test_hardware import _tool  # noqa: E402  (a tool CI installs: skip, or fail under CI)

import build  # noqa: E402
import sightline  # noqa: E402
import slicing  # noqa: E402


# -- the slicer ----------------------------------------------------------------------------
@pytest.fixture(scope="module")
def sliced() -> dict[str, dict[str, dict[str, float]]]:
    """Every printed part as committed, sliced now with every profile in hardware/slicer/
    (about half a minute); slicing.SlicerWarning on any warning."""
    _tool("prusa-slicer")
    return slicing.slice_all(build.PARTS)


def test_every_part_slices_without_a_warning_and_the_parts_list_is_the_slicer_s(
        sliced: dict[str, dict[str, dict[str, float]]]) -> None:
    assert list(sliced) == list(slicing.PROFILES)
    for profile, figs in sliced.items():
        assert list(figs) == list(build.PARTS), profile
        for part, f in figs.items():
            assert f["seconds"] > 60 and f["grams"] > 1, (profile, part)
    # the figures committed (and in the README) are what the slicer says now: the grams
    # exactly, the time within 1 % (PrusaSlicer's estimate moves by a few seconds from one
    # run to the next: its slicing runs in threads)
    committed = slicing.figures()
    assert list(committed) == list(sliced)
    for profile, figs in sliced.items():
        assert list(committed[profile]) == list(figs), profile
        for part, f in figs.items():
            was = committed[profile][part]
            assert was["grams"] == f["grams"], (profile, part)
            assert abs(was["seconds"] - f["seconds"]) <= 0.01 * f["seconds"], (profile, part)
    import parts
    readme = (HW / "README.md").read_text()
    assert parts.render(readme) == readme          # python3 hardware/slicing.py was run
    assert slicing.table(committed) in readme
    grams = next(q for q, p, _, _ in parts.PAD if "filament" in p)
    assert grams == math.ceil(slicing.totals(sliced["petg-readme"])["grams"])


def test_a_pad_takes_at_most_70_g_with_either_profile(
        sliced: dict[str, dict[str, dict[str, float]]]) -> None:
    # the old pad: 154 g with the README's profile, 132 g with the common one
    for profile, figs in sliced.items():
        assert slicing.totals(figs)["grams"] <= slicing.BUDGET_G, profile


@pytest.mark.xfail(strict=True, reason="issue #52: a pad still takes about 6 h 17 m (README's "
                   "profile) and 6 h 23 m (common PLA); the smallest tube the light test passes "
                   "with the 37 mm ring (55 mm, 54 deep) alone slices to 2 h 08 m / 2 h 22 m, "
                   "so the pad stays over 3 h even without a collar (hardware/README.md)")
def test_a_pad_prints_in_at_most_3_hours_with_either_profile(
        sliced: dict[str, dict[str, dict[str, float]]]) -> None:
    for profile, figs in sliced.items():
        assert slicing.totals(figs)["seconds"] <= slicing.BUDGET_S, profile


def test_the_hood_s_test_coupon_slices_without_a_warning(tmp_path: Path) -> None:
    """The coupon (the tube's top 16 mm, as the tube prints) a club prints first."""
    _tool("prusa-slicer")
    for profile in slicing.PROFILES:
        f = slicing.slice_part(HW / "pad" / f"{build.COUPON}.stl",
                               slicing.PROFILES_DIR / f"{profile}.ini", tmp_path)
        assert f["grams"] > 1, profile


def _cube_facets(x0: float, z0: float, s: float) -> list[str]:
    v = [(x0 + (i & 1) * s, (i >> 1 & 1) * s, z0 + (i >> 2 & 1) * s) for i in range(8)]
    quads = [(0, 2, 3, 1), (4, 5, 7, 6), (0, 1, 5, 4), (2, 6, 7, 3), (0, 4, 6, 2), (1, 3, 7, 5)]
    out = []
    for a, b, c, d in quads:
        for tri in ((a, b, c), (a, c, d)):
            out.append("facet normal 0 0 0\nouter loop\n" + "".join(
                f"vertex {v[k][0]} {v[k][1]} {v[k][2]}\n" for k in tri) + "endloop\nendfacet\n")
    return out


def test_the_slicer_check_fails_on_a_warning(tmp_path: Path) -> None:
    """Two cubes, one floating 10 mm above the other: the slicer prints the G-code but warns
    of an empty layer, and the check refuses it."""
    _tool("prusa-slicer")
    stl = tmp_path / "floating.stl"
    stl.write_text("solid t\n" + "".join(_cube_facets(0, 0, 10) + _cube_facets(0, 20, 10))
                   + "endsolid t\n")
    with pytest.raises(slicing.SlicerWarning, match="(?i)empty layer"):
        slicing.slice_part(stl, slicing.PROFILES_DIR / "pla-common.ini", tmp_path)


def test_the_slicer_s_times_are_read_right() -> None:
    assert slicing.seconds("1h 28m 16s") == 5296
    assert slicing.seconds("12m 7s") == 727
    assert slicing.seconds("1d 0h 0m 1s") == 86401
    with pytest.raises(ValueError):
        slicing.seconds("about an hour")


# -- putting it together, on the meshes ------------------------------------------------------
def _n() -> dict[str, float]:
    n = sightline.numbers()
    n["top_z"] = n["plate_t"] + n["base_h"]
    n["hood_r"] = n["window_d"] / 2 + n["wall"]
    n["hood_lift"] = n["hood_r"] * math.sin(math.radians(n["tilt"])) + 1
    n["seat_top"] = n["ring_t"] + n["diffuser_t"]           # the ring lies at 0, the collar's top
    n["tube_len"] = n["seat_top"] + n["hood_h"]
    return n


def _solid(name: str) -> object:
    trimesh = pytest.importorskip("trimesh")
    manifold3d = pytest.importorskip("manifold3d")
    import numpy as np
    m = trimesh.load(HW / "pad" / f"{name}.stl")
    return manifold3d.Manifold(manifold3d.Mesh(
        vert_properties=np.asarray(m.vertices, dtype=np.float32),
        tri_verts=np.asarray(m.faces, dtype=np.uint32)))


def _place(tube_frame_solid: object, n: dict[str, float]) -> object:
    """A solid given in the hood's own frame (its axis z), put where the hood stands."""
    return tube_frame_solid.rotate([n["tilt"], 0, 0]).translate(  # type: ignore[attr-defined]
        [0, n["hood_y"], n["top_z"] + n["hood_lift"]])


def _axis(n: dict[str, float]) -> tuple[float, float, float]:
    a = math.radians(n["tilt"])
    return (0.0, -math.sin(a), math.cos(a))


def _ring(n: dict[str, float]) -> object:
    """The bought ring in the hood's frame on its seat: its board and twelve 5 x 5 LEDs."""
    manifold3d = pytest.importorskip("manifold3d")
    M = manifold3d.Manifold
    board = M.cylinder(1.6, n["ring_od"] / 2, n["ring_od"] / 2, 96) - M.cylinder(
        4, n["ring_id"] / 2, n["ring_id"] / 2, 96).translate([0, 0, -1])
    for k in range(12):
        led = M.cube([5, 5, 1.6], True).translate([n["led_circle"] / 2, 0, 1.6 + 0.8]).rotate(
            [0, 0, 30 * k])
        board = board + led
    return board


def _pad_in_place() -> dict[str, object]:
    """Each printed part where the assembled pad has it, from the STL it prints from."""
    n = _n()
    return {
        # the base prints upside down, the collar on its foot, the tube on its rim
        "base": _solid("base").mirror([0, 0, 1]).translate([0, 0, n["top_z"]]),  # type: ignore[attr-defined]
        "collar": _solid("collar").translate([0, 0, n["top_z"]]),  # type: ignore[attr-defined]
        "hood": _place(_solid("hood").translate([0, 0, -n["tube_len"]]).mirror(  # type: ignore[attr-defined]
            [0, 0, 1]), n),
        "diffuser": _place(_solid("diffuser").translate([0, 0, n["ring_t"]]), n),  # type: ignore[attr-defined]
    }


def _overlap(a: object, b: object) -> float:
    return float((a ^ b).volume())  # type: ignore[operator]


#: what parts that only touch overlap by: the meshes' float32 vertices, turned 38 degrees,
#: leave faces that lie on each other a few hundred-thousandths of a mm apart (0.009 mm3
#: over the ring's 660 mm2 on its floor); a part that meets another overlaps by cubic mm
TOUCH = 0.05


def _sweep(part: object, way: tuple[float, float, float], distance: float, fixed: object,
           step: float = 0.5) -> float:
    """`part` (in place) brought in along `way` from `distance` back, stopping every `step`
    mm (less than the thinnest two walls that could pass each other, 0.9 + 0.9): the most
    it overlaps `fixed` anywhere on its way, its place included."""
    worst = 0.0
    for i in range(int(distance / step), -1, -1):
        d = i * step
        moved = part.translate([-way[0] * d, -way[1] * d, -way[2] * d])  # type: ignore[attr-defined]
        worst = max(worst, _overlap(moved, fixed))
    return worst


def test_the_parts_placed_are_the_assembled_pad() -> None:
    """What the assembly tests move is the pad: the STLs as printed, each turned back into
    its place, fill exactly the assembled pad."""
    parts = _pad_in_place()
    whole = _solid(build.ASSEMBLED)
    together = parts["base"] + parts["collar"] + parts["hood"] + parts["diffuser"]  # type: ignore[operator]
    assert abs(together.volume() - whole.volume()) < 1e-3 * whole.volume()  # type: ignore[attr-defined]
    assert (together - whole).volume() < 1e-3 * whole.volume()  # type: ignore[attr-defined]


def test_the_pad_goes_together_in_the_readme_s_order() -> None:
    """The README's steps: the collar down onto the base's top; the hood's tube down its
    axis onto the collar's spigot; the ring, then the diffuser, down the axis through the
    light trap into their seat. Each part, swept all the way in, meets nothing already
    placed (the old diffuser, 57.6 mm under ridges that leave 53 mm, met 8,846 mm3)."""
    n = _n()
    parts = _pad_in_place()
    axis = _axis(n)
    down = (0.0, 0.0, -1.0)
    inward = (-axis[0], -axis[1], -axis[2])
    ring = _place(_ring(n), n)
    placed = parts["base"]
    for name, part, way, distance in (
            ("collar", parts["collar"], down, 40.0),
            ("hood", parts["hood"], inward, n["seat_top"] + 10),
            ("ring", ring, inward, n["tube_len"] + 5),
            ("diffuser", parts["diffuser"], inward, n["tube_len"] + 5)):
        assert _sweep(part, way, distance, placed) < TOUCH, name
        placed = placed + part  # type: ignore[operator]
    # and the check sees a part that cannot go in: the old diffuser's 57.6 mm disc
    manifold3d = pytest.importorskip("manifold3d")
    old = manifold3d.Manifold.cylinder(1.2, 28.8, 28.8, 96).translate([0, 0, n["ring_t"]])
    assert _sweep(_place(old, n), inward, n["tube_len"] + 5, placed - parts["diffuser"]) > 100  # type: ignore[operator]


def test_the_seat_centres_the_ring_and_the_diffuser() -> None:
    """The ring lies in a pocket 0.4 mm wider than itself and the diffuser in one above it:
    each can move 0.2 mm off the axis and no further, and anywhere in that play the ring's
    board covers the wire hole below it (the old flat floor let it move 10.5 mm)."""
    n = _n()
    collar = _solid("collar").translate([0, 0, n["top_z"]])  # type: ignore[attr-defined]
    ring = _ring(n)
    disc = _solid("diffuser").translate([0, 0, n["ring_t"]])  # type: ignore[attr-defined]
    disc_r = float(disc.bounding_box()[3])  # type: ignore[attr-defined]
    assert disc_r == pytest.approx((n["window_d"] - 2 * n["ridge"] - 0.6) / 2, abs=0.01)
    for k in range(8):
        a = math.radians(45 * k)
        for part in (ring, disc):
            inside = part.translate([0.15 * math.cos(a), 0.15 * math.sin(a), 0])
            assert _overlap(_place(inside, n), collar) < TOUCH, k
            out = part.translate([0.5 * math.cos(a), 0.5 * math.sin(a), 0])
            assert _overlap(_place(out, n), collar) > 1.0, k
    # the wire hole under the board, the board 0.2 mm off centre either way
    play = n["seat_play"] / 2
    assert n["wire_r"] - n["wire_hole"] / 2 - play > n["ring_id"] / 2
    assert n["wire_r"] + n["wire_hole"] / 2 + play < n["ring_od"] / 2
    assert sightline.leaks(n) == 0.0


def test_the_inserts_have_room_for_what_they_push_ahead() -> None:
    """An M3 x 5.7 insert's hole is 7 mm deep (6 mm left 0.3 mm for the plastic it melts
    ahead of it), in the collar's foot, with solid wall round it."""
    n = _n()
    assert n["insert_depth"] >= 7.0
    manifold3d = pytest.importorskip("manifold3d")
    collar = _solid("collar").translate([0, 0, n["top_z"]])  # type: ignore[attr-defined]
    for sx in (-1, 1):
        x, y = sx * n["hood_screw_x"], n["hood_y"]
        hole = manifold3d.Manifold.cylinder(n["insert_depth"] - 0.1, 1.95, 1.95, 48).translate(
            [x, y, n["top_z"]])
        assert _overlap(collar, hole) < TOUCH
        wall = manifold3d.Manifold.cylinder(n["insert_depth"], n["boss_d"] / 2 - 0.2,
                                            n["boss_d"] / 2 - 0.2, 48).translate(
            [x, y, n["top_z"]])
        ring_area = math.pi * ((n["boss_d"] / 2 - 0.2) ** 2 - (n["insert_d"] / 2) ** 2)
        assert _overlap(collar, wall) > 0.9 * ring_area * n["insert_depth"]
