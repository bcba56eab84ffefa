"""`table-app check` on the host's screen: the same self-test (`check.SelfTest`), its prompts
in the table's language and spoken, so a host walking round the table hears which seat is
next and reads what was found on the touch panel (a club's Pi has no terminal)."""

from __future__ import annotations

from typing import Any

from ..check import CheckReport, SelfTest
from ..words import t
from .render import AMBER, BG, DIM, GREEN, ORANGE, SIZE, TEXT, Button, Painter, _button, wrap


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
        """The report's lines in the table's language, each with its colour (a problem's
        orange, the table ready green)."""
        assert self.report is not None
        out = [(self.report.pads, ORANGE if not self.report.link_ok else DIM)] \
            if self.report.pads else []
        for key, fields in self.report.notes():
            colour = ORANGE if key == "check_problem" else GREEN if key == "check_ready" \
                else DIM
            out.append((t(key, self.lang).format(**dict(fields)), colour))
        if self.written:
            out.append((t(self.written, self.lang),
                        ORANGE if self.written == "check_not_written" else GREEN))
        return out

    def draw(self, p: Painter, surf: Any) -> list[Button]:
        surf.fill(BG)
        lang = self.lang
        w = SIZE[0] - 48
        p.text(surf, t("check_title", lang), (24, 16), 26, TEXT, True, width=w)
        buttons: list[Button] = []
        if self.report is None:
            key, fields = self.test.prompt_note()
            if key:
                text = t(key, lang).format(**dict(fields))
                for i, row in enumerate(wrap(p, text, 24, w, True)[:3]):
                    p.text(surf, row, (24, 90 + 34 * i), 24, AMBER, True, width=w)
            stage = {"order": (self.test.seat, "check_order"),
                     "press": (self.test.ring, "check_press"),
                     "turn": (self.test.ring, "check_turn")}.get(self.test.stage)
            if stage is not None:
                p.text(surf, f"{stage[0]} / {self.test.seats}", (24, 210), 20, DIM, width=w)
            return buttons
        y = 64
        rows = [(row, colour) for text, colour in self.lines() for row in wrap(p, text, 14, w)]
        for row, colour in rows[:22]:
            p.text(surf, row, (24, y), 14, colour, width=w)
            y += 17
        buttons.append(_button(p, surf, (SIZE[0] - 224, SIZE[1] - 60, 200, 50), ("done",),
                               t("done", lang)))
        return buttons

    def touch(self, pos: tuple[int, int], buttons: list[Button]) -> None:
        if any(b.hit(pos) and b.cmd == ("done",) for b in buttons):
            self.closed = True
