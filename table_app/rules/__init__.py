"""The rules: a pure engine for the yakuza, classic and city formats.

No clock, no I/O, no randomness but from a seed. Hardware, sound, screens and time live
outside this package and talk to it through actions and effects.

The formats are imported with the package, the engine and the game scripts when first
named: the table's setup screen needs only the formats, and the engine's import was a
tenth of the table's start.
"""

from typing import TYPE_CHECKING, Any

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

if TYPE_CHECKING:
    from .engine import Check, Game, Out, Outcome, Phase, Step, Waiting, deal_from_seed, step
    from .script import Replay, ScriptError, run_script

#: the names imported when first asked for, and the module each comes from
_LATER = {**dict.fromkeys(("Check", "Game", "Out", "Outcome", "Phase", "Step", "Waiting",
                           "deal_from_seed", "step"), "engine"),
          **dict.fromkeys(("Replay", "ScriptError", "run_script"), "script")}


def __getattr__(name: str) -> Any:
    module = _LATER.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib import import_module
    value = getattr(import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


__all__ = [
    "BUILTIN_FORMATS", "Check", "Format", "FormatError", "Game", "IllegalAction",
    "InvalidAction", "Out", "Outcome", "Phase", "Replay", "RulesError", "ScriptError", "Step",
    "Waiting",
    "club_formats", "deal_from_seed", "find_format", "format_from_text", "formats_beside",
    "load_format", "run_script", "step",
]
