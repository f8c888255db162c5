"""A study of another game (``game = "castles"`` in a study file): its cells play that game's
runs, its manifest's cells name it (Carpe Diem's do not, as before there were games), its page
says which game and which rule breaks ties, and bad input for it is one line naming the
file and the entry."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from cdsim import core
from cdsim.analysis.candidates import CellGames, win_table
from cdsim.analysis.cell import shares_of
from cdsim.study import skill
from tests.commands import run_main
from tests.study_cells import cell_result, verdict

pytestmark = pytest.mark.skipif(not core.available(), reason="needs the compiled core")

STUDY = """
name = "c"
game = "castles"
seed = 2
players = [2, 4]
radius = 2
chunk_size = 500
[[population]]
name = "random"
lineup = ["random"]
games = 2000
[[population]]
name = "scripted"
lineup = ["greedy", "castle-monastery", "trade-workers", "animal-farms"]
games = 4000
"""


def test_a_castles_study_plays_and_reports_its_game(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    study = tmp_path / "c.toml"
    study.write_text(STUDY)
    code, err = run_main(["study", "run", str(study), "--out", str(tmp_path / "s"), "-q"],
                         monkeypatch, capsys)
    assert code == 0, err
    manifest = json.loads((tmp_path / "s" / "study-manifest.json").read_text())
    assert {c["game"] for c in manifest["cells"]} == {"castles"}
    code, err = run_main(["study", "report", str(tmp_path / "s")], monkeypatch, capsys)
    assert code == 0, err
    runs = list((tmp_path / "s" / "cells").glob("*/manifest.json"))
    assert runs and all(json.loads(r.read_text())["config"]["game"] == "castles" for r in runs)
    rulebook = {c["key"]: c["rulebook"] for c in manifest["cells"]}
    assert rulebook["2p.scripted"] == [0, 0] and rulebook["4p.scripted"] == [0, 0, 0, 0]
    page = (tmp_path / "s" / "study.md").read_text()
    assert page.startswith("# cdsim study: c (The Castles of Tuscany)")
    assert "ties by the logged T13.2 order" in page and "docs/rules-castles.md" in page
    assert "R10.6" not in page and "docs/rules.md" not in page
    # the rulebook starts every seat at 0: no compensation, never "rulebook 0/0"
    html = (tmp_path / "s" / "study.html").read_text()
    for text in (page, html):
        assert "no compensation (" in text and "rulebook 0/0" not in text
        assert "rulebook **0/0" not in text and "rulebook <strong>0/0" not in text
        # nor "the rulebook's 0/0" in the sentences and captions (audit of issue 60, item 6)
        assert not re.search(r"rulebook(?:'|&#x27;)s (?:starting VP )?0/0", text)
    assert "Win share by seat with no compensation (every seat 0) on every game" in page
    assert "the last series marks no compensation (every seat 0)." in page


def test_a_carpe_diem_study_manifest_does_not_name_the_game(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    study = tmp_path / "d.toml"
    study.write_text('name = "d"\nplayers = [2]\nradius = 1\n[[population]]\nname = "r"\n'
                     'lineup = ["random"]\ngames = 1000\n')
    code, err = run_main(["study", "run", str(study), "--out", str(tmp_path / "s"), "-q"],
                         monkeypatch, capsys)
    assert code == 0, err
    manifest = json.loads((tmp_path / "s" / "study-manifest.json").read_text())
    assert all("game" not in c for c in manifest["cells"])
    code, err = run_main(["study", "report", str(tmp_path / "s")], monkeypatch, capsys)
    assert code == 0, err
    page = (tmp_path / "s" / "study.md").read_text()
    assert "(The Castles" not in page
    assert "rulebook **8/9**" in page and "no compensation" not in page
    assert "Win share by seat at the rulebook's starting VP 8/9 on every game" in page


@pytest.mark.parametrize(("change", "said"), [
    (('game = "castles"', 'game = "castle"'), "game: unknown game 'castle'"),
    (('"greedy", "castle-monastery"', '"villa", "castle-monastery"'),
     "population 'scripted': 'villa' is not a castles player"),
    (("players = [2, 4]", "players = [2, 5]"), "players"),
    (("radius = 2", 'radius = 2\nstrategy_params = "greedy.chimney=1"'),
     "castles players take no parameters"),
    (("chunk_size = 500", 'chunk_size = 500\n[[sweep]]\nname = "w"\nentry = "B05"\n'
      'key = "reward.vp"\nvalues = [4, 6]'), "a castles study takes variants"),
])
def test_bad_input_in_a_castles_study_is_one_line(
        change: tuple[str, str], said: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    study = tmp_path / "c.toml"
    assert change[0] in STUDY
    study.write_text(STUDY.replace(change[0], change[1]))
    code, err = run_main(["study", "run", str(study), "--out", str(tmp_path / "s"), "-q"],
                         monkeypatch, capsys)
    assert code == 2 and str(study) in err and said in err, err
    assert len(err.strip().splitlines()) == 1, err


def test_whatif_of_a_castles_change_plays_it_against_the_base(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "w"
    monkeypatch.setattr("sys.argv", ["cdsim"])
    code, err = run_main(["whatif", "--game", "castles", "--set", "colour_bonus.castle.first=8,2",
                          "--players", "2", "--games", "2000", "--minutes", "0", "--quiet",
                          "--out", str(out)], monkeypatch, capsys)
    assert code == 0, err
    said = capsys.readouterr().out
    files = sorted((out / "changes").glob("*.json"))
    assert [f.name for f in files] == ["castle-first-2.json", "castle-first-8.json"]
    for f, value in zip(files, (2, 8), strict=True):
        bonus = json.loads(f.read_text())["colour_bonus"]  # only the changed table
        assert [b["first"] for b in bonus if b["colour"] == "castle"] == [value]
        assert set(json.loads(f.read_text())) == {"colour_bonus"}
    assert 'game = "castles"' in (out / "changes" / "whatif.toml").read_text()
    runs = list((out / "cells").glob("*/manifest.json"))
    assert runs and all(json.loads(r.read_text())["config"]["game"] == "castles" for r in runs)
    assert (out / "study.html").is_file(), said
    page = (out / "study.md").read_text()  # the page says what each variant changes
    assert "colour_bonus castle: first 4 -> 8" in page and "not valid TOML" not in page


def test_a_castles_whatif_plays_up_to_its_own_games_a_side(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Castles' games cost a tenth of Carpe Diem's: its quick look may play 200,000 a side
    (cdsim.games.castles.WHATIF_GAMES), where Carpe Diem's 40,000 stopped a farm-card change
    after 11 s of a 3-minute look; --games still caps it."""
    for extra, want in (([], 200_000), (["--games", "3000"], 3000)):
        out = tmp_path / f"w{want}"
        monkeypatch.setattr("sys.argv", ["cdsim"])
        code, err = run_main(["whatif", "--game", "castles", "--set",
                              "colour_bonus.castle.first=8", "--players", "2", "--minutes",
                              "0.02", "--play", "scripted", "--quiet", "--out", str(out),
                              *extra], monkeypatch, capsys)
        assert code == 0, err
        assert f"games = {want}\n" in (out / "changes" / "whatif.toml").read_text()


@pytest.mark.parametrize(("args", "said"), [
    (["--set", "colour_bonus.nope.first=3"], "colour_bonus has no entry 'nope'"),
    (["--set", "tables.castle.first=3"], "unknown table 'tables'"),
    (["--set", "objective.B05.reward.vp=6"], "unknown table 'objective'"),
    (["--set", "colour_bonus.castle.first=3", "--players", "5"], "--players"),
])
def test_bad_whatif_input_for_castles_is_one_line(
        args: list[str], said: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "w"
    code, err = run_main(["whatif", "--game", "castles", *args, "--out", str(out), "--quiet"],
                         monkeypatch, capsys)
    assert code == 2 and said in err and len(err.strip().splitlines()) == 1, err
    assert not out.exists()  # a refusal leaves nothing behind


# -- the strong cells' figures read as Castles' own -------------------------------------------

def test_a_castles_study_is_not_placed_on_carpe_diem_s_ladder() -> None:
    """The ratings file rates Carpe Diem's players (it names no game); Castles' `learned` and
    `greedy` are other players of the same names, so a Castles study's skill panel has no
    rating from it (drawn apart, the report says so) rather than Carpe Diem's +340 Elo."""
    assert skill.load_ratings()["2"]["ratings"]["learned"]
    assert skill.load_ratings(game="castles") == {}
    rng = np.random.default_rng(0)
    games = CellGames(rng.integers(40, 47, size=(4000, 2)),
                      np.array([[0, 1], [1, 0]])[rng.integers(0, 2, size=4000)], np.arange(4000))
    cells = []
    for population, lineup in (("scripted", "greedy"), ("strong", "learned")):
        c = cell_result(population, (0, 0), [[lineup]], verdict("confirmed", (0, 0), ((0, 0),)),
                        shares_of(win_table(games, [(0, 0)])), stages=(games,), budget=4000,
                        rotate_seats=False)
        cells.append(replace(c, state=c.state.model_copy(update={"game": "castles"})))
    panel = skill.panels(Path("."), cells, [2], 0.02, 0.05)[2]
    assert all(p.rating is None for p in panel.points), panel.points
    assert "strong has no rating (strategies/ratings.json rates no castles players)" in "; ".join(
        panel.notes)
    carpe_diem = skill.panels(Path("."), [replace(c, state=c.state.model_copy(
        update={"game": "carpe-diem"})) for c in cells], [2], 0.02, 0.05)[2]
    assert all(p.rating is not None for p in carpe_diem.points)


def test_replicate_cells_of_castles_games_judge_around_its_own_rulebook(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """scripts/real_continuations draws replicate cells from a pool of real games (how the
    strong budgets are sized); the candidates lie around the pool's own game's rulebook
    vector (0/0 for Castles), not Carpe Diem's 8/9."""
    from scripts.real_continuations import Pool

    run = tmp_path / "pool"
    code, err = run_main(["simulate", "--game", "castles", "-n", "2", "--strategies", "greedy",
                          "--games", "40", "--jobs", "1", "-q", "--out", str(run)],
                         monkeypatch, capsys)
    assert code == 0, err
    pool = Pool.of(str(run))
    assert pool.rule == (0, 0) and pool.deals == 40
    assert pool.vectors.min() == -4 and pool.vectors.max() == 4
    assert len(pool.decide(next(pool.replicates(200, 1, np.random.default_rng(0))), 200).vector) == 2


def _recorded(table: str) -> dict[int, tuple[str, int, int]]:
    """docs/castles.md's table under ``table``: per player count the verdict's vector, the
    games its cell played and the budget they were of."""
    doc = (Path(__file__).parents[1] / "docs" / "castles.md").read_text()
    lines = doc.split(table, 1)[1].split("\n\n", 1)[0].splitlines()
    rows = [line for line in lines if re.match(r"\| \d \|", line)]
    out = {}
    for row in rows:
        m = re.match(r"\| (\d) \| \*\*([-\d/]+)\*\* confirmed [^|]*\| ([\d,]+) of ([\d,]+) \|", row)
        assert m, row
        out[int(m[1])] = (m[2], int(m[3].replace(",", "")), int(m[4].replace(",", "")))
    return out


def test_the_castles_study_s_budgets_hold_the_verdicts_docs_castles_records() -> None:
    """The shipped study has a strong cell (learned in every seat) at 2, 3 and 4 players, and
    every skilled cell's budget is the one docs/castles.md records its verdict on (a budget
    is the test's design: another one judges other stages, so the recorded verdict would no
    longer be the study's), the games it took within it."""
    from cdsim.study.file import resolve
    from cdsim.study.model import load_study

    study = load_study(resolve("castles"))
    cells = {c.state.key: c for c in study.cells}
    assert [c.players for c in study.cells if c.state.population == "strong"] == [2, 3, 4]
    for table, population in (("| players | scripted play |", "scripted"),
                              ("| players | strong play |", "strong")):
        recorded = _recorded(table)
        assert sorted(recorded) == [2, 3, 4], table
        for players, (vector, played, budget) in recorded.items():
            cell = cells[f"{players}p.{population}"]
            assert cell.games == budget and played <= budget, (cell.state.key, budget)
            assert len(vector.split("/")) == players
            if population == "strong":
                assert cell.state.lineups == [["learned"] * players]
