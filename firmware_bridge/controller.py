# The pad controller's firmware: scans the buttons, talks to the Pi, draws the rings.
# MicroPython for a Raspberry Pi Pico. The hardware comes from `machine` and `neopixel`
# (shimmed in the tests, so this same file runs in a real MicroPython interpreter there).

import sys
import time

import select
import machine
import micropython
from machine import WDT, Pin

try:
    from machine import mem32        # the RP2040's registers: every pin's level in one read
except ImportError:
    mem32 = None
GPIO_IN = 0xD0000004                 # SIO: the input level of GPIO 0-29, one bit each
from neopixel import NeoPixel

import fwconfig as cfg
import padlink as pl
import ringdraw as rd
from pixelout import PixelOut
from edges import ROOM, Edges
from edges import scan as scan_edges
from edges import scan_asm

try:
    PROTOCOL = cfg.PROTOCOL          # a test may pretend to be another firmware
except AttributeError:
    PROTOCOL = pl.PROTOCOL

try:
    from pairing import SECRET       # written by `table-app firmware install`
except ImportError:
    SECRET = getattr(cfg, "SECRET", b"")

# the kinds of frame, as plain globals (one lookup, not a module's and then its attribute)
ACK, BEAT, HELLO, SHOW, BRIGHT = pl.ACK, pl.BEAT, pl.HELLO, pl.SHOW, pl.BRIGHT

# every ack is this long on the wire (COBS of 4 bytes and the MAC's 4)
ACK_LEN = len(pl.ack_frame(1, bytes(8)))

ticks_ms = time.ticks_ms
ticks_us = time.ticks_us
ticks_diff = time.ticks_diff
SEATS = cfg.SEATS
RING = cfg.RING
REFRESH_MS = getattr(cfg, "REFRESH_MS", 1000)   # an older fwconfig has none
# How many bytes may go to the Pi between two times it is heard. A write into a full USB
# transmit buffer waits up to 500 ms on the rp2 port (MICROPY_HW_USB_CDC_TX_TIMEOUT), and the
# buffer fills when the table app hangs with the port open. That buffer holds 256 bytes
# (tinyusb's CDC FIFO at full speed), so while less than that was written since the Pi last
# spoke, a write never waits; past it the controller holds back (beats and stats are skipped,
# edges stay queued in `edges`, which sends them again once the Pi is back).
LINK_ROOM = 192


def board_id():
    """The name this controller gives the Pi: `board.py`'s BOARD if a club wrote one, else
    the chip's unique id (its flash's), in hex; no space in it (the hello's version ends
    at the first)."""
    try:
        from board import BOARD
        name = str(BOARD)
    except ImportError:
        try:
            name = "".join("%02x" % b for b in machine.unique_id())
        except AttributeError:
            name = ""
    return name.replace(" ", "-")[:24]


def _random(n):
    try:
        import os
        return bytes(os.urandom(n))
    except (ImportError, AttributeError):
        return bytes(n)


def boot_id():
    """This boot's id: random where the chip gives randomness, and unlike any boot's before
    even where it does not (an emulated RP2040's is the same at every start): a count of the
    boots, kept on the flash, goes into it."""
    import hashlib
    boots = 0
    if sys.platform == "rp2":        # (the unix port's urandom is the system's)
        try:
            with open(BOOTS_FILE) as f:
                boots = int(f.read() or 0) + 1
        except (OSError, ValueError):
            boots = 1
        try:
            with open(BOOTS_FILE, "w") as f:
                f.write("%d\n" % boots)
        except OSError:
            pass
    return hashlib.sha256(_random(8) + pl.p32(boots) + pl.p32(ticks_us())).digest()[:4]


BOOTS_FILE = "boots.txt"


class Controller:
    def __init__(self, link_in, link_out):
        self.link_in = link_in
        self.link_out = link_out
        self.send = link_out.write                # (made once: the edges' hot path)
        self.poller = select.poll()
        self.poller.register(link_in, select.POLLIN)
        # the pins' pull-ups on; from here they are read all at once (GPIO_IN) by `edges`
        self.buttons = [Pin(p, Pin.IN, Pin.PULL_UP) for p in cfg.BUTTON_PINS]
        # the Pico reads GPIO_IN in machine code; the unix port's shim hands its levels in
        self.pico = sys.platform == "rp2"
        self.edges = Edges(cfg.BUTTON_PINS, cfg.MIN_PRESS_MS, cfg.DEBOUNCE_MS, self.pico)
        self.st, self.frames, self.views = self.edges.st, self.edges.slots, self.edges.views
        pins = getattr(cfg, "RING_PINS", None) or (cfg.PIXEL_PIN,)
        self.chain = len(pins) != cfg.SEATS
        if not self.chain and sys.platform == "rp2":
            # a star on a Pico: every ring at once by the PIO, fed by DMA (pioring.py); the
            # one core only draws
            from pioring import PioRings
            self.out = PioRings(pins, 3 * cfg.RING)
            self.back = [bytearray(3 * cfg.RING) for _ in pins]
        else:
            if self.chain:
                nps = [NeoPixel(Pin(pins[0], Pin.OUT), cfg.SEATS * cfg.RING)]
            else:
                nps = [NeoPixel(Pin(p, Pin.OUT), cfg.RING) for p in pins]
            self.back = [bytearray(len(np.buf)) for np in nps]
            self.out = PixelOut(nps, getattr(cfg, "PIXEL_WAIT", None))
        self.last_refresh = ticks_ms()
        self.ring_of = list(range(cfg.SEATS))     # which ring shows each seat (ORDER)
        self.pics = [bytes([rd.DARK])] * cfg.SEATS
        self.anim = [False] * cfg.SEATS          # rings that move by themselves (countdowns)
        self.shown_at = [0] * cfg.SEATS
        self.todo = list(range(cfg.SEATS))       # rings whose pixels must be worked out again
        self.animating = False                    # any(self.anim), kept up to date
        # each seat's ring as drawn, at full brightness, in the strip's byte order
        self.grb = [bytearray(3 * cfg.RING) for _ in range(cfg.SEATS)]
        self.rot = [0] * cfg.SEATS                # how each ring is turned (pads.rotation)
        self.level = 256                          # the current budget's share, of 256
        self.lut = bytearray(256)                 # each channel value under cap and level
        self.lut_for = -1                         # the cap and level the table was made for
        self.blanked = True
        self.cap = 255
        self.budget = cfg.BUDGET_MA
        self.receiver = pl.Receiver()
        self.decoder = pl.Decoder()
        self.inbox = bytearray(256)               # what the link brought, a byte at a time
        self.inview = memoryview(self.inbox)
        self.slots = [self.inview[i:i + 1] for i in range(256)]
        self.acks = []
        self.st[ROOM] = LINK_ROOM                 # bytes that may be written (LINK_ROOM)
        try:
            import os
            self.bulk = os.getenv("PADLINK_NONBLOCKING") == "1"
        except (ImportError, AttributeError):
            self.bulk = False
        self.zeros = bytes(len(self.back[0]))     # every strip is as long
        # the heartbeat's and the stats' bodies, filled in place field by field (pack made
        # them anew each time: with their frames 1.7 ms every 400 ms, the scan's longest
        # stall)
        self.beat_body = bytearray(4)
        self.stats_body = bytearray(14)
        # what each ring is counted for in the current budget (ringdraw.allowance): never
        # what a private picture shows, which would dim every ring by it
        self.sums = [rd.allowance(b"", cfg.RING)] * cfg.SEATS
        self.work_us = 0                          # time spent doing something (STATS)
        self.io_us = 0                            # system calls apart from it (see step)
        now = ticks_ms()
        self.started = now
        self.faulty = True                        # faults in play may be counted (main.py)
        self.last_host = now
        self.now = now                            # the step's time, for frames being taken
        self.take = self.handle                   # made once: a bound method is an allocation
        # the session's MAC key, made at each hello; until the first, every frame but a
        # hello is dropped (padlink: the session's MAC)
        self.key = None
        #: the hello last answered, till the Pi signs with its key: [key, challenge, the
        #: hello's seq, the reply's frame, the step it was last answered in]
        self.pending = None
        self.pi_beat = b""                        # the Pi's heartbeat this session, as sent
        self.host_alive = False
        self.last_beat = now
        self.stats_due = False                    # the stats follow each heartbeat
        self.last_frame = now
        self.dirty = True
        self.wdt = WDT(timeout=cfg.WATCHDOG_MS)
        # who this boot is: the Pi keeps its sequence and clock state across a cable cut,
        # and drops them when the controller restarted
        self.boot = boot_id()
        self.hellos = 0                           # hellos answered this boot (the nonces)
        #: this board's id, said in every hello: a big table's two or three controllers are
        #: told apart by it, in whichever USB port each is (found at the first hello)
        self.board = None

    # -- buttons --------------------------------------------------------------------------
    def scan(self, now):
        # the unix port's scan: its shimmed pins' levels handed to the same machine code,
        # and its work timed here (the Pico's is timed inside, where a call costs nothing)
        bits = mem32[GPIO_IN]
        seq = self.edges.seq()
        began = ticks_us()
        k = scan_edges(self.st, bits, now, self.frames)
        if self.edges.seq() != seq:
            self.work_us += ticks_diff(ticks_us(), began)
        return k

    # -- the link -------------------------------------------------------------------------
    def write(self, data):
        st = self.st
        if len(data) > st[ROOM]:
            return               # it could wait on a full buffer: see LINK_ROOM
        st[ROOM] -= len(data)
        began = ticks_us()
        try:
            self.link_out.write(data)
        except OSError:
            pass                 # nobody listening: the Pi will resend what matters
        self.io_us += ticks_diff(ticks_us(), began)

    @micropython.native
    def read(self, now):
        # Take whatever is waiting, then decode it in one go. On the Pico a read of stdin
        # waits for as many bytes as it asks, so it asks for one at a time (each a copy out
        # of the USB buffer); where the link is a non-blocking file (the unix port in the
        # simulator says so in PADLINK_NONBLOCKING) one read takes everything waiting.
        n = 0
        began = ticks_us()
        if self.bulk:
            try:
                got = self.link_in.read(256)    # non-blocking: what waits, or None
            except OSError:
                got = None
            n = len(got) if got else 0
        else:
            # the usual turn: nothing waits. ipoll makes no list (poll makes one a call: on
            # the Pico's core an allocation costs as much as the rest of the turn's reading)
            waiting = False
            for _ in self.poller.ipoll(0):
                waiting = True
                break
            if not waiting:
                return False
            # one byte at a time into a buffer made once, through one-byte views of it made
            # once: a read(1), a bytes object a byte and a growing inbox cost the Pico's core
            # some 8,000 cycles a byte, about 2 ms for a picture and its ack
            slots = self.slots
            read_into = self.link_in.readinto
            ipoll = self.poller.ipoll
            while n < 256:
                try:
                    if not read_into(slots[n]):
                        break
                except OSError:
                    break
                n += 1
                waiting = False
                for _ in ipoll(0):
                    waiting = True
                    break
                if not waiting:
                    break
            # as bytes: find() and startswith() are bytes methods on every port, a
            # bytearray's only on some builds
            got = bytes(self.inview[:n]) if n else None
        if not n:
            return False
        self.st[ROOM] = LINK_ROOM        # the Pi is there: what was sent has been taken
        self.io_us += ticks_diff(ticks_us(), began)
        dec = self.decoder
        start = 0
        if self.host_alive and not dec.buf and not dec.overflow:
            # frames known byte for byte, on a frame boundary, need no decoding: the ack of
            # the edge in flight (every edge has one; a release's comes with the ring's new
            # picture behind it), or the Pi's heartbeat alone (the loop's upkeep, not a
            # press's work: False)
            head = self.edges.head()
            if head:
                ack = pl.ack_frame(head, self.key)
                if got.startswith(ack):
                    self.edges.ack(head)
                    self.last_host = now
                    start = len(ack)
            if not start and got == self.pi_beat:
                self.last_host = now
                return False
        if start < n:
            self.now = now
            dec.feed(got, self.take, start)
        return True

    @micropython.native
    def handle(self, kind, seq, body):
        # the frames of play (acks, heartbeats, pictures) in machine code; the rest, rare,
        # in `setup` (bytecode): on the RP2040 (armv6m) a native function's branches reach
        # only so far, and one function for every kind is too big to load
        if kind == HELLO:
            self.hello(seq, body)    # changes nothing until a frame under its key comes
            return
        raw = body
        body = pl.opened(self.key, kind, seq, raw)
        if body is None:
            body = self.proven(kind, seq, raw) if self.pending else None
            if body is None:
                self.decoder.bad += 1    # its MAC is wrong (forged, or of another session)
                return
        now = self.now
        self.last_host = now
        if not self.host_alive:
            self.host_alive = True
            self.dirty = True
        if kind == ACK:
            if body:
                self.edges.ack(body[0])
            return
        if kind == BEAT or not seq:
            return
        # acknowledged after this step's drawing, all in one write: an ACK is not urgent (the
        # Pi resends after 30 ms), the ring is. A resend that came in the same step (the Pi
        # sends its hello every 30 ms while the controller boots) is taken and answered once:
        # answering each piled up more acks than the link's room (LINK_ROOM) in one write,
        # which was then held back every time, so nothing more was ever acknowledged
        if seq in self.acks:
            return
        self.acks.append(seq)
        if not self.receiver.fresh(seq):
            return               # a resend of what was already done
        if kind == SHOW and len(body) >= 2 and 1 <= body[0] <= SEATS:
            s = body[0] - 1
            body[0:1] = b""             # the picture is the rest: moved down in place, no copy
            pic = body
            self.pics[s] = pic
            self.sums[s] = rd.allowance(pic, RING)
            moving = rd.animated(pic, RING)
            if moving != self.anim[s]:
                self.anim[s] = moving
                self.animating = any(self.anim)
            self.shown_at[s] = now
            if s not in self.todo:          # two pictures in one step: drawn once, the last
                self.todo.append(s)
            self.dirty = True
        else:
            self.setup(kind, body)

    def hello(self, seq, body):
        # A Pi greets us (a new Pi, or the same one after a cut): answer who we are with a
        # fresh nonce of ours, the reply proven under the pairing secret, and acknowledge the
        # hello under the key the two make. Nothing else changes yet: the session in use
        # goes on until a frame signed with the new key comes (`proven`), which only a Pi
        # that holds the secret and saw this reply can make. A hello played again, or made
        # up, costs a reply and nothing more.
        challenge = pl.unpack(pl.HELLO, body).get("challenge", b"")
        pending = self.pending
        if pending is None or pending[1] != challenge:
            # never the same twice, randomness or not: this boot's id and its count of
            # hellos go into it
            self.hellos += 1
            import hashlib
            nonce = hashlib.sha256(_random(8) + self.boot + pl.p32(self.hellos)
                                   + pl.p32(ticks_us())).digest()[:8]
            key = pl.session_key(SECRET, challenge, self.boot, nonce)
            if self.board is None:
                self.board = board_id()
            reply = pl.frame(pl.HELLO_REPLY, 0, pl.hello_reply(
                SECRET, challenge, PROTOCOL, cfg.SEATS, cfg.RING, self.boot, nonce,
                cfg.FIRMWARE + " " + self.board))
            pending = self.pending = [key, challenge, seq, reply, -1]
        elif pending[4] == self.now:
            return               # resends read in one step: answered once
        pending[2] = seq
        pending[4] = self.now
        self.write(pending[3] + pl.frame(ACK, 0, bytes([seq]), pending[0]))

    def proven(self, kind, seq, raw):
        # a frame signed with the key of the hello last answered: the Pi took the reply, and
        # its session is ours from here on; frames older than its hello are never taken
        key, _, hello_seq, _, _ = self.pending
        body = pl.opened(key, kind, seq, raw)
        if body is None:
            return None
        self.pending = None
        self.key = key
        self.receiver.reset(hello_seq)
        self.edges.restart()
        self.edges.rekey(key)
        self.pi_beat = bytes(pl.frame(BEAT, 0, b"", key))
        return body

    def setup(self, kind, body):
        # how the table is set up: brightness, which ring is whose, how each is turned, and
        # the restart for an update
        if kind == BRIGHT and len(body) >= 3:
            got = pl.unpack(BRIGHT, body)
            self.cap = got["cap"]
            self.budget = got["budget_ma"]
            self.todo = list(range(SEATS))
            self.dirty = True
        elif kind == pl.ORDER and len(body) >= cfg.SEATS:
            order = [b - 1 for b in body[:cfg.SEATS]]
            if sorted(order) == list(range(cfg.SEATS)):     # each ring once, or nothing
                self.ring_of = order
                self.blanked = True                           # every ring anew
                self.todo = list(range(SEATS))
                self.dirty = True
        elif kind == pl.ROTATE:
            for i in range(min(len(body), cfg.SEATS)):
                self.rot[i] = body[i] % cfg.RING
            self.todo = list(range(SEATS))
            self.dirty = True
        elif kind == pl.UPDATE and bytes(body) == pl.UPDATE_BODY:
            self.safe_mode()

    def safe_mode(self):
        # The watchdog of an RP2040 cannot be stopped, and mpremote cannot reach the REPL past
        # a running controller: so leave a flag and restart. main.py sees the flag, removes it
        # and stays at the REPL with no watchdog; the update ends with a reset into the new
        # firmware, and a power cut before that simply starts this one again.
        self.dark()
        self.out.flush()
        with open(pl.SAFE_MODE_FLAG, "w") as f:
            f.write("update\n")
        machine.reset()

    def pump(self, now):
        if ticks_diff(now, self.last_beat) >= cfg.BEAT_MS:
            self.last_beat = now
            if self.faulty and ticks_diff(now, self.started) >= pl.HEALTHY_MS:
                self.forget_faults()
            pl.put(self.beat_body, 0, 4, now)
            self.write(pl.frame(BEAT, 0, self.beat_body, self.key))
            self.stats_due = True
        elif self.stats_due and ticks_diff(now, self.last_beat) >= cfg.BEAT_MS // 2:
            # the stats half a beat later: the two together were the scan's longest step
            self.stats_due = False
            b = self.stats_body
            pl.put(b, 0, 2, self.decoder.bad)
            resends, dropped, edge_us = self.edges.counts()
            pl.put(b, 2, 2, resends)
            pl.put(b, 4, 2, dropped)
            pl.put(b, 6, 4, self.work_us + edge_us)
            pl.put(b, 10, 4, self.io_us)
            self.write(pl.frame(pl.STATS, 0, b, self.key))

    def forget_faults(self):
        # up long enough: the faults in play before (main.py counts them) are behind us
        self.faulty = False
        try:
            import os
            os.remove(pl.FAULTS_FILE)
        except (ImportError, AttributeError, OSError):
            pass

    # -- the rings ------------------------------------------------------------------------
    def dark(self):
        # zeros posted as they are (a loop a byte into the back buffers, in bytecode,
        # stalled the scan 3.9 ms when the Pi went away); the back buffers are drawn whole
        # again after it (`blanked`)
        zeros = self.zeros
        for i in range(len(self.back)):
            self.out.post(i, zeros)

    @micropython.native
    def render(self, now):
        ring, seats = RING, SEATS
        if not self.host_alive:
            self.dark()                     # a table without its Pi shows no secret
            self.blanked = True
            return
        sums, anim, grb = self.sums, self.anim, self.grb
        # only the rings that changed or move by themselves are drawn again
        changed = self.todo
        if self.animating:
            for s in range(seats):
                if anim[s] and s not in changed:
                    changed.append(s)
        for s in changed:
            t = ticks_diff(now, self.shown_at[s]) / 1000 if anim[s] else 0.0
            rd.draw(self.pics[s], t, ring, self.rot[s], grb[s])
        cap = self.cap
        level = rd.budget_level(sum(sums) * cap // 255, self.budget)
        if level != self.level or self.blanked:
            changed = range(seats)              # every pixel moves: write them all
        self.level = level
        self.blanked = False
        full = cap == 255 and level == 256
        if not full and self.lut_for != cap * 512 + level:
            rd.shade_table(self.lut, cap, level)
            self.lut_for = cap * 512 + level
        chain = self.chain
        n = ring * 3
        for s in changed:
            r = self.ring_of[s]
            # a ring's bytes (green, red, blue) into its strip's back buffer: a copy, or a
            # lookup a byte when dimmed
            buf = self.back[0] if chain else self.back[r]
            j = r * n if chain else 0
            if full:
                buf[j:j + n] = grb[s]
            else:
                rd.shade(grb[s], buf, j, n, self.lut)
            if not chain:
                self.out.post(r, buf)
        if chain and changed:
            self.out.post(0, self.back[0])
        self.todo.clear()

    @micropython.native
    def step(self):
        # work_us (sent in STATS) is the controller's own cost of a press: making its edge,
        # taking the frames that come back and acknowledging them, drawing the ring and
        # handing it to the pixel writer. The system calls that stand in for the Pico's
        # hardware are io_us, sent beside it: reading and writing the link (on the Pico a copy
        # into the USB buffer) and, in the unix port, waking the pixel writer's thread (the
        # Pico's core 1 needs no waking). The scan's pin reads and the heartbeats are the
        # loop, not a press's work.
        now = ticks_ms()
        self.wdt.feed()
        # a tap's edge: found, framed and queued in one call (fastmac.scan_edges, assembly;
        # edges.scan in viper elsewhere), and its frame (or the one waiting for its ack,
        # when that is late) handed to USB at once. Not timed as link time: two ticks_us
        # calls would cost as much as the write
        k = scan_asm(self.st, now, -1) if self.pico else self.scan(now)
        if k:
            try:
                self.send(self.views[k - 1])
            except OSError:
                pass             # nobody listening: sent again after RESEND_MS
        began, io = ticks_us(), self.io_us
        if self.read(now):
            self.work_us += ticks_diff(ticks_us(), began) - (self.io_us - io)
        if self.host_alive and ticks_diff(now, self.last_host) > cfg.HOST_TIMEOUT_MS:
            self.host_alive = False
            self.dirty = True
        self.pump(now)
        # a new picture is drawn at once; animations are redrawn every FRAME_MS
        if self.dirty or (ticks_diff(now, self.last_frame) >= cfg.FRAME_MS
                          and self.animating):
            self.last_frame = now
            self.dirty = False
            began, woke = ticks_us(), self.out.wake_us
            self.render(now)
            self.out.kick()             # on the PIO: the bit planes made, the DMA started
            woke = self.out.wake_us - woke
            self.io_us += woke
            self.work_us += ticks_diff(ticks_us(), began) - woke
        elif ticks_diff(now, self.last_refresh) >= REFRESH_MS:
            # a still ring is sent again now and then: a pad plugged in (or swapped) shows
            # its picture within a second, not the colours it latched when it got power
            self.last_refresh = now
            self.out.refresh()
            self.out.kick()
        else:
            self.out.kick()             # a frame that waited for the last one to go out
        if self.acks:
            began, io = ticks_us(), self.io_us
            acks = self.acks
            room = self.st[ROOM]
            if ACK_LEN * len(acks) > room:
                del acks[room // ACK_LEN:]          # what fits; the Pi sends the rest again
            if acks:
                key = self.key
                self.write(pl.ack_frame(acks[0], key) if len(acks) == 1
                           else b"".join([pl.ack_frame(q, key) for q in acks]))
            acks.clear()
            self.work_us += ticks_diff(ticks_us(), began) - (self.io_us - io)


def run():
    try:
        import micropython
        micropython.kbd_intr(-1)        # a 0x03 on the link is data, not Ctrl-C
    except (ImportError, AttributeError):
        pass
    c = Controller(sys.stdin.buffer, sys.stdout.buffer)
    while True:
        c.step()
        time.sleep_us(50)               # the loop runs well over 1 kHz
