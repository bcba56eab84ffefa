"""The pad link's session (pads/session.py) on its own: bytes in, edges and bytes out, with no
thread, port or clock, the controller's side played from padlink's frames."""

from __future__ import annotations

import ast
from pathlib import Path

from firmware_bridge import padlink as pl
from table_app.pads.events import PadEdge
from table_app.pads.session import ACK_HOLD, EDGE_RATE, LinkSession

SECRET = b"club secret"
BOOT = b"\x01\x02\x03\x04"


def _kinds(data: bytes | bytearray | None) -> list[int]:
    return [k for k, _, _ in pl.Decoder().feed(data or b"")]


def _hello_reply(challenge: bytes, seats: int = 12, secret: bytes = SECRET,
                 protocol: int = pl.PROTOCOL) -> bytearray:
    body = pl.pack(pl.HELLO_REPLY, protocol=protocol, seats=seats, ring=12, boot=BOOT,
                   proof=pl.proof(secret, challenge), version="9.9")
    return pl.frame(pl.HELLO_REPLY, 0, body)


def _connected(now: float = 10.0) -> tuple[LinkSession, bytes]:
    s = LinkSession(12, SECRET)
    s.open(b"c" * 8, now)
    hello = s.due(now, now)
    assert _kinds(hello) == [pl.HELLO]
    (_, _, body), = pl.Decoder().feed(hello or b"")
    assert pl.unpack(pl.HELLO, body)["challenge"] == b"c" * 8
    s.received(bytes(_hello_reply(b"c" * 8)), now, now)
    assert s.hello_seen and s.accept_hello() is None and s.connected
    assert s.key == pl.session_key(SECRET, b"c" * 8, BOOT) and s.firmware == "9.9"
    assert s.sender.ack(s.sender.queue[0][0])      # the hello's ack (the controller's)
    return s, s.key


def _edge(key: bytes, seq: int, seat: int, pressed: bool, t_ms: int) -> bytes:
    return bytes(pl.frame(pl.EDGE, seq, pl.pack(pl.EDGE, seat=seat, pressed=int(pressed),
                                                t_ms=t_ms), key))


def test_the_session_is_pure() -> None:
    """No thread, port, clock or sleep in it: the backend's threads run it."""
    tree = ast.parse((Path(__file__).parents[1] / "table_app" / "pads" / "session.py")
                     .read_text())
    imported = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import)
                for a in n.names}
    imported |= {(n.module or "").split(".")[0] for n in ast.walk(tree)
                 if isinstance(n, ast.ImportFrom) and not n.level}
    assert not imported & {"threading", "serial", "time", "os", "queue", "asyncio"}, imported


def test_a_hello_from_another_table_or_protocol_is_refused() -> None:
    for reply, why in ((_hello_reply(b"c" * 8, secret=b"other"), "not paired with this table"),
                       (_hello_reply(b"c" * 8, protocol=2), "protocol mismatch"),
                       (_hello_reply(b"c" * 8, seats=10), "seat count mismatch")):
        s = LinkSession(12, SECRET)
        s.open(b"c" * 8, 0.0)
        s.received(bytes(reply), 0.0, 0.0)
        error = s.accept_hello()
        assert error is not None and why in error and not s.connected
    unpaired = LinkSession(12, b"", "not paired yet")
    unpaired.open(b"c" * 8, 0.0)
    unpaired.received(bytes(_hello_reply(b"c" * 8, secret=b"")), 0.0, 0.0)
    assert unpaired.accept_hello() == "not paired yet"


def test_edges_in_acks_out_and_a_release_waits_for_its_answer() -> None:
    s, key = _connected()
    s.received(bytes(pl.frame(pl.BEAT, 0, pl.p32(5000), key)), 10.0, 10.0)   # pad clock
    writes, edges = s.received(_edge(key, 1, 3, True, 5100), 10.2, 10.2)
    assert edges == [PadEdge(3, True, 10.1)] and writes == [pl.ack_frame(1, key)]
    writes, edges = s.received(_edge(key, 2, 3, False, 5300), 10.4, 10.4)
    assert edges == [PadEdge(3, False, 10.3)] and writes == []     # its ack is held
    assert s.due(10.4, 10.4 + ACK_HOLD * 0.5) is None
    s.queue(pl.SHOW, bytes([3, 0]), tag=3)                          # the table's answer
    both = s.due(10.4, 10.4 + ACK_HOLD * 0.5)
    assert _kinds(both) == [pl.ACK, pl.SHOW]
    # a resend of a release already taken: acknowledged at once, no second edge
    writes, edges = s.received(_edge(key, 2, 3, False, 5300), 10.5, 10.5)
    assert edges == [] and writes == [pl.ack_frame(2, key)]
    # alone, a held ack goes after ACK_HOLD
    assert s.sender.ack(s.sender.queue[0][0])
    s.received(_edge(key, 3, 4, True, 5600), 10.7, 10.7)
    s.received(_edge(key, 4, 4, False, 5700), 10.8, 10.8)
    assert s.due(10.8, 10.8) is None
    assert s.due(10.8, 10.8 + ACK_HOLD) == pl.ack_frame(4, key)


def test_a_forged_edge_and_a_flood_never_become_edges() -> None:
    s, key = _connected()
    writes, edges = s.received(_edge(b"x" * 8, 1, 3, True, 100), 11.0, 11.0)
    assert (writes, edges) == ([], []) and s.stats["bad_frames"] == 1
    got = 0
    seq = 0
    for i in range(300):                      # 300 edges in one second
        seq = seq % 255 + 1
        _, edges = s.received(_edge(key, seq, 1 + i % 12, bool(i % 2), 100 + i), 11.0 + i / 300,
                              11.0)
        got += len(edges)
    assert got <= 2 * EDGE_RATE and s.stats["flooded"] > 0


def test_a_restarted_controller_is_a_new_session_and_a_cut_keeps_the_clock() -> None:
    s, key = _connected()
    s.received(bytes(pl.frame(pl.BEAT, 0, pl.p32(5000), key)), 10.0, 10.0)
    s.received(_edge(key, 1, 3, True, 5100), 10.2, 10.2)
    assert s.lost() and not s.lost() and s.stats["disconnects"] == 1
    # the cable comes back, the same boot: the sequence and the clock are kept
    s.open(b"d" * 8, 12.0)
    s.received(bytes(_hello_reply(b"d" * 8)), 12.0, 12.0)
    assert s.accept_hello() is None and s.offsets and s.receiver.last == 1
    key2 = s.key
    assert key2 is not None and key2 != key
    _, edges = s.received(_edge(key2, 1, 3, True, 5100), 12.1, 12.1)
    assert edges == []                        # a resend of seq 1: not taken twice
