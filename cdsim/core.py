"""Which engine plays a batch: the compiled core (``cdsim._core``, Rust) or the Python
engine, and the core's side of a chunk.

The core plays the built-in players only, the same games as the Python engine (a
differential test keeps them equal). The runner uses it whenever every seat of a run
is a built-in player; user strategies (``module:Class``), ``--trace``, ``cdsim score``
and ``CDSIM_ENGINE=python`` run on the Python engine. Without a Rust toolchain at
install time there is no core, and everything runs on the Python engine.
The search player ``mcts`` exists only in the core (no Python twin): a run with it
plays there or is refused in one line.
"""

from __future__ import annotations

import os
import sys
from functools import cache
from types import ModuleType
from typing import TYPE_CHECKING, Any

import numpy as np

from cdsim.components import Components, load_components
from cdsim.errors import CdsimError
from cdsim.handover import components_json

if TYPE_CHECKING:
    import polars as pl

    from cdsim.runner import RunConfig

CORE_PLAYERS = ("random", "greedy", "villa", "landscape", "bread", "mcts")
ENGINES = ("rust", "python")


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


def wanted() -> str:
    """``CDSIM_ENGINE``: rust (the default where the core exists) or python."""
    choice = os.environ.get("CDSIM_ENGINE", "rust").strip().lower() or "rust"
    if choice not in ENGINES:
        raise CdsimError(f"CDSIM_ENGINE must be rust or python, got {choice!r}")
    return choice


def engine_for(config: RunConfig) -> str:
    """The engine a run plays on: ``rust`` (the core alone) when every seat is a built-in
    player; ``table`` (the core, with the Python rules beside it for the Python
    strategies' view: cdsim.engine.table) when a seat is a user's strategy; ``python``
    (the Python engine) only with CDSIM_ENGINE=python or without a core."""
    from strategies.registry import CORE_ONLY, core_only_refusal

    names = config.strategies or config.strategy_pool
    bases = [n.partition("@")[0] for n in names]
    only = next((b for b in bases if b in CORE_ONLY), None)
    builtin = all(b in CORE_PLAYERS for b in bases)
    if wanted() == "python":
        if only:  # a search player has no Python twin
            raise CdsimError(core_only_refusal(only, "not with CDSIM_ENGINE=python"))
        return "python"
    if not available():
        if only:
            raise CdsimError(core_only_refusal(only, "which is not installed (make install "
                                               "builds it with a Rust toolchain)"))
        _note_missing()
        return "python"
    return "rust" if builtin else "table"


@cache
def _note_missing() -> None:
    if sys.stderr.isatty():
        print("cdsim: note: the compiled core is not installed (no Rust toolchain at "
              "`make install`); playing on the Python engine", file=sys.stderr)


@cache
def core_components(path: str | None) -> Any:
    """The core's copy of a component set (made once per process and path)."""
    core = module()
    assert core is not None
    comps: Components = load_components(path)
    return core.Components(components_json(comps))


def play_chunk_frame(config: RunConfig, first: int, last: int, check: bool = False) -> pl.DataFrame:
    """Games first..last-1 of a run, played in the core, as the Python engine's rows."""
    import polars as pl

    from cdsim.game import DEFAULT_START_VP
    from cdsim.records import SEAT_FIELDS
    from cdsim.runner import lineup_for
    from strategies.registry import parse_params, spec_overrides

    core = module()
    assert core is not None
    n = config.players
    games = np.arange(first, last, dtype=np.int64)
    setups = np.empty(len(games), dtype=np.int64)
    names = list(dict.fromkeys(config.strategies or config.strategy_pool))
    index = {name: i for i, name in enumerate(names)}
    lineups = np.empty(len(games) * n, dtype=np.uint8)
    for i, game in enumerate(range(first, last)):
        setups[i], seats = lineup_for(config, game)
        lineups[i * n:(i + 1) * n] = [index[s] for s in seats]
    overrides = parse_params(config.strategy_params)
    # the core plays built-in names; a name@setting spelling is its built-in with overrides
    strategies = [(base, sorted(mine.items()))
                  for base, mine in (spec_overrides(name, overrides) for name in names)]
    start_vp = list(config.start_vp or DEFAULT_START_VP[n])
    columns = core.play_chunk(core_components(config.components), n, start_vp, config.seed,
                              games, setups, lineups, strategies, check)
    strategy = pl.Series(names, dtype=pl.String).gather(columns.pop("strategy"))
    frame: dict[str, Any] = {"strategy": strategy}
    frame.update({k: pl.Series(k, v, dtype=pl.Boolean if v.dtype == np.bool_ else pl.Int64)
                  for k, v in columns.items()})
    order = [*SEAT_FIELDS, "seed", "players", "tiebreak", "game", "setup"]
    return pl.DataFrame({k: frame[k] for k in order})
