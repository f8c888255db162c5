"""What a game hands ``cdsim train``'s one pipeline (cdsim.train): a ``Trainer``, its label
source and fit. The pipeline plays each round's jobs on workers, asks the trainer to fit
the round's labels, and writes the weights file (cdsim.games.weights_file, one format for
every game); the next round's jobs play with those weights.

A game's spec names its trainer (``GameSpec.training``: Carpe Diem's greedy-playout rounds,
then mcts labels, cdsim.games.carpe_diem.commands.training); a game without one trains the
seam's (search labels of its own learned player, cdsim.train.seam)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from cdsim.games.weights_file import Table


@dataclass(frozen=True)
class TrainRequest:
    """``cdsim train``'s flags as given (None: the game's own default)."""

    seed: int
    games: tuple[int, ...] | None  # games a round per player count (--games 300,150,150)
    rounds: int | None
    sample: float  # Carpe Diem: chance that a move decision is valued by playouts
    playouts: int  # Carpe Diem: greedy playouts per option valued
    explore: float
    ridge: float
    label_games: tuple[int, ...] | None  # Carpe Diem: the search-label stage's games a count
    label_playouts: int | None
    every: int  # the seam: a decision is labelled with chance 1 / every
    components: str | None


class Job(Protocol):
    """One worker call of a round: plays its games and returns their labels (a worker
    process may run it: it is pickled, and so is what it returns)."""

    @property
    def game_count(self) -> int:
        """The games it plays (the progress bar counts them)."""
        ...

    def run(self) -> object:
        ...


@dataclass(frozen=True)
class Fitted:
    """A round's fit: what the weights file holds, and the line that says how it went."""

    table: Table
    inputs: tuple[str, ...]
    phases: int
    training: dict[str, object]  # how it was made, written whole into the file
    line: str


class Trainer(Protocol):
    """A game's training (its label source and fit), checked and ready to run."""

    @property
    def game(self) -> str:
        """The game's name in the weights file."""
        ...

    @property
    def components_digest(self) -> str:
        ...

    @property
    def threads(self) -> bool:
        """Whether its jobs run on threads (the core releases the GIL), else processes."""
        ...

    def planned(self) -> int:
        """Games every round plays in all."""
        ...

    def rounds(self) -> int:
        ...

    def jobs(self, index: int, weights: str | None) -> Sequence[Job]:
        """Round ``index``'s jobs, the player playing with ``weights`` (the weights file
        of the round before; None before the first)."""
        ...

    def fit(self, index: int, labels: Sequence[object]) -> Fitted:
        """Fit round ``index``'s labels (its jobs' results, in the jobs' order) and the
        rounds' before, as the trainer keeps them."""
        ...


@dataclass(frozen=True)
class Training:
    """A game's hook for ``cdsim train`` (``GameSpec.training``)."""

    trainer: Callable[[TrainRequest], Trainer]  # a bad flag: one CdsimError line
    # an older weights file of the game rewritten in the one format, the numbers kept
    # (``cdsim train --convert FILE``; None: the game had no other format)
    convert: Callable[[Path], str] | None


__all__ = ["Fitted", "Job", "TrainRequest", "Trainer", "Training"]
