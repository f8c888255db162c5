"""Benchmark (make bench): prints figures on this machine; never fails on them.

1. ms per 4-player game on one core on the Rust core (through the binding, a chunk at a
   time), random players and the scripted mix;
2. a table of three greedy and one Python strategy (taking the first option; the example
   Builder) on the core, beside four greedy, with the ratio; the cost per 4-player and
   per 2-player game per seat of greedy, learned (the built-in player, then
   learned@prior=0: the player before issue 59's prior, and learned@classic: the player
   before issue 49) and mcts, each also as a ratio to greedy's cost in the same run
   (issues 49 and 59's target: learned at most 8x);
3. the pure Rust crate's own figures (cargo's release example): per game, a state copy,
   mcts per game at three budgets, and The Castles of Tuscany's scripted 4-player games/s;
   the Mediterranean game's scripted 4-player games/s on one core (its release example,
   greedy, gold-first, temple-majority and long-haul; target >= 2,000 a second);
4. `cdsim simulate --players 4 --games 10000 --rotate-seats --jobs 2`, scripted mix, wall
   time end to end (Parquet included), its chunks played in threads of the driver (as
   built-in line-ups play) beside worker processes (CDSIM_THREADS=0, as a Python
   strategy's line-up plays), and their ratio;
5. peak memory (max RSS of any one process) of a 100,000-game run;
6. how long `cdsim report` and `cdsim balance` take on that run;
7. how long `cdsim study report` of the default study takes on one core (issue 52's
   target: 5 s), on a copy of the last `make run`'s folder (--study): first with nothing
   kept (a study's first report), then written again (its report-cache/ kept), with the
   load average beside it.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

MIX = ["greedy", "villa", "landscape", "bread"]


def reference_ms() -> float:
    """A fixed pure-Python loop (median of 9): how fast the shared machine is right now,
    to compare bench runs made at different times."""
    times = []
    for _ in range(9):
        t0 = time.perf_counter()
        sum(i * i for i in range(200_000))
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times)


LINEUPS = (("random", ["random"] * 4), ("scripted mix", MIX))


def core_ms(scale: int) -> dict[str, float]:
    """The core through the binding, one chunk on one core: best of 3 passes, ms/game."""
    from cdsim.batch.config import RunConfig
    from cdsim.batch.queue import core_chunk_frame

    print(f"reference loop: {reference_ms():.1f} ms (the machine's speed now; lower is faster)",
          flush=True)
    out = {}
    for label, lineup in LINEUPS:
        games = (20000 if label == "random" else 4000) // scale
        config = RunConfig(players=4, games=games, seed=1, strategies=tuple(lineup))
        passes = []
        for _ in range(3):
            t0 = time.perf_counter()
            core_chunk_frame(config, 0, games)
            passes.append((time.perf_counter() - t0) * 1000 / games)
        out[label] = min(passes)
        print(f"rust core via the binding, {label}, 4 players: {min(passes):.3f} ms/game "
              f"(best of 3 x {games} games, rows as a DataFrame included)", flush=True)
    return out


def table_ms(scale: int) -> None:
    """A table of three greedy and one Python strategy (cdsim.games.carpe_diem.testing:Scripted, which takes
    the first option, and strategies.example:Builder): the core plays the game and asks
    the Python seat on its observation (cdsim.games.carpe_diem.engine.table), beside the core alone with
    four greedy; each line-up twice, alternating, the best pass kept."""
    from cdsim.batch.config import RunConfig
    from cdsim.batch.queue import play_chunk_frame

    games = 200 // scale
    lineups = (("3 greedy + 1 Python strategy taking the first option",
                ["greedy"] * 3 + ["cdsim.games.carpe_diem.testing:Scripted"], "table"),
               ("3 greedy + 1 Python strategy (example Builder)",
                ["greedy"] * 3 + ["strategies.example:Builder"], "table"),
               ("4 greedy", ["greedy"] * 4, "rust"))
    figures: dict[str, float] = {}
    for _ in range(2):
        for label, lineup, engine in lineups:
            config = RunConfig(players=4, games=games, seed=1, strategies=tuple(lineup))
            t0 = time.perf_counter()
            play_chunk_frame(config, 0, games, engine=engine)
            ms = (time.perf_counter() - t0) * 1000 / games
            figures[label] = min(ms, figures.get(label, ms))
    greedy = figures["4 greedy"]
    for label, _, _ in lineups:
        ratio = "" if label == "4 greedy" else f", {figures[label] / greedy:.1f}x four greedy"
        print(f"core, {label}, 4 players: {figures[label]:.2f} ms/game ({games} games, best "
              f"of 2, one core{ratio})", flush=True)


def player_cost(scale: int) -> None:
    """Cost per game per seat of greedy, learned and mcts on the core (through the binding,
    one core), at 4 and at 2 players: a game with one seat of the player and greedy in the
    others, less (n - 1)/n of a game of n greedy; best of 2 passes (mcts: 1 pass, few
    games). learned searches more at 2 players (the other seat's reply)."""
    from cdsim.batch.config import RunConfig
    from cdsim.batch.queue import core_chunk_frame

    def per_game(lineup: list[str], games: int, passes: int) -> float:
        config = RunConfig(players=len(lineup), games=games, seed=1, strategies=tuple(lineup))
        best = float("inf")
        for _ in range(passes):
            t0 = time.perf_counter()
            core_chunk_frame(config, 0, games)
            best = min(best, (time.perf_counter() - t0) * 1000 / games)
        return best

    for n in (4, 2):
        greedy_n = per_game(["greedy"] * n, 1000 // scale, 3)
        greedy_seat = 0.0
        for name, games, passes in (("greedy", 1000 // scale, 3), ("learned", 400 // scale, 3),
                                    ("learned@prior=0", 400 // scale, 3),
                                    ("learned@classic", 200 // scale, 2),
                                    ("mcts", max(2, 8 // scale), 1)):
            seat = (per_game([name] + ["greedy"] * (n - 1), games, passes)
                    - (n - 1) / n * greedy_n)
            greedy_seat = greedy_seat or seat
            print(f"cost per {n}-player game per seat, {name}: {seat:.3f} ms, "
                  f"{seat / greedy_seat:.1f}x greedy (a {name} seat and {n - 1} greedy, less "
                  f"{n - 1}/{n} of a game of {n} greedy; {games} games)", flush=True)


def castles_cost(scale: int) -> None:
    """The Castles of Tuscany's learned / greedy cost per game per seat on the core (through
    the binding, one core), at 4 and at 2 players, as player_cost measures Carpe Diem's: a
    learned seat and greedy in the others, less (n - 1)/n of a game of n greedy; best of 3
    passes (issue 59's target: at most 20x greedy)."""
    from cdsim.batch.config import RunConfig
    from cdsim.batch.queue import core_chunk_frame

    def per_game(lineup: list[str], games: int) -> float:
        config = RunConfig(game="castles", players=len(lineup), games=games, seed=1,
                           strategies=tuple(lineup))
        best = float("inf")
        for _ in range(3):
            t0 = time.perf_counter()
            core_chunk_frame(config, 0, games)
            best = min(best, (time.perf_counter() - t0) * 1000 / games)
        return best

    for n in (4, 2):
        games = 400 // scale
        greedy_n = per_game(["greedy"] * n, games)
        greedy_seat = greedy_n / n
        learned_seat = per_game(["learned"] + ["greedy"] * (n - 1), games) \
            - (n - 1) / n * greedy_n
        print(f"castles, cost per {n}-player game per seat: greedy {greedy_seat:.3f} ms, "
              f"learned {learned_seat:.3f} ms, {learned_seat / greedy_seat:.1f}x greedy (a "
              f"learned seat and {n - 1} greedy, less {n - 1}/{n} of a game of {n} greedy; "
              f"{games} games; target 20x)", flush=True)


def cargo_example() -> None:
    """The pure crate's release figures (per game without Python, a mid-game state copy)."""
    core = Path(__file__).resolve().parent.parent / "core"
    try:
        out = subprocess.run(["cargo", "run", "--quiet", "--release", "--example", "bench"],
                             cwd=core, check=True, capture_output=True, text=True)
    except (OSError, subprocess.CalledProcessError) as exc:
        print(f"rust crate example: not run ({exc})", flush=True)
        return
    for line in out.stdout.splitlines():
        print(f"rust crate (no Python): {line}", flush=True)


def mediterranean(scale: int) -> None:
    """The Mediterranean game's scripted 4-player games/s on one core, no Python
    (``core/examples/mediterranean_play.rs``: its last line is the rate)."""
    core = Path(__file__).resolve().parent.parent / "core"
    games = str(20000 // scale)
    try:
        out = subprocess.run(["cargo", "run", "--quiet", "--release", "--example",
                              "mediterranean_play", "--", games,
                              "greedy,gold-first,temple-majority,long-haul"],
                             cwd=core, check=True, capture_output=True, text=True)
    except (OSError, subprocess.CalledProcessError) as exc:
        print(f"mediterranean example: not run ({exc})", flush=True)
        return
    rate = [line for line in out.stdout.splitlines() if "games/s" in line]
    print(f"mediterranean, scripted 4-player games on one core (no Python; target 2,000/s): "
          f"{rate[-1].strip() if rate else 'no rate printed'}", flush=True)


def simulate(games: int, jobs: int, strategies: list[str], out: Path, rotate: bool = False,
             threads: bool = True) -> float:
    """Seconds of wall time for one `cdsim simulate`, end to end."""
    cmd = [sys.executable, "-m", "cdsim", "simulate", "--out", str(out), "--players", "4",
           "--games", str(games), "--strategies", ",".join(strategies), "--jobs", str(jobs),
           "--seed", "1", *(["--rotate-seats"] if rotate else [])]
    env = os.environ | {"CDSIM_THREADS": "1" if threads else "0"}
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, env=env)
    return time.perf_counter() - t0


PEAK = """import resource, subprocess, sys
subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"""


def peak_mib(games: int, out: Path) -> float:
    """Max RSS of any one process of a simulate run: measured in a wrapper process whose
    only children are that run's (this script's own children include cargo's build)."""
    cmd = [sys.executable, "-m", "cdsim", "simulate", "--out", str(out), "--players", "4",
           "--games", str(games), "--strategies", ",".join(MIX), "--jobs", "2", "--seed", "1",
           "--rotate-seats"]
    done = subprocess.run([sys.executable, "-c", PEAK, *cmd], check=True, capture_output=True,
                          text=True)
    return int(done.stdout.split()[-1]) / 1024


def one_core() -> None:
    """Pin this (child) process to one core: the figure is a one-core figure."""
    os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})


def study_report(study: Path, tmp: Path) -> None:
    """``cdsim study report`` of a copy of ``study`` on one core: with nothing kept, then
    written again, each with the 1-minute load average when it started."""
    if not (study / "study-manifest.json").is_file():
        print(f"cdsim study report: not run ({study} holds no study: make run first)",
              flush=True)
        return
    copy = tmp / "study"
    shutil.copytree(study, copy, ignore=shutil.ignore_patterns("report-cache"))
    page = copy / "study.json"
    games = sum(int(c["games"]) for c in json.loads(page.read_text())["cells"]) \
        if page.is_file() else 0
    cmd = [sys.executable, "-m", "cdsim", "study", "report", "--quiet", str(copy)]
    for how in ("with nothing kept (a first report)", "written again (report-cache/ kept)"):
        load = os.getloadavg()[0]
        t0 = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, preexec_fn=one_core)
        print(f"cdsim study report of {study} ({games:,} games), one core, {how}: "
              f"{time.perf_counter() - t0:.1f} s wall (load {load:.2f} at its start; "
              "target 5 s on a quiet core)", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--quick", action="store_true", help="fewer games (a smoke run)")
    ap.add_argument("--study", type=Path, default=Path("studies/default"),
                    help="the study folder whose report is timed (default: make run's)")
    args = ap.parse_args()
    scale = 10 if args.quick else 1
    load = os.getloadavg()
    print(f"load average at the start: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} (1, 5 and 15 "
          f"minutes; {os.cpu_count()} cores): a figure taken beside other work is slower",
          flush=True)
    core_ms(scale)
    table_ms(scale)
    player_cost(scale)
    castles_cost(scale)
    cargo_example()
    mediterranean(scale)
    with tempfile.TemporaryDirectory() as tmp:
        games = 10000 // scale
        walls = {threads: simulate(games, 2, MIX, Path(tmp) / f"core-{threads}", rotate=True,
                                   threads=threads) for threads in (True, False)}
        for threads, how in ((True, "threads of the driver"),
                             (False, "worker processes, CDSIM_THREADS=0")):
            print(f"cdsim simulate --players 4 --games {games} --rotate-seats --jobs 2, "
                  f"scripted mix, {how}: {walls[threads]:.1f} s wall end to end "
                  f"({games / walls[threads]:.0f} games/s)", flush=True)
        print(f"ratio: processes take {walls[False] / walls[True]:.2f}x the threads' wall time",
              flush=True)
        big = 100000 // scale
        t0 = time.perf_counter()
        peak = peak_mib(big, Path(tmp) / "big")
        print(f"peak memory of a {big}-game run (scripted mix, --jobs 2): "
              f"{peak:.0f} MiB max RSS of any one process of that run "
              f"({time.perf_counter() - t0:.0f} s)", flush=True)
        for command in ("report", "balance"):
            t0 = time.perf_counter()
            subprocess.run([sys.executable, "-m", "cdsim", command, str(Path(tmp) / "big")],
                           check=True, stdout=subprocess.DEVNULL)
            print(f"cdsim {command} of that {big}-game run: {time.perf_counter() - t0:.1f} s",
                  flush=True)
        study_report(args.study, Path(tmp))


if __name__ == "__main__":
    main()
