"""cdsim whatif seats every player count the game takes (audit of issue 60, item 2): a game
with four scripted players and a 5-player table (the Mediterranean) plays them all with each
in turn in a second seat, as its shipped study does, where a whatif refused 5 players naming
the study file it wrote; a refusal of the study it writes names the command's flags, never
that file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cdsim.errors import CdsimError
from cdsim.games import game_spec
from cdsim.study.file import resolve
from cdsim.study.model import load_study
from cdsim.study.whatif import build, lineups_at, parse_set
from tests.commands import run_main
from tests.conftest import core_or_skip


def test_a_whatif_seats_the_line_ups_of_the_game_s_own_study(tmp_path: Path) -> None:
    """At every count the game takes, the whatif's scripted line-ups are the shipped study's
    (every N of the four at 3 and 4 players, all four with one doubled at 5)."""
    core_or_skip()
    spec = game_spec("mediterranean")
    counts = list(spec.player_counts)
    study = build("gold", [parse_set("rules.start_gold.value=8", spec)], None, tmp_path,
                  counts, ["scripted"], 1, {"scripted": 1000}, spec)
    (mine,) = study.file.population
    shipped = next(p for p in load_study(resolve(spec.name)).file.population
                   if p.name == "scripted")
    for n in counts:
        assert mine.lineups_for(n), n
        assert all(len(x) == n for x in mine.lineups_for(n))
        assert mine.lineups_for(n) == shipped.lineups_for(n), n
    description = mine.description or ""
    assert description.endswith("at 5 players all of them, each in turn in a second seat")


def test_a_game_with_enough_players_keeps_its_one_line_up(tmp_path: Path) -> None:
    """Carpe Diem's whatif file (its pages) unchanged: one lineup, every N of the four."""
    build("b05", [parse_set("objective.B05.reward.vp=6")], None, tmp_path, [2, 3, 4],
          ["scripted"], 1, {"scripted": 1000})
    text = (tmp_path / "changes" / "whatif.toml").read_text()
    assert 'lineup = ["greedy", "villa", "landscape", "bread"]\n' in text
    assert "lineups" not in text and "second seat" not in text


def test_more_seats_than_names_doubles_each_in_turn() -> None:
    names = ["a", "b", "c"]
    assert lineups_at(names, 2) == [["a", "b"], ["a", "c"], ["b", "c"]]
    assert lineups_at(names, 4) == [["a", "a", "b", "c"], ["a", "b", "b", "c"],
                                    ["a", "b", "c", "c"]]
    five = lineups_at(names, 5)
    assert len(five) == 6 and all(len(x) == 5 and set(x) == set(names) for x in five)
    assert ["a", "b", "b", "c", "c"] in five


def test_a_refusal_of_the_written_study_names_the_flags(tmp_path: Path) -> None:
    """A list of 51 values passes every value's own check and is refused by the study file's
    sweep (at most 50): said of the --set, not of changes/whatif.toml."""
    change = parse_set("fountain.F01.vp=" + ",".join(map(str, range(51))))
    with pytest.raises(CdsimError) as refused:
        build("many", [change], None, tmp_path, [2], ["scripted"], 1, {"scripted": 1000})
    line = str(refused.value)
    assert line.startswith(f"--set {change.spelled}: sweep 'F01-vp': values must have at most "
                           "50 entries"), line
    assert "whatif.toml" not in line and str(tmp_path) not in line, line


def test_a_mediterranean_whatif_plays_at_3_4_and_5_players(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    core_or_skip()
    out = tmp_path / "w"
    monkeypatch.setattr("sys.argv", ["cdsim"])
    code, err = run_main(["whatif", "--game", "mediterranean", "--set",
                          "rules.start_gold.value=8", "--games", "600", "--minutes", "0.5",
                          "--jobs", "1", "--quiet", "--out", str(out)], monkeypatch, capsys)
    assert code == 0, err
    assert "whatif.toml" not in err
    manifest = json.loads((out / "study-manifest.json").read_text())
    played = {c["players"] for c in manifest["whatif"]["comparisons"] if c["games"] > 0}
    assert played == {3, 4, 5}, manifest["whatif"]["comparisons"]
    assert (out / "study.html").is_file()
