"""mcts, the search player of the compiled core (core/src/carpe_diem/players/mcts/): blind to the
starting VP (what keeps `cdsim balance` exact), reproducible for any --jobs, its
parameters checked in one line. Small budgets keep these quick; its strength is measured
by core/examples/mcts_strength.rs."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from cdsim import core
from cdsim.batch.config import RunConfig, engine_for
from cdsim.batch.folder import RunFolder
from cdsim.batch.queue import play_chunk_frame, play_chunk_table
from cdsim.errors import CdsimError
from cdsim.games.carpe_diem.handover import core_components
from cdsim.games.carpe_diem.players.registry import CORE_ONLY, make_strategy, parse_params
from tests.conftest import core_or_skip

START_VP_FREE = {"start_vp", "vp_start", "final_vp", "rank", "won", "tiebreak",
                 "vp_phase1", "vp_phase2", "vp_phase3", "vp_phase4"}


def cdsim(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cdsim", *args], capture_output=True,
                          text=True, check=False)


@pytest.mark.parametrize(("player", "params"), [("mcts", "mcts.playouts=12"),
                                               ("mcts", "mcts.playouts=12,mcts.leaf=1"),
                                               ("learned", None)])
def test_starting_vp_never_change_a_decision(player: str, params: str | None) -> None:  # R2.7
    """The same seeds under two very different starting-VP vectors: the same rows but for
    the VP that include the start, and the ranks. Three players, so that the best other
    seat, whose gain the search subtracts, can change with the starting VP. The learned
    player (core/src/carpe_diem/players/learned/) values VP gained too, and so does mcts's learned
    value at its leaves (mcts.leaf)."""
    core_or_skip()
    rows = {}
    for start in ((8, 9, 13), (0, 60, -20)):
        config = RunConfig(players=3, games=3, seed=5, strategies=(player, "greedy", "bread"),
                           start_vp=start, rotate_seats=True, strategy_params=params)
        rows[start] = play_chunk_frame(config, 0, 3, engine="rust").to_dicts()
    (a_start, a_rows), (b_start, b_rows) = rows.items()
    assert len(a_rows) == 9
    for a, b in zip(a_rows, b_rows, strict=True):
        assert {k: v for k, v in a.items() if k not in START_VP_FREE} == {
            k: v for k, v in b.items() if k not in START_VP_FREE}
        seat = int(a["seat"])
        assert a["final_vp"] - b["final_vp"] == a_start[seat] - b_start[seat]


def test_jobs_do_not_change_mcts_games(tmp_path: Path) -> None:
    """The search draws from its seat's own stream: same seed, same games, any --jobs."""
    core_or_skip()
    args = ["--players", "2", "--games", "6", "--strategies", "mcts,bread", "--seed", "3",
            "--chunk-size", "1", "--strategy-params", "mcts.playouts=10"]
    digests = []
    for jobs in ("1", "2"):
        out = cdsim("simulate", "--out", str(tmp_path / jobs), "--jobs", jobs, *args)
        assert out.returncode == 0, out.stderr
        digests.append(RunFolder(tmp_path / jobs).digest())
    assert digests[0] == digests[1]


def test_the_budget_changes_the_games_and_mcts_at_n_is_playouts_n() -> None:
    core_or_skip()

    def rows(strategies: tuple[str, ...], params: str | None) -> list[dict[str, object]]:
        config = RunConfig(players=2, games=2, seed=1, strategies=strategies,
                           strategy_params=params)
        out = play_chunk_frame(config, 0, 2, engine="rust").drop("strategy")
        return list(out.to_dicts())

    few = rows(("mcts", "greedy"), "mcts.playouts=4")
    assert few == rows(("mcts@4", "greedy"), None)
    assert few != rows(("mcts", "greedy"), "mcts.playouts=9")


@pytest.mark.parametrize(("params", "says"), [
    ("mcts.nope=1", "mcts has no parameter 'nope'"),
    ("mcts.playouts=0", "mcts.playouts must be a whole number >= 1"),
    ("mcts.playouts=2.5", "mcts.playouts must be a whole number >= 1"),
    ("mcts.top_k=0", "mcts.top_k must be a whole number >= 1"),
    ("mcts.c=-1", "mcts.c must be a number >= 0"),
    ("mcts.leaf=2.5", "mcts.leaf must be a whole number >= 0"),
    ("mcts.leaf=99999999999", "mcts.leaf must be a whole number >= 0"),
    ("learned.reply=2.5", "learned.reply must be a whole number >= 0"),
    ("learned.reply=-1", "learned.reply must be a whole number >= 0"),
])
def test_bad_mcts_params_are_one_line_and_exit_2(params: str, says: str,
                                                 tmp_path: Path) -> None:
    player = params.partition(".")[0]
    out = cdsim("simulate", "--out", str(tmp_path / "run"), "--players", "2", "--games", "2",
                "--strategies", f"{player},greedy", "--strategy-params", params)
    assert out.returncode == 2
    assert len(out.stderr.strip().splitlines()) == 1 and says in out.stderr, out.stderr
    assert not (tmp_path / "run").exists()  # refused before the run folder is made


def test_mcts_params_are_the_cores() -> None:
    """The Python check and the core's agree: every parameter the registry knows the core
    takes; one it does not know, the core refuses too."""
    core_or_skip()
    module = core.module()
    assert module is not None
    empty = np.zeros(0, dtype=np.int64)

    def chunk(overrides: list[tuple[str, float]]) -> object:
        return module.play_chunk(core_components(None), 2, [8, 9], 0, empty, empty,
                                 np.zeros(0, dtype=np.uint8), [("mcts", overrides)])

    known = CORE_ONLY["mcts"].params
    assert parse_params(",".join(f"mcts.{k}=2" for k in known)) == {"mcts": dict.fromkeys(known, 2)}
    chunk([(k, 2.0) for k in known])
    with pytest.raises(ValueError, match="mcts has no parameter"):
        chunk([("depth", 2.0)])
    with pytest.raises(CdsimError, match="mcts has no parameter 'depth'"):
        parse_params("mcts.depth=2")


def test_mcts_plays_on_the_core_in_any_line_up(monkeypatch: pytest.MonkeyPatch) -> None:
    """No Python twin: a single game and a table with a user strategy play on the core;
    a missing core is one clear line; the registry knows it never reads VP totals
    (balance runs)."""
    core_or_skip()
    assert make_strategy("mcts@50").reads_scores is False
    assert make_strategy("mcts@50").name == "mcts@50"
    out = cdsim("play", "--players", "2", "--strategies", "mcts@20,greedy", "--json")
    assert out.returncode == 0, out.stderr
    config = RunConfig(players=2, games=2, seed=1, strategies=("mcts", "greedy"))
    user = RunConfig(players=2, games=2, seed=1,
                     strategies=("mcts@4", "strategies.example:Random"))
    assert engine_for(user) == "table"
    assert len(play_chunk_table(user, 0, 2)) == 4
    monkeypatch.setattr(core, "module", lambda: None)
    with pytest.raises(CdsimError, match="not installed"):
        engine_for(config)


def test_cdsim_strategies_lists_the_search_player() -> None:
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", "cdsim", "strategies"], capture_output=True,
                         text=True, check=True).stdout
    assert any(line.startswith("mcts ") and "UCT" in line for line in out.splitlines())
    assert "module:ClassName" in out


