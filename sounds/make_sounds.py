#!/usr/bin/env python3
"""Render the narration catalogue and the timer sounds into the OGG files the app plays.

    python3 sounds/make_sounds.py [--lang ka en uz ru] [--only CLIP ...] [--timers]

Needs espeak-ng and sox (Debian: apt-get install espeak-ng sox). Speech is rendered by
espeak-ng, trimmed, brought to one loudness (RMS -20 dBFS, peaks under -1 dBFS) and encoded
as Ogg Vorbis into sounds/<lang>/<clip>.ogg; the timer sounds are synthesised here into
sounds/timer/. The rendered files are committed, so the Pi needs no speech engine.
"""

from __future__ import annotations

import argparse
import array
import math
import shutil
import subprocess
import sys
import tempfile
import wave
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from table_app.sound.catalogue import LANGS, catalogue  # noqa: E402
from table_app.words import language  # noqa: E402

RATE = 22050
TARGET_RMS_DB = -20.0
PEAK_DB = -1.0


def db(x: float) -> float:
    return 20 * math.log10(max(x, 1e-9))


def read_wav(path: Path) -> tuple[array.array[int], int]:
    with wave.open(str(path), "rb") as w:
        if w.getsampwidth() != 2 or w.getnchannels() != 1:
            raise SystemExit(f"{path}: expected 16-bit mono")
        samples = array.array("h", w.readframes(w.getnframes()))
        return samples, w.getframerate()


def write_wav(path: Path, samples: array.array[int], rate: int) -> None:
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(samples.tobytes())


def trim(samples: array.array[int], threshold: int = 200, pad: int = 600) -> array.array[int]:
    loud = [i for i in range(0, len(samples), 64) if abs(samples[i]) > threshold]
    if not loud:
        return samples
    return samples[max(0, loud[0] - pad):min(len(samples), loud[-1] + pad)]


def normalise(samples: array.array[int], target_db: float = TARGET_RMS_DB) -> array.array[int]:
    """One loudness for every clip: RMS to `target_db`, peaks kept under PEAK_DB."""
    if not samples:
        return samples
    rms = math.sqrt(sum(s * s for s in samples) / len(samples)) / 32768
    peak = max(abs(s) for s in samples) / 32768
    gain = 10 ** ((target_db - db(rms)) / 20)
    gain = min(gain, 10 ** (PEAK_DB / 20) / max(peak, 1e-9))
    return array.array("h", (max(-32767, min(32767, int(s * gain))) for s in samples))


def encode(wav: Path, ogg: Path) -> None:
    ogg.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run(["sox", str(wav), "-C", "3", str(ogg)], check=True)


def speak(lang: str, clip: str, text: str, tmp: Path, out_dir: Path) -> None:
    raw = tmp / f"{lang}-{clip}.wav"
    subprocess.run(["espeak-ng", "-v", language(lang).voice, "-s", "150", "-w", str(raw), text],
                   check=True)
    samples, rate = read_wav(raw)
    fixed = tmp / f"{lang}-{clip}-n.wav"
    write_wav(fixed, normalise(trim(samples)), rate)
    encode(fixed, out_dir / lang / f"{clip}.ogg")


def tone(parts: list[tuple[float, list[tuple[float, float]], float]]) -> array.array[int]:
    """Sum of partials: (seconds, [(frequency, amplitude)], decay per second) in sequence."""
    out = array.array("h")
    for seconds, partials, decay in parts:
        n = int(seconds * RATE)
        for i in range(n):
            t = i / RATE
            env = math.exp(-decay * t) * min(1.0, i / 60) * min(1.0, (n - i) / 200)
            v = sum(a * math.sin(2 * math.pi * f * t) for f, a in partials) * env
            out.append(int(max(-1.0, min(1.0, v)) * 32767))
    return out


def timer_sounds() -> dict[str, tuple[array.array[int], float]]:
    silence = (0.08, [], 0.0)
    return {
        # a soft tick for each of the last 10 seconds
        "tick": (tone([(0.035, [(1800, 0.6), (3600, 0.2)], 90.0)]), -30.0),
        # ten seconds left: two short beeps
        "warning": (tone([(0.12, [(880, 0.7)], 4.0), silence, (0.12, [(880, 0.7)], 4.0)]),
                    -22.0),
        # time is up: a buzzer, odd harmonics of a low note
        "buzzer": (tone([(0.8, [(220, 0.5), (660, 0.17), (1100, 0.1), (1540, 0.07)], 0.5)]),
                   -18.0),
        # one soft chime for every night window, whoever wakes
        "chime": (tone([(1.2, [(660, 0.5), (990, 0.25), (1320, 0.12)], 3.0)]), -24.0),
    }


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--lang", nargs="*", choices=LANGS,
                   help="the languages to render, and only them (default: every language "
                        "and the timer sounds)")
    p.add_argument("--only", nargs="*", help="clip ids to render (default: all)")
    p.add_argument("--timers", action="store_true",
                   help="the timer sounds too (with --lang or --only)")
    p.add_argument("--out", type=Path, default=HERE)
    args = p.parse_args()
    # a translator who renders his own language touches nothing else: the timer sounds
    # (which every language shares) only on a whole run or when asked for
    timers = args.timers or (args.lang is None and not args.only)
    if args.lang is None:
        args.lang = list(LANGS)
    for tool in ("espeak-ng", "sox"):
        if shutil.which(tool) is None:
            print(f"make_sounds: {tool} is missing (apt-get install espeak-ng sox)",
                  file=sys.stderr)
            return 2
    clips = catalogue()
    wanted = args.only or sorted(clips)
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        for lang in args.lang:
            for clip in wanted:
                speak(lang, clip, clips[clip][lang], tmp, args.out)
            print(f"{lang}: {len(wanted)} clips")
        if timers:
            for name, (samples, level) in timer_sounds().items():
                wav = tmp / f"{name}.wav"
                write_wav(wav, normalise(samples, level), RATE)
                encode(wav, args.out / "timer" / f"{name}.ogg")
            print(f"timer: {len(timer_sounds())} sounds")
    return 0


if __name__ == "__main__":
    sys.exit(main())
