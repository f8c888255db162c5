"""Carpe Diem's hook for ``cdsim train`` (``GameSpec.training``): its trainer, greedy-playout
rounds then mcts's labels of the learned player's own decisions (``rounds``, fitted by
``fit`` and ``labels``), which cdsim.train's one pipeline runs and writes; and the
conversion of its weights files from the format they had before there was one for every
game. The heavy modules (numpy, joblib) are imported when ``cdsim train`` runs."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from cdsim.errors import CdsimError
from cdsim.games.training import Trainer, Training, TrainRequest


def _three(counts: Sequence[int], flag: str) -> tuple[int, int, int]:
    """A flag's three counts, for 2, 3 and 4 players (TrainConfig.validate checks them)."""
    if len(counts) != 3:
        raise CdsimError(f"{flag} takes three counts (2, 3 and 4 players), got "
                         f"{','.join(map(str, counts))!r}")
    return counts[0], counts[1], counts[2]


def trainer(request: TrainRequest) -> Trainer:
    """The trainer of ``request``'s flags, checked: a bad flag or component set is one line
    before anything plays."""
    from cdsim.games.carpe_diem.commands.training.fit import LABEL_GAMES, LABEL_PLAYOUTS
    from cdsim.games.carpe_diem.commands.training.rounds import CarpeDiemTrainer, TrainConfig
    from cdsim.games.carpe_diem.players import weights as W
    from cdsim.games.carpe_diem.rules.components import load_components

    config = TrainConfig(seed=request.seed,
                         games=_three(request.games or (300, 150, 150), "--games"),
                         rounds=2 if request.rounds is None else request.rounds,
                         sample=request.sample, playouts=request.playouts,
                         explore=request.explore, ridge=request.ridge,
                         components=request.components,
                         label_games=_three(LABEL_GAMES if request.label_games is None
                                            else request.label_games, "--label-games"),
                         label_playouts=LABEL_PLAYOUTS if request.label_playouts is None
                         else request.label_playouts)
    config.validate()
    W.feature_names()  # the core is needed: one line when it is missing
    return CarpeDiemTrainer(config, load_components(request.components).digest)


def convert(path: Path) -> str:
    from cdsim.games.carpe_diem.players.weights import convert as rewrite

    return rewrite(path)


TRAINING = Training(trainer=trainer, convert=convert)

__all__ = ["TRAINING"]
