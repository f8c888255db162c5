"""Strategies to copy: ``Random`` (uniform over the legal options) and ``Builder``
(short, readable rules of thumb), both on the Strategy protocol.

Run it against the built-in players (they play natively on the core, this one in
Python on its observation of the same game):

    cdsim play --players 3 --strategies strategies.example:Builder,greedy,mcts --trace
    cdsim simulate --players 3 --games 300 --strategies strategies.example:Builder,greedy,villa

Each ``choose_*`` method gets ``view``, this seat's observation (what it may know,
read-only: ``view.me`` is its own holdings and district, ``view.seats`` every seat's,
``view.depots`` the tiles on offer, ``view.components`` the box; ``view.rng`` its own
random stream) and the legal options, and returns one of them. docs/strategies.md says
what each decision offers.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from strategies.base import (
    CircleChoice,
    FountainChoice,
    Move,
    ObjectiveCard,
    Observation,
    Payment,
    SealBuild,
    Take,
)

T = TypeVar("T")


def _pick(view: Observation, options: Sequence[T]) -> T:
    return options[int(view.rng.integers(len(options)))]


class Random:
    """Chooses uniformly among the legal options, from the seat's own stream (the
    built-in ``random`` does the same on the core)."""

    name = "random"
    reads_scores = False

    def choose_start(self, view: Observation, options: Sequence[int]) -> int:
        return _pick(view, options)

    def choose_move(self, view: Observation, options: Sequence[Move]) -> Move:
        return _pick(view, options)

    def choose_take(self, view: Observation, options: Sequence[Take]) -> Take:
        return _pick(view, options)

    def choose_seal(self, view: Observation, options: Sequence[SealBuild]) -> SealBuild:
        return _pick(view, options)

    def choose_fountain(self, view: Observation,
                        options: Sequence[FountainChoice]) -> FountainChoice:
        return _pick(view, options)

    def choose_circle(self, view: Observation, options: Sequence[CircleChoice]) -> CircleChoice:
        return _pick(view, options)

    def choose_payment(self, view: Observation, card: ObjectiveCard,
                       options: Sequence[Payment]) -> Payment:
        return _pick(view, options)


class Builder:
    """Builds whenever it can, the tile with the most chimneys first; pays every card as
    often as it can; never reads VP totals (so `cdsim balance` can re-rank its games)."""

    name = "builder"
    reads_scores = False

    def choose_start(self, view: Observation, options: Sequence[int]) -> int:
        return options[0]

    def choose_move(self, view: Observation, options: Sequence[Move]) -> Move:
        free = [m for m in options if not m.bread]  # keep bread for the cards (R8.4)
        return free[int(view.rng.integers(len(free)))] if free else options[0]

    def choose_take(self, view: Observation, options: Sequence[Take]) -> Take:
        types = view.components.tile_types
        built = [t for t in options if not t.stores]
        if not built:
            return options[0]  # nothing fits: store a tile (R4.5)
        return max(built, key=lambda t: types[t.tile_type].chimneys)

    def choose_seal(self, view: Observation, options: Sequence[SealBuild]) -> SealBuild:
        types = view.components.tile_types
        return max(options, key=lambda t: types[t.tile_type].chimneys)

    def choose_fountain(self, view: Observation,
                        options: Sequence[FountainChoice]) -> FountainChoice:
        return options[0]

    def choose_circle(self, view: Observation, options: Sequence[CircleChoice]) -> CircleChoice:
        return options[0]

    def choose_payment(self, view: Observation, card: ObjectiveCard,
                       options: Sequence[Payment]) -> Payment:
        return max(options, key=lambda p: (p.paid + p.bread, -p.bread))
