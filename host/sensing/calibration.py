"""Per-channel calibration: the empty-board baseline and noise, and each kind's level.

A :class:`Calibration` is measured once per board (``lawmaster calibrate``) and saved
as JSON (format in ``hardware/CALIBRATION.md``). From it the sensing layer derives
per-channel thresholds, so that sensor-to-sensor spread in offset and gain (a few
hundred counts and ±10 % on real DRV5055 parts) does not matter.
"""

from __future__ import annotations

import json
import math
import os
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

FORMAT = "lawmaster-calibration"
VERSION = 1
MIN_NOISE = 8.0  # counts: below this the ADC's own quantisation dominates (16 counts/LSB)


class CalibrationError(ValueError):
    """A calibration file or measurement that cannot be used, with the reason."""


@dataclass(frozen=True)
class Calibration:
    """What each channel reads with nothing on it, how noisy it is, and with each kind on it.

    ``baseline[c]`` and ``noise[c]`` (standard deviation) are in raw u16 counts;
    ``levels[kind][c]`` is the mean reading of channel ``c`` with one piece of
    ``kind`` standing on its spot and nothing else near.
    """

    game: str
    board: str
    baseline: tuple[float, ...]
    noise: tuple[float, ...]
    levels: Mapping[str, tuple[float, ...]] = field(hash=False)
    created: str = ""

    @property
    def channels(self) -> int:
        return len(self.baseline)

    def check(self) -> list[str]:
        """Problems a person should fix (a kind too weak to tell from noise on a channel)."""
        problems = []
        for kind, levels in self.levels.items():
            for ch, (level, base, noise) in enumerate(
                zip(levels, self.baseline, self.noise, strict=False)
            ):
                if abs(level - base) < 20 * max(noise, MIN_NOISE):
                    problems.append(
                        f"channel {ch}: a {kind} moves the reading only {abs(level - base):.0f}"
                        f" counts (noise {noise:.0f}); check the sensor and the magnet"
                    )
        return problems

    # -- JSON -----------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """The JSON object saved to a calibration file."""
        return {
            "format": FORMAT,
            "version": VERSION,
            "game": self.game,
            "board": self.board,
            "created": self.created,
            "channels": self.channels,
            "baseline": [round(v, 1) for v in self.baseline],
            "noise": [round(v, 2) for v in self.noise],
            "levels": {k: [round(v, 1) for v in vs] for k, vs in self.levels.items()},
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Calibration:
        """Read and check a calibration JSON object."""
        if data.get("format") != FORMAT:
            raise CalibrationError("not a Lawmaster calibration file")
        if data.get("version") != VERSION:
            raise CalibrationError(f"calibration version {data.get('version')} is not {VERSION}")
        n = data.get("channels")
        baseline = _numbers(data.get("baseline"), n, "baseline")
        noise = _numbers(data.get("noise"), n, "noise")
        levels_data = data.get("levels")
        if not isinstance(levels_data, Mapping) or not levels_data:
            raise CalibrationError("'levels' must map each kind to one reading per channel")
        levels = {str(k): _numbers(v, n, f"levels.{k}") for k, v in levels_data.items()}
        return cls(
            str(data.get("game", "")),
            str(data.get("board", "")),
            baseline,
            noise,
            levels,
            str(data.get("created", "")),
        )

    def save(self, path: str | Path) -> None:
        """Write the file atomically (a crash leaves the old file or the new one)."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                json.dump(self.to_json(), out, indent=1)
                out.write("\n")
                out.flush()
                os.fsync(out.fileno())
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise

    @classmethod
    def load(cls, path: str | Path) -> Calibration:
        """Read a calibration file."""
        try:
            data = json.loads(Path(path).read_text("utf-8"))
        except json.JSONDecodeError as exc:
            raise CalibrationError(f"{path}: not JSON ({exc})") from exc
        return cls.from_json(data)


def _numbers(value: object, n: object, what: str) -> tuple[float, ...]:
    if not isinstance(n, int) or n <= 0:
        raise CalibrationError("'channels' must be a positive whole number")
    if not isinstance(value, Sequence) or len(value) != n:
        raise CalibrationError(f"'{what}' must list {n} numbers")
    out = []
    for v in value:
        if not isinstance(v, int | float) or isinstance(v, bool) or not math.isfinite(v):
            raise CalibrationError(f"'{what}' holds {v!r}, not a number")
        out.append(float(v))
    return tuple(out)


def mean_and_noise(frames: Sequence[Sequence[int]], channel: int) -> tuple[float, float]:
    """Mean and standard deviation of one channel over some frames."""
    values = [f[channel] for f in frames]
    mean = sum(values) / len(values)
    var = sum((v - mean) ** 2 for v in values) / max(1, len(values) - 1)
    return mean, math.sqrt(var)
