# Runs at power-up on the Pico.
#
# Safe mode: the controller leaves padlink.SAFE_MODE_FLAG and restarts, and this boot stays
# at the REPL with no watchdog, where `table-app firmware install` reaches it. It does so
# for an update (padlink.UPDATE), and when it fails in its first seconds: a club's bad edit
# of fwconfig.py, a half-copied install. The RP2040's watchdog cannot be stopped once it
# runs, so without this such a fault would reset the Pico every 2 s, for good (flashing
# MicroPython again keeps the files, and the fault with them). What failed is kept in
# padlink.ERROR_FILE. A fault later, in play, restarts the controller, as the watchdog would.
import micropython

# First of all: a byte 0x03 on the link is data, not Ctrl-C. A Pi that opens the port
# while the Pico boots sends its hello at once (and every 30 ms), and any 0x03 in it (the
# protocol number, 3, is one) interrupted main.py before the controller had switched
# Ctrl-C off: main.py ended at the REPL and the pads were dead until the next power-up.
try:
    micropython.kbd_intr(-1)
except AttributeError:
    pass

import os
import sys
import time

import padlink

STARTING_MS = 5000       # a fault this soon after power-up is the firmware's, not the game's


def _safe_mode_asked():
    try:
        with open(padlink.SAFE_MODE_FLAG) as f:
            why = f.read().strip()
        os.remove(padlink.SAFE_MODE_FLAG)
        return why or "update"
    except OSError:
        return None


def _keep(e):
    try:
        with open(padlink.ERROR_FILE, "w") as f:
            sys.print_exception(e, f)
    except OSError:
        pass


why = _safe_mode_asked()
if why is not None:
    try:
        micropython.kbd_intr(3)     # the REPL's Ctrl-C again, for mpremote
    except AttributeError:
        pass
if why == "update":
    print("pad controller: safe mode, ready for a firmware update")
elif why is not None:
    print("pad controller: safe mode: it failed at its start (see %s); fix it with "
          "`table-app firmware install`" % padlink.ERROR_FILE)
else:
    try:
        import controller
        controller.run()
    except Exception as e:
        sys.print_exception(e)
        _keep(e)
        import machine
        if time.ticks_ms() < STARTING_MS:
            # failed at its start: the watchdog may be running already, so restart into
            # safe mode rather than loop
            try:
                with open(padlink.SAFE_MODE_FLAG, "w") as f:
                    f.write("error\n")
            except OSError:
                pass
        machine.reset()
