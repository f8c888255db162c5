"""Declared once (issue 32 item 4, issue 31 item 4): a player spec parsed once into a typed
value that the workers receive; each record one pydantic model for flags, files and
manifests; ``reads_scores`` recorded in the run manifest at play time; a strategy in the
user's own folder loads without PYTHONPATH in every command and in the workers."""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from cdsim.batch.config import RunConfig, lineup_for
from cdsim.batch.folder import RunFolder
from cdsim.errors import CdsimError
from cdsim.games.carpe_diem.players.registry import PlayerSpec, make_lineup, make_strategy
from tests.commands import run_main
from tests.conftest import core_or_skip

REPO = Path(__file__).resolve().parent.parent


def cdsim(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``cdsim ARGS`` as the installed ``cdsim`` script runs it: ``python -P`` keeps the
    current folder off sys.path (``python -m`` alone would put it there)."""
    return subprocess.run([sys.executable, "-P", "-m", "cdsim", *args], capture_output=True,
                          text=True, check=False, cwd=cwd, env=os.environ.copy())


# -- a player spec, parsed once ---------------------------------------------------------

@pytest.mark.parametrize(("one", "other"), [
    ("villa@chimney=1", "villa@chimney=1.0"),
    ("villa@open_edge=0.3@chimney=2", " villa@chimney=2.0@open_edge=0.30 "),
    ("mcts@100", "mcts@playouts=100"),
    ("learned@top_k=2@weights=w.json", "learned@weights=w.json@top_k=2.0"),
])
def test_two_spellings_of_one_player_are_equal(one: str, other: str) -> None:
    a, b = PlayerSpec.parse(one), PlayerSpec.parse(other)
    assert a == b and hash(a) == hash(b) and str(a) == str(b)
    assert a.spelling == one.strip() and b.spelling == other.strip()  # rows keep these
    assert PlayerSpec.parse(str(a)) == a  # the canonical spelling parses back
    assert pickle.loads(pickle.dumps(b)).spelling == b.spelling  # what a worker receives


def test_other_players_differ_and_a_user_strategy_is_not_imported() -> None:
    assert PlayerSpec.parse("villa@chimney=1") != PlayerSpec.parse("villa@chimney=1.5")
    assert PlayerSpec.parse("villa") != PlayerSpec.parse("greedy")
    user = PlayerSpec.parse("no_such_module_here:Nope")  # parsing imports nothing
    assert (user.kind, user.base, str(user)) == ("user", "no_such_module_here:Nope",
                                                 "no_such_module_here:Nope")
    with pytest.raises(CdsimError, match="cannot import 'no_such_module_here'"):
        make_strategy(user)
    for bad, says in (("nope", "unknown strategy 'nope'"), ("villa@x=1", "no parameter 'x'"),
                      ("a:b@x=1", "built-in players only"), ("mod:1x", "ClassName")):
        with pytest.raises(CdsimError, match=says):
            PlayerSpec.parse(bad)


def test_the_workers_receive_the_parsed_players_and_rows_keep_the_spelling() -> None:
    config = RunConfig(players=2, games=4, seed=3, strategies=("villa@chimney=1.0", "greedy"),
                       rotate_seats=True)
    back = pickle.loads(pickle.dumps(config))  # what a worker's chunk gets
    assert back == config and isinstance(back.strategies[0], PlayerSpec)
    assert back.strategies[0].spelling == "villa@chimney=1.0"
    assert [s.spelling for s in lineup_for(back, 1)[1]] == ["greedy", "villa@chimney=1.0"]
    assert config.record()["strategies"] == ["villa@chimney=1.0", "greedy"]  # as spelled
    core_or_skip()
    lineup = make_lineup(list(config.strategies), 2)
    assert lineup.names == ["villa@chimney=1.0", "greedy"]


def test_a_ladder_naming_one_player_twice_under_two_spellings_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "ladder"
    code, err = run_main(["ladder", "--strategies", "villa@chimney=1,villa@chimney=1.0",
                          "--out", str(out)], monkeypatch, capsys)
    assert code == 2 and err.count("\n") == 1, err
    assert "--strategies names villa@chimney=1 twice" in err and "'villa@chimney=1.0'" in err
    assert not out.exists()


# -- one model per record: flags, files, manifests --------------------------------------

@pytest.mark.parametrize(("key", "value", "says"), [
    ("players", "5", "{file}: players must be 2, 3 or 4, got 5"),
    ("players", '"3"', "{file}: players must be an integer, got '3'"),
    ("strategies", '["random", "nope"]', "{file}: strategies: unknown strategy 'nope'"),
    ("start_vp", '",,,"', "{file}: start_vp must be comma-separated integers, got ',,,'"),
    ("chunk_size", "0", "{file}: chunk_size must be between 1 and 100,000, got 0"),
    ("out", '""', "{file}: out must name a folder"),
])
def test_a_run_file_problem_names_the_file_and_its_key(
        key: str, value: str, says: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    run_file = tmp_path / "run.toml"
    lines = {"out": f'"{tmp_path / "r"}"', "strategies": '"random"'} | {key: value}
    run_file.write_text("".join(f"{k} = {v}\n" for k, v in lines.items()))
    code, err = run_main(["simulate", "--config", str(run_file)], monkeypatch, capsys)
    assert code == 2 and err.count("\n") == 1, err
    assert says.format(file=run_file) in err, err
    assert not (tmp_path / "r").exists()


def test_a_flag_over_a_run_file_is_named_as_the_flag(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    run_file = tmp_path / "run.toml"
    run_file.write_text(f'out = "{tmp_path / "r"}"\nplayers = 2\nstrategies = "random"\n')
    code, err = run_main(["simulate", "--config", str(run_file), "--players", "5"],
                         monkeypatch, capsys)
    assert code == 2 and "cdsim: error: --players must be 2, 3 or 4, got 5" in err, err


def test_a_run_manifest_is_read_by_the_same_model(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    core_or_skip()
    run = tmp_path / "run"
    args = ["simulate", "--out", str(run), "--players", "2", "--games", "4",
            "--strategies", "greedy,villa@chimney=1.0", "--jobs", "1", "-q"]
    assert run_main(args, monkeypatch, capsys)[0] == 0
    manifest = RunFolder(run).read()
    config = manifest.config
    written = json.loads((run / "manifest.json").read_text())
    assert written["config"] == config.record() and manifest.config_identity == config.identity()
    assert written == manifest.record()  # written back as it was read
    path = run / "manifest.json"
    for key, value, says in (("players", 7, "config.players must be 2, 3 or 4, got 7"),
                             ("strategies", ["greedy", "nope"],
                              "config.strategies: unknown strategy 'nope'")):
        path.write_text(json.dumps(written | {"config": written["config"] | {key: value}}))
        code, err = run_main(["report", str(run)], monkeypatch, capsys)
        assert code == 2 and says in err and err.count("\n") == 1, err


# -- reads_scores, recorded when played -------------------------------------------------

PEEKER = ("from strategies.example import Random\n\n\nclass Peeker(Random):\n"
          "    name = 'peeker'\n    reads_scores = True\n")


def test_the_manifest_records_which_players_read_scores(tmp_path: Path) -> None:
    core_or_skip()
    (tmp_path / "score_peeking.py").write_text(PEEKER)
    out = cdsim("simulate", "--out", "run", "--players", "2", "--games", "2",
                "--strategies", "score_peeking:Peeker,greedy", "--jobs", "1", "-q", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    manifest = RunFolder(tmp_path / "run").read()
    assert manifest.reads_scores == {"score_peeking:Peeker": True, "greedy": False}
    (tmp_path / "score_peeking.py").unlink()  # a report needs no user code to know it
    assert manifest.players_read_scores() == {"score_peeking:Peeker": True, "greedy": False}
    old = manifest.model_copy(update={"reads_scores": None})  # before it was recorded
    blind = old.model_copy(update={"config": RunConfig.checked(
        players=2, games=2, seed=0, strategies="greedy,random")})
    assert blind.players_read_scores() == {"greedy": False, "random": False}  # built-in
    with pytest.raises(CdsimError, match="cannot tell whether the players of this run"):
        old.players_read_scores()  # a user strategy is asked, and its module is gone


# -- a strategy in the user's folder, without PYTHONPATH ------------------------------------

FAN = ("from strategies.example import Random\n\n\nclass FountainFan(Random):\n"
       "    name = 'fountain-fan'\n")


def test_a_strategy_in_the_current_folder_loads_in_every_command(tmp_path: Path) -> None:
    core_or_skip()
    (tmp_path / "mine.py").write_text(FAN)
    assert str(tmp_path) not in os.environ.get("PYTHONPATH", "")
    play = cdsim("play", "--players", "2", "--strategies", "mine:FountainFan,greedy", "--json",
                 cwd=tmp_path)
    assert play.returncode == 0, play.stderr
    assert json.loads(play.stdout)["seats"][0]["strategy"] == "mine:FountainFan"
    simulate = cdsim("simulate", "--out", "run", "--players", "2", "--games", "8",
                     "--strategies", "mine:FountainFan,greedy", "--rotate-seats",
                     "--chunk-size", "2", "--jobs", "2", "-q", cwd=tmp_path)  # workers import it
    assert simulate.returncode == 0, simulate.stderr
    assert len(RunFolder(tmp_path / "run").read().finished) == 4
    balance = cdsim("balance", "run", "--json", cwd=tmp_path)
    assert balance.returncode == 0, balance.stderr
    assert json.loads(balance.stdout)["games"] == 8
    ladder = cdsim("ladder", "--strategies", "mine:FountainFan,greedy", "--games", "4",
                   "--jobs", "1", "-q", "--resamples", "10", "--json", cwd=tmp_path)
    assert ladder.returncode == 0, ladder.stderr
    assert {r["strategy"] for r in json.loads(ladder.stdout)["ratings"]} == \
        {"mine:FountainFan", "greedy"}
