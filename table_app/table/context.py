"""What the table's flows share: the rules, the pads' questions, the timer, the voice, the
host's notes (the typed names they speak in are kinds.py's).

The deal, the night, the day and the host's commands are flows of their own (deal.py,
night.py, day.py, commands.py); each owns its state and reaches the rest of the table only
through a `TableContext` (the host's commands are handed the deal too). None of them
imports another or the table (core.py), which puts them together.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from ..pads import PadPanel
from ..rules import Game, RulesError
from ..rules import actions as A
from ..rules import effects as E
from ..sound.catalogue import text
from ..sound.narration import Narrator
from ..words import note_text
from .config import Shown, TableConfig, Voice
from .kinds import TableStage, Timed
from .questions import Questions
from .record import ScriptWriter
from .timers import Timers

DAWN = 4.0          # seconds between the night's last window and the morning (and at dusk)


class Control(Protocol):
    """What the host's commands ask of the table itself (core.Table)."""

    def start_game(self) -> None: ...

    def pause(self, reason: str) -> None: ...

    def unpause(self, reasons: set[str], clip: str) -> None: ...

    def resume_host(self) -> None: ...

    def confirmed(self, seat: int, choice: int | None) -> None: ...

    def run_timer(self) -> None: ...


class TableContext:
    """The services every flow uses: the game and its rules, the pads' questions, the timer,
    the game script, the voice and the host's screen lines."""

    def __init__(self, cfg: TableConfig, panel: PadPanel, voice: Voice) -> None:
        n = cfg.players
        self.cfg = cfg
        self.panel = panel
        self.voice = voice
        self.game = Game(cfg.fmt, n, dict(cfg.options) if cfg.options else None)
        rules = self.game.rules
        self.narrator = Narrator(cfg.lang, rules.revote,
                                 unused_to_last=rules.abstain_to_last and not rules.plurality)
        self.stage = TableStage.DEAL
        self.timers = Timers()
        self.questions = Questions(panel, cfg.seed)
        self.writer = ScriptWriter(cfg.fmt.id, n, _option_lines(cfg))
        self.log: list[Shown] = []
        self.notes_from = 0          # the host's screen shows the notes of this phase only
        self.captions: list[Shown] = []     # what the voice said, for the host's eyes
        self.now = 0.0
        #: the table's own handlers, set by it: each effect of an applied action, and what
        #: comes next once the rules moved on and no timer runs
        self.on_effect: Callable[[E.Effect], None] = _nothing
        self.after: Callable[[], None] = _nothing_after
        #: a watcher of every applied action's effects (the records, the tests)
        self.on_effects: Callable[[list[E.Effect]], None] | None = None

    # -- the rules -----------------------------------------------------------------------
    def apply(self, action: A.Action) -> list[E.Effect]:
        """Apply an action to the game: its effects are said, then handled by the table."""
        fx = self.game.apply(action)
        if self.on_effects is not None:
            self.on_effects(fx)
        for f in fx:
            for line in self.narrator.lines(f):
                self.say(line)
        for f in fx:
            self.on_effect(f)
        if self.game.phase == "over" and self.stage is not TableStage.OVER:
            self.stage = TableStage.OVER
            self.notes_from = len(self.log)
            self.timers.stop()
            self.questions.stop()
            self.panel.set_cap(self.cfg.day_cap)
        return fx

    def record(self, action: A.Action, write: Callable[[], None], what: str,
               seats: tuple[int | None, ...] = ()) -> bool:
        """Apply a choice made at the table and write it to the game script; a choice the
        rules refuse becomes a note for the host, never a crash: `what` (a screen text's
        key) and `seats`, in his language (a nomination refused stood in English on a
        Russian screen, the rules' words), a night's among its secrets."""
        try:
            self.apply(action)
        except RulesError:
            key = "decided_refused" if isinstance(action, A.Decide) else "refused"
            self.tell(key, what_t=what, seats=" ".join(f"№{s}" for s in seats if s))
            return False
        write()
        return True

    def start(self, what: Timed, seconds: float, ticks: bool = False) -> None:
        """Start the table's one timer now."""
        self.timers.start(what, seconds, self.now, ticks)

    # -- the host's eyes and the room's ears ---------------------------------------------
    def note(self, text: str) -> None:
        """A note for the host as it is (an engine's refusal, a driver's words)."""
        self.log.append(Shown(self.now, text))

    def tell(self, key: str, **fields: str) -> None:
        """A note for the host in his language: the key of its text (`note_KEY` in the
        screen's texts) and its fields."""
        items = tuple(fields.items())
        self.log.append(Shown(self.now, note_text(key, items, "en"), key, items))

    def say(self, line: list[str]) -> None:
        """Say a line, and show it on the host's screen too (a host without sound is not
        blind): the captions are the words, in the table's language."""
        self.voice.say(line)
        words: list[str] = []
        for k, clip in enumerate(line):
            if k and clip.startswith("num_") and line[k - 1].startswith("num_"):
                words[-1] += ","        # a list of seats: "5, 3, 2" (it read "5 3 2")
            words.append(text(clip, self.cfg.lang) or clip)
        self.captions.append(Shown(self.now, " ".join(words)))
        del self.captions[:-20]


def _option_lines(cfg: TableConfig) -> list[str]:
    out = []
    for name, value in cfg.options:
        word = ",".join(value) if isinstance(value, list) else str(value).lower() \
            if isinstance(value, bool) else str(value)
        out.append(f"option {name} {word or '-'}")
    return out


def _nothing(f: E.Effect) -> None:
    return None


def _nothing_after() -> None:
    return None
