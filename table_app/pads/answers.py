"""The answers a ring shows: one registry of words, each with its light and its text.

The rules answer a check, a search or a watcher's night with a word (`CheckResult.result`,
and the table's words for the Hobo's morning). Each word is here once: the light its seat
shows on the asker's ring (one of the firmware's answer colours, `ringdraw.ANSWER`, which
is also the byte the wire carries), the text the host's screen and the sheet give it, and
how a one-LED pad shows it. A new act with an answer of its own adds one line here; a word
that is not here is refused by every backend alike when it is shown (`rings.encode`).
"""

from __future__ import annotations

from dataclasses import dataclass

from firmware_bridge import ringdraw as rd

RED, BLUE, GREEN, AMBER = range(4)          # ringdraw.ANSWER's colours, in its order


@dataclass(frozen=True, slots=True)
class Answer:
    """How an answer word shows."""

    light: int        # its colour on the ring: an index into ringdraw.ANSWER
    text: str         # its text key on the host's screen and the sheet ('': a role's name)
    steady: bool      # a one-LED pad: lit steady (else blinking fast)


ANSWERS: dict[str, Answer] = {
    "red": Answer(RED, "result_red", True),              # a check: the city
    "black": Answer(BLUE, "result_black", False),        # a check: black (blue: it is lit)
    "detective": Answer(GREEN, "", True),                # the Don's search found him
    "no": Answer(AMBER, "result_no", False),             # a search that did not
    "came": Answer(GREEN, "", True),                     # the Hobo's morning: came to kill
    "nobody_came": Answer(AMBER, "", False),             # ... where he went, nobody came
}


def answer(word: str) -> Answer:
    """The registry's entry for `word` (ValueError, naming the registry, for a word it does
    not know: a ring that showed nothing for it would hide the mistake)."""
    found = ANSWERS.get(word)
    if found is None:
        raise ValueError(f"the answer '{word}' is not in the answers' registry "
                         f"(table_app/pads/answers.py: {', '.join(ANSWERS)})")
    if not 0 <= found.light < len(rd.ANSWER):
        raise ValueError(f"the answer '{word}' has no light (ringdraw.ANSWER has "
                         f"{len(rd.ANSWER)})")
    return found
