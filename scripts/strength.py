"""Measured competence of the scripted players (make strength). Prints figures.

1. 2 players, each scripted strategy vs random, seats alternating: win rate, 95% Wilson CI.
2. 4 players, greedy/villa/landscape/bread, seats rotated cyclically: win rate and mean VP
   with 95% CIs, share of scoring cards failed (-4), mean stored tiles.
"""

from __future__ import annotations

import argparse
import math
import time
from collections import defaultdict

from joblib import Parallel, delayed

from cdsim.analysis.stats import Z95 as Z
from cdsim.analysis.stats import wilson
from cdsim.games.carpe_diem.engine.table import Table
from cdsim.games.carpe_diem.players.registry import make_lineup
from cdsim.games.carpe_diem.rules.game import PHASES

CARDS_PER_GAME = 2 * PHASES  # R3.1, R8.3: 4 scoring phases x one disc x 2 cards


def play_chunk(lineup: list[str], seeds: range) -> list[tuple[str, int, int, int, int]]:
    """(strategy, won, final_vp, failed_cards, stored) per seat, seats rotated by seed."""
    n = len(lineup)
    rows = []
    for seed in seeds:
        r = seed % n
        record = Table(None, make_lineup(lineup[r:] + lineup[:r], n), seed).play()
        rows += [(s.strategy, int(s.won), s.final_vp, s.failed_cards, s.tiles_stored)
                 for s in record.seats]
    return rows


def run(lineup: list[str], games: int, jobs: int) -> list[tuple[str, int, int, int, int]]:
    chunk = 100
    parts = Parallel(n_jobs=jobs)(delayed(play_chunk)(lineup, range(i, min(i + chunk, games)))
                                  for i in range(0, games, chunk))
    return [row for part in parts for row in part]


def summarise(rows: list[tuple[str, int, int, int, int]], games: int, players: int) -> None:
    by: dict[str, list[tuple[str, int, int, int, int]]] = defaultdict(list)
    for row in rows:
        by[row[0]].append(row)
    print(f"  {'strategy':<10} {'win rate':>8} {'95% CI':>15} {'mean VP':>8} {'95% CI':>15} "
          f"{'failed':>7} {'stored':>6}")
    for name, rs in by.items():
        n = len(rs)
        wins = sum(r[1] for r in rs)
        lo, hi = (float(x) for x in wilson(wins / n, n))
        vps = [r[2] for r in rs]
        mean = sum(vps) / n
        sd = math.sqrt(sum((v - mean) ** 2 for v in vps) / (n - 1))
        failed = sum(r[3] for r in rs) / (CARDS_PER_GAME * n)
        stored = sum(r[4] for r in rs) / n
        print(f"  {name:<10} {wins / n:>8.3f} [{lo:.3f}, {hi:.3f}] {mean:>8.1f} "
              f"[{mean - Z * sd / math.sqrt(n):.1f}, {mean + Z * sd / math.sqrt(n):.1f}] "
              f"{failed:>7.3f} {stored:>6.2f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=4000)
    ap.add_argument("--jobs", type=int, default=-1)
    args = ap.parse_args()
    for name in ("greedy", "villa", "landscape", "bread"):
        t0 = time.perf_counter()
        rows = run([name, "random"], args.games, args.jobs)
        print(f"2 players, {name} vs random, {args.games} games, seats alternating "
              f"({time.perf_counter() - t0:.0f} s):")
        summarise(rows, args.games, 2)
    t0 = time.perf_counter()
    rows = run(["greedy", "villa", "landscape", "bread"], args.games, args.jobs)
    print(f"4 players, greedy/villa/landscape/bread, {args.games} games, seats rotated "
          f"({time.perf_counter() - t0:.0f} s):")
    summarise(rows, args.games, 4)


if __name__ == "__main__":
    main()
