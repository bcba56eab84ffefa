"""The pad controller (a Raspberry Pi Pico) over USB serial: finding it."""

from __future__ import annotations

#: The Raspberry Pi Pico's USB vendor id (MicroPython's CDC serial port).
PICO_VID = 0x2E8A


def find_pico() -> str | None:
    """The serial port of a connected Pico, or None."""
    try:
        from serial.tools import list_ports
    except ImportError:          # pyserial missing: no controller can be there
        return None
    for port in list_ports.comports():
        if port.vid == PICO_VID:
            return str(port.device)
    return None
