"""How good is the learned player's evaluator at the decisions it makes? (``make evaluator``;
docs/strength.md, "Why learned stays level with mcts and not above it").

Plays fresh games of the learned player as ``cdsim train`` does (one ply, ``explore`` 0.05,
deals the training never dealt) and, at sampled decisions, values every option the player
weighs by greedy playouts to the end (``State.learned_playouts``, the targets the weights
were fitted to, and what mcts's rollouts estimate). Then it prints:

1. **How reliable the playout values are**: the correlation of one playout with the mean of
   the other ``playouts - 1`` (the options' differences within a decision), and from it, by
   the Spearman-Brown formula, the reliability of a mean of k playouts -- for the targets
   here and for mcts's ~40 rollouts per root candidate (120 playouts over its 3 candidates).
2. **How well the evaluator ranks the options**: the correlation of the greedy-playout
   weights' (learned-v1.json, "shipped") margins with the playouts', and that
   correlation divided by the square root of the targets' reliability (what it would be
   against the exact greedy-playout value).
3. **Whether the fit or the inputs limit it**: on half of the games, a ridge refit (as
   ``cdsim train``) and a small network on the same inputs (the seat's and the others' mean,
   each with its takes-left products, and the phase), scored on the other half.
4. **Where the choices lose**: per decision kind and phase, the playout margin given up by
   the evaluator's choice against the best option's (regret), against a random option's,
   and how often it picks the best.

    .venv/bin/python scripts/evaluator.py [--players 4] [--games 100] [--playouts 8]
"""

from __future__ import annotations

import argparse
import json
import time
from collections import defaultdict

import numpy as np
from joblib import Parallel, delayed

from cdsim import core
from cdsim.games.carpe_diem.commands.training import fit as T
from cdsim.games.carpe_diem.handover import core_components
from cdsim.games.carpe_diem.players import weights as W

KEY = 9_000_000  # deal keys beyond any the training uses (stage * 1,000,000 + game, stage < 9)


def play(players: int, games: range, playouts: int, seed: int
         ) -> list[tuple[str, np.ndarray, int]]:
    """Sampled decisions of fresh learned games: (kind, rows of learned_playouts with
    ``playouts`` playouts, then one more column: the first playout's margin alone)."""
    module = core.module()
    assert module is not None
    comps = core_components(None)
    weights = float(module.learned_weights(W.PLAYOUT_WEIGHTS.read_text()))
    f = len(W.feature_names())
    out = []
    for game in games:
        key = KEY + game
        bots = [module.Bot("learned", [("explore", 0.05), ("reply", 0), ("weights", weights)])
                for _ in range(players)]
        state = module.State(comps, players, [0] * players, seed, key)
        chance = np.random.default_rng([seed, key, 0xE7A])
        decision = 0
        while not state.is_over():
            kind = state.decision()
            if kind not in ("start", "take") and chance.random() < (0.3 if kind == "move" else 0.9):
                seed_of = (key << 12) + decision
                rows = np.asarray(state.learned_playouts(playouts, seed_of), dtype=np.float64)
                if len(rows) > 1:
                    # playout 0 alone (the playouts' orders are numbered: the same first one)
                    first = np.asarray(state.learned_playouts(1, seed_of), dtype=np.float64)
                    margin = first[:, f + 2] - first[:, 2 * f + 4]
                    out.append((kind, np.column_stack([rows, margin]), game))
            decision += 1
            state.apply(bots[state.current_seat()].choose(state))
    return out


def spearman_brown(r: float, k: float) -> float:
    """The reliability of a mean of k measurements each of reliability r."""
    return k * r / (1 + (k - 1) * r)


def one_playout(c: float, m: int) -> float:
    """One playout's reliability r from c, its correlation with the mean of m others:
    c^2 = r * spearman_brown(r, m), solved for r."""
    c2 = c * c
    return float((c2 * (m - 1) + np.sqrt(c2 * c2 * (m - 1) ** 2 + 4 * m * c2)) / (2 * m))


class Network:
    """One hidden layer of ReLU units beside a linear term, fitted by Adam to each option's
    margin less its decision's mean (what a decision uses)."""

    def __init__(self, inputs: int, hidden: int, seed: int) -> None:
        rng = np.random.default_rng(seed)
        self.params = [rng.normal(0, np.sqrt(2 / inputs), (inputs, hidden)), np.zeros(hidden),
                       rng.normal(0, 0.1 / np.sqrt(hidden), hidden), np.zeros(inputs)]
        self.rng = rng

    def __call__(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        w1, b1, w2, lin = self.params
        h = np.maximum(x @ w1 + b1, 0)
        return h @ w2 + x @ lin, h

    def fit(self, x: np.ndarray, y: np.ndarray, group: np.ndarray, epochs: int) -> None:
        order = np.argsort(group, kind="stable")
        x, y, group = x[order], y[order], group[order]
        bounds = np.r_[0, np.flatnonzero(np.diff(group)) + 1, len(group)]
        m = [np.zeros_like(p) for p in self.params]
        v = [np.zeros_like(p) for p in self.params]
        t, per = 0, 128  # decisions per step
        steps = (len(bounds) - 1 + per - 1) // per
        for epoch in range(epochs):
            lr = 2e-3 * 0.5 * (1 + np.cos(np.pi * epoch / epochs))
            for c in self.rng.permutation(steps):
                a, b = bounds[c * per], bounds[min((c + 1) * per, len(bounds) - 1)]
                xb, yb, gb = x[a:b], y[a:b], group[a:b]
                out, h = self(xb)
                d = 2 * (T.demeaned(out, gb) - yb) / len(yb)
                dh = np.outer(d, self.params[2]) * (h > 0)
                grads = [xb.T @ dh + 1e-4 * self.params[0], dh.sum(0),
                         h.T @ d + 1e-4 * self.params[2], xb.T @ d]
                t += 1
                for p, g, mm, vv in zip(self.params, grads, m, v, strict=True):
                    mm *= 0.9
                    mm += 0.1 * g
                    vv *= 0.999
                    vv += 0.001 * g * g
                    p -= lr * (mm / (1 - 0.9**t)) / (np.sqrt(vv / (1 - 0.999**t)) + 1e-8)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--playouts", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON line too")
    args = parser.parse_args()
    if args.playouts < 2:  # the reliability compares one playout with the others
        parser.error(f"--playouts must be at least 2, got {args.playouts}")
    if not 2 <= args.games <= 100_000:  # half the games fit, the other half score
        parser.error(f"--games must be between 2 and 100000, got {args.games}")
    if args.jobs == 0 or args.jobs < -1:
        parser.error(f"--jobs must be at least 1 (or -1: every core), got {args.jobs}")
    n, f = args.players, len(W.feature_names())
    t0 = time.perf_counter()
    batches = [range(g, min(args.games, g + 5)) for g in range(0, args.games, 5)]
    parts = Parallel(n_jobs=args.jobs, backend="loky")(
        delayed(play)(n, b, args.playouts, args.seed) for b in batches)
    decisions = [d for part in parts for d in part]
    table = np.vstack([rows for _, rows, _ in decisions])
    group = np.concatenate([np.full(len(rows), i) for i, (_, rows, _) in enumerate(decisions)])
    game = np.concatenate([np.full(len(rows), g) for _, rows, g in decisions])
    inputs, banked, phase = table[:, :f], table[:, f], table[:, f + 1].astype(np.int64)
    gained, others = table[:, f + 2], table[:, f + 3:2 * f + 3]
    others_banked, others_gained, first = table[:, 2 * f + 3], table[:, 2 * f + 4], table[:, -1]
    margin = gained - others_gained
    print(f"{n} players: {len(decisions):,} decisions sampled from {args.games} fresh learned games, "
          f"{len(table):,} options, each valued by {args.playouts} greedy playouts "
          f"({time.perf_counter() - t0:.0f} s)")

    # 1. reliability
    rest = (args.playouts * margin - first) / (args.playouts - 1)
    c = float(np.corrcoef(T.demeaned(first, group), T.demeaned(rest, group))[0, 1])
    r1 = one_playout(c, args.playouts - 1)
    rk = spearman_brown(r1, args.playouts)
    print(f"1. one playout's reliability (options' differences within a decision): {r1:.2f}; "
          f"a mean of {args.playouts}: {rk:.2f}; of 4 (the training's targets): "
          f"{spearman_brown(r1, 4):.2f}; of 40 (mcts's rollouts per root candidate): "
          f"{spearman_brown(r1, 40):.2f}")

    # 2. the shipped evaluator
    weights = json.loads(W.PLAYOUT_WEIGHTS.read_text())["weights"]
    players = np.full(len(table), n)

    def corr(score: np.ndarray, mask: np.ndarray) -> float:
        return float(np.corrcoef(T.demeaned(score[mask], group[mask]),
                                 T.demeaned(margin[mask], group[mask]))[0, 1])

    shipped = (T.predict(weights, inputs, banked, players, phase)
               - T.predict(weights, others, others_banked, players, phase))
    everything = np.ones(len(table), dtype=bool)
    c = corr(shipped, everything)
    print(f"2. shipped weights: correlation with the {args.playouts}-playout margins {c:.2f}; "
          f"against the exact greedy-playout value about {c / np.sqrt(rk):.2f} "
          f"(banked VP alone: {corr(banked - others_banked, everything):.2f})")

    # 3. the fit or the inputs?
    half = game < args.games // 2
    rows = T.Rows(inputs, banked, gained, others, others_banked, others_gained, phase, players,
                  group, game)
    refit = T.fit(rows.select(half))
    ridge = (T.predict(refit, inputs, banked, players, phase)
             - T.predict(refit, others, others_banked, players, phase))
    x = np.hstack([T.design(inputs), T.design(others), np.eye(4)[phase]])
    mu, sd = x[half].mean(0), x[half].std(0)
    sd[sd < 1e-9] = 1
    x = (x - mu) / sd
    net = Network(x.shape[1], 64, args.seed)
    net.fit(x[half], T.demeaned((gained - banked) - (others_gained - others_banked), group)[half],
            group[half], epochs=16)
    network = net(x)[0] + banked - others_banked
    print(f"3. held-out games: ridge refit {corr(ridge, ~half):.2f}, a 64-unit network on the "
          f"same inputs {corr(network, ~half):.2f}, shipped weights {corr(shipped, ~half):.2f}")

    # 4. where the choices lose
    print("4. kind, phase: decisions x options each; regret (VP of margin given up against "
          "the best option, by the playouts) of the evaluator's choice / of a random option; "
          "how often the evaluator picks the best")
    acc: dict[tuple[str, int], list[float]] = defaultdict(lambda: [0, 0, 0, 0, 0])
    for i, (kind, _, _) in enumerate(decisions):
        m = group == i
        y, s = margin[m], shipped[m]
        a = acc[(kind, int(phase[m][0]))]
        pick = int(np.argmax(s))
        a[0] += 1
        a[1] += len(y)
        a[2] += y.max() - y[pick]
        a[3] += y.max() - y.mean()
        a[4] += y[pick] == y.max()
    total = sum(a[2] for a in acc.values())
    for (kind, ph), (k, o, regret, spread, hits) in sorted(acc.items()):
        print(f"   {kind:8s} {ph}: {int(k):5d} x {o / k:4.1f}  regret {regret / k:5.2f} / "
              f"{spread / k:5.2f}  best {hits / k:4.0%}  ({regret / total:4.0%} of all regret)")


if __name__ == "__main__":
    main()
