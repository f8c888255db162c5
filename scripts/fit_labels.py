"""Offline check of a fit to search labels (issue 30, step 3; docs/strength.md): on the
learned player's decisions labelled by ``scripts/search_labels.py``, fit on half the games
and score on the other half, against the greedy-playout weights (learned-v1.json,
"shipped" below): the regret of each model's choice under mcts's values (the label of
the best option less the label of the chosen one, VP of margin), how often it picks the
labels' best, and its rank correlation.

The labels scored against are the mean of the two seeds' labels (twice the budget); the
fits use the same.

    .venv/bin/python scripts/fit_labels.py runs/labels4.npz [MORE.npz] [--ridge 1,10,100]

``--inputs 2`` fits the version-2 inputs (the placement inputs after the others; labels
files written by ``scripts/replay_labels.py replay`` or a core that has them), starting
from the shipped weights with the new inputs at 0. Moves are also scored on how each
model ranks the placements after one destination (Spearman within each destination of
three options or more, averaged; files with the choices only).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from cdsim.errors import CdsimError
from cdsim.games.carpe_diem.commands.training import fit as T
from cdsim.games.carpe_diem.commands.training import labels as L
from cdsim.games.carpe_diem.players import weights as W


def labels_of(paths: list[Path], version: int = 1) -> tuple[L.Labels, np.ndarray]:
    """Labels files of one player count as ``Labels`` with the inputs of weights
    ``version`` (pooled seeds; each file's games and decisions numbered after the last
    one's), and the learned value the core gave."""
    parts = [one_file(p, version) for p in paths]
    games = np.cumsum([0] + [int(part.game.max()) + 1 for part, _ in parts])
    groups = np.cumsum([0] + [int(part.group.max()) + 1 for part, _ in parts])
    shifts = list(zip(parts, groups[:-1], games[:-1], strict=True))
    labels = L.Labels(np.concatenate([part.value for part, _ in parts]),
                      np.concatenate([part.seats for part, _ in parts]),
                      np.concatenate([part.phase for part, _ in parts]),
                      np.concatenate([part.group + g for (part, _), g, _ in shifts]),
                      np.concatenate([part.game + k for (part, _), _, k in shifts]))
    return labels, np.concatenate([learned for _, learned in parts])


def one_file(path: Path, version: int = 1) -> tuple[L.Labels, np.ndarray]:
    data = np.load(path)
    n = int(data["players"])
    inputs = data["inputs"]
    if (inputs.shape[1] - 1) // n < 1 + len(W.feature_names(version)):
        raise SystemExit(f"{path}: its inputs are not those of weights version {version} "
                         "(scripts/replay_labels.py replay adds them)")
    labels = L.Labels.of_rows((data["a"] + data["b"]) / 2, inputs, n, version,
                              data["group"].astype(np.int64), data["game"].astype(np.int64))
    return labels, data["learned"]


def destinations(paths: list[Path]) -> np.ndarray:
    """Each row's move destination (its option's first index), -1 where not a move or
    the file has no choices."""
    out = []
    for path in paths:
        data = np.load(path)
        if "choice" in data.files:
            out.append(np.where(data["kind"] == "move", data["choice"][:, 0], -1))
        else:
            out.append(np.full(len(data["a"]), -1))
    return np.concatenate(out)


def placement_rho(score: np.ndarray, labels: L.Labels, dest: np.ndarray) -> float:
    """Spearman of ``score`` with the labels among the options of one destination (three
    or more), averaged over destinations of moves."""
    from scipy.stats import spearmanr

    rho = []
    for g in np.unique(labels.group[dest >= 0]):
        m = labels.group == g
        for d in np.unique(dest[m]):
            k = m & (dest == d)
            if k.sum() > 2 and np.ptp(score[k]) > 1e-9 and np.ptp(labels.value[k]) > 0:
                rho.append(float(spearmanr(score[k], labels.value[k]).statistic))
    return float(np.mean(rho)) if rho else float("nan")


def regrets(score: np.ndarray, labels: L.Labels) -> np.ndarray:
    """Each decision's regret of ``score``'s pick under the labels (VP of margin)."""
    out = []
    for g in np.unique(labels.group):
        m = labels.group == g
        out.append(labels.value[m].max() - labels.value[m][int(np.argmax(score[m]))])
    return np.array(out)


def against(score: np.ndarray, base: np.ndarray, labels: L.Labels) -> str:
    """The regret of ``score`` less that of ``base``, paired by decision, with its
    standard error."""
    d = regrets(score, labels) - regrets(base, labels)
    return f"{d.mean():+.2f} ± {d.std(ddof=1) / np.sqrt(len(d)):.2f} against shipped"


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("labels", type=Path, nargs="+", help="labels files of one player count")
    parser.add_argument("--ridge", default="1,10,100,1000")
    parser.add_argument("--inputs", type=int, default=1, choices=W.INPUT_SETS,
                        help="the weights version whose inputs the fit reads (default 1)")
    parser.add_argument("--fold", type=int, default=1, choices=(0, 1),
                        help="the games held out: odd (1, the default) or even (0)")
    parser.add_argument("--keep", action="store_true",
                        help="with --inputs 2: fit only the new inputs' weights")
    parser.add_argument("--prior", type=Path, metavar="FILE",
                        help="the weights a fit starts from and is pulled towards (version 1 "
                             "or 2; default learned-v1.json): a file --write made for another "
                             "player count")
    parser.add_argument("--write", type=Path, metavar="FILE",
                        help="also fit every decision given (the first --ridge, the others' "
                             "mean) and write the weights (of version --inputs) to FILE")
    parser.add_argument("--network", type=int, default=0, metavar="EPOCHS",
                        help="also fit a small network for this many epochs (0: none)")
    args = parser.parse_args()
    for path in args.labels:
        if not path.is_file():
            parser.error(f"{path}: no such labels file")
    try:
        args.ridges = [float(r) for r in args.ridge.split(",")]
    except ValueError:
        parser.error(f"--ridge must be numbers separated by commas, got {args.ridge!r}")
    try:
        args.start = W.read_weights(args.prior or W.PLAYOUT_WEIGHTS)
    except CdsimError as exc:
        parser.error(f"--prior: {exc}")
    if len(args.start.features) > len(W.feature_names(args.inputs)):
        parser.error(f"--prior {args.prior} has more inputs than --inputs {args.inputs}")
    args.kept = len(W.feature_names(1)) if args.keep else 0
    return args


def main() -> None:
    args = arguments()
    width = len(W.feature_names(args.inputs))
    labels, learned = labels_of(args.labels, args.inputs)
    dest = destinations(args.labels)
    shipped = T.widened(json.loads(W.PLAYOUT_WEIGHTS.read_text())["weights"], width)
    prior = T.widened(json.loads(args.start.text)["weights"], width)
    print(f"{len(np.unique(labels.group))} decisions, {len(labels.value)} options, "
          f"{len(np.unique(labels.game))} games; the shipped margins here agree with the "
          f"core's to {np.abs(L.margins(shipped, labels) - learned).max():.1e}")
    test = labels.game % 2 == args.fold
    parity = ("even", "odd")[args.fold], ("odd", "even")[args.fold]
    for name, mask in ((f"held-out ({parity[0]} games)", test),
                       (f"fitted on ({parity[1]} games)", ~test)):
        part, where = labels.select(mask), dest[mask]
        line = scores(args, labels.select(~test), part, where, shipped, prior)
        rand = np.mean([part.value[part.group == g].max() - part.value[part.group == g].mean()
                        for g in np.unique(part.group)])
        print(f"{name}: random option regret {rand:.2f}\n  " + "\n  ".join(line))
    if args.write:
        write(args, labels, prior)


def scores(args: argparse.Namespace, fit_on: L.Labels, part: L.Labels, where: np.ndarray,
           shipped: dict[str, list[list[float]]], prior: dict[str, list[list[float]]]
           ) -> list[str]:
    """One line per model: the shipped weights, then each fit on ``fit_on``, scored on
    ``part``."""
    shipped_margin = L.margins(shipped, part)
    line = [f"shipped {fmt(L.decision_scores(shipped_margin, part))}, placements "
            f"{placement_rho(shipped_margin, part, where):.2f}"]
    for leader in (False, True):
        for ridge in args.ridges:
            table = L.fit_labels(fit_on, prior, ridge, leader, args.kept)
            margin = L.margins(table, part, leader)
            line.append(f"{'leader' if leader else 'mean'} ridge {ridge:g} "
                        f"{fmt(L.decision_scores(margin, part))}, placements "
                        f"{placement_rho(margin, part, where):.2f} "
                        f"({against(margin, shipped_margin, part)})")
    if args.network:
        line.append(f"network {fmt(network(fit_on, part, args.network))}")
    return line


def write(args: argparse.Namespace, labels: L.Labels, prior: dict[str, list[list[float]]]
          ) -> None:
    """Fit every decision given and write the weights file, with how it was made."""
    ridge = args.ridges[0]
    table = L.fit_labels(labels, prior, ridge, False, args.kept)
    shipped_file = json.loads(W.PLAYOUT_WEIGHTS.read_text())
    training = {"command": "scripts/fit_labels.py " + " ".join(sys.argv[1:]),
                "labels": [str(p) for p in args.labels], "ridge": ridge,
                "prior": args.start.digest,
                "components": shipped_file["training"].get("components", "default")}
    if args.prior:  # the prior's own making, so the file names every step behind it
        training["prior_training"] = json.loads(args.start.text).get("training")
    args.write.write_text(T.weights_json(table, shipped_file["components_digest"], training,
                                         args.inputs))
    print(f"weights (version {args.inputs}, ridge {ridge:g}, {len(labels.value)} options) "
          f"-> {args.write}")


def network(fit_on: L.Labels, part: L.Labels, epochs: int) -> dict[str, float]:
    """A 64-unit ReLU network beside a linear term (``make evaluator``'s) on the inputs'
    margin against the others' mean and against the leader, and the phase, fitted to the
    label less the banked margin (per decision), scored on ``part``."""
    from evaluator import Network  # scripts/: run from the repository root

    def inputs(labels: L.Labels) -> np.ndarray:
        per_seat = np.stack([T.design(labels.seats[:, s, 1:])
                             for s in range(labels.seats.shape[1])], axis=1)
        return np.hstack([labels.relative(per_seat, False), labels.relative(per_seat, True),
                          np.eye(4)[labels.phase]])

    def banked(labels: L.Labels) -> np.ndarray:
        return labels.relative(labels.seats[:, :, 0], False)

    x_fit, x_part = inputs(fit_on), inputs(part)
    mu, sd = x_fit.mean(0), x_fit.std(0)
    sd[sd < 1e-9] = 1
    net = Network(x_fit.shape[1], 64, 1)
    net.fit((x_fit - mu) / sd, T.demeaned(fit_on.value - banked(fit_on), fit_on.group),
            fit_on.group, epochs)
    return L.decision_scores(net((x_part - mu) / sd)[0] + banked(part), part)


def fmt(scores: dict[str, float]) -> str:
    return (f"regret {scores['regret']:.2f}, top-1 {scores['top1']:.0%}, "
            f"spearman {scores['spearman']:.2f}")


if __name__ == "__main__":
    main()
