"""Carpe Diem's trainer (``cdsim train``'s label source and fit for its learned player,
core/src/carpe_diem/players/learned/; the pipeline that runs it is cdsim.train's, one for
every game).

The learned player values a position for a seat as the VP it has gained if the game ended
now plus a linear function of its inputs (core/src/carpe_diem/players/features/), one
weight vector per player count and phase over the inputs and the inputs times the seat's share of takes
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

4. Then a last stage (``--label-games``; 0,0,0 skips it: input set 1) labels the
   last player's own move decisions with search instead (Expert Iteration;
   docs/strength.md, issue 30): every shortlisted option's position valued by an mcts
   tree, the same deck orders for every option (``State.search_labels``), and refits the
   labelled player counts to those labels (``fit_labels``), the last weights as the
   prior, widened to input set 2 (the placement inputs after the others).

Every game is dealt from the training seed (``SeedSequence(seed, (stage, game))``) and
every playout's deck orders from the decision; workers only play, the driver fits: the
same seed and settings give the same weights file for any --jobs. Each stage is one round
of the pipeline (``CarpeDiemTrainer``): its jobs (``Batch``, ``LabelBatch``) play on worker
processes, its fit refits.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from cdsim import core
from cdsim.errors import CdsimError
from cdsim.games.carpe_diem.commands.training.fit import (
    LABEL_GAMES,
    LABEL_PLAYOUTS,
    OPPONENTS,
    RIDGE,
    Rows,
    agreement,
    feature_names,
    fit,
    widened,
)
from cdsim.games.carpe_diem.commands.training.labels import Labels, fit_labels
from cdsim.games.carpe_diem.handover import core_components
from cdsim.games.carpe_diem.players import weights as W
from cdsim.games.training import Fitted, Job

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

    @property
    def game_count(self) -> int:
        return len(self.games)

    def run(self) -> Rows:
        return play_batch(self)


def play_batch(batch: Batch) -> Rows:
    """Play the batch's games on the core; every sampled decision's options become a group
    of rows valued by playouts (``State.learned_playouts``). A worker's job."""
    module = core.module()
    assert module is not None
    comps = core_components(batch.components)
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
class CarpeDiemTrainer:
    """cdsim train's label source and fit for Carpe Diem (``cdsim.games.training.Trainer``):
    round ``r <= config.rounds`` is playout stage ``r``, the last (with label games) the
    search-label stage."""

    config: TrainConfig
    components_digest: str
    game: str = W.GAME
    threads: bool = False  # the playouts run on worker processes (joblib's loky)
    everything: list[Rows] = field(default_factory=list)  # every playout stage's rows
    table: dict[str, list[list[float]]] = field(default_factory=dict)  # the last fit
    training: dict[str, object] = field(default_factory=dict)  # its record
    played: int = 0
    label_counts: list[int] = field(default_factory=list)  # each label job's player count
    start: float = field(default_factory=time.perf_counter)

    def planned(self) -> int:
        c = self.config
        return (c.rounds + 1) * sum(c.games) + sum(c.label_games)

    def rounds(self) -> int:
        return self.config.rounds + 1 + (1 if any(self.config.label_games) else 0)

    def jobs(self, index: int, weights: str | None) -> Sequence[Job]:
        c = self.config
        if index > c.rounds:  # the search-label stage, with the last stage's weights
            assert weights is not None
            self.label_counts = [n for n, games in zip(W.PLAYER_COUNTS, c.label_games,
                                                       strict=True)
                                 for _ in range(0, games, LABEL_BATCH)]
            return [LabelBatch(n, c.seed, tuple(range(first, min(games, first + LABEL_BATCH))),
                               weights, c.components, c.label_playouts, c.explore)
                    for n, games in zip(W.PLAYER_COUNTS, c.label_games, strict=True)
                    for first in range(0, games, LABEL_BATCH)]
        behaviour: tuple[str, tuple[tuple[str, float], ...]] = ("greedy", ()) if index == 0 \
            else ("learned", (("explore", c.explore), ("opponents", OPPONENTS), ("reply", 0),
                              *CLASSIC))
        return [Batch(n, c.seed, index, tuple(range(first, min(games, first + GAMES_PER_BATCH))),
                      behaviour, weights if index else None, c.components, c.sample, c.playouts)
                for n, games in zip(W.PLAYER_COUNTS, c.games, strict=True)
                for first in range(0, games, GAMES_PER_BATCH)]

    def fit(self, index: int, labels: Sequence[object]) -> Fitted:
        if index > self.config.rounds:
            return self._fit_labels([(n, part) for n, part in zip(self.label_counts, labels,
                                                                  strict=True)
                                     if isinstance(part, Labels)])
        c = self.config
        self.played += sum(c.games)
        self.everything.append(Rows.concat([part for part in labels if isinstance(part, Rows)]))
        rows = Rows.concat(self.everything)
        self.table = fit(rows, c.ridge)
        label = "greedy play" if index == 0 else f"self-play round {index}"
        fitted = agreement(self.table, rows)
        self.training = {
            "command": c.command(), "seed": c.seed,
            "components": c.components or "default", "stages": index + 1,
            "last_stage": label, "games": self.played, "games_per_stage": list(c.games),
            "sample": c.sample, "playouts": c.playouts, "explore": c.explore,
            "ridge": c.ridge, "options_valued": len(rows.banked),
            "decisions_valued": len(np.unique(rows.group)), "agreement": fitted}
        line = (f"stage {index} ({label}): {self.played} games, "
                f"{time.perf_counter() - self.start:.0f} s; ")
        if fitted:
            line += "correlation with the playouts' margins: " + ", ".join(
                f"{n}p {r:.2f}" for n, r in fitted.items())
        return Fitted(self.table, W.file_inputs(feature_names()), W.PHASES, self.training,
                      line)

    def _fit_labels(self, parts: Sequence[tuple[int, Labels]]) -> Fitted:
        """The search-label stage (Expert Iteration, issue 30; docs/strength.md): the last
        stage's player played ``label_games`` games per count; a move decision with chance
        ``LABEL_CHANCE`` had every shortlisted option valued by an mcts tree of
        ``label_playouts`` simulations, the same deck orders for every option
        (``State.search_labels``); ``fit_labels`` now refits each count that has labels,
        the last stage's weights widened to input set 2 as the prior."""
        c = self.config
        found: dict[int, list[Labels]] = {}
        for n, part in parts:
            found.setdefault(n, []).append(part)
        table = widened(self.table, len(feature_names(2)))
        decisions: dict[str, int] = {}
        for n, own in sorted(found.items()):
            labels = Labels.concat(own)
            decisions[str(n)] = len(np.unique(labels.group))
            if decisions[str(n)]:
                table = fit_labels(labels, table, LABEL_RIDGE)
        training = dict(self.training)
        training.update({"command": c.command(), "stages": int(str(training["stages"])) + 1,
                         "last_stage": "search labels",
                         "labels": {"games": list(c.label_games),
                                    "playouts": c.label_playouts, "chance": LABEL_CHANCE,
                                    "ridge": LABEL_RIDGE, "decisions": decisions}})
        line = (f"stage {c.rounds + 1} (search labels): {self.played + sum(c.label_games)} "
                f"games, {time.perf_counter() - self.start:.0f} s; decisions labelled: "
                + ", ".join(f"{n}p {k:,}" for n, k in decisions.items()))
        return Fitted(table, W.file_inputs(feature_names(2)), W.PHASES, training, line)


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

    @property
    def game_count(self) -> int:
        return len(self.games)

    def run(self) -> Labels:
        return label_batch(self)


def label_batch(batch: LabelBatch) -> Labels:
    """Play the batch's games with the learned player (``batch.weights``, one ply, the
    self-play rounds' settings) and label its sampled move decisions. A worker's job."""
    module = core.module()
    assert module is not None
    comps = core_components(batch.components)
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


