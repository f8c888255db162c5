"""cdsim whatif's changes are checked as one set (issue 61 item 5): several --sets, and an
override file with them, become one override checked once as a whole, so a swap that keeps
a total (84 light tiles, R1.1; Castles' 21 player tiles, T1.2) is accepted; a refusal that a
companion change would fix says so and names the override file route."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cdsim.errors import CdsimError
from cdsim.games import game_spec
from cdsim.games.carpe_diem.rules.components import load_components
from cdsim.study.whatif import build, parse_set, variants
from tests.commands import run_main
from tests.conftest import core_or_skip

SWAP = ["tile.L-bakery.count=7", "tile.L-market.count=3"]  # 5 and 5 in the box: still 84


def counts(path: str) -> dict[str, int]:
    return {t.id: t.count for t in load_components(path).tile_types}


def test_a_swap_that_keeps_the_total_is_one_accepted_set(tmp_path: Path) -> None:
    (variant,) = variants([parse_set(s) for s in SWAP], None, tmp_path / "changes")
    assert variant.description == ", ".join(SWAP)
    assert variant.components is not None
    got = counts(variant.components)
    assert (got["L-bakery"], got["L-market"]) == (7, 3)
    # an override file with a --set: together, the same set
    override = tmp_path / "bakery.toml"
    override.write_text('base = "default"\n\n[[tile]]\nid = "L-bakery"\ncount = 7\n')
    (with_file,) = variants([parse_set(SWAP[1])], override, tmp_path / "with-file")
    assert with_file.components is not None
    assert load_components(with_file.components).digest == \
        load_components(variant.components).digest
    # a list of values on top of the swap: each value checked on the swapped set
    (sweep,) = variants([*(parse_set(s) for s in SWAP), parse_set("fountain.F01.vp=3,4")],
                        None, tmp_path / "sweep")
    assert sweep.base is not None and counts(sweep.base)["L-bakery"] == 7


def test_a_change_a_companion_would_fix_says_so(tmp_path: Path) -> None:
    with pytest.raises(CdsimError) as refused:
        variants([parse_set(SWAP[0])], None, tmp_path / "alone")
    line = str(refused.value)
    assert line.startswith(f"--set {SWAP[0]}: 86 light tiles, the game has 84"), line
    assert "companion change that lowers another entry's count by 2" in line, line
    assert "--components FILE" in line and "\n" not in line, line
    # a problem no companion fixes says nothing of one
    with pytest.raises(CdsimError) as other:
        variants([parse_set("tile.L-bakery.chimneys=-1")], None, tmp_path / "bad")
    assert "companion" not in str(other.value)


def test_castles_sets_are_checked_as_one_set(tmp_path: Path) -> None:
    core_or_skip()
    castles = game_spec("castles")
    swap = [parse_set(s, castles) for s in ("player_tiles.village.count=5",
                                            "player_tiles.cart.count=2")]
    study = build("swap", swap, None, tmp_path / "ok", [2], ["scripted"], 1,
                  {"scripted": 1000}, castles)
    (variant,) = study.variants
    assert variant.components is not None
    tiles = json.loads(Path(variant.components).read_text())["player_tiles"]
    assert [t["count"] for t in tiles[:2]] == [5, 2]
    with pytest.raises(CdsimError) as refused:
        build("alone", swap[:1], None, tmp_path / "alone", [2], ["scripted"], 1,
              {"scripted": 1000}, castles)
    line = str(refused.value)
    assert line.startswith("--set 'player_tiles.village.count=5': castles player_tiles: 22 "
                           "tiles"), line
    assert "lowers another entry's count by 1" in line and "--components FILE" in line, line


def test_the_swap_plays(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                        capsys: pytest.CaptureFixture[str]) -> None:
    core_or_skip()
    out = tmp_path / "wi"
    code, err = run_main(["whatif", "--set", SWAP[0], "--set", SWAP[1], "--players", "2",
                          "--play", "scripted", "--games", "400", "--out", str(out),
                          "--quiet"], monkeypatch, capsys)
    assert code == 0, err
    manifest = json.loads((out / "study-manifest.json").read_text())
    (comparison,) = manifest["whatif"]["comparisons"]
    assert comparison["games"] > 0
    assert "L-bakery-count-7_L-market-count-3" in {c["key"].split(".", 2)[-1]
                                                   for c in manifest["cells"]}


@pytest.mark.parametrize("game", ["carpe-diem", "castles"])
def test_too_few_games_names_the_flag_not_a_generated_file(
        game: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 61 item 9: --games below a first look is said of --games, with the fewest a
    look needs, not of the study file whatif writes; nothing is left behind."""
    core_or_skip()
    change = "objective.B05.reward.vp=6" if game == "carpe-diem" else \
        "colour_bonus.castle.first=6"
    out = tmp_path / "w"
    code, err = run_main(["whatif", "--game", game, "--players", "2", "--games", "100",
                          "--set", change, "--out", str(out)], monkeypatch, capsys)
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1, err
    assert lines[0].startswith("cdsim: error: --games 100: too few for the first look at 2 "
                               "players (scripted play needs at least 360 games a side"), err
    assert "whatif.toml" not in err and not out.exists()


def test_the_card_margin_is_recorded_with_the_whatif(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 62: --card-margin is the whatif's, kept in its manifest for its report and page
    (``card_margin_of``); a whatif recorded before it was judges at cards.CARD_MARGIN."""
    core_or_skip()
    from cdsim.analysis.cards import CARD_MARGIN
    from cdsim.study.results import card_margin_of
    from cdsim.study.store import study_manifest_of

    out = tmp_path / "w"
    code, err = run_main(["whatif", "--players", "2", "--games", "3000", "--play", "scripted",
                          "--set", "objective.B05.reward.vp=6", "--card-margin", "0.1",
                          "--out", str(out), "--quiet"], monkeypatch, capsys)
    assert code == 0, err
    manifest = study_manifest_of(out)
    assert manifest.whatif is not None and manifest.whatif.card_margin == 0.1
    assert card_margin_of(manifest) == 0.1
    older = manifest.model_copy(update={"whatif": manifest.whatif.model_copy(
        update={"card_margin": None})})
    assert card_margin_of(older) == CARD_MARGIN
    # the page's and study report's answers judge its card lines at the recorded margin
    from cdsim.study.results import read_results
    from cdsim.study.whatif_answer import answers

    lines = [line for a in answers(read_results(out)) for line in a.cards
             if line.startswith("B05: ")]
    assert lines and all("card margin of ±10.0 pts" in x or "needs more games" in x
                         for x in lines), lines
    assert any("card margin of ±10.0 pts" in x for x in lines), lines


def test_a_total_refused_under_any_games_rule_number_finds_its_companion() -> None:
    """The refusal's rule number is read as any game's (T1.2, M1.3, R1.1), not Castles'."""
    from cdsim.study.whatif import companion
    for rule in ("T1.2", "M1.3", "R10.4"):
        assert "raises another entry's count by 1" in companion(f"x: 5 goods; {rule} needs 6")
