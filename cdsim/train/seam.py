"""The seam's trainer (``cdsim.games.training.Trainer``): the weights of a game's learned
player written over the seam (core/src/players/fitted/), from search labels, for any game
whose spec names no trainer of its own (``cdsim train --game castles``). cdsim.train's one
pipeline runs it and writes the file.

1. Rounds of self-play: round 0 by the player valuing VP gained alone, each later round
   by the weights of the round before (with a chance ``explore`` of a random shortlisted
   option, so the games vary). A decision of two or more options is labelled with chance
   1 / ``every``: every option the player would weigh is played on a copy through the rest
   of the seat's turn, and that position valued by the game's mcts (``playouts``
   simulations: each seat's mean VP gained at the end), with each seat's inputs there
   (``_core.search_labels``, Expert Iteration).
2. A ridge regression per (player count, phase) fits the search's margin (the seat's VP
   gained beyond those gained already, less the other seats' mean of the same) on the
   same margin of the inputs, both taken as differences from their decision's mean: what
   separates the options of a decision is all a decision uses. Each round refits on the
   labels of every round so far.

Games are dealt from the seed (``(seed, [key])``, the key naming the round, the player
count and the game) in chunks of fixed game numbers (``Chunk``, a job); workers (threads:
the core releases the GIL) only label, the driver fits: the same seed gives the same file
for any --jobs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import TypedDict

import numpy as np

from cdsim import core
from cdsim.errors import CdsimError
from cdsim.games import GameSpec
from cdsim.games.fitting import FloatArray, IntArray, demeaned
from cdsim.games.training import Fitted, Job, TrainRequest

CHUNK = 4  # games a worker call labels: fixed, so the labels are the same for any --jobs
MIN_ROWS = 40  # a (player count, phase) with fewer labelled options keeps zero weights


@dataclass(frozen=True)
class SeamTrainConfig:
    """One training of a game's learned player (``cdsim train --game NAME``)."""

    game: str
    seed: int = 1
    games: tuple[int, ...] = (60, 40, 30)  # games a round, per player count
    rounds: int = 3  # 2 left castle-monastery level (docs/castles.md)
    every: int = 6  # a decision is labelled with chance 1 / every
    playouts: int = 24  # mcts simulations a labelled option
    explore: float = 0.1
    ridge: float = 1.0

    def validate(self, counts: Sequence[int]) -> None:
        if len(self.games) != len(counts) or any(g < 0 for g in self.games):
            raise CdsimError(f"--games: one count of games per player count "
                             f"({', '.join(map(str, counts))}), each >= 0")
        for flag, value, low in (("--rounds", self.rounds, 1), ("--every", self.every, 1),
                                 ("--label-playouts", self.playouts, 1)):
            if value < low:
                raise CdsimError(f"{flag} must be >= {low}, got {value}")
        if not 0.0 <= self.explore <= 1.0:
            raise CdsimError(f"--explore must be 0-1, got {self.explore}")
        if self.ridge < 0:
            raise CdsimError(f"--ridge must be >= 0, got {self.ridge}")


class RoundSummary(TypedDict):
    """One player count's labels after a round, as the weights file records them."""

    decisions: int
    options: int
    agreement: float


class Training(TypedDict):
    """How the weights were trained, written into the weights file."""

    config: dict[str, object]
    rounds: list[dict[str, RoundSummary]]


@dataclass
class Labels:
    """One player count's labelled options: one row an option, seats from the deciding
    one on; the options of a decision share a group."""

    label: FloatArray  # (R, n) the search's mean VP gained at the end
    gained: FloatArray  # (R, n) VP gained in the position
    inputs: FloatArray  # (R, n, F)
    phase: IntArray  # (R,)
    group: IntArray  # (R,)

    @staticmethod
    def concat(parts: Sequence[Labels]) -> Labels:
        offset, groups = 0, []
        for p in parts:
            groups.append(p.group + offset)
            offset += int(p.group.max()) + 1 if len(p.group) else 0
        return Labels(np.concatenate([p.label for p in parts]),
                      np.concatenate([p.gained for p in parts]),
                      np.concatenate([p.inputs for p in parts]),
                      np.concatenate([p.phase for p in parts]), np.concatenate(groups))

    def margins(self) -> tuple[FloatArray, FloatArray]:
        """The search's margin beyond the VP gained, and the inputs' margin: the deciding
        seat's less the other seats' mean (the value the player weighs)."""
        ahead = self.label - self.gained
        y = ahead[:, 0] - ahead[:, 1:].mean(axis=1)
        z = self.inputs[:, 0] - self.inputs[:, 1:].mean(axis=1)
        return np.asarray(y, dtype=np.float64), np.asarray(z, dtype=np.float64)


def label_chunk(spec: GameSpec, players: int, entropy: int, games: list[int], every: int,
                playouts: int, explore: float, weights: str | None) -> Labels:
    """Label one chunk of games on the core (a worker's job)."""
    module = core.module()
    assert module is not None
    comps = spec.load_components(None)
    out = module.search_labels(comps, players, entropy, games, every, playouts, explore,
                               weights)
    return Labels(np.asarray(out["label"], dtype=np.float64),
                  np.asarray(out["gained"], dtype=np.float64),
                  np.asarray(out["inputs"], dtype=np.float64),
                  np.asarray(out["phase"], dtype=np.int64),
                  np.asarray(out["group"], dtype=np.int64))


def fit(labels: Labels, phases: int, width: int, ridge: float) -> list[list[float]]:
    """One player count's weights per phase: the ridge regression of the search's margin
    on the inputs' margin, both less their decision's mean, on standardized inputs."""
    y, z = labels.margins()
    y, z = demeaned(y, labels.group), demeaned(z, labels.group)
    out = []
    for phase in range(phases):
        mask = labels.phase == phase
        if mask.sum() < MIN_ROWS:
            out.append([0.0] * width)
            continue
        zm = z[mask]
        scale = zm.std(axis=0)
        scale[scale < 1e-9] = 1.0
        zs = zm / scale
        penalty = np.full(width, ridge * mask.sum() / 1000.0)
        w = np.linalg.solve(zs.T @ zs + np.diag(penalty), zs.T @ y[mask]) / scale
        out.append([float(f"{x:.6g}") for x in w])
    return out


def agreement(labels: Labels, weights: list[list[float]]) -> float:
    """The correlation, over the labelled options, of the model's margin with the
    search's (both less their decision's mean): 0 when it cannot be told."""
    y, z = labels.margins()
    model = np.array([z[i] @ np.asarray(weights[p]) for i, p in enumerate(labels.phase)])
    y, model = demeaned(y, labels.group), demeaned(model, labels.group)
    if len(y) < 3 or y.std() == 0 or model.std() == 0:
        return 0.0
    return round(float(np.corrcoef(model, y)[0, 1]), 4)


@dataclass(frozen=True)
class Chunk:
    """One job: a chunk of games of one player count labelled on the core."""

    spec: GameSpec
    players: int
    seed: int
    ids: tuple[int, ...]
    config: SeamTrainConfig
    weights: str | None

    @property
    def game_count(self) -> int:
        return len(self.ids)

    def run(self) -> Labels:
        c = self.config
        return label_chunk(self.spec, self.players, self.seed, list(self.ids), c.every,
                           c.playouts, c.explore, self.weights)


@dataclass
class SeamTrainer:
    """Rounds of labels by the game's own learned player (the weights of the round before),
    each refitted on the labels of every round so far."""

    spec: GameSpec
    config: SeamTrainConfig
    components_digest: str
    threads: bool = True
    kept: dict[int, list[Labels]] = field(default_factory=dict)
    table: dict[str, list[list[float]]] = field(default_factory=dict)
    record: Training = field(default_factory=lambda: Training(config={}, rounds=[]))
    names: Sequence[str] = ()
    phases: int = 1
    job_counts: list[int] = field(default_factory=list)  # each job's player count

    @property
    def game(self) -> str:
        return self.spec.name

    def planned(self) -> int:
        return self.config.rounds * sum(self.config.games)

    def rounds(self) -> int:
        return self.config.rounds

    def jobs(self, index: int, weights: str | None) -> Sequence[Job]:
        c = self.config
        out = [Chunk(self.spec, n, c.seed,
                     tuple((index * 10 + n) * 100_000 + g
                           for g in range(start, min(games, start + CHUNK))), c, weights)
               for n, games in zip(self.spec.player_counts, c.games, strict=True)
               for start in range(0, games, CHUNK)]
        self.job_counts = [job.players for job in out]
        return out

    def fit(self, index: int, labels: Sequence[object]) -> Fitted:
        counts = tuple(self.spec.player_counts)
        if not self.kept:
            self.kept = {n: [] for n in counts}
            self.record = Training(config=asdict(self.config), rounds=[])
        for n, part in zip(self.job_counts, labels, strict=True):
            if isinstance(part, Labels):
                self.kept[n].append(part)  # in the jobs' order, whatever finished first
        if not self.names:
            self.names, self.phases = _shape(self.spec)
        summary: dict[str, RoundSummary] = {}
        for n in counts:
            if not self.kept[n]:  # no games at this count: VP gained alone
                self.table[str(n)] = [[0.0] * len(self.names) for _ in range(self.phases)]
                summary[str(n)] = {"decisions": 0, "options": 0, "agreement": 0.0}
                continue
            found = Labels.concat(self.kept[n])
            self.table[str(n)] = fit(found, self.phases, len(self.names), self.config.ridge)
            summary[str(n)] = {"decisions": len(np.unique(found.group)),
                               "options": len(found.group),
                               "agreement": agreement(found, self.table[str(n)])}
        self.record["rounds"].append(summary)
        line = f"round {index}: " + ", ".join(
            f"{n}p {s['decisions']:,} decisions (agreement {s['agreement']:.2f})"
            for n, s in summary.items())
        return Fitted(self.table, tuple(self.names), self.phases, dict(self.record), line)


def trainer(spec: GameSpec, request: TrainRequest) -> SeamTrainer:
    """The seam's trainer of ``request``'s flags for ``spec``'s game, checked."""
    module = core.module()
    if module is None or not hasattr(module, "search_labels"):
        raise CdsimError("cdsim train --game needs the compiled core (make install)")
    try:  # a game without a learned player: one line before any work (not a worker's trace)
        _shape(spec)
    except ValueError:
        raise CdsimError(f"--game {spec.name}: {spec.title} has no learned player to train "
                         f"(its players: {', '.join(spec.player_names())})") from None
    if request.components is not None:
        raise CdsimError(f"--components: {spec.name} trains on its built-in component set")
    base = SeamTrainConfig(game=spec.name)
    config = SeamTrainConfig(
        game=spec.name, seed=request.seed,
        games=base.games if request.games is None else tuple(request.games),
        rounds=base.rounds if request.rounds is None else request.rounds,
        every=request.every,
        playouts=base.playouts if request.label_playouts is None else request.label_playouts,
        explore=request.explore, ridge=request.ridge)
    config.validate(tuple(spec.player_counts))
    digest, _ = spec.components_digest(None)
    return SeamTrainer(spec, config, digest)
def _shape(spec: GameSpec) -> tuple[Sequence[str], int]:
    """The game's inputs' names and the phases its weights are kept for (the core's labels
    of no game carry them)."""
    module = core.module()
    assert module is not None
    out = module.search_labels(spec.load_components(None), min(spec.player_counts), 0, [],
                               1, 1, 0.0, None)
    return tuple(out["names"]), int(out["phases"])
