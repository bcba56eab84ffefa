# ruff: noqa: F821  (ptr8, ptr16, ptr32 and uint are viper's own names)
# The buttons' edges, found, framed and queued in machine code: the controller's hot path.
#
# A tap is the one thing the controller must answer at once, and on the Pico's core every
# MicroPython call costs some 400-800 cycles and every attribute some 350: the Python
# version of this path (a scan method, the edge's stamp, the sender's queue entry, the MAC's
# words, the hash, the COBS, a copy of the body) took 65,000 cycles an edge. Here one call
# does it all: it reads the pins, debounces them, makes the EDGE's frame byte for byte as
# padlink.frame(EDGE, ...) would, keeps it for resending until it is acknowledged, and says
# which frame to write now. On the Pico that call is fastmac.scan_edges, in assembly (some
# 1,300 cycles an edge beyond an idle look); `scan` below, in viper, is the same for every
# other port and the reference the assembly is tested against on the emulated RP2040 (a
# viper scan calling a sealing routine cost some 2,700).
#
# Everything lives in two buffers made once: `st`, an array('I') whose first words are
# fastmac's context (so the hash reads the message where the scan packed it), and `slots`,
# a ring of LIMIT frames (each SLOT bytes: the frame's 16, the edge's body's 6, its seq).
# Only the oldest frame is on the wire at a time, as with padlink.Sender, so the Pi hears
# a seat's press before its release. The viper runs on the unix port too (the firmware
# tests), with the pins' levels handed in and padlink's viper hash.

import sys
from array import array

import micropython
import padlink as pl
from micropython import const

try:
    if sys.platform != "rp2":
        raise ImportError
    from fastmac import scan_edges as scan_asm
except ImportError:
    scan_asm = None

# st: fastmac's context first (see fastmac.py) ...
# (words 8 to 10: the message's words, where fastmac.scan_edges packs an EDGE's kind, seq
# and body for its hash)
# (word 11, and 30 and 31 below, are fastmac.scan_edges's: the CRC table's address, the
# slots' address, its own; so are words 4 to 6, 23 and 130, its scratch) ...
# ... then the scan's state. What the assembly reads on every scan is in words 0..31: its
# loads reach only that far from one register
_MASK = const(12)        # every button's bit in GPIO_IN
_DOWN = const(13)        # the bits of the buttons taken as down
_PENDING = const(14)     # the bits of the pins seen otherwise than taken (stamped in _SEEN)
_SEQ = const(15)         # the last sequence number given (1..255)
_MIN_PRESS = const(16)   # fwconfig.MIN_PRESS_MS
_DEBOUNCE = const(17)    # fwconfig.DEBOUNCE_MS
_HEAD = const(18)        # the slot of the oldest frame queued
_COUNT = const(19)       # how many are queued
_SENT = const(20)        # 1 once the oldest is on the wire
_SENT_AT = const(21)     # when it went (ms)
ROOM = const(22)         # bytes that may go to USB before the Pi is heard (controller.py)
_KEYED = const(24)       # 1 once a hello gave the session's key: nothing is sent before
_RESEND_MS = const(25)
_TICKS = const(26)       # ticks_ms's period, less one (2**30 - 1 on the Pico)
_GPIO_IN = const(27)     # the SIO register with every pin's level (0 where there is none)
_TIMER = const(28)       # the microsecond timer's low word (0 where there is none)
_WORK = const(29)        # microseconds spent on edges (STATS), where there is a timer
_ASM = const(30)         # the slots' address, where scan_edges runs (else 0)
_SEAT_OF = const(32)     # by GPIO number: the seat's number (1..) of a button pin, or 0
_LOCK = const(64)        # by GPIO number: bounces ignored until then (ms)
_SEEN = const(96)        # by GPIO number: when the pin first read otherwise (ms)
_RESENDS = const(128)
_DROPPED = const(129)
WORDS = const(132)

LIMIT = const(64)        # edges kept while the Pi is away (padlink.Sender's limit)
SLOT = const(24)         # a frame (16), its body (6), its seq (1), a spare byte
_FRAME = const(16)       # an EDGE on the wire: COBS of kind, seq, body, MAC, CRC; its 0x00
_SCRATCH = const(1536)   # LIMIT * SLOT: where a frame's bytes are put before their COBS
_EDGE = const(5)         # pl.EDGE (a test holds them equal)

_CRC = pl._CRC           # CRC-16/CCITT-FALSE by byte, padlink's own table
_hsip = pl._hsip         # HalfSipHash-2-4 of bytes under an 8-byte key, padlink's own


@micropython.viper
def _seal(st, slots, at: int, table):
    # the frame of the edge in slot `at` (its body and seq are there), made in place: kind,
    # seq and body, their MAC under the session's key (padlink's own hash; the key is st's
    # first 8 bytes), the CRC of the lot (by `table`), COBS-encoded, and the frame's 0x00.
    # On the Pico fastmac.scan_edges does the same in assembly, in a tenth of the cycles (a
    # test holds the two to padlink.frame)
    b = ptr8(slots)
    seq = b[at + 22]
    p = _SCRATCH                                # kind, seq, body, MAC, CRC
    b[p] = _EDGE
    b[p + 1] = seq
    i = 0
    while i < 6:
        b[p + 2 + i] = b[at + 16 + i]
        i += 1
    m = uint(_hsip(st, slots, p, p + 8))
    b[p + 8] = int(m >> 24) & 0xFF
    b[p + 9] = int(m >> 16) & 0xFF
    b[p + 10] = int(m >> 8) & 0xFF
    b[p + 11] = int(m) & 0xFF
    t = ptr16(table)
    crc = 0xFFFF
    i = 0
    while i < 12:
        crc = ((crc << 8) & 0xFF00) ^ t[((crc >> 8) ^ b[p + i]) & 0xFF]
        i += 1
    b[p + 12] = (crc >> 8) & 0xFF
    b[p + 13] = crc & 0xFF
    code_at = at                                # COBS: each block's length byte at its start
    w = at + 1
    code = 1
    i = 0
    while i < 14:
        v = b[p + i]
        if v == 0:
            b[code_at] = code
            code_at = w
            code = 1
        else:
            b[w] = v
            code += 1
        w += 1
        i += 1
    b[code_at] = code
    b[w] = 0




@micropython.viper
def scan(st, bits: int, now: int, slots) -> int:
    """One look at the buttons, and the frame to write now: its slot's number (1..), or 0
    (its 16 bytes are taken from the room in st[ROOM]).

    bits: GPIO_IN's value (on the Pico fastmac.scan_edges reads it itself; a test hands it
    to both, to hold the two to each other). A press counts once its pin has
    read pressed for MIN_PRESS_MS, stamped when it began (a spike of noise on a long cable
    never leaves the controller); a release counts at once; after an edge its bounces are
    locked out for DEBOUNCE_MS, and a change meanwhile is stamped when it was first seen.
    At most one edge is framed a call (another that is due waits for the next scan, its
    stamp kept). The frame to write is the oldest queued, when it has not gone yet or its
    ack is RESEND_MS late."""
    s = ptr32(st)
    tm = int(s[_TICKS])
    now = now & tm
    mask = int(s[_MASK])
    down = int(s[_DOWN])
    pending = int(s[_PENDING])
    differ = ((~bits) & mask) ^ down
    if differ or pending:
        began = 0
        timer = int(s[_TIMER])
        if timer:
            began = int(ptr32(timer)[0])
        debounce = int(s[_DEBOUNCE])
        framed = 0
        look = differ | pending
        pin = 0
        while look:
            if look & 1:
                bit = 1 << pin
                if not differ & bit:
                    pending &= ~bit               # it went back: a bounce, nothing more
                else:
                    if not pending & bit:
                        s[_SEEN + pin] = now
                        pending |= bit
                    at = int(s[_SEEN + pin])
                    # locked: the last edge's lock ends at most DEBOUNCE_MS from now (a
                    # lock read as 'in the future' by the clock's wrap alone is no lock)
                    ahead = (int(s[_LOCK + pin]) - now) & tm
                    held = (now - at) & tm
                    pressed = 0 if down & bit else 1
                    if framed or (ahead and ahead <= debounce):
                        pass                      # still bouncing, or one edge framed already
                    elif pressed and held < int(s[_MIN_PRESS]):
                        pass
                    else:
                        framed = 1
                        pending &= ~bit
                        down ^= bit
                        s[_LOCK + pin] = (now + debounce) & tm
                        b = ptr8(slots)
                        count = int(s[_COUNT])
                        head = int(s[_HEAD])
                        if count >= LIMIT:        # the oldest gives way (the Pi long gone)
                            head = (head + 1) % LIMIT
                            s[_HEAD] = head
                            count -= 1
                            s[_DROPPED] = int(s[_DROPPED]) + 1
                            s[_SENT] = 0
                        k = (head + count) % LIMIT
                        o = k * SLOT
                        seq = int(s[_SEQ]) % 255 + 1
                        s[_SEQ] = seq
                        b[o + 16] = int(s[_SEAT_OF + pin])
                        b[o + 17] = pressed
                        b[o + 18] = (at >> 24) & 0xFF
                        b[o + 19] = (at >> 16) & 0xFF
                        b[o + 20] = (at >> 8) & 0xFF
                        b[o + 21] = at & 0xFF
                        b[o + 22] = seq
                        _seal(st, slots, o, _CRC)
                        s[_COUNT] = count + 1
            look = look >> 1
            pin += 1
        s[_DOWN] = down
        s[_PENDING] = pending
        if timer and framed:
            s[_WORK] = int(s[_WORK]) + ((int(ptr32(timer)[0]) - began) & 0x3FFFFFFF)
    if not s[_COUNT] or not s[_KEYED] or int(s[ROOM]) < _FRAME:
        return 0                                  # (no room: it goes once the Pi is heard)
    if s[_SENT]:
        if ((now - int(s[_SENT_AT])) & tm) < int(s[_RESEND_MS]):
            return 0
        s[_RESENDS] = int(s[_RESENDS]) + 1
    s[_SENT] = 1
    s[_SENT_AT] = now
    s[ROOM] = int(s[ROOM]) - _FRAME
    return int(s[_HEAD]) + 1


@micropython.viper
def _reseal(st, slots):
    # every queued frame signed again (a new session's key)
    s = ptr32(st)
    i = 0
    n = int(s[_COUNT])
    while i < n:
        o = ((int(s[_HEAD]) + i) % LIMIT) * SLOT
        _seal(st, slots, o, _CRC)
        i += 1


@micropython.viper
def _ack(st, slots, seq: int) -> int:
    s = ptr32(st)
    if not s[_COUNT]:
        return 0
    head = int(s[_HEAD])
    if ptr8(slots)[head * SLOT + 22] != seq:
        return 0
    s[_HEAD] = (head + 1) % LIMIT
    s[_COUNT] = int(s[_COUNT]) - 1
    s[_SENT] = 0
    return 1


class Edges:
    """The buttons' state and the edges waiting for their acks, in buffers made once."""

    def __init__(self, button_pins, min_press_ms, debounce_ms, pico):
        self.st = st = array("I", bytes(4 * WORDS))
        self.slots = bytearray(LIMIT * SLOT + 16)
        view = memoryview(self.slots)
        self.views = [view[k * SLOT:k * SLOT + _FRAME] for k in range(LIMIT)]
        mask = 0
        for i in range(len(button_pins)):
            p = button_pins[i]
            mask |= 1 << p
            st[_SEAT_OF + p] = i + 1
        st[_MASK] = mask
        st[_MIN_PRESS] = min_press_ms
        st[_DEBOUNCE] = debounce_ms
        st[_RESEND_MS] = pl.RESEND_MS
        if pico:
            st[_TICKS] = (1 << 30) - 1
            st[_GPIO_IN] = 0xD0000004
            st[_TIMER] = 0x40054028               # TIMERAWL: microseconds
            if scan_asm is not None:
                # (the assembly is handed the buffers' addresses: made once, they never move)
                import uctypes
                st[_ASM] = uctypes.addressof(self.slots)
                st[11] = uctypes.addressof(_CRC)
        else:
            st[_TICKS] = 0xFFFFFFFF
        self.rekey(None)

    def rekey(self, key):
        """A new session: the frames waiting are signed with its key, and sent from now."""
        k = bytes(key) if key is not None else bytes(8)
        k0 = k[0] | k[1] << 8 | k[2] << 16 | k[3] << 24
        k1 = k[4] | k[5] << 8 | k[6] << 16 | k[7] << 24
        st = self.st
        st[0], st[1] = k0, k1
        st[2], st[3] = 0x6C796765 ^ k0, 0x74656462 ^ k1
        st[_KEYED] = 1 if key is not None else 0
        if st[_ASM]:
            scan_asm(st, 0, -2)
        else:
            _reseal(st, self.slots)

    def restart(self):
        """The link came back: the oldest frame goes again at once."""
        self.st[_SENT] = 0

    def ack(self, seq):
        return _ack(self.st, self.slots, seq)

    def head(self):
        """The sequence number of the frame on the wire, or 0."""
        st = self.st
        return self.slots[st[_HEAD] * SLOT + 22] if st[_COUNT] else 0

    def queued(self):
        return self.st[_COUNT]

    def seq(self):
        """The last sequence number given to an edge."""
        return self.st[_SEQ]

    def counts(self):
        """(resends, dropped, work us)"""
        st = self.st
        return st[_RESENDS], st[_DROPPED], st[_WORK]

    def down_bits(self):
        return self.st[_DOWN]
