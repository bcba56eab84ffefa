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

try:
    PROTOCOL = cfg.PROTOCOL          # a test may pretend to be another firmware
except AttributeError:
    PROTOCOL = pl.PROTOCOL

try:
    from pairing import SECRET       # written by `table-app firmware install`
except ImportError:
    SECRET = getattr(cfg, "SECRET", b"")

ticks_ms = time.ticks_ms
ticks_us = time.ticks_us
ticks_diff = time.ticks_diff
SEATS = cfg.SEATS
RING = cfg.RING


class Controller:
    def __init__(self, link_in, link_out):
        self.link_in = link_in
        self.link_out = link_out
        self.poller = select.poll()
        self.poller.register(link_in, select.POLLIN)
        self.buttons = [Pin(p, Pin.IN, Pin.PULL_UP) for p in cfg.BUTTON_PINS]
        self.down = [False] * cfg.SEATS
        self.lock_until = [0] * cfg.SEATS
        self.changed_at = [None] * cfg.SEATS      # when a pin first read otherwise
        pins = getattr(cfg, "RING_PINS", None) or (cfg.PIXEL_PIN,)
        if len(pins) == cfg.SEATS:
            # a star: each ring on its own pin, written alone (0.36 ms for 12 pixels on a
            # Pico, where the whole chain took 4.4 ms)
            self.nps = [NeoPixel(Pin(p, Pin.OUT), cfg.RING) for p in pins]
            self.chain = False
        else:
            self.nps = [NeoPixel(Pin(pins[0], Pin.OUT), cfg.SEATS * cfg.RING)]
            self.chain = True
        # each strip's bytes are drawn here, then handed to the writer on core 1
        self.back = [bytearray(len(np.buf)) for np in self.nps]
        self.out = PixelOut(self.nps, getattr(cfg, "PIXEL_WAIT", None))
        self.ring_of = list(range(cfg.SEATS))     # which ring shows each seat (ORDER)
        self.pics = [bytes([rd.DARK])] * cfg.SEATS
        self.anim = [False] * cfg.SEATS          # rings that move by themselves (countdowns)
        self.shown_at = [0] * cfg.SEATS
        self.stale = [True] * cfg.SEATS          # rings whose pixels must be worked out again
        self.px = [[(0, 0, 0)] * cfg.RING for _ in range(cfg.SEATS)]
        self.rot = [0] * cfg.SEATS                # how each ring is turned (pads.rotation)
        self.scale = 1.0
        self.blanked = True
        self.cap = 255
        self.budget = cfg.BUDGET_MA
        self.sender = pl.Sender()
        self.receiver = pl.Receiver()
        self.decoder = pl.Decoder()
        self.inbox = bytearray()
        self.acks = []
        try:
            import os
            self.bulk = os.getenv("PADLINK_NONBLOCKING") == "1"
        except (ImportError, AttributeError):
            self.bulk = False
        self.sums = [0] * cfg.SEATS               # each ring's channel sum, kept up to date
        self.work_us = 0                          # time spent doing something (STATS)
        self.io_us = 0                            # system calls apart from it (see step)
        now = ticks_ms()
        self.last_host = now
        self.host_alive = False
        self.last_beat = now
        self.last_frame = now
        self.dirty = True
        self.wdt = WDT(timeout=cfg.WATCHDOG_MS)
        # who this boot is: the Pi keeps its sequence and clock state across a cable cut,
        # and drops them when the controller restarted
        try:
            import os
            self.boot = bytes(os.urandom(4))
        except (ImportError, AttributeError):
            self.boot = pl.p32(ticks_ms() ^ 0x5A5A5A5A)

    # -- buttons --------------------------------------------------------------------------
    @micropython.native
    def scan(self, now):
        # A press counts once the pin has read pressed for MIN_PRESS_MS, stamped when it
        # began: a spike of noise on a long cable never leaves the controller (a tap is taken
        # at its release, so this delays no answer). A release counts at once; after any edge
        # its bounces are locked out for DEBOUNCE_MS, and a change seen meanwhile is stamped
        # when it was first seen.
        edges = False
        # all twelve buttons in one register read, and no list made for them: this runs a
        # thousand times a second, and every allocation brings the garbage collector nearer
        bits = mem32[GPIO_IN] if mem32 is not None else -1
        pins = cfg.BUTTON_PINS
        for i in range(cfg.SEATS):
            if bits >= 0:
                pressed = not (bits >> pins[i]) & 1
            else:
                pressed = self.buttons[i].value() == 0
            if pressed == self.down[i]:
                self.changed_at[i] = None
                continue
            at = self.changed_at[i]
            if at is None:
                at = self.changed_at[i] = now
            if ticks_diff(now, self.lock_until[i]) < 0:
                continue
            if pressed and ticks_diff(now, at) < cfg.MIN_PRESS_MS:
                continue
            began = ticks_us()
            self.changed_at[i] = None
            self.down[i] = pressed
            self.lock_until[i] = time.ticks_add(now, cfg.DEBOUNCE_MS)
            self.sender.add(pl.EDGE, bytes([i + 1, 1 if pressed else 0]) + pl.p32(at))
            self.work_us += ticks_diff(ticks_us(), began)
            edges = True
        return edges

    # -- the link -------------------------------------------------------------------------
    def write(self, data):
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
        got = self.inbox
        n = 0
        began = ticks_us()
        if self.bulk:
            try:
                b = self.link_in.read(256)   # non-blocking: what waits, or None
            except OSError:
                b = None
            if b:
                got += b
                n = len(b)
        while not self.bulk and n < 256 and self.poller.poll(0):
            try:
                b = self.link_in.read(1)
            except OSError:
                break
            if not b:
                break
            got += b
            n += 1
        if not n:
            return False
        self.io_us += ticks_diff(ticks_us(), began)
        frames = self.decoder.feed(got)
        got[:] = b""
        for kind, seq, body in frames:
            self.handle(kind, seq, body, now)
        return True

    @micropython.native
    def handle(self, kind, seq, body, now):
        self.last_host = now
        if not self.host_alive:
            self.host_alive = True
            self.dirty = True
        if kind == pl.ACK:
            if body:
                self.sender.ack(body[0])
            return
        if kind == pl.BEAT or not seq:
            return
        # acknowledged after this step's drawing, all in one write: an ACK is not urgent (the
        # Pi resends after 30 ms), the ring is
        self.acks.append(seq)
        if kind == pl.HELLO:
            # a connection (a new Pi, or the same one after a cut): frames older than this
            # hello are never taken again; answer who we are, and prove the pairing
            self.receiver.reset(seq)
            self.sender.restart()
            self.write(pl.frame(pl.HELLO_REPLY, 0,
                                bytes([PROTOCOL, cfg.SEATS, cfg.RING]) + self.boot
                                + pl.proof(SECRET, body[1:9]) + cfg.FIRMWARE.encode()))
            return
        if not self.receiver.fresh(seq):
            return               # a resend of what was already done
        if kind == pl.SHOW and len(body) >= 2 and 1 <= body[0] <= cfg.SEATS:
            pic = bytes(body[1:])
            self.pics[body[0] - 1] = pic
            self.anim[body[0] - 1] = rd.animated(pic)
            self.shown_at[body[0] - 1] = now
            self.stale[body[0] - 1] = True
            self.dirty = True
        elif kind == pl.BRIGHT and len(body) >= 3:
            self.cap = body[0]
            self.budget = pl.u16(body, 1)
            self.stale = [True] * cfg.SEATS
            self.dirty = True
        elif kind == pl.ORDER and len(body) >= cfg.SEATS:
            order = [b - 1 for b in body[:cfg.SEATS]]
            if sorted(order) == list(range(cfg.SEATS)):     # each ring once, or nothing
                self.ring_of = order
                self.blanked = True                           # every ring anew
                self.stale = [True] * cfg.SEATS
                self.dirty = True
        elif kind == pl.ROTATE:
            for i in range(min(len(body), cfg.SEATS)):
                self.rot[i] = body[i] % cfg.RING
            self.stale = [True] * cfg.SEATS
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
        frame = self.sender.due(now)
        if frame is not None:
            began, io = ticks_us(), self.io_us
            self.write(frame)
            self.work_us += ticks_diff(ticks_us(), began) - (self.io_us - io)
        if ticks_diff(now, self.last_beat) >= cfg.BEAT_MS:
            self.last_beat = now
            self.write(pl.frame(pl.BEAT, 0, pl.p32(now)))
            stats = pl.p16(self.decoder.bad & 0xFFFF) + pl.p16(self.sender.resends & 0xFFFF)
            self.write(pl.frame(pl.STATS, 0, stats + pl.p16(self.sender.dropped & 0xFFFF)
                                + pl.p32(self.work_us & 0xFFFFFFFF)
                                + pl.p32(self.io_us & 0xFFFFFFFF)))

    # -- the rings ------------------------------------------------------------------------
    def dark(self):
        for i in range(len(self.nps)):
            back = self.back[i]
            for j in range(len(back)):
                back[j] = 0
            self.out.post(i, back)

    @micropython.native
    def render(self, now):
        ring, seats = RING, SEATS
        if not self.host_alive:
            self.dark()                     # a table without its Pi shows no secret
            self.blanked = True
            return
        cap = self.cap / 255
        changed = []
        sums, stale, anim = self.sums, self.stale, self.anim
        for s in range(seats):
            # only the rings that changed or move by themselves are worked out again, and
            # only their pixel sums (for the current budget)
            if stale[s] or anim[s]:
                t = ticks_diff(now, self.shown_at[s]) / 1000
                px = rd.render(self.pics[s], t, ring, self.rot[s], cap)
                self.px[s] = px
                stale[s] = False
                changed.append(s)
                total = 0
                for c in px:
                    total += c[0] + c[1] + c[2]
                sums[s] = total
        scale = rd.budget_scale(sum(sums), self.budget)
        if scale != self.scale or self.blanked:
            changed = range(seats)              # every pixel moves: write them all
        self.scale = scale
        self.blanked = False
        dim = scale < 1.0
        chain = self.chain
        for s in changed:
            r = self.ring_of[s]
            # a ring's bytes straight into its strip's back buffer, in the WS2812's
            # green-red-blue order (no method call a pixel on the hot path)
            buf = self.back[0] if chain else self.back[r]
            j = r * ring * 3 if chain else 0
            px = self.px[s]
            for k in range(ring):
                c = px[k]
                if dim:
                    c = (int(c[0] * scale), int(c[1] * scale), int(c[2] * scale))
                buf[j] = c[1]
                buf[j + 1] = c[0]
                buf[j + 2] = c[2]
                j += 3
            if not chain:
                self.out.post(r, buf)
        if chain and changed:
            self.out.post(0, self.back[0])

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
        self.scan(now)
        began, io = ticks_us(), self.io_us
        if self.read(now):
            self.work_us += ticks_diff(ticks_us(), began) - (self.io_us - io)
        if self.host_alive and ticks_diff(now, self.last_host) > cfg.HOST_TIMEOUT_MS:
            self.host_alive = False
            self.dirty = True
        self.pump(now)
        # a new picture is drawn at once; animations are redrawn every FRAME_MS
        if self.dirty or (ticks_diff(now, self.last_frame) >= cfg.FRAME_MS
                          and any(self.anim)):
            self.last_frame = now
            self.dirty = False
            began, woke = ticks_us(), self.out.wake_us
            self.render(now)
            woke = self.out.wake_us - woke
            self.io_us += woke
            self.work_us += ticks_diff(ticks_us(), began) - woke
        if self.acks:
            began, io = ticks_us(), self.io_us
            self.write(b"".join([pl.ack_frame(q) for q in self.acks]))
            self.acks = []
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
