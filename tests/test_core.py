"""The compiled core plays every game, two ways: a chunk at a time for runs of built-in
players, and a game at a time beside the Python rules (cdsim.games.carpe_diem.engine.table) when a seat
is a user's strategy. Both give the same rows; the second is checked against the
Python rules decision by decision (tests/test_table.py)."""

from __future__ import annotations

from typing import get_args

import polars as pl
import pytest

from cdsim import core
from cdsim.batch.config import RunConfig, engine_for
from cdsim.batch.queue import core_chunk_frame, core_chunk_frames, play_chunk_frames, play_chunk_table
from cdsim.errors import CdsimError
from cdsim.games.carpe_diem.rules.records import (
    CARD_COLUMNS,
    CARD_OUTCOMES,
    GAME_COLUMNS,
    ROW_FIELDS,
    RUN_COLUMNS,
    SEAT_COLUMNS,
    CardOutcome,
    digest_rows,
)
from tests.conftest import core_or_skip

LINEUPS = {
    2: [("greedy", "bread"), ("random", "mcts@4")],
    3: [("villa", "landscape", "greedy"), ("bread", "random", "villa")],
    4: [("greedy", "villa", "landscape", "bread")],
}


def _first_difference(table: list[dict[str, object]], chunk: list[dict[str, object]]) -> str:
    for a, b in zip(table, chunk, strict=True):
        if a != b:
            diff = {k: (a[k], b.get(k)) for k in a if a[k] != b.get(k)}
            return f"game {a['game']} seat {a['seat']}: (table, chunk) {diff}"
    return ""


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_chunk_and_a_table_play_the_same_games(players: int) -> None:
    core_or_skip()
    for i, lineup in enumerate(LINEUPS[players]):
        config = RunConfig(players=players, games=2 * players, seed=100 + i,
                           strategies=lineup, rotate_seats=True, start_vp=(3, 30, 0, 12)[:players],
                           strategy_params="villa.chimney=2.5,bread.bread_move_cost=0.5")
        table = play_chunk_table(config, 0, config.games)
        chunk = core_chunk_frame(config, 0, config.games).to_dicts()
        assert len(table) == len(chunk) == config.games * players
        assert _first_difference(table, chunk) == ""
        assert digest_rows(table) == digest_rows(chunk)


def test_pool_line_ups_are_drawn_alike() -> None:
    core_or_skip()
    config = RunConfig(players=3, games=12, seed=4, strategy_pool=("random", "greedy", "bread"))
    assert _first_difference(play_chunk_table(config, 5, 12),
                             core_chunk_frame(config, 5, 12).to_dicts()) == ""


def test_core_rows_have_the_run_schema() -> None:
    core_or_skip()
    config = RunConfig(players=2, games=4, seed=1, strategies=("greedy", "random"))
    chunk = core_chunk_frame(config, 0, 4)
    assert chunk.schema == pl.DataFrame(play_chunk_table(config, 0, 4)).schema
    assert chunk["strategy"].to_list() == ["greedy", "random"] * 4


def test_the_seat_row_is_the_one_the_core_declares() -> None:
    """core/src/carpe_diem/records.rs declares the seat row once; the oracle's record has its columns,
    and a run's rows are its columns, then the game's and the runner's, of its types."""
    core_or_skip()
    module = core.module()
    assert module is not None
    assert (SEAT_COLUMNS, GAME_COLUMNS, RUN_COLUMNS) == (
        module.SEAT_COLUMNS, module.GAME_COLUMNS, module.RUN_COLUMNS)
    dtypes = {"int": pl.Int64, "str": pl.String, "bool": pl.Boolean}
    columns = (*module.SEAT_COLUMNS, *module.GAME_COLUMNS, *module.RUN_COLUMNS)
    config = RunConfig(players=2, games=4, seed=1, strategies=("greedy", "random"))
    schema = core_chunk_frame(config, 0, 4).schema
    assert list(schema.items()) == [(name, dtypes[kind]) for name, kind in columns]
    assert list(schema) == list(ROW_FIELDS)  # what the runner orders and the readers need


def test_the_card_row_is_the_one_the_core_declares() -> None:
    """core/src/carpe_diem/records.rs declares the card row once (``card_row!``); the oracle's
    ``CardRow`` has its columns and outcome words, and a run's card table, from the core
    or from the Python rules, is the runner's game, then those columns, of their types."""
    core_or_skip()
    module = core.module()
    assert module is not None
    assert CARD_COLUMNS == module.CARD_COLUMNS
    assert CARD_OUTCOMES == get_args(CardOutcome) == module.CARD_OUTCOMES
    dtypes = {"int": pl.Int64, "str": pl.String}
    columns = [("game", pl.Int64), *((name, dtypes[kind]) for name, kind in module.CARD_COLUMNS)]
    config = RunConfig(players=2, games=4, seed=1, strategies=("greedy", "random"))
    cards = core_chunk_frames(config, 0, 4)[1]
    assert list(cards.schema.items()) == columns
    assert set(cards["outcome"]) <= set(CARD_OUTCOMES)
    oracle = play_chunk_frames(config, 0, 4, engine="table")[1]
    assert oracle.equals(cards)


def test_engine_choice() -> None:
    core_or_skip()
    config = RunConfig(players=2, games=4, seed=1, strategies=("greedy", "mcts@5"))
    user = RunConfig(players=2, games=4, seed=1, strategies=("greedy", "strategies.example:Random"))
    assert engine_for(config) == "rust"
    assert engine_for(user) == "table"  # a user strategy plays on the core too


def test_without_the_core_nothing_plays(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(core, "module", lambda: None)
    config = RunConfig(players=2, games=4, seed=1, strategies=("greedy", "random"))
    with pytest.raises(CdsimError, match="make install"):
        engine_for(config)


def test_core_checking_mode_runs_every_invariant() -> None:
    core_or_skip()
    config = RunConfig(players=4, games=8, seed=3, strategies=("random", "greedy", "villa",
                       "bread"))
    checked = core_chunk_frame(config, 0, 8, check=True)
    assert checked.equals(core_chunk_frame(config, 0, 8))
