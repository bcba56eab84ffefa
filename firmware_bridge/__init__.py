"""The pad controller: its firmware (MicroPython, for a Raspberry Pi Pico), the wire protocol
and the ring drawing both sides share. `padlink.py` and `ringdraw.py` run unchanged under
CPython (the Pi) and MicroPython (the Pico)."""
