"""``cdsim train``: rebuild the learned player's weights (core/src/carpe_diem/players/learned/) from a
seed; read, check and load a weights file.

The learned player values a position for a seat as the VP it has gained if the game ended
now plus a linear function of its inputs (core/src/carpe_diem/players/features/), one weight vector
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
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from cdsim import core
from cdsim.errors import CdsimError
from cdsim.train.fit import (
    LABEL_GAMES,
    LABEL_PLAYOUTS,
    MIN_ROWS,
    OPPONENTS,
    RIDGE,
    FloatArray,
    IntArray,
    Rows,
    agreement,
    demeaned,
    design,
    feature_names,
    fit,
    playout_game,
    predict,
    weights_json,
    widened,
    zero_table,
)
from cdsim.train.labels import Labels, decision_scores, fit_labels, margins

__all__ = ["LABEL_GAMES", "LABEL_PLAYOUTS", "MIN_ROWS", "OPPONENTS", "RIDGE", "FloatArray",
           "IntArray", "Labels", "Rows", "TrainConfig", "agreement", "decision_scores",
           "demeaned", "design", "fit", "fit_labels", "margins", "predict", "train",
           "weights_json", "widened", "zero_table"]

# The self-play the weights are fitted on plays the classic search (learned@classic: each
# shortlisted move's best take, each copy's own prices), as when the built-in weights were
# made, so `cdsim train --seed 1` still rebuilds them byte for byte; the built-in player
# plays them with the joint shortlist (issue 49, docs/strength.md).
CLASSIC = (("joint", 0.0), ("pin", 0.0))


# -- playing and recording

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
    comps = playout_game().load_components(batch.components)
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
    digest, _ = playout_game().components_digest(config.components)
    played = 0
    start = time.perf_counter()
    stages: list[Stage] = []
    everything: list[Rows] = []
    text = weights_json(zero_table(), digest, {})
    for index in range(config.rounds + 1):
        behaviour = ("greedy", ()) if index == 0 else (
            "learned", (("explore", config.explore), ("opponents", OPPONENTS), ("reply", 0),
                        *CLASSIC))
        batches = [Batch(n, config.seed, index, tuple(range(first, min(games, first + GAMES_PER_BATCH))),
                         behaviour, text if index else None, config.components, config.sample,
                         config.playouts)
                   for n, games in zip(playout_game().player_counts, config.games, strict=True)
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
               for n, games in zip(playout_game().player_counts, config.label_games, strict=True)
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
    comps = playout_game().load_components(batch.components)
    weights = int(module.learned_weights(batch.weights))
    own = [("explore", batch.explore), ("opponents", OPPONENTS), ("reply", 0), *CLASSIC,
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


