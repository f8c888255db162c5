"""strategies/ratings.json: the measured ladder ratings a study report places its populations
by (``make ratings``; the report's "fair starting VP by skill", cdsim/analysis/skill.py).

For each player count, one ``cdsim ladder --json`` of the scripted players, the learned
player and mcts (the commands below; ``--jobs 1`` under ``nice`` so a shared machine keeps a
core), then the ladder's own bootstrap resamples (the same deals drawn, the same seed: the
resamples behind its 95% intervals) so that a population's rating -- the mean of its
members' ratings -- gets its interval from the same resamples (cdsim/analysis/skill.py).

Recorded per player count: the command, seed, date, components digest, the learned
weights each learned spelling played (path and digest), the ratings with their intervals
and the resamples. A ladder folder that is already complete is read, not replayed
(``--resume``), so an interrupted ``make ratings`` continues.

    .venv/bin/python scripts/ratings.py [--players 2,3,4] [--out strategies/ratings.json]
"""

from __future__ import annotations

import argparse
import datetime
import json
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from cdsim.analysis.ratings import RESAMPLES, anchor_of, bootstrap_fits, elo
from cdsim.ladder import read_games, read_ladder_manifest

ROOT = Path(__file__).resolve().parent.parent
STRATEGIES = "greedy,villa,landscape,bread,learned,mcts"
# games per pairing: 2 players 200 (100 deals, both ways); 3 and 4 players fewer deals, since
# every line-up holding mcts costs about a second of CPU per game (docs/strength.md)
GAMES = {2: 200, 3: 36, 4: 40}
SEED = 1


def command(players: int, out: Path) -> list[str]:
    return [str(Path(sys.executable).parent / "cdsim"), "ladder", "--players", str(players),
            "--strategies", STRATEGIES, "--games", str(GAMES[players]), "--seed", str(SEED),
            "--jobs", "1", "--quiet", "--json", "--out", str(out)]


def _relative(path: str) -> str:
    try:
        return str(Path(path).resolve().relative_to(ROOT))
    except ValueError:
        return path


def measure(players: int, folder: Path) -> dict[str, object]:
    cmd = command(players, folder)
    if (folder / "ladder-manifest.json").is_file():
        cmd.append("--resume")
    start = time.perf_counter()
    done = subprocess.run(["nice", "-n", "5", *cmd], check=True, capture_output=True, text=True)
    wall = time.perf_counter() - start
    ladder = json.loads(done.stdout)
    manifest = read_ladder_manifest(folder)
    spec = manifest.ladder
    names = spec.names  # as spelled: the rows' strategy column
    games = read_games(folder, names, manifest.pairings)
    _, resampled = bootstrap_fits(games, len(names), RESAMPLES, spec.seed)
    boot = elo(resampled, anchor_of(names))
    return {
        "command": " ".join(["cdsim", *command(players, Path(f"ladders/ratings-{players}p"))[1:]]),
        "seed": SEED, "date": datetime.date.today().isoformat(),
        "components_digest": manifest.components_digest,
        "weights": {spec: {"path": _relative(w["path"]), "digest": w["digest"]}
                    for spec, w in ladder.get("weights", {}).items()},
        "method": ladder["method"],
        "anchor": ladder["anchor"], "interval": ladder["interval"],
        "deals": len(np.unique(games.deal)),
        "ladder_wall_seconds": round(manifest.wall_seconds if "wall_seconds"
                                     in manifest.model_fields_set else wall, 1),
        "ratings": {r["strategy"]: {"rating": round(r["rating"], 1), "low": round(r["low"], 1),
                                    "high": round(r["high"], 1), "games": r["games"]}
                    for r in ladder["ratings"]},
        "resamples": {name: [round(float(x), 1) for x in boot[:, i]]
                      for i, name in enumerate(names)},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", default="2,3,4")
    parser.add_argument("--out", type=Path, default=ROOT / "strategies" / "ratings.json")
    parser.add_argument("--ladders", type=Path, default=ROOT / "ladders")
    args = parser.parse_args()
    old = json.loads(args.out.read_text()) if args.out.is_file() else {}
    table = dict(old.get("players", {}))
    for p in (int(x) for x in args.players.split(",")):
        print(f"{p} players: {' '.join(command(p, args.ladders / f'ratings-{p}p')[1:])}",
              file=sys.stderr)
        table[str(p)] = measure(p, args.ladders / f"ratings-{p}p")
        for name, r in table[str(p)]["ratings"].items():  # type: ignore[union-attr]
            print(f"  {name:<10} {r['rating']:+7.0f} [{r['low']:+.0f}, {r['high']:+.0f}]",
                  file=sys.stderr)
    out = {"about": "Measured ladder ratings (Elo, mean of each ladder 0) that study reports "
                    "place populations by; written by scripts/ratings.py (make ratings). A "
                    "population's rating is the mean of its members'; its 95% interval the "
                    "2.5-97.5% percentiles of that mean over the ladder's bootstrap resamples.",
           "players": dict(sorted(table.items()))}
    args.out.write_text(json.dumps(out, indent=1) + "\n")
    print(f"wrote {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
