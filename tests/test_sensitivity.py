"""cdsim components sensitivity: the families of reconstructed entries (valid overrides that
change reconstructed entries only, decks as printed), the paired fair-offset shift and the
ranking on cases whose truth is known, and the command (small budgets, bad input)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from cdsim.analysis.candidates import CellGames
from cdsim.analysis.offset_shift import effect, paired_shift, ranked
from cdsim.errors import CdsimError
from cdsim.games.carpe_diem.families import taken
from cdsim.games.carpe_diem.rules.components import compare, load_components
from cdsim.study.sensitivity import families, family_named
from tests.commands import run_main
from tests.conftest import core_or_skip


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[str, Path]]:
    folder = tmp_path_factory.mktemp("families")
    return [(f.name, f.write(folder)) for f in families()]


def _provenance(table: str, entry: object) -> str:
    comps = load_components(None)
    if table == "tile":
        return next(t.provenance for t in comps.tile_types if t.id == entry)
    found = {"objective": comps.objectives, "fountain": comps.fountains,
             "part": comps.frame_parts}.get(table)
    if found is not None:
        return found[entry].provenance  # type: ignore[index]
    if table == "board":
        return next(b.provenance for b in comps.boards if b.id == entry)
    return {"scroll_track": comps.scroll_track, "villa_table": comps.villa_table}[
        table].provenance


def test_every_family_is_a_valid_override_of_reconstructed_entries_only(
        written: list[tuple[str, Path]]) -> None:
    """Each family loads as a component set (the normal validation), keeps the decks the
    rulebook prints (84 light, 39 dark; 60 objective and 24 fountain cards), changes only
    entries whose provenance is 'reconstructed', and says which entries it changes."""
    assert len(written) == len({name for name, _ in written}) >= 15
    for name, path in written:
        comps = load_components(path)
        assert (len(comps.light), len(comps.dark)) == (84, 39), name
        assert (len(comps.objectives), len(comps.fountains)) == (60, 24), name
        changes = compare(None, path)
        assert changes, f"{name} changes nothing"
        for change in changes:
            assert _provenance(change.table, change.entry) == "reconstructed", change.line()
        family = family_named(name)
        named = {c.where.replace("'", "") for c in changes}
        assert named == set(family.entries), name


def test_rulebook_cards_and_villa_points_stay_as_printed(
        written: list[tuple[str, Path]]) -> None:
    """The cards the rulebook prints (B05, A06, ...) are in no family, and the villa table
    keeps 3 -> 3 and 5 -> 7 (R10.1) while its other points move."""
    printed = [c.id for c in load_components(None).objectives.values()
               if c.provenance == "rulebook"]
    assert "B05" in printed
    for name, _ in written:
        assert not set(family_named(name).entries) & {f"objective card {i}" for i in printed}
    villa = load_components(dict(written)["villa-table"]).villa_table.points
    assert (villa[3], villa[5]) == (3, 7) and villa[2] == 2 and villa[4] == 6


def test_the_tile_mix_keeps_each_deck_and_takes_in_proportion(
        written: list[tuple[str, Path]]) -> None:
    """A tile family adds one copy of each kind of its class and takes as many from the
    deck's other kinds, more from the common ones, none below one copy."""
    assert taken([5, 5, 6, 2, 1], 4) == [1, 1, 1, 1, 0]  # 1.05 1.05 1.26 .42 .21
    assert sum(taken([3, 1, 1, 9], 5)) == 5 and taken([3, 1, 1, 9], 5)[1:3] == [0, 0]
    with pytest.raises(CdsimError):
        taken([1, 1], 1)
    base = {t.id: t.count for t in load_components(None).tile_types}
    fountains = {t.id: t.count for t in
                 load_components(dict(written)["building-tiles"]).tile_types}
    assert fountains["L-fountain"] == base["L-fountain"] + 1
    assert fountains["D-fountain"] == base["D-fountain"] + 1
    assert min(fountains.values()) >= 1
    assert base["L-villa-end-1"] - fountains["L-villa-end-1"] >= 1  # 4 copies: taken from


# -- the paired shift and the ranking, on games whose truth is known -------------------------

def _games(rng: np.random.Generator, deals: int, players: int, lift: dict[int, int] | None = None,
           noise: np.random.Generator | None = None) -> CellGames:
    """``deals`` deals of ``players`` games (one per rotation): each seat's VP a deal's
    draw (rotated with the seat's player) plus the game's own; ``lift`` adds VP to seats
    (a planted effect), ``noise`` redraws the games' own part (an unpaired variant)."""
    deal = rng.normal(0, 8, (deals, players))
    own = (noise or rng).normal(0, 6, (deals * players, players))
    rows = np.repeat(deal, players, axis=0) + own
    gained = np.rint(rows + 40).astype(np.int64)
    for seat, vp in (lift or {}).items():
        gained[:, seat - 1] += vp
    order = np.tile(np.arange(players), (deals * players, 1))
    return CellGames(gained, order, np.repeat(np.arange(deals), players))


def test_a_planted_lift_is_found_exactly_and_an_unchanged_variant_is_zero() -> None:
    """Seat 2 given 3 VP more in every game needs 3 starting VP less: the shift is -3 with
    an interval that holds it; seat 3 does not move. The same games again: 0, not clear."""
    rulebook = (8, 9, 13)
    base = _games(np.random.default_rng(1), 600, 3)
    lifted = _games(np.random.default_rng(1), 600, 3, {2: 3})
    shift = paired_shift([base], [lifted], rulebook, resamples=100)
    two, three = shift.seats
    assert two.shift == pytest.approx(-3.0, abs=0.05) and two.low <= -2.9 and two.high >= -3.1
    assert abs(three.shift) < 0.3
    same = paired_shift([base], [base], rulebook, resamples=50)
    assert all(s.shift == 0 and s.low == 0 == s.high for s in same.seats)
    assert not effect("same", [same]).clear
    found = effect("lifted", [shift])
    assert found.clear and (found.players, found.seat) == (3, 2)
    assert found.largest == pytest.approx(3.0, abs=0.05)


def test_the_ranking_puts_the_planted_family_first_and_noise_last() -> None:
    """Three families at 2 and 4 players: a planted 2 VP lift of seat 4 at 4 players, a
    variant whose games are drawn afresh (no effect, only noise: it may shift by chance but
    its intervals hold zero), and one that changes nothing."""
    effects = []
    for name, lift, fresh in [("noise", {}, True), ("planted", {4: 2}, False),
                              ("nothing", {}, False)]:
        shifts = []
        for players, rulebook in ((2, (8, 9)), (4, (8, 9, 10, 11))):
            base = _games(np.random.default_rng(players), 400, players)
            variant = _games(np.random.default_rng(players), 400, players,
                             lift if players == 4 else None,
                             np.random.default_rng(99) if fresh else None)
            shifts.append(paired_shift([base], [variant], rulebook, resamples=100))
        effects.append(effect(name, shifts))
    order = [e.family for e in ranked(effects)]
    assert order[0] == "planted"
    planted = ranked(effects)[0]
    assert (planted.players, planted.seat, planted.clear) == (4, 4, True)
    assert not next(e for e in effects if e.family == "noise").clear


def test_a_shift_needs_the_same_deals() -> None:
    base = _games(np.random.default_rng(1), 100, 2)
    other = CellGames(base.gained, base.tiebreak, base.group + 1000)
    with pytest.raises(CdsimError, match="same deals"):
        paired_shift([base], [other], (8, 9))
    with pytest.raises(CdsimError, match="no stage"):
        paired_shift([], [base], (8, 9))


# -- the command -----------------------------------------------------------------------------

@pytest.mark.parametrize(("args", "says"), [
    (["--players", "5"], "--players"),
    (["--players", "two"], "--players"),
    (["--minutes", "0"], "--minutes"),
    (["--games", "10"], "--games"),
    (["--jobs", "0"], "--jobs"),
    (["--seed", "-1"], "--seed"),
    (["--families", "nope"], "no family 'nope'"),
    (["--families", ","], "--families"),
    (["--resume", "--force"], "give one of them"),
    (["--resume"], "no sensitivity study to resume"),
    (["--minutes", "ten"], "--minutes"),
])
def test_bad_input_is_one_line_and_exit_2(args: list[str], says: str, tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    code, err = run_main(["components", "sensitivity", "--out", str(tmp_path / "s"), *args],
                         monkeypatch, capsys)
    assert code == 2, err
    assert says in err and len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "s").exists()


def test_an_out_that_is_not_a_sensitivity_study_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "file").write_text("x")
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "notes.txt").write_text("mine")
    for out, says in [("file", "a file is in the way"), ("other", "not a sensitivity study")]:
        for extra in ([], ["--force"]):
            code, err = run_main(["components", "sensitivity", "--out", str(tmp_path / out),
                                  *extra], monkeypatch, capsys)
            assert code == 2 and says in err and len(err.strip().splitlines()) == 1, err
    assert (tmp_path / "other" / "notes.txt").read_text() == "mine"


def test_a_small_run_ranks_writes_its_answer_and_resumes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Two families at 2 players on 960 games a side: the plan said before play, the
    ranking printed and written (sensitivity.md, .json), the folder a study folder that
    refuses a second start without --force and resumes with nothing left to play."""
    core_or_skip()
    out = tmp_path / "sens"
    args = ["components", "sensitivity", "--out", str(out), "--players", "2", "--games", "960",
            "--families", "fountain-card-vp,boards", "--jobs", "1"]
    code, err = run_main(args, monkeypatch, capsys)
    assert code == 0, err
    assert "960 games a side in 6 stages (eighths: 1/1/1/1/2/2)" in err and "stage 6 of 6" in err
    answer = json.loads((out / "sensitivity.json").read_text())
    assert sorted(e["family"] for e in answer["ranking"]) == ["boards", "fountain-card-vp"]
    assert answer["games"] == {"2": 960} and answer["stages"] == 6
    seat = answer["ranking"][0]["shifts"][0]["seats"][0]
    assert seat["seat"] == 2 and seat["low"] <= seat["shift"] <= seat["high"]
    text = (out / "sensitivity.md").read_text()
    assert "# Which reconstructed entries matter" in text and "Scripted play" in text
    from cdsim.cli.app import RESUME

    assert RESUME["command"] == f"cdsim components sensitivity --out {out} --resume --jobs 1"
    code, err = run_main(args, monkeypatch, capsys)
    assert code == 2 and "already holds a sensitivity study" in err
    code, err = run_main(["components", "sensitivity", "--out", str(out), "--resume",
                          "--jobs", "1"], monkeypatch, capsys)
    assert code == 0, err
    assert "stage 1 of 6 played" not in err  # nothing left to play
    assert "2,880 games in all (2,880 played before), about 0 s more" in err
    code, err = run_main(["components", "sensitivity", "--out", str(out), "--resume",
                          "--games", "960"], monkeypatch, capsys)
    assert code == 2 and "drop --games" in err


def test_the_plan_fits_the_minutes_in_whole_deals(tmp_path: Path) -> None:
    """The games a cell are sized so every side at every player count takes the planned
    share of the minutes at the recorded costs; each stage is whole deals, a budget given
    by hand rounded up to them."""
    from cdsim.study import sensitivity as sens

    sides = len(families()) + 1
    for minutes in (1.0, 10.0, 60.0):
        games = sens.planned_games([2, 3, 4], sides, minutes, 2)
        seconds = sens.plan_seconds([2, 3, 4], sides, games, 2)
        assert games % (sens.UNIT * sens.DEALS) == 0
        assert seconds <= sens.PLAY_SHARE * minutes * 60 or games == sens.UNIT * sens.DEALS * 10
    assert sens.planned_games([4], 2, 60.0, 2) > sens.planned_games([2, 3, 4], sides, 60.0, 2)
    study = sens.build(tmp_path, [2, 4], 1, 1000, [family_named("boards")])
    for cell in study.cells:
        assert cell.games == 1056
        sizes = [sens.stage_size(cell, k) for k in range(sens.STAGES)]
        assert sum(sizes) == cell.games and all(s % cell.deal == 0 for s in sizes)
