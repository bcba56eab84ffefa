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


class _Mem32:
    """The RP2040's registers, as far as the firmware reads them: SIO GPIO_IN."""

    def __getitem__(self, addr):
        if addr != 0xD0000004:
            raise ValueError("no such register in the shim: %x" % addr)
        padsim.service()
        bits = 0
        for pin in range(30):
            if padsim.levels.get(pin, 0):
                bits |= 1 << pin
        return bits


mem32 = _Mem32()


class WDT:
    def __init__(self, id=0, timeout=5000):
        self.timeout = timeout

    def feed(self):
        padsim.feeds[0] += 1


def unique_id():
    # a board's flash id: the simulator's own, or the one its test names
    import os
    name = os.getenv("PADSIM_BOARD") or "e6614c311b7e5b2d"
    return bytes(int(name[i:i + 2], 16) for i in range(0, len(name), 2))


def reset():
    # the board restarts: the simulator sees the interpreter end on SIGUSR1 and boots it again
    # from its flash folder (a plain exit would only drop an interactive interpreter to its REPL)
    import os
    padsim.send(b"R\n")
    os.system("kill -USR1 $PPID")
    while True:
        pass
