# A shim of MicroPython's `machine` for the firmware tests: pins read what the test set.
import padsim


class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 1

    def __init__(self, pin, mode=-1, pull=-1):
        self.pin = pin
        if pull == Pin.PULL_UP:
            padsim.levels.setdefault(pin, 1)

    def value(self, v=None):
        if v is not None:
            padsim.levels[self.pin] = v
            return None
        padsim.service()
        return padsim.levels.get(self.pin, 0)


class WDT:
    def __init__(self, id=0, timeout=5000):
        self.timeout = timeout

    def feed(self):
        padsim.feeds[0] += 1


def reset():
    # the board restarts: the simulator sees the interpreter end on SIGUSR1 and boots it again
    # from its flash folder (a plain exit would only drop an interactive interpreter to its REPL)
    import os
    padsim.send(b"R\n")
    os.system("kill -USR1 $PPID")
    while True:
        pass
