# A shim of MicroPython's `neopixel`: the pixel buffer goes to the test on every write().
import padsim


_all = []      # every strip, in the order made: one ring per pin, or one chain
_frame = bytearray(b"W")   # what the test is sent: "W" and every strip's bytes, in order


class NeoPixel:
    def __init__(self, pin, n, bpp=3, timing=1):
        self.n = n
        self.buf = bytearray(n * 3)
        self.at = len(_frame)                     # where this strip's bytes sit in _frame
        _frame.extend(self.buf)
        _all.append(self)

    # the buffer holds green, red, blue, as MicroPython's own NeoPixel does for a WS2812
    def __setitem__(self, i, c):
        j = i * 3
        self.buf[j] = c[1]
        self.buf[j + 1] = c[0]
        self.buf[j + 2] = c[2]

    def __getitem__(self, i):
        j = i * 3
        return (self.buf[j + 1], self.buf[j], self.buf[j + 2])

    def __len__(self):
        return self.n

    def write(self):
        # the test sees the whole table's pixels as the strips hold them (green, red, blue:
        # picosim turns them into red, green, blue)
        # (one frame kept and this strip's bytes copied in: a write allocates nothing, as a
        # real one does not)
        padsim.writes[0] += 1
        _frame[self.at:self.at + len(self.buf)] = self.buf
        padsim.send(_frame)
