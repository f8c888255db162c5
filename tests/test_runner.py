"""cdsim simulate: reproducible for any --jobs, backend and interruption history."""

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cdsim.batch.config import RunConfig
from cdsim.batch.folder import RunFolder
from cdsim.batch.queue import run_chunks

BASE = ["--players", "3", "--games", "24", "--strategies", "random,greedy,random",
        "--seed", "11", "--chunk-size", "5"]


def cdsim(*args: str) -> subprocess.CompletedProcess[str]:
    # no plain progress lines: a run slowed by a loaded machine would print one before the
    # error these tests expect on its own line
    env = {**os.environ, "CDSIM_PROGRESS_SECONDS": "86400"}
    return subprocess.run([sys.executable, "-m", "cdsim", *args], capture_output=True,
                          text=True, check=False, env=env)


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    run = tmp_path_factory.mktemp("runs") / "ref"
    out = cdsim("simulate", "--out", str(run), "--jobs", "1", *BASE)
    assert out.returncode == 0, out.stderr
    return run, RunFolder(run).digest()


def test_rows_schema_and_counts(reference: tuple[Path, str]) -> None:
    rows = RunFolder(reference[0]).rows()
    assert len(rows) == 24 * 3
    for key in ("game", "setup", "seat", "strategy", "start_vp", "final_vp", "vp_cards",
                "vp_phase4", "rank", "won", "scroll", "stack", "bread_moves", "tiebreak"):
        assert key in rows[0]
    manifest = RunFolder(reference[0]).read()
    assert manifest.finished == [0, 1, 2, 3, 4] and manifest.seed == 11
    assert manifest.components_default is True and "polars" in manifest.versions
    assert "cdsim build" not in manifest.versions  # one build: the core plays every game


def test_jobs_do_not_change_rows(reference: tuple[Path, str], tmp_path: Path) -> None:
    out = cdsim("simulate", "--out", str(tmp_path / "j2"), "--jobs", "2", *BASE)
    assert out.returncode == 0, out.stderr
    assert RunFolder(tmp_path / "j2").digest() == reference[1]


def test_interrupt_and_resume_gives_the_same_rows(reference: tuple[Path, str],
                                                  tmp_path: Path) -> None:
    run = tmp_path / "killed"
    config = RunConfig(players=3, games=24, seed=11, strategies=("random", "greedy", "random"),
                       chunk_size=5)
    manifest = RunFolder(run).begin(config, resume=False, force=False)

    def stop_after_two(index: int, n: int) -> None:
        if len(RunFolder(run).read().finished) >= 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_chunks(RunFolder(run), manifest, 1, "loky", stop_after_two)
    assert len(RunFolder(run).read().finished) == 2
    out = cdsim("simulate", "--out", str(run), "--resume", "--jobs", "2")
    assert out.returncode == 0, out.stderr
    assert RunFolder(run).digest() == reference[1]


def test_rotate_seats_plays_each_setup_in_every_rotation(tmp_path: Path) -> None:
    out = cdsim("simulate", "--out", str(tmp_path / "rot"), "--players", "2", "--games", "6",
                "--strategies", "greedy,random", "--rotate-seats", "--jobs", "1")
    assert out.returncode == 0, out.stderr
    rows = RunFolder(tmp_path / "rot").rows()
    by_setup: dict[int, set[tuple[int, str]]] = {}
    for r in rows:
        by_setup.setdefault(r["setup"], set()).add((r["seat"], r["strategy"]))
    assert all(s == {(0, "greedy"), (1, "greedy"), (0, "random"), (1, "random")}
               for s in by_setup.values())
    assert len(by_setup) == 3


def test_strategy_pool_is_reproducible(tmp_path: Path) -> None:
    args = ["--players", "2", "--games", "8", "--strategy-pool", "random,greedy", "--jobs", "1"]
    cdsim("simulate", "--out", str(tmp_path / "a"), *args)
    cdsim("simulate", "--out", str(tmp_path / "b"), "--chunk-size", "3", *args)
    assert RunFolder(tmp_path / "a").digest() == RunFolder(tmp_path / "b").digest()
    assert {r["strategy"] for r in RunFolder(tmp_path / "a").rows()} == {"random", "greedy"}


def test_run_file_with_flag_override(tmp_path: Path) -> None:
    run_file = tmp_path / "run.toml"
    run_file.write_text(f'out = "{tmp_path / "cfg"}"\nplayers = 2\ngames = 4\n'
                        'strategies = ["random", "random"]\nseed = 3\n')
    out = cdsim("simulate", "--config", str(run_file), "--games", "6", "--jobs", "1")
    assert out.returncode == 0, out.stderr
    assert len(RunFolder(tmp_path / "cfg").rows()) == 12


def test_without_out_the_run_is_named_after_what_it_plays(tmp_path: Path) -> None:
    """No --out: runs/<players>p-<line-up>-seed<seed>, said in the output; a second run of
    the same settings never overwrites it (the user did not name the folder) but resumes."""
    def here(*args: str) -> subprocess.CompletedProcess[str]:
        env = {**os.environ, "CDSIM_PROGRESS_SECONDS": "86400"}
        return subprocess.run([sys.executable, "-m", "cdsim", "simulate", "--jobs", "1", *args],
                              capture_output=True, text=True, check=False, env=env, cwd=tmp_path)

    out = here(*BASE)
    assert out.returncode == 0, out.stderr
    run = tmp_path / "runs" / "3p-random-greedy-random-seed11"
    assert "24 games in runs/3p-random-greedy-random-seed11 " in out.stdout
    assert "next: cdsim report runs/3p-random-greedy-random-seed11" in out.stdout
    assert RunFolder(run).games_done() == 24
    digest = RunFolder(run).digest()
    again = here(*BASE)
    _one_line_exit_2(again)
    assert "already holds a run" in again.stderr and "--force" not in again.stderr
    assert here(*BASE, "--resume").returncode == 0 and RunFolder(run).digest() == digest
    pool = here("--players", "2", "--games", "2", "--strategy-pool", "random,greedy")
    assert pool.returncode == 0, pool.stderr
    assert (tmp_path / "runs" / "2p-pool-random-greedy-seed0").is_dir()
    alone = here("--resume")
    _one_line_exit_2(alone)
    assert "--out" in alone.stderr
    from cdsim.cli.runs import default_run_folder

    spelled = RunConfig(players=2, games=2, seed=5, strategies=(
        "villa@chimney=1.5", "tests.bad_strategies:RaisesOnOddDeals"))
    assert default_run_folder(spelled) == Path(
        "runs/2p-villa@chimney=1.5-tests.bad_strategies_RaisesOnOddDeals-seed5")  # a folder name


@pytest.mark.skipif(importlib.util.find_spec("distributed") is None, reason="dask extra")
def test_dask_backend_gives_the_same_rows(reference: tuple[Path, str], tmp_path: Path) -> None:
    import gc

    from distributed import LocalCluster

    gc.collect()  # a core Bot left by an earlier test must not be collected on a dask thread
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True) as cluster:
        out = cdsim("simulate", "--out", str(tmp_path / "dask"), "--backend", "dask",
                    "--scheduler", cluster.scheduler_address, *BASE)
    assert out.returncode == 0, out.stderr
    assert RunFolder(tmp_path / "dask").digest() == reference[1]


def _one_line_exit_2(out: subprocess.CompletedProcess[str]) -> None:
    assert out.returncode == 2, out.stdout + out.stderr
    assert out.stderr.startswith("cdsim: error:") and out.stderr.count("\n") == 1


@pytest.mark.parametrize("args", [
    ["--players", "5", "--games", "4", "--strategies", "random"],
    ["--players", "2", "--games", "0", "--strategies", "random,random"],
    ["--players", "2", "--games", "4", "--strategies", "random,nope"],
    ["--players", "2", "--games", "4", "--strategies", "random,random,random"],
    ["--players", "2", "--games", "5", "--strategies", "random,random", "--rotate-seats"],
    ["--players", "2", "--games", "4", "--strategies", "random,random", "--backend", "mpi"],
    ["--players", "2", "--games", "4", "--strategies", "greedy,bread", "--seed", str(2**64)],
    ["--players", "2", "--games", "4", "--strategies", "random,random",
     "--strategy-params", "villa.zzz=1"],
])
def test_bad_flags(tmp_path: Path, args: list[str]) -> None:
    _one_line_exit_2(cdsim("simulate", "--out", str(tmp_path / "bad"), *args))


@pytest.mark.parametrize(("args", "says"), [
    ([], "give the players"),
    (["--strategies", "random", "--strategy-pool", "random,greedy"], "not both"),
])
def test_players_given_once(tmp_path: Path, args: list[str], says: str) -> None:
    out = cdsim("simulate", "--out", str(tmp_path / "bad"), "--players", "2", "--games", "4", *args)
    _one_line_exit_2(out)
    assert says in out.stderr


def test_one_strategy_name_fills_every_seat(tmp_path: Path) -> None:
    out = cdsim("simulate", "--out", str(tmp_path / "one"), "--players", "3", "--games", "2",
                "--strategies", "random", "--jobs", "1")
    assert out.returncode == 0, out.stderr
    assert [s.spelling for s in RunFolder(tmp_path / "one").read().config.strategies] == \
        ["random"] * 3


def test_resume_without_a_run_says_so(tmp_path: Path) -> None:
    out = cdsim("simulate", "--out", str(tmp_path / "none"), "--resume")
    _one_line_exit_2(out)
    assert "no run to resume" in out.stderr


def test_run_file_value_errors_name_the_key(tmp_path: Path) -> None:
    run_file = tmp_path / "run.toml"
    run_file.write_text('games = "many"\n')
    out = cdsim("simulate", "--config", str(run_file), "--out", str(tmp_path / "r"),
                "--players", "2", "--strategies", "random,random")
    _one_line_exit_2(out)
    assert "games must be an integer" in out.stderr and not (tmp_path / "r").exists()


def test_existing_run_is_never_overwritten(reference: tuple[Path, str]) -> None:
    run, digest = reference
    _one_line_exit_2(cdsim("simulate", "--out", str(run), *BASE))
    other = [*BASE[:-1], "7"]  # another chunk size: a different configuration
    out = cdsim("simulate", "--out", str(run), "--resume", *other)
    _one_line_exit_2(out)
    assert "this run was made with chunk_size=5; now chunk_size=7" in out.stderr  # named
    out = cdsim("simulate", "--out", str(run), "--resume", *other[:3], "48", "--strategies",
                "random", *other[6:])
    _one_line_exit_2(out)
    assert ("made with chunk_size=5, games=24, strategies=random,greedy,random; now "
            "chunk_size=7, games=48, strategies=random,random,random") in out.stderr
    assert RunFolder(run).digest() == digest


def test_corrupt_part_is_reported_and_kept(reference: tuple[Path, str], tmp_path: Path) -> None:
    run = tmp_path / "corrupt"
    assert cdsim("simulate", "--out", str(run), "--jobs", "1", *BASE).returncode == 0
    part = run / "games" / "part-00001.parquet"
    part.write_bytes(b"not parquet")
    out = cdsim("simulate", "--out", str(run), "--resume")
    _one_line_exit_2(out)
    assert "part-00001" in out.stderr and part.read_bytes() == b"not parquet"


def _one_line_exit_1(out: subprocess.CompletedProcess[str]) -> None:
    assert out.returncode == 1, out.stdout + out.stderr
    assert out.stderr.startswith("cdsim: error: strategy") and out.stderr.count("\n") == 1
    assert "Traceback" not in out.stderr


def test_a_failing_user_strategy_is_one_line_and_keeps_finished_chunks(tmp_path: Path) -> None:
    run = tmp_path / "failing"
    spec = "tests.bad_strategies:RaisesOnOddDeals"
    out = cdsim("simulate", "--out", str(run), "--players", "2", "--games", "8", "--seed", "3",
                "--strategies", f"random,{spec}", "--chunk-size", "1", "--jobs", "2")
    _one_line_exit_1(out)
    message = out.stderr
    assert f"strategy '{spec}' (seat 2) raised ValueError: odd deal in choose (start decision)" in message
    finished = RunFolder(run).read().finished
    assert 0 < len(finished) < 8  # some deals are odd, some even: the good chunks are kept
    assert f"{len(finished)} finished chunks are kept" in message
    assert sorted(int(p.stem[5:]) for p in (run / "games").glob("part-*.parquet")) == finished
    game = int(message.split(", game ")[1].split(" ")[0])
    assert game not in finished
    replay = message.split("replay it with: cdsim ")[1].split(";")[0].split()
    again = cdsim(*replay)  # the command the message gives fails the same way
    _one_line_exit_1(again)
    assert "odd deal in choose (start decision), game seed 3 setup" in again.stderr
    debug = cdsim("--debug", *replay)
    assert debug.returncode == 1 and "Traceback" in debug.stderr and "odd deal" in debug.stderr


def test_a_strategy_choosing_what_was_not_offered_names_the_decision(tmp_path: Path) -> None:
    out = cdsim("simulate", "--out", str(tmp_path / "illegal"), "--players", "2", "--games", "2",
                "--strategies", "tests.bad_strategies:MovesNowhere,random", "--jobs", "1")
    _one_line_exit_1(out)
    assert ("chose Move(dest=99, bread=False), not one of the options offered in "
            "choose (move decision)" in out.stderr and "game 0 (setup 0)" in out.stderr)


def test_a_module_attribute_that_is_not_a_strategy_class(tmp_path: Path) -> None:
    out = cdsim("simulate", "--out", str(tmp_path / "os"), "--players", "2", "--games", "2",
                "--strategies", "os:system,random")
    _one_line_exit_2(out)
    assert "os.system is a builtin_function_or_method, not a strategy class" in out.stderr
    assert not (tmp_path / "os").exists()


@pytest.mark.parametrize("target", ["{tmp}/blocker/run", "/proc/cdsim-run"])
def test_an_out_path_that_cannot_be_created(tmp_path: Path, target: str) -> None:
    (tmp_path / "blocker").write_text("a file")  # a folder inside a file; /proc refuses root too
    out = cdsim("simulate", "--out", target.format(tmp=tmp_path), "--players", "2", "--games",
                "2", "--strategies", "random")
    _one_line_exit_2(out)
    # a folder inside a file is named as such (the shared --out check); /proc refuses it
    assert ("is a file, not a folder" if "blocker" in target else
            "cannot create the run folder") in out.stderr


def test_an_out_path_that_is_a_file(tmp_path: Path) -> None:
    target = tmp_path / "run.txt"
    target.write_text("x")
    out = cdsim("simulate", "--out", str(target), "--players", "2", "--games", "2",
                "--strategies", "random")
    _one_line_exit_2(out)
    assert "is a file, not a run folder" in out.stderr and target.read_text() == "x"
