// One seat pad: a base with the silent button and the pad's connector, a hood that holds
// the 12-pixel ring and its diffuser, tilted to face the seated player and deep enough that
// a neighbour sees none of it. All sizes in mm. Render a part:
//   openscad -D 'part="base"' -o base.stl pad.scad     (also "hood", "diffuser", "assembly")
// The assignments below are read by sightline.py, which checks the hood and draws its
// sight lines: change them here and run `python3 hardware/pad/sightline.py`.

part = "assembly";

// -- the ring and its hood ---------------------------------------------------------------
ring_od = 37;          // WS2812B 12-pixel ring, outside diameter
ring_id = 23;          // and inside
ring_t = 3.5;          // board and LEDs
led_circle = 30;       // diameter of the circle through the LED centres
diffuser_t = 1.2;      // white PETG printed, or 2 mm opal acrylic cut to window_d
window_d = 54;         // the hood's inside diameter: the lit window
hood_h = 60;           // the hood's depth above the diffuser
tilt = 38;             // the hood leans toward the player by this many degrees from upright
wall = 2.4;

// -- the base ------------------------------------------------------------------------------
base_d = 100;
base_h = 16;
button_d = 16;         // hole for a 12x12 mm silent tactile switch's round cap
button_y = -38;        // the button sits in front, toward the player, under the hood's lip
jack_w = 15;           // RJ45 keystone jack at the back (any pad plugs into any seat)
jack_h = 16.5;

// -- the table the hood is made for (what sightline.py checks) -----------------------------
eye_distance = 350;    // from the pad back to the seated player's eyes, along the table
eye_height = 450;      // eyes above the table top
seat_spacing = 600;    // between neighbours' eyes, along the table's edge
eye_tolerance = 8;     // degrees the player's eyes may move off the hood's axis and see all

$fn = 96;

module hood_tube() {
    difference() {
        cylinder(d = window_d + 2 * wall, h = ring_t + diffuser_t + hood_h);
        translate([0, 0, -1]) cylinder(d = window_d, h = ring_t + diffuser_t + hood_h + 2);
    }
    // the ring's ledge at the bottom, and the diffuser's on top of the ring
    difference() {
        cylinder(d = window_d, h = 1.5);
        translate([0, 0, -1]) cylinder(d = ring_id - 2, h = 4);
    }
}

hood_y = 20;            // the hood's foot sits this far behind the base's centre

module hood_place() {
    // the hood's foot on the base, toward the back; its axis leans toward the player (-y)
    translate([0, hood_y, base_h]) rotate([tilt, 0, 0]) children();
}

module base() {
    difference() {
        union() {
            cylinder(d = base_d, h = base_h);
            // a collar from the base's top up to the leaning hood's foot
            hull() {
                translate([0, hood_y, base_h - 0.01])
                    cylinder(d = window_d + 2 * wall, h = 0.01);
                hood_place() cylinder(d = window_d + 2 * wall, h = 0.01);
            }
        }
        // hollow inside, open below (a bottom plate screws on)
        translate([0, 0, -1]) cylinder(d = base_d - 2 * wall, h = base_h - wall + 1);
        hood_place() translate([0, 0, -30]) cylinder(d = window_d, h = 31);
        // the button, and the connector at the back
        translate([0, button_y, base_h - wall - 1]) cylinder(d = button_d, h = wall + 2);
        translate([-jack_w / 2, base_d / 2 - wall - 1, 2]) cube([jack_w, wall + 4, jack_h]);
        // the ring's wires from the hood down into the base
        hood_place() translate([0, 0, -5]) cylinder(d = 8, h = 10);
    }
}

module diffuser() {
    cylinder(d = window_d - 0.4, h = diffuser_t);
}

module ring() {
    color("black") difference() {
        cylinder(d = ring_od, h = 1.6);
        translate([0, 0, -1]) cylinder(d = ring_id, h = 4);
    }
    for (k = [0 : 11]) rotate([0, 0, k * 30]) translate([led_circle / 2, 0, 1.6])
        color("white") cube([5, 5, 1.6], center = true);
}

if (part == "base") base();
if (part == "hood") hood_tube();
if (part == "diffuser") diffuser();
if (part == "assembly") {
    color("dimgray") base();
    hood_place() {
        color("gray") hood_tube();
        translate([0, 0, 1.5]) ring();
        color("white", 0.6) translate([0, 0, ring_t]) diffuser();
    }
}
