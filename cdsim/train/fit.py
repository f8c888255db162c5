"""The learned player's weights fitted to the rows its training records (``Rows``): a ridge
regression per player count and phase on the inputs and the inputs times takes left, and
the weights file it writes (cdsim.train)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from cdsim.errors import CdsimError
from cdsim.games import GAMES, GameSpec
from cdsim.games.features import PlayoutWeights

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]


def playout_game() -> GameSpec:
    """The game whose learned player this pipeline trains: the one whose spec declares its
    ``playout_weights`` (every other game's learned player is the seam's, cdsim.train.seam)."""
    found = [spec for spec in GAMES.values() if spec.playout_weights is not None]
    if len(found) != 1:
        raise CdsimError(f"cdsim train: {len(found)} games declare a learned player trained "
                         "on playouts; one must")
    return found[0]


def playout_weights() -> PlayoutWeights:
    """That game's weights format (``GameSpec.playout_weights``)."""
    fmt = playout_game().playout_weights
    assert fmt is not None  # playout_game chose it for one
    return fmt


def feature_names(version: int | None = None) -> tuple[str, ...]:
    """The core's input names for weights of ``version`` (None: the one ``cdsim train``
    writes)."""
    fmt = playout_weights()
    return fmt.inputs(fmt.version if version is None else version)


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


def demeaned(values: FloatArray, group: IntArray) -> FloatArray:
    """Each row less the mean of its group."""
    _, inverse, counts = np.unique(group, return_inverse=True, return_counts=True)
    sums = np.zeros((len(counts), *values.shape[1:]))
    np.add.at(sums, inverse, values)
    return values - (sums / counts.reshape(-1, *[1] * (values.ndim - 1)))[inverse]


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
    for n in playout_game().player_counts:
        per_phase = []
        for phase in range(playout_weights().phases):
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
    for n in playout_game().player_counts:
        for p in range(playout_weights().phases):
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
    for n in playout_game().player_counts:
        m = rows.players == n
        if m.sum() > 2 and model[m].std() > 0 and played[m].std() > 0:
            out[str(n)] = round(float(np.corrcoef(model[m], played[m])[0, 1]), 4)
    return out


# Any: the training's record, written whole into the weights file's JSON
def weights_json(table: dict[str, list[list[float]]], components_digest: str,
                 training: dict[str, Any], version: int | None = None) -> str:
    fmt = playout_weights()
    version = fmt.version if version is None else version
    names = feature_names(version)
    data = {"format": fmt.format, "version": version, "components_digest": components_digest,
            "features": list(names),
            "inputs": "each feature, then each feature times takes_left; one list per phase",
            "value": "VP gained if the game ended now + weights . inputs; a decision takes "
                     "the option of the best value less the other seats' mean value",
            "weights": table, "training": training}
    return json.dumps(data, indent=1) + "\n"


def widened(table: dict[str, list[list[float]]], inputs: int) -> dict[str, list[list[float]]]:
    """A table for ``inputs`` inputs (a later version's list, which starts with this
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
    return {str(n): [[0.0] * k for _ in range(playout_weights().phases)]
            for n in playout_game().player_counts}


