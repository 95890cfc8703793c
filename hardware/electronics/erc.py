"""SKiDL's electrical rules check, counted rather than printed."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from .skidl_quiet import skidl  # noqa: F401 - configures SKiDL before its logger is used


@dataclass(frozen=True)
class ErcResult:
    """Errors and warnings of one ERC run, with their messages."""

    errors: int
    warnings: int
    messages: tuple[str, ...]


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


def run_erc(circuit: Any) -> ErcResult:
    """Run SKiDL's ERC on ``circuit`` and return its counts, printing nothing."""
    from skidl.logger import erc_logger

    collect = _Collect()
    muted = [h for h in erc_logger.handlers if isinstance(h, logging.StreamHandler)]
    for handler in muted:
        erc_logger.removeHandler(handler)
    erc_logger.addHandler(collect)
    propagate, erc_logger.propagate = erc_logger.propagate, False
    try:
        circuit.ERC()
        errors, warnings = erc_logger.error.count, erc_logger.warning.count
    finally:
        erc_logger.removeHandler(collect)
        erc_logger.propagate = propagate
        for handler in muted:
            erc_logger.addHandler(handler)
    return ErcResult(errors, warnings, tuple(collect.messages))
