"""Replay games of the core on the Python rules, decision by decision (`make oracle`).

Every game is played on the core with the Python rules beside it; after every decision
the two states are compared (cdsim.games.carpe_diem.engine.oracle), and the first difference names the
game, the decision and the field. Player counts 2, 3 and 4 and the line-ups of
tests/test_table.py take turns. Usage: python scripts/oracle.py [GAMES] [--jobs N]
"""

from __future__ import annotations

import argparse
import sys
import time

from joblib import Parallel, delayed

LINEUPS = [
    (2, ["greedy", "random"]), (2, ["mcts@8", "villa"]), (2, ["landscape", "bread"]),
    (3, ["villa", "landscape", "bread"]), (3, ["random"]), (3, ["mcts@6", "greedy", "random"]),
    (4, ["greedy", "villa", "landscape", "bread"]), (4, ["random"]),
    (4, ["bread", "mcts@4", "random", "greedy"]),
]


def replay(first: int, last: int, seed: int) -> tuple[int, str | None]:
    from cdsim.games.carpe_diem.engine.oracle import EngineMismatch
    from cdsim.games.carpe_diem.engine.table import Table
    from cdsim.games.carpe_diem.players.registry import make_lineup

    for game in range(first, last):
        players, names = LINEUPS[game % len(LINEUPS)]
        table = Table(None, make_lineup(names, players), seed, setup=game, check=True,
                      where=f"seed {seed} game {game} ({players} players: {','.join(names)})")
        try:
            table.play()
        except EngineMismatch as exc:
            return last - first, str(exc)
    return last - first, None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("games", type=int, nargs="?", default=1_000_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=-1)
    parser.add_argument("--chunk", type=int, default=200)
    args = parser.parse_args()
    chunks = [(i, min(i + args.chunk, args.games)) for i in range(0, args.games, args.chunk)]
    start, done = time.monotonic(), 0
    out = Parallel(n_jobs=args.jobs, return_as="generator_unordered")(
        delayed(replay)(a, b, args.seed) for a, b in chunks)
    for n, problem in out:
        if problem:
            print(f"oracle: {problem}", file=sys.stderr)
            return 1
        done += n
        rate = done / max(time.monotonic() - start, 1e-9)
        print(f"\roracle: {done:,}/{args.games:,} games agree decision by decision "
              f"({rate:.0f} games/s)", end="", file=sys.stderr, flush=True)
    print(f"\noracle: {done:,} games replayed on the Python rules, every decision equal",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
