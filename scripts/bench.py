"""Benchmark (make bench): prints figures on this machine; never fails on them.

1. median ms per 4-player game, single process: random players and the scripted mix,
   with the compiled modules (make install) and with the Python sources (CDSIM_PURE=1);
2. games/s of `cdsim simulate --jobs 1` and `--jobs 2` (scripted mix);
3. peak memory (max RSS of the driver and of any worker) of a 20,000-game run;
4. how long `cdsim report` and `cdsim balance` take on that run.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from cdsim import native
from cdsim.game import GameConfig, play_game
from strategies.registry import make_lineup

MIX = ["greedy", "villa", "landscape", "bread"]


def median_ms(lineup_names: list[str], games: int, passes: int = 3,
              players: int = 4) -> tuple[float, float]:
    """Over ``passes`` passes of the same seeds: the median ms per game, and the median
    over seeds of each seed's best pass (what the code costs when the shared machine
    leaves it alone, as timeit's best-of)."""
    config = GameConfig(players)
    times = [[0.0] * passes for _ in range(games)]
    for k in range(passes):
        for seed in range(games):
            lineup = make_lineup(lineup_names, players)
            t0 = time.perf_counter()
            play_game(config, lineup, seed)
            times[seed][k] = (time.perf_counter() - t0) * 1000
    return (statistics.median(t for per_seed in times for t in per_seed),
            statistics.median(min(per_seed) for per_seed in times))


def reference_ms() -> float:
    """A fixed pure-Python loop (median of 9): how fast the shared machine is right now,
    to compare bench runs made at different times."""
    times = []
    for _ in range(9):
        t0 = time.perf_counter()
        sum(i * i for i in range(200_000))
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times)


def medians(scale: int) -> None:
    how = "compiled (mypyc)" if native.active() else "Python sources"
    print(f"reference loop: {reference_ms():.1f} ms (the machine's speed now; lower is faster)",
          flush=True)
    for label, lineup, games in (("random", ["random"], 200 // scale),
                                 ("scripted mix (greedy, villa, landscape, bread)", MIX,
                                  100 // scale)):
        ms, best = median_ms(lineup, games)
        print(f"{label}, 4 players, single process, {how}: median {ms:.1f} ms/game "
              f"({1000 / ms:.0f} games/s) over 3 x {games} games; best of 3 per game: "
              f"median {best:.1f} ms", flush=True)


def simulate(games: int, jobs: int, strategies: list[str], out: Path) -> float:
    cmd = [sys.executable, "-m", "cdsim", "simulate", "--out", str(out), "--players", "4",
           "--games", str(games), "--strategies", ",".join(strategies), "--jobs", str(jobs),
           "--seed", "1", "--chunk-size", "100"]
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    return games / (time.perf_counter() - t0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--quick", action="store_true", help="fewer games (a smoke run)")
    ap.add_argument("--medians-only", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    scale = 10 if args.quick else 1
    if args.medians_only:
        medians(scale)
        return
    medians(scale)
    if native.active():  # the same figures from the Python sources, in a fresh process
        subprocess.run([sys.executable, __file__, "--medians-only", *sys.argv[1:]],
                       check=True, env={**os.environ, "CDSIM_PURE": "1"})
    with tempfile.TemporaryDirectory() as tmp:
        for jobs in (1, 2):
            rate = simulate(1200 // scale, jobs, MIX, Path(tmp) / f"j{jobs}")
            print(f"cdsim simulate --jobs {jobs}, scripted mix: {rate:.1f} games/s", flush=True)
        big = 20000 // scale
        t0 = time.perf_counter()
        simulate(big, 2, ["random"] * 4, Path(tmp) / "big")
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        print(f"peak memory of a {big}-game run (random players, --jobs 2): "
              f"{peak:.0f} MiB max RSS of any one process "
              f"({time.perf_counter() - t0:.0f} s)", flush=True)
        for command in ("report", "balance"):
            t0 = time.perf_counter()
            subprocess.run([sys.executable, "-m", "cdsim", command, str(Path(tmp) / "big")],
                           check=True, stdout=subprocess.DEVNULL)
            print(f"cdsim {command} of that {big}-game run: {time.perf_counter() - t0:.1f} s",
                  flush=True)


if __name__ == "__main__":
    main()
