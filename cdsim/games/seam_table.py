"""One game of a seam game (any game whose players are its core registry's) with a user's
Python strategy seated (``cdsim.games.strategy``): the core plays it (``_core.GameTable``),
its built-in seats deciding until a Python seat is to; that seat is handed its observation
and the options in words (``GameView``) and returns an option's index. Its decision runs in
the sandbox (``cdsim.players.sandbox``: the time limit, ``os._exit`` refused); whatever
goes wrong in it (an exception, the time limit, an index not offered) is one
``StrategyFailure`` naming the strategy, its seat and the decision. The rows are the
core's, as a run's chunk writes them, each seat's strategy as spelled."""

from __future__ import annotations

import os
import signal
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from cdsim.errors import CdsimError, IllegalChoice, StrategyFailure, user_text
from cdsim.games.players import PlayerSpec
from cdsim.games.strategy import CHOOSE, GameStrategy, GameView, observation
from cdsim.players.sandbox import stop_stuck, user_code, user_failure, user_session


def seat_stream(seed: int, setup: int | None, seat: int, players: int) -> np.random.Generator:
    """A Python seat's own random stream: a child of the game's seed sequence (as Carpe
    Diem's Python seats' are), handed over without its seed, from which a strategy could
    otherwise work out the game's."""
    seq = (np.random.SeedSequence(seed) if setup is None else
           np.random.SeedSequence(seed, spawn_key=(setup,)))
    child = seq.spawn(1 + players)[1 + seat]
    bits = np.random.PCG64(0)
    bits.state = np.random.PCG64(child).state
    return np.random.Generator(bits)


@dataclass
class SeamRecord:
    """A finished game's seat rows (``cdsim.games.players.PlayedGame``), column by column
    in the core's order; no card rows."""

    seat_rows: list[dict[str, object]]

    def rows(self) -> list[dict[str, object]]:
        return [dict(row) for row in self.seat_rows]

    def card_rows(self) -> list[dict[str, object]]:
        return []


@dataclass
class SeamTable:
    """One game of ``game`` on the core (``components``: its ``_core.Components``), a user's
    strategy in each seat of ``strategies`` that is not None, the built-in ``lineup[seat]``
    in the others. ``where`` names the game in errors."""

    game: str
    components: Any
    lineup: Sequence[PlayerSpec]
    strategies: Sequence[GameStrategy | None]
    seed: int
    setup: int | None
    start_vp: tuple[int, ...]
    overrides: Callable[[PlayerSpec], dict[str, float]]
    where: str = ""
    decision_timeout: float | None = None
    watch: Callable[[str | None], None] | None = None
    check: bool = False
    core: Any = field(init=False)

    def __post_init__(self) -> None:
        from cdsim import core

        module = core.module()
        if module is None:
            raise CdsimError("the compiled core is not installed: run `make install`")
        n = len(self.lineup)
        seats = [None if s is not None else (p.base, sorted(self.overrides(p).items()))
                 for p, s in zip(self.lineup, self.strategies, strict=True)]
        try:
            self.core = module.GameTable(self.components, n, list(self.start_vp), self.seed,
                                         self.setup, seats, self.check)
        except ValueError as exc:
            raise CdsimError(f"{self.where or 'game'}: {exc}") from None
        self.rngs = [seat_stream(self.seed, self.setup, s, n) if st is not None else None
                     for s, st in enumerate(self.strategies)]

    def decisions(self) -> int:
        return int(self.core.decisions)

    def play(self) -> SeamRecord:
        """Play to the end; the rows are the core's."""
        core = self.core
        with user_session(self.decision_timeout):
            while True:
                core.play()
                seat = core.current_seat()
                if seat is None:
                    break
                core.apply(self._ask(seat))
        columns, rows = core.rows()
        out = []
        for seat, values in enumerate(rows):
            row = dict(zip(columns, values, strict=True))
            row["strategy"] = self.lineup[seat].spelling
            out.append(row)
        return SeamRecord(out)

    def _ask(self, seat: int) -> int:
        """The seat's strategy's choice on its view, as an index of the options offered."""
        strategy, rng = self.strategies[seat], self.rngs[seat]
        assert strategy is not None and rng is not None
        core = self.core
        decision: str = core.decision()
        options = tuple(core.options())
        view = GameView(self.game, seat, len(self.lineup), decision,
                        observation(core.observe()), options, rng)
        name = self.lineup[seat].spelling
        limit, watch = self.decision_timeout, self.watch
        method = CHOOSE.format(decision)
        at = f"{method}, {self.where or 'game'} decision {self.decisions() + 1}"
        who = f"strategy {name!r} (seat {seat + 1})"
        if watch is not None:  # a worker's note of where it is, should it die
            watch(f"{who} was deciding in {at}")

        def stuck() -> None:  # it swallowed DecisionTimeout, again and again
            text = (f"{who} ignored the decision time limit of {limit or 0:g} s in {at} and "
                    "was stopped")
            if watch is None:
                stop_stuck(text)
            watch("!" + text)
            os.kill(os.getpid(), signal.SIGKILL)

        try:
            with user_code(limit, stuck):
                choice = strategy.choose(view)
                index = _index(choice, len(options))
                shown = "" if index is not None else user_text(choice)
        except KeyboardInterrupt:  # a stop (Ctrl-C, SIGTERM); a strategy's own left
            raise  # user_code as RaisedInterrupt, a failure
        except BaseException as exc:
            problem, detail = user_failure(exc, limit)
            raise StrategyFailure(name, seat, method, problem, detail=detail) from None
        finally:
            if watch is not None:
                watch(None)
        if index is None:
            raise IllegalChoice(name, seat, method, f"chose {shown}, not the index of one of "
                                f"the {len(options)} options offered (0 to {len(options) - 1})")
        return index


def _index(choice: object, n: int) -> int | None:
    """``choice`` as an index of ``n`` options (an int or a numpy integer, not a bool), or
    None."""
    if isinstance(choice, (bool, np.bool_)) or not isinstance(choice, (int, np.integer)):
        return None
    return int(choice) if 0 <= choice < n else None


__all__ = ["SeamRecord", "SeamTable", "seat_stream"]
