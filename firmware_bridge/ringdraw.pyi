# Types of the rings' drawing, for mypy on the Pi's side (ringdraw.py runs on the Pico's
# MicroPython too, which has no `typing`: its types live here). Only what the Pi's code uses
# is declared; tests/test_lint.py holds these to the module with mypy's stubtest.
_Buffer = bytes | bytearray | memoryview
_Colour = tuple[int, int, int]

DARK: int
PICK: int
VOTE: int
YESNO: int
CHECK: int
COUNTDOWN: int
ROLE: int
FAULT: int
PICK_WIDE: int
VOTE_WIDE: int
PART: int
PART_BLINK: float
MAX_SEATS: int
CUE_ON: float
CUE_GAP: float
CUE_CYCLE: float
NO_FLASH: int
OFF: _Colour
DIM: _Colour
CURSOR: _Colour
CHOSEN: _Colour
CANDIDATE: _Colour
RED: _Colour
BLACK_AS: _Colour
COUNT: _Colour
FAULT_C: _Colour
YES: _Colour
NO: _Colour
MARK: _Colour
SIDES: tuple[_Colour, ...]
ANSWER: tuple[_Colour, ...]
RESULTS: tuple[str, ...]
NEED: dict[int, int]

def blink(t: float, period: float = ...) -> bool: ...
def countdown_left(pic: _Buffer, t: float) -> float: ...
def valid(pic: _Buffer) -> bool: ...
def place(seat: int, seats: int, size: int) -> tuple[int, int, int]: ...
def flash(t: float) -> int: ...
def cue(slot: int, sharing: int, t: float) -> bool: ...
def channel_sum(buf: _Buffer, n: int) -> int: ...
def draw(pic: _Buffer, t: float, size: int, rotation: int, out: bytearray) -> int: ...
def cap_byte(cap: float) -> int: ...
def render(pic: _Buffer, t: float = ..., size: int = ..., rotation: int = ...,
           cap: float = ..., level: int = ...) -> list[_Colour]: ...
def shade_table(lut: bytearray, cap: int, level: int) -> None: ...
def shade(src: _Buffer, dst: bytearray, at: int, n: int, lut: _Buffer) -> None: ...
def animated(pic: _Buffer, size: int = ...) -> bool: ...
def allowance(pic: _Buffer, size: int = ...) -> int: ...
def budget_level(frame_sum: int, budget_ma: int, ma_per_channel: int = ...) -> int: ...
