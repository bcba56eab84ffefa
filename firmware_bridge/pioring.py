# Every ring written at once, by the RP2040's PIO, with the CPU free: one core is enough.
#
# One PIO state machine drives all twelve ring pins together. Each 32-bit word it takes is
# one bit time of every ring (bit k of the word: the pin RING_BASE + k), sent as WS2812 wants
# it: all pins high for 375 ns, then each pin its own bit for 375 ns, then all low for 500 ns
# (10 cycles at 8 MHz: 1.25 us a bit). A frame is 12 pixels x 24 bits = 288 words, 0.36 ms
# for the whole table, and DMA feeds them to the state machine while the scan goes on.
#
# The scan loop only copies a drawn ring into `frame` (post) and, once a step, `kick`s: if
# rings changed and the last frame is out, the rings' bytes are turned into bit planes (about
# a hundred microseconds of Thumb assembly) and the DMA started. Every ring is sent in every
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
HEAD = 32                      # the tables' buffer: masks, a counter, group 1's offset


# ruff: noqa: F821  (r0, ldrb, label... are the inline assembler's own names)
@micropython.asm_thumb
def _planes(r0, r1, r2, r3):
    # Sixteen rings of 36 bytes each, back to back from r0 (rings past the table's are zero):
    # their bits, plane by plane, as the pins' words, 8 a byte position, written to r1; r3
    # byte positions (36). r2 is the tables' buffer: [0] 0x00AA00AA, [4] 0x0000CCCC,
    # [8] 0x0F0F0F0F (the transpose's masks: Thumb's immediates stop at 255), [12] the
    # count, [16] group 1's table offset (1024), then from HEAD a plane's byte (bit i: ring
    # 8g + i) as the pins' word, 256 words per group. An 8x8 bit-matrix transpose (Hacker's
    # Delight 7-3) per byte position and group: rings 8g+4..8g+7 in x (r4), 8g..8g+3 in y
    # (r5), ring 8g+7 and ring 8g+3 in the top bytes. In viper the same took 427 us of the
    # core's time for all twelve rings, on the tap's way to its ring; here about a quarter.
    # The two groups are written out in full: the inline assembler has no loop over Python
    # values, and a group offset in a register would take one of the eight it has.
    str(r3, [r2, 12])        # the byte positions left
    label(LOOP)
    # rings 0-3 into y (r5), 4-7 into x (r4)
    mov(r7, r0)
    ldrb(r5, [r7, 0])
    add(r7, 36)
    ldrb(r6, [r7, 0])
    lsl(r6, r6, 8)
    orr(r5, r6)
    add(r7, 36)
    ldrb(r6, [r7, 0])
    lsl(r6, r6, 16)
    orr(r5, r6)
    add(r7, 36)
    ldrb(r6, [r7, 0])
    lsl(r6, r6, 24)
    orr(r5, r6)
    mov(r7, r0)
    add(r7, 72)
    add(r7, 72)
    ldrb(r4, [r7, 0])
    add(r7, 36)
    ldrb(r6, [r7, 0])
    lsl(r6, r6, 8)
    orr(r4, r6)
    add(r7, 36)
    ldrb(r6, [r7, 0])
    lsl(r6, r6, 16)
    orr(r4, r6)
    add(r7, 36)
    ldrb(r6, [r7, 0])
    lsl(r6, r6, 24)
    orr(r4, r6)
    lsr(r6, r4, 7)
    eor(r6, r4)
    ldr(r7, [r2, 0])
    and_(r6, r7)
    eor(r4, r6)
    lsl(r6, r6, 7)
    eor(r4, r6)
    lsr(r6, r5, 7)
    eor(r6, r5)
    ldr(r7, [r2, 0])
    and_(r6, r7)
    eor(r5, r6)
    lsl(r6, r6, 7)
    eor(r5, r6)
    lsr(r6, r4, 14)
    eor(r6, r4)
    ldr(r7, [r2, 4])
    and_(r6, r7)
    eor(r4, r6)
    lsl(r6, r6, 14)
    eor(r4, r6)
    lsr(r6, r5, 14)
    eor(r6, r5)
    ldr(r7, [r2, 4])
    and_(r6, r7)
    eor(r5, r6)
    lsl(r6, r6, 14)
    eor(r5, r6)
    ldr(r7, [r2, 8])
    lsr(r6, r4, 4)
    and_(r6, r7)
    lsl(r6, r6, 4)
    and_(r4, r7)
    lsl(r4, r4, 4)
    lsr(r3, r5, 4)
    and_(r3, r7)
    orr(r6, r3)
    and_(r5, r7)
    orr(r5, r4)
    mov(r4, r6)
    lsr(r6, r4, 24)
    lsl(r6, r6, 2)
    add(r6, r6, r2)
    ldr(r6, [r6, 32])
    str(r6, [r1, 0])
    lsl(r6, r4, 8)
    lsr(r6, r6, 24)
    lsl(r6, r6, 2)
    add(r6, r6, r2)
    ldr(r6, [r6, 32])
    str(r6, [r1, 4])
    lsl(r6, r4, 16)
    lsr(r6, r6, 24)
    lsl(r6, r6, 2)
    add(r6, r6, r2)
    ldr(r6, [r6, 32])
    str(r6, [r1, 8])
    lsl(r6, r4, 24)
    lsr(r6, r6, 24)
    lsl(r6, r6, 2)
    add(r6, r6, r2)
    ldr(r6, [r6, 32])
    str(r6, [r1, 12])
    lsr(r6, r5, 24)
    lsl(r6, r6, 2)
    add(r6, r6, r2)
    ldr(r6, [r6, 32])
    str(r6, [r1, 16])
    lsl(r6, r5, 8)
    lsr(r6, r6, 24)
    lsl(r6, r6, 2)
    add(r6, r6, r2)
    ldr(r6, [r6, 32])
    str(r6, [r1, 20])
    lsl(r6, r5, 16)
    lsr(r6, r6, 24)
    lsl(r6, r6, 2)
    add(r6, r6, r2)
    ldr(r6, [r6, 32])
    str(r6, [r1, 24])
    lsl(r6, r5, 24)
    lsr(r6, r6, 24)
    lsl(r6, r6, 2)
    add(r6, r6, r2)
    ldr(r6, [r6, 32])
    str(r6, [r1, 28])
    # rings 8-11 into y (r5), 12-15 into x (r4)
    mov(r7, r0)
    add(r7, 144)
    add(r7, 144)
    ldrb(r5, [r7, 0])
    add(r7, 36)
    ldrb(r6, [r7, 0])
    lsl(r6, r6, 8)
    orr(r5, r6)
    add(r7, 36)
    ldrb(r6, [r7, 0])
    lsl(r6, r6, 16)
    orr(r5, r6)
    add(r7, 36)
    ldrb(r6, [r7, 0])
    lsl(r6, r6, 24)
    orr(r5, r6)
    mov(r7, r0)
    add(r7, 216)
    add(r7, 216)
    ldrb(r4, [r7, 0])
    add(r7, 36)
    ldrb(r6, [r7, 0])
    lsl(r6, r6, 8)
    orr(r4, r6)
    add(r7, 36)
    ldrb(r6, [r7, 0])
    lsl(r6, r6, 16)
    orr(r4, r6)
    add(r7, 36)
    ldrb(r6, [r7, 0])
    lsl(r6, r6, 24)
    orr(r4, r6)
    lsr(r6, r4, 7)
    eor(r6, r4)
    ldr(r7, [r2, 0])
    and_(r6, r7)
    eor(r4, r6)
    lsl(r6, r6, 7)
    eor(r4, r6)
    lsr(r6, r5, 7)
    eor(r6, r5)
    ldr(r7, [r2, 0])
    and_(r6, r7)
    eor(r5, r6)
    lsl(r6, r6, 7)
    eor(r5, r6)
    lsr(r6, r4, 14)
    eor(r6, r4)
    ldr(r7, [r2, 4])
    and_(r6, r7)
    eor(r4, r6)
    lsl(r6, r6, 14)
    eor(r4, r6)
    lsr(r6, r5, 14)
    eor(r6, r5)
    ldr(r7, [r2, 4])
    and_(r6, r7)
    eor(r5, r6)
    lsl(r6, r6, 14)
    eor(r5, r6)
    ldr(r7, [r2, 8])
    lsr(r6, r4, 4)
    and_(r6, r7)
    lsl(r6, r6, 4)
    and_(r4, r7)
    lsl(r4, r4, 4)
    lsr(r3, r5, 4)
    and_(r3, r7)
    orr(r6, r3)
    and_(r5, r7)
    orr(r5, r4)
    mov(r4, r6)
    lsr(r6, r4, 24)
    lsl(r6, r6, 2)
    add(r6, r6, r2)
    ldr(r7, [r2, 16])
    add(r6, r6, r7)
    ldr(r6, [r6, 32])
    ldr(r7, [r1, 0])
    orr(r6, r7)
    str(r6, [r1, 0])
    lsl(r6, r4, 8)
    lsr(r6, r6, 24)
    lsl(r6, r6, 2)
    add(r6, r6, r2)
    ldr(r7, [r2, 16])
    add(r6, r6, r7)
    ldr(r6, [r6, 32])
    ldr(r7, [r1, 4])
    orr(r6, r7)
    str(r6, [r1, 4])
    lsl(r6, r4, 16)
    lsr(r6, r6, 24)
    lsl(r6, r6, 2)
    add(r6, r6, r2)
    ldr(r7, [r2, 16])
    add(r6, r6, r7)
    ldr(r6, [r6, 32])
    ldr(r7, [r1, 8])
    orr(r6, r7)
    str(r6, [r1, 8])
    lsl(r6, r4, 24)
    lsr(r6, r6, 24)
    lsl(r6, r6, 2)
    add(r6, r6, r2)
    ldr(r7, [r2, 16])
    add(r6, r6, r7)
    ldr(r6, [r6, 32])
    ldr(r7, [r1, 12])
    orr(r6, r7)
    str(r6, [r1, 12])
    lsr(r6, r5, 24)
    lsl(r6, r6, 2)
    add(r6, r6, r2)
    ldr(r7, [r2, 16])
    add(r6, r6, r7)
    ldr(r6, [r6, 32])
    ldr(r7, [r1, 16])
    orr(r6, r7)
    str(r6, [r1, 16])
    lsl(r6, r5, 8)
    lsr(r6, r6, 24)
    lsl(r6, r6, 2)
    add(r6, r6, r2)
    ldr(r7, [r2, 16])
    add(r6, r6, r7)
    ldr(r6, [r6, 32])
    ldr(r7, [r1, 20])
    orr(r6, r7)
    str(r6, [r1, 20])
    lsl(r6, r5, 16)
    lsr(r6, r6, 24)
    lsl(r6, r6, 2)
    add(r6, r6, r2)
    ldr(r7, [r2, 16])
    add(r6, r6, r7)
    ldr(r6, [r6, 32])
    ldr(r7, [r1, 24])
    orr(r6, r7)
    str(r6, [r1, 24])
    lsl(r6, r5, 24)
    lsr(r6, r6, 24)
    lsl(r6, r6, 2)
    add(r6, r6, r2)
    ldr(r7, [r2, 16])
    add(r6, r6, r7)
    ldr(r6, [r6, 32])
    ldr(r7, [r1, 28])
    orr(r6, r7)
    str(r6, [r1, 28])
    add(r0, 1)
    add(r1, 32)
    ldr(r3, [r2, 12])
    sub(r3, 1)
    str(r3, [r2, 12])
    beq(DONE)
    b(LOOP)                  # (a conditional branch reaches 256 bytes; the loop is longer)
    label(DONE)


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
        # _planes's tables: its masks, then a plane's byte (bit i: ring 8g + i) as the pins'
        # word, for the two groups of rings
        self.tab = bytearray(HEAD + 2048)
        struct.pack_into("<IIIII", self.tab, 0, 0x00AA00AA, 0x0000CCCC, 0x0F0F0F0F, 0, 1024)
        for v in range(256):
            for g in range(2):
                w = 0
                for i in range(8):
                    if v >> i & 1 and 8 * g + i < len(pins):
                        w |= 1 << (pins[8 * g + i] - base)
                struct.pack_into("<I", self.tab, HEAD + 1024 * g + 4 * v, w)
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
            _planes(self.frame, words, self.tab, self.n)
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
