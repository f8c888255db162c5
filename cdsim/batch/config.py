"""A run's configuration: what determines its rows, the chunk plan, and the limits a run
must fit in (checked before anything is written).

Reproducibility contract: game ``g`` of a run with seed ``S`` deals setup ``g // N``
(with --rotate-seats, N = players; else setup = g) from the core's seed ``(S, setup)``
(core/src/rng.rs); chunks are fixed ranges of game ids (``chunk_size``), independent of
``--jobs``. So the rows are the same for any --jobs, backend, completion order, or
kill-and-resume history (only the driver writes: cdsim.batch.folder).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from cdsim import core
from cdsim.errors import CdsimError
from cdsim.players.registry import BUILTIN
from cdsim.players.sandbox import check_decision_timeout, decision_timeout

# What one run may ask for: its rows (games x players, about 300 bytes each on disk) and
# its chunk list (held in memory and in the manifest) must fit this machine.
MAX_GAMES = 100_000_000
MAX_CHUNK_SIZE = 100_000
MAX_CHUNKS = 100_000
MAX_START_VP = 1_000_000  # |starting VP| (the core holds VP as 32-bit integers)
MAX_JOBS = 256


def check_jobs(jobs: int, flag: str = "--jobs") -> int:
    """A worker count joblib takes: -1 (every core) or 1..MAX_JOBS, or one error line."""
    if jobs != -1 and not 1 <= jobs <= MAX_JOBS:
        raise CdsimError(f"{flag} must be a number of workers between 1 and {MAX_JOBS}, "
                         f"or -1 for every core, got {_cut(jobs)}")
    return jobs


def _cut(value: object) -> str:
    text = str(value)
    return text if len(text) <= 40 else text[:37] + "..."


@dataclass(frozen=True)
class RunConfig:
    """Everything that determines a run's rows (written whole into the manifest)."""

    players: int
    games: int
    seed: int
    strategies: tuple[str, ...] = ()  # one per seat
    strategy_pool: tuple[str, ...] = ()  # or a pool sampled per game
    start_vp: tuple[int, ...] = ()
    rotate_seats: bool = False
    components: str | None = None
    chunk_size: int = 250
    strategy_params: str | None = None
    components_digest: str = field(default="", compare=False)
    # a user strategy's time limit per decision (s; 0: none): recorded, not the run's
    # identity (--resume may change it); the process's --decision-timeout by default
    decision_timeout: float = field(default_factory=decision_timeout, compare=False)

    def validate(self) -> None:
        if self.players not in (2, 3, 4):
            raise CdsimError(f"--players must be 2, 3 or 4, got {_cut(self.players)}")
        if not 1 <= self.games <= MAX_GAMES:
            raise CdsimError(f"--games must be between 1 and {MAX_GAMES:,} (a run's rows must "
                             f"fit this machine's memory and disk), got {_cut(self.games)}")
        if not 0 <= self.seed < 2**63:  # the rows' seed column is a 64-bit integer
            raise CdsimError(f"--seed must be between 0 and 2**63 - 1, got {_cut(self.seed)}")
        if not 1 <= self.chunk_size <= MAX_CHUNK_SIZE:
            raise CdsimError(f"--chunk-size must be between 1 and {MAX_CHUNK_SIZE:,}, "
                             f"got {_cut(self.chunk_size)}")
        chunks = -(-self.games // self.chunk_size)
        if chunks > MAX_CHUNKS:
            raise CdsimError(f"--games {self.games} in chunks of {self.chunk_size} makes "
                             f"{chunks:,} chunks, at most {MAX_CHUNKS:,}: raise --chunk-size")
        if self.start_vp and len(self.start_vp) != self.players:
            raise CdsimError(f"--start-vp needs {self.players} values (one per seat), "
                             f"got {len(self.start_vp)}")
        for vp in self.start_vp:
            if isinstance(vp, bool) or not isinstance(vp, int) or abs(vp) > MAX_START_VP:
                raise CdsimError(f"--start-vp values must be integers between -{MAX_START_VP:,} "
                                 f"and {MAX_START_VP:,}, got {_cut(vp)}")
        if not self.strategies and not self.strategy_pool:
            raise CdsimError("give the players: --strategies (one per seat, or one name for "
                             "all) or --strategy-pool")
        if self.strategies and self.strategy_pool:
            raise CdsimError("give --strategies (one per seat) or --strategy-pool, not both")
        if self.strategies and len(self.strategies) != self.players:
            raise CdsimError(f"--strategies names {len(self.strategies)} strategies for "
                             f"{self.players} players (one per seat)")
        check_decision_timeout(self.decision_timeout)
        if self.rotate_seats and self.games % self.players:
            raise CdsimError(f"--rotate-seats plays every setup in all {self.players} seat "
                             f"rotations: --games must be a multiple of {self.players}")

    def identity(self) -> dict[str, Any]:
        """What must match for --resume to continue a run."""
        d = asdict(self)
        d.pop("components")  # the path may move; the digest is what matters
        d.pop("decision_timeout")  # how long a strategy may think, not what it plays
        return d


def lineup_for(config: RunConfig, game: int) -> tuple[int, list[str]]:
    """(setup id, strategy names by seat) of one game of the run."""
    n = config.players
    setup = game // n if config.rotate_seats else game
    if config.strategy_pool:
        pool_rng = np.random.default_rng(np.random.SeedSequence(config.seed,
                                                                spawn_key=(setup, 1)))
        names = [config.strategy_pool[int(i)]
                 for i in pool_rng.integers(len(config.strategy_pool), size=n)]
    else:
        names = list(config.strategies)
    if config.rotate_seats:
        r = game % n
        names = names[r:] + names[:r]
    return setup, names


def replay_command(config: RunConfig, game: int) -> str:
    """The `cdsim play` command that replays one game of a run."""
    setup, names = lineup_for(config, game)
    parts = ["cdsim play", f"--players {config.players}", f"--seed {config.seed}",
             f"--setup {setup}", f"--strategies {','.join(names)}"]
    if config.start_vp:
        parts.append(f"--start-vp {','.join(map(str, config.start_vp))}")
    if config.strategy_params:
        parts.append(f"--strategy-params {config.strategy_params}")
    if config.components:
        parts.append(f"--components {config.components}")
    return " ".join(parts)


def chunk_plan(config: RunConfig) -> list[tuple[int, int]]:
    k = config.chunk_size
    return [(i, min(i + k, config.games)) for i in range(0, config.games, k)]


def config_from_manifest(manifest: dict[str, Any]) -> RunConfig:
    raw = dict(manifest["config"])
    for key in ("strategies", "strategy_pool", "start_vp"):
        raw[key] = tuple(raw[key])
    return RunConfig(**raw)



def engine_for(config: RunConfig) -> str:
    """How a run plays on the core: ``rust`` (the core alone, a chunk at a time) when every
    seat is a built-in player; ``table`` (a game at a time, the Python rules beside the
    core for the Python strategies' view: cdsim.engine.table) when a seat is a user's
    strategy. Without the core nothing plays: one line."""

    if not core.available():
        raise CdsimError("the compiled core (cdsim._core) is not installed: run `make "
                         "install` (it builds it with the Rust toolchain)")
    names = config.strategies or config.strategy_pool
    return "rust" if all(n.partition("@")[0] in BUILTIN for n in names) else "table"


__all__ = ["MAX_CHUNKS", "MAX_CHUNK_SIZE", "MAX_GAMES", "MAX_JOBS", "MAX_START_VP", "RunConfig",
           "check_jobs", "chunk_plan", "config_from_manifest", "engine_for", "lineup_for",
           "replay_command"]
