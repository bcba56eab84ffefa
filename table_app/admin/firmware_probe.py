"""The installer asks a controller over its link (firmware.py's steps 1, 2 and 5): listen for
a heartbeat, wake a quiet one, ask who it is (the version handshake: its firmware, its board,
whether it is paired with this Pi), and ask a running one to restart into safe mode."""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from typing import Any

from firmware_bridge import padlink as pl


class FirmwareError(Exception):
    """A step of the install failed; the message says what to do."""


@dataclass
class Controller:
    """What a running controller says of itself in the handshake."""

    protocol: int
    seats: int
    version: str
    paired: bool
    #: the board's own id (a big table's controllers are told apart by it)
    board: str = ""

    def describe(self) -> str:
        pairing = "paired with this table" if self.paired else "not paired with this table"
        board = f" (board {self.board})" if self.board else ""
        return (f"firmware {self.version or '?'} (protocol {self.protocol}, "
                f"{self.seats} pads), {pairing}{board}")


def _open(port: str) -> Any:
    import serial
    try:
        # exclusive: a running table holds the port the same way, and is named below
        return serial.Serial(port, 115200, timeout=0.05, exclusive=True)
    except (serial.SerialException, OSError, ValueError) as e:
        text = str(e)
        if "lock" in text.lower() or "busy" in text.lower():
            raise FirmwareError(
                f"{port} is in use, most likely by the running table: stop it first "
                f"(sudo systemctl stop table-app), then install again") from e
        if "ermission" in text:
            raise FirmwareError(f"no permission to open {port}: add this user to the "
                                f"dialout group (sudo adduser $USER dialout), log in again") from e
        raise FirmwareError(f"cannot open {port}: {text}") from e


class _Gone(Exception):
    """The port went away under us (the controller reset, or the cable was pulled)."""


def _read(ser: Any) -> bytes:
    import serial
    try:
        return bytes(ser.read(256))
    except (serial.SerialException, OSError) as e:
        raise _Gone(str(e)) from e


def _frames(ser: Any, decoder: pl.Decoder) -> list[tuple[int, int, bytearray]]:
    data = _read(ser)
    return decoder.feed(data) if data else []


def probe(port: str, secret: bytes, listen: float = 30.0, update: bool = False,
          ) -> Controller | None:
    """Ask the controller on `port` who it is, only if it is heard running our firmware
    (None when it is silent: a bare MicroPython). With `update`, then ask it to restart
    into safe mode."""
    ser = _open(port)
    try:
        return _probe(ser, port, secret, listen, update)
    except _Gone as e:
        raise FirmwareError(f"the controller on {port} went away ({e}): plug it in again "
                            f"and retry") from e
    finally:
        ser.close()


def _probe(ser: Any, port: str, secret: bytes, listen: float, update: bool,
           ) -> Controller | None:
    decoder = pl.Decoder()
    end = time.monotonic() + listen
    heard = False
    # A running controller stops its heartbeats once 192 bytes went unread (nobody held the
    # port since the table stopped, or since another board's install) until it hears the Pi
    # again: a NUL, a frame's delimiter, wakes it (its next beat comes within BEAT_MS), and
    # a bare MicroPython's REPL ignores it. Sent again every half second of silence.
    #
    # What answers decides, not how soon: a bare MicroPython (or a controller in safe mode,
    # at its REPL) answers the nudge's Return with its prompt, and the firmware with its
    # frames (it takes the Return for line noise). Told apart by time, a controller slower
    # than the 6 s allowed (an emulated one on a loaded machine) was taken for a bare
    # MicroPython, and mpremote then could not reach a REPL past the firmware. `listen` is
    # only a ceiling, for a board that says nothing at all.
    nudged = 0.0
    said = b""
    while time.monotonic() < end and not heard:
        if time.monotonic() - nudged >= 0.5:
            ser.write(b"\x00\r")
            nudged = time.monotonic()
        data = _read(ser)
        heard = bool(decoder.feed(data)) if data else False
        said = (said + data)[-64:]
        if not heard and b">>> " in said:
            return None                       # its REPL's prompt: no firmware running
    if not heard:
        return None
    challenge = os.urandom(8)
    reply = _exchange(ser, decoder, pl.HELLO, pl.pack(pl.HELLO, protocol=pl.PROTOCOL,
                                                      challenge=challenge), 1,
                      want=pl.HELLO_REPLY)
    hello = reply_fields(reply or b"")
    if "ring" not in hello:
        raise FirmwareError(f"the controller on {port} sends frames but does not answer "
                            f"the handshake: unplug it, plug it in again, and retry")
    # the version, then (firmware 0.5 on) a space and the board's id
    version, _, board = str(hello.get("version", "")).partition(" ")
    paired = bool(secret) and "nonce" in hello and hello.get("proof") == pl.reply_proof(
        secret, challenge, reply or b"")
    info = Controller(hello["protocol"], hello["seats"], version, paired, board.strip())
    if update:
        # the update request is signed with the session's key (protocol 4 on): only the
        # table a controller is paired with can send it into safe mode; an older firmware
        # took it unsigned
        key = None
        if hello["protocol"] >= 4:
            # a controller never paired (its secret empty) is anybody's to update
            secret = secret if paired else b""
            if not paired and hello.get("proof") != pl.reply_proof(b"", challenge, reply or b""):
                raise FirmwareError(
                    "the controller is paired with another table, and only that table can "
                    "ask it to take an update: install from that table's Pi, or hold "
                    "BOOTSEL and flash MicroPython's flash_nuke, then MicroPython, then "
                    "install again (see hardware/README.md)")
            key = pl.session_key(secret, challenge, hello["boot"], hello["nonce"])
        try:
            taken = _exchange(ser, decoder, pl.UPDATE, pl.UPDATE_BODY, 2, want=pl.ACK,
                              key=key)
        except _Gone:
            taken = b""          # it reset at once: the port dropped before its ACK came
        if taken is None:
            raise FirmwareError("the controller did not take the update request: its "
                                "firmware may be too old; hold BOOTSEL and flash it "
                                "(see hardware/README.md)")
    return info


def reply_fields(reply: bytes) -> dict[str, Any]:
    """A hello's reply's fields, of any protocol: protocol 3's (firmware 0.5, which clubs
    update from) had no nonce before its proof."""
    hello = pl.unpack(pl.HELLO_REPLY, reply)
    if hello.get("protocol", pl.PROTOCOL) < 4:
        hello = pl.unpack(pl.HELLO_REPLY, reply[:7] + bytes(8) + reply[7:])
        hello.pop("nonce", None)
    return hello


def _exchange(ser: Any, decoder: pl.Decoder, kind: int, body: bytes, seq: int, want: int,
              timeout: float = 2.0, key: bytes | None = None) -> bytes | None:
    """Send one reliable frame (again every 0.1 s, signed with `key` if there is one) till
    the answer of kind `want` comes."""
    end = time.monotonic() + timeout
    sent = 0.0
    while time.monotonic() < end:
        if time.monotonic() - sent > 0.1:
            ser.write(pl.frame(kind, seq, body, key))
            sent = time.monotonic()
        for got, got_seq, got_body in _frames(ser, decoder):
            if got_seq:                      # the controller's own reliable frames: acked
                ser.write(pl.frame(pl.ACK, 0, bytes([got_seq]), key))
            if got == want and (want != pl.ACK or bytes(got_body[:1]) == bytes([seq])):
                return bytes(got_body)
    return None
