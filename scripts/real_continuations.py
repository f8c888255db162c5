"""``games_needed`` on real games (docs/statistics.md, "The zone measured"): by hand.

    .venv/bin/cdsim simulate --players 2 --games 100000 --strategies greedy,villa \\
        --rotate-seats --seed 40 --out /tmp/pool2
    .venv/bin/cdsim simulate --players 4 --games 200000 \\
        --strategies greedy,villa,landscape,bread --rotate-seats --seed 41 --out /tmp/pool4
    .venv/bin/python -m scripts.real_continuations /tmp/pool2 BUDGET [CELLS]
    .venv/bin/python -m scripts.real_continuations naming /tmp/pool4 CELLS BUDGET
    .venv/bin/python -m scripts.real_continuations within "studies/s3/cells/3p.strong+s*" \
        64000,80000,100000 [CELLS]

``within``: how often a replicate cell decides within each budget, its deals drawn from the
pool (every run folder the pattern names, e.g. a study cell's stages), the budget also its
design (docs/statistics.md: how the default study's 3-player strong budget was sized).

A pool of real games is taken as the truth (issue 40's audit): a replicate cell draws its
deals with replacement from the pool, in the study's doubling stages up to ``BUDGET``
(tolerance 2 pp, zone 0.5 pp, alpha 5%, radius 4); an undecided cell with a number is
continued by one fresh stage of exactly ``games_needed`` deals' games, drawn the same way,
and judged again. Each deal's wins under every candidate are counted once (``per_deal``),
so a replicate costs a few sums.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from cdsim.analysis import anytime as at
from cdsim.analysis.candidates import WinTable, _winners, candidates
from cdsim.rules.game import DEFAULT_START_VP
from cdsim.study.games import read_games

TOL, ZONE, ALPHA, RADIUS = 0.02, 0.005, 0.05, 4


def per_deal(run: Path) -> tuple[NDArray[np.int8], NDArray[np.int64], int]:
    """(wins per candidate, deal and seat (V, K, n); the candidates; games per deal)."""
    games = read_games(run)
    n = games.players
    vectors = candidates(DEFAULT_START_VP[n], RADIUS)
    _, inverse = np.unique(games.group, return_inverse=True)
    k = int(inverse.max()) + 1
    per = games.games // k
    keys = (games.gained * n + (n - 1 - games.tiebreak)).astype(np.int32)
    wins = np.zeros((len(vectors), k, n), dtype=np.int8)
    group = inverse.reshape(-1)
    for start in range(0, len(vectors), 16):
        winner = _winners(keys, (vectors[start:start + 16] * n).astype(np.int32))  # (b, games)
        b = winner.shape[0]
        cell = (np.arange(b)[:, None] * k + group[None, :]) * n + winner
        wins[start:start + b] = np.bincount(cell.reshape(-1), minlength=b * k * n).reshape(b, k, n)
    return wins, vectors, per


def table(wins: NDArray[np.int8], vectors: NDArray[np.int64], deals: NDArray[np.int64],
          per: int) -> WinTable:
    w = wins[:, deals, :].astype(np.float64)
    return WinTable(vectors, w.sum(axis=1).astype(np.int64), np.einsum("vkn,vkm->vnm", w, w),
                    w.sum(axis=1) * per, len(deals) * per, len(deals), float(len(deals) * per**2))


def pooled(pattern: str) -> tuple[NDArray[np.int8], NDArray[np.int64], int]:
    """``per_deal`` of every run folder ``pattern`` names, the deals concatenated."""
    where = Path(pattern)
    parts = [per_deal(f) for f in sorted(where.parent.glob(where.name))]
    if not parts:
        raise SystemExit(f"no run folder matches {pattern}")
    return np.concatenate([p[0] for p in parts], axis=1), parts[0][1], parts[0][2]


def within(pattern: str, budgets: list[int], cells: int) -> None:
    """Replicate cells drawn from the pool: decided within each budget, and their games."""
    wins, vectors, per = pooled(pattern)
    rule = tuple(int(x) for x in DEFAULT_START_VP[vectors.shape[1]])
    k = wins.shape[1]
    truth = table(wins, vectors, np.arange(k), per).gaps
    best = np.argsort(truth)[:3]
    print(f"pool of {k * per:,} games; most equal: " + ", ".join(
        f"{'/'.join(str(int(x)) for x in vectors[i])} {100 * truth[i]:.2f} pp" for i in best))
    for budget in budgets:
        sizes = at.stage_sizes(budget, max(budget // 64, 30 * per), per)
        rng = np.random.default_rng(budget)
        played = []
        for _ in range(cells):
            tables = [table(wins, vectors, rng.integers(0, k, s // per), per) for s in sizes]
            v = at.decide(tables, rule, TOL, ALPHA, 3, design_games=budget, predict=False,
                          zone=ZONE)
            if v.decision != "undecided":
                played.append(v.games)
        print(f"budget {budget:,}: {len(played)} of {cells} decided, mean games when decided "
              f"{np.mean(played) if played else 0:,.0f}", flush=True)


def measure(run: Path, budget: int, cells: int) -> None:
    wins, vectors, per = per_deal(run)
    rule = tuple(int(x) for x in DEFAULT_START_VP[vectors.shape[1]])
    k, n = wins.shape[1], vectors.shape[1]
    sizes = at.stage_sizes(budget, max(budget // 64, 30 * per), per)
    rng = np.random.default_rng(0)
    undecided = numbered = passed = 0
    needed: list[int] = []
    for _ in range(cells):
        tables = [table(wins, vectors, rng.integers(0, k, s // per), per) for s in sizes]
        v = at.decide(tables, rule, TOL, ALPHA, 3, design_games=budget, zone=ZONE)
        if v.decision != "undecided":
            continue
        undecided += 1
        if v.games_needed is None:
            continue
        numbered += 1
        needed.append(v.games_needed)
        more = table(wins, vectors, rng.integers(0, k, -(-v.games_needed // per)), per)
        passed += at.decide([*tables, more], rule, TOL, ALPHA, 3, design_games=budget,
                            predict=False, zone=ZONE).decision == "confirmed"
    print(f"{n} players, {run}: budget {budget:,}, {cells} cells: {undecided} undecided, "
          f"{numbered} with a number (median {int(np.median(needed)) if needed else 0:,}), "
          f"{passed} confirmed by one stage of that many "
          f"({passed / max(numbered, 1):.0%})", flush=True)


def naming(run: Path, budget: int, cells: int) -> None:
    """How far the named vector's true gap (on the whole pool) lies from the most equal
    candidate's, in replicate cells that confirm one."""
    wins, vectors, per = per_deal(run)
    rule = tuple(int(x) for x in DEFAULT_START_VP[vectors.shape[1]])
    k = wins.shape[1]
    truth = table(wins, vectors, np.arange(k), per).gaps
    sizes = at.stage_sizes(budget, max(budget // 64, 30 * per), per)
    rng = np.random.default_rng(1)
    behind: list[float] = []
    for _ in range(cells):
        tables = [table(wins, vectors, rng.integers(0, k, s // per), per) for s in sizes]
        v = at.decide(tables, rule, TOL, ALPHA, 3, design_games=budget, predict=False,
                      zone=ZONE)
        if v.decision == "confirmed":
            row = int(np.flatnonzero((vectors == np.asarray(v.vector)).all(axis=1))[0])
            behind.append(float(truth[row] - truth.min()))
    gaps = np.asarray(behind)
    print(f"{vectors.shape[1]} players, {run}: budget {budget:,}, {cells} cells, "
          f"{len(gaps)} confirmed; the named vector's true gap within 0.25 pp of the most "
          f"equal's in {np.mean(gaps <= 0.0025):.0%}, within the zone in "
          f"{np.mean(gaps <= ZONE):.0%} (most equal {100 * truth.min():.2f} pp)", flush=True)


if __name__ == "__main__":
    count = int(sys.argv[3]) if len(sys.argv) > 3 else 200
    if sys.argv[1] == "within":
        within(sys.argv[2], [int(b) for b in sys.argv[3].split(",")],
               int(sys.argv[4]) if len(sys.argv) > 4 else 100)
    elif sys.argv[1] == "naming":
        naming(Path(sys.argv[2]), int(sys.argv[4]) if len(sys.argv) > 4 else 100_000, count)
    else:
        measure(Path(sys.argv[1]), int(sys.argv[2]), count)
