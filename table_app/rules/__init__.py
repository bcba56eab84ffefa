"""The rules: a pure engine for the yakuza, classic and city formats.

No clock, no I/O, no randomness but from a seed. Hardware, sound, screens and time live
outside this package and talk to it through actions and effects.
"""

from .engine import Check, Game, Out, Outcome, Phase, Step, Waiting, deal_from_seed, step
from .errors import FormatError, IllegalAction, InvalidAction, RulesError
from .format import (
    BUILTIN_FORMATS,
    Format,
    club_formats,
    find_format,
    format_from_text,
    formats_beside,
    load_format,
)
from .script import Replay, ScriptError, run_script

__all__ = [
    "BUILTIN_FORMATS", "Check", "Format", "FormatError", "Game", "IllegalAction",
    "InvalidAction", "Out", "Outcome", "Phase", "Replay", "RulesError", "ScriptError", "Step",
    "Waiting",
    "club_formats", "deal_from_seed", "find_format", "format_from_text", "formats_beside",
    "load_format", "run_script", "step",
]
