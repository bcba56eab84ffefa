"""WS2812 on the wire, read back as a ring would: from SPI bytes to the pixels latched.

Written from the WS2812B datasheet, not from the backend's encoder: the SPI bytes become a
level on MOSI for 1/hz seconds a bit; each WS2812 bit is a high pulse then a low, a 0 when
the high lasts 0.25-0.55 us, a 1 when 0.65-0.95 us, the whole bit 0.65-1.85 us; a low of at
least 280 us latches what came (the newest WS2812B's reset; older ones take 50 us).
"""

from __future__ import annotations

T0H = (250, 550)
T1H = (650, 950)
BIT = (650, 1850)
RESET_NS = 280_000


class WireError(AssertionError):
    """The waveform is not a WS2812's."""


def runs(data: bytes, hz: int) -> list[tuple[int, float]]:
    """The level on MOSI as (level, nanoseconds) runs, top bit of each byte first, low
    before and after (an idle SPI line)."""
    ns = 1e9 / hz
    out: list[tuple[int, float]] = []
    for byte in data:
        for i in range(7, -1, -1):
            level = byte >> i & 1
            if out and out[-1][0] == level:
                out[-1] = (level, out[-1][1] + ns)
            else:
                out.append((level, ns))
    return out


def latched(data: bytes, hz: int) -> list[bytes]:
    """Each frame a ring latches from this stream: its bytes as received (green, red, blue a
    pixel). Raises WireError on any pulse outside the datasheet's times."""
    frames: list[bytes] = []
    bits: list[int] = []
    rs = runs(data, hz)
    i = 0
    if rs and rs[0][0] == 0:
        i = 1                                  # the idle low before the first bit
    while i < len(rs):
        level, high = rs[i]
        assert level == 1
        low = rs[i + 1][1] if i + 1 < len(rs) else float("inf")
        if T0H[0] <= high <= T0H[1]:
            bits.append(0)
        elif T1H[0] <= high <= T1H[1]:
            bits.append(1)
        else:
            raise WireError(f"a high of {high:.0f} ns is neither a 0 nor a 1")
        if low >= RESET_NS:
            frames.append(_bytes(bits))
            bits = []
        elif not BIT[0] <= high + low <= BIT[1]:
            raise WireError(f"a bit of {high + low:.0f} ns")
        i += 2
    if bits:
        raise WireError(f"{len(bits)} bits never latched (no reset after them)")
    return frames


def _bytes(bits: list[int]) -> bytes:
    if len(bits) % 8:
        raise WireError(f"{len(bits)} bits: not whole bytes")
    return bytes(int("".join(map(str, bits[k:k + 8])), 2) for k in range(0, len(bits), 8))


def pixels(grb: bytes) -> list[tuple[int, int, int]]:
    """A ring's bytes as (red, green, blue) pixels."""
    return [(grb[j + 1], grb[j], grb[j + 2]) for j in range(0, len(grb), 3)]
