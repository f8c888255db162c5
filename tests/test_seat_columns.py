"""The seat-row columns every game writes (seat, strategy, start and final VP, rank, won,
seed, players, tie-break) are declared once, in the core (core/src/games/rows.rs, handed over
as ``cdsim._core.SHARED_COLUMNS`` and read once by ``cdsim.games.spec.shared_columns``); each
game adds only its own around them, and Castles' and the Mediterranean's rows keep the
columns and the order they had before the declaration moved to the seam."""

from __future__ import annotations

import pytest

from cdsim import core
from cdsim.games import GAMES, game_spec
from cdsim.games.spec import run_columns, shared_columns

pytestmark = pytest.mark.skipif(not core.available(), reason="needs the compiled core")

SHARED = ("seat", "strategy", "start_vp", "final_vp", "rank", "won", "seed", "players",
          "tiebreak")
# the rows as each game wrote them before its columns were built at the seam
BEFORE = {
    "castles": ("seat", "strategy", "start_vp", "vp_start", "vp_area", "vp_crops",
                "vp_colour_bonus", "vp_storage_token", "vp_harvest_green", "vp_harvest_red",
                "vp_spare_hex", "vp_leftovers", "final_vp", "green_vp", "empty_spaces", "rank",
                "won", "seed", "players", "tiebreak"),
    "mediterranean": ("seat", "strategy", "start_vp", "vp_start", "vp_temples",
                      "vp_gold_temple", "vp_bonus", "final_vp", "gold", "temple_points",
                      "delivered", "lost", "extra_turns", "final_order", "rank", "won",
                      "shared_win", "seed", "players", "tiebreak"),
}


def test_the_shared_columns_are_read_from_the_core() -> None:
    assert tuple(name for name, _ in shared_columns()) == SHARED
    assert dict(shared_columns())["won"] == "bool" and dict(shared_columns())["strategy"] == "str"
    assert tuple(name for name, _ in run_columns()) == ("game", "setup")


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_game_writes_the_shared_columns_in_order_around_its_own(name: str) -> None:
    spec = game_spec(name)
    columns, breakdown = spec.columns()
    own = spec.own_columns()
    assert tuple(c for c in columns if c not in own) == shared_columns()
    assert own[:len(breakdown)] == tuple((f"vp_{source}", "int") for source in breakdown)
    # Carpe Diem's order is its oracle's (cdsim.games.carpe_diem.rules.records): the same
    assert spec.row_fields() == (*(c for c, _ in columns), "game", "setup")


@pytest.mark.parametrize("name", sorted(BEFORE))
def test_castles_and_the_mediterranean_rows_are_unchanged(name: str) -> None:
    assert tuple(c for c, _ in game_spec(name).columns()[0]) == BEFORE[name]
