"""A whole game by the Python rules: four phases of seven rounds of turns (R3), each
followed by its scoring phase (R8), then final scoring (R10); in checking mode every
invariant is verified after every turn (``cdsim/rules/checking.py``). Above the state and
its turn (``cdsim/rules/game.py``), as the core's driver is above its game module."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from cdsim.rules.checking import check_state
from cdsim.rules.game import PHASES, ROUNDS, GameConfig, GameState
from cdsim.rules.records import GameRecord
from cdsim.rules.scoring import final_scoring, scoring_phase
from cdsim.rules.strategy import Strategy


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
    """R3: 4 phases of 7 rounds, each followed by a scoring phase."""
    checking = state.config.check
    for phase in range(PHASES):
        state.phase = phase
        state.start_player = phase % state.config.players  # R3.3: passes left
        if phase == 0:
            state.place_pawns()  # R2.5: blind, before any tile is dealt (R2.4)
        state.deal()
        state.log(f"== phase {phase + 1}, starting player seat {state.start_player + 1}")
        for rnd in range(ROUNDS):
            state.round = rnd
            for seat in state.seat_order():
                state.turn(seat)
                if checking:
                    check_state(state)
        scoring_phase(state)
        if checking:
            check_state(state, end_of_phase=True)
