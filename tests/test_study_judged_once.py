"""A study judges each cell's stages once per command (``cdsim.analysis.anytime_memo``): a
later round finds the verdicts of the stages it judged before, so a decided cell is not
judged again; the verdicts are those judged afresh."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cdsim.analysis import anytime, anytime_memo
from cdsim.analysis.candidates import CellGames, WinTable, candidates, win_table
from cdsim.study import plan as planned
from cdsim.study import play
from cdsim.study.manifest import CellState
from cdsim.study.model import Job, Study, load_study
from cdsim.study.plan import Tables
from cdsim.study.store import STUDY_MANIFEST
from tests.test_study import TINY, study_file


def _counted(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, ...]]:
    """Every call of ``anytime.decide`` from now on, as the ids of the tables it judged."""
    calls: list[tuple[int, ...]] = []
    real = anytime.decide

    def counting(tables: Sequence[WinTable], *args: Any, **kwargs: Any) -> anytime.Verdict:
        calls.append(tuple(id(t) for t in tables))
        return real(tables, *args, **kwargs)

    monkeypatch.setattr(anytime, "decide", counting)
    return calls


def test_a_decided_cells_stages_are_not_judged_again(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    spec = load_study(study_file(tmp_path))
    calls = _counted(monkeypatch)
    real_plan = planned.plan  # as play.run calls it
    rounds: list[int] = []  # the calls made before each round's plan returned
    decided: dict[str, tuple[int, set[int]]] = {}  # cell: (round decided, its tables' ids)

    def planning(study: Study, root: Path, tables: Tables,
                 before: Sequence[CellState]) -> tuple[list[Job], list[CellState]]:
        todo, cells = real_plan(study, root, tables, before)
        rounds.append(len(calls))
        for c in cells:
            if c.decision is not None and c.key not in decided:
                decided[c.key] = (len(rounds), {id(tables[s.runs[0]]) for s in c.stages})
        return todo, cells

    monkeypatch.setattr(play, "plan", planning)
    play.run(spec, tmp_path / "out", jobs=1)
    assert len(decided) == len(spec.cells)
    when = {r for r, _ in decided.values()}
    assert len(when) > 1  # a cell decided while another played on: the case guarded
    for key, (at, ids) in decided.items():
        later = calls[rounds[at - 1]:]  # the calls of the rounds after it was decided
        assert not [c for c in later if ids & set(c)], key
    assert len(set(calls)) == len(calls)  # no stages judged twice, decided or not


def test_the_verdicts_are_those_judged_afresh(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    spec = load_study(study_file(tmp_path, TINY.replace("tolerance = 0.3", "tolerance = 0.2")))
    play.run(spec, tmp_path / "kept", jobs=1)
    with monkeypatch.context() as m:  # every stage judged from scratch, as before the memo
        m.setattr(anytime_memo, "decide", lambda tables, rulebook, tolerance, alpha, tested,
                  design, predict, zone, naming: anytime.decide(
                      tables, rulebook, tolerance, alpha, tested, design, predict=predict,
                      zone=zone, naming=naming))
        calls = _counted(m)
        play.run(spec, tmp_path / "fresh", jobs=1)
        assert len(set(calls)) < len(calls)  # the fresh run did judge stages again
    kept, fresh = (json.loads((tmp_path / r / STUDY_MANIFEST).read_text())["cells"]
                   for r in ("kept", "fresh"))
    assert kept == fresh
    assert any(len(c["stages"]) > 1 for c in kept)


def _table(seed: int) -> WinTable:
    rng = np.random.default_rng(seed)
    games = CellGames(gained=rng.integers(20, 60, size=(240, 2)),
                      tiebreak=np.tile([0, 1], (240, 1)), group=np.repeat(np.arange(120), 2))
    return win_table(games, candidates((8, 9), 3))


def test_a_verdict_is_found_only_for_the_same_tables(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _counted(monkeypatch)
    a, b = _table(1), _table(2)
    args = ((8, 9), 0.1, 0.05, 3, 2000, True, 0.005, False)
    first = anytime_memo.decide([a, b], *args)
    assert anytime_memo.decide([a, b], *args) is first and len(calls) == 1
    again = _table(2)  # the same games in another table: judged (its identity is new)
    assert anytime_memo.decide([a, again], *args) == first and len(calls) == 2
    anytime_memo.decide([_table(3), b], *args)  # another first stage before the same last
    anytime_memo.decide([b], *args)  # fewer stages
    anytime_memo.decide([a, b], (8, 9), 0.1, 0.05, 3, 2000, False, 0.005, False)  # settings
    assert len(calls) == 5


def test_a_whatif_judges_each_cells_stages_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The study manifest a whatif writes after every look holds every cell's verdict: the
    cells of a comparison done, or not in the round, are found as judged before."""
    from cdsim.cli import whatif
    from cdsim.study import comparisons
    from tests.commands import run_cli
    from tests.conftest import core_or_skip

    core_or_skip()
    monkeypatch.setattr(whatif, "PACE_SECONDS", 0.0)
    calls = _counted(monkeypatch)
    rounds: list[int] = []
    real_round = comparisons._round

    def counting_round(*args: Any) -> bool:
        rounds.append(len(calls))
        timed_out: bool = real_round(*args)
        return timed_out

    monkeypatch.setattr(comparisons, "_round", counting_round)
    code, _, err = run_cli(["whatif", "--set", "objective.B05.reward.vp=6", "--players", "2,3",
                            "--play", "scripted", "--games", "600", "--out",
                            str(tmp_path / "w"), "--quiet"], monkeypatch, capsys)
    assert code == 0, err
    assert len(rounds) > 1 and len(calls) > rounds[1]  # looks on judged stages after a round
    assert len(set(calls)) == len(calls)  # each cell's stages judged once
