"""The compiled core plays the same games as the Python engine (two engines,
one game). A rule or a player changed in one engine and not the other fails here."""

from __future__ import annotations

import polars as pl
import pytest

from cdsim import core
from cdsim.records import digest_rows
from cdsim.runner import RunConfig, play_chunk, play_chunk_frame
from tests.conftest import core_or_skip

LINEUPS = {
    2: [("greedy", "bread"), ("villa", "landscape"), ("random", "greedy")],
    3: [("villa", "landscape", "greedy"), ("bread", "random", "villa")],
    4: [("greedy", "villa", "landscape", "bread"), ("random", "bread", "random", "landscape")],
}
GAMES = {2: 210, 3: 200, 4: 200}  # per player count, spread over its line-ups


def _both(config: RunConfig, first: int, last: int) -> tuple[list[dict[str, object]],
                                                             list[dict[str, object]]]:
    python = play_chunk(config, first, last)
    rust = play_chunk_frame(config, first, last, engine="rust").to_dicts()
    return python, rust


def _first_difference(python: list[dict[str, object]], rust: list[dict[str, object]]) -> str:
    for a, b in zip(python, rust, strict=True):
        if a != b:
            diff = {k: (a[k], b.get(k)) for k in a if a[k] != b.get(k)}
            return f"game {a['game']} seat {a['seat']}: (python, rust) {diff}"
    return ""


@pytest.mark.parametrize("players", [2, 3, 4])
def test_core_plays_the_python_engines_games(players: int) -> None:
    """>= 200 games per player count, every deterministic built-in and random, seats
    rotated: row for row equal, row digests equal."""
    core_or_skip()
    lineups = LINEUPS[players]
    per = GAMES[players] // len(lineups) // players * players
    for i, lineup in enumerate(lineups):
        config = RunConfig(players=players, games=per, seed=100 + i, strategies=lineup,
                           rotate_seats=True)
        python, rust = _both(config, 0, per)
        assert len(python) == len(rust) == per * players
        assert _first_difference(python, rust) == ""
        assert digest_rows(python) == digest_rows(rust)


def test_core_follows_strategy_params_and_start_vp() -> None:
    core_or_skip()
    config = RunConfig(players=4, games=24, seed=7, strategies=("villa", "bread", "greedy",
                       "landscape"), start_vp=(3, 30, 0, 12),
                       strategy_params="villa.chimney=2.5,bread.bread_move_cost=0.5,greedy.store=1")
    python, rust = _both(config, 0, 24)
    assert _first_difference(python, rust) == ""


def test_core_draws_pool_line_ups_like_the_runner() -> None:
    core_or_skip()
    config = RunConfig(players=3, games=30, seed=4, strategy_pool=("random", "greedy", "bread"))
    python, rust = _both(config, 5, 30)
    assert _first_difference(python, rust) == ""


def test_core_rows_have_the_python_schema() -> None:
    core_or_skip()
    config = RunConfig(players=2, games=4, seed=1, strategies=("greedy", "random"))
    rust = play_chunk_frame(config, 0, 4, engine="rust")
    python = pl.DataFrame(play_chunk(config, 0, 4))
    assert rust.schema == python.schema
    assert rust.equals(python)


def test_engine_choice() -> None:
    config = RunConfig(players=2, games=4, seed=1, strategies=("greedy", "random"))
    user = RunConfig(players=2, games=4, seed=1,
                     strategies=("greedy", "strategies.random_player:RandomStrategy"))
    # a user strategy plays on the core too, with the Python rules keeping its view
    assert core.engine_for(user) == ("table" if core.available() else "python")
    assert core.engine_for(config) == ("rust" if core.available() else "python")


def test_engine_can_be_forced_to_python(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CDSIM_ENGINE", "python")
    config = RunConfig(players=2, games=4, seed=1, strategies=("greedy", "random"))
    assert core.engine_for(config) == "python"
    monkeypatch.setenv("CDSIM_ENGINE", "fortran")
    with pytest.raises(core.CdsimError, match="CDSIM_ENGINE"):
        core.engine_for(config)


def test_core_checking_mode_runs_every_invariant() -> None:
    core_or_skip()
    config = RunConfig(players=4, games=8, seed=3, strategies=("random", "greedy", "villa",
                       "bread"))
    checked = core.play_chunk_frame(config, 0, 8, check=True)
    assert checked.equals(play_chunk_frame(config, 0, 8, engine="rust"))


def test_without_the_core_a_batch_plays_on_the_python_engine(
        monkeypatch: pytest.MonkeyPatch, tmp_path: object) -> None:
    """No Rust toolchain at install: no cdsim._core, and every run uses the Python engine
    (the same rows), which the manifest records."""
    from pathlib import Path

    from cdsim.runner import prepare, run_chunks, run_digest

    config = RunConfig(players=2, games=6, seed=2, strategies=("greedy", "bread"), chunk_size=3)
    runs = {}
    for name, missing in (("python", True), ("either", False)):
        if missing:
            monkeypatch.setattr(core, "module", lambda: None)
        else:
            monkeypatch.undo()
        run = Path(str(tmp_path)) / name
        manifest = run_chunks(run, prepare(run, config, False, False), 1, "loky")
        runs[name] = (manifest["engine"], run_digest(run))
    assert runs["python"][0] == "python"
    assert runs["either"][0] == ("rust" if core.available() else "python")
    assert runs["python"][1] == runs["either"][1]
