"""A Python strategy decides on what its seat may know (issue 32, docs/strategies.md): no
deck order, no starting VP and no VP totals unless it reads scores, no path back to the
game's state, and a write is refused without a desync; in-process, in the pure Python
rules, and in ``play``, ``simulate`` and ``study run`` (tests/leaks.py walks everything
a strategy is handed)."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from collections.abc import Callable, Sequence
from operator import setitem
from pathlib import Path
from typing import Any

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cdsim.errors import StrategyFailure
from cdsim.games.carpe_diem.engine.oracle import EngineMismatch
from cdsim.games.carpe_diem.engine.table import Table
from cdsim.games.carpe_diem.players.registry import Lineup, make_lineup
from cdsim.games.carpe_diem.rules.game import GameConfig
from cdsim.games.carpe_diem.rules.observation import DistrictView, HiddenInformation, Observation, Observer
from cdsim.games.carpe_diem.rules.play import play_game
from strategies.example import Random
from tests import leaks
from tests.conftest import core_or_skip

# Starting VP far below anything an observation holds: finding an integer below -1000 is
# finding a VP total or a starting VP (tests/leaks.py).
FAR = (-900_001, -910_003, -920_011, -930_007)
SEED = 2**45 + 12_345  # large enough to be looked for (tests/leaks.py DISTINCT_SEED)
ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def _core() -> None:
    core_or_skip()


def _table(players: list[Any], names: list[str], seed: int, setup: int = 0,
           check: bool = True) -> Table:
    """A table of these players (Strategy objects, or core bots by name)."""
    n = len(players)
    bots = make_lineup([p if isinstance(p, str) else "random" for p in players], n).players
    seats = [bots[i] if isinstance(p, str) else p for i, p in enumerate(players)]
    return Table(None, Lineup(names, seats), seed, setup=setup, start_vp=FAR[:n], check=check,
                 where=f"seed {seed}")


class _Probe(Random):
    """Runs ``look(view, options)`` at each of its moves, then plays like Random."""

    name = "probe"

    def __init__(self, look: Callable[[Observation, Sequence[Any]], None]) -> None:
        self.look = look

    def choose(self, view: Observation, options: Sequence[Any]) -> Any:
        if view.decision == "move":
            self.look(view, options)
        return super().choose(view, options)


def test_the_walk_finds_what_the_old_view_handed_over() -> None:
    """The check can fail: the old view (the whole GameState, the seat's stream with the
    game's seed) reveals the decks' order, VP totals, live objects and the seed."""
    import numpy as np

    found: list[str] = []

    def look(view: Observation, options: Sequence[Any]) -> None:
        state = leaks.live_state()
        if found or state.round < 2:
            return

        class OldView:  # what strategies were handed before the observation
            def __init__(self) -> None:
                self.state, self.seat = state, view.seat
                self.rng = np.random.default_rng(np.random.SeedSequence(SEED, spawn_key=(0, 1)))

        found.extend(leaks.leaks({"view": OldView()}, leaks.state_truth(state), seed=SEED)[0])

    _table([_Probe(look), "greedy"], ["probe", "greedy"], SEED).play()
    text = "\n".join(found)
    for says in ("view.state: a live GameState", "a run of the face-down tile decks' order",
                 "a run of the fountain deck's order", "a VP total or starting VP",
                 "the game's seed"):
        assert says in text, says


def test_a_score_blind_seat_would_notice_scores_handed_to_it() -> None:
    """The observation made for a reads_scores seat holds the scores: walked as if for a
    blind seat, it is a finding (so the blind seats' clean walks mean something)."""
    found: list[str] = []

    def look(view: Observation, options: Sequence[Any]) -> None:
        state = leaks.live_state()
        if not found:
            reader = Observer(state.components, state.observer.rngs, [True] * 2)
            views = [DistrictView.of(p.district) for p in state.players]
            seen = reader.observe(state.facts(), views, state.circles, view.seat)
            found.extend(leaks.leaks({"view": seen}, leaks.state_truth(state))[0])

    _table([_Probe(look), "greedy"], ["probe", "greedy"], SEED).play()
    assert any(f.startswith("view._scores[0]: -9") for f in found), found
    assert any(f.startswith("view._start_vp[1]: -910003") for f in found), found


@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 2**20), players=st.sampled_from([2, 3, 4]), check=st.booleans())
def test_a_blind_strategy_finds_no_deck_order_scores_or_state(seed: int, players: int,
                                                               check: bool) -> None:
    """Every decision of a game at the core's table, the core driving (the observations
    made from its state) or checking (the Python rules compared with the core after each):
    the blind spy finds nothing and is refused the scores, the starting VP and the state;
    the score reader sees the game's VP totals and starting VP."""
    spy, reader = leaks.Spy(), leaks.ScoreReader()
    seats: list[Any] = [spy, *["greedy", "random"][:players - 2], reader]
    table = _table(seats, ["spy", *["greedy", "random"][:players - 2], "reader"],
                   SEED + seed, setup=seed % 7, check=check)
    assert (table.driver is None) == check
    record = table.play()
    assert record.seats[0].tiles_taken == 28
    assert spy.checks > 50 and reader.checks > 50  # every decision was walked
    assert {"view.scores", "view.start_vp", "view.state", "view.me.current_vp"} <= spy.refusals
    assert "view.scores" not in reader.refusals and "view.state" in reader.refusals


def test_the_pure_python_rules_hand_the_same_observation() -> None:
    """``play_game`` (the Python rules alone, no core) asks strategies the same way."""
    spies = [leaks.Spy(), leaks.Spy(), leaks.ScoreReader()]
    record = play_game(GameConfig(3, FAR[:3], check=True), spies, 11)
    assert all(s.tiles_taken == 28 for s in record.seats)
    assert all(spy.checks > 50 for spy in spies)


def test_reads_scores_is_read_once_when_the_game_starts() -> None:
    """A strategy cannot start reading scores mid-game by changing its declaration."""
    seen: list[str] = []

    def look(view: Observation, options: Sequence[Any]) -> None:
        probe.reads_scores = True
        try:
            view.scores()
        except HiddenInformation as exc:
            seen.append(str(exc))

    probe = _Probe(look)
    _table([probe, "greedy"], ["probe", "greedy"], 3).play()
    assert len(seen) == 28 and all("R9.1" in s for s in seen)


@pytest.mark.parametrize(("read", "says"), [
    (lambda view: view.scores(), "raised HiddenInformation: VP totals and the starting VP "
                                 "are hidden (R9.1) from a strategy with reads_scores = False"),
    (lambda view: view.start_vp, "are hidden (R9.1)"),
    (lambda view: view.seats[1].current_vp, "are hidden (R9.1)"),
    (lambda view: view.state.light_deck, "view.state (the whole game, the decks' order "
                                         "included) is no longer given"),
])
def test_a_hidden_read_fails_the_strategy_naming_the_rule(read: Callable[[Any], Any],
                                                          says: str) -> None:
    probe = _Probe(lambda view, options: read(view))
    with pytest.raises(StrategyFailure, match=r"in choose \(move decision\)") as failed:
        _table([probe, "greedy"], ["probe", "greedy"], 5).play()
    assert says in str(failed.value)


WRITES: list[tuple[str, Callable[[Any, Any], Any]]] = [
    ("view.me.coins", lambda v, o: setattr(v.me, "coins", v.me.coins + 50)),
    ("view.me.goods[0]", lambda v, o: setitem(v.me.goods, 0, 9)),
    ("view.rng", lambda v, o: setattr(v, "rng", None)),
    ("view.depots[0]", lambda v, o: v.depots[0].append(0)),
    ("view.seal[0]", lambda v, o: setitem(v.seal, 0, None)),
    ("view.grid[1]", lambda v, o: setitem(v.grid, 1, "A01")),
    ("view.me.district.edges[0]", lambda v, o: setitem(v.me.district.edges, 0, None)),
    ("view.me.district.have[0]", lambda v, o: setitem(v.me.district.have, 0, 99)),
    ("view.components.objectives", lambda v, o: setitem(v.components.objectives, "A01", 0)),
    ("view.components.tile_types[0]", lambda v, o: setattr(v.components.tile_types[0],
                                                            "chimneys", 9)),
    ("options", lambda v, o: o.sort(key=str, reverse=True)),
    ("options[0]", lambda v, o: setitem(o, 0, o[-1])),
]


class _Writer(Random):
    """Tries every write of WRITES before each decision (each must be refused), changes its
    own copy of a district (allowed: it is a copy), then plays exactly like Random."""

    name = "writer"

    def __init__(self) -> None:
        self.refused: dict[str, str] = {}

    def _try(self, view: Any, options: Any) -> None:
        for what, write in WRITES:
            try:
                write(view, options)
            except (dataclasses.FrozenInstanceError, TypeError, AttributeError) as exc:
                self.refused[what] = f"{type(exc).__name__}: {exc}"
        copy = view.me.district.district()
        copy.place(next(iter(view.me.district.frontier_cells()), 0), (0, 0, 0, 0))

    def choose(self, view: Any, options: Any) -> Any:
        if view.decision in ("move", "take"):
            self._try(view, options)
        return super().choose(view, options)


def test_every_write_is_refused_and_the_game_never_desyncs() -> None:
    """The game with the writer in seat 1 is the game with Random there: the Python rules
    stay equal to the core after every decision (check=True) and the rows are the same."""
    writer = _Writer()
    rows = _table([writer, "greedy"], ["someone", "greedy"], 8).play().rows()
    assert set(writer.refused) == {what for what, _ in WRITES}, writer.refused
    assert "cannot assign to field 'coins'" in writer.refused["view.me.coins"]
    assert "does not support item assignment" in writer.refused["view.components.objectives"]
    assert rows == _table([Random(), "greedy"], ["someone", "greedy"], 8).play().rows()


def test_an_uncaught_write_is_the_strategy_failing_not_a_desync() -> None:
    def write(view: Observation, options: Sequence[Any]) -> None:
        view.me.coins += 50  # type: ignore[misc]

    with pytest.raises(StrategyFailure) as failed:
        _table([_Probe(write), "greedy"], ["probe", "greedy"], 6).play()
    assert not isinstance(failed.value, EngineMismatch)
    assert ("raised FrozenInstanceError: cannot assign to field 'coins' in "
            "choose (move decision)" in str(failed.value))


def test_an_observation_is_a_copy_of_its_moment() -> None:
    """Kept past its decision, an observation still shows that moment: a copy, not a
    window onto the live game."""
    views: list[Observation] = []
    _table([_Probe(lambda view, options: views.append(view)), "greedy"],
           ["probe", "greedy"], 9, check=False).play()
    assert len(views) == 28
    first, last = views[0], views[-1]
    assert (first.phase, first.me.district.built, first.me.pawn) == (0, 0, first.me.pawn)
    assert last.phase == 3 and last.me.district.built > 0
    assert first.depots != last.depots and first.me.taken == (0, 0, 0, 0)
    assert first.components is last.components  # one read-only copy per game
    assert first.rng is last.rng  # the seat's own stream goes on


# -- the commands: the spy copied into a user's folder -------------------------------------

NOSY = '''

class Nosy(Spy):
    """Looks at a live list of the game besides what it is handed: must fail the run."""

    name = "nosy"

    def _look(self, view, options, card=None):
        truth = live_truth()
        found, _ = leaks({"view": view, "leak": truth.sample}, truth)
        if found:
            raise AssertionError(f"seat {view.seat + 1} may not know: {found[0]}")
        return super()._look(view, options, card)
'''


@pytest.fixture(scope="module")
def spy_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("user")
    (folder / "spy.py").write_text((ROOT / "tests" / "leaks.py").read_text() + NOSY)
    return folder


def cdsim(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "CDSIM_PROGRESS_SECONDS": "86400", "PYTHONPATH": os.pathsep.join(
        p for p in (str(folder), os.environ.get("PYTHONPATH", "")) if p)}
    return subprocess.run([sys.executable, "-m", "cdsim", *args], capture_output=True,
                          text=True, env=env, cwd=folder, timeout=900, check=False)


def test_simulate_workers_hand_the_spy_nothing_hidden(spy_folder: Path) -> None:
    run = spy_folder / "run"
    out = cdsim(spy_folder, "simulate", "--out", str(run), "--players", "3", "--games", "4",
                "--chunk-size", "2", "--jobs", "2", "--seed", str(SEED), "--start-vp",
                ",".join(map(str, FAR[:3])), "--strategies", "spy:Spy,greedy,spy:ScoreReader")
    assert out.returncode == 0, out.stderr
    rows = pl.read_parquet(run / "games" / "*.parquet")
    assert rows.height == 12 and set(rows["strategy"]) == {"spy:Spy", "greedy",
                                                           "spy:ScoreReader"}
    assert set(rows["start_vp"]) == set(FAR[:3])  # far enough for the VP walk to mean it


def test_a_finding_in_a_worker_fails_the_run(spy_folder: Path) -> None:
    out = cdsim(spy_folder, "simulate", "--out", str(spy_folder / "nosy"), "--players", "2",
                "--games", "2", "--jobs", "1", "--seed", str(SEED), "--start-vp",
                ",".join(map(str, FAR[:2])), "--strategies", "spy:Nosy,greedy")
    assert out.returncode == 1, out.stderr
    assert "strategy 'spy:Nosy' (seat 1) raised AssertionError: seat 1 may not know: leak: " \
           "a live list of the game" in out.stderr and out.stderr.count("\n") == 1


def test_play_hands_the_spy_nothing_hidden(spy_folder: Path) -> None:
    out = cdsim(spy_folder, "play", "--players", "2", "--seed", str(SEED), "--start-vp",
                ",".join(map(str, FAR[:2])), "--strategies", "spy:Spy,mcts@4", "--json")
    assert out.returncode == 0, out.stderr
    assert [s["strategy"] for s in json.loads(out.stdout)["seats"]] == ["spy:Spy", "mcts@4"]


def test_study_run_hands_the_spy_nothing_hidden(spy_folder: Path) -> None:
    study = spy_folder / "study.toml"
    study.write_text(f'name = "spy"\nseed = {SEED}\ngames = 60\nchunk_size = 30\n'
                     f'players = [2]\nradius = 0\nstart_vp = {{ 2 = [{FAR[0]}, {FAR[1]}] }}\n'
                     '[[population]]\nname = "spies"\nlineup = ["spy:SparseSpy", "greedy"]\n')
    out = cdsim(spy_folder, "study", "run", str(study), "--out", str(spy_folder / "study"),
                "--jobs", "2")
    assert out.returncode == 0, out.stderr
    rows = pl.read_parquet(spy_folder / "study" / "**" / "games" / "*.parquet")
    assert "spy:SparseSpy" in set(rows["strategy"]) and rows.height >= 120
    assert set(rows["start_vp"]) == set(FAR[:2])


def test_the_districts_built_again_for_views_are_few() -> None:
    """A long run of a strategy that reads districts meets many boards and frames: the
    districts kept to build views from stay a handful, and a view is still right."""
    import itertools

    from cdsim.games.carpe_diem.rules import observation
    from cdsim.games.carpe_diem.rules.components import load_components

    comps = load_components()
    pairs = list(itertools.permutations(sorted(comps.frame_parts), 2))
    for i in range(3 * observation.REPLAYED_KEPT):  # a board and frame not met before, each
        frame = tuple(comps.frame_parts[p] for p in pairs[i])
        view = observation.DistrictView.later(comps.boards[i % len(comps.boards)], frame,
                                              ((14, (0, 0, 0, 0), 0, 0),))
        assert view.history == ((14, (0, 0, 0, 0), 0, 0),) and view.built == 1
    assert len(observation._REPLAYED) <= observation.REPLAYED_KEPT
