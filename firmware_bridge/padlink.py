# The wire protocol between the Pi and the pad controller (see PROTOCOL.md).
# Runs unchanged under CPython and MicroPython: no typing, no dataclasses, only bytes.

# The hot functions are compiled to machine code on the Pico: @micropython.native for the
# Python-level ones, @micropython.viper for the byte loops (raw pointers into the buffers,
# machine integers: a CRC or COBS pass costs a few instructions a byte instead of a few calls).
# CPython runs the same functions as plain Python, with ptr8/ptr16 as the buffers themselves.
from array import array

try:
    import micropython
except ImportError:      # CPython (the Pi's side): the decorators change nothing
    class micropython:   # noqa: N801
        @staticmethod
        def native(f):
            return f

        viper = native

    def ptr8(buf):
        return buf

    ptr16 = ptr8
    ptr32 = ptr8

    def uint(x):             # viper's machine word, 32 bits on the Pico
        return x & 0xFFFFFFFF

try:
    import sys as _sys
    if _sys.platform == "rp2":
        # the hash in the Cortex-M0+'s own instructions, a tenth of viper's cycles
        from fastmac import hsip_words as _hsip_words
    else:
        _hsip_words = None
except ImportError:          # an older install without it: viper's `_hsip` does the same
    _hsip_words = None


PROTOCOL = 4      # 3: every frame after the hello carries a MAC (a truncated HalfSipHash);
                  # 4: the hello's reply carries the controller's fresh nonce, its proof
                  # covers the whole reply, and UPDATE is signed

HELLO = 1        # Pi -> pad   reliable   [protocol, challenge (8)]
HELLO_REPLY = 2  # pad -> Pi              [protocol, seats, ring size, boot id (4),
                 #                         nonce (8), proof (8), firmware version...]
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

# Each body's fields, in order, by name: (name, size in bytes, "u" a big-endian unsigned
# number, "b" bytes, "s" text). A text field takes the rest of the body; fields missing
# at the end (an older firmware's shorter STATS) are absent from what `unpack` gives.
# Both sides pack and unpack through these (the controller builds an EDGE in place, on its
# hot path, in this same layout: a test holds the two to each other).
LAYOUTS = {
    HELLO: (("protocol", 1, "u"), ("challenge", 8, "b")),
    HELLO_REPLY: (("protocol", 1, "u"), ("seats", 1, "u"), ("ring", 1, "u"), ("boot", 4, "b"),
                  ("nonce", 8, "b"), ("proof", 8, "b"), ("version", 0, "s")),
    ACK: (("seq", 1, "u"),),
    BEAT: (("t_ms", 4, "u"),),
    EDGE: (("seat", 1, "u"), ("pressed", 1, "u"), ("t_ms", 4, "u")),
    SHOW: (("seat", 1, "u"), ("picture", 0, "b")),
    BRIGHT: (("cap", 1, "u"), ("budget_ma", 2, "u")),
    STATS: (("bad", 2, "u"), ("resends", 2, "u"), ("dropped", 2, "u"), ("work_us", 4, "u"),
            ("io_us", 4, "u")),
    UPDATE: (("word", 0, "b"),),
    ROTATE: (("turns", 0, "b"),),
    ORDER: (("rings", 0, "b"),),
}


def pack(kind, **fields):
    """A body of `kind` from its fields (each one named in LAYOUTS; trailing ones may be
    left out)."""
    out = bytearray()
    for name, size, how in LAYOUTS[kind]:
        if name not in fields:
            break
        v = fields[name]
        if how == "u":
            out += bytes([(v >> (8 * (size - 1 - k))) & 0xFF for k in range(size)])
        elif how == "s":
            out += v.encode()
        elif size and len(v) != size:
            raise ValueError(f"{name} takes {size} bytes")
        else:
            out += v
    return bytes(out)


def unpack(kind, body):
    """The fields of a body of `kind`, by name; those the body is too short for are absent.
    A text that is not UTF-8 is read with U+FFFD in place of what is not."""
    got = {}
    i = 0
    for name, size, how in LAYOUTS[kind]:
        if how == "s":
            got[name] = bytes(body[i:]).decode("utf-8", "replace")
            break
        if not size:
            got[name] = bytes(body[i:])
            break
        if len(body) < i + size:
            break
        if how == "u":
            v = 0
            for k in range(size):
                v = (v << 8) | body[i + k]
            got[name] = v
        else:
            got[name] = bytes(body[i:i + size])
        i += size
    return got


UPDATE_BODY = b"update"   # a frame of kind 9 with any other body is ignored
SAFE_MODE_FLAG = "safemode"   # on the controller's flash: the next boot stays at the REPL
ERROR_FILE = "error.txt"       # what made the controller fail last (its traceback)
FAULTS_FILE = "faults.txt"     # faults in play in a row (main.py): safe mode at FAULTS_MAX
SAFE_REASON_FILE = "safe-reason.txt"   # why the board is in safe mode, in words
FAULTS_MAX = 3                 # faults in play in a row that end in safe mode
HEALTHY_MS = 60000             # a controller up this long has left its faults behind

MAX_FRAME = 64   # bytes of payload; a longer run is noise
WINDOW = 128     # a reliable frame is new only if its seq is at most this far ahead
RESEND_MS = 30   # an unacknowledged reliable frame is sent again after this


def _crc_table():
    table = array("H", bytes(512))
    for i in range(256):
        crc = i << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table[i] = crc & 0xFFFF
    return table


_CRC = _crc_table()     # one lookup a byte instead of eight shifts (the Pico's hot path)


@micropython.viper
def _crc(buf, start: int, end: int, crc: int) -> int:
    p = ptr8(buf)
    t = ptr16(_CRC)
    i = start
    while i < end:
        crc = ((crc << 8) & 0xFF00) ^ t[((crc >> 8) ^ p[i]) & 0xFF]
        i += 1
    return crc


def crc16(data, crc=0xFFFF):
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF)."""
    return _crc(data, 0, len(data), crc)


@micropython.viper
def _encode(kind: int, seq: int, body, out, framed: int) -> int:
    # COBS into out from 0, in one pass: each block's length byte is filled in when the
    # block ends (at a zero, after 254 bytes, or at the end). framed: the bytes encoded are
    # kind, seq, body and their CRC, and the frame's 0x00 closes it (one function for the
    # whole frame: the controller's edges are made here); else body alone. out must hold
    # len(body) + 6 + (len(body) + 4) // 254 bytes. Returns the length written.
    s = ptr8(body)
    o = ptr8(out)
    n = int(len(body))
    pre = 0
    crc = 0
    if framed:
        pre = 2
        t = ptr16(_CRC)
        crc = 0xFF00 ^ t[(0xFF ^ kind) & 0xFF]     # from 0xFFFF, kind taken
        crc = ((crc << 8) & 0xFF00) ^ t[((crc >> 8) ^ seq) & 0xFF]
        i = 0
        while i < n:
            crc = ((crc << 8) & 0xFF00) ^ t[((crc >> 8) ^ s[i]) & 0xFF]
            i += 1
    last = n + pre + pre             # the CRC's two bytes only in a frame, as kind and seq
    at = 0                           # where the open block's length byte goes
    w = 1
    code = 1
    i = 0
    while i < last:
        if i >= pre and i < n + pre:
            b = s[i - pre]
        elif i == 0:
            b = kind
        elif i == 1:
            b = seq
        elif i == n + 2:
            b = (crc >> 8) & 0xFF
        else:
            b = crc & 0xFF
        i += 1
        if b == 0:
            o[at] = code
            at = w
            w += 1
            code = 1
        else:
            o[w] = b
            w += 1
            code += 1
            if code == 255:
                o[at] = code
                at = w
                w += 1
                code = 1
    o[at] = code
    if framed:
        o[w] = 0
        w += 1
    return w


@micropython.viper
def _uncobs(src, start: int, end: int, out) -> int:
    # src[start:end] decoded into out (at least end - start long: a block of n bytes gives
    # at most n); the decoded length, or -1 if the bytes are not valid COBS
    s = ptr8(src)
    o = ptr8(out)
    i = start
    w = 0
    while i < end:
        code = s[i]
        block = i + code
        if code == 0 or block > end:
            return -1
        i += 1
        while i < block:
            o[w] = s[i]
            w += 1
            i += 1
        if code != 255 and i < end:
            o[w] = 0
            w += 1
    return w


@micropython.viper
def _unframe(src, start: int, end: int, out) -> int:
    # the frame src[start:end] (no 0x00) decoded into out, then its CRC checked there:
    # the payload's length (kind, seq, body) if it is valid COBS, at least 4 bytes long and
    # its CRC holds; else -1
    n = int(_uncobs(src, start, end, out))
    if n < 4:
        return -1
    o = ptr8(out)
    if int(_crc(out, 0, n - 2, 0xFFFF)) != (o[n - 2] << 8) | o[n - 1]:
        return -1
    return n - 2


@micropython.viper
def put(buf, at: int, size: int, v: int):
    """`v` into buf[at:at + size], big-endian, as LAYOUTS's "u" fields are (in place: the
    controller's heartbeat and stats, made every 400 ms, allocate nothing)."""
    p = ptr8(buf)
    i = at + size - 1
    while i >= at:
        p[i] = v & 0xFF
        v = v >> 8
        i -= 1


def encode_frame(kind, seq, body, out):
    """The frame of kind, seq and body encoded into `out` (as long as `frame` makes it, or
    longer); its length there."""
    return _encode(kind, seq, body, out, 1)


# -- the session's MAC ------------------------------------------------------------------
# After the hello every frame but HELLO and HELLO_REPLY carries 4 more bytes at the end of
# its body: HalfSipHash-2-4 (32-bit) of kind, seq and body under the session's key, which
# both sides make from the pairing secret, the Pi's challenge and the controller's boot id.
# A frame whose MAC is wrong is dropped and counted bad: a CRC alone let any device on the
# link forge a press of any seat.
MAC_LEN = 4
# The hello is sent before there is a key, and changes nothing by itself: the controller
# answers it with a fresh nonce of its own and the reply's proof (HMAC under the pairing
# secret of the Pi's challenge and the whole reply), and keeps its old session until a frame
# signed with the new key comes (only a Pi holding the secret, that saw this reply, makes
# one). The Pi takes a reply only while its own hello waits, and only with a good proof.
# Everything else, the update request included, is signed.
UNSIGNED = (HELLO, HELLO_REPLY)
PROOF_AT = 15            # where the reply's proof lies in its body (see LAYOUTS)


def session_key(secret, challenge, boot, nonce=b""):
    """The session's 8-byte MAC key (both sides, once a hello): of the pairing secret, the
    Pi's challenge, the controller's boot id and its nonce for this hello."""
    import hashlib
    return hashlib.sha256(b"table-app session " + bytes(secret) + bytes(challenge)
                          + bytes(boot) + bytes(nonce)).digest()[:8]


def reply_proof(secret, challenge, body):
    """The proof a hello's reply carries: HMAC-SHA256 under the pairing secret of the Pi's
    challenge and the reply itself (its proof's 8 bytes taken as zeros), cut to 8 bytes. A
    reply with another nonce, boot id or anything else changed is not proven."""
    whole = bytearray(body)
    whole[PROOF_AT:PROOF_AT + 8] = bytes(8)
    return proof(secret, bytes(challenge) + bytes(whole))


def hello_reply(secret, challenge, protocol, seats, ring, boot, nonce, version):
    """A hello's reply's body, its proof made (the controller's side; tests play it)."""
    body = bytearray(pack(HELLO_REPLY, protocol=protocol, seats=seats, ring=ring, boot=boot,
                          nonce=nonce, proof=bytes(8), version=version))
    body[PROOF_AT:PROOF_AT + 8] = reply_proof(secret, challenge, body)
    return bytes(body)


@micropython.viper
def _hsip(key, data, start: int, end: int) -> uint:
    # HalfSipHash-2-4 (32-bit) of data[start:end] under the 8-byte key (a test holds it to
    # the reference's vectors on both sides), in machine
    # words (plain Python on the Pi: uint masks to 32 bits there); each step is masked
    # to 32 bits, as a uint is 64 on a 64-bit port
    k = ptr8(key)
    d = ptr8(data)
    w = (uint(0xFFFF) << 16) | uint(0xFFFF)
    k0 = uint(k[0]) | (uint(k[1]) << 8) | (uint(k[2]) << 16) | (uint(k[3]) << 24)
    k1 = uint(k[4]) | (uint(k[5]) << 8) | (uint(k[6]) << 16) | (uint(k[7]) << 24)
    v0 = k0
    v1 = k1
    v2 = ((uint(0x6C79) << 16) | uint(0x6765)) ^ k0
    v3 = ((uint(0x7465) << 16) | uint(0x6462)) ^ k1
    n = end - start
    i = start
    stop = start + (n & ~3)
    m = uint(0)
    last = 0                 # 0: the message's words, 1: its last (with the length), 2: done
    while True:
        if i < stop:
            m = uint(d[i]) | (uint(d[i + 1]) << 8) | (uint(d[i + 2]) << 16) | (
                uint(d[i + 3]) << 24)
            i += 4
            c = 2
        elif last == 0:
            m = (uint(n) << 24) & w
            left = end - i
            if left >= 3:
                m |= uint(d[i + 2]) << 16
            if left >= 2:
                m |= uint(d[i + 1]) << 8
            if left >= 1:
                m |= uint(d[i])
            last = 1
            c = 2
        else:
            v2 ^= uint(0xFF)
            c = 4
            last = 2
        if last < 2:
            v3 ^= m
        r = 0
        while r < c:
            v0 = (v0 + v1) & w
            v1 = ((v1 << 5) & w) | (v1 >> 27)
            v1 ^= v0
            v0 = ((v0 << 16) & w) | (v0 >> 16)
            v2 = (v2 + v3) & w
            v3 = ((v3 << 8) & w) | (v3 >> 24)
            v3 ^= v2
            v0 = (v0 + v3) & w
            v3 = ((v3 << 7) & w) | (v3 >> 25)
            v3 ^= v0
            v2 = (v2 + v1) & w
            v1 = ((v1 << 13) & w) | (v1 >> 19)
            v1 ^= v2
            v2 = ((v2 << 16) & w) | (v2 >> 16)
            r += 1
        if last == 2:
            break
        v0 ^= m
    return v1 ^ v3


CTX_WORDS = 8 + 72          # fastmac's context: a message of up to 285 bytes
_CTX = [None, None]         # the session key, and its fastmac context


@micropython.viper
def _pack(ctx, kind: int, seq: int, body, n: int):
    # kind, seq and body as HalfSipHash's message words into ctx[8...] (see fastmac.py):
    # straight from the frame's parts, no message buffer made
    c = ptr32(ctx)
    b = ptr8(body)
    w = 8
    acc = uint(kind) | (uint(seq) << 8)
    sh = 16
    i = 0
    while i < n:
        acc |= uint(b[i]) << sh
        sh += 8
        i += 1
        if sh == 32:
            c[w] = acc
            w += 1
            acc = uint(0)
            sh = 0
    c[w] = acc | ((uint(n + 2) << 24) & (uint(0xFF) << 24))
    c[4] = w - 7


def _fast_ctx(key):
    if _CTX[0] != key:
        k = bytes(key)
        k0 = k[0] | k[1] << 8 | k[2] << 16 | k[3] << 24
        k1 = k[4] | k[5] << 8 | k[6] << 16 | k[7] << 24
        ctx = array("I", bytes(4 * CTX_WORDS))
        ctx[0], ctx[1] = k0, k1
        ctx[2], ctx[3] = 0x6C796765 ^ k0, 0x74656462 ^ k1
        _CTX[0], _CTX[1] = key, ctx
    return _CTX[1]


@micropython.viper
def _mac_to(ctx, out, at: int):
    # fastmac's result (ctx[7], little-endian in memory) into out[at:at + 4], big-endian: a
    # 32-bit number in Python would be a long integer on the Pico, each shift an allocation
    c = ptr8(ctx)
    o = ptr8(out)
    o[at] = c[31]
    o[at + 1] = c[30]
    o[at + 2] = c[29]
    o[at + 3] = c[28]


@micropython.viper
def _mac_is(ctx, body, at: int) -> int:
    # 1 if body[at:at + 4] is fastmac's result, 0 if not (every byte compared: no early out)
    c = ptr8(ctx)
    b = ptr8(body)
    d = (b[at] ^ c[31]) | (b[at + 1] ^ c[30]) | (b[at + 2] ^ c[29]) | (b[at + 3] ^ c[28])
    return 1 if d == 0 else 0


FAST_MAX = 4 * (CTX_WORDS - 8) - 2     # the longest body fastmac's context takes


def _mac(key, kind, seq, body):
    msg = bytearray(2 + len(body))
    msg[0] = kind
    msg[1] = seq
    msg[2:] = body
    m = _hsip(key, msg, 0, len(msg))
    return bytes(((m >> 24) & 0xFF, (m >> 16) & 0xFF, (m >> 8) & 0xFF, m & 0xFF))


def signed(key, kind, seq, body):
    """The body as it goes on the wire: itself and its MAC (as it is, with no key or for a
    kind sent before there is one)."""
    if key is None or kind in UNSIGNED:
        return body
    n = len(body)
    if _hsip_words is None or n >= FAST_MAX:
        return bytes(body) + _mac(key, kind, seq, body)
    # on the Pico: fastmac, written out here (each call costs the core as much as the hash)
    ctx = _CTX[1] if _CTX[0] == key else _fast_ctx(key)
    _pack(ctx, kind, seq, body, n)
    _hsip_words(ctx)
    out = bytearray(n + MAC_LEN)
    out[:n] = body
    _mac_to(ctx, out, n)
    return out


def opened(key, kind, seq, body):
    """The body of a frame received, its MAC checked and taken off; None when the MAC is
    wrong or missing (as it is for a kind sent before there is a key)."""
    if kind in UNSIGNED:
        return body
    n = len(body) - MAC_LEN
    if key is None or n < 0:
        return None
    if _hsip_words is not None and n < FAST_MAX:
        ctx = _CTX[1] if _CTX[0] == key else _fast_ctx(key)
        _pack(ctx, kind, seq, body, n)
        _hsip_words(ctx)
        return body[:n] if _mac_is(ctx, body, n) else None
    got = body[n:]
    want = _mac(key, kind, seq, body[:n])
    same = 0
    for i in range(MAC_LEN):
        same |= got[i] ^ want[i]
    return body[:n] if same == 0 else None


def cobs_encode(data):
    """COBS: the frame with no zero byte in it, so 0x00 can end every frame."""
    n = len(data)
    out = bytearray(n + n // 254 + 6)
    return bytes(out[:_encode(0, 0, data, out, 0)])


def cobs_decode(data):
    """The inverse of cobs_encode; None if the bytes are not valid COBS."""
    out = bytearray(len(data))
    n = _uncobs(data, 0, len(data), out)
    return None if n < 0 else bytes(out[:n])


_ACKS = {}
_ACKS_KEY = [None]


def ack_frame(seq, key=None):
    """The ACK of `seq`, built once a session (an ACK goes out for every reliable frame)."""
    if _ACKS_KEY[0] != key:
        _ACKS.clear()
        _ACKS_KEY[0] = key
    f = _ACKS.get(seq)
    if f is None:
        f = _ACKS[seq] = bytes(frame(ACK, 0, bytes([seq]), key))
    return f


@micropython.native
def frame(kind, seq, body=b"", key=None):
    """One frame on the wire: COBS(kind, seq, body, its MAC under `key`, crc) and a 0x00 (a
    bytearray, made in one buffer)."""
    if key is not None:
        body = signed(key, kind, seq, body)
    n = len(body) + 4
    out = bytearray(2 + n // 254 + n)
    w = _encode(kind, seq, body, out, 1)
    if w < len(out):
        out[w:] = b""           # a long body's zeros saved a code byte (never in a frame)
    return out


class Decoder:
    """Bytes in (any split, any noise), whole checked frames out; errors are counted."""

    def __init__(self):
        self.buf = bytearray()
        self.bad = 0          # frames dropped: bad COBS, bad CRC, too short, too long
        self.overflow = False
        self.out = bytearray(MAX_FRAME + 8)    # a frame decoded (each decoder its own)

    @micropython.native
    def feed(self, data, take=None, start=0):
        """Take bytes (from `start` on); return a list of (kind, seq, body). With `take`,
        call take(kind, seq, body) for each frame instead (body a bytearray of its own) and
        return how many."""
        # each frame's end found in C (bytes.find), and a frame that arrived whole is
        # decoded straight from the input, never copied first
        out = None if take else []
        got = 0
        n = len(data)
        limit = MAX_FRAME + 8
        dec = self.out
        while start < n:
            end = data.find(b"\x00", start)
            if end < 0:
                self._keep(data[start:])
                break
            if self.buf or self.overflow:
                self._keep(data[start:end])
                raw = self.buf
                bad = self.overflow
                self.buf = bytearray()
                self.overflow = False
                first, last = 0, len(raw)
            else:
                raw = data
                bad = end - start > limit
                first, last = start, end
            start = end + 1
            if bad:
                self.bad += 1
            elif last > first:
                size = _unframe(raw, first, last, dec)
                if size < 0:
                    self.bad += 1
                elif take:
                    take(dec[0], dec[1], dec[2:size])
                    got += 1
                else:
                    out.append((dec[0], dec[1], bytes(dec[2:size])))
        return got if take else out

    def _keep(self, part):
        # the start of a frame whose end has not come yet; a run longer than any frame is
        # noise, counted bad when its end comes
        if self.overflow:
            return
        if len(self.buf) + len(part) > MAX_FRAME + 8:
            self.overflow = True
        else:
            self.buf += part

class Sender:
    """Reliable frames of one side: sequence numbers, in-order delivery, resend until acked.

    Frames are kept in order; only the oldest is in flight, so the other side sees them in
    the order they were made (a press is never overtaken by its release).
    """

    def __init__(self, limit=64):
        self.seq = 0
        self.queue = []       # [seq, frame bytes, last sent ms or None, tag, kind, body]
        self.limit = limit
        self.dropped = 0
        self.resends = 0
        self.key = None       # the session's MAC key (see rekey)

    def rekey(self, key):
        """A new session: the frames waiting are signed with its key from now on."""
        self.key = key
        for e in self.queue:
            e[1] = frame(e[4], e[0], e[5], key)

    @micropython.native
    def add(self, kind, body, tag=None):
        """Queue a reliable frame. A `tag` (say, a seat's ring) replaces an older frame with
        the same tag that is not on the wire yet: only the latest picture matters."""
        if tag is not None:
            kept = [e for i, e in enumerate(self.queue) if i == 0 or e[3] != tag]
            if len(kept) < len(self.queue):
                # Only the head is on the wire: the frames behind it are numbered again, one
                # after another. A seq taken by a replaced picture would otherwise be a gap,
                # and after a burst of pictures (a cable cut while the table goes on) the next
                # frame would be more than WINDOW ahead: taken by the other side for an old
                # one, acknowledged and never shown.
                seq = kept[0][0]
                for e in kept[1:]:
                    seq = seq % 255 + 1
                    if e[0] != seq:
                        e[0] = seq
                        e[1] = frame(e[4], seq, e[5], self.key)
                self.seq = seq
            self.queue = kept
        seq = self.seq = self.seq % 255 + 1          # 1..255; 0 means 'not reliable'
        if len(self.queue) >= self.limit:
            self.queue.pop(0)
            self.dropped += 1
        # (the body kept is a copy: a frame numbered or signed again is made from it)
        entry = [seq, frame(kind, seq, body, self.key), None, tag, kind, bytes(body)]
        self.queue.append(entry)
        return seq

    @micropython.native
    def ack(self, seq):
        if self.queue and self.queue[0][0] == seq:
            self.queue.pop(0)
            return True
        return False

    @micropython.native
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
