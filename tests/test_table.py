"""One engine of record: the core plays every game; the Python rules replay it decision
by decision (the oracle); any line-up, mcts and Python strategies included, plays on
the core; the trace is rendered from the core's typed events."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from typing import Any

import pytest

from cdsim import core
from cdsim.errors import StrategyFailure
from cdsim.games.carpe_diem.engine.oracle import EngineMismatch, first_difference
from cdsim.games.carpe_diem.engine.table import Table
from cdsim.games.carpe_diem.handover import core_components
from cdsim.games.carpe_diem.players.registry import Lineup, make_lineup
from cdsim.games.carpe_diem.rules.game import CIRCLES, GameState
from cdsim.games.carpe_diem.view import trace

pytestmark = pytest.mark.skipif(not core.available(), reason="the compiled core is not built")

# Every player count with each kind of line-up: the CI sample of the oracle replay
# (`make oracle` plays as many as you ask).
LINEUPS = [
    (2, ["greedy", "random"]), (2, ["mcts@8", "villa"]), (2, ["landscape", "bread"]),
    (3, ["villa", "landscape", "bread"]), (3, ["random"]), (3, ["mcts@6", "greedy", "random"]),
    (4, ["greedy", "villa", "landscape", "bread"]), (4, ["random"]),
    (4, ["bread", "mcts@4", "random", "greedy"]),
]


@pytest.mark.parametrize(("players", "names"), LINEUPS)
@pytest.mark.parametrize("seed", [0, 7])
def test_the_python_rules_agree_with_the_core_after_every_decision(
        players: int, names: list[str], seed: int) -> None:
    table = Table(None, make_lineup(names, players), seed, setup=seed + 3, check=True,
                  where=f"seed {seed}")
    record = table.play()
    assert table.core.is_over() and table.python is not None
    assert table.core.decisions > 100  # every decision was replayed and compared
    assert sum(s.won for s in record.seats) == 1


def test_the_oracle_names_the_decision_and_field_where_the_engines_split(
        monkeypatch: pytest.MonkeyPatch) -> None:
    real = GameState.advance_scroll

    def one_step_too_far(self: GameState, seat: int, steps: int) -> None:
        real(self, seat, steps + 1 if steps > 0 else steps)

    monkeypatch.setattr(GameState, "advance_scroll", one_step_too_far)
    table = Table(None, make_lineup(["greedy"], 3), 4, check=True, where="seed 4")
    with pytest.raises(EngineMismatch, match=r"seed 4 decision \d+: .* differ at "
                                             r"players\[\d\]\.(scroll|stamp)"):
        table.play()


def test_first_difference_points_at_the_field() -> None:
    core_side = {"phase": 1, "players": [{"goods": [0, 1]}, {"goods": [2, 2]}]}
    python_side = {"phase": 1, "players": [{"goods": [0, 1]}, {"goods": [2, 3]}]}
    assert first_difference(core_side, python_side) == "players[1].goods[1]: core 2, python 3"
    assert first_difference(core_side, core_side) is None
    assert first_difference({"a": [1]}, {"a": [1, 2]}) == "a: core [1], python [1, 2]"


def test_the_core_alone_plays_the_same_game_as_with_the_python_rules_beside_it() -> None:
    alone = Table(None, make_lineup(["mcts@6", "greedy", "villa"], 3), 2, setup=1)
    checked = Table(None, make_lineup(["mcts@6", "greedy", "villa"], 3), 2, setup=1, check=True)
    assert alone.python is None and checked.python is not None
    assert alone.play().rows() == checked.play().rows()


def test_a_python_strategy_sits_at_a_table_with_mcts_and_greedy() -> None:
    lineup = make_lineup(["strategies.example:Builder", "mcts@6", "greedy"], 3)
    assert not lineup.all_builtin
    table = Table(None, lineup, 11, setup=0, events=True)
    record = table.play()
    assert [s.strategy for s in record.seats] == ["strategies.example:Builder", "mcts@6",
                                                 "greedy"]
    assert record.seats[0].tiles_built > 10  # the example builds


@pytest.mark.parametrize("check", [False, True])
def test_a_failing_python_strategy_names_itself_and_the_decision(check: bool) -> None:
    """The core driving, or the Python rules' driver asking the table's seats (checking):
    the seat's own failure reaches the caller."""
    lineup = make_lineup(["tests.bad_strategies:MovesNowhere", "greedy"], 2)
    table = Table(None, lineup, 1, where="game 5", check=check)
    with pytest.raises(StrategyFailure, match=r"^strategy 'tests.bad_strategies:MovesNowhere' "
                                              r"\(seat 1\) chose .* in choose \(move decision\)$"):
        table.play()
    assert table.core.decisions >= 2  # the pawns were placed: it failed at its first move


def _decisions_without_vp(names: list[str], start_vp: tuple[int, ...]) -> list[dict[str, Any]]:
    table = Table(None, make_lineup(names, 2), 3, start_vp=start_vp, events=True)
    table.play()
    return [e for e in table.event_list() if e["type"] != "phase_end"]  # phase_end holds VP


def test_starting_vp_change_no_decision_of_mcts_or_greedy() -> None:
    # R2.7: built-in players maximise VP gained, never totals
    base = _decisions_without_vp(["mcts@12", "greedy"], (8, 9))
    assert base == _decisions_without_vp(["mcts@12", "greedy"], (30, 0))


def test_the_trace_is_rendered_from_the_events_counting_from_one() -> None:
    table = Table(None, make_lineup(["greedy", "bread"], 2), 9, events=True)
    record = table.play()
    events = table.event_list()
    kinds = {e["type"] for e in events}
    assert {"pawn", "deal", "move", "take", "complete", "scoring_phase", "circle", "card",
            "phase_end", "scroll"} <= kinds
    deal = json.loads(table.core.deal())
    lines = trace.trace(events, 2, deal["grid"], CIRCLES[2], record)
    assert len(lines) == len(events) + 2
    assert sum(line.startswith("== phase") for line in lines) == 4  # R3.1
    assert sum(line.startswith("== scoring phase") for line in lines) == 4
    assert "space 0" not in "\n".join(lines) and "seat 0" not in "\n".join(lines)
    assert lines[-1].startswith(f"== final scoring: seat {record.winner + 1} wins")
    with pytest.raises(ValueError, match="unknown event"):
        trace.line({"type": "nonsense"}, 2, deal["grid"], CIRCLES[2])


def test_a_state_copies_and_says_what_it_waits_for() -> None:
    module = core.module()
    assert module is not None
    state = module.State(core_components(None), 2, [8, 9], 5, None, False, True)
    assert (state.decision(), state.current_seat()) == ("start", 0)
    assert state.num_options() == 7  # R2.5: every patrician space is free
    options = json.loads(state.legal_options())
    assert options[0] == {"space": 0}
    copy = state.clone()
    state.apply(3)
    assert (copy.decisions, state.decisions) == (0, 1)
    assert json.loads(state.events()) == [{"type": "pawn", "seat": 0, "space": 3}]
    with pytest.raises(IndexError):
        state.apply(99)
    bots = [module.Bot("random"), module.Bot("greedy")]
    state.play(bots)
    assert state.is_over() and state.decision() == "over"
    assert json.loads(state.record())["players"] == 2
    with pytest.raises(ValueError, match="over"):
        state.apply(0)


def test_play_with_mcts_gives_the_same_game_under_other_starting_vp() -> None:
    """`cdsim play --strategies mcts,greedy --start-vp 30,0 --json` plays the decisions it
    plays with 8,9 (R2.7): every breakdown but the start is the same."""
    import subprocess
    import sys

    def game(start: str) -> list[dict[str, Any]]:
        out = subprocess.run([sys.executable, "-m", "cdsim", "play", "--players", "2",
                              "--strategies", "mcts@10,greedy", "--seed", "4", "--start-vp",
                              start, "--json"], capture_output=True, text=True, check=True)
        seats: list[dict[str, Any]] = json.loads(out.stdout)["seats"]
        return [{k: v for k, v in s["breakdown"].items() if k != "start"} for s in seats]

    assert game("30,0") == game("8,9")


def test_a_user_strategy_plays_simulate_against_mcts_and_greedy(tmp_path: Any) -> None:
    import subprocess
    import sys

    import polars as pl

    run = tmp_path / "run"
    out = subprocess.run([sys.executable, "-m", "cdsim", "simulate", "--out", str(run),
                          "--players", "3", "--games", "6", "--rotate-seats", "--jobs", "1",
                          "--strategies", "strategies.example:Builder,mcts@4,greedy"],
                         capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stderr
    rows = pl.read_parquet(run / "games" / "*.parquet")
    assert sorted(set(rows["strategy"])) == ["greedy", "mcts@4", "strategies.example:Builder"]
    assert rows.height == 18 and rows["won"].sum() == 6
    assert json.loads((run / "manifest.json").read_text())["engine"] == "table"


class _Recorder:
    """Takes the first option (or a random one) and keeps what it was handed at each
    decision: the observation's fields but its stream and box, the options and the card."""

    name = "recorder"
    reads_scores = True

    def __init__(self) -> None:
        self.seen: list[tuple[Any, ...]] = []

    def _keep(self, view: Any, options: Sequence[Any], card: Any = None) -> Any:
        fields = tuple(getattr(view, f.name) for f in dataclasses.fields(view)
                       if f.name not in ("rng", "components"))
        self.seen.append((fields, tuple(options), card))
        return options[int(view.rng.integers(len(options)))]

    def choose(self, view: Any, options: Sequence[Any]) -> Any:
        return self._keep(view, options, view.card)


@pytest.mark.parametrize(("players", "bots"), [(2, ["greedy"]), (3, ["mcts@6", "villa"]),
                                               (4, ["greedy", "random", "learned"])])
def test_the_core_drives_a_python_seat_as_the_python_rules_would(players: int,
                                                                  bots: list[str]) -> None:
    """A Python seat at a table the core drives is handed, at every decision, the same
    observation (districts, holdings, scores included), options and card as the Python
    rules in lock step hand it, and so the game's rows are the same."""
    seen = []
    for mirror in (False, True):
        recorder = _Recorder()
        lineup = make_lineup(["random", *bots], players)
        lineup = Lineup(["recorder", *lineup.names[1:]], [recorder, *lineup.players[1:]])
        table = Table(None, lineup, 5, setup=players, start_vp=(3, 1, 4, 1)[:players],
                      mirror=mirror)
        assert (table.driver is None) == mirror
        rows = table.play().rows()
        seen.append((recorder.seen, rows))
    (driven, driven_rows), (mirrored, mirrored_rows) = seen
    assert len(driven) > 50 and driven_rows == mirrored_rows
    for i, (a, b) in enumerate(zip(driven, mirrored, strict=True)):
        assert a == b, f"decision {i} of the Python seat differs"
