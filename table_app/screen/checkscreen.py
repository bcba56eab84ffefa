"""`table-app check` on the host's screen: the same self-test (`check.SelfTest`), its prompts
in the table's language and spoken, so a host walking round the table hears which seat is
next and reads what was found on the touch panel (a club's Pi has no terminal)."""

from __future__ import annotations

from typing import Any

from ..check import CheckReport, SelfTest
from ..words import t
from .paint import AMBER, BG, DIM, GREEN, ORANGE, SIZE, TEXT, Button, Painter, button, wrap


class CheckScreen:
    """The check as the host sees and hears it: `update` after each input speaks a new
    prompt; `draw` shows it, then the report and a Done button."""

    def __init__(self, test: SelfTest, voice: Any, lang: str) -> None:
        self.test = test
        self.voice = voice
        self.lang = lang
        self.spoken: list[str] = []      # the prompt last said (clip ids)
        self.report: CheckReport | None = None
        self.written = ""                # "check_written" or "check_not_written", once done
        self.closed = False
        self.cancelled = False           # stopped before its end: nothing saved

    def update(self) -> None:
        """Say the prompt when it changes; at the end, say how the check went."""
        line = self.test.prompt_line()
        if line and line != self.spoken:
            self.spoken = line
            self.voice.say(line)
        if self.test.done and self.report is None:
            self.report = self.test.report
            self.voice.say(["check_done_problems" if self.report.problems()
                            else "check_done_ready"])

    def lines(self) -> list[tuple[str, tuple[int, int, int]]]:
        """The report's lines in the table's language, each with its colour: whether the
        layout was saved first (it was never in sight below 22 lines), then the problems
        (a problem's orange, the table ready green), then what each seat has (dim). The
        pads' own line (a driver's words) only when the link failed."""
        assert self.report is not None
        out: list[tuple[str, tuple[int, int, int]]] = []
        if self.written:
            out.append((t(self.written, self.lang),
                        GREEN if self.written == "check_written" else TEXT
                        if self.written == "check_rehearsal" else ORANGE))
        notes = self.report.notes()
        for key, fields in notes:
            if key.startswith("check_seat"):
                continue
            out.append((t(key, self.lang).format(**dict(fields)),
                        GREEN if key == "check_ready" else ORANGE))
        for key, fields in notes:
            if key.startswith("check_seat"):
                out.append((t(key, self.lang).format(**dict(fields)), DIM))
        return out

    def draw(self, p: Painter, surf: Any, now: float | None = None,
             left: int = 0) -> list[Button]:
        """The prompt (or the report) and its buttons, within the host's screen from x
        `left` on: with the simulator's pane shown beside it on a 7-inch panel only its
        right column is in sight (a trial's host, at the simulator to press its pads, read
        the prompt cut mid-word and never saw Skip)."""
        surf.fill(BG)
        lang = self.lang
        x = left + 24
        w = SIZE[0] - left - 48
        narrow = w < 600
        p.text(surf, t("check_title", lang), (x, 16), 26, TEXT, True, width=w)
        buttons: list[Button] = []
        bottom = (SIZE[1] - 60, 50)
        if self.report is None:
            key, fields = self.test.prompt_note()
            y = 90
            if key:
                text = t(key, lang).format(**dict(fields))
                for row in wrap(p, text, 24, w, True)[:6 if narrow else 3]:
                    p.text(surf, row, (x, y), 24, AMBER, True, width=w)
                    y += 34
            stage = {"order": (self.test.seat, "check_order"),
                     "press": (self.test.ring, "check_press"),
                     "turn": (self.test.ring, "check_turn")}.get(self.test.stage)
            y = max(y + 14, 210)
            if stage is not None:
                p.text(surf, f"{stage[0]} / {self.test.seats}", (x, y), 20, DIM, width=w)
            if now is not None and stage is not None:
                # what happens while nobody presses: the host sees the seconds run
                left_s = int(self.test.left(now) + 0.999)
                waiting = t("check_waiting", lang).format(s=left_s)
                for i, row in enumerate(wrap(p, waiting, 18, w)[:3]):
                    p.text(surf, row, (x, y + 34 + 24 * i), 18, TEXT, width=w)
            # a way out, and a way on, at every prompt (a seat without a pad waited 30 s)
            half = (w - 8) // 2
            skip = (x, bottom[0], half, bottom[1]) if narrow else (24, bottom[0], 260, bottom[1])
            cancel = (x + w - half, bottom[0], half, bottom[1]) if narrow else \
                (SIZE[0] - 224, bottom[0], 200, bottom[1])
            buttons.append(button(p, surf, skip, ("skip",), t("check_skip", lang)))
            buttons.append(button(p, surf, cancel, ("cancel",), t("cancel", lang)))
            return buttons
        y = 64
        top = SIZE[1] - 66                      # the Done button's row
        lines = self.lines()
        head = [(row, c) for text, c in lines if c != DIM for row in wrap(p, text, 15, w)]
        seats = [(text, c) for text, c in lines if c == DIM]
        for row, colour in head:
            if y + 19 > top:
                break
            p.text(surf, row, (x, y), 15, colour, width=w)
            y += 19
        # the seats' buttons and rings in columns (three, or two where the lines are long:
        # 30 seats in ten or fifteen rows)
        y += 6
        font = p.font(14)
        widest = max((font.size(text)[0] for text, _ in seats), default=0)
        cols = max(1, min(3, w // (widest + 12)))
        cw = w // cols
        rows = max(0, (top - y) // 18)
        shown = seats[:rows * cols]
        for i, (text, colour) in enumerate(shown):
            c, r = divmod(i, max(1, rows)) if rows else (0, 0)
            p.text(surf, text, (x + c * cw, y + 18 * r), 14, colour, width=cw - 8)
        buttons.append(button(p, surf, (SIZE[0] - 224, bottom[0], 200, bottom[1]), ("done",),
                               t("done", lang)))
        return buttons

    def touch(self, pos: tuple[int, int], buttons: list[Button],
              now: float | None = None) -> None:
        for b in buttons:
            if not b.hit(pos):
                continue
            if b.cmd == ("done",):
                self.closed = True
            elif b.cmd == ("cancel",):
                self.cancel()
            elif b.cmd == ("skip",) and now is not None:
                self.test.skip(now)

    def cancel(self) -> None:
        """The host stops the check (Cancel, or Escape): nothing is saved; on the report,
        it is Done."""
        if self.report is None:
            self.cancelled = True
        self.closed = True
