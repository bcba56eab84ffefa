"""Narration and timer sounds: the catalogue, what is said when, and playback."""

from .catalogue import LANGS, TIMER_SOUNDS, catalogue, num
from .narration import Narrator
from .player import SOUNDS, SoundBoard

__all__ = ["LANGS", "Narrator", "SOUNDS", "SoundBoard", "TIMER_SOUNDS", "catalogue", "num"]
