# The rings' pixels where there is no PIO writer (pioring.py, the Pico's star of rings):
# a chain of rings on one pin, or the unix port in the tests.
#
# Writing a WS2812 strip blocks its caller (MicroPython's bitstream: 0.36 ms for 12 pixels,
# interrupts off). On the Pico that is what the chain does: written at once, in the caller
# (the Pico's firmware runs on one core, no thread). In the unix port (the tests' rig, where
# the strips stand for the PIO's asynchronous frame) a thread writes them: the scan loop only
# copies a drawn ring into a staging buffer and marks it, and the writer copies the staged
# bytes into the strip's own buffer under the lock, then writes outside it, so a ring is
# never written half old, half new. fwconfig.PIXEL_WAIT = "poll" or "lock" chooses how that
# thread waits ("lock": it sleeps on a lock the scan loop releases).

import sys
import time

try:
    import _thread
except ImportError:
    _thread = None


class PixelOut:
    def __init__(self, strips, wait=None):
        self.strips = strips
        self.staged = [bytearray(len(s.buf)) for s in strips]
        self.pending = 0                 # one bit per strip: staged and not yet written
        self.writing = False
        self.writes = 0
        self.wake_us = 0                 # time spent waking the writer (lock mode only)
        # never a thread on the Pico: rp2's threads run on core 1, and the firmware is for
        # one core
        self.threaded = _thread is not None and sys.platform != "rp2"
        if not self.threaded:
            return
        if wait is None:
            wait = "lock"
        self.lock = _thread.allocate_lock()
        self.wake = None
        if wait == "lock":
            self.wake = _thread.allocate_lock()
            self.wake.acquire()          # held: the writer sleeps until a post lets it go
        _thread.start_new_thread(self._run, ())

    def post(self, i, data):
        """Strip `i` is to show `data` (its bytes in the strip's own order)."""
        if not self.threaded:
            self.strips[i].buf[:] = data
            self.strips[i].write()
            self.writes += 1
            return
        self.lock.acquire()
        self.staged[i][:] = data
        self.pending |= 1 << i
        self.lock.release()
        wake = self.wake
        # only the writer takes `wake` and only this side lets it go, so a lock seen taken
        # is still taken when released here. Waking a sleeping thread is a system call
        # (futex) that the Pico's polling core 1 never needs: timed apart in wake_us.
        if wake is not None and wake.locked():
            began = time.ticks_us()
            wake.release()
            self.wake_us += time.ticks_diff(time.ticks_us(), began)

    def kick(self):
        """(The PIO writer's: here a post is written when it is posted.)"""
        return False

    def refresh(self):
        """Write every strip again, as it is (a still ring is kept fresh)."""
        for i in range(len(self.strips)):
            self.post(i, self.staged[i] if self.threaded else self.strips[i].buf)

    def idle(self):
        """Is every posted strip written?"""
        return not self.pending and not self.writing

    def flush(self, timeout_ms=100):
        """Wait (a little) until every posted strip is written: before a reset."""
        start = time.ticks_ms()
        while not self.idle() and time.ticks_diff(time.ticks_ms(), start) < timeout_ms:
            time.sleep_ms(1)

    def _run(self):
        strips, staged = self.strips, self.staged
        n = len(strips)
        while True:
            if self.wake is not None:
                self.wake.acquire()
            self.lock.acquire()
            due = self.pending
            if due:
                self.writing = True      # before pending clears: idle() is never true early
            self.pending = 0
            if due:
                for i in range(n):
                    if due >> i & 1:
                        strips[i].buf[:] = staged[i]
            self.lock.release()
            if not due:
                if self.wake is None:
                    time.sleep_us(50)
                continue
            for i in range(n):
                if due >> i & 1:
                    strips[i].write()
                    self.writes += 1
            self.writing = False
