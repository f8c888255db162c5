"""The compiled core (``cdsim._core``, Rust, built by ``make install``): the one engine
that plays games. This module finds it and hands it a component set; the run layer
(cdsim.batch) and the tables (cdsim.engine.table) play on it."""

from __future__ import annotations

from functools import cache
from types import ModuleType
from typing import Any

from cdsim.handover import components_json
from cdsim.rules.components import Components, load_components


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


@cache
def core_components(path: str | None) -> Any:
    """The core's copy of a component set (made once per process and path)."""
    core = module()
    assert core is not None
    comps: Components = load_components(path)
    return core.Components(components_json(comps))
