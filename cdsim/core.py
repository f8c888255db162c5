"""The compiled core (``cdsim._core``, Rust, built by ``make install``): the one engine
that plays games. This module finds it; the run layer (cdsim.batch) and each game's tables
play on it (a game hands it its component set: Carpe Diem's
``cdsim.games.carpe_diem.handover.core_components``)."""

from __future__ import annotations

from functools import cache
from types import ModuleType


@cache
def module() -> ModuleType | None:
    """``cdsim._core``, or None when it was not built (no Rust toolchain at install)."""
    try:
        from cdsim import _core  # type: ignore[attr-defined]
    except ImportError:
        return None
    return _core  # type: ignore[no-any-return]


def available() -> bool:
    return module() is not None
