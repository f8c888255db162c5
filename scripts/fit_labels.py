"""Offline check of a fit to search labels (issue 30, step 3; docs/strength.md): on the
learned player's decisions labelled by ``scripts/search_labels.py``, fit on half the games
and score on the other half, against the shipped weights: the regret of each model's
choice under mcts's values (the label of the best option less the label of the chosen
one, VP of margin), how often it picks the labels' best, and its rank correlation.

The labels scored against are the mean of the two seeds' labels (twice the budget); the
fits use the same.

    .venv/bin/python scripts/fit_labels.py runs/labels4.npz [MORE.npz] [--ridge 1,10,100]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

from cdsim import train as T
from cdsim.players import weights as W


def labels_of(paths: list[Path]) -> tuple[T.Labels, np.ndarray]:
    """Labels files of one player count as ``Labels`` (pooled seeds; each file's games and
    decisions numbered after the last one's), and the learned value the core gave."""
    parts = [one_file(p) for p in paths]
    games = np.cumsum([0] + [int(part.game.max()) + 1 for part, _ in parts])
    groups = np.cumsum([0] + [int(part.group.max()) + 1 for part, _ in parts])
    shifts = list(zip(parts, groups[:-1], games[:-1], strict=True))
    labels = T.Labels(np.concatenate([part.value for part, _ in parts]),
                      np.concatenate([part.seats for part, _ in parts]),
                      np.concatenate([part.phase for part, _ in parts]),
                      np.concatenate([part.group + g for (part, _), g, _ in shifts]),
                      np.concatenate([part.game + k for (part, _), _, k in shifts]))
    return labels, np.concatenate([learned for _, learned in parts])


def one_file(path: Path) -> tuple[T.Labels, np.ndarray]:
    data = np.load(path)
    n = int(data["players"])
    f = len(W.feature_names())
    inputs = data["inputs"]
    seats = inputs[:, 1:].reshape(len(inputs), n, 1 + f)
    value = (data["a"] + data["b"]) / 2
    labels = T.Labels(value, seats, inputs[:, 0].astype(np.int64), data["group"].astype(np.int64),
                      data["game"].astype(np.int64))
    return labels, data["learned"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("labels", type=Path, nargs="+", help="labels files of one player count")
    parser.add_argument("--ridge", default="1,10,100,1000")
    parser.add_argument("--network", type=int, default=0, metavar="EPOCHS",
                        help="also fit a small network for this many epochs (0: none)")
    args = parser.parse_args()
    for path in args.labels:
        if not path.is_file():
            parser.error(f"{path}: no such labels file")
    try:
        ridges = [float(r) for r in args.ridge.split(",")]
    except ValueError:
        parser.error(f"--ridge must be numbers separated by commas, got {args.ridge!r}")
    labels, learned = labels_of(args.labels)
    shipped = json.loads(W.DEFAULT_WEIGHTS.read_text())["weights"]
    check = T.margins(shipped, labels)
    print(f"{len(np.unique(labels.group))} decisions, {len(labels.value)} options, "
          f"{len(np.unique(labels.game))} games; the shipped margins here agree with the "
          f"core's to {np.abs(check - learned).max():.1e}")
    test = labels.game % 2 == 1
    for name, mask in (("held-out (odd games)", test), ("fitted on (even games)", ~test)):
        part = labels.select(mask)
        line = [f"shipped {fmt(T.decision_scores(T.margins(shipped, part), part))}"]
        fit_on = labels.select(~test)
        for leader in (False, True):
            for ridge in ridges:
                table = T.fit_labels(fit_on, shipped, ridge, leader)
                scores = T.decision_scores(T.margins(table, part, leader), part)
                line.append(f"{'leader' if leader else 'mean'} ridge {ridge:g} {fmt(scores)}")
        if args.network:
            line.append(f"network {fmt(network(fit_on, part, args.network))}")
        rand = np.mean([part.value[part.group == g].max() - part.value[part.group == g].mean()
                        for g in np.unique(part.group)])
        print(f"{name}: random option regret {rand:.2f}\n  " + "\n  ".join(line))


def network(fit_on: T.Labels, part: T.Labels, epochs: int) -> dict[str, float]:
    """A 64-unit ReLU network beside a linear term (``make evaluator``'s) on the inputs'
    margin against the others' mean and against the leader, and the phase, fitted to the
    label less the banked margin (per decision), scored on ``part``."""
    from evaluator import Network  # scripts/: run from the repository root

    def inputs(labels: T.Labels) -> np.ndarray:
        per_seat = np.stack([T.design(labels.seats[:, s, 1:])
                             for s in range(labels.seats.shape[1])], axis=1)
        return np.hstack([labels.relative(per_seat, False), labels.relative(per_seat, True),
                          np.eye(4)[labels.phase]])

    def banked(labels: T.Labels) -> np.ndarray:
        return labels.relative(labels.seats[:, :, 0], False)

    x_fit, x_part = inputs(fit_on), inputs(part)
    mu, sd = x_fit.mean(0), x_fit.std(0)
    sd[sd < 1e-9] = 1
    net = Network(x_fit.shape[1], 64, 1)
    net.fit((x_fit - mu) / sd, T.demeaned(fit_on.value - banked(fit_on), fit_on.group),
            fit_on.group, epochs)
    return T.decision_scores(net((x_part - mu) / sd)[0] + banked(part), part)


def fmt(scores: dict[str, float]) -> str:
    return (f"regret {scores['regret']:.2f}, top-1 {scores['top1']:.0%}, "
            f"spearman {scores['spearman']:.2f}")


if __name__ == "__main__":
    main()
