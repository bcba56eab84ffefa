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
# `t` is the seconds since the picture was shown: a countdown counts down by itself and
# blinks its last 10 s, so the Pi sends it once.

# render() is compiled to machine code on the Pico (@micropython.native); CPython runs it as is.
try:
    import micropython
except ImportError:      # CPython (the Pi's side): the decorator changes nothing
    class micropython:   # noqa: N801
        @staticmethod
        def native(f):
            return f


DARK = 0
PICK = 1
VOTE = 2
YESNO = 3
CHECK = 4
COUNTDOWN = 5
ROLE = 6
FAULT = 7

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
NEED = {PICK: 5, VOTE: 5, YESNO: 3, CHECK: 3, COUNTDOWN: 5, ROLE: 3}


def valid(pic):
    """Is this a picture the drawing knows, with all its bytes?"""
    return len(pic) > 0 and pic[0] <= FAULT and len(pic) >= NEED.get(pic[0], 1)


@micropython.native
def render(pic, t=0.0, size=12, rotation=0, cap=1.0):
    """The ring's pixels (a list of (r, g, b)) for picture bytes `pic` at time `t`."""
    px = [OFF] * size
    kind = pic[0] if valid(pic) else DARK
    if kind in (PICK, VOTE):
        mask = (pic[1] << 8) | pic[2]
        base = DIM if kind == PICK else CANDIDATE
        for s in range(1, size + 1):
            if mask & (1 << (s - 1)):
                px[s - 1] = base
        if 1 <= pic[4] <= size:
            px[pic[4] - 1] = CHOSEN
        if 1 <= pic[3] <= size and pic[3] != pic[4]:
            px[pic[3] - 1] = CURSOR          # on the chosen seat the green shows: it is taken
    elif kind == YESNO:
        px[0] = YES
        px[1] = NO
        if pic[2] in (1, 2):
            px = [OFF] * size                  # the answer given: one pixel, like any other
            px[pic[2] - 1] = CHOSEN
        if 1 <= pic[1] <= size and pic[1] != pic[2]:
            px[pic[1] - 1] = CURSOR
    elif kind == CHECK:
        result = pic[2] if pic[2] < len(ANSWER) else 3
        if 1 <= pic[1] <= size:
            px[pic[1] - 1] = ANSWER[result]
    elif kind == COUNTDOWN:
        total = ((pic[3] << 8) | pic[4]) / 10
        left = countdown_left(pic, t)
        lit = 0
        if total > 0:
            lit = int(size * left / total)
            if lit < size * left / total:
                lit += 1                       # a part of a pixel still shows
        on = left > 10 or blink(t)
        px = [COUNT if i < lit and on else OFF for i in range(size)]
    elif kind == ROLE:
        colour = SIDES[pic[1]] if pic[1] < len(SIDES) else CURSOR
        px[0] = colour
        px[(pic[2] if 1 <= pic[2] < size else 1) % size] = MARK
    elif kind == FAULT:
        phase = blink(t)
        px = [FAULT_C if (i % 2 == 0) == phase else OFF for i in range(size)]
    if rotation:
        r = rotation % size
        px = px[size - r:] + px[:size - r]
    if cap < 1.0:
        px = [(int(c[0] * cap), int(c[1] * cap), int(c[2] * cap)) for c in px]
    return px


def animated(pic):
    """Does this picture change by itself over time (so the ring must be redrawn)?"""
    return len(pic) > 0 and pic[0] in (COUNTDOWN, FAULT)


def budget_scale(frame_sum, budget_ma, ma_per_channel=20):
    """How much to dim a frame whose channel values add up to `frame_sum` to stay within
    `budget_ma` milliamps (a WS2812 channel draws about 20 mA at full)."""
    current = frame_sum * ma_per_channel / 255
    if current <= budget_ma or current <= 0:
        return 1.0
    return budget_ma / current
