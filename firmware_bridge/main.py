# Runs at power-up on the Pico.
#
# Safe mode: the controller leaves padlink.SAFE_MODE_FLAG and restarts, and this boot stays
# at the REPL with no watchdog, where `table-app firmware install` reaches it. It does so
# for an update (padlink.UPDATE, signed by the table the board is paired with), when it
# fails in its first seconds (a club's bad edit of fwconfig.py, a half-copied install), and
# when it fails in play padlink.FAULTS_MAX times in a row. The RP2040's watchdog cannot be
# stopped once it runs, so without this such a fault would reset the Pico every 2 s, for
# good (flashing MicroPython again keeps the files, and the fault with them). What failed
# last is kept in padlink.ERROR_FILE, and why the board is in safe mode, in words, in
# padlink.SAFE_REASON_FILE (`table-app check` reads it); a fault's safe mode lasts until
# `table-app firmware install` (power cycles included). A fault in play restarts the
# controller after a wait that doubles each time (the rings dark meanwhile stay dark); a
# controller that then runs padlink.HEALTHY_MS forgets its faults.
import micropython

# First of all: a byte 0x03 on the link is data, not Ctrl-C. A Pi that opens the port
# while the Pico boots sends its hello at once (and every 30 ms), and any 0x03 in it
# interrupted main.py before the controller had switched Ctrl-C off: main.py ended at the
# REPL and the pads were dead until the next power-up.
try:
    micropython.kbd_intr(-1)
except AttributeError:
    pass

import os
import sys
import time

import padlink

STARTING_MS = 5000       # a fault this soon after power-up is the firmware's, not the game's
BACKOFF_MS = 1000        # the wait before the first restart after a fault in play, doubled
                         # at each one in a row
WHY = {
    "update": "waiting for a firmware update",
    "error": "it failed at its start",
    "faults": "it failed %d times in a row in play" % padlink.FAULTS_MAX,
}


def _safe_mode_asked():
    # An update's flag is taken: the next boot runs the new firmware. A fault's stays until
    # an install takes it: a Pi that talks to the REPL meanwhile (its frames hold Ctrl-B and
    # Ctrl-D, a soft reboot) brings this boot again, not the faulty controller.
    try:
        with open(padlink.SAFE_MODE_FLAG) as f:
            why = f.read().strip() or "update"
        if why == "update":
            os.remove(padlink.SAFE_MODE_FLAG)
        return why
    except OSError:
        return None


def _read(name):
    try:
        with open(name) as f:
            return f.read()
    except OSError:
        return ""


def _write(name, text):
    try:
        with open(name, "w") as f:
            f.write(text)
    except OSError:
        pass


def _remove(name):
    try:
        os.remove(name)
    except OSError:
        pass


def _keep(e):
    try:
        with open(padlink.ERROR_FILE, "w") as f:
            sys.print_exception(e, f)
    except OSError:
        pass


def _wait(ms):
    # the watchdog runs (the controller started it): fed while the restart waits
    import machine
    wdt = machine.WDT(timeout=8000)
    while ms > 0:
        wdt.feed()
        time.sleep_ms(min(ms, 500))
        ms -= 500


why = _safe_mode_asked()
if why is not None:
    try:
        micropython.kbd_intr(3)     # the REPL's Ctrl-C again, for mpremote
    except AttributeError:
        pass
    reason = WHY.get(why, why)
    if why != "update":
        last = [line for line in _read(padlink.ERROR_FILE).splitlines() if line.strip()]
        if last:
            reason += " (the last: %s)" % last[-1].strip()
    _write(padlink.SAFE_REASON_FILE, reason + "\n")
    if why == "update":
        print("pad controller: safe mode, ready for a firmware update")
    else:
        print("pad controller: safe mode: %s (see %s); fix it with "
              "`table-app firmware install`" % (reason, padlink.ERROR_FILE))
else:
    _remove(padlink.SAFE_REASON_FILE)
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
            _write(padlink.SAFE_MODE_FLAG, "error\n")
        else:
            try:
                faults = int(_read(padlink.FAULTS_FILE) or 0) + 1
            except ValueError:
                faults = 1
            if faults >= padlink.FAULTS_MAX:
                _remove(padlink.FAULTS_FILE)
                _write(padlink.SAFE_MODE_FLAG, "faults\n")
            else:
                _write(padlink.FAULTS_FILE, "%d\n" % faults)
                _wait(BACKOFF_MS << (faults - 1))
        machine.reset()
