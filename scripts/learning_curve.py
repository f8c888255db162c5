"""The learned player's learning curve (docs/strength.md, docs/img/learning_curve.png).

Every stage's weights that `cdsim train --snapshots DIR` wrote (stage-0.json, stage-1.json,
...) play one ladder with greedy and mcts, at 2 and at 4 players; the chart draws each
stage's rating (with its 95% interval) against the training games played up to it, beside
the ratings of greedy and mcts in the same ladder.

    python scripts/learning_curve.py SNAPSHOTS [--games2 200] [--games4 40] [--out PNG]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

ROOT = Path(__file__).resolve().parent.parent


def ladder(players: int, specs: list[str], games: int, out: Path) -> dict[str, Any]:
    """`cdsim ladder --json` (resumed when the folder holds it already)."""
    cmd = [sys.executable, "-m", "cdsim", "ladder", "--players", str(players), "--strategies",
           ",".join(specs), "--games", str(games), "--seed", "1", "--out", str(out), "--json",
           "--quiet"]
    if (out / "ladder-manifest.json").is_file():
        cmd.append("--resume")
    done = subprocess.run(cmd, check=True, capture_output=True, text=True, cwd=ROOT)
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("snapshots", type=Path, help="the folder cdsim train --snapshots wrote")
    ap.add_argument("--games2", type=int, default=200, help="games per 2-player pairing")
    ap.add_argument("--games4", type=int, default=40, help="games per 4-player line-up")
    ap.add_argument("--work", type=Path, default=Path("ladders/learning-curve"),
                    help="where the ladders are played (resumable)")
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "img" / "learning_curve.png")
    args = ap.parse_args()
    stages = sorted(args.snapshots.glob("stage-*.json"),
                    key=lambda p: int(p.stem.partition("-")[2]))
    if not stages:
        sys.exit(f"{args.snapshots}: no stage-N.json (cdsim train --snapshots DIR writes them)")
    games = [json.loads(p.read_text())["training"]["games"] for p in stages]
    specs = ["greedy", "mcts", *(f"learned@weights={p.resolve()}" for p in stages)]
    fig, axes = plt.subplots(1, 2, figsize=(10, 4), sharey=False)
    table = []
    for ax, players, per in ((axes[0], 2, args.games2), (axes[1], 4, args.games4)):
        result = ladder(players, specs, per, args.work / f"{players}p")
        ratings = {r["strategy"]: r for r in result["ratings"]}
        learned = [ratings[s] for s in specs[2:]]
        ax.errorbar(games, [r["rating"] for r in learned],
                    yerr=[[r["rating"] - r["low"] for r in learned],
                          [r["high"] - r["rating"] for r in learned]],
                    fmt="o-", capsize=4, label="learned, by stage")
        for name, colour in (("mcts", "tab:red"), ("greedy", "tab:grey")):
            r = ratings[name]
            ax.axhline(r["rating"], color=colour, lw=1.2, label=name)
            ax.axhspan(r["low"], r["high"], color=colour, alpha=0.12)
        ax.set_xlabel("training games played (greedy games, then self-play rounds)")
        ax.set_ylabel(f"rating (Elo scale, mean = 0), {players}-player ladder")
        ax.set_title(f"{players} players: {per} games per "
                     f"{'pairing' if players == 2 else 'line-up'}, seed 1")
        ax.legend(fontsize=8, loc="lower right")
        table.extend((players, g, r["rating"], r["low"], r["high"], r["win_share"],
                      r["failed_card_rate"]) for g, r in zip(games, learned, strict=True))
        for name in ("greedy", "mcts"):
            r = ratings[name]
            table.append((players, name, r["rating"], r["low"], r["high"], r["win_share"],
                          r["failed_card_rate"]))
    fig.suptitle("The learned player's rating against the training games behind its weights")
    fig.tight_layout()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(args.out, dpi=110)
    print(f"wrote {args.out}")
    for row in table:
        print("  ".join(str(round(x, 3)) if isinstance(x, float) else str(x) for x in row))


if __name__ == "__main__":
    main()
