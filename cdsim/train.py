"""``cdsim train``: rebuild the learned player's weights (core/src/players/learned/) from a
seed; read, check and load a weights file.

The learned player values a position for a seat as the VP it has gained if the game ended
now plus a linear function of its inputs (core/src/players/features/), one weight vector
per player count and phase over the inputs and the inputs times the seat's share of takes
left in the phase; a decision takes the option whose position is worth the most to the
seat less the mean worth to the other seats (``learned.opponents``, 1).

Training fits that function to **playout values**, the Monte Carlo estimates a search
player computes (mcts plays the same greedy playouts):

1. Games are played and their decisions sampled (a move with chance ``sample``, a scoring
   or fountain decision with three times that). Every option the learned player would
   weigh at a sampled decision is played out ``playouts`` times by greedy players to the
   end, on deck orders the deciding seat may imagine, the same orders for every option of
   the decision: each option's row holds the inputs of its position for the seat and for
   the others (their mean), and the VP each side went on to gain.
2. A ridge regression per (player count, phase) fits the margin (the seat's gain less the
   others' mean gain, beyond the VP banked) on the inputs, both taken as differences from
   the decision's mean: what separates the options of one decision is what decides, and
   the playouts' shared luck cancels.
3. Stage 0 samples greedy games; each later stage (a self-play round) samples the learned
   player's games with the weights of the stage before (with a small chance of a random
   shortlisted option), and refits on the rows of every stage so far.

4. Then a last stage (``--label-games``; 0,0,0 skips it and writes version 1) labels the
   last player's own move decisions with search instead (Expert Iteration;
   docs/strength.md, issue 30): every shortlisted option's position valued by an mcts
   tree, the same deck orders for every option (``State.search_labels``), and refits the
   labelled player counts to those labels (``fit_labels``), the last weights as the
   prior. It writes a version-2 file.

Every game is dealt from the training seed (``SeedSequence(seed, (stage, game))``) and
every playout's deck orders from the decision; workers only play, the driver fits: the
same seed and settings give the same weights file for any --jobs.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from cdsim import core
from cdsim.errors import CdsimError
from cdsim.players.weights import (
    FORMAT,
    PHASES,
    PLAYER_COUNTS,
    VERSION,
    feature_names,
)
from cdsim.rules.components import load_components

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]


# -- playing and recording

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


@dataclass(frozen=True)
class Batch:
    """Games one worker call plays: its decisions sampled and their options valued."""

    players: int
    seed: int
    stage: int  # the stage of the training (0: greedy play, r: round r's learned player)
    games: tuple[int, ...]
    behaviour: tuple[str, tuple[tuple[str, float], ...]]  # every seat: core name, params
    weights: str | None  # the learned player's weights file text, when it plays
    components: str | None
    sample: float  # chance that a move decision is sampled (other decisions: 3x)
    playouts: int


def play_batch(batch: Batch) -> Rows:
    """Play the batch's games on the core; every sampled decision's options become a group
    of rows valued by playouts (``State.learned_playouts``). A worker's job."""
    module = core.module()
    assert module is not None
    comps = core.core_components(batch.components)
    name, params = batch.behaviour
    own = list(params)
    if name == "learned" and batch.weights is not None:
        own.append(("weights", float(module.learned_weights(batch.weights))))
    n = batch.players
    found: list[list[float]] = []
    groups: list[int] = []
    games: list[int] = []
    group = 0
    for game in batch.games:
        key = batch.stage * 1_000_000 + game  # the stage and game number key the deal
        bots = [module.Bot(name, own) for _ in range(n)]
        state = module.State(comps, n, [0] * n, batch.seed, key)
        chance = np.random.default_rng([batch.seed, key, 0x5A3])
        decision = 0
        while not state.is_over():
            kind = state.decision()
            odds = batch.sample if kind == "move" else min(1.0, 3 * batch.sample)
            if kind not in ("start", "take") and chance.random() < odds:
                options = state.learned_playouts(batch.playouts, (key << 12) + decision)
                if len(options) > 1:  # one option: nothing to compare
                    found.extend(options)
                    groups.extend([group] * len(options))
                    games.extend([key] * len(options))
                    group += 1
            decision += 1
            state.apply(bots[state.current_seat()].choose(state))
    f = len(feature_names())
    table = np.asarray(found, dtype=np.float64).reshape(len(found), 2 * f + 5)
    # learned_playouts: inputs, banked, phase, gained, then the other seats' mean inputs,
    # banked, gained
    return Rows(inputs=table[:, :f], banked=table[:, f], gained=table[:, f + 2],
                others=table[:, f + 3:2 * f + 3], others_banked=table[:, 2 * f + 3],
                others_gained=table[:, 2 * f + 4], phase=table[:, f + 1].astype(np.int64),
                players=np.full(len(found), n, dtype=np.int64),
                group=np.asarray(groups, dtype=np.int64), game=np.asarray(games, dtype=np.int64))


# -- fitting ---------------------------------------------------------------------------

RIDGE = 1.0  # per standardized input and 1,000 rows: a weak pull towards zero
OPPONENTS = 1.0  # the player's default learned.opponents: what the fit's margin uses
# The training plays and values with the one-ply player (learned.reply 0, at every player
# count): the weights value the position after the seat's own turn. At 2 players the
# player then values with them the position after the other seat's greedy reply too.
MIN_ROWS = 20  # a (player count, phase) with fewer rows keeps zero weights
LABEL_PLAYOUTS = 60  # mcts simulations per option of a search label (one seed: as good as two)
# the label stage's games at 2, 3 and 4 players in the built-in recipe (docs/strength.md:
# about 2,000 and 6,000 labelled decisions; 3 players keeps the rounds' weights)
LABEL_GAMES = (300, 0, 450)


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
                 training: dict[str, Any], version: int = VERSION) -> str:
    names = feature_names(version)
    data = {"format": FORMAT, "version": version, "components_digest": components_digest,
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
    return {str(n): [[0.0] * k for _ in range(PHASES)] for n in PLAYER_COUNTS}


# -- the training ----------------------------------------------------------------------

@dataclass(frozen=True)
class TrainConfig:
    """Everything that decides the weights (written into the weights file)."""

    seed: int = 1
    games: tuple[int, int, int] = (300, 150, 150)  # games per stage at 2, 3 and 4 players
    rounds: int = 2  # self-play rounds after the greedy stage
    sample: float = 0.3  # chance that a move decision is valued (scoring decisions: 3x)
    playouts: int = 4  # playouts per option
    explore: float = 0.05  # the learned player's chance of a random shortlisted option
    ridge: float = RIDGE
    components: str | None = None
    # the search-label stage after the rounds (issue 30): games per count, 0 = none
    label_games: tuple[int, int, int] = LABEL_GAMES
    label_playouts: int = LABEL_PLAYOUTS

    def validate(self) -> None:
        if not 0 <= self.seed < 2**63:
            raise CdsimError(f"--seed must be between 0 and 2**63 - 1, got {self.seed}")
        if len(self.games) != 3 or any(not 0 <= g <= 100_000 for g in self.games) \
                or not any(self.games):
            raise CdsimError("--games takes three counts (2, 3 and 4 players) between 0 and "
                             f"100,000, not all 0; got {','.join(map(str, self.games))}")
        if not 0 <= self.rounds <= 50:
            raise CdsimError(f"--rounds must be between 0 and 50, got {self.rounds}")
        if not 0 < self.sample <= 1:
            raise CdsimError(f"--sample must be above 0 and at most 1, got {self.sample}")
        if not 1 <= self.playouts <= 1000:
            raise CdsimError(f"--playouts must be between 1 and 1000, got {self.playouts}")
        if not 0 <= self.explore <= 1:
            raise CdsimError(f"--explore must be between 0 and 1, got {self.explore}")
        if not (math.isfinite(self.ridge) and self.ridge >= 0):
            raise CdsimError(f"--ridge must be a number >= 0, got {self.ridge}")
        if len(self.label_games) != 3 or any(not 0 <= g <= 100_000 for g in self.label_games):
            raise CdsimError("--label-games takes three counts (2, 3 and 4 players) between 0 "
                             f"and 100,000; got {','.join(map(str, self.label_games))}")
        if not 1 <= self.label_playouts <= 1000:
            raise CdsimError(f"--label-playouts must be between 1 and 1000, got "
                             f"{self.label_playouts}")

    def command(self) -> str:
        parts = ["cdsim train", f"--seed {self.seed}",
                 f"--games {','.join(map(str, self.games))}", f"--rounds {self.rounds}",
                 f"--sample {self.sample:g}", f"--playouts {self.playouts}",
                 f"--explore {self.explore:g}", f"--ridge {self.ridge:g}"]
        if any(self.label_games):
            parts += [f"--label-games {','.join(map(str, self.label_games))}",
                      f"--label-playouts {self.label_playouts}"]
        if self.components:
            parts.append(f"--components {self.components}")
        return " ".join(parts)


GAMES_PER_BATCH = 4


@dataclass
class Stage:
    """One fitted stage of the training."""

    stage: int
    label: str
    games: int  # training games played so far
    seconds: float
    text: str  # the weights file after this stage
    agreement: dict[str, float]


OnGames = Callable[[int], None]  # games just played


def train(config: TrainConfig, jobs: int, on_games: OnGames | None = None,
          on_stage: Callable[[Stage], None] | None = None) -> list[Stage]:
    """Stage 0 samples decisions of greedy games, each later stage of the learned player's
    games with the weights of the stage before; every stage refits on the rows of all the
    stages so far. Returns the stages (the last one's ``text`` is the weights file)."""
    from joblib import Parallel, delayed

    config.validate()
    feature_names()  # the core is needed: one line when it is missing
    digest = load_components(config.components).digest
    played = 0
    start = time.perf_counter()
    stages: list[Stage] = []
    everything: list[Rows] = []
    text = weights_json(zero_table(), digest, {})
    for index in range(config.rounds + 1):
        behaviour = ("greedy", ()) if index == 0 else (
            "learned", (("explore", config.explore), ("opponents", OPPONENTS), ("reply", 0)))
        batches = [Batch(n, config.seed, index, tuple(range(first, min(games, first + GAMES_PER_BATCH))),
                         behaviour, text if index else None, config.components, config.sample,
                         config.playouts)
                   for n, games in zip(PLAYER_COUNTS, config.games, strict=True)
                   for first in range(0, games, GAMES_PER_BATCH)]
        runner = Parallel(n_jobs=jobs, return_as="generator", backend="loky")
        parts = []
        for part, batch in zip(runner(delayed(play_batch)(b) for b in batches), batches,
                               strict=True):
            parts.append(part)
            if on_games is not None:
                on_games(len(batch.games))
        played += sum(config.games)
        everything.append(Rows.concat(parts))
        rows = Rows.concat(everything)
        table = fit(rows, config.ridge)
        label = "greedy play" if index == 0 else f"self-play round {index}"
        fitted = agreement(table, rows)
        text = weights_json(table, digest, {
            "command": config.command(), "seed": config.seed,
            "components": config.components or "default", "stages": index + 1,
            "last_stage": label, "games": played, "games_per_stage": list(config.games),
            "sample": config.sample, "playouts": config.playouts, "explore": config.explore,
            "ridge": config.ridge, "options_valued": len(rows.banked),
            "decisions_valued": len(np.unique(rows.group)), "agreement": fitted})
        stage = Stage(index, label, played, time.perf_counter() - start, text, fitted)
        stages.append(stage)
        if on_stage is not None:
            on_stage(stage)
    if any(config.label_games):
        stage = label_stage(config, stages[-1], digest, jobs, on_games, start)
        stages.append(stage)
        if on_stage is not None:
            on_stage(stage)
    return stages


def label_stage(config: TrainConfig, last: Stage, digest: str, jobs: int,
                on_games: OnGames | None, start: float) -> Stage:
    """The search-label stage (Expert Iteration, issue 30; docs/strength.md): the last
    stage's player plays ``label_games`` games per count; a move decision with chance
    ``LABEL_CHANCE`` has every shortlisted option valued by an mcts tree of
    ``label_playouts`` simulations, the same deck orders for every option
    (``State.search_labels``); ``fit_labels`` then refits each count that has labels, the
    last stage's weights widened to the version-2 inputs as the prior. Writes a version-2
    weights file."""
    from joblib import Parallel, delayed

    batches = [LabelBatch(n, config.seed, tuple(range(first, min(games, first + LABEL_BATCH))),
                          last.text, config.components, config.label_playouts, config.explore)
               for n, games in zip(PLAYER_COUNTS, config.label_games, strict=True)
               for first in range(0, games, LABEL_BATCH)]
    runner = Parallel(n_jobs=jobs, return_as="generator", backend="loky")
    parts: dict[int, list[Labels]] = {}
    for part, batch in zip(runner(delayed(label_batch)(b) for b in batches), batches,
                           strict=True):
        parts.setdefault(batch.players, []).append(part)
        if on_games is not None:
            on_games(len(batch.games))
    previous = json.loads(last.text)
    table = widened(previous["weights"], len(feature_names(2)))
    decisions: dict[str, int] = {}
    for n, found in sorted(parts.items()):
        labels = Labels.concat(found)
        decisions[str(n)] = len(np.unique(labels.group))
        if decisions[str(n)]:
            table = fit_labels(labels, table, LABEL_RIDGE)
    training = dict(previous["training"])
    training.update({"command": config.command(), "stages": last.stage + 2,
                     "last_stage": "search labels",
                     "labels": {"games": list(config.label_games),
                                "playouts": config.label_playouts, "chance": LABEL_CHANCE,
                                "ridge": LABEL_RIDGE, "decisions": decisions}})
    text = weights_json(table, digest, training, 2)
    return Stage(last.stage + 1, "search labels", last.games + sum(config.label_games),
                 time.perf_counter() - start, text, {})


LABEL_STAGE = 99  # the label stage's deals: key LABEL_STAGE * 1,000,000 + game
LABEL_CHANCE = 0.12  # a move decision's chance of being labelled
LABEL_BATCH = 2  # games per worker call
LABEL_RIDGE = 1000.0  # docs/strength.md: the fit that made learned-v2.json


@dataclass(frozen=True)
class LabelBatch:
    """Games of the label stage one worker call plays and labels."""

    players: int
    seed: int
    games: tuple[int, ...]
    weights: str  # the player's weights file text
    components: str | None
    playouts: int
    explore: float


def label_batch(batch: LabelBatch) -> Labels:
    """Play the batch's games with the learned player (``batch.weights``, one ply, the
    self-play rounds' settings) and label its sampled move decisions. A worker's job."""
    module = core.module()
    assert module is not None
    comps = core.core_components(batch.components)
    weights = int(module.learned_weights(batch.weights))
    own = [("explore", batch.explore), ("opponents", OPPONENTS), ("reply", 0),
           ("weights", float(weights))]
    search = [("playouts", float(batch.playouts))]
    n = batch.players
    value: list[float] = []
    rows: list[list[float]] = []
    group: list[int] = []
    games: list[int] = []
    for game in batch.games:
        key = LABEL_STAGE * 1_000_000 + game
        bots = [module.Bot("learned", own) for _ in range(n)]
        state = module.State(comps, n, [0] * n, batch.seed, key)
        chance = np.random.default_rng([batch.seed, key, 0x1AB])
        decision = 0
        while not state.is_over():
            if state.decision() == "move" and chance.random() < LABEL_CHANCE:
                options = state.search_labels((key << 12) + decision, search, weights)
                if len(options) > 1:  # one option: nothing to compare
                    number = (group[-1] + 1) if group else 0
                    for option in options:
                        value.append(option[1])
                        rows.append(option[3])
                        group.append(number)
                        games.append(key)
            decision += 1
            state.apply(bots[state.current_seat()].choose(state))
    table = np.asarray(rows, dtype=np.float64).reshape(len(rows), 1 + n * (1 + len(feature_names(2))))
    return Labels.of_rows(np.asarray(value, dtype=np.float64), table, n, 2,
                          np.asarray(group, dtype=np.int64), np.asarray(games, dtype=np.int64))


# -- labels from search (Expert Iteration; scripts/search_labels.py writes them) ---------

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
        banked VP and the version-2 inputs), keeping the inputs of weights ``version``."""
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
