"""A whole game by the Python rules: four phases of seven rounds of turns (R3), each
followed by its scoring phase (R8), then final scoring (R10); in checking mode every
invariant is verified after every turn (``cdsim/rules/checking.py``). Above the state and
its turn (``cdsim/rules/game.py``), as the core's driver is above its game module.

``phases`` is the game as the rules run it: it yields each decision (pull-style, see
``cdsim/rules/game.py``). ``run`` is the driver (the core's ``play_on``): while a decision
is pending it asks that seat's player (``choose``) and applies the choice.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable, Sequence

import numpy as np

from cdsim.errors import IllegalChoice, StrategyFailure
from cdsim.rules.checking import check_state
from cdsim.rules.game import PHASES, ROUNDS, GameConfig, GameState, Pending, Seat, Steps
from cdsim.rules.options import method_name
from cdsim.rules.records import GameRecord
from cdsim.rules.scoring import final_scoring, scoring_phase
from cdsim.rules.strategy import Strategy, ask, find


def play_game(config: GameConfig, strategies: Sequence[Strategy], seed: int,
              trace: Callable[[str], None] | None = None,
              seed_sequence: np.random.SeedSequence | None = None) -> GameRecord:
    """Play one complete game. Same (config, strategies, seed) -> same record.

    ``seed_sequence`` (the runner's per-game stream) replaces ``SeedSequence(seed)``;
    ``seed`` is then only the id written into the record.
    """
    state = GameState(config, strategies, seed if seed_sequence is None else seed_sequence,
                      trace)
    run_game(state)
    return final_scoring(state, seed)


def run_game(state: GameState) -> None:
    """Play the whole game on ``state`` (``phases``), asking its seats (``run``)."""
    run(state, phases(state))


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


def run(state: GameState, steps: Steps) -> None:
    """The driver: run ``steps`` (the whole game, ``phases``, or one rule, e.g.
    ``state.turn(seat)``) on ``state`` to their end, asking the pending seat for each
    decision and applying its choice."""
    state.begin(steps)
    while (pending := state.pending) is not None:
        state.apply(pending.options[choose(state, pending)])


def choose(state: GameState, pending: Pending) -> int:
    """Ask the pending seat's player for one of the options: the index of its choice. A
    Seat (the table's) decides itself; a strategy chooses on its observation (``ask``). A
    strategy's exception, or a choice not among the options, is a bug in that strategy."""
    seat, decision, options, card = pending
    player = state.strategies[seat]
    if isinstance(player, Seat):
        return player.decide(state, seat, decision, options, card)
    try:
        choice = ask(player, decision, state.observe(seat, decision, card), options, card)
    except Exception as exc:
        raise StrategyFailure(player.name, seat, method_name(decision, player),
                              f"raised {type(exc).__name__}: {exc}",
                              detail=traceback.format_exc()) from exc
    found = find(choice, options)
    if found is None:
        raise IllegalChoice(player.name, seat, method_name(decision, player),
                            f"chose {choice!r}, not one of the options offered")
    return found
