// One seat pad, as it is printed and put together. Four printed parts:
//   plate     the bottom plate: four countersunk M3 screws up into the base's inserts
//   base      the shell: the silent button on top, the RJ45 keystone in a flat back wall,
//             bosses for the plate's inserts, a carrier for the switch's little board
//   hood      the leaning tube that holds the 12-pixel ring and hides it, on a flat-footed
//             collar: two M3 screws from inside the base up into inserts in its foot
//   diffuser  the disc over the ring (white PETG, or 2 mm opal acrylic cut to window_d)
// All sizes in mm; z = 0 is the table top. Render a part, laid as it prints (each on z = 0):
//   openscad -D 'part="base"' -o base.stl pad.scad   (plate, base, hood, diffuser)
// or the whole pad, in place: part="assembled" (the STL the tests check), "assembly" (in
// colour, with the ring, the switch and the keystone), "exploded", "section".
// The assignments below are read by sightline.py, which checks the hood and draws its sight
// lines, and by the tests: change them here and run `python3 hardware/build.py`.

part = "assembly";

// -- the ring and its hood ---------------------------------------------------------------
ring_od = 37;          // WS2812B 12-pixel ring, outside diameter
ring_id = 23;          // and inside
ring_t = 3.5;          // board and LEDs
led_circle = 30;       // diameter of the circle through the LED centres
diffuser_t = 1.2;      // white PETG printed, or 2 mm opal acrylic cut to window_d
window_d = 58;         // the hood tube's inside diameter (the ridges leave 53 mm clear)
hood_h = 60;           // the hood's depth above the diffuser
ridge = 2.5;           // light-trap ridges round the inside: how far each stands in,
ridge_rise = 2.5;      // the height of its sloping top (its underside is flat),
ridge_pitch = 3;       // and one every 3 mm up the tube, the top one 1 mm below the rim
louvre_deg = 30;       // a louvre (privacy) film on the diffuser, its louvres across the
                       // player's view, passes light only this far off the axis to either
                       // side (a "60 degree" film; 0: none)
tilt = 38;             // the hood leans toward the player by this many degrees from upright
wall = 2.4;

// -- the base ------------------------------------------------------------------------------
base_d = 100;
base_h = 30;           // the shell's height (the keystone stands inside it)
plate_t = 3;           // the bottom plate under it
top_t = 2.4;           // the shell's top
button_d = 13;         // the hole for the switch's round cap (11.5 mm, A24 style)
button_y = -32;        // the button sits in front, toward the player
hood_y = 20;           // the hood's foot: its centre this far behind the base's centre

// -- the keystone at the back (any pad plugs into any seat) --------------------------------
back_y = 44;           // the flat back wall's outer face
key_wall = 2;          // its thickness: a keystone clips into a 1.5-2.5 mm panel
key_w = 14.9;          // the keystone's panel cut-out (TIA-568 keystone)
key_h = 19.4;
key_z = 6;             // the cut-out's lower edge above the table
key_room_w = 22;       // room a keystone's body needs behind the wall
key_room_d = 30;
key_room_h = 23;

// -- the switch and its carrier ------------------------------------------------------------
switch_w = 12;         // a 12 x 12 mm tactile switch, 7.3 mm to the stem's top
switch_h = 7.3;
cap_h = 6;             // its round cap over the stem
cap_proud = 1.5;       // how far the cap stands above the top
board_w = 30;          // the switch's little board (perfboard), held by two M2 screws
board_d = 18;
board_t = 1.6;
m2_pilot = 1.8;

// -- screws and inserts --------------------------------------------------------------------
insert_d = 4.0;        // the hole for an M3 x 5.7 heat-set insert
insert_depth = 6;
boss_d = 8;
m3_clear = 3.4;
m3_head = 6.5;         // a countersunk M3's head
plate_screw_r = 38;    // the plate's screws, on this circle at 45, 135, 225, 315 degrees
hood_screw_x = 18;     // the hood's two screws, either side of its foot's centre

// -- the table the hood is made for (what sightline.py checks) -----------------------------
eye_distance = 350;    // from the pad back to the seated player's eyes, along the table
eye_height = 450;      // eyes above the table top
seat_spacing = 600;    // between neighbours' eyes, along the table's edge
eye_tolerance = 8;     // degrees the player's eyes may move off the hood's axis and see all

$fn = 96;

// -- derived -------------------------------------------------------------------------------
top_z = plate_t + base_h;                      // the shell's top face
hood_r = window_d / 2 + wall;                  // the hood tube's outside radius
hood_lift = hood_r * sin(tilt) + 1;            // the tube's foot centre above the top face
                                               // (its lowest edge 1 mm into the collar)
tube_len = 1.5 + ring_t + diffuser_t + hood_h;   // the ledge, the ring, the diffuser, the depth
board_z = top_z + cap_proud - cap_h - switch_h;  // the switch board's top face
// where the hood's axis meets the top face: the ring's wires go down there
wire_y = hood_y + hood_lift * tan(tilt);
wire_hole = 4;                                 // their hole through the ring's ledge,
wire_r = 15;                                   // under the middle of the ring's board

module hood_frame() {
    // the tube's own frame: its foot centre, its axis leaning toward the player (-y)
    translate([0, hood_y, top_z + hood_lift]) rotate([tilt, 0, 0]) children();
}

module flat_back(h) {
    // the shell's round outline with its back cut flat for the keystone
    intersection() {
        cylinder(d = base_d, h = h);
        translate([-base_d, -base_d, -1]) cube([2 * base_d, base_d + back_y, h + 2]);
    }
}

module plate_holes() {
    for (a = [45, 135, 225, 315]) rotate([0, 0, a]) translate([plate_screw_r, 0, 0])
        children();
}

// -- the parts, in place -------------------------------------------------------------------
module plate() {
    difference() {
        translate([0, 0, 0]) flat_back(plate_t);
        plate_holes() {
            translate([0, 0, -1]) cylinder(d = m3_clear, h = plate_t + 2);
            // a countersunk head, flush with the underside
            translate([0, 0, -0.01]) cylinder(d1 = m3_head, d2 = m3_clear, h = 1.6);
        }
    }
}

module base() {
    difference() {
        union() {
            difference() {
                translate([0, 0, plate_t]) flat_back(base_h);
                // hollow, open below: the plate closes it
                translate([0, 0, plate_t - 1]) intersection() {
                    cylinder(d = base_d - 2 * wall, h = base_h - top_t + 1);
                    translate([-base_d, -base_d, 0])
                        cube([2 * base_d, base_d + back_y - key_wall, base_h]);
                }
            }
            // the plate's bosses, down from the top to the plate
            plate_holes() translate([0, 0, plate_t]) cylinder(d = boss_d, h = base_h - 0.01);
            // the switch carrier: a sleeve round the switch and two bosses for its board
            translate([0, button_y, board_z]) difference() {
                translate([-(switch_w / 2 + 1.6), -(switch_w / 2 + 1.6), 0])
                    cube([switch_w + 3.2, switch_w + 3.2, top_z - board_z]);
                translate([-(switch_w + 0.6) / 2, -(switch_w + 0.6) / 2, -1])
                    cube([switch_w + 0.6, switch_w + 0.6, top_z - board_z + 2]);
            }
            for (sx = [-1, 1]) translate([sx * (board_w / 2 - 3), button_y, board_z])
                cylinder(d = 6, h = top_z - board_z);
        }
        // the plate's inserts, from below
        plate_holes() translate([0, 0, plate_t - 0.01]) cylinder(d = insert_d, h = insert_depth);
        // the button's cap through the top
        translate([0, button_y, top_z - top_t - 1]) cylinder(d = button_d, h = top_t + 2);
        // the switch board's screws (M2, self-tapping into the bosses)
        for (sx = [-1, 1]) translate([sx * (board_w / 2 - 3), button_y, board_z - 0.01])
            cylinder(d = m2_pilot, h = 6);
        // the keystone's cut-out in the back wall
        translate([-key_w / 2, back_y - key_wall - 1, key_z]) cube([key_w, key_wall + 2, key_h]);
        // the hood's screws through the top, and the ring's wires
        for (sx = [-1, 1]) translate([sx * hood_screw_x, hood_y, top_z - top_t - 1])
            cylinder(d = m3_clear, h = top_t + 2);
        translate([0, wire_y, top_z - top_t - 1]) cylinder(d = 8, h = top_t + 2);
    }
}

module hood() {
    difference() {
        union() {
            hood_frame() cylinder(r = hood_r, h = tube_len);
            // the collar: from the tube's leaning foot down to a flat foot on the base
            // (its top a little inside the tube, so the two meet in a clean seam)
            hull() {
                hood_frame() translate([0, 0, 2]) cylinder(r = hood_r - 0.5, h = 0.01);
                translate([0, hood_y, top_z]) scale([1, cos(tilt), 1])
                    cylinder(r = hood_r, h = 0.01);
            }
        }
        // the window with its light trap, down to the ring's ledge
        hood_frame() rotate_extrude() polygon(bore());
        // through the ledge, under the ring's board (which covers it: no light goes down
        // into the base), and through the collar: the ring's three wires
        hood_frame() translate([0, wire_r, -1]) cylinder(d = wire_hole, h = 4);
        hull() {
            hood_frame() translate([0, wire_r, 0]) cylinder(d = wire_hole - 0.4, h = 0.01);
            translate([0, wire_y, top_z - 1]) cylinder(d = 8, h = 0.01);
        }
        // the inserts for its two screws, from below
        for (sx = [-1, 1]) translate([sx * hood_screw_x, hood_y, top_z - 0.01])
            cylinder(d = insert_d, h = insert_depth);
    }
}

// the ridges' undersides above the diffuser, from the lowest up: the top one's slope ends
// 1 mm below the rim, and none is lower than half a pitch
ridge_top = hood_h - ridge_rise - 1;
ridge_count = floor((ridge_top - ridge_pitch / 2) / ridge_pitch) + 1;
function ridge_heights() =
    [for (i = [0 : ridge_count - 1]) ridge_top - (ridge_count - 1 - i) * ridge_pitch];

// the hood's bore in section (radius, height in the tube's frame): the ring's ledge, the
// wall, and the light trap: ridges round the inside, flat below (toward the ring: lit, but
// nobody above sees an underside) and sloping above (in the shadow of the one below)
function bore() = let (r = window_d / 2, d0 = 1.5 + ring_t + diffuser_t) concat(
    [[0, 1.5], [r, 1.5]],
    [for (z = ridge_heights()) each [[r, d0 + z], [r - ridge, d0 + z], [r, d0 + z + ridge_rise]]],
    [[r, tube_len + 1], [0, tube_len + 1]]);

module diffuser_disc() {
    cylinder(d = window_d - 0.4, h = diffuser_t);
}

module diffuser() {
    hood_frame() translate([0, 0, 1.5 + ring_t]) diffuser_disc();
}

// -- what is bought, drawn only to see that it fits ------------------------------------------
module ring_alone() {
    // the ring in the tube's own frame, on its ledge
    translate([0, 0, 1.5]) {
        color("black") difference() {
            cylinder(d = ring_od, h = 1.6);
            translate([0, 0, -1]) cylinder(d = ring_id, h = 4);
        }
        for (k = [0 : 11]) rotate([0, 0, k * 30]) translate([led_circle / 2, 0, 1.6 + 0.8])
            color("white") cube([5, 5, 1.6], center = true);
    }
}

module ring() {
    hood_frame() ring_alone();
}

module switch() {
    translate([0, button_y, board_z]) {
        color("darkgreen") translate([-board_w / 2, -board_d / 2, -board_t])
            cube([board_w, board_d, board_t]);
        color("black") translate([-switch_w / 2, -switch_w / 2, 0]) cube([switch_w, switch_w, 3.5]);
        color("black") cylinder(d = 3.5, h = switch_h);
        color("red") translate([0, 0, switch_h]) cylinder(d = 11.5, h = cap_h);
    }
}

module keystone() {
    // the jack's body behind the wall, its face in the cut-out
    color("white") translate([-key_w / 2 + 0.3, back_y - key_wall - key_room_d + 6, key_z + 0.3])
        cube([key_w - 0.6, key_room_d - 6 + key_wall, key_h - 0.6]);
}

// -- the views -----------------------------------------------------------------------------
// each printed part laid on the bed as it prints: the plate and the diffuser flat, the base
// upside down (its top on the bed: no supports), the hood on its flat foot
module printed(which) {
    if (which == "plate") plate();
    if (which == "base") translate([0, 0, top_z]) mirror([0, 0, 1]) base();
    if (which == "hood") translate([0, 0, -top_z]) hood();
    if (which == "diffuser") diffuser_disc();
}

module assembled() {
    plate();
    base();
    hood();
    diffuser();
}

if (part == "plate" || part == "base" || part == "hood" || part == "diffuser") printed(part);
if (part == "assembled") assembled();
if (part == "assembly") {
    color("dimgray") plate();
    color("gray") base();
    color("silver") hood();
    color("white", 0.6) diffuser();
    ring();
    switch();
    keystone();
}
if (part == "exploded") {
    // the plate down, the hood up, and the ring and the diffuser out of the hood along its
    // axis: how the pad goes together
    color("dimgray") translate([0, 0, -30]) plate();
    color("gray") base();
    switch();
    keystone();
    translate([0, 0, 40]) {
        color("silver") hood();
        hood_frame() translate([0, 0, tube_len + 15]) ring_alone();
        hood_frame() translate([0, 0, tube_len + 35]) color("white", 0.8) diffuser_disc();
    }
}
if (part == "section") {
    // cut through the middle (x = 0), seen from the side: the player to the left
    difference() {
        union() {
            color("dimgray") plate();
            color("gray") base();
            color("silver") hood();
            color("white") diffuser();
            ring();
            switch();
            keystone();
        }
        translate([0, -100, -1]) cube([100, 300, 200]);
    }
}
