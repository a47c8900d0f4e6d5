// pipkeeper table stand: holds the scorer tilted back so the players across
// the table can read it, with the front buttons clear of the stand and every
// edge except the bottom one free (USB and battery leads stay reachable).
//
// Render one board's stand to STL:
//   openscad -D 'board="badger2040"' -o stand.stl hardware/enclosure/stand.scad
// Boards: "badger2040", "badger2040w", "pico_inky_pack", "pico_epaper29".
// Any parameter can be overridden the same way, e.g. -D 'angle=60'.
//
// The body is one side profile extruded across the board's width, so it
// prints lying on its side with no supports. Dimensions are millimetres.

board = "badger2040";

// Per-board parameters:
// [name, width, height, thickness, lip, cheek, strip buttons, notes]
//   width x height: the board's outline seen from the front (landscape)
//   thickness: front face to the furthest part at the back (Pico, sockets, SHIM)
//   lip: how far the front lip may rise over the bottom edge without touching
//        the lowest front button
//   cheek: height of the side cheeks that keep the board from sliding sideways
//   strip buttons: labels of the push buttons a builder adds (a strip of
//        12 x 12 mm switch holes in front of the stand), [] for none
// Outlines are nominal (vendor figures where published); measure yours and
// override width/height/thickness if your board differs.
BOARDS = [
    // Badger 2040: 85 x 48 x 9 mm (Pimoroni spec as quoted by Tom's Hardware);
    // A B C sit just above the bottom edge, so the lip stays low.
    ["badger2040",     86.0, 49.0, 10.0, 2.5, 10, []],
    // Badger 2040 W: same outline; the Pico W module adds depth at the back.
    ["badger2040w",    86.0, 49.0, 12.0, 2.5, 10, []],
    // Pico Inky Pack on a Pico H (+ optional LiPo SHIM): nominal outline.
    ["pico_inky_pack", 86.0, 37.0, 17.0, 2.5, 10, ["UP", "DOWN"]],
    // Waveshare Pico-ePaper-2.9: 82.0 x 38.0 mm driver board (Waveshare spec).
    ["pico_epaper29",  82.0, 38.0, 17.0, 4.0, 10, ["A", "B", "C", "UP", "DOWN"]],
];

angle = 65;        // tilt of the screen from the table, degrees (90 = upright)
wall = 2.4;        // wall and lip thickness
clear = 0.6;       // play around the board on every side
plate_t = 3.0;     // back plate thickness
ledge_t = 3.0;     // thickness of the shelf the board stands on
back_frac = 0.6;   // back plate height as a fraction of the board's height
usb_notch = [];    // [x offset from the left, width]: notch the lip for a bottom-edge port
switch_hole = 12.4;// square hole for a 12 x 12 mm tactile switch (Omron B3F-4055)
switch_pitch = 17;
strip_d = 22;      // depth of the button strip
strip_h = 9;       // height of the button strip (switch body 7.3 mm + clearance)
label_size = 4;

function row(name) = BOARDS[search([name], BOARDS)[0]];
P = row(board);
assert(P != undef, str("unknown board ", board));
bw = P[1]; bh = P[2]; bt = P[3]; lip = P[4]; cheek = P[5]; strip = P[6];

W = bw + 2 * clear + 2 * wall;   // outer width across
D = bt + clear + wall;           // ledge depth, back face to the lip's front
plate_len = bh * back_frac;

// unit vectors of the side profile (y back, z up): u runs up the board,
// n points out of its front face toward the players
u = [cos(angle), sin(angle)];
n = [-sin(angle), cos(angle)];
function at(p, a, b) = [p[0] + a * u[0] + b * n[0], p[1] + a * u[1] + b * n[1]];

// P0: the board's bottom-back edge, raised so the lowest corner touches z = 0
P0 = [0, ledge_t * sin(angle) + plate_t * cos(angle) + 0.01];

L0 = at(P0, -ledge_t, 0);
L1 = at(P0, -ledge_t, D);
B0 = at(P0, -ledge_t, -plate_t);
B3 = at(P0, plate_len, -plate_t);

module profile() {
    // body under the back plate, down to the table
    polygon([L1, L0, B0, B3, [B3[0], 0], [L1[0], 0]]);
    // back plate
    polygon([B0, L0, at(P0, plate_len, 0), B3]);
    // ledge and front lip
    polygon([L0, L1, at(P0, lip, D), at(P0, lip, D - wall), at(P0, 0, D - wall), P0]);
}

module cheek_profile() {
    polygon([P0, at(P0, 0, D), at(P0, cheek, D), at(P0, cheek, 0)]);
}

module stand() {
    difference() {
        union() {
            // the profile is drawn in (y, z); extrude along x
            rotate([90, 0, 90]) linear_extrude(W) profile();
            for (x = [0, W - wall]) translate([x, 0, 0])
                rotate([90, 0, 90]) linear_extrude(wall) cheek_profile();
        }
        // window in the back plate for the battery lead and connectors
        win_w = W * 0.6;
        translate([(W - win_w) / 2, 0, 0])
            rotate([90, 0, 90]) linear_extrude(win_w)
                polygon([at(P0, 8, 1), at(P0, 8, -plate_t - 40),
                         at(P0, plate_len - 6, -plate_t - 40), at(P0, plate_len - 6, 1)]);
        // optional notch for a port on the bottom edge
        if (len(usb_notch) == 2)
            translate([wall + clear + usb_notch[0], 0, 0])
                rotate([90, 0, 90]) linear_extrude(usb_notch[1])
                    polygon([at(P0, -0.01, -1), at(P0, -0.01, D + 1),
                             at(P0, lip + 1, D + 1), at(P0, lip + 1, -1)]);
    }
}

module button_strip() {
    count = len(strip);
    x0 = (W - (count - 1) * switch_pitch) / 2;
    translate([0, L1[0] - strip_d, 0]) difference() {
        cube([W, strip_d + 0.5, strip_h]);
        for (i = [0 : count - 1]) {
            // through hole for the switch; its legs and wires run in the channel below
            translate([x0 + i * switch_pitch - switch_hole / 2, 4, -1])
                cube([switch_hole, switch_hole, strip_h + 2]);
            translate([x0 + i * switch_pitch, 2, strip_h - 0.6])
                linear_extrude(1) text(strip[i], size = label_size * 0.6,
                                       halign = "center", valign = "center");
        }
        // wiring channel under the switches, open at both ends: the wires leave
        // at the side and climb to the Pico behind the board
        translate([-1, 3, -1]) cube([W + 2, strip_d - 6, 4]);
    }
}

stand();
if (len(strip) > 0) button_strip();
