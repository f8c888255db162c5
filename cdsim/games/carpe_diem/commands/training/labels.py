"""Labels from search (Expert Iteration): the learned player's own decisions, each
shortlisted option valued by an mcts tree (``State.search_labels``), and the weights refitted
to them (``fit_labels``; scripts/search_labels.py and scripts/fit_labels.py; cdsim train's
last stage for Carpe Diem)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from cdsim.games.carpe_diem.commands.training.fit import (
    MIN_ROWS,
    PHASES,
    design,
    feature_names,
    predict,
)
from cdsim.games.fitting import FloatArray, IntArray, demeaned


@dataclass
class Labels:
    """The learned player's own decisions, every shortlisted option's position valued by
    an mcts tree on deck orders shared by the options (``State.search_labels``). The rows
    of one decision share a group."""

    value: FloatArray  # (R,) mcts's mean margin: the seat's VP gained less the best other's
    seats: FloatArray  # (R, n, 1 + F) per seat from the deciding one on: banked VP, inputs
    phase: IntArray  # (R,)
    group: IntArray  # (R,)
    game: IntArray  # (R,)

    @property
    def players(self) -> IntArray:
        return np.full(len(self.value), self.seats.shape[1], dtype=np.int64)

    def select(self, mask: NDArray[np.bool_]) -> Labels:
        return Labels(self.value[mask], self.seats[mask], self.phase[mask], self.group[mask],
                      self.game[mask])

    @staticmethod
    def of_rows(value: FloatArray, inputs: FloatArray, players: int, version: int,
                group: IntArray, game: IntArray) -> Labels:
        """Labels from ``State.search_labels``' input rows (the phase, then per seat its
        banked VP and the inputs of set 2), keeping the inputs of set ``version``."""
        width = (inputs.shape[1] - 1) // players  # banked VP and the inputs the rows hold
        f = len(feature_names(version))
        seats = inputs[:, 1:].reshape(len(inputs), players, width)[:, :, :1 + f]
        return Labels(value, seats, inputs[:, 0].astype(np.int64), group, game)

    @staticmethod
    def concat(parts: Sequence[Labels]) -> Labels:
        """One player count's labels of several batches, their decisions renumbered."""
        offsets = np.cumsum([0] + [int(p.group.max()) + 1 if len(p.group) else 0
                                   for p in parts])
        return Labels(np.concatenate([p.value for p in parts]),
                      np.concatenate([p.seats for p in parts]),
                      np.concatenate([p.phase for p in parts]),
                      np.concatenate([p.group + o for p, o in zip(parts, offsets, strict=False)]),
                      np.concatenate([p.game for p in parts]))

    def worth(self, table: dict[str, list[list[float]]], seat: int) -> FloatArray:
        """The model's worth of each row's position to one seat (0: the deciding one)."""
        return predict(table, self.seats[:, seat, 1:], self.seats[:, seat, 0], self.players,
                       self.phase)

    def relative(self, of: FloatArray, leader: bool) -> FloatArray:
        """``of`` per seat (R, n, ...) as the deciding seat's less the other seats': their
        mean, or (``leader``) the other seat with the most VP banked, the margin mcts
        plays for."""
        others = of[:, 1:]
        if not leader:
            return np.asarray(of[:, 0] - others.mean(axis=1), dtype=np.float64)
        best = np.argmax(self.seats[:, 1:, 0], axis=1)
        return np.asarray(of[:, 0] - others[np.arange(len(of)), best], dtype=np.float64)


def margins(table: dict[str, list[list[float]]], labels: Labels,
            leader: bool = False) -> FloatArray:
    """The model's margin of each option: the seat's worth less the others' (as the player
    weighs it, ``learned.opponents`` 1: their mean; or the leader's)."""
    worth = np.stack([labels.worth(table, s) for s in range(labels.seats.shape[1])], axis=1)
    return labels.relative(worth, leader)


def fit_labels(labels: Labels, prior: dict[str, list[list[float]]], ridge: float,
               leader: bool = False, keep: int = 0) -> dict[str, list[list[float]]]:
    """Weights per (player count, phase) fitted to search labels: a ridge regression of the
    label less the banked margin on the inputs' margin, both less their decision's mean
    (only what separates one decision's options counts), pulled towards ``prior`` (the
    shipped weights, fitted on far more decisions) rather than towards zero; ``ridge`` per
    standardized input and 1,000 rows. The first ``keep`` inputs (in both halves) keep
    the prior's weights: only the inputs after them are fitted (a later version's new
    inputs, on few labels)."""
    design_all = np.stack([design(labels.seats[:, s, 1:]) for s in range(labels.seats.shape[1])],
                          axis=1)
    z = demeaned(labels.relative(design_all, leader), labels.group)
    y = demeaned(labels.value - labels.relative(labels.seats[:, :, 0], leader), labels.group)
    table = {n: [list(w) for w in per_phase] for n, per_phase in prior.items()}
    n = str(labels.seats.shape[1])
    for phase in range(PHASES):
        mask = labels.phase == phase
        if mask.sum() < MIN_ROWS:
            continue
        w0 = np.asarray(prior[n][phase])
        scale = z[mask].std(axis=0)
        scale[scale < 1e-9] = 1.0
        zs = z[mask] / scale
        strength = np.full(len(w0), ridge * mask.sum() / 1000.0)
        half = len(w0) // 2
        held = np.zeros(len(w0), dtype=bool)
        held[:keep] = held[half:half + keep] = True
        strength[held] = 1e12  # held at the prior
        penalty = np.diag(strength)
        # the level (w[0], the bias) cancels within a decision: kept from the prior
        v = np.linalg.solve(zs.T @ zs + penalty, zs.T @ y[mask] + penalty @ (w0 * scale))
        w = v / scale
        w[0] = w0[0]
        table[n][phase] = [float(round(x, 9)) for x in w]
    return table


def decision_scores(score: FloatArray, labels: Labels) -> dict[str, float]:
    """How a score's choices fare under the labels, per decision on average: the label
    given up against the best option (regret, VP of margin), how often it picks the best,
    and its rank correlation with the labels."""
    from scipy.stats import spearmanr

    regret, top, rho = [], [], []
    for g in np.unique(labels.group):
        m = labels.group == g
        y, s = labels.value[m], score[m]
        pick = int(np.argmax(s))
        regret.append(y.max() - y[pick])
        top.append(float(y[pick] == y.max()))
        # a score equal over the options (to rounding) ranks nothing: left out
        if np.ptp(s) > 1e-9 * max(1.0, float(np.abs(s).max())) and np.ptp(y) > 0:
            rho.append(float(spearmanr(s, y).statistic))
    return {"regret": float(np.mean(regret)), "top1": float(np.mean(top)),
            "spearman": float(np.mean(rho)) if rho else float("nan")}
