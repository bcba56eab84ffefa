"""Telling systemd how the table is: ready once a game is open, alive while the loop turns
(the unit's watchdog restarts a table that hangs). Nothing happens outside systemd."""

from __future__ import annotations

import os
import socket

#: whether this process has said READY=1 (its setup screen, or its game, is showing)
ready = False


def notify(state: str) -> bool:
    """Send `state` (READY=1, WATCHDOG=1, STATUS=...) to systemd; False when not under it."""
    global ready
    ready = ready or state.startswith("READY=1")
    address = os.environ.get("NOTIFY_SOCKET")
    if not address:
        return False
    if address.startswith("@"):
        address = "\0" + address[1:]          # an abstract socket
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as s:
            # never waits: a manager that reads slowly must not hang the table (a full
            # queue drops the beat; the next one comes within half the interval)
            s.sendto(state.encode(), socket.MSG_DONTWAIT, address)
    except OSError:
        return False
    return True


class Watchdog:
    """WATCHDOG=1 at half the interval systemd asks for (WATCHDOG_USEC), from the loop."""

    def __init__(self) -> None:
        usec = os.environ.get("WATCHDOG_USEC", "")
        self.every = int(usec) / 2e6 if usec.isdigit() else None
        self.last = 0.0

    def beat(self, now: float) -> None:
        if self.every is not None and now - self.last >= self.every:
            self.last = now
            notify("WATCHDOG=1")
