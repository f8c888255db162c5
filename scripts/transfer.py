"""How well the built-in learned weights play a changed component set (issue 39 item 2;
docs/strength.md, "Any component set").

A panel of variants spans what the learned player's inputs read: an objective card's
reward (B05 at 4 and at 12 VP), a fountain card's VP, a frame part's goal and a tile
kind's count. For each variant:

1. ``cdsim train --components VARIANT --seed 1 --out strategies/weights/transfer/NAME.json``:
   weights trained on the variant with the built-in weights' own settings (about 20
   minutes of 2 cores each; a file already there is kept, so an interrupted run goes on);
2. ``cdsim ladder --players 2 --strategies greedy,mcts,learned,learned@weights=THAT
   --components VARIANT --games GAMES --seed 1``: the built-in weights (``learned``) and
   the retrained ones side by side against greedy and mcts on the variant's deals, and
   the same ladder (without the retrained player) on the default set;
3. from the ladders' own bootstrap resamples (the same deals drawn): built-in minus
   retrained, each with its 95% interval; the edge over greedy is compared on the pairing
   both ladders play (learned against greedy, head to head: the fitted ratings depend on
   who else is in the pool, and the variant's holds the retrained player too).
   Acceptance: built-in minus retrained above -30 Elo (the interval's upper end), the
   edge within 30 Elo of the default set's.

    .venv/bin/python scripts/transfer.py [--only NAME,...] [--games 400] [--train-only]
    .venv/bin/python scripts/transfer.py --edge 20000 [--only NAME,...]

``--edge GAMES``: the edge over greedy measured closely enough to say whether it stays
within 30 Elo: ``cdsim simulate --players 2 --strategies learned,greedy --rotate-seats``
of GAMES games on the default set and on each variant (seed 1, the built-in weights), the
built-in player's win share with a 95% interval clustered by deal, in Elo, and its change
from the default set's (the sets' games taken as independent, which only widens the
interval: the same seeds deal alike where the sets agree).

It prints the table docs/strength.md carries. Runs under ``nice``: a shared machine keeps
its other work.
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import polars as pl

from cdsim.analysis.ratings import RESAMPLES, bootstrap_fits, elo
from cdsim.ladder import read_games, read_ladder_manifest

ROOT = Path(__file__).resolve().parent.parent
CDSIM = str(Path(sys.executable).parent / "cdsim")
PANEL_DIR = ROOT / "scripts" / "transfer"
WEIGHTS_DIR = ROOT / "strategies" / "weights" / "transfer"
LADDERS = ROOT / "ladders" / "transfer"
SEED = 1
PLAYERS = 2

# name -> (what it changes, the override file's text)
PANEL: dict[str, tuple[str, str]] = {
    "B05-4vp": ("objective card B05 pays 4 VP (8)",
                'base = "default"\n[[objective]]\nid = "B05"\nreward = { vp = 4 }\n'),
    "B05-12vp": ("objective card B05 pays 12 VP (8)",
                 'base = "default"\n[[objective]]\nid = "B05"\nreward = { vp = 12 }\n'),
    "F01-5vp": ("fountain card F01 pays 5 VP per complete villa (2)",
                'base = "default"\n[[fountain]]\nid = "F01"\nvp = 5\n'),
    "part1-villa-8": ("frame part 1's villa goal pays 8 VP (3)",
                      'base = "default"\n[[part]]\nid = 1\ngoals = [{ kind = "villa", vp = 8, '
                      'line = 1 }, { kind = "pond", vp = 3, line = 4 }]\n'),
    "fountains-3": ("3 light fountain tiles (6), 8 light markets (5)",
                    'base = "default"\n[[tile]]\nid = "L-fountain"\ncount = 3\n'
                    '[[tile]]\nid = "L-market"\ncount = 8\n'),
}


def sh(*cmd: str) -> str:
    done = subprocess.run(["nice", "-n", "10", *cmd], check=True, capture_output=True,
                          text=True)
    return done.stdout


def variant_file(name: str) -> Path:
    path = PANEL_DIR / f"{name}.toml"
    text = PANEL[name][1]
    if not path.is_file() or path.read_text() != text:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return path


def train(name: str) -> Path:
    out = WEIGHTS_DIR / f"{name}.json"
    if not out.is_file():
        out.parent.mkdir(parents=True, exist_ok=True)
        print(f"training {name} ...", file=sys.stderr, flush=True)
        sh(CDSIM, "train", "--components", str(variant_file(name)), "--seed", str(SEED),
           "--out", str(out), "--quiet")
    return out


def ladder(folder: Path, strategies: str, components: Path | None, games: int
           ) -> dict[str, np.ndarray]:
    """Each strategy's bootstrap resamples of its rating (Elo, mean 0) on the ladder."""
    cmd = [CDSIM, "ladder", "--players", str(PLAYERS), "--strategies", strategies,
           "--games", str(games), "--seed", str(SEED), "--jobs", "2", "--quiet", "--json",
           "--out", str(folder)]
    if components is not None:
        cmd += ["--components", str(components)]
    if (folder / "ladder-manifest.json").is_file():
        cmd.append("--resume")
    sh(*cmd)
    manifest = read_ladder_manifest(folder)
    spec = manifest.ladder
    names = spec.names
    games_read = read_games(folder, names, manifest.pairings)
    _, resampled = bootstrap_fits(games_read, len(names), RESAMPLES, spec.seed)
    boot = elo(resampled, None)
    return {n: boot[:, i] for i, n in enumerate(names)}


def head_to_head(folder: Path, who: str = "learned", against: str = "greedy") -> tuple[int, int]:
    """(wins, games) of ``who`` in the ladder's pairing against ``against`` (seats rotated)."""
    games = pl.concat([pl.read_parquet(f) for f in
                       sorted((folder / "cells" / f"{against}-vs-{who}" / "games").glob("*.parquet"))])
    mine = games.filter(pl.col("strategy") == who)
    return int(mine["won"].sum()), mine.height


def share_change(a: tuple[int, int], b: tuple[int, int]) -> str:
    """Win share ``a`` less ``b`` in pp with a 95% normal interval (independent games)."""
    (ka, na), (kb, nb) = a, b
    pa, pb = ka / na, kb / nb
    se = math.sqrt(pa * (1 - pa) / na + pb * (1 - pb) / nb)
    d = pa - pb
    return f"{100 * d:+.1f} pp ({100 * (d - 1.96 * se):+.1f} to {100 * (d + 1.96 * se):+.1f})"


def share_elo(a: tuple[int, int]) -> str:
    p = a[0] / a[1]
    return f"{100 * p:.1f}% ({400 * math.log10(p / (1 - p)):+.0f} Elo)"


EDGES = ROOT / "runs" / "transfer-edge"


def edge_run(name: str, games: int) -> tuple[float, float]:
    """(learned's win share against greedy, its standard error by deal) on ``name``'s set
    ("default": the shipped one), from a run of ``games`` games with the seats rotated."""
    folder = EDGES / f"{name}-{games}"
    if not (folder / "manifest.json").is_file() or not any((folder / "games").glob("*.parquet")):
        cmd = [CDSIM, "simulate", "--players", str(PLAYERS), "--strategies", "learned,greedy",
               "--rotate-seats", "--games", str(games), "--seed", str(SEED), "--jobs", "2",
               "--quiet", "--force", "--out", str(folder)]
        if name != "default":
            cmd += ["--components", str(variant_file(name))]
        sh(*cmd)
    rows = pl.read_parquet(folder / "games" / "*.parquet").filter(pl.col("strategy") == "learned")
    per_deal = rows.group_by("setup").agg(pl.col("won").cast(pl.Float64).mean())["won"].to_numpy()
    return float(per_deal.mean()), float(per_deal.std(ddof=1) / math.sqrt(len(per_deal)))


def to_elo(p: float) -> float:
    return 400 * math.log10(p / (1 - p))


def elo_se(p: float, se: float) -> float:
    """A win share's standard error in Elo (the delta method: d Elo / dp)."""
    return se * 400 / (math.log(10) * p * (1 - p))


def edges(names: list[str], games: int) -> None:
    """The edge-over-greedy table (``--edge``)."""
    base, base_se = edge_run("default", games)
    print(f"| set | built-in against greedy ({games:,} games, seats rotated) | Elo | "
          "change from the default set's (Elo, 95%) | within 30 Elo |")
    print("|---|---|---|---|---|")
    print(f"| the default set | {100 * base:.2f}% (±{196 * base_se:.2f}) | {to_elo(base):+.0f} "
          "| — | — |", flush=True)
    for name in names:
        p, se = edge_run(name, games)
        d = to_elo(p) - to_elo(base)
        half = 1.96 * math.hypot(elo_se(p, se), elo_se(base, base_se))
        inside = "**yes**" if d - half > -30 and d + half < 30 else "not shown"
        print(f"| {PANEL[name][0]} | {100 * p:.2f}% (±{196 * se:.2f}) | {to_elo(p):+.0f} | "
              f"{d:+.0f} ({d - half:+.0f} to {d + half:+.0f}) | {inside} |", flush=True)


def span(x: np.ndarray) -> str:
    lo, hi = np.quantile(x, [0.025, 0.975])
    return f"{np.mean(x):+.0f} ({lo:+.0f} to {hi:+.0f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", default=",".join(PANEL))
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--train-only", action="store_true")
    parser.add_argument("--edge", type=int, default=0, metavar="GAMES",
                        help="the edge over greedy on GAMES games a set (no training, no ladder)")
    args = parser.parse_args()
    names = [n for n in args.only.split(",") if n]
    if args.edge:
        edges(names, args.edge)
        return
    for name in names:
        train(name)
    if args.train_only:
        return
    base = ladder(LADDERS / "default", "greedy,mcts,learned", None, args.games)
    base_edge = base["learned"] - base["greedy"]
    base_h2h = head_to_head(LADDERS / "default")
    print("| variant | built-in − retrained | built-in − greedy (fit) | built-in against greedy, "
          "head to head | its change from the default set's | built-in − mcts |")
    print("|---|---|---|---|---|---|")
    print(f"| the default set | — | {span(base_edge)} | {share_elo(base_h2h)} | — | "
          f"{span(base['learned'] - base['mcts'])} |", flush=True)
    for name in names:
        weights = WEIGHTS_DIR / f"{name}.json"
        retrained = f"learned@weights={weights}"
        boot = ladder(LADDERS / name, f"greedy,mcts,learned,{retrained}", variant_file(name),
                      args.games)
        # the edge over greedy compared on the one pairing both ladders play (the fitted
        # ratings depend on who else is in the pool: the variant's holds a fourth player)
        h2h = head_to_head(LADDERS / name)
        print(f"| {PANEL[name][0]} | {span(boot['learned'] - boot[retrained])} | "
              f"{span(boot['learned'] - boot['greedy'])} | {share_elo(h2h)} | "
              f"{share_change(h2h, base_h2h)} | {span(boot['learned'] - boot['mcts'])} |",
              flush=True)
    print(json.dumps({"games": args.games, "players": PLAYERS, "seed": SEED}))


if __name__ == "__main__":
    main()
