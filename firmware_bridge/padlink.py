# The wire protocol between the Pi and the pad controller (see PROTOCOL.md).
# Runs unchanged under CPython and MicroPython: no typing, no dataclasses, only bytes.

# The hot functions are compiled to machine code on the Pico (@micropython.native: the same
# Python, three times quicker on a frame); CPython runs them as they are.
try:
    import micropython
except ImportError:      # CPython (the Pi's side): the decorator changes nothing
    class micropython:   # noqa: N801
        @staticmethod
        def native(f):
            return f


PROTOCOL = 2

HELLO = 1        # Pi -> pad   reliable   [protocol, challenge (8)]
HELLO_REPLY = 2  # pad -> Pi              [protocol, seats, ring size, boot id (4),
                 #                         proof (8), firmware version...]
ACK = 3          # both                   [acknowledged seq]
BEAT = 4         # both                   heartbeat, empty
EDGE = 5         # pad -> Pi  reliable    [seat, pressed, t_ms (4 bytes)]
SHOW = 6         # Pi -> pad  reliable    [seat, picture bytes (ringdraw.py)]
BRIGHT = 7       # Pi -> pad  reliable    [cap 0-255, budget mA (2 bytes)]
STATS = 8        # pad -> Pi              [bad frames (2), resends (2), dropped edges (2),
                 #                         work us (4), link us (4)]
UPDATE = 9       # Pi -> pad  reliable    [b"update"]: restart into safe mode for an update
ROTATE = 10      # Pi -> pad  reliable    [each seat's ring turn: the pixel at seat 1 (1 byte each)]
ORDER = 11       # Pi -> pad  reliable    [each seat's ring: its place among the ring pins, 1-12]

UPDATE_BODY = b"update"   # a frame of kind 9 with any other body is ignored
SAFE_MODE_FLAG = "safemode"   # on the controller's flash: the next boot stays at the REPL

MAX_FRAME = 64   # bytes of payload; a longer run is noise
WINDOW = 128     # a reliable frame is new only if its seq is at most this far ahead
RESEND_MS = 30   # an unacknowledged reliable frame is sent again after this


def _crc_table():
    table = []
    for i in range(256):
        crc = i << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table.append(crc & 0xFFFF)
    return tuple(table)


_CRC = _crc_table()     # one lookup a byte instead of eight shifts (the Pico's hot path)


@micropython.native
def crc16(data, crc=0xFFFF):
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF)."""
    table = _CRC
    for b in data:
        crc = ((crc << 8) & 0xFF00) ^ table[(crc >> 8) ^ b]
    return crc


@micropython.native
def cobs_encode(data):
    """COBS: the frame with no zero byte in it, so 0x00 can end every frame."""
    return _cobs(data, False)


@micropython.native
def _cobs(data, end):
    # one pass into one buffer: each block's length byte is filled in when the block ends
    # (at a zero, after 254 bytes, or at the end); `end` adds the frame's closing 0x00
    n = len(data)
    out = bytearray(n + n // 254 + 3)
    at = 0              # where the open block's length byte goes
    o = 1
    code = 1
    for b in data:
        if b == 0:
            out[at] = code
            at = o
            o += 1
            code = 1
        else:
            out[o] = b
            o += 1
            code += 1
            if code == 255:
                out[at] = code
                at = o
                o += 1
                code = 1
    out[at] = code
    if end:
        out[o] = 0
        o += 1
    return bytes(out[:o])


@micropython.native
def cobs_decode(data):
    """The inverse of cobs_encode; None if the bytes are not valid COBS."""
    out = bytearray()
    i = 0
    n = len(data)
    while i < n:
        code = data[i]
        end = i + code
        if code == 0 or end > n:
            return None
        if end > n:
            return None
        out += data[i + 1:end]
        i = end
        if code != 255 and i < n:
            out.append(0)
    return bytes(out)


_ACKS = {}


def ack_frame(seq):
    """The ACK of `seq`, built once (an ACK goes out for every reliable frame)."""
    f = _ACKS.get(seq)
    if f is None:
        f = _ACKS[seq] = frame(ACK, 0, bytes([seq]))
    return f


@micropython.native
def frame(kind, seq, body=b""):
    """One frame on the wire: COBS(kind, seq, body, crc) and a 0x00."""
    n = len(body)
    raw = bytearray(n + 4)
    raw[0] = kind
    raw[1] = seq
    raw[2:n + 2] = body
    c = crc16(memoryview(raw)[:n + 2])
    raw[n + 2] = c >> 8
    raw[n + 3] = c & 0xFF
    return _cobs(raw, True)


class Decoder:
    """Bytes in (any split, any noise), whole checked frames out; errors are counted."""

    def __init__(self):
        self.buf = bytearray()
        self.bad = 0          # frames dropped: bad COBS, bad CRC, too short, too long
        self.overflow = False

    @micropython.native
    def feed(self, data):
        """Take bytes; return a list of (kind, seq, body)."""
        # each frame's end found in C (bytes.find), and a frame that arrived whole is
        # checked straight from the input, never copied byte by byte
        out = []
        start = 0
        n = len(data)
        limit = MAX_FRAME + 8
        while start < n:
            end = data.find(b"\x00", start)
            if end < 0:
                self._keep(data[start:])
                break
            if self.buf or self.overflow:
                self._keep(data[start:end])
                raw = bytes(self.buf)
                bad = self.overflow
                self.buf = bytearray()
                self.overflow = False
            else:
                raw = data[start:end]
                bad = end - start > limit
            start = end + 1
            if bad:
                self.bad += 1
            elif raw:
                got = self._check(raw)
                if got is None:
                    self.bad += 1
                else:
                    out.append(got)
        return out

    def _keep(self, part):
        # the start of a frame whose end has not come yet; a run longer than any frame is
        # noise, counted bad when its end comes
        if self.overflow:
            return
        if len(self.buf) + len(part) > MAX_FRAME + 8:
            self.overflow = True
        else:
            self.buf += part

    @micropython.native
    def _check(self, raw):
        data = cobs_decode(raw)
        if data is None or len(data) < 4:
            return None
        payload = data[:-2]
        if crc16(payload) != (data[-2] << 8) | data[-1]:
            return None
        return payload[0], payload[1], payload[2:]


class Sender:
    """Reliable frames of one side: sequence numbers, in-order delivery, resend until acked.

    Frames are kept in order; only the oldest is in flight, so the other side sees them in
    the order they were made (a press is never overtaken by its release).
    """

    def __init__(self, limit=64):
        self.seq = 0
        self.queue = []       # [seq, frame bytes, last sent ms or None, tag]
        self.limit = limit
        self.dropped = 0
        self.resends = 0

    def add(self, kind, body, tag=None):
        """Queue a reliable frame. A `tag` (say, a seat's ring) replaces an older frame with
        the same tag that is not on the wire yet: only the latest picture matters."""
        if tag is not None:
            self.queue = [e for i, e in enumerate(self.queue) if i == 0 or e[3] != tag]
        self.seq = self.seq % 255 + 1          # 1..255; 0 means 'not reliable'
        if len(self.queue) >= self.limit:
            self.queue.pop(0)
            self.dropped += 1
        self.queue.append([self.seq, frame(kind, self.seq, body), None, tag])
        return self.seq

    def ack(self, seq):
        if self.queue and self.queue[0][0] == seq:
            self.queue.pop(0)
            return True
        return False

    def due(self, now_ms):
        """The frame to send now, if any (the head, first time or after RESEND_MS)."""
        if not self.queue:
            return None
        head = self.queue[0]
        if head[2] is None or _diff(now_ms, head[2]) >= RESEND_MS:
            if head[2] is not None:
                self.resends += 1
            head[2] = now_ms
            return head[1]
        return None

    def restart(self):
        """The link came back: send the head again at once."""
        if self.queue:
            self.queue[0][2] = None

    def clear(self):
        self.queue = []


class Receiver:
    """Which reliable frames were already taken: a resend whose ack was lost is not new, and
    neither is an old frame played again. Frames come in order, one in flight, so a new one
    is a little ahead of the last (a few may have been dropped by a full queue)."""

    def __init__(self):
        self.last = 0

    def fresh(self, seq):
        if not 1 <= seq <= 255:
            return False
        if self.last:
            ahead = (seq - self.last) % 255      # seqs run 1..255, then 1 again
            if ahead == 0 or ahead > WINDOW:
                return False
        self.last = seq
        return True

    def reset(self, last=0):
        self.last = last


def proof(secret, challenge):
    """HMAC-SHA256 of the Pi's challenge under the pairing secret, cut to 8 bytes: the pad
    controller shows it holds the secret written at install, without sending it."""
    import hashlib
    key = bytes(secret)
    if len(key) > 64:
        key = hashlib.sha256(key).digest()
    key = key + bytes(64 - len(key))
    inner = hashlib.sha256(bytes(k ^ 0x36 for k in key) + bytes(challenge)).digest()
    return hashlib.sha256(bytes(k ^ 0x5C for k in key) + inner).digest()[:8]


def _diff(a, b):
    # ms clocks wrap on the Pico (ticks_ms); both sides only ever compare small spans
    d = (a - b) & 0x3FFFFFFF
    return d if d < 0x20000000 else d - 0x40000000


def u16(b, i):
    return (b[i] << 8) | b[i + 1]


def u32(b, i):
    return (b[i] << 24) | (b[i + 1] << 16) | (b[i + 2] << 8) | b[i + 3]


def p16(v):
    return bytes([(v >> 8) & 0xFF, v & 0xFF])


def p32(v):
    return bytes([(v >> 24) & 0xFF, (v >> 16) & 0xFF, (v >> 8) & 0xFF, v & 0xFF])
