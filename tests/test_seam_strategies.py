"""A user's Python strategy plays every game through the seam (issue 60): The Castles of
Tuscany and the Mediterranean seat ``game`` + ``choose(view) -> int`` strategies
(``cdsim.games.strategy``) in batch runs, beside built-in players, with the rows a built-in
run writes and the same rows for the same seed; bad strategies are one line; and every
observation a Python seat is offered holds only what that seat may know."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import polars as pl
import pytest

from cdsim.digest import digest_rows
from tests.commands import run_main
from tests.conftest import core_or_skip

EXAMPLES = Path(__file__).resolve().parents[1] / "strategies" / "examples"

# strategies of one's own, written to a file by the tests (module-level: they pickle)
STRATEGIES = '''
class Last:
    name = "last"
    game = "{game}"

    def choose(self, view):
        assert view.game == "{game}" and view.options and view.decision
        return len(view.options) - 1


class Beyond:
    game = "{game}"

    def choose(self, view):
        return len(view.options)


class Raising:
    game = "{game}"

    def choose(self, view):
        if view.decision == "{fails_at}":
            raise RuntimeError("my bug")
        return 0


class Sleepy:
    game = "{game}"

    def choose(self, view):
        while True:
            pass
'''


def _file(tmp_path: Path, game: str, fails_at: str) -> Path:
    path = tmp_path / f"mine_{game}.py"
    path.write_text(STRATEGIES.format(game=game, fails_at=fails_at))
    return path


def _rows(folder: Path) -> pl.DataFrame:
    return pl.read_parquet(folder / "games" / "*.parquet").sort("game", "seat")


def _simulate(tmp_path: Path, name: str, game: str, players: int, strategies: str,
              monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
              *more: str) -> tuple[int, str, Path]:
    out = tmp_path / name
    code, err = run_main(["simulate", "--game", game, "--players", str(players), "--games",
                          str(players * 2), "--seed", "9", "--strategies", strategies, "-q",
                          "--out", str(out), *more], monkeypatch, capsys)
    return code, err, out


@pytest.mark.parametrize(("game", "players", "example"), [
    ("castles", 3, "castles:Builder"), ("mediterranean", 5, "mediterranean:Trader")])
def test_a_python_strategy_plays_whole_games_in_a_batch(
        game: str, players: int, example: str, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    core_or_skip()
    mine = f"strategies.examples.{example}"
    lineup = ",".join([mine] + ["greedy"] * (players - 1))
    code, err, one = _simulate(tmp_path, "one", game, players, lineup, monkeypatch, capsys,
                               "--jobs", "1")
    assert code == 0, err
    code, err, two = _simulate(tmp_path, "two", game, players, lineup, monkeypatch, capsys,
                               "--jobs", "2", "--chunk-size", "3")
    assert code == 0, err
    rows = _rows(one)
    assert rows.height == players * players * 2  # every game played to its end
    assert digest_rows(rows.to_dicts()) == digest_rows(_rows(two).to_dicts()), \
        "the same seed plays the same games, in any number of workers"
    assert set(rows["strategy"]) == {mine, "greedy"}
    assert rows.filter(pl.col("strategy") == mine)["final_vp"].min() is not None
    # the rows are those a built-in run of the game writes: its columns, in order, typed alike
    code, err, builtin = _simulate(tmp_path, "builtin", game, players, "greedy", monkeypatch,
                                   capsys)
    assert code == 0, err
    assert _rows(builtin).schema == rows.schema
    # a seat of the strategy is a built-in one's game: a random stream of its own
    assert rows.filter(pl.col("seat") == 0)["won"].dtype == pl.Boolean


def test_the_seat_s_choices_make_the_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    """The Python seat's choices reach the core: always the last option plays other games
    than the example's, and the same ones again."""
    core_or_skip()
    path = _file(tmp_path, "castles", "turn")
    runs = []
    for name, spec in (("a", f"{path}:Last"), ("b", f"{path}:Last"),
                       ("c", "strategies.examples.castles:Random")):
        code, err, out = _simulate(tmp_path, name, "castles", 2, f"{spec},greedy",
                                   monkeypatch, capsys)
        assert code == 0, err
        runs.append(_rows(out).drop("strategy").to_dicts())
    assert digest_rows(runs[0]) == digest_rows(runs[1])
    assert digest_rows(runs[0]) != digest_rows(runs[2])


@pytest.mark.parametrize(("game", "cls", "code", "said"), [
    ("mediterranean", "castles:Last", 2,
     "is written for castles, not mediterranean (its game = 'castles')"),
    ("castles", "example:Builder", 2,
     "is a Carpe Diem strategy (choose(view, options)), not a castles one"),
    ("castles", "Beyond", 1, "not the index of one of the"),
    ("castles", "Raising", 1, "raised RuntimeError: my bug in choose (turn decision)"),
    ("mediterranean", "Raising", 1, "raised RuntimeError: my bug in choose (rowing-card "
                                    "decision)"),
    ("castles", "Sleepy", 1, "took longer than the decision time limit of 0.2 s"),
])
def test_a_bad_strategy_is_one_line_naming_it(game: str, cls: str, code: int, said: str,
                                              tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    """The wrong game's or form's strategy is bad input (exit 2, before any game); a
    strategy's own bug in a game (an index not offered, an exception, its time limit) is
    the strategy's failure, as for Carpe Diem's strategies (exit 1, docs/strategies.md):
    each one line naming the strategy, never a traceback."""
    core_or_skip()
    players = 3
    if cls.startswith("castles:"):
        spec = f"{_file(tmp_path, 'castles', 'turn')}:{cls.partition(':')[2]}"
    elif cls.startswith("example:"):
        spec = f"strategies.example:{cls.partition(':')[2]}"
    else:
        spec = f"{_file(tmp_path, game, 'turn' if game == 'castles' else 'rowing-card')}:{cls}"
    lineup = ",".join([spec] + ["greedy"] * (players - 1))
    got, err, out = _simulate(tmp_path, "bad", game, players, lineup, monkeypatch, capsys,
                              "--decision-timeout", "0.2", "--jobs", "1")
    lines = err.strip().splitlines()
    assert got == code and len(lines) == 1 and said in lines[0], err
    assert spec.rpartition(":")[2] in lines[0] and "Traceback" not in err
    if code == 2:
        assert not (out / "games").exists() or not list((out / "games").iterdir())


def test_a_seam_strategy_is_refused_by_carpe_diem(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    core_or_skip()
    spec = f"{_file(tmp_path, 'castles', 'turn')}:Last"
    code, err, _ = _simulate(tmp_path, "cd", "carpe-diem", 2, f"{spec},greedy", monkeypatch,
                             capsys)
    assert code == 2 and "is written for castles, not carpe-diem" in err, err
    assert len(err.strip().splitlines()) == 1


# -- what a Python seat is shown ---------------------------------------------------------

def _table(game: str, players: int, seed: int, start_vp: list[int] | None = None) -> Any:
    from cdsim import core
    from cdsim.games import game_spec

    module = core.module()
    comps = game_spec(game).load_components(None)
    return module.GameTable(comps, players, start_vp or [0] * players, seed, 1,  # type: ignore[union-attr]
                            [None] * players, True)


def _walk(game: str, players: int, seed: int, choose: Any,
          start_vp: list[int] | None = None) -> list[tuple[int, str, Any]]:
    """Every (seat, decision, observation) offered in one game of Python seats only, each
    seat choosing ``choose(step, options)``."""
    table = _table(game, players, seed, start_vp)
    seen = []
    while table.current_seat() is not None:
        seat, decision, obs = table.current_seat(), table.decision(), table.observe()
        seen.append((seat, decision, obs))
        table.apply(choose(len(seen), table.options()))
    assert table.rows()[1]
    return seen


def _keys(value: Any, path: str = "") -> list[tuple[str, Any]]:
    """Every (path, value) of JSON data (read-only: mappings and tuples)."""
    if isinstance(value, Mapping):
        return [kv for k, v in value.items() for kv in [(f"{path}.{k}", v),
                                                        *_keys(v, f"{path}.{k}")]]
    if isinstance(value, tuple):
        return [kv for i, v in enumerate(value) for kv in _keys(v, f"{path}[{i}]")]
    return []


def _pick(step: int, options: list[str]) -> int:
    return (step * 7919) % len(options)


# the piles whose order is the future: an observation holds their sizes, never their cards
PILES = ("deck", "stack", "pile", "reserve", "harvest", "bonus", "draw")


@pytest.mark.parametrize(("game", "players"), [("castles", 2), ("castles", 4),
                                               ("mediterranean", 3), ("mediterranean", 5)])
def test_every_observation_holds_only_what_the_seat_may_know(game: str, players: int) -> None:
    core_or_skip()
    checked = 0
    for seed in range(3):
        for seat, decision, obs in _walk(game, players, seed, _pick):
            assert obs["seat"] == seat
            with pytest.raises(TypeError):  # read-only: a write cannot reach the game
                obs["seats"][0]["x"] = 1  # type: ignore[index]
            for path, value in _keys(obs):
                name = path.rsplit(".", 1)[-1].lower()
                # a pile is a size (an int), or a list of sizes (Mediterranean's three decks)
                if any(p in name for p in PILES) and not name.endswith(("discard", "supply")):
                    assert isinstance(value, int) or (
                        isinstance(value, tuple) and all(isinstance(v, int) for v in value)
                        and len(value) <= 3), (game, path, value)
                assert "vp" not in name and "score" not in name and "points" not in name, \
                    (game, path)  # no VP totals, no starting VP
            others = [s for i, s in enumerate(obs["seats"]) if i != seat]
            if game == "castles":
                assert all(s["hand"] is None for s in others), "another seat's cards (T12.1)"
                assert obs["seats"][seat]["hand"] is not None
                if decision == "lay":  # not every seat has laid: no other layout shows
                    assert all(s["layout"] is None for s in others), "T12.3"
            else:
                assert all(not o["face_up"] and o["city"] is None for o in obs["row"]
                           if not o["face_up"]) or all(o["face_up"] for o in obs["row"])
                assert "own_pick" in obs and "picks" not in obs
            checked += 1
    assert checked > 100


def test_no_seat_reads_an_earlier_seat_s_rowing_card() -> None:
    """M5.1: during the simultaneous rowing choice, what a seat is offered is the same
    whichever card an earlier seat laid face down (each alternative played from the start
    with the same choices but that one)."""
    core_or_skip()
    players, seed = 4, 2
    base = _walk("mediterranean", players, seed, _pick)
    compared = 0
    for step, (seat, decision, _obs) in enumerate(base[:-1], start=1):
        nxt_seat, nxt_decision, nxt_obs = base[step]
        if decision != "rowing-card" or nxt_decision != "rowing-card":
            continue
        table = _table("mediterranean", players, seed)
        for k in range(1, step):
            table.apply(_pick(k, table.options()))
        options = table.options()
        if len(set(options)) < 2:
            continue
        for other in range(len(options)):
            alt = _table("mediterranean", players, seed)
            for k in range(1, step):
                alt.apply(_pick(k, alt.options()))
            alt.apply(other)
            assert alt.current_seat() == nxt_seat and alt.decision() == "rowing-card"
            assert alt.observe() == nxt_obs, f"seat {nxt_seat} reads seat {seat}'s card"
            compared += 1
        if compared > 30:
            break
    assert compared > 0


@pytest.mark.parametrize(("game", "players"), [("castles", 3), ("mediterranean", 4)])
def test_no_observation_depends_on_the_starting_vp(game: str, players: int) -> None:
    """The same choices under other starting VP offer the same observations and options,
    so a Python seat's games re-rank exactly under other starting VP (R2.7's rule)."""
    core_or_skip()
    zero = _walk(game, players, 4, _pick)
    given = _walk(game, players, 4, _pick, start_vp=[5, 0, 9, 2][:players])
    assert zero == given


def test_a_study_of_castles_seats_a_python_strategy(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A study's population names a Castles strategy: it is read with the study's game's
    roster (not the default game's, which would refuse it as another game's)."""
    core_or_skip()
    study = tmp_path / "study.toml"
    study.write_text('name = "mine"\ngame = "castles"\ngames = 120\nplayers = [2]\n'
                     '[[population]]\nname = "mine"\n'
                     'lineup = ["strategies.examples.castles:Builder", "greedy"]\n')
    code, err = run_main(["study", "run", str(study), "--out", str(tmp_path / "s"), "-q"],
                         monkeypatch, capsys)
    assert code == 0, err
    rows = pl.read_parquet(tmp_path / "s" / "cells" / "**" / "games" / "*.parquet")
    assert "strategies.examples.castles:Builder" in set(rows["strategy"])
