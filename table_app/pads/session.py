"""The pad link's session, as a pure object: bytes in, pad edges and bytes to write out.

`LinkSession` is the protocol between the Pi and one pad controller (padlink's frames): the
hello and its checks (protocol, seats, pairing proof, the session's MAC key), the
acknowledgements (a release's held back a moment to ride with the ring's answer), resends
(padlink's Sender), the edge rate limit, the pad's clock (unwrapped, and its offset from the
Pi's from the heartbeats) and the counts. It has no thread, no port and no clock of its own:
every call is told the time. `SerialPads` (serial_pads.py) runs it: its reader thread hands
it what the port read (as pyserial's `Protocol` beside its `ReaderThread`), its supervisor
writes what it gives and opens the port again when it falls silent; both under one lock.
"""

from __future__ import annotations

from collections import deque

from firmware_bridge import padlink as pl

from .events import PadEdge

RING = 12
EDGE_RATE = 60.0            # edges a second a controller may send (and as many at once)
ACK_HOLD = 0.005            # a release's ack waits this long for the ring's answer to ride on
PAD_TICKS = 1 << 30         # MicroPython's ticks_ms period on the Pico

NOT_PAIRED = ("this table is not paired with its pad controller yet: install the firmware "
              "from this Pi (table-app firmware install)")


class LinkSession:
    """One table's link to its pad controller: what was said, what waits to be sent, what
    the pad's clock reads."""

    def __init__(self, seats: int, secret: bytes, unpaired: str | None = None,
                 ring: int = RING) -> None:
        self.seats = seats
        #: pixels a ring, as the table's settings say the rings were built
        self.ring = ring
        #: the controller's own id (its board's unique id, from its hello), if it says one
        self.board: str | None = None
        self.secret = secret
        #: why no controller can be trusted (no pairing, or a secret that cannot be read)
        self.unpaired = unpaired
        self.sender = pl.Sender(limit=256)
        self.receiver = pl.Receiver()
        self.decoder = pl.Decoder()
        self.challenge = b""
        self.boot = b""                  # the controller's boot id at the last good hello
        self.hello: bytes | None = None
        self.hello_seen = False
        #: the session's MAC key (padlink), from the hello's reply; None: nothing is taken
        self.key: bytes | None = None
        self.connected = False
        self.firmware: str | None = None
        self.last_rx = 0.0
        self.offsets: deque[tuple[float, float]] = deque()
        #: the pad's clock unwrapped: the last value seen, counting on past each wrap
        self.pad_last: int | None = None
        #: acks held back a moment to go out with the answer (`_ack_edge`), and when they go
        #: out alone at the latest (on the link's own time)
        #: the seats whose last edge taken was a press
        self.down: set[int] = set()
        #: releases the table is owed: of buttons held while the controller restarted
        self.released: list[PadEdge] = []
        self.held = bytearray()
        self.held_until = 0.0
        self._tokens = EDGE_RATE
        self._tokens_at = 0.0
        self.stats: dict[str, int] = {
            "bad_frames": 0, "resends": 0, "connects": 0, "disconnects": 0,
            "pad_bad_frames": 0, "pad_resends": 0, "pad_dropped": 0, "pad_reports": 0}

    # -- a connection --------------------------------------------------------------------
    def open(self, challenge: bytes, now: float) -> None:
        """A port opened: a new session, greeted with `challenge`. The sequence state and
        the pad's clock offsets are kept across a cut (edges queued while unplugged keep
        their times, a resend is not taken twice); both go if the hello shows the
        controller restarted."""
        self.sender.clear()
        self.held.clear()
        self.hello = None
        self.hello_seen = False
        self.key = None                  # its key comes with the hello
        self.sender.key = None
        self.last_rx = now
        self.challenge = challenge
        self.decoder = pl.Decoder()
        self.sender.add(pl.HELLO, pl.pack(pl.HELLO, protocol=pl.PROTOCOL, challenge=challenge))

    def accept_hello(self, now: float = 0.0) -> str | None:
        """Check the controller's hello: None when it is this table's (the session is then
        connected), else why not, in words for the host. A controller that restarted with
        buttons taken as down leaves their releases in `released`, stamped `now`."""
        hello = pl.unpack(pl.HELLO_REPLY, self.hello or b"")
        if "ring" not in hello:
            return "pad controller: a malformed hello"
        if hello["protocol"] != pl.PROTOCOL or "proof" not in hello:
            return (f"protocol mismatch: the pad controller speaks protocol "
                    f"{hello['protocol']}, this app {pl.PROTOCOL}: install the "
                    f"matching firmware (table-app firmware install)")
        if hello["seats"] != self.seats or hello["ring"] != self.ring:
            return (f"seat count mismatch: the pad controller has {hello['seats']} pads "
                    f"of {hello['ring']} pixels, the table needs {self.seats} of {self.ring} "
                    f"(pads.ring in the settings, the firmware's RING)")
        if self.unpaired is not None:
            return self.unpaired
        if self.key is None:             # its proof did not hold (`_hello`)
            # not ours (another device with the Pico's id, or firmware from another table):
            # it gets no picture, and its buttons are not heard
            return ("the pad controller is not paired with this table: install the "
                    "firmware from this Pi (table-app firmware install)")
        boot = hello["boot"]
        if boot != self.boot:            # the controller restarted: a new session
            if self.boot:
                # a button held through the restart: its press was taken, its release
                # never comes (the new boot sends a press of its own if it is still down)
                self.released += [PadEdge(seat, False, now) for seat in sorted(self.down)]
            self.down.clear()
            self.boot = boot
            self.receiver.reset()
            self.offsets.clear()
            self.pad_last = None
        # "0.5.0 e6614c311b7e5b2d": the firmware's version, then its board's id (older
        # firmware says only the version)
        version, _, board = str(hello.get("version", "")).partition(" ")
        self.firmware = version
        self.board = board.strip() or None
        self.stats["connects"] += 1
        self.connected = True
        return None

    def take_released(self) -> list[PadEdge]:
        """The releases owed since the last hello (see accept_hello), once."""
        got, self.released = self.released, []
        return got

    def lost(self) -> bool:
        """The connection ended; True if it had been up."""
        was, self.connected = self.connected, False
        if was:
            self.stats["disconnects"] += 1
        return was

    # -- what goes out -------------------------------------------------------------------
    def queue(self, kind: int, body: bytes, tag: object = None) -> None:
        """A reliable frame to send (a `tag` replaces an older one not yet on the wire)."""
        self.sender.add(kind, body, tag)

    def beat(self) -> bytearray:
        return pl.frame(pl.BEAT, 0, b"", self.key)

    def due(self, now: float, link_now: float) -> bytes | bytearray | None:
        """What to write now: the head of the queue when it is new or due again, and any
        held acks with it (or alone once their hold is over)."""
        before = self.sender.resends
        data = self.sender.due(int(now * 1000))
        self.stats["resends"] += self.sender.resends - before
        if self.held and (data is not None or link_now >= self.held_until):
            data = self._after_held(data or b"")
        return data

    def _after_held(self, data: bytes | bytearray) -> bytes | bytearray:
        # the acks held back go first, in the same write
        if not self.held:
            return data
        data = bytes(self.held) + data
        self.held.clear()
        return data

    def _ack_edge(self, seq: int, fresh: bool, released: bool,
                  link_now: float) -> bytes | bytearray | None:
        # A release is what the table answers (a tap is taken at its release), with a new
        # picture a moment later: its ack waits for that picture and goes out in the same
        # write, so the controller takes both in one read (or alone after ACK_HOLD, far
        # inside the controller's 30 ms resend). A press, or a resend whose ack was lost, is
        # acknowledged at once: the controller may have more edges waiting behind it.
        if fresh and released:
            if not self.held:
                self.held_until = link_now + ACK_HOLD
            self.held += pl.ack_frame(seq, self.key)
            return None
        return self._after_held(pl.ack_frame(seq, self.key))

    # -- what comes in -------------------------------------------------------------------
    def received(self, data: bytes, now: float, link_now: float
                 ) -> tuple[list[bytes | bytearray], list[PadEdge]]:
        """Bytes the port read: what to write at once (acks, the next queued frame) and
        the pad edges they carried, in order."""
        writes: list[bytes | bytearray] = []
        edges: list[PadEdge] = []
        dec = self.decoder
        before = dec.bad
        frames = dec.feed(data)
        self.stats["bad_frames"] += dec.bad - before
        for kind, seq, raw in frames:
            if kind == pl.HELLO_REPLY:
                self._hello(raw, now)
                continue
            body = pl.opened(self.key, kind, seq, raw)
            if body is None:             # a wrong or missing MAC: forged, or stale
                self.stats["bad_frames"] += 1
                continue
            # the link is alive only while the controller is heard: a frame that is not
            # signed with the session's key is anybody's
            self.last_rx = now
            if kind == pl.ACK and body:
                if self.sender.ack(body[0]):
                    nxt = self.sender.due(int(now * 1000))
                    if nxt is not None:      # the next queued frame, without waiting
                        writes.append(self._after_held(nxt))
            elif kind == pl.BEAT and len(body) >= 4:
                self.offset(now, self.unwrap(pl.unpack(pl.BEAT, body)["t_ms"]))
            elif kind == pl.STATS and len(body) >= 6:
                self._pad_stats(pl.unpack(pl.STATS, body))
            elif kind == pl.EDGE and seq and self.connected:
                edge = self._edge(seq, body, now, link_now, writes)
                if edge is not None:
                    edges.append(edge)
        return writes, edges

    def _hello(self, body: bytearray, now: float) -> None:
        # A reply is taken only while this session's hello waits for one, and its key only
        # when its proof holds (the pairing secret's HMAC of our challenge and the whole
        # reply, the controller's nonce in it): a reply played again or made up mid-session
        # changes nothing. The key is made before the frames behind the reply are read: the
        # controller signs everything after it.
        if self.hello_seen and self.key is not None or self.connected:
            self.stats["bad_frames"] += 1
            return
        hello = pl.unpack(pl.HELLO_REPLY, body)
        if self.hello_seen and hello.get("protocol") != pl.PROTOCOL:
            return                       # the first reply said why it will not do
        self.hello = bytes(body)
        self.hello_seen = True
        if (not self.secret or hello.get("protocol") != pl.PROTOCOL or "proof" not in hello
                or hello["proof"] != pl.reply_proof(self.secret, self.challenge, body)):
            return                       # accept_hello says why (an unpaired table: no key)
        self.key = pl.session_key(self.secret, self.challenge, hello["boot"], hello["nonce"])
        self.sender.rekey(self.key)
        self.last_rx = now

    def _pad_stats(self, got: dict[str, int]) -> None:
        # (how many reports came: a test waits on the controller's own cadence, not a clock)
        self.stats["pad_reports"] += 1
        # an older firmware sends fewer at the end
        for field, key in (("bad", "pad_bad_frames"), ("resends", "pad_resends"),
                           ("dropped", "pad_dropped"), ("work_us", "pad_work_us"),
                           ("io_us", "pad_io_us")):
            if field in got:
                self.stats[key] = got[field]

    def _edge(self, seq: int, body: bytearray, now: float, link_now: float,
              writes: list[bytes | bytearray]) -> PadEdge | None:
        if not self.within_rate(now):
            return None               # not acknowledged: the controller sends it again
        fresh = self.receiver.fresh(seq)
        edge = pl.unpack(pl.EDGE, body)
        good = "t_ms" in edge and 1 <= edge["seat"] <= self.seats
        ack = self._ack_edge(seq, fresh, good and not edge["pressed"], link_now)
        if ack is not None:
            writes.append(ack)
        if not (fresh and good):
            return None
        if edge["pressed"]:
            self.down.add(edge["seat"])
        else:
            self.down.discard(edge["seat"])
        return PadEdge(edge["seat"], bool(edge["pressed"]),
                       self.pad_time(now, self.unwrap(edge["t_ms"])))

    def within_rate(self, now: float) -> bool:
        """At most EDGE_RATE edges a second (with a burst of as many): twelve players
        tapping fast stay far below it. An edge over the rate is not acknowledged (the
        controller sends it again later) and counted; a flood never reaches the journal."""
        self._tokens = min(EDGE_RATE, self._tokens + (now - self._tokens_at) * EDGE_RATE)
        self._tokens_at = now
        if self._tokens < 1:
            self.stats["flooded"] = self.stats.get("flooded", 0) + 1
            return False
        self._tokens -= 1
        return True

    # -- the pad's clock -----------------------------------------------------------------
    def unwrap(self, pad_ms: int) -> int:
        """The pad's ticks_ms wraps every 2**30 ms (12.4 days): take each reading as the one
        nearest the last, so a table left on for two weeks keeps its holds and its order."""
        last = self.pad_last
        if last is None:
            value = pad_ms
        else:
            ahead = (pad_ms - last) % PAD_TICKS
            value = last + ahead if ahead < PAD_TICKS // 2 else last + ahead - PAD_TICKS
        self.pad_last = max(value, last if last is not None else value)
        return value

    def offset(self, now: float, pad_ms: int) -> None:
        """A heartbeat's reading: the Pi's time minus the pad's (the smallest recent one had
        the least delay)."""
        offsets = self.offsets
        offset = now - pad_ms / 1000
        if offsets and abs(offset - min(o for _, o in offsets)) > 1.0:
            offsets.clear()        # the pad's clock jumped (it restarted, or ticks wrapped)
        offsets.append((now, offset))
        while offsets and now - offsets[0][0] > 10:
            offsets.popleft()

    def pad_time(self, now: float, pad_ms: int) -> float:
        """A pad time on the Pi's clock (never later than now)."""
        offsets = self.offsets
        if not offsets:
            return now
        t = pad_ms / 1000 + min(o for _, o in offsets)
        return min(t, now)
