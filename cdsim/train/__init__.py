"""``cdsim train``: one training pipeline for every game's learned player.

A game's trainer (``cdsim.games.training.Trainer``: its spec's ``training`` hook, or the
seam's, cdsim.train.seam) is its label source and fit; this pipeline runs it round by
round: the round's jobs play on workers (processes, or threads where the core releases the
GIL) with the weights of the round before, the trainer fits the round's labels, and the
weights file is written in the one format of every game (cdsim.games.weights_file), the
game's name in it. Workers only play and label, the driver fits, and jobs hold fixed game
numbers: the same seed and settings give the same weights file for any --jobs.

- Carpe Diem (cdsim.games.carpe_diem.commands.training): a stage of greedy games then
  self-play rounds, their decisions' options valued by greedy playouts, then a stage of
  mcts labels of the learned player's own decisions (``make train``).
- A game through the seam (``--game castles``): rounds of mcts labels of its own learned
  player's decisions (``make train-castles``).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence

from cdsim.games import GameSpec
from cdsim.games.training import Fitted, Job, Trainer, TrainRequest
from cdsim.games.weights_file import weights_text

__all__ = ["train", "trainer_for"]


def trainer_for(spec: GameSpec, request: TrainRequest) -> Trainer:
    """The game's trainer of ``request``'s flags, checked (one CdsimError line)."""
    if spec.training is None:
        from cdsim.train import seam

        return seam.trainer(spec, request)
    return spec.training.trainer(request)


def _call(job: Job) -> object:
    return job.run()


def _labels(work: Sequence[Job], jobs: int, threads: bool) -> Iterable[object]:
    """The jobs' results in the jobs' order, whatever finished first."""
    if threads:
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(max_workers=max(1, jobs if jobs > 0 else os.cpu_count() or 2)) \
                as pool:
            yield from pool.map(_call, work)
        return
    from joblib import Parallel, delayed

    runner = Parallel(n_jobs=jobs, return_as="generator", backend="loky")
    yield from runner(delayed(_call)(job) for job in work)


def train(trainer: Trainer, jobs: int, advance: Callable[[int], None] = lambda n: None,
          on_round: Callable[[int, Fitted, str], None] = lambda i, f, t: None) -> str:
    """Run ``trainer`` round by round; returns the last round's weights file. ``advance``
    hears of each job's games as they are played, ``on_round`` of each round's fit and
    weights file."""
    weights: str | None = None
    for index in range(trainer.rounds()):
        work = trainer.jobs(index, weights)
        labels = []
        for job, part in zip(work, _labels(work, jobs, trainer.threads), strict=True):
            labels.append(part)
            advance(job.game_count)
        fitted = trainer.fit(index, labels)
        weights = weights_text(trainer.game, trainer.components_digest, fitted.inputs,
                               fitted.phases, fitted.table, fitted.training)
        on_round(index, fitted, weights)
    assert weights is not None, "a trainer has at least one round"
    return weights
