"""Sensing: raw hall-sensor readings → stable occupancy per space, with magnet kinds.

* :class:`Calibration` — per-channel baseline, noise and each kind's level; JSON
  file (``hardware/CALIBRATION.md``).
* :class:`Calibrator` — the guided ``lawmaster calibrate`` flow as a state machine.
* :class:`Sensing` — ``feed(readings, t) -> [Occupancy | Settled]``, debounced.

A table feeds each scan through sensing and the tracker with
:class:`lawmaster.host.board_feed.BoardFeed`.
"""

from lawmaster.host.sensing.calibration import Calibration, CalibrationError
from lawmaster.host.sensing.calibrator import Calibrator, Prompt
from lawmaster.host.sensing.sensing import Occupancy, Sensing, SensingEvent, Settled

__all__ = [
    "Calibration",
    "CalibrationError",
    "Calibrator",
    "Occupancy",
    "Prompt",
    "Sensing",
    "SensingEvent",
    "Settled",
]
