"""A run's balance, judged: the runs of ``cdsim balance`` (one run, several of one setup pooled,
or a study cell's), refused when a player reads VP totals (re-ranking is exact only when the
starting VP change no decision: the manifest records ``reads_scores`` when the run is
played), judged by ``cdsim.analysis.balance`` (the study's procedure on one run, a one-stage
cell), with the commands that confirm a vector on fresh games. ``reports.balance`` words the
``BalanceResult``; seats are counted from 0 here, from 1 on the page.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl

from cdsim.analysis.anytime import ZONE
from cdsim.analysis.balance import Balance, assess, check_tolerance, fair_games
from cdsim.analysis.candidates import CellGames
from cdsim.analysis.rare import RareWinner, rare_winners
from cdsim.batch import cost
from cdsim.batch.folder import CELLS
from cdsim.batch.read import Run, SeatArrays, open_run, seat_arrays
from cdsim.errors import CdsimError

__all__ = ["BalanceResult", "analyse", "analyse_cell", "cell_stages", "check_score_blind",
           "confirm_commands", "pool", "same_players", "stage_arrays"]


def check_score_blind(run: Run) -> None:
    """Refuse a run whose line-up includes a player that reads VP totals (as its manifest
    recorded at play time)."""
    for name, reads in sorted(run.reads_scores.items()):
        if reads:
            raise CdsimError(f"strategy {name!r} reads VP totals (reads_scores = True): its play may "
                             "depend on the starting VP, so re-ranking would not be exact; "
                             "re-simulate with --start-vp instead")


def cell_games(arrays: SeatArrays) -> CellGames:
    return CellGames(arrays.base, arrays.tiebreak_order, arrays.setup)


@dataclass(frozen=True)
class BalanceResult:
    """The judgement (``Balance``) and where it came from: the runs, warnings about them,
    and the two commands that confirm the most equal vector on fresh games."""

    balance: Balance
    runs: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()
    confirm: tuple[str, ...] = ()
    game_ms: float = 0.0  # CPU ms of one game of this setup at the recorded costs (cost)
    rare: tuple[RareWinner, ...] = ()  # strategies winning below rare.FLOOR of their seats
    # wall seconds a game as these runs were played (their manifests' wall time over their
    # games; 0: not recorded): measured where they were played, not on a quiet machine
    pace: float = 0.0

    def games_time(self, games: int) -> str:
        """`` (about 3 min at the pace these games were played)``: how long ``games`` of this
        setup take, from the pooled runs' own wall time; else from the recorded costs, said
        so (a quiet machine's, not measured here)."""
        if self.pace > 0:
            return f" (about {cost.duration(games * self.pace)} at the pace these games were played)"
        if self.game_ms:
            return (f" (about {cost.games_time(games, self.game_ms)} at the recorded costs of a "
                    "quiet machine, not measured here)")
        return ""

    @property
    def players(self) -> int:
        return self.balance.players

    @property
    def games(self) -> int:
        return self.balance.games

    @property
    def tolerance(self) -> float:
        return self.balance.tolerance

    @property
    def vector(self) -> tuple[int, ...]:
        """The vector named: confirmed, or the most equal so far."""
        return self.balance.verdict.vector


# What makes runs "the same setup" (poolable): everything in the config but the seed (the
# deals), the games, the chunking and where the component set lies.
SMALL_RUN = 1000  # fewer games than this (or than an exactly fair vector needs) is "small"
SETUP_KEYS = ("game", "players", "strategies", "strategy_pool", "start_vp", "rotate_seats",
              "strategy_params", "components_digest")


def pool(runs: Sequence[Run], arrays: Sequence[SeatArrays], tolerance: float = 0.02
         ) -> tuple[SeatArrays, list[str]]:
    """The games of several runs of the same setup as one sample (each run's deals kept
    apart: setup ids offset), and warnings about small or partial runs. Runs that differ in
    their setup, or that share a seed (the same deals twice), are refused."""
    first = runs[0].config
    seeds: dict[int, Path] = {}
    for run in runs:
        config = run.config
        for key in SETUP_KEYS:
            if getattr(config, key) != getattr(first, key):
                # as the manifests say (a Carpe Diem one names no game: its name then)
                said, then = (c.record().get(key, getattr(c, key)) for c in (config, first))
                raise CdsimError(f"{run.path}: not the same setup as {runs[0].path} ({key}: "
                                 f"{said!r} vs {then!r}); pool only runs that differ in their "
                                 "seed")
        same_players(run, runs[0])
        seed = config.seed
        if seed in seeds:
            raise CdsimError(f"{run.path} and {seeds[seed]} have the same seed {seed}: the same "
                             "deals twice would count as twice the evidence; pool runs of "
                             "different seeds")
        seeds[seed] = run.path
    warnings = []
    needed = fair_games(runs[0].players, tolerance)
    for run in runs:
        if not run.complete:
            warnings.append(f"{run.path}: partial run, {run.games:,} of {run.planned:,} games "
                            "finished (continue it with cdsim simulate --out ... --resume)")
        if run.games < max(SMALL_RUN, needed or 0):
            warnings.append(f"{run.path}: small run, {run.games:,} games (showing a vector fair "
                            f"within ±{100 * tolerance:.1f} pp takes about {needed or 0:,} "
                            "games even if it were exactly fair)")
    offset, setups = 0, []
    for a in arrays:
        setups.append(a.setup - a.setup.min() + offset if len(a.setup) else a.setup)
        offset = int(setups[-1].max()) + 1 if len(a.setup) else offset
    pooled = SeatArrays(setup=np.concatenate(setups),
                        start_vp=np.concatenate([a.start_vp for a in arrays]),
                        base=np.concatenate([a.base for a in arrays]),
                        tiebreak_order=np.concatenate([a.tiebreak_order for a in arrays]),
                        won=np.concatenate([a.won for a in arrays]))
    return pooled, warnings


def same_players(run: Run, first: Run) -> None:
    """Refuse to pool two runs whose scripted players differ under one name: played with
    two profiles files whose tables for it differ (as their manifests record them,
    ``cdsim.games.played``; none recorded: the shipped tables)."""
    mine, theirs = run.manifest.profiles, first.manifest.profiles
    name = run.config.spec.roster.differs(mine, theirs)
    if name is not None:
        def said(r: Run) -> str:
            record = r.manifest.profiles
            return "the shipped table" if record is None or name not in record.players \
                else f"the table of {record.file}"

        raise CdsimError(f"{run.path}: strategy {name!r} is not the {name} of {first.path} "
                         f"({said(run)} vs {said(first)}): two players under one name; "
                         "pool only runs played with the same tables")


def confirm_commands(run: Run, seeds: Sequence[int], vector: tuple[int, ...], games: int
                     ) -> tuple[str, str]:
    """``cdsim simulate`` of ``vector`` on fresh deals (a seed none of the pooled runs used),
    then ``cdsim balance --radius 0`` of it: the TOST of that vector on games that did not
    choose it. Both run as printed."""
    c = run.config
    n = c.players
    if c.rotate_seats:
        games = -(-games // n) * n
    seed = max(seeds) + 1
    out = run.path.parent / f"confirm-{'-'.join(map(str, vector))}-seed{seed}"
    strategies = [spec.spelling for spec in c.strategies]
    # --game only for another game than the default, whose commands read as they did
    parts = ["cdsim simulate", *c.spec.game_flag(),
             f"--players {n}", f"--games {games}", f"--seed {seed}",
             f"--start-vp {','.join(map(str, vector))}"]
    if strategies:
        names = strategies[:1] if len(set(strategies)) == 1 else strategies
        parts.append(f"--strategies {shlex.quote(','.join(names))}")
    else:
        pool = ",".join(spec.spelling for spec in c.strategy_pool)
        parts.append(f"--strategy-pool {shlex.quote(pool)}")
    if c.rotate_seats:
        parts.append("--rotate-seats")
    if c.strategy_params:
        parts.append(f"--strategy-params {shlex.quote(c.strategy_params)}")
    if c.components:
        parts.append(f"--components {shlex.quote(c.components)}")
    parts.append(f"--out {shlex.quote(str(out))}")
    if run.manifest.profiles is not None:  # its scripted players: the run's own copy
        parts.insert(0, c.spec.roster.kept_env(run.path))
    return " ".join(parts), f"cdsim balance {shlex.quote(str(out))} --radius 0"


def analyse(run: Run | Sequence[Run], arrays: SeatArrays | Sequence[SeatArrays],
            tolerance: float = 0.02, radius: int = 6, zone: float = ZONE) -> BalanceResult:
    """The balance of one run, or of several runs of the same setup pooled (``pool``)."""
    runs = [run] if isinstance(run, Run) else list(run)
    many = [arrays] if isinstance(arrays, SeatArrays) else list(arrays)
    check_tolerance(tolerance)
    for r in runs:
        check_score_blind(r)
    pooled, warnings = pool(runs, many, tolerance) if len(runs) > 1 else (many[0], [])
    if len(runs) == 1 and not runs[0].complete:
        warnings.append(f"{runs[0].path}: partial run, {runs[0].games:,} of "
                        f"{runs[0].planned:,} games finished")
    if (pooled.start_vp != pooled.start_vp[0]).any():
        raise CdsimError(f"{runs[0].path}: the starting VP differ between games; cannot re-rank")
    current = tuple(int(x) for x in pooled.start_vp[0])
    per_deal = pooled.players if runs[0].rotated else 1
    result = assess(cell_games(pooled), current, tolerance, radius, per_deal, zone)
    confirm: tuple[str, ...] = ()
    if not result.confirmed:
        seeds = [r.config.seed for r in runs]
        confirm = confirm_commands(runs[0], seeds, result.verdict.vector,
                                   result.confirm_games or len(pooled.base))
    config = runs[0].config
    # the game's recorded costs of its players (make bench: GameSpec.seat_ms, table_ms)
    ms = cost.game_ms([[s.spelling for s in config.strategies]],
                      [s.spelling for s in config.strategy_pool], pooled.players, config.game)
    played, wall = sum(r.games for r in runs), sum(r.manifest.wall_seconds for r in runs)
    return BalanceResult(result, tuple(str(r.path) for r in runs), tuple(warnings), confirm,
                         ms, rare_winners(strategy_wins(runs)),
                         wall / played if played and wall > 0 else 0.0)


def strategy_wins(runs: Sequence[Run]) -> dict[str, tuple[int, int]]:
    """Per strategy, (wins, seats played) over ``runs``, at the starting VP played."""
    out: dict[str, tuple[int, int]] = {}
    for r in runs:
        table = (r.scan(("strategy", "won")).group_by("strategy")
                 .agg(pl.col("won").sum().alias("wins"), pl.len().alias("seats")).collect())
        for name, wins, seats in table.iter_rows():
            w, n = out.get(str(name), (0, 0))
            out[str(name)] = (w + int(wins), n + int(seats))
    return out


CELL_RUN = re.compile(r"\+s(\d+)(?:\.[^/]*)?$")  # KEY+sSTAGE or KEY+sSTAGE.LINEUP


def cell_stages(cell: Path) -> list[list[Path]]:
    """The run folders of a study cell named ``STUDY/KEY`` (e.g. ``studies/x/2p.scripted``):
    ``STUDY/cells/KEY+sK`` or ``KEY+sK.LINEUP`` (one per line-up), grouped by stage K in
    order. Read-only: the study's own layout (``cdsim.study.store.run_folder``)."""
    study, key = cell.parent, cell.name
    folder = study / CELLS
    if not folder.is_dir():
        raise CdsimError(f"--cell {cell}: {folder} is not a folder (name a study folder, then "
                         "the cell, e.g. studies/x/2p.scripted)")
    stages: dict[int, list[Path]] = {}
    for run in sorted(folder.iterdir()):
        if run.name.startswith(f"{key}+s") and (m := CELL_RUN.fullmatch(run.name[len(key):])):
            stages.setdefault(int(m.group(1)), []).append(run)
    if not stages:
        raise CdsimError(f"--cell {cell}: no run folders {folder / key}+s* (the cells are the "
                         f"folder names in {folder} before '+s')")
    if sorted(stages) != list(range(len(stages))):
        raise CdsimError(f"--cell {cell}: stages {sorted(stages)} are not 0, 1, 2, ... in a row")
    return [stages[k] for k in range(len(stages))]


def stage_arrays(runs: Sequence[Run], arrays: Sequence[SeatArrays]) -> CellGames:
    """One stage of a cell: its line-ups played the same deals (one seed), so a deal group
    is that deal in every line-up and rotation (setup ids shared)."""
    seeds = {r.config.seed for r in runs}
    if len(seeds) != 1:
        raise CdsimError(f"{runs[0].path.parent}: the line-ups of one stage have different "
                         f"seeds {sorted(seeds)}; not one stage of a study cell")
    return CellGames(np.concatenate([a.base for a in arrays]),
                     np.concatenate([a.tiebreak_order for a in arrays]),
                     np.concatenate([a.setup for a in arrays]))


def analyse_cell(cell: Path, tolerance: float = 0.02, radius: int = 6, zone: float = ZONE
                 ) -> BalanceResult:
    """The balance of a study cell: every line-up of every stage, judged by the study's
    procedure with the cell's stages as its stages."""
    check_tolerance(tolerance)
    stages, runs, warnings = [], [], []
    rule: tuple[int, ...] | None = None
    for paths in cell_stages(cell):
        opened = [open_run(p) for p in paths]
        arrays = [seat_arrays(r) for r in opened]
        for r, a in zip(opened, arrays, strict=True):
            check_score_blind(r)
            if not r.complete:
                warnings.append(f"{r.path}: partial run, {r.games:,} of {r.planned:,} games "
                                "finished (the study has not finished this stage)")
            rule = rule or tuple(int(x) for x in a.start_vp[0])
            if (a.start_vp != np.asarray(rule)).any():
                raise CdsimError(f"{r.path}: other starting VP than {rule}; not one cell")
        stages.append(stage_arrays(opened, arrays))
        runs += opened
    assert rule is not None
    per_deal = runs[0].players if runs[0].rotated else 1
    result = assess(stages, rule, tolerance, radius, per_deal, zone)
    return BalanceResult(result, tuple(str(r.path) for r in runs), tuple(warnings))
