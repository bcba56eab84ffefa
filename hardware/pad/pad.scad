// One seat pad, as it is printed and put together. Four printed parts, light enough that a
// pad prints in an evening (the tests slice them: at most 3 h and 70 g a pad):
//   base      the shell, open below (it stands on four rubber feet): the silent button on
//             top, the RJ45 keystone in a flat back wall, a carrier for the switch's board
//   collar    the hood's leaning foot, flat below: two M3 screws from inside the base up
//             into inserts in it; on its top the ring's seat (a pocket that centres the
//             ring, and above it the diffuser) and the spigot the hood's tube sits on
//   hood      the tube that hides the ring, its light-trap ridges inside; printed upright,
//             its rim on the bed; pushed onto the collar's spigot
//   diffuser  the disc over the ring (white PETG or PLA, or 2 mm opal acrylic cut to
//             diffuser_d): small enough to pass the ridges, so the ring and then the
//             diffuser go in (and come out) through the top of the finished hood
// All sizes in mm; z = 0 is the table top. Render a part, laid as it prints (each on z = 0):
//   openscad -D 'part="base"' -o base.stl pad.scad   (base, collar, hood, diffuser)
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
diffuser_t = 1.0;      // white PETG printed, or 2 mm opal acrylic cut to diffuser_d
window_d = 58;         // the hood tube's inside diameter (the ridges leave 53 mm clear)
hood_h = 60;           // the hood's depth above the diffuser
ridge = 2.5;           // light-trap ridges round the inside: how far each stands in,
ridge_rise = 2.5;      // the height of its sloping top (its underside is flat),
ridge_pitch = 3;       // and one every 3 mm up the tube, the top one 1 mm below the rim
louvre_deg = 30;       // a louvre (privacy) film on the diffuser, its louvres across the
                       // player's view, passes light only this far off the axis to either
                       // side (a "60 degree" film; 0: none)
tilt = 38;             // the hood leans toward the player by this many degrees from upright
wall = 0.9;            // the hood tube's wall: two lines of a 0.4 mm nozzle (the ridges
                       // stiffen it)
collar_wall = 0.9;     // the collar's shell, open below
floor_t = 1.2;         // the collar's top under the ring
seat_play = 0.4;       // the ring's and the diffuser's pockets this much wider than they
                       // are (so each is centred to 0.2 mm)
ring_board = 1.6;      // the ring's board (its pocket is 0.3 mm deeper)
spigot_play = 0.15;    // the tube's bore round the collar's spigot
diffuser_play = 0.6;   // the diffuser this much narrower than the ridges' clear window

// -- the base ------------------------------------------------------------------------------
base_d = 76;
base_h = 25;           // the shell's height (the keystone stands inside it)
plate_t = 0;           // no bottom plate: the shell is open below
shell = 1.2;           // the shell's side wall
top_t = 1.0;           // the shell's top
button_d = 13;         // the hole for the switch's round cap (11.5 mm, A24 style)
button_y = -25;        // the button sits in front, toward the player
hood_y = 9;            // the hood's foot: its centre this far behind the base's centre
foot_d = 9;            // three pads inside the rim for the rubber feet (one in front)
foot_t = 2;

// -- the keystone at the back (any pad plugs into any seat) --------------------------------
back_y = 34;           // the flat back wall's outer face
key_wall = 2;          // its thickness: a keystone clips into a 1.5-2.5 mm panel
key_w = 14.9;          // the keystone's panel cut-out (TIA-568 keystone)
key_h = 19.4;
key_z = 3;             // the cut-out's lower edge above the table
key_frame = 3;         // the wall's thickness kept round the cut-out
key_room_w = 22;       // room a keystone's body needs behind the wall
key_room_d = 30;
key_room_h = 23;

// -- the switch and its carrier ------------------------------------------------------------
switch_w = 12;         // a 12 x 12 mm tactile switch, 7.3 mm to the stem's top
switch_h = 7.3;
cap_h = 6;             // its round cap over the stem
cap_proud = 1.5;       // how far the cap stands above the top
board_w = 26;          // the switch's little board (perfboard), held by two M2 screws
board_d = 18;
board_t = 1.6;
m2_pilot = 1.8;

// -- screws and inserts --------------------------------------------------------------------
insert_d = 4.0;        // the hole for an M3 x 5.7 heat-set insert
insert_depth = 7;      // 7 mm deep: room for the plastic the insert pushes ahead of it
boss_d = 8;
m3_clear = 3.4;
hood_screw_x = 16;     // the hood's two screws, either side of its foot's centre

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
ledge = 0;                                     // the ring lies on the collar's top, here
seat_top = ledge + ring_t + diffuser_t;        // the spigot's top: the diffuser's top face
tube_len = seat_top + hood_h;                  // the ring, the diffuser, the depth
board_z = top_z + cap_proud - cap_h - switch_h;  // the switch board's top face
clear_d = window_d - 2 * ridge;                // what the ridges leave clear
diffuser_d = clear_d - diffuser_play;          // the diffuser passes them
wire_hole = 4;                                 // the ring's wires' hole through the floor,
wire_r = 15;                                   // under the middle of the ring's board,
wire_y = hood_y + wire_r * cos(tilt);          // and straight below it, through the collar
                                               // and the base's top

module hood_frame() {
    // the tube's own frame: its foot centre, its axis leaning toward the player (-y)
    translate([0, hood_y, top_z + hood_lift]) rotate([tilt, 0, 0]) children();
}

module flat_back(h, inset = 0) {
    // the shell's round outline with its back cut flat for the keystone
    intersection() {
        cylinder(d = base_d - 2 * inset, h = h);
        translate([-base_d, -base_d, -1]) cube([2 * base_d, base_d + back_y - inset, h + 2]);
    }
}

module feet() {
    for (a = [-90, 30, 150]) rotate([0, 0, a])
        translate([base_d / 2 - foot_d / 2 - 0.2, 0, plate_t]) children();
}

// -- the parts, in place -------------------------------------------------------------------
module base() {
    difference() {
        union() {
            // the shell: its side wall and its top; open below
            difference() {
                translate([0, 0, plate_t]) flat_back(base_h);
                translate([0, 0, plate_t - 1]) flat_back(base_h - top_t + 1, shell);
            }
            // the back wall, thicker round the keystone's cut-out
            intersection() {
                translate([0, 0, plate_t]) flat_back(base_h);
                translate([-key_w / 2 - key_frame, back_y - key_wall, plate_t])
                    cube([key_w + 2 * key_frame, key_wall, base_h]);
            }
            // pads for the rubber feet, inside the rim, each on a 45-degree gusset up to the
            // wall (the base prints upside down: the pads are its last layers)
            intersection() {
                feet() hull() {
                    cylinder(d = foot_d, h = foot_t);
                    translate([foot_d / 2, 0, foot_t + foot_d]) cylinder(d = 1, h = 0.01);
                }
                flat_back(base_h);
            }
            // the switch carrier: a sleeve round the switch and two bosses for its board
            translate([0, button_y, board_z]) difference() {
                translate([-(switch_w / 2 + 1.2), -(switch_w / 2 + 1.2), 0])
                    cube([switch_w + 2.4, switch_w + 2.4, top_z - board_z]);
                translate([-(switch_w + 0.6) / 2, -(switch_w + 0.6) / 2, -1])
                    cube([switch_w + 0.6, switch_w + 0.6, top_z - board_z + 2]);
            }
            for (sx = [-1, 1]) translate([sx * (board_w / 2 - 3), button_y, board_z])
                cylinder(d = 5, h = top_z - board_z);
        }
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

// the collar's outline: from the tube's leaning foot down to a flat foot on the base
module collar_hull(inset, below) {
    hull() {
        // (0.05 mm inside the tube's outside, so the two never share an edge)
        hood_frame() translate([0, 0, -0.01 - below])
            cylinder(r = hood_r - 0.05 - inset, h = 0.01);
        translate([0, hood_y, top_z - (inset > 0 ? 1 : 0)]) scale([1, cos(tilt), 1])
            cylinder(r = hood_r - inset / cos(tilt), h = 0.01);
    }
}

// the collar's hollow: under a ceiling that leans 45 degrees, from the back edge of the
// floor (which leans only 38 degrees: too flat to print over air), so it prints without
// support; the slicer fills the thin wedge between the two sparsely
module collar_hollow() {
    intersection() {
        collar_hull(collar_wall, floor_t);
        hood_frame() translate([0, hood_r - 0.05 - collar_wall, ledge - floor_t - 0.3])
            rotate([45 - tilt, 0, 0]) translate([-100, -200, -200]) cube([200, 200, 200]);
    }
}

// the collar: a thin shell, open below, under a floor that carries the ring
module collar() {
    difference() {
        union() {
            difference() {
                collar_hull(0, 0);
                collar_hollow();
            }
            // bosses for the inserts of its two screws, up to the floor
            intersection() {
                collar_hull(0, 0);
                for (sx = [-1, 1]) translate([sx * hood_screw_x, hood_y, top_z])
                    cylinder(d = boss_d, h = 40);
            }
            // the spigot the tube sits on, up to the diffuser's top
            hood_frame() cylinder(r = window_d / 2 - spigot_play, h = seat_top);
        }
        // the ring's pocket and the diffuser's above it: each centres its part
        hood_frame() translate([0, 0, ledge]) {
            cylinder(d = ring_od + seat_play, h = ring_board + 0.3 + 0.01);
            translate([0, 0, ring_board + 0.3])
                cylinder(d = diffuser_d + seat_play, h = seat_top);
        }
        // under the ring's board (which covers it: no light goes down into the base): the
        // ring's three wires, through the floor and straight down through the collar to the
        // hole in the base's top (a shaft that stops short of the floor)
        hood_frame() translate([0, wire_r, ledge - floor_t - 6]) cylinder(d = wire_hole, h = floor_t + 7);
        translate([0, wire_y, top_z - 1]) cylinder(d = wire_hole + 1.5, h = 1 + hood_lift
            + (wire_r - (wire_hole + 1.5) / 2) * sin(tilt) - floor_t / cos(tilt) - 0.5);
        // the inserts for its two screws, from below
        for (sx = [-1, 1]) translate([sx * hood_screw_x, hood_y, top_z - 0.01])
            cylinder(d = insert_d, h = insert_depth);
    }
}

// the tube, in its own frame: from the collar's shoulder up, the window with its light trap
module tube() {
    difference() {
        cylinder(r = hood_r, h = tube_len);
        rotate_extrude() polygon(bore());
    }
}

module hood() {
    hood_frame() tube();
}

// the ridges' undersides above the diffuser, from the lowest up: the top one's slope ends
// 1 mm below the rim, and none is lower than half a pitch
ridge_top = hood_h - ridge_rise - 1;
ridge_count = floor((ridge_top - ridge_pitch / 2) / ridge_pitch) + 1;
function ridge_heights() =
    [for (i = [0 : ridge_count - 1]) ridge_top - (ridge_count - 1 - i) * ridge_pitch];

// the tube's bore in section (radius, height in the tube's frame): round the spigot, then
// the light trap: ridges round the inside, flat below (toward the ring: lit, but nobody
// above sees an underside) and sloping above (in the shadow of the one below)
function bore() = let (r = window_d / 2, d0 = seat_top) concat(
    [[0, -1], [r, -1]],
    [for (z = ridge_heights()) each [[r, d0 + z], [r - ridge, d0 + z], [r, d0 + z + ridge_rise]]],
    [[r, tube_len + 1], [0, tube_len + 1]]);

module diffuser_disc() {
    cylinder(d = diffuser_d, h = diffuser_t);
}

module diffuser() {
    hood_frame() translate([0, 0, ledge + ring_t]) diffuser_disc();
}

// -- what is bought, drawn only to see that it fits ------------------------------------------
module ring_alone() {
    // the ring in the tube's own frame, on its floor
    translate([0, 0, ledge]) {
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
// each printed part laid on the bed as it prints: the diffuser flat, the base upside down
// (its top on the bed: no supports), the collar on its flat foot, the tube upright on its
// rim (the ridges' flat undersides face up, their slopes down at 45 degrees)
module printed(which) {
    if (which == "base") translate([0, 0, top_z]) mirror([0, 0, 1]) base();
    if (which == "collar") translate([0, 0, -top_z]) collar();
    if (which == "hood") translate([0, 0, tube_len]) mirror([0, 0, 1]) tube();
    if (which == "diffuser") diffuser_disc();
}

// a test coupon: the tube's top 16 mm (its rim and five ridges), printed as the tube is, to
// see the ridges come out before printing a whole tube
coupon_h = 16;
module coupon() {
    intersection() {
        translate([0, 0, tube_len]) mirror([0, 0, 1]) tube();
        translate([-50, -50, 0]) cube([100, 100, coupon_h]);
    }
}

module assembled() {
    base();
    collar();
    hood();
    diffuser();
}

if (part == "base" || part == "collar" || part == "hood" || part == "diffuser") printed(part);
if (part == "coupon") coupon();
if (part == "assembled") assembled();
if (part == "assembly") {
    color("gray") base();
    color("silver") collar();
    color("silver") hood();
    color("white", 0.6) diffuser();
    ring();
    switch();
    keystone();
}
if (part == "exploded") {
    // the collar up, the tube up its axis, and the ring and the diffuser out of its top:
    // how the pad goes together (the ring, then the diffuser, drop in past the ridges)
    color("gray") base();
    switch();
    keystone();
    translate([0, 0, 40]) {
        color("silver") collar();
        color("silver") hood_frame() translate([0, 0, 25]) tube();
        hood_frame() translate([0, 0, tube_len + 40]) ring_alone();
        hood_frame() translate([0, 0, tube_len + 60]) color("white", 0.8) diffuser_disc();
    }
}
if (part == "section") {
    // cut through the middle (x = 0), seen from the side: the player to the left
    difference() {
        union() {
            color("gray") base();
            color("silver") collar();
            color("silver") hood();
            color("white") diffuser();
            ring();
            switch();
            keystone();
        }
        translate([0, -100, -1]) cube([100, 300, 200]);
    }
}
