"""A whole game by the Python rules: four phases of seven rounds of turns (R3), each
followed by its scoring phase (R8), then final scoring (R10); in checking mode every
invariant is verified after every turn (``cdsim/games/carpe_diem/rules/checking.py``). Above the state and
its turn (``cdsim/games/carpe_diem/rules/game.py``), as the core's driver is above its game module.

``phases`` is the game as the rules run it: it yields each decision (pull-style, see
``cdsim/games/carpe_diem/rules/game.py``). ``run`` is the driver (the core's ``play_on``): it holds the
line-up, and while a decision is pending it asks that seat's strategy (``choose``) and
applies the choice. The state never holds a player.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable, Sequence

import numpy as np

from cdsim.errors import CdsimError, IllegalChoice, StrategyFailure
from cdsim.games.carpe_diem.rules.checking import check_state
from cdsim.games.carpe_diem.rules.game import PHASES, ROUNDS, GameConfig, GameState, Pending, Steps
from cdsim.games.carpe_diem.rules.records import GameRecord
from cdsim.games.carpe_diem.rules.scoring import final_scoring, scoring_phase
from cdsim.games.carpe_diem.rules.strategy import CHOOSE, Strategy, ask, find


def play_game(config: GameConfig, strategies: Sequence[Strategy], seed: int,
              trace: Callable[[str], None] | None = None,
              seed_sequence: np.random.SeedSequence | None = None) -> GameRecord:
    """Play one complete game. Same (config, strategies, seed) -> same record.

    ``seed_sequence`` (the runner's per-game stream) replaces ``SeedSequence(seed)``;
    ``seed`` is then only the id written into the record.
    """
    n = config.players
    if len(strategies) != n:
        raise CdsimError(f"{n} players need {n} strategies, got {len(strategies)}")
    state = GameState(config, seed if seed_sequence is None else seed_sequence, trace,
                      reads_scores=[s.reads_scores for s in strategies])
    run_game(state, strategies)
    return final_scoring(state, seed, [s.name for s in strategies])


def run_game(state: GameState, strategies: Sequence[Strategy]) -> None:
    """Play the whole game on ``state`` (``phases``), asking ``strategies`` (``run``)."""
    run(state, phases(state), strategies)


def phases(state: GameState) -> Steps:
    """R3: 4 phases of 7 rounds, each followed by a scoring phase; yields each decision."""
    checking = state.config.check
    for phase in range(PHASES):
        state.phase = phase
        state.start_player = phase % state.config.players  # R3.3: passes left
        if phase == 0:
            yield from state.place_pawns()  # R2.5: blind, before any tile is dealt (R2.4)
        state.deal()
        state.log(f"== phase {phase + 1}, starting player seat {state.start_player + 1}")
        for rnd in range(ROUNDS):
            state.round = rnd
            for seat in state.seat_order():
                yield from state.turn(seat)
                if checking:
                    check_state(state)
        yield from scoring_phase(state)
        if checking:
            check_state(state, end_of_phase=True)


def run(state: GameState, steps: Steps, strategies: Sequence[Strategy]) -> None:
    """The driver: run ``steps`` (the whole game, ``phases``, or one rule, e.g.
    ``state.turn(seat)``) on ``state`` to their end, asking the pending seat's strategy
    (``strategies``, one per seat) for each decision and applying its choice."""
    state.begin(steps)
    while (pending := state.pending) is not None:
        state.apply(pending.options[choose(state, pending, strategies[pending.seat])])


def choose(state: GameState, pending: Pending, strategy: Strategy) -> int:
    """Ask the pending seat's strategy for one of the options, on its observation: the
    index of its choice. A strategy's exception, or a choice not among the options, is a
    bug in that strategy."""
    seat, decision, options, card = pending
    try:
        choice = ask(strategy, decision, state.observe(seat, decision, card), options)
    except Exception as exc:
        raise StrategyFailure(strategy.name, seat, CHOOSE.format(decision),
                              f"raised {type(exc).__name__}: {exc}",
                              detail=traceback.format_exc()) from exc
    found = find(choice, options)
    if found is None:
        raise IllegalChoice(strategy.name, seat, CHOOSE.format(decision),
                            f"chose {choice!r}, not one of the options offered")
    return found
