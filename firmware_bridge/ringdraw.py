# Ring pictures, drawn. Runs unchanged under CPython (the Pi's simulator and tests) and
# MicroPython (the pad controller), so every backend shows exactly the same pixels.
#
# A picture is a few bytes (the same bytes the wire protocol carries):
#   0                      dark
#   1 mhi mlo cur cho      pick: eligible seats as a 16-bit mask, cursor, chosen (0 = none)
#   2 mhi mlo cur cho      vote: candidates, cursor, ballot cast
#   3 cur cho              yes/no: seat 1 = yes, seat 2 = no
#   4 target result        an answer: result 0 red, 1 black, 2 detective, 3 no
#   5 lhi llo thi tlo      countdown: left and total, in tenths of a second
#   6 side pattern         role card: side 0 city, 1 mafia, 2 yakuza, 3 maniac, 4 killer
#
# Secrecy: every private picture lights the same number of pixels whatever it says. An answer
# (a check, a search) is one pixel at the target seat, only its colour telling the result; a
# chosen yes or no is one pixel too; a role card is always two pixels (the side's colour at
# the top, a white marker at the role's place), so a glance at a neighbour's ring says nothing.
#   7                      fault
#   8 n m3 m2 m1 m0 cur cho    pick at a table of n seats (a 32-bit mask: up to 30 seats)
#   9 n m3 m2 m1 m0 cur cho    vote at a table of n seats
#   8 or 9 ... cur cho 1       a part of a big choice, offered whole: its seats blink
#   4 target result n      an answer at a table of n seats
#
# A table bigger than the ring: seat k is drawn at pixel (k - 1) * size // n, so two or three
# neighbouring seats share a light (`place`). The seat the cursor, the choice or the answer
# is on then flashes its place in that light, counted clockwise (once for the first, twice
# for the second, three times for the third: `cue`), and a light of one seat stays steady.
# So every seat's cursor looks different from every other's, at every table size.
# `t` is the seconds since the picture was shown: a countdown counts down by itself and
# blinks its last 10 s, so the Pi sends it once.

# draw() and its byte loops are compiled to machine code on the Pico (@micropython.native and
# @micropython.viper); CPython runs them as they are, ptr8 being the buffer itself.
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


DARK = 0
PICK = 1
VOTE = 2
YESNO = 3
CHECK = 4
COUNTDOWN = 5
ROLE = 6
FAULT = 7
PICK_WIDE = 8
VOTE_WIDE = 9
PART = 1               # the flag byte after a wide pick's or vote's: the seats blink
PART_BLINK = 0.8       # the blink's period, seconds: slower than a cue's flashes

OFF = (0, 0, 0)
DIM = (64, 64, 64)
CURSOR = (255, 255, 255)
CHOSEN = (0, 200, 60)
CANDIDATE = (90, 60, 0)
RED = (220, 0, 0)
BLACK_AS = (40, 60, 255)     # black cannot be lit: blue, dashed
COUNT = (0, 120, 200)
FAULT_C = (255, 90, 0)
YES = (0, 200, 60)
NO = (200, 0, 0)
SIDES = ((200, 180, 120), (40, 60, 255), (200, 0, 160), (255, 120, 0), (255, 120, 0))
RESULTS = ("red", "black", "detective", "no")
# what the current budget counts a ring for (`allowance`)
_DIM_SUM = sum(DIM)
_CURSOR_SUM = sum(CURSOR)
_CHOSEN_SUM = sum(CHOSEN)
_COUNT_SUM = sum(COUNT)
_FAULT_SUM = sum(FAULT_C)
# an answer's colour by result: each as bright as the others (its strongest channel 200)
ANSWER = ((200, 0, 0), (40, 60, 200), (0, 200, 60), (200, 120, 0))
MARK = (200, 200, 200)


def blink(t, period=0.5):
    return (t % period) < period / 2


def countdown_left(pic, t):
    """Seconds left on a countdown picture, `t` seconds after it was shown."""
    left = ((pic[1] << 8) | pic[2]) / 10 - t
    return left if left > 0 else 0.0


# how many bytes each kind of picture needs: a shorter one is drawn dark, never a crash
NEED = {PICK: 5, VOTE: 5, YESNO: 3, CHECK: 3, COUNTDOWN: 5, ROLE: 3, PICK_WIDE: 8,
        VOTE_WIDE: 8}
#: the largest table a picture can show (the wide mask's bits)
MAX_SEATS = 30
# the flashes that tell seats sharing a light apart: each flash on CUE_ON s, off CUE_GAP s,
# the count repeated every CUE_CYCLE s
CUE_ON = 0.2
CUE_GAP = 0.2
CUE_CYCLE = 1.6
NO_FLASH = 99


_CHOICE_LEN = NEED[PICK]      # == NEED[VOTE]


def valid(pic):
    """Is this a picture the drawing knows, with all its bytes?"""
    return len(pic) > 0 and pic[0] <= VOTE_WIDE and len(pic) >= NEED.get(pic[0], 1)


def place(seat, seats, size):
    """Where seat 1..seats shows on a ring of `size` pixels, before the ring's turn: (its
    pixel 0..size-1, its place among the seats sharing that pixel from 0, how many share it).
    A table no bigger than the ring gives each seat its own pixel, seat k at pixel k - 1."""
    if seats <= size:
        return seat - 1, 0, 1
    p = (seat - 1) * size // seats
    first = (p * seats + size - 1) // size
    after = ((p + 1) * seats + size - 1) // size
    return p, seat - 1 - first, after - first


def flash(t):
    """Which flash of the cue is lit `t` seconds after the picture was shown (0 the first),
    or NO_FLASH between flashes and in the pause."""
    x = t % CUE_CYCLE
    k = int(x / (CUE_ON + CUE_GAP))
    if k < 3 and x - k * (CUE_ON + CUE_GAP) < CUE_ON:
        return k
    return NO_FLASH


def cue(slot, sharing, t):
    """Is a mark at `slot` of a light `sharing` seats share lit at `t`? (Always, alone.)"""
    return sharing <= 1 or flash(t) <= slot


def _grb(c):
    # a colour as the WS2812 takes it: green, red, blue
    return bytes((c[1], c[0], c[2]))


_OFF, _DIM, _CURSOR, _CHOSEN, _CANDIDATE = (_grb(c) for c in (OFF, DIM, CURSOR, CHOSEN,
                                                               CANDIDATE))
_COUNT, _FAULT, _YES, _NO, _MARK = (_grb(c) for c in (COUNT, FAULT_C, YES, NO, MARK))
_SIDES = tuple(_grb(c) for c in SIDES)
_ANSWER = tuple(_grb(c) for c in ANSWER)
_PICKING = _CHOSEN + _CURSOR + _DIM        # _choice's palette for a pick, and for a vote
_VOTING = _CHOSEN + _CURSOR + _CANDIDATE
_BLINKED = _CHOSEN + _CURSOR + _OFF        # a part's seats between blinks
_EVEN, _ODD = 0x15555555, 0x2AAAAAAA       # every other pixel, from the first or the second


@micropython.viper
def _paint(out, size: int, rot: int, mask: int, colour):
    # pixel p takes `colour` if bit p of `mask` is set, else goes dark; it shows at
    # (p + rot) % size, rot being less than size
    o = ptr8(out)
    c = ptr8(colour)
    g = c[0]
    r = c[1]
    b = c[2]
    n = size * 3
    j = rot * 3
    p = 0
    while p < size:
        if mask & 1:
            o[j] = g
            o[j + 1] = r
            o[j + 2] = b
        else:
            o[j] = 0
            o[j + 1] = 0
            o[j + 2] = 0
        mask >>= 1
        p += 1
        j += 3
        if j >= n:
            j = 0


@micropython.viper
def _set(out, size: int, rot: int, p: int, colour):
    # pixel p (0-based, before the turn) takes `colour`
    o = ptr8(out)
    c = ptr8(colour)
    j = p + rot
    if j >= size:
        j -= size
    j *= 3
    o[j] = c[0]
    o[j + 1] = c[1]
    o[j + 2] = c[2]


@micropython.viper
def _choice(out, size: int, rot: int, pic, palette) -> int:
    # a pick or vote: the chosen seat, the cursor (on the chosen seat the green shows: it is
    # taken) and the seats of the mask in the palette's colours; returns the channel sum
    q = ptr8(pic)
    o = ptr8(out)
    c = ptr8(palette)
    mask = (q[1] << 8) | q[2]
    cursor = q[3]
    chosen = q[4]
    n = size * 3
    j = rot * 3
    total = 0
    p = 1
    while p <= size:
        if p == chosen:
            g = c[0]
            r = c[1]
            b = c[2]
        elif p == cursor:
            g = c[3]
            r = c[4]
            b = c[5]
        elif mask & 1:
            g = c[6]
            r = c[7]
            b = c[8]
        else:
            g = 0
            r = 0
            b = 0
        o[j] = g
        o[j + 1] = r
        o[j + 2] = b
        total += g + r + b
        mask >>= 1
        p += 1
        j += 3
        if j >= n:
            j = 0
    return total


@micropython.viper
def _wide(out, size: int, rot: int, pic, palette, lit: int) -> int:
    # a pick or vote at a table of pic[1] seats: each pixel shows the seats `place` puts
    # there. Eligible: the palette's third colour; the choice: its first; the cursor (not on
    # the choice): its second, with the choice under it. On a pixel shared by several seats
    # the mark shows only while flash `lit` is within its place (`cue`), the colour under it
    # between; returns the channel sum
    q = ptr8(pic)
    o = ptr8(out)
    c = ptr8(palette)
    seats = q[1]
    if seats > 30:
        seats = 30
    mask = (q[2] << 24) | (q[3] << 16) | (q[4] << 8) | q[5]
    cursor = q[6]
    chosen = q[7]
    den = size
    if seats > size:
        den = seats
    n = size * 3
    j = rot * 3
    total = 0
    seat = 1
    p = 0
    while p < size:
        elig = 0
        cur = -1
        cho = -1
        count = 0
        # the seats of pixel p: (seat - 1) * size // den == p
        while seat <= seats and (seat - 1) * size < (p + 1) * den:
            if (mask >> (seat - 1)) & 1:
                elig = 1
            if seat == cursor:
                cur = count
            if seat == chosen:
                cho = count
            count += 1
            seat += 1
        g = 0
        r = 0
        b = 0
        if elig:
            g = c[6]
            r = c[7]
            b = c[8]
        mark = -1
        slot = 0
        if cur >= 0 and cur != cho:
            mark = 3
            slot = cur
            if cho >= 0:
                g = c[0]
                r = c[1]
                b = c[2]
        elif cho >= 0:
            mark = 0
            slot = cho
        if mark >= 0 and (count <= 1 or lit <= slot):
            g = c[mark]
            r = c[mark + 1]
            b = c[mark + 2]
        o[j] = g
        o[j + 1] = r
        o[j + 2] = b
        total += g + r + b
        p += 1
        j += 3
        if j >= n:
            j = 0
    return total


@micropython.viper
def channel_sum(buf, n: int) -> int:
    """The sum of the first n bytes: a ring's channel values, for the current budget."""
    p = ptr8(buf)
    total = 0
    i = 0
    while i < n:
        total += p[i]
        i += 1
    return total


@micropython.native
def draw(pic, t, size, rotation, out):
    """Draw picture bytes `pic` at time `t` into `out`: 3 * size bytes in the WS2812's order
    (green, red, blue), turned by `rotation`. Returns the sum of the channel values."""
    kind = pic[0] if len(pic) else DARK
    rot = rotation % size if rotation else 0
    # (== twice, not `in` a tuple: on the Pico that tuple would be made at every call)
    if (kind == PICK or kind == VOTE) and len(pic) >= _CHOICE_LEN:  # noqa: SIM109
        # the commonest picture (every night pick, every vote): one machine-code pass
        return _choice(out, size, rot, pic, _PICKING if kind == PICK else _VOTING)
    if kind >= PICK_WIDE:
        return _draw_wide(pic, t, size, rot, out)
    if not valid(pic):
        kind = DARK
    if kind == YESNO:
        answer, cursor = pic[2], pic[1]
        if answer in (1, 2):
            _paint(out, size, rot, 0, _OFF)      # the answer given: one pixel, like any other
            _set(out, size, rot, answer - 1, _CHOSEN)
        else:
            _paint(out, size, rot, 1, _YES)
            _set(out, size, rot, 1, _NO)
        if 1 <= cursor <= size and cursor != answer:
            _set(out, size, rot, cursor - 1, _CURSOR)
    elif kind == CHECK:
        _answer(pic, t, size, rot, out)
    elif kind == COUNTDOWN:
        total = ((pic[3] << 8) | pic[4]) / 10
        left = countdown_left(pic, t)
        lit = 0
        if total > 0:
            lit = int(size * left / total)
            if lit < size * left / total:
                lit += 1                       # a part of a pixel still shows
        lit = min(lit, size)
        on = left > 10 or blink(t)
        _paint(out, size, rot, (1 << lit) - 1 if on else 0, _COUNT)
    elif kind == ROLE:
        _paint(out, size, rot, 0, _OFF)
        _set(out, size, rot, 0, _SIDES[pic[1]] if pic[1] < len(SIDES) else _CURSOR)
        _set(out, size, rot, (pic[2] if 1 <= pic[2] < size else 1) % size, _MARK)
    elif kind == FAULT:
        _paint(out, size, rot, _EVEN if blink(t) else _ODD, _FAULT)
    else:
        _paint(out, size, rot, 0, _OFF)
    return channel_sum(out, size * 3)


# (the big table's pictures are drawn apart from draw(): in it they made a native function
# too big for the Pico's Thumb code)
def _draw_wide(pic, t, size, rot, out):
    # a table bigger than the mask or the ring: one pass too, the cue's flash found here
    kind = pic[0]
    if not valid(pic):
        _paint(out, size, rot, 0, _OFF)
        return 0
    palette = _PICKING if kind == PICK_WIDE else _VOTING
    if len(pic) > 8 and pic[8] == PART and not blink(t, PART_BLINK):
        palette = _BLINKED
    return _wide(out, size, rot, pic, palette, flash(t) if pic[1] > size else NO_FLASH)


def _answer(pic, t, size, rot, out):
    # an answer: one pixel at its seat (a big table's: the seat's light, flashing its place)
    _paint(out, size, rot, 0, _OFF)
    result = pic[2] if pic[2] < len(ANSWER) else 3
    seats = pic[3] if len(pic) > 3 and pic[3] > size else size
    if 1 <= pic[1] <= seats:
        p, slot, sharing = place(pic[1], seats, size)
        if cue(slot, sharing, t):
            _set(out, size, rot, p, _ANSWER[result])


def cap_byte(cap):
    """A brightness cap of 0-1 as the controller takes it (BRIGHT): 0-255."""
    return max(0, min(255, round(cap * 255)))


_LUTS = {}


def render(pic, t=0.0, size=12, rotation=0, cap=1.0, level=256):
    """The ring's pixels (a list of (r, g, b)) for picture bytes `pic` at time `t`, under
    the brightness cap `cap` (0-1) and the current budget's `level` (0-256, budget_level):
    what draw() gives the strip and the controller dims it to (the same integer table), so
    every backend shows exactly the same pixels."""
    out = bytearray(size * 3)
    draw(pic, t, size, rotation, out)
    c = cap_byte(cap)
    if c < 255 or level < 256:
        lut = _LUTS.get(c * 512 + level)
        if lut is None:
            lut = _LUTS[c * 512 + level] = bytearray(256)
            shade_table(lut, c, level)
        shade(out, out, 0, size * 3, lut)
    return [(out[j + 1], out[j], out[j + 2]) for j in range(0, size * 3, 3)]


@micropython.viper
def shade_table(lut, cap: int, level: int):
    """Fill `lut` (256 bytes) with each channel value under the brightness cap (0-255) and
    then the budget's level (0-256): integers only, so dimming a ring is a lookup a byte."""
    o = ptr8(lut)
    v = 0
    while v < 256:
        o[v] = ((v * cap // 255) * level) >> 8
        v += 1


@micropython.viper
def shade(src, dst, at: int, n: int, lut):
    """dst[at:at + n] = src[:n], each byte through `lut`."""
    s = ptr8(src)
    d = ptr8(dst)
    t = ptr8(lut)
    i = 0
    while i < n:
        d[at + i] = t[s[i]]
        i += 1


def animated(pic, size=12):
    """Does this picture change by itself over time (so a ring of `size` pixels must be
    redrawn)?"""
    if not len(pic):
        return False
    kind = pic[0]
    if kind == COUNTDOWN or kind == FAULT:  # noqa: SIM109 (see draw)
        return True
    # a mark on a light that seats share flashes
    if (kind == PICK_WIDE or kind == VOTE_WIDE) and len(pic) >= 8:  # noqa: SIM109
        if len(pic) > 8 and pic[8] == PART:
            return True
        return pic[1] > size and (pic[6] != 0 or pic[7] != 0)
    return kind == CHECK and len(pic) > 3 and pic[3] > size


def allowance(pic, size=12):
    """What a ring showing `pic` is counted for in the current budget (a channel sum, like
    draw()'s). Never what a private picture shows: every ring on a controller dims by the
    same level, so a budget worked out from a cursor's place, a ballot or a card would show
    them on every ring, and which rings show anything at night is itself a secret. So every
    picture but the public ones is counted as the most any private picture can light (a pick
    of every seat, its cursor and its choice); a countdown (the speaker's, on the room's
    screen too) and a fault as the most they can light. The level then changes only when a
    countdown or a fault comes or goes."""
    kind = pic[0] if len(pic) else DARK
    if kind == COUNTDOWN:
        return size * _COUNT_SUM
    if kind == FAULT:
        return size * _FAULT_SUM
    return (size - 2) * _DIM_SUM + _CURSOR_SUM + _CHOSEN_SUM


def budget_level(frame_sum, budget_ma, ma_per_channel=20):
    """How much of each channel a frame whose channel values add up to `frame_sum` may keep
    to stay within `budget_ma` milliamps (a WS2812 channel draws about 20 mA at full), in
    256ths, rounded down: 256 is all of it. Integers only: no float on the hot path."""
    drawn = frame_sum * ma_per_channel          # in 255ths of a milliamp
    allowed = budget_ma * 255
    if drawn <= allowed:
        return 256
    return allowed * 256 // drawn
