"""Counterfactual starting VP: re-rank logged games under another start-VP vector.

Exact only when no strategy reads VP totals (``reads_scores = False``, true of
every built-in): then the starting VP changes nothing during play, and a game's
final VP under vector v is ``final_vp - start_vp + v[seat]``; the winner is the
highest total, ties broken by R10.6 (scroll disc furthest behind, then lower in
the stack), both logged per seat. A strategy that reads scores might have
played differently, so the analysis refuses such runs.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from cdsim.analysis import sequential as seq
from cdsim.analysis.stats import (
    Equivalence,
    FloatArray,
    equivalence,
    seat_design_effect,
    vec,
    wilson,
)
from cdsim.batch.read import Run, SeatArrays
from cdsim.errors import CdsimError
from cdsim.players.registry import make_strategy

SHIFTS = tuple(range(-4, 5))


def check_tolerance(tolerance: float) -> None:
    if not 0 < tolerance < 1:
        raise CdsimError(f"--tolerance must be a share between 0 and 1 (e.g. 0.02), got {tolerance}")


def check_score_blind(run: Run) -> None:
    """Refuse a run whose line-up includes a strategy that reads VP totals."""

    config = run.config
    names = {*config.get("strategies", ()), *config.get("strategy_pool", ())}
    for name in sorted(names):
        try:
            strategy = make_strategy(name)
        except CdsimError as exc:
            raise CdsimError(f"cannot check strategy {name!r} of {run.path}: {exc}") from None
        if getattr(strategy, "reads_scores", True):
            raise CdsimError(f"strategy {name!r} reads VP totals (reads_scores = True): its play may "
                             "depend on the starting VP, so re-ranking would not be exact; "
                             "re-simulate with --start-vp instead")


def winners(arrays: SeatArrays, vector: tuple[int, ...] | NDArray[np.int64]) -> NDArray[np.int64]:
    """The winning seat of every game if the starting VP had been ``vector``."""
    v = np.asarray(vector, dtype=np.int64)
    n = arrays.players
    total = arrays.base + v[None, :]
    key = total * n + (n - 1 - arrays.tiebreak_order)  # ties: R10.6 order decides
    return np.asarray(np.argmax(key, axis=1), dtype=np.int64)


def win_counts(arrays: SeatArrays, vector: tuple[int, ...] | NDArray[np.int64]) -> NDArray[np.int64]:
    return np.bincount(winners(arrays, vector), minlength=arrays.players)


@dataclass(frozen=True)
class VectorResult:
    vector: tuple[int, ...]
    wins: NDArray[np.int64]
    games: int
    deff: float
    low: FloatArray
    high: FloatArray
    test: Equivalence

    @property
    def shares(self) -> FloatArray:
        return np.asarray(self.wins / self.games, dtype=float)


def evaluate(arrays: SeatArrays, vector: tuple[int, ...], tolerance: float,
             rotated: bool) -> VectorResult:
    w = winners(arrays, vector)
    n = arrays.players
    wins = np.bincount(w, minlength=n)
    games = len(w)
    deff = seat_design_effect(w, arrays.setup, n) if rotated else 1.0  # one deal: correlated
    low, high = wilson(wins / games, games / deff)
    return VectorResult(tuple(int(x) for x in vector), wins, games, deff, low, high,
                        equivalence(wins, games, tolerance, deff))


def candidates(current: tuple[int, ...] | NDArray[np.int64], radius: int) -> NDArray[np.int64]:
    """Every vector within ±radius of ``current`` per seat, seat 1 kept (only differences
    matter), in lexicographic order: shape (vectors, seats)."""
    base = np.asarray(current, dtype=np.int64)
    steps = range(-radius, radius + 1)
    offsets = np.array(list(itertools.product(steps, repeat=len(base) - 1)), dtype=np.int64)
    offsets = offsets.reshape(-1, len(base) - 1)
    return base[None, :] + np.hstack([np.zeros((len(offsets), 1), dtype=np.int64), offsets])


def grid_counts(arrays: SeatArrays, vectors: NDArray[np.int64],
                weights: NDArray[np.floating] | NDArray[np.integer] | None = None) -> NDArray[np.int64]:
    """Each seat's wins under each of ``vectors`` (V, seats), as ``win_counts`` one by one:
    shape (V, seats). With ``weights`` (games, B), e.g. bootstrap multiplicities of each
    game, the weighted counts of every column: shape (V, B, seats)."""
    n = arrays.players
    games = len(arrays.base)
    tie = n - 1 - arrays.tiebreak_order  # as in winners(): ties go by R10.6
    w = None if weights is None else np.asarray(weights, dtype=np.float32)
    if w is not None and float(w.sum(axis=0).max(initial=0)) >= 2**24:
        raise ValueError("weights too large to count exactly in float32")
    base = (arrays.base * n + tie).astype(np.int32)  # (total VP) * n + tie order, shifted
    shift = (np.asarray(vectors, dtype=np.int64) * n).astype(np.int32)
    block = max(1, 1_000_000 // max(1, games * n))
    out = []
    for i in range(0, len(vectors), block):
        v = shift[i:i + block]
        win = np.argmax(base[None, :, :] + v[:, None, :], axis=2)
        if w is None:
            rows = np.arange(len(v))[:, None] * n
            out.append(np.bincount((rows + win).ravel(), minlength=len(v) * n).reshape(-1, n))
        else:  # (Vb, G) @ (G, B) per seat; sums of small integers: exact in float32
            out.append(np.rint(np.stack([(win == s).astype(np.float32) @ w for s in range(n)],
                                        axis=-1)).astype(np.int64))
    return np.concatenate(out).astype(np.int64)


def best_index(counts: NDArray[np.int64], vectors: NDArray[np.int64],
               current: tuple[int, ...] | NDArray[np.int64]) -> NDArray[np.int64]:
    """Index of the most equal vector: counts (V, seats) -> a scalar array; (V, B, seats) ->
    one index per column B.

    Objective: the smallest gap between the most and the least winning seat; ties go to the
    smallest sum of squared deviations from equal shares, then to the vector nearest the
    current one (sum of |differences|), then to the first in lexicographic order."""
    c = counts if counts.ndim == 3 else counts[:, None, :]
    n = c.shape[-1]
    total = c.sum(axis=-1)
    keys = (c.max(axis=-1) - c.min(axis=-1),  # spread
            ((n * c - total[..., None]) ** 2).sum(axis=-1),  # n^2 x squared deviations: exact
            np.broadcast_to(np.abs(vectors - np.asarray(current)).sum(axis=1)[:, None],
                            total.shape))
    ok = np.ones(total.shape, dtype=bool)
    for key in keys:
        best = np.where(ok, key, np.iinfo(np.int64).max).min(axis=0)
        ok &= key == best
    first = np.asarray(np.argmax(ok, axis=0), dtype=np.int64)  # lowest index: lexicographic
    return first if counts.ndim == 3 else first[0]


def search(arrays: SeatArrays, current: tuple[int, ...], radius: int = 6) -> tuple[int, ...]:
    """The vector within ±radius of ``current`` whose seat win shares are most equal (seat 1
    keeps its value: only differences matter; the objective is ``best_index``'s)."""
    vectors = candidates(current, radius)
    return tuple(int(x) for x in vectors[int(best_index(grid_counts(arrays, vectors), vectors,
                                                        current))])


def shift_curves(arrays: SeatArrays, current: tuple[int, ...], deff: float = 1.0
                 ) -> tuple[tuple[int, ...], FloatArray, FloatArray, FloatArray]:
    """Each seat's win share as only its own starting VP shifts by SHIFTS (others fixed).

    Returns (shifts, share, low, high), each array shaped (seats, len(shifts)).
    """
    n = arrays.players
    games = len(arrays.base)
    share = np.empty((n, len(SHIFTS)))
    for s in range(n):
        for j, d in enumerate(SHIFTS):
            v = np.asarray(current, dtype=np.int64).copy()
            v[s] += d
            share[s, j] = win_counts(arrays, v)[s] / games
    low, high = wilson(share, games / deff)
    return SHIFTS, share, low, high


@dataclass(frozen=True)
class BalanceResult:
    players: int
    games: int
    tolerance: float
    current: VectorResult
    recommended: VectorResult
    curves: tuple[tuple[int, ...], FloatArray, FloatArray, FloatArray]
    runs: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()
    confirm: tuple[str, ...] = ()  # the commands that confirm the recommendation, as printed
    confirm_games: int | None = None


# What makes runs "the same setup" (poolable): everything in the config but the seed (the
# deals), the games, the chunking and where the component set lies.
SMALL_RUN = 1000  # fewer games than this (or than an exactly fair vector needs) is "small"
SETUP_KEYS = ("players", "strategies", "strategy_pool", "start_vp", "rotate_seats",
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
            if config.get(key) != first.get(key):
                raise CdsimError(f"{run.path}: not the same setup as {runs[0].path} ({key}: "
                                 f"{config.get(key)!r} vs {first.get(key)!r}); pool only runs "
                                 "that differ in their seed")
        seed = int(run.manifest["seed"])
        if seed in seeds:
            raise CdsimError(f"{run.path} and {seeds[seed]} have the same seed {seed}: the same "
                             "deals twice would count as twice the evidence; pool runs of "
                             "different seeds")
        seeds[seed] = run.path
    warnings = []
    tol_games = seq.equivalence_games(runs[0].players, 0.0, tolerance)
    for run in runs:
        if not run.complete:
            warnings.append(f"{run.path}: partial run, {run.games:,} of {run.planned:,} games "
                            "finished (continue it with cdsim simulate --out ... --resume)")
        if run.games < max(SMALL_RUN, tol_games or 0):
            warnings.append(f"{run.path}: small run, {run.games:,} games (showing a vector fair "
                            f"within ±{100 * tolerance:.1f} pp takes about {tol_games or 0:,} "
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


def confirm_commands(run: Run, seeds: Sequence[int], vector: tuple[int, ...], games: int
                     ) -> tuple[str, str]:
    """``cdsim simulate`` of ``vector`` on fresh deals (a seed none of the pooled runs used),
    then ``cdsim balance --radius 0`` of it: the TOST of that vector on games that did not
    choose it. Both run as printed."""
    import shlex

    c = run.config
    n = int(c["players"])
    if c.get("rotate_seats"):
        games = -(-games // n) * n
    seed = max(seeds) + 1
    out = run.path.parent / f"confirm-{'-'.join(map(str, vector))}-seed{seed}"
    strategies = list(c.get("strategies") or [])
    parts = ["cdsim simulate", f"--players {n}", f"--games {games}", f"--seed {seed}",
             f"--start-vp {','.join(map(str, vector))}"]
    if strategies:
        names = strategies[:1] if len(set(strategies)) == 1 else strategies
        parts.append(f"--strategies {shlex.quote(','.join(names))}")
    else:
        parts.append(f"--strategy-pool {shlex.quote(','.join(c['strategy_pool']))}")
    if c.get("rotate_seats"):
        parts.append("--rotate-seats")
    if c.get("strategy_params"):
        parts.append(f"--strategy-params {shlex.quote(c['strategy_params'])}")
    if c.get("components"):
        parts.append(f"--components {shlex.quote(str(c['components']))}")
    parts.append(f"--out {shlex.quote(str(out))}")
    return " ".join(parts), f"cdsim balance {shlex.quote(str(out))} --radius 0"


def analyse(run: Run | Sequence[Run], arrays: SeatArrays | Sequence[SeatArrays],
            tolerance: float = 0.02, radius: int = 6) -> BalanceResult:
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
    current = tuple(int(x) for x in pooled.start_vp[0])
    if (pooled.start_vp != pooled.start_vp[0]).any():
        raise CdsimError(f"{runs[0].path}: the starting VP differ between games; cannot re-rank")
    rotated = runs[0].rotated
    now = evaluate(pooled, current, tolerance, rotated)
    best = search(pooled, current, radius)
    rec = evaluate(pooled, best, tolerance, rotated)
    needed = _confirm_games(pooled, best, tolerance)
    seeds = [int(r.manifest["seed"]) for r in runs]
    confirm = confirm_commands(runs[0], seeds, best, needed or len(pooled.base))
    if needed is None:
        warnings.append(f"at its observed gap ({rec.test.largest_gap:.1%}) the recommended "
                        f"vector {vec(best)} would not be shown within ±{tolerance:.1%} by any "
                        "number of fresh games; the confirm command plays as many as these")
    return BalanceResult(pooled.players, len(pooled.base), tolerance, now, rec,
                         shift_curves(pooled, current, now.deff),
                         tuple(str(r.path) for r in runs), tuple(warnings), confirm, needed)


def _confirm_games(arrays: SeatArrays, vector: tuple[int, ...], tolerance: float) -> int | None:
    """Fresh games that show ``vector`` within the tolerance with 80% chance (TOST at 5% on
    every seat pair), taking its observed pair differences and deal-group variances as the
    truth (optimistic: it was picked as the most equal on these games)."""
    games = seq.CellGames(arrays.base, arrays.tiebreak_order, arrays.setup)
    table = seq.win_table(games, [vector])
    diff, se = table.pair_stats()
    if not np.isfinite(se).all():
        return None
    size = max(1, round(table.games / max(table.groups, 1)))
    return seq.games_for_power(diff[0], se[0] ** 2 * table.games, tolerance, 0.05,
                               multiple=size)


def _verdict(r: VectorResult) -> str:
    t = r.test
    if t.equivalent:
        return (f"every seat gap is within ±{t.tolerance:.1%} (equivalence shown: the 90% bound "
                f"on the largest gap is {t.gap_upper:.1%})")
    return (f"equal seats within ±{t.tolerance:.1%} is not shown (the 90% bound on the gap between "
            f"seats {t.pair[0] + 1} and {t.pair[1] + 1} reaches {t.gap_upper:.1%})")


def explain(result: BalanceResult) -> str:
    cur, rec = result.current, result.recommended
    text = (f"Re-ranked {result.games} logged games exactly (no strategy reads VP totals). "
            f"Now ({vec(cur.vector)}): largest seat gap {cur.test.largest_gap:.1%}; "
            f"{_verdict(cur)}. ")
    if rec.vector == cur.vector:
        text += "No other vector makes the seats more equal."
    else:
        text += (f"Most equal vector ({vec(rec.vector)}): largest gap {rec.test.largest_gap:.1%}; "
                 f"{_verdict(rec)}. It was fitted to these same games, so confirm it on fresh "
                 "ones" + (f": `{result.confirm[0]}`, then `{result.confirm[1]}`."
                           if result.confirm else "."))
    return text


def comparison_table(result: BalanceResult) -> tuple[list[str], list[list[object]]]:
    header = ["seat", f"now: start VP {vec(result.current.vector)}", "win share [95% CI]",
              f"recommended: {vec(result.recommended.vector)}", "win share [95% CI]"]
    rows: list[list[object]] = []
    for s in range(result.players):
        c, r = result.current, result.recommended
        rows.append([s + 1, c.vector[s], f"{c.shares[s]:.1%} [{c.low[s]:.1%}, {c.high[s]:.1%}]",
                     r.vector[s], f"{r.shares[s]:.1%} [{r.low[s]:.1%}, {r.high[s]:.1%}]"])
    return header, rows


def format_text(result: BalanceResult) -> str:
    header, rows = comparison_table(result)
    table: list[list[object]] = [list(header), *rows]
    widths = [max(len(str(r[i])) for r in table) for i in range(len(header))]
    lines = ["  ".join(str(x).ljust(w) for x, w in zip(r, widths, strict=True)).rstrip()
             for r in table]
    cur, rec = result.current, result.recommended
    lines += ["", f"largest seat gap: now {cur.test.largest_gap:.1%}, "
              f"recommended {rec.test.largest_gap:.1%} (tolerance ±{result.tolerance:.1%})",
              f"now: {_verdict(cur)}", f"recommended: {_verdict(rec)}"]
    if cur.deff > 1:
        lines.append(f"(seats rotated: intervals use the effective sample size, design effect "
                     f"{cur.deff:.2f})")
    if result.confirm:
        games = (f"about {result.confirm_games:,} fresh games show it within "
                 f"±{result.tolerance:.1%} with 80% chance if its observed gaps are the truth"
                 if result.confirm_games else "it is unlikely to be shown fair")
        lines += [f"the recommended vector is fitted to these games; confirm it on fresh ones "
                  f"({games}):", f"  {result.confirm[0]}", f"  {result.confirm[1]}"]
    return "\n".join(lines)


def as_json(result: BalanceResult) -> dict[str, object]:
    """The balance result as plain data (``cdsim balance --json``)."""
    def vector(r: VectorResult) -> dict[str, object]:
        return {"start_vp": list(r.vector), "wins": [int(w) for w in r.wins],
                "share": [float(x) for x in r.shares], "low": [float(x) for x in r.low],
                "high": [float(x) for x in r.high], "largest_gap": r.test.largest_gap,
                "gap_upper_90": r.test.gap_upper, "within_tolerance": r.test.equivalent}
    shifts, share, low, high = result.curves
    return {"runs": list(result.runs), "warnings": list(result.warnings),
            "confirm_command": list(result.confirm), "confirm_games": result.confirm_games,
            "games": result.games, "players": result.players, "tolerance": result.tolerance,
            "design_effect": result.current.deff, "current": vector(result.current),
            "recommended": vector(result.recommended),
            "shift_curves": {"shifts": list(shifts), "share": share.tolist(), "low": low.tolist(),
                             "high": high.tolist()}}
