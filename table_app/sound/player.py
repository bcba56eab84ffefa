"""Playback through pygame's mixer: one reserved channel for the voice, one for timers.

A tick never cuts a sentence (they have their own channels); narration waits in a queue and
the app's loop feeds it (`update`). Clips are looked up in a club's voice pack first, then in
the rendered catalogue for the language, then in English (with a warning), and last as text
for the host's screen (with a warning): a missing clip never stops a game. No audio device
means a warning and a silent game.
"""

from __future__ import annotations

import logging
import os
import sys
from collections import deque
from pathlib import Path
from typing import Any

from .catalogue import LANGS, TIMER_SOUNDS, catalogue, text

SOUNDS = Path(__file__).resolve().parents[2] / "sounds"
log = logging.getLogger(__name__)


#: what a clip may be: anything longer would hold the voice (and the memory) for minutes
MAX_CLIP_SECONDS = 20
MAX_CLIP_BYTES = 4 * 1024 * 1024


class SoundBoard:
    """The table's voice and its timer sounds."""

    def __init__(self, lang: str = "en", volume: float = 0.9, timer_volume: float = 0.6,
                 voice_pack: str | Path | None = None, sounds: Path = SOUNDS,
                 device: str | None = None) -> None:
        if lang not in LANGS:
            raise ValueError(f"unknown language '{lang}' (one of {', '.join(LANGS)})")
        self.lang = lang
        self.volume = volume
        self.timer_volume = timer_volume
        self.voice_pack = Path(voice_pack) if voice_pack else None
        self.sounds = sounds
        self.device = device                   # an SDL audio device name (None: the default)
        self.enabled = False
        self.warnings: list[str] = []
        self.captions: list[str] = []          # what was said, as text, for the host screen
        self.queue: deque[Any] = deque()
        self.cache: dict[str, Any] = {}
        self.spoken: list[str] = []            # clip ids in the order they were sent out
        self._mixer: Any = None
        self._voice: Any = None
        self._timer: Any = None
        self._paused = False

    # -- life ----------------------------------------------------------------------------
    def start(self, preload: bool = True) -> bool:
        """Open the audio device; False (and a warning) when there is none."""
        try:
            import pygame
            # 1024 frames a period (46 ms, every sound alike), for SDL's audio thread to wake
            # less on an idle table; in the boot test's booted system it still woke 90 times
            # a second (at 512 too), more than all the rest of the table (28)
            pygame.mixer.init(frequency=22050, size=-16, channels=2, buffer=1024,
                              devicename=self.device)
            pygame.mixer.set_num_channels(8)
            pygame.mixer.set_reserved(2)
        except Exception as exc:          # no device, no driver: play a silent game
            which = f"'{self.device}'" if self.device else "device"
            self._warn(f"no audio {which} ({exc}): the game goes on in silence")
            return False
        self._mixer = pygame.mixer
        self._voice = pygame.mixer.Channel(0)
        self._timer = pygame.mixer.Channel(1)
        self._voice.set_volume(self.volume)
        self._timer.set_volume(self.timer_volume)
        self.enabled = True
        if preload:
            self.load_all()
        return True

    def set_lang(self, lang: str) -> None:
        """Speak `lang` from now on (the next game's, or the host's for a resumed one)."""
        if lang not in LANGS:
            raise ValueError(f"unknown language '{lang}' (one of {', '.join(LANGS)})")
        if lang == self.lang:
            return
        self.lang = lang
        self.cache = {k: v for k, v in self.cache.items() if k.startswith("timer:")}
        if self.enabled:
            self.load_all()                # loaded before the game needs them, as at start

    def stop(self) -> None:
        if self.enabled and self._mixer is not None:
            self._mixer.quit()
        self.enabled = False

    def load_all(self) -> int:
        """Load every clip of the language and every timer sound (so no game waits on disk)."""
        n = 0
        for clip in catalogue():
            if self._sound(clip) is not None:
                n += 1
        for name in TIMER_SOUNDS:
            if self._timer_sound(name) is not None:
                n += 1
        return n

    # -- lookup --------------------------------------------------------------------------
    def path(self, clip: str) -> Path | None:
        """Where a clip comes from: the voice pack, the language, English; None if nowhere."""
        found = self._paths(clip)
        return found[0] if found else None

    def _paths(self, clip: str) -> list[Path]:
        """Every file that could say `clip`, best first."""
        out: list[Path] = []
        if self.voice_pack is not None:
            out += [p for ext in (".ogg", ".wav")
                    if (p := self.voice_pack / f"{clip}{ext}").is_file()]
        own = self.sounds / self.lang / f"{clip}.ogg"
        if own.is_file():
            out.append(own)
        english = self.sounds / "en" / f"{clip}.ogg"
        if english.is_file() and english != own:
            if not out:
                self._warn(f"clip '{clip}' is missing in '{self.lang}': said in English")
            out.append(english)
        return out

    def _load(self, path: Path, what: str) -> Any:
        """A sound from a file, or None (with a warning) for a file that is broken or too long
        to be a clip: one bad file in a voice pack never silences the table."""
        try:
            if path.stat().st_size > MAX_CLIP_BYTES:
                self._warn(f"{what} at {path} is too big for a clip "
                           f"({path.stat().st_size // 1024} KiB): the built-in one is used")
                return None
            sound = self._mixer.Sound(str(path))
        except Exception as exc:              # not a sound, a folder, unreadable
            self._warn(f"{what} at {path} cannot be played ({exc})")
            return None
        if sound.get_length() > MAX_CLIP_SECONDS:
            self._warn(f"{what} at {path} lasts {sound.get_length():.0f} s, longer than "
                       f"{MAX_CLIP_SECONDS} s: the built-in one is used")
            return None
        return sound

    def _sound(self, clip: str) -> Any:
        if clip in self.cache:
            return self.cache[clip]
        sound = None
        if self.enabled:
            for p in self._paths(clip):
                sound = self._load(p, f"clip '{clip}'")
                if sound is not None:
                    break
        self.cache[clip] = sound
        return sound

    def _timer_sound(self, name: str) -> Any:
        key = f"timer:{name}"
        if key not in self.cache:
            sound = None
            for p in ([self.voice_pack / f"{name}.ogg"] if self.voice_pack else []) + [
                    self.sounds / "timer" / f"{name}.ogg"]:
                if p.exists() and self.enabled:
                    sound = self._load(p, f"timer sound '{name}'")
                    if sound is not None:
                        break
            self.cache[key] = sound
        return self.cache[key]

    def _warn(self, message: str) -> None:
        if message not in self.warnings:
            self.warnings.append(message)
            log.warning(message)

    # -- speaking ------------------------------------------------------------------------
    def say(self, line: list[str]) -> None:
        """Queue one spoken line (clip ids); its text goes to the captions at once."""
        words = []
        for clip in line:
            words.append(text(clip, self.lang) or clip)
            sound = self._sound(clip) if self.enabled else None
            if sound is None and self.enabled:
                self._warn(f"clip '{clip}' is missing: shown as text on the host screen")
            self.queue.append((clip, sound))
        self.captions.append(" ".join(words))
        self.update()

    def timer(self, name: str) -> None:
        """A timer sound, on its own channel (it never cuts the voice)."""
        self.spoken.append(f"timer:{name}")
        sound = self._timer_sound(name) if self.enabled else None
        if sound is not None:
            self._timer.play(sound)

    def update(self) -> None:
        """Feed the voice channel: call this from the app's loop."""
        if self._paused:
            return
        while self.queue and (not self.enabled or not self._voice.get_busy()):
            clip, sound = self.queue.popleft()
            self.spoken.append(clip)
            if sound is not None:
                self._voice.play(sound)
                return

    def busy(self) -> bool:
        return bool(self.queue) or (self.enabled and bool(self._voice.get_busy()))

    def pause(self) -> None:
        self._paused = True
        if self.enabled:
            self._mixer.pause()

    def resume(self) -> None:
        self._paused = False
        if self.enabled:
            self._mixer.unpause()
        self.update()

    def set_volume(self, volume: float) -> None:
        self.volume = volume
        if self.enabled:
            self._voice.set_volume(volume)


def quiet_alsa(start: Any) -> Any:
    """`start()` with the lines ALSA's C library writes to stderr while SDL looks for a
    sound card left out (eight "ALSA lib ..." lines came before the table's own "no audio
    device"); everything else said meanwhile still reaches stderr."""
    import tempfile
    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile() as caught:
        os.dup2(caught.fileno(), 2)
        try:
            return start()
        finally:
            sys.stderr.flush()
            os.dup2(saved, 2)
            os.close(saved)
            caught.seek(0)
            for line in caught.read().decode("utf-8", "replace").splitlines():
                if not line.startswith("ALSA lib "):
                    print(line, file=sys.stderr)
