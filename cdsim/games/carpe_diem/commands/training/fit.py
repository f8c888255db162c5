"""Carpe Diem's learned player's weights fitted to the rows its training rounds record
(``Rows``): a ridge regression per player count and phase on the inputs and the inputs
times takes left (cdsim train's fit for Carpe Diem, cdsim.games.carpe_diem.commands.training)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from cdsim.games.carpe_diem.players import weights as W
from cdsim.games.fitting import FloatArray, IntArray, demeaned

PLAYER_COUNTS = W.PLAYER_COUNTS
PHASES = W.PHASES


def feature_names(input_set: int | None = None) -> tuple[str, ...]:
    """The core's input names of ``input_set`` (None: the set the rounds fit)."""
    return W.feature_names(W.INPUT_SET if input_set is None else input_set)


@dataclass
class Rows:
    """Options of sampled decisions: each row one position a decision could lead to (after
    the deciding seat's follow-ups), its inputs for that seat and the mean of the other
    seats', and what each side gained on average in playouts from there. The rows of one
    decision share a group."""

    inputs: FloatArray  # (R, F) the deciding seat's inputs
    banked: FloatArray  # (R,) its VP gained if the game ended there
    gained: FloatArray  # (R,) its VP gained at the end, mean over the playouts
    others: FloatArray  # (R, F) the other seats' inputs, their mean
    others_banked: FloatArray  # (R,)
    others_gained: FloatArray  # (R,)
    phase: IntArray  # (R,)
    players: IntArray  # (R,)
    group: IntArray  # (R,) one decision's options
    game: IntArray  # (R,) the game the decision was sampled from

    FIELDS = ("inputs", "banked", "gained", "others", "others_banked", "others_gained",
              "phase", "players", "group", "game")

    @staticmethod
    def concat(parts: Sequence[Rows]) -> Rows:
        f = len(feature_names())
        parts = [p for p in parts if len(p.banked)]
        if not parts:
            return Rows(np.zeros((0, f)), np.zeros(0), np.zeros(0), np.zeros((0, f)),
                        np.zeros(0), np.zeros(0), *(np.zeros(0, dtype=np.int64) for _ in range(4)))
        groups, offset = [], 0
        for p in parts:  # renumbered: groups stay distinct across parts
            groups.append(p.group + offset)
            offset += int(p.group.max()) + 1
        columns = {k: np.concatenate([getattr(p, k) for p in parts]) for k in Rows.FIELDS}
        columns["group"] = np.concatenate(groups)
        return Rows(**columns)

    def select(self, mask: NDArray[np.bool_]) -> Rows:
        return Rows(**{k: getattr(self, k)[mask] for k in Rows.FIELDS})


RIDGE = 1.0  # per standardized input and 1,000 rows: a weak pull towards zero
OPPONENTS = 1.0  # the player's default learned.opponents: what the fit's margin uses
# The training plays and values with the one-ply player (learned.reply 0, at every player
# count): the weights value the position after the seat's own turn. At 2 players the
# player then values with them the position after the other seat's greedy reply too.
MIN_ROWS = 20  # a (player count, phase) with fewer rows keeps zero weights
LABEL_PLAYOUTS = 60  # mcts simulations per option of a search label (one seed: as good as two)
# the label stage's games at 2, 3 and 4 players in the built-in recipe (docs/strength.md:
# about 2,000, 3,000 and 6,000 labelled decisions; the 3-player labels move only the 3-player
# weights, so 300,0,450 made the same 2- and 4-player rows: learned-v3.json)
LABEL_GAMES = (300, 300, 450)


def design(inputs: FloatArray) -> FloatArray:
    """The model's inputs: the features, then the features times takes left."""
    return np.hstack([inputs, inputs * inputs[:, 1:2]])


def fit(rows: Rows, ridge: float = RIDGE) -> dict[str, list[list[float]]]:
    """The weights per (player count, phase): a ridge regression of the playouts' margin,
    (gained - banked) - OPPONENTS x (the others' gained - banked), on the same of the
    inputs, both taken as differences from their decision's mean. What separates the
    options of one decision is all a decision uses; the playouts share their deck orders
    within a decision, so their common luck cancels. The level (the bias) is then set so
    that the seat's own values are right on average. A (count, phase) with fewer than
    ``MIN_ROWS`` rows keeps zero weights: the VP gained if the game ended now."""
    k = 2 * rows.inputs.shape[1]
    mine, theirs = design(rows.inputs), design(rows.others)
    z = demeaned(mine - OPPONENTS * theirs, rows.group)
    y = demeaned((rows.gained - rows.banked)
                 - OPPONENTS * (rows.others_gained - rows.others_banked), rows.group)
    table: dict[str, list[list[float]]] = {}
    for n in PLAYER_COUNTS:
        per_phase = []
        for phase in range(PHASES):
            mask = (rows.players == n) & (rows.phase == phase)
            if mask.sum() < MIN_ROWS:
                per_phase.append([0.0] * k)
                continue
            zm = z[mask]
            scale = zm.std(axis=0)
            scale[scale < 1e-9] = 1.0
            zs = zm / scale
            penalty = np.full(k, ridge * mask.sum() / 1000.0)
            w = np.linalg.solve(zs.T @ zs + np.diag(penalty), zs.T @ y[mask]) / scale
            w[0] = 0.0  # the bias cancels in a margin of differences: set from the level
            w[0] = float(np.mean(rows.gained[mask] - rows.banked[mask] - mine[mask] @ w))
            per_phase.append([float(round(x, 9)) for x in w])
        table[str(n)] = per_phase
    return table


def predict(table: dict[str, list[list[float]]], inputs: FloatArray, banked: FloatArray,
            players: IntArray, phase: IntArray) -> FloatArray:
    """The model's value of each row's position for its seat."""
    z = design(inputs)
    out = banked.copy()
    for n in PLAYER_COUNTS:
        for p in range(PHASES):
            mask = (players == n) & (phase == p)
            if mask.any():
                out[mask] += z[mask] @ np.asarray(table[str(n)][p])
    return out


def agreement(table: dict[str, list[list[float]]], rows: Rows) -> dict[str, float]:
    """Per player count: the correlation, over the options of the sampled decisions, of the
    model's margin with the playouts' (both less their decision's mean)."""
    mine = predict(table, rows.inputs, rows.banked, rows.players, rows.phase)
    theirs = predict(table, rows.others, rows.others_banked, rows.players, rows.phase)
    model = demeaned(mine - OPPONENTS * theirs, rows.group)
    played = demeaned(rows.gained - OPPONENTS * rows.others_gained, rows.group)
    out = {}
    for n in PLAYER_COUNTS:
        m = rows.players == n
        if m.sum() > 2 and model[m].std() > 0 and played[m].std() > 0:
            out[str(n)] = round(float(np.corrcoef(model[m], played[m])[0, 1]), 4)
    return out


def weights_json(table: dict[str, list[list[float]]], components_digest: str,
                 training: dict[str, object], input_set: int | None = None) -> str:
    """The weights file (the one format of every game: cdsim.games.weights_file)."""
    return W.text_of(table, components_digest, training,
                     W.INPUT_SET if input_set is None else input_set)


def widened(table: dict[str, list[list[float]]], inputs: int) -> dict[str, list[list[float]]]:
    """A table for ``inputs`` inputs (a later input set's list, which starts with this
    one's): the new inputs' weights 0 in both halves, so every value stays as it was."""
    out: dict[str, list[list[float]]] = {}
    for n, rows in table.items():
        out[n] = []
        for row in rows:
            half = len(row) // 2
            pad = [0.0] * (inputs - half)
            out[n].append([*row[:half], *pad, *row[half:], *pad])
    return out


def zero_table() -> dict[str, list[list[float]]]:
    k = 2 * len(feature_names())
    return {str(n): [[0.0] * k for _ in range(PHASES)]
            for n in PLAYER_COUNTS}


