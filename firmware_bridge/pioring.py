# Every ring written at once, by the RP2040's PIO, with the CPU free: one core is enough.
#
# One PIO state machine drives all twelve ring pins together. Each 32-bit word it takes is
# one bit time of every ring (bit k of the word: the pin RING_BASE + k), sent as WS2812 wants
# it: all pins high for 375 ns, then each pin its own bit for 375 ns, then all low for 500 ns
# (10 cycles at 8 MHz: 1.25 us a bit). A frame is 12 pixels x 24 bits = 288 words, 0.36 ms
# for the whole table, and DMA feeds them to the state machine while the scan goes on.
#
# The scan loop only copies a drawn ring into `frame` (post) and, once a step, `kick`s: if
# rings changed and the last frame is out, the rings' bytes are turned into bit planes (a
# few hundred microseconds of viper code) and the DMA started. Every ring is sent in every
# frame, so a ring that was plugged in or swapped gets its picture with the next one.
#
# Pins between the ring pins that are not rings (GPIO 23-25 on a Pico: the power supply's
# mode, VBUS sense, the LED) are handed back to the CPU at once: the state machine's words
# carry no bit for them and they never leave their own function.

import struct

import micropython
import rp2
from machine import Pin

FREQ = 8_000_000               # 10 state-machine cycles a WS2812 bit
PIO0_TXF0 = 0x50200010         # the first state machine's TX FIFO (DMA writes there)
DREQ_PIO0_TX0 = 0


def _program(count):
    @rp2.asm_pio(out_init=(rp2.PIO.OUT_LOW,) * count, out_shiftdir=rp2.PIO.SHIFT_RIGHT,
                 autopull=True, pull_thresh=32)
    def parallel():
        wrap_target()
        out(x, 32)                      # noqa: F821 (PIO assembler names)
        mov(pins, invert(null))  [2]    # noqa: F821  every ring high
        mov(pins, x)             [2]    # noqa: F821  each ring its bit
        mov(pins, null)          [2]    # noqa: F821  every ring low (+ the next out)
        wrap()
    return parallel


RING_BYTES = 36                # 12 pixels of 3 bytes: the strides below are written out


@micropython.viper
def _group(x: uint, y: uint, t: uint, s: ptr8, n: int, tab: ptr32, o: ptr32, add: int):
    # Eight rings of 36 bytes each, back to back from s: their bits, plane by plane, as the
    # pins' words (tab: a plane's byte, bit i for ring i, to the pins' bits), written to o,
    # or added to what is there. An 8x8 bit-matrix transpose (Hacker's Delight 7-3) per
    # byte position: ring 7 in the top byte of x, ring 3 in the top byte of y.
    # x, y and t come first (callers pass 0): armv6m's viper keeps only its first three
    # locals in registers, and these are the busy ones; the strides are literals, so each
    # load is one instruction (427 us for all twelve rings on the emulated RP2040, against
    # 546 us with the stride a variable and the locals on the stack).
    while n > 0:
        n -= 1
        y = uint(s[0]) | (uint(s[36]) << 8) | (uint(s[72]) << 16) | (uint(s[108]) << 24)
        x = uint(s[144]) | (uint(s[180]) << 8) | (uint(s[216]) << 16) | (uint(s[252]) << 24)
        t = (x ^ (x >> 7)) & 0x00AA00AA
        x = x ^ t ^ (t << 7)
        t = (y ^ (y >> 7)) & 0x00AA00AA
        y = y ^ t ^ (t << 7)
        t = (x ^ (x >> 14)) & 0x0000CCCC
        x = x ^ t ^ (t << 14)
        t = (y ^ (y >> 14)) & 0x0000CCCC
        y = y ^ t ^ (t << 14)
        t = (((x >> 4) & 0x0F0F0F0F) << 4) | ((y >> 4) & 0x0F0F0F0F)
        y = ((x & 0x0F0F0F0F) << 4) | (y & 0x0F0F0F0F)
        x = t
        if add:
            o[0] |= tab[x >> 24]
            o[1] |= tab[(x >> 16) & 255]
            o[2] |= tab[(x >> 8) & 255]
            o[3] |= tab[x & 255]
            o[4] |= tab[y >> 24]
            o[5] |= tab[(y >> 16) & 255]
            o[6] |= tab[(y >> 8) & 255]
            o[7] |= tab[y & 255]
        else:
            o[0] = tab[x >> 24]
            o[1] = tab[(x >> 16) & 255]
            o[2] = tab[(x >> 8) & 255]
            o[3] = tab[x & 255]
            o[4] = tab[y >> 24]
            o[5] = tab[(y >> 16) & 255]
            o[6] = tab[(y >> 8) & 255]
            o[7] = tab[y & 255]
        s = ptr8(uint(s) + 1)
        o = ptr32(uint(o) + 32)


class PioRings:
    """The rings of a star (one pin each, up to 16 within 32 GPIOs), written by one PIO
    state machine fed by DMA; the same calls as pixelout.PixelOut."""

    def __init__(self, pins, ring_bytes, sm_id=0):
        if ring_bytes != RING_BYTES or len(pins) > 16:
            raise ValueError("the PIO writer takes up to 16 rings of 12 pixels")
        base = min(pins)
        count = max(pins) - base + 1
        self.rings = len(pins)
        self.n = ring_bytes
        self.frame = bytearray(16 * ring_bytes)      # rings past the table's stay zero
        self.view = memoryview(self.frame)
        self.words = [bytearray(8 * 4 * ring_bytes) for _ in range(2)]
        self.next = 0                                # which words buffer is free
        # a plane's byte (bit i: ring 8g + i) as the pins' word, for the two groups of rings
        self.tabs = [bytearray(1024), bytearray(1024)]
        for v in range(256):
            for g in range(2):
                w = 0
                for i in range(8):
                    if v >> i & 1 and 8 * g + i < len(pins):
                        w |= 1 << (pins[8 * g + i] - base)
                struct.pack_into("<I", self.tabs[g], 4 * v, w)
        self.sm = rp2.StateMachine(sm_id, _program(count), freq=FREQ, out_base=Pin(base))
        for p in range(base, base + count):
            if p not in pins:
                Pin(p, Pin.IN)         # back to the CPU: never driven by the rings' program
        self.sm.active(1)
        self.dma = rp2.DMA()
        self.ctrl = self.dma.pack_ctrl(size=2, inc_read=True, inc_write=False,
                                       treq_sel=DREQ_PIO0_TX0 + sm_id)
        self.fifo = PIO0_TXF0 + 4 * sm_id
        self.pending = False
        self.drawn = False             # the last words made are of the rings as posted
        self.writes = 0                # frames sent
        self.wake_us = 0               # (the thread writer's; none here)

    def post(self, i, data):
        """Ring `i` is to show `data` (its bytes in the ring's own order)."""
        n = self.n
        self.view[i * n:(i + 1) * n] = data
        self.pending = True
        self.drawn = False

    def refresh(self):
        """Send every ring again with the next frame (a still ring is kept fresh)."""
        self.pending = True

    def kick(self):
        """Start the next frame if one is due and the last is out; never waits."""
        if not self.pending or self.dma.active():
            return False
        if self.drawn:
            # nothing posted since the last frame (a refresh of still rings): its bit planes,
            # in the buffer the DMA has just finished with, are this frame's too (making them
            # again was half a millisecond, the scan's longest step)
            words = self.words[self.next ^ 1]
        else:
            words = self.words[self.next]
            self.next ^= 1
            n = self.n
            _group(0, 0, 0, self.view, n, self.tabs[0], words, 0)
            _group(0, 0, 0, self.view[8 * n:], n, self.tabs[1], words, 1)
            self.drawn = True
        self.pending = False
        self.dma.config(read=words, write=self.fifo, count=len(words) // 4, ctrl=self.ctrl,
                        trigger=True)
        self.writes += 1
        return True

    def idle(self):
        return not self.pending and not self.dma.active()

    def flush(self, timeout_ms=100):
        """Send what is posted and wait until it is out: before a reset."""
        import time
        start = time.ticks_ms()
        while not self.idle() and time.ticks_diff(time.ticks_ms(), start) < timeout_ms:
            self.kick()
