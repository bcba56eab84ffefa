# The test's hand on the simulated Pico: pin levels in, pixel frames and watchdog feeds out.
# Control commands arrive on the FIFO named by PADSIM_IN, one per line:
#   P <pin> <level>     set an input pin's level (a button: 0 = pressed)
#   Q                   report: "S <watchdog feeds> <pixel writes>"
#   G <pin> <us>        a spike: the pin reads 0 for <us> microseconds of the firmware's
#                       own time, then 1 again (a real-time test cannot make one so short)
# Every NeoPixel.write() sends "W" and the raw GRB-free RGB bytes of the whole chain on the
# FIFO named by PADSIM_OUT.
import os
import select
import time

try:
    import _thread
    _lock = _thread.allocate_lock()   # the pixel writer's thread sends too (pixelout.py)
except ImportError:
    _lock = None

levels = {}
feeds = [0]
writes = [0]
_in = None
_out = None
_poll = None
_last = [0]
_buf = bytearray()
_spikes = {}


def _open():
    global _in, _out, _poll
    if _lock is not None:
        _lock.acquire()
    try:
        _open_once()
    finally:
        if _lock is not None:
            _lock.release()


def _open_once():
    global _in, _out, _poll
    if _in is None:
        _in = open(os.getenv("PADSIM_IN"), "rb")
        _out = open(os.getenv("PADSIM_OUT"), "wb")
        _poll = select.poll()
        _poll.register(_in, select.POLLIN)


def service():
    """Take pending control commands (at most every 100 us: the scan reads 12 pins a loop)."""
    now = time.ticks_us()
    for pin in list(_spikes):
        if time.ticks_diff(now, _spikes[pin]) >= 0:
            levels[pin] = 1
            del _spikes[pin]
    if time.ticks_diff(now, _last[0]) < 100:
        return
    _last[0] = now
    _open()
    while _poll.poll(0):
        b = _in.read(1)
        if not b:
            return
        if b == b"\n":
            _command(bytes(_buf).decode())
            _buf[:] = b""
        else:
            _buf.extend(b)


def _command(line):
    parts = line.split()
    if not parts:
        return
    if parts[0] == "P":
        levels[int(parts[1])] = int(parts[2])
    elif parts[0] == "G":
        levels[int(parts[1])] = 0
        _spikes[int(parts[1])] = time.ticks_add(time.ticks_us(), int(parts[2]))
    elif parts[0] == "Q":
        send(b"S %d %d\n" % (feeds[0], writes[0]))


def send(data):
    _open()
    if _lock is not None:
        _lock.acquire()
    try:
        _out.write(data)
    finally:
        if _lock is not None:
            _lock.release()
