"""A test kit for strategy authors and cdsim's own tests (PettingZoo-style).

``check_strategy`` plays a batch of games on the core in checking mode (the Python
rules compared with the core after every decision), verifies the same seed gives
the same game; ``Scripted`` is a strategy whose choices a test sets.
"""

from __future__ import annotations

import pickle
from collections.abc import Callable, Sequence
from typing import Any

from cdsim.engine.table import Table
from cdsim.players.registry import Lineup
from cdsim.rules.cards import Payment
from cdsim.rules.components import Components, ObjectiveCard, load_components
from cdsim.rules.game import GameConfig, GameState
from cdsim.rules.observation import Observation
from cdsim.rules.options import CircleChoice, Decision, FountainChoice, Move, SealBuild, Take
from cdsim.rules.records import GameRecord
from cdsim.rules.strategy import Strategy

Picker = Callable[[Observation, Sequence[Any]], Any]


def _first(view: Observation, options: Sequence[Any]) -> Any:
    return options[0]


class Scripted:
    """Takes the first option unless a test sets a picker for that decision
    (``Scripted(move=lambda view, options: ...)``)."""

    name = "scripted"
    reads_scores = False

    def __init__(self, **pickers: Picker) -> None:
        self.pickers = pickers

    def _pick(self, decision: Decision, view: Observation, options: Sequence[Any]) -> Any:
        return self.pickers.get(decision, _first)(view, options)

    def choose_start(self, view: Observation, options: Sequence[int]) -> int:
        return int(self._pick("start", view, options))

    def choose_move(self, view: Observation, options: Sequence[Move]) -> Move:
        return self._pick("move", view, options)  # type: ignore[no-any-return]

    def choose_take(self, view: Observation, options: Sequence[Take]) -> Take:
        return self._pick("take", view, options)  # type: ignore[no-any-return]

    def choose_seal(self, view: Observation, options: Sequence[SealBuild]) -> SealBuild:
        return self._pick("seal", view, options)  # type: ignore[no-any-return]

    def choose_fountain(self, view: Observation,
                        options: Sequence[FountainChoice]) -> FountainChoice:
        return self._pick("fountain", view, options)  # type: ignore[no-any-return]

    def choose_circle(self, view: Observation, options: Sequence[CircleChoice]) -> CircleChoice:
        return self._pick("circle", view, options)  # type: ignore[no-any-return]

    def choose_payment(self, view: Observation, card: ObjectiveCard,
                       options: Sequence[Payment]) -> Payment:
        return self._pick("payment", view, options)  # type: ignore[no-any-return]


def tile_type(components: Components, tile_id: str) -> int:
    """Index of a tile type by its id in tiles.toml."""
    return next(i for i, t in enumerate(components.tile_types) if t.id == tile_id)


def new_state(players: int = 2, seed: int = 0, strategies: Sequence[Strategy] | None = None,
              **config: Any) -> GameState:
    """A freshly set-up game (before pawns are placed)."""
    cfg = GameConfig(players, components=config.pop("components", load_components()), **config)
    return GameState(cfg, list(strategies or [Scripted() for _ in range(players)]), seed)


def check_strategy(factory: Callable[[], Strategy], games: int = 5,
                   players: Sequence[int] = (2, 3, 4)) -> list[GameRecord]:
    """Play games of ``factory()`` in every seat on the core in checking mode (every
    invariant after every action, the Python rules compared with the core after every
    decision; an illegal choice raises); the same seed must replay the same record, and
    the strategy must pickle."""

    records = []
    pickle.loads(pickle.dumps(factory()))

    def play(n: int, seed: int, check: bool) -> GameRecord:
        made = [factory() for _ in range(n)]
        lineup = Lineup([str(getattr(s, "name", "strategy")) for s in made], list(made))
        return Table(None, lineup, seed, check=check, where=f"seed {seed}").play()

    for n in players:
        for seed in range(games):
            record = play(n, seed, True)
            if record.digest() != play(n, seed, False).digest():
                raise AssertionError(f"seed {seed}, {n} players: the same seed gave another game")
            records.append(record)
    return records
