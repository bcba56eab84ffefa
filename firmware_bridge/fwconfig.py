# The pad controller's settings. Copied to the Pico with the firmware; a club edits it there.

FIRMWARE = "0.6.0"
SEATS = 12
RING = 12                    # pixels per ring: 12, 16 or 24 (the Pi's pads.ring says the same)
BUTTON_PINS = (2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13)   # GP numbers; button to ground
# one data line per pad (a star: a dead or unplugged pad darkens only itself), through the
# level shifter, all written at once by the PIO; a single pin here means one chain of all
# the rings instead
RING_PINS = (14, 15, 16, 17, 18, 19, 20, 21, 22, 26, 27, 28)
DEBOUNCE_MS = 20             # after an edge is taken, the bounces are ignored this long
MIN_PRESS_MS = 15            # a press shorter than this is noise on the cable, never sent
BEAT_MS = 400                # the pad says it is alive this often
HOST_TIMEOUT_MS = 1500       # the Pi silent this long: every ring goes dark
BUDGET_MA = 1500             # the most current all rings together may draw
FRAME_MS = 20                # animations are redrawn this often
REFRESH_MS = 1000            # a still ring is sent again this often (a pad plugged in)
WATCHDOG_MS = 2000           # the hardware watchdog resets a hung controller
