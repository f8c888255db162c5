"""The quick look spends its minutes (issue 59 item 4) and says its time from this machine's
pace (issue 61 item 2): a whatif plays every comparison until it is decided or the time is
spent, no fixed cap without --games; each round gives the next stage to the comparisons
nearest to deciding first, only those that fit in the time left; the anytime intervals stay
valid under that data-dependent allocation (a simulation against a known truth); the
progress ETA counts to the likely end, never past the time budget.

No test times anything: the pace is set on the clock as a chunk would measure it, the time
left is given."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from cdsim.analysis import paired
from cdsim.analysis.paired import SeatChange
from cdsim.batch import progress
from cdsim.batch.progress import StudyProgress, Work
from cdsim.study import comparisons
from cdsim.study import whatif as wi
from cdsim.study.clock import Clock
from cdsim.study.comparisons import Pair, _fit
from tests.test_minutes import STUDY


def _pairs(tmp_path: Path, games: int | None = None) -> list[Pair]:
    """The default quick look's six comparisons (2, 3 and 4 players x scripted, strong), as
    planned before play (nothing is played)."""
    change = [wi.parse_set("objective.B05.reward.vp=6")]
    budgets = {p: games or wi.DESIGN[p] for p in ("scripted", "strong")}
    study = wi.build("q", change, None, tmp_path, [2, 3, 4], ["scripted", "strong"], 1, budgets)
    return comparisons.pairs_of(study, None, games)


def _looked(pair: Pair, half: float, games: int) -> None:
    """``pair`` as if it had played a first stage of ``games`` a side and looked: every seat
    at no change, its interval ``half`` wide either side (1 pp margin)."""
    seats = [SeatChange(s + 1, 0.0, -half, half) for s in range(pair.base.players)]
    pair.sizes, pair.played = [games], 1
    pair.outcomes = {v.variant.name: paired.judge(seats, paired.MARGIN, games, games)
                     for v in pair.variants if v.variant is not None}


def _paced(per_ms: float = 0.5) -> Clock:
    """A clock whose measured pace is ``per_ms`` wall ms per recorded ms of play (set as a
    finished chunk sets it), with no time budget unless given one."""
    clock = Clock(None, jobs=2)
    clock.per_game_ms = {"2p.strong": 1.0}
    clock.played_seconds = 1000 * per_ms / 1000
    clock.chunk("2p.strong+s0", 1000)
    assert clock.measured()
    return clock


def test_without_games_no_comparison_is_capped(tmp_path: Path) -> None:
    """No fixed strong cap: without --games a comparison plays stage after stage past the
    games its sequences are designed for, until decided or out of time; --games caps it."""
    pairs = _pairs(tmp_path)
    strong = next(p for p in pairs if p.play == "strong" and p.base.players == 4)
    assert strong.cap is None and strong.base.design == wi.DESIGN["strong"]
    _looked(strong, 0.02, strong.base.design * 3)  # far past its design, still undecided
    assert not strong.done and strong.games_left() is None and strong.next_size() == strong.step
    assert _fit(pairs, _paced())  # it is given a stage: time, not a cap, ends it
    capped = next(p for p in _pairs(tmp_path / "c", 600) if p.play == "strong")
    assert capped.cap == 600 and capped.step == 50
    _looked(capped, 0.02, 580)
    assert capped.next_size() == 20  # never past the cap


def test_the_time_left_goes_to_the_nearest_to_deciding_first(tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch
                                                             ) -> None:
    """Each round's stages are ordered by the seconds of play the last look says would
    decide each comparison (its intervals against the margin, at the measured pace); with a
    time budget only the stages that fit are played, the nearest first, the next one
    shortened to fit; one not yet looked at comes before all (its first stage tells)."""
    pairs = _pairs(tmp_path)
    halves = {(2, "scripted"): 0.0105, (3, "scripted"): 0.03, (4, "scripted"): 0.012,
              (2, "strong"): 0.011, (3, "strong"): 0.02}  # 4p strong: not looked at yet
    for pair in pairs:
        half = halves.get((pair.base.players, pair.play))
        if half is not None:
            _looked(pair, half, 2000)
    clock = _paced()
    order = [p for p, _ in _fit(pairs, clock)]  # no time budget: every one, nearest first
    assert (order[0].base.players, order[0].play) == (4, "strong")
    seconds = [p.nearness(clock) for p in order[1:]]
    assert seconds == sorted(seconds) and len(order) == 6
    assert [(p.base.players, p.play) for p in order[1:]] == sorted(
        halves, key=lambda k: next(p for p in pairs if (p.base.players, p.play) == k)
        .nearness(clock))
    # a near one's stage is only what its look says decides it (at least a quarter stage)
    near = next(p for p in pairs if (p.base.players, p.play) == (2, "scripted"))
    need = near.to_decide()
    assert need is not None and near.shortest() <= near.next_size() < near.step
    # with a time budget: as many as fit, nearest first, the last shortened to fit
    budget = Clock(3.0, jobs=2)
    budget.per_game_ms, budget.played_seconds = clock.per_game_ms, clock.played_seconds
    budget.weighed_ms, budget.games = clock.weighed_ms, clock.games
    first = order[0]
    room = budget.seconds(first.next_size(), first.ms()) + budget.seconds(
        order[1].next_size(), order[1].ms()) + budget.seconds(order[2].shortest(), order[2].ms())
    monkeypatch.setattr(budget, "left", lambda: room / comparisons.FIT)
    chosen = _fit(pairs, budget)
    assert [p for p, _ in chosen][:3] == order[:3]
    assert sum(budget.seconds(size, p.ms()) for p, size in chosen) <= room * 1.0001
    assert chosen[2][1] < order[2].next_size() or len(chosen) == 3
    assert all(p not in [q for q, _ in chosen] for p in order[4:])
    # no time left at all: nothing is begun (the whatif then ends, out of time)
    monkeypatch.setattr(budget, "left", lambda: 0.0)
    assert _fit(pairs, budget) == []


def _simulate(truth: float, narrow: float, rng: np.random.Generator) -> list[str]:
    """Three synthetic 2-player comparisons sharing 30,000 deals, each seat's per-deal
    change -1, 0 or +1 (a one-card change's), seat 2 truly moving by ``truth`` in the
    first, 0 in the others; each round the next 500 deals go to the comparison whose last
    look is nearest to deciding (``games_to_decide``), as the whatif gives its time: the
    allocation depends on the data. Their answers when the deals run out."""
    p_up = 0.03 + truth / 2
    steps = [rng.choice([-1.0, 0.0, 1.0], size=30_000,
                        p=[0.03 - t / 2, 0.94, 0.03 + t / 2])
             for t in (truth, 0.0, 0.0)]
    assert p_up > 0
    played = [0, 0, 0]
    looks: list[paired.Comparison | None] = [None, None, None]
    spent = 0
    while spent < 30_000:
        open_ = [i for i in range(3) if looks[i] is None or looks[i].outcome == "undecided"]  # type: ignore[union-attr]
        if not open_:
            break

        def need(i: int) -> float:
            # nearness by the closed-form games to decide (the look without its design):
            # as data-dependent as the whatif's, at a fraction of the cost of the boundary
            # search, which 120 runs of a few hundred looks cannot afford in a unit test
            look = looks[i]
            more = replace(look, design=None).games_to_decide() if look is not None else None
            return -1.0 if more is None else float(more)
        i = min(open_, key=need)
        played[i] += 500
        spent += 500
        step = steps[i][:played[i]]
        per_deal = np.stack([-step, step], axis=1)
        look = paired.compare(per_deal, 10_000, paired.MARGIN)
        if narrow != 1.0:  # a mutant: intervals narrowed about their centre
            seats = [SeatChange(s.seat, s.change, s.change - narrow * (s.change - s.low),
                                s.change + narrow * (s.high - s.change)) for s in look.seats]
            look = paired.judge(seats, paired.MARGIN, look.games, look.deals)
        looks[i] = look
    return [look.outcome if look is not None else "undecided" for look in looks]


@pytest.mark.parametrize("narrow", [1.0, pytest.param(0.5, marks=pytest.mark.xfail(
    strict=True, reason="the mutant: intervals half as wide answer wrongly too often"))])
def test_intervals_stay_valid_when_time_goes_to_the_nearest(narrow: float) -> None:
    """Under the nearest-first allocation, a wrong answer stays rare: seat 2 of the first
    comparison truly moves by the 1 pp margin, so "unchanged" is wrong there, and
    "changed" is wrong for the two that truly do not move. Over 120 seeded runs each kind
    of wrong answer is given in at most 5% (each confidence sequence holds at every look at
    once, so at any look the allocation stops it at). The mutant with intervals half as
    wide fails it (strict xfail: it must)."""
    rng = np.random.default_rng(59)
    wrong_same = wrong_moved = 0
    for _ in range(120):
        first, *others = _simulate(0.01, narrow, rng)
        wrong_same += first == "unchanged"
        wrong_moved += sum(o == "changed" for o in others)
    assert wrong_same <= 6 and wrong_moved <= 12, (wrong_same, wrong_moved)


def test_the_eta_counts_to_the_likely_end_never_past_the_time_budget(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The ETA is the work planned (a whatif's comparisons to where they look like deciding,
    a study's decided cells at their games) at the rate so far, cut at the time budget."""
    clock = [0.0]
    monkeypatch.setattr(progress.time, "perf_counter", lambda: clock[0])
    bar = StudyProgress("s", quiet=True)
    bar.plan_work(2000, 0, Work(2000.0, 0.0, {"2p.x": 1.0}))
    clock[0] = 10.0
    bar.chunk("2p.x+s0", 1000)
    assert bar.eta() == pytest.approx(10.0)  # 1,000 ms of work left at 100 ms a second
    bar.deadline = 15.0  # the time budget ends in 5 s
    assert bar.eta() == pytest.approx(5.0)
    clock[0] = 20.0
    assert bar.eta() == 0.0
    # a comparison's likely end: what its look says decides it, not a fixed budget


def test_likely_games_follow_the_looks(tmp_path: Path) -> None:
    """What the progress plans to: each comparison not done to where its last look says it
    decides (every side), those not looked at to the games they are designed for."""
    pairs = _pairs(tmp_path)
    for pair in pairs:
        _looked(pair, 0.0105, 2000)
    games, ms = comparisons.likely(pairs, _paced())
    expect = sum((p.to_decide() or 0) * len(p.cells) for p in pairs)
    assert games == expect and ms == pytest.approx(sum((p.to_decide() or 0) * p.ms()
                                                       for p in pairs))
    pairs[0].done = True
    assert comparisons.likely(pairs, _paced())[0] < games


TIMED = STUDY  # test_minutes' small timed study: 720 games of random play at 2 players


def test_study_run_says_its_time_measured_here_after_a_round(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Before play, the plan's times are the recorded costs, said so and never "here"; after
    the first round, one line measured here (the games played, cores, load), what is left
    at most; its last line gives the run's one game count, wall and play time, the
    manifest's. (The pace is said after any play here: the seconds it waits for are set
    to 0, no test waits.)"""
    import json

    from cdsim.cli import studies
    from cdsim.study.machine import run_words
    from tests.commands import run_cli
    from tests.conftest import core_or_skip

    core_or_skip()
    monkeypatch.setattr(studies, "PACE_SECONDS", 0.0)
    path = tmp_path / "timed.toml"
    path.write_text(TIMED)
    code, said, err = run_cli(["study", "run", str(path), "--out", str(tmp_path / "s"), "-q",
                               "--jobs", "1"], monkeypatch, capsys)
    assert code == 0, err
    lines = said.splitlines()
    assert "recorded on a quiet 2-core machine (not measured here" in lines[0]
    assert not any(" here" in line for line in lines[1:3]), lines[:3]
    pace = next(line for line in lines if "measured here" in line and "left" in line)
    assert pace.startswith("study timed: measured here: 90 games in "), pace
    assert "(1 core, load average " in pace and "take at most " in pace
    assert lines.index(pace) == 3  # after the plan, before the verdicts
    m = json.loads((tmp_path / "s" / "study-manifest.json").read_text())
    figures = run_words(m["games_played"], m["wall_seconds"], m["play_seconds"])
    assert f"({figures}); next: cdsim study report" in said
    assert m["games_played"] == sum(s["games"] for c in m["cells"] for s in c["stages"])


def test_whatif_says_how_long_it_takes_measured_here(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The whatif's second line, after its first round: this machine's pace, measured here,
    and the time to where the comparisons' looks say they decide; its first line gives no
    time at all (nothing is measured yet)."""
    from cdsim.cli import whatif
    from tests.commands import run_cli
    from tests.conftest import core_or_skip

    core_or_skip()
    monkeypatch.setattr(whatif, "PACE_SECONDS", 0.0)
    code, said, err = run_cli(["whatif", "--set", "objective.B05.reward.vp=6", "--players", "2",
                               "--play", "strong", "--games", "600", "--out",
                               str(tmp_path / "w"), "--quiet"], monkeypatch, capsys)
    assert code == 0, err
    first, second = said.splitlines()[:2]
    assert not any(w in first for w in ("here", "about", "at most")), first
    assert second.startswith("whatif: measured here: 60 games in "), second
    assert "the comparisons left, to where their looks say they decide: about " in second
    assert second.endswith(" in all") or "stops at its time budget of 3 min" in second
