"""Replay the learned player's games of ``scripts/search_labels.py`` in another core build
(issue 30; docs/strength.md, "Issue 30: the stale tile-value cache" and "Placement
inputs"): the labels stay, the core changes.

``record`` (run with the core the labels were made with, ``--core DIR`` holding its
``_core`` library) plays the labelled games again (same deals, players, exploration and
sampled decisions) and writes each game's choices. ``replay`` (the core under test) applies
those choices and:

- asks its own learned player (the same settings, its own stream) at every decision and
  counts, by decision kind, the choices that differ from the recorded ones;
- at each sampled decision, reads the options the player shortlists with their learned
  value and inputs (``State.search_labels`` at one simulation: the mcts value is not
  used), and when the shortlist is the labelled one, writes a labels file with the
  recorded labels and the new inputs (``--out``: what ``scripts/fit_labels.py`` reads).

    PYTHONPATH=. python scripts/replay_labels.py record runs/labels4.npz --seed 1 \
        --core DIR --games runs/g4.json
    PYTHONPATH=. python scripts/replay_labels.py replay runs/labels4.npz --seed 1 \
        --games runs/g4.json --out runs/labels4v2.npz
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

from cdsim.games.carpe_diem.players import weights as W

KEY = 9_500_000  # search_labels.py's deal keys
CHANCE = {"move": 0.12, "seal": 0.5, "circle": 0.5, "fountain": 0.25, "payment": 0.25}


def load_core(directory: Path | None) -> Any:
    """The core library: ``_core`` in ``directory``, or this tree's ``cdsim._core``."""
    if directory is None:
        from cdsim import core
        return core.module()
    sys.path.insert(0, str(directory))
    return importlib.import_module("_core")


def components(module: Any) -> Any:
    from cdsim.games.carpe_diem.handover import components_json
    from cdsim.games.carpe_diem.rules.components import load_components
    return module.Components(components_json(load_components(None)))


def games_of(labels: Any) -> tuple[int, int]:
    """(players, games) of a labels file."""
    return int(labels["players"]), int(labels["game"].max()) + 1


def record(module: Any, players: int, seed: int, games: int, explore: float
           ) -> list[list[int]]:
    """Each game's choices, played as search_labels.py played it."""
    comps = components(module)
    weights = float(module.learned_weights(W.PLAYOUT_WEIGHTS.read_text()))
    out = []
    for game in range(games):
        key = KEY + game
        bots = [module.Bot("learned", [("explore", explore), ("weights", weights)])
                for _ in range(players)]
        state = module.State(comps, players, [0] * players, seed, key)
        chosen = []
        while not state.is_over():
            i = bots[state.current_seat()].choose(state)
            chosen.append(i)
            state.apply(i)
        out.append(chosen)
    return out


def replay(module: Any, players: int, seed: int, recorded: list[list[int]], explore: float,
           kinds: tuple[str, ...] = tuple(CHANCE)
           ) -> tuple[Counter[str], Counter[str], list[dict[str, Any]]]:
    """(decisions by kind, changed choices by kind, the sampled decisions' new inputs; of
    ``kinds`` only, as the labels run sampled them)."""
    comps = components(module)
    weights = float(module.learned_weights(W.PLAYOUT_WEIGHTS.read_text()))
    seen: Counter[str] = Counter()
    changed: Counter[str] = Counter()
    found = []
    one = [("playouts", 1.0)]
    for game, chosen in enumerate(recorded):
        key = KEY + game
        bots = [module.Bot("learned", [("explore", explore), ("weights", weights)])
                for _ in range(players)]
        state = module.State(comps, players, [0] * players, seed, key)
        chance = np.random.default_rng([seed, key, 0x5EA])
        for index, old in enumerate(chosen):
            kind = state.decision()
            if chance.random() < CHANCE.get(kind, 0.0) and kind in kinds:
                rows = state.search_labels((key << 12) + index, one, int(weights))
                if len(rows) > 1:
                    found.append({"game": game, "choice": [c for c, *_ in rows],
                                  "learned": np.array([v for _, _, v, *_ in rows]),
                                  "inputs": np.array([row[3] for row in rows]),
                                  "placement": np.array([row[4] for row in rows]),
                                  "district": np.array([np.frombuffer(row[5], np.uint8)
                                                        for row in rows])})
            seen[kind] += 1
            changed[kind] += int(bots[state.current_seat()].choose(state) != old)
            state.apply(old)
    return seen, changed, found


def matched(labels: Any, found: list[dict[str, Any]]) -> dict[str, np.ndarray]:
    """The labels file's rows (one per option) with the replay's learned values and inputs,
    for the decisions whose shortlist is the labelled one (in order within each game)."""
    by_game: dict[int, list[dict[str, Any]]] = {}
    for f in found:
        by_game.setdefault(f["game"], []).append(f)
    group = labels["group"]
    mask = np.zeros(len(group), dtype=bool)
    learned, inputs, placement, district = [], [], [], []
    in_game: Counter[int] = Counter()
    for g in np.unique(group):
        rows = np.flatnonzero(group == g)
        game = int(labels["game"][rows[0]])
        k = in_game[game]
        in_game[game] += 1
        if k >= len(by_game.get(game, [])):
            continue
        new = by_game[game][k]
        # a file of the first version has no choices: the number of options then
        labelled = (labels["choice"][rows].tolist() if "choice" in labels.files
                    else [[-2, -2]] * len(rows))
        mine = ([[*c, -1][:2] for c in new["choice"]] if "choice" in labels.files
                else [[-2, -2]] * len(new["choice"]))
        if mine != labelled:
            continue
        mask[rows] = True
        learned.append(new["learned"])
        inputs.append(new["inputs"])
        placement.append(new["placement"])
        district.append(new["district"])
    out = {k: labels[k] for k in labels.files}
    for k in labels.files:
        if labels[k].ndim and len(labels[k]) == len(mask):
            out[k] = labels[k][mask]
    out["learned"] = np.concatenate(learned)
    out["inputs"] = np.concatenate(inputs)
    out["placement"] = np.concatenate(placement)
    out["district"] = np.concatenate(district)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("mode", choices=["record", "replay"])
    parser.add_argument("labels", type=Path, help="a labels file of search_labels.py")
    parser.add_argument("--games", type=Path, required=True, help="the recorded choices (json)")
    parser.add_argument("--core", type=Path, help="a directory holding the _core library")
    parser.add_argument("--out", type=Path, help="replay: the labels with the new inputs")
    parser.add_argument("--seed", type=int, required=True, help="the labels run's --seed")
    parser.add_argument("--explore", type=float, default=0.05)
    parser.add_argument("--kinds", default=",".join(CHANCE),
                        help="the labels run's --kinds (the decisions it labelled)")
    args = parser.parse_args()
    if not args.labels.is_file():
        parser.error(f"{args.labels}: no such labels file")
    labels = np.load(args.labels, allow_pickle=False)
    module = load_core(args.core)
    players, games = games_of(labels)
    if args.mode == "record":
        args.games.write_text(json.dumps(record(module, players, args.seed, games, args.explore)))
        return
    if not args.games.is_file():
        parser.error(f"{args.games}: no such file (record it first)")
    seen, changed, found = replay(module, players, args.seed, json.loads(args.games.read_text()),
                                  args.explore, tuple(args.kinds.split(",")))
    print(f"{sum(seen.values())} decisions, {sum(changed.values())} choices changed: " +
          ", ".join(f"{k} {changed[k]}/{seen[k]}" for k in sorted(seen)))
    if args.out:
        out = matched(labels, found)
        np.savez_compressed(args.out, **out)
        print(f"{len(np.unique(out['group']))} of {len(np.unique(labels['group']))} labelled "
              f"decisions replayed "
              f"with the same shortlist -> {args.out}")


if __name__ == "__main__":
    main()
