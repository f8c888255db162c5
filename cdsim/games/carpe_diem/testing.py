"""A test kit for strategy authors and cdsim's own tests (PettingZoo-style).

``check_strategy`` plays a batch of games on the core in checking mode (the Python
rules compared with the core after every decision), verifies the same seed gives the
same game, and ends in one line: ``ok: ...`` or the first check that failed. From a shell:
``python -m cdsim.games.carpe_diem.testing mymodule:MyStrategy``. ``Scripted`` is a strategy whose choices a
test sets.
"""

from __future__ import annotations

import pickle
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from cdsim.errors import CdsimError, StrategyFailure
from cdsim.games.carpe_diem.engine.oracle import EngineMismatch
from cdsim.games.carpe_diem.engine.table import Table
from cdsim.games.carpe_diem.players.registry import Lineup
from cdsim.games.carpe_diem.rules.components import Components, load_components
from cdsim.games.carpe_diem.rules.game import GameConfig, GameState
from cdsim.games.carpe_diem.rules.observation import Observation
from cdsim.games.carpe_diem.rules.options import Action
from cdsim.games.carpe_diem.rules.records import GameRecord
from cdsim.games.carpe_diem.rules.strategy import Strategy, refusal

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

    def choose(self, view: Observation, options: Sequence[Action]) -> Action:
        return self.pickers.get(view.decision, _first)(view, options)  # type: ignore[no-any-return]


def tile_type(components: Components, tile_id: str) -> int:
    """Index of a tile type by its id in tiles.toml."""
    return next(i for i, t in enumerate(components.tile_types) if t.id == tile_id)


def new_state(players: int = 2, seed: int = 0, **config: Any) -> GameState:
    """A freshly set-up game (before pawns are placed); its driver holds the players
    (``cdsim.games.carpe_diem.rules.play.run(state, steps, players)``)."""
    cfg = GameConfig(players, components=config.pop("components", load_components()), **config)
    return GameState(cfg, seed)


class CheckFailed(AssertionError):
    """A check of ``check_strategy`` failed; the message is one line naming it."""


@dataclass(frozen=True)
class StrategyCheck:
    """What ``check_strategy`` played: shown as its one-line verdict."""

    strategy: str
    players: tuple[int, ...]
    records: tuple[GameRecord, ...]

    @property
    def games(self) -> int:
        return len(self.records)

    def __str__(self) -> str:
        return (f"ok: {self.strategy} played {self.games} games "
                f"({', '.join(map(str, self.players))} players) in checking mode: every choice "
                "legal, the Python rules equal to the core after every decision, the same seed "
                "the same game, picklable")

    __repr__ = __str__


def _failed(check: str, exc: BaseException) -> CheckFailed:
    return CheckFailed(f"failed: {check}: {' '.join(str(exc).split()) or type(exc).__name__}")


def check_strategy(factory: Callable[[], Strategy], games: int = 5,
                   players: Sequence[int] = (2, 3, 4)) -> StrategyCheck:
    """Play games of ``factory()`` in every seat on the core in checking mode (every
    invariant after every action, the Python rules compared with the core after every
    decision; an illegal choice fails); the same seed must replay the same record, and
    the strategy must pickle. Returns the games, shown as one line (``ok: ...``); raises
    ``CheckFailed`` with one line naming the first check that failed."""
    try:
        made = factory()
    except Exception as exc:
        raise _failed("making the strategy", exc) from exc
    name = str(getattr(made, "name", "strategy"))
    refused = refusal(made)
    if refused is not None:
        raise CheckFailed(f"failed: {name} {refused}")
    try:
        pickle.loads(pickle.dumps(made))
    except Exception as exc:
        raise _failed(f"{name} must pickle (batches send it to worker processes)", exc) from exc

    def play(n: int, seed: int, check: bool) -> GameRecord:
        made = [factory() for _ in range(n)]
        lineup = Lineup([str(getattr(s, "name", "strategy")) for s in made], list(made))
        return Table(None, lineup, seed, check=check, where=f"seed {seed}").play()

    records = []
    for n in players:
        for seed in range(games):
            try:
                record = play(n, seed, True)
                again = play(n, seed, False)
            except (StrategyFailure, EngineMismatch, CdsimError) as exc:
                raise _failed(f"{n} players, seed {seed}", exc) from exc
            if record.digest() != again.digest():
                raise CheckFailed(f"failed: {n} players, seed {seed}: the same seed gave "
                                  "another game (draw chance from view.rng only)")
            records.append(record)
    return StrategyCheck(name, tuple(players), tuple(records))


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m cdsim.games.carpe_diem.testing module:Class [games]``: the check's one line; exit 1 if a
    check failed, 2 if the strategy cannot be loaded."""
    from cdsim.games.carpe_diem.players.registry import make_strategy

    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) not in (1, 2) or (len(args) == 2 and not args[1].isdigit()):
        print("usage: python -m cdsim.games.carpe_diem.testing module:Class [games]", file=sys.stderr)
        return 2
    try:
        make_strategy(args[0])  # a strategy that cannot load: one line, as the commands say
    except (CdsimError, StrategyFailure) as exc:
        print(f"failed: {exc}", file=sys.stderr)
        return 2
    try:
        print(check_strategy(lambda: make_strategy(args[0]), int(args[1]) if len(args) == 2
                             else 5))
    except CheckFailed as exc:
        print(exc, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
