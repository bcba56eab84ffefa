"""The table's typed names: where the table is, what a pad asks, what the timer times.

They are `StrEnum`s, so a record, the journal or a test that reads one as a word reads the
same word as before they were typed.
"""

from __future__ import annotations

from enum import StrEnum


class TableStage(StrEnum):
    """Where the table is: dealing (seats look at their roles), registering a card deal,
    ready to start, playing, or over."""

    DEAL = "deal"
    REGISTER = "register"
    READY = "ready"
    PLAY = "play"
    OVER = "over"


class Ask(StrEnum):
    """What a pad's question asks."""

    DECISION = "decision"    # a night decision's target (which one: `Question.decision`)
    MODE = "mode"            # which way a decision is made (the Commissar's check or shot)
    SPEECH = "speech"        # the speaker's nomination, or the end of his speech
    BALLOT = "ballot"
    REMOVEALL = "removeall"
    TAKE = "take"            # the Sorcerer names one of his voters


class Timed(StrEnum):
    """What the table's one timer times."""

    WINDOW = "window"        # a night window
    SPEECH = "speech"
    VOTE = "vote"
    REMOVEALL = "removeall"
    TAKE = "take"
    DAWN = "dawn"            # between the night's last window and the morning
    DUSK = "dusk"            # between the day's end and the night
    REGISTER = "register"    # a card deal: one role's turn to press
    VIEW = "view"            # an app deal: one seat's turn to see his role
