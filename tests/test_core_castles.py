"""The compiled core plays The Castles of Tuscany by name: `_core.GAMES` lists it, its
built-in component set comes from the core, and a chunk gives the columns the core
declares for it (the seat row, then the runner's), one row per seat of each game."""

from __future__ import annotations

import numpy as np
import pytest

from cdsim import _core


def _chunk(entropy: int) -> dict[str, np.ndarray]:
    json = _core.builtin_components("castles")
    assert json is not None
    components = _core.Components(json, game="castles")
    assert components.game == "castles"
    names = ["greedy", "castle-monastery", "trade-workers", "animal-farms", "random"]
    lineups = np.array([0, 1, 2, 3, 4, 3, 2, 1], dtype=np.uint8)
    return dict(_core.play_chunk(components, 4, [0, 2, -1, 5], entropy,
                                 np.array([0, 1], dtype=np.int64),
                                 np.array([3, 4], dtype=np.int64), lineups,
                                 [(n, []) for n in names], True, None))


def test_the_core_lists_castles_and_plays_a_chunk_with_its_declared_columns() -> None:
    assert _core.GAMES[0] == "carpe-diem"
    assert "castles" in _core.GAMES
    seat_row, breakdown = _core.game_columns("castles")
    declared = [name for name, _ in seat_row] + [name for name, _ in _core.RUN_COLUMNS]
    chunk = _chunk(7)
    assert list(chunk) == declared
    assert all(len(values) == 8 for values in chunk.values())
    assert [f"vp_{source}" for source in breakdown] == [
        name for name in declared if name.startswith("vp_")]
    total = sum(chunk[f"vp_{source}"] for source in breakdown)
    assert (total == chunk["final_vp"]).all()
    assert list(chunk["vp_start"]) == [0, 2, -1, 5] * 2
    for game in range(2):
        assert sorted(chunk["rank"][4 * game:4 * game + 4]) == [1, 2, 3, 4]
    assert list(chunk["strategy"]) == [0, 1, 2, 3, 4, 3, 2, 1]
    assert (chunk["won"] == (chunk["rank"] == 1)).all()
    again = _chunk(7)
    assert all((again[name] == chunk[name]).all() for name in declared)


def test_carpe_diem_has_no_builtin_set_in_the_core_and_unknown_games_are_refused() -> None:
    assert _core.builtin_components("carpe-diem") is None
    with pytest.raises(ValueError, match="castles"):
        _core.builtin_components("chess")
    with pytest.raises(ValueError, match="castles components JSON"):
        _core.Components("{", game="castles")
