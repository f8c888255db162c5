"""The component set is data, validated on load (docs/rules.md C1–C10)."""

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from cdsim.errors import ComponentError
from cdsim.games.carpe_diem.rules.components import (
    DATA_DIR,
    FILES,
    SCHEMAS,
    Board,
    ObjectiveCard,
    TileType,
    load_components,
)
from cdsim.games.carpe_diem.rules.kinds import BAKERY, MEADOW, VILLA
from cdsim.schema import dump, validate


def test_default_set_matches_the_rulebook_counts() -> None:  # R1.1, R1.4
    c = load_components()
    assert (len(c.light), len(c.dark)) == (84, 39)
    assert len(c.objectives) == 60 and len(c.fountains) == 24
    assert all(len(c.decks[d]) == 15 for d in "ABCD")
    assert c.is_default
    assert all(c.tile_types[t].dark for t in c.dark)


# docs/rules.md C7: the cards the rulebook prints (A06 is its worked example); a second
# copy of a rulebook card (B06, B07, C02, C04, C06, C08, D08) is reconstructed.
RULEBOOK_CARDS = {"A02", "A06", "A07", "B01", "B05", "C01", "C03", "C05", "C07", "D01", "D05",
                  "D07", "D09"}


def test_card_provenance_follows_components_c7() -> None:  # R1.4, C7
    c = load_components()
    assert {k for k, v in c.objectives.items() if v.provenance == "rulebook"} == RULEBOOK_CARDS
    assert {v.provenance for v in c.fountains.values()} == {"reconstructed"}  # C8


def test_villa_table_rulebook_points() -> None:  # R10.1, C6
    c = load_components()
    assert [c.villa_points(n) for n in (1, 2, 3, 5)] == [0, 1, 3, 7]
    assert c.villa_points(40) == 2 * 40 - 3


def test_rotations_are_precomputed_and_distinct() -> None:  # R5.2
    c = load_components()
    by_id = {t.id: t for t in c.tile_types}
    assert len(by_id["L-market"].orientations) == 1
    assert len(by_id["L-villa-straight-1"].orientations) == 2
    assert len(by_id["L-villa-end-1"].orientations) == 4


def _copy_with(tmp_path: Path, name: str, old: str, new: str) -> Path:
    for f in DATA_DIR.glob("*.toml"):
        shutil.copy(f, tmp_path / f.name)
    path = tmp_path / name
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))
    return tmp_path


@pytest.mark.parametrize(("name", "old", "new", "message"), [
    ("tiles.toml", 'edges = "V G G G"\nchimneys = 1\ncount = 4',
     'edges = "V G G G"\nchimneys = 1\ncount = 3', "83 light tiles"),
    ("tiles.toml", 'edges = "V G G G"', 'edges = "V G X G"', "unknown edge code 'X'"),
    ("cards.toml", "reward = { vp = 4 }", "reward = { }", "objective card 'A01': a card with no reward"),
    ("cards.toml", 'requires = { grapes = 2 }', 'requires = { wine = 2 }',
     "objective card 'A01': requires: unknown pay requirement 'wine' (known: grapes herbs"),
    ("boards.toml", '"..S..S",', '"..S...",', "9 scroll spaces"),
    ("frames.toml", "line = 1", "line = 7", "frame part 1: goals.0.line must be between 0 and 5, got 7"),
    ("scoring.toml", 'provenance = "reconstructed"', 'provenance = "guess"', "provenance"),
    ("tiles.toml", 'edges = "P G G G"', 'edges = "P G P G"', "only ends and corners"),
    ("tiles.toml", "count = 4", "cnt = 4", "unknown key 'cnt' (did you mean 'count'?"),
    ("tiles.toml", 'id = "L-villa-end-1"', 'id = ["L-villa-end-1"]',
     "id must be a string, got ['L-villa-end-1']"),
    ("cards.toml", "reward = { vp = 4 }", 'reward = { vp = "4" }',
     "objective card 'A01': reward.vp must be an integer, got '4'"),
    ("cards.toml", "reward = { vp = 4 }", "reward = { vp = true }", "reward.vp must be an integer"),
    ("scoring.toml", "[villa_table]", "[villa_tabel]", "unknown key 'villa_tabel'"),
])
def test_bad_component_files_are_rejected_with_one_line(
        tmp_path: Path, name: str, old: str, new: str, message: str) -> None:
    folder = _copy_with(tmp_path, name, old, new)
    with pytest.raises(ComponentError) as err:
        load_components(folder)
    text = str(err.value)
    assert message in text and name in text and "\n" not in text


def test_a_partial_folder_replaces_only_its_files(tmp_path: Path) -> None:
    text = (DATA_DIR / "scoring.toml").read_text().replace("per_extra_chimney = 2",
                                                           "per_extra_chimney = 3")
    (tmp_path / "scoring.toml").write_text(text)
    c = load_components(tmp_path)
    assert not c.is_default and c.villa_points(40) > load_components().villa_points(40)
    assert c.digest != load_components().digest


def test_invalid_toml_names_the_file(tmp_path: Path) -> None:
    (tmp_path / "cards.toml").write_text("[[objective]\n")
    with pytest.raises(ComponentError, match=r"cards\.toml: not valid TOML"):
        load_components(tmp_path)


# -- each record declared once: the dataclass the rules play with is the file's schema ------

def test_the_records_are_made_and_checked_without_pydantic() -> None:
    # pydantic costs the command line's start: only reading a file imports it
    code = ("import sys; from cdsim.games.carpe_diem.rules.components import TileType; "
            "TileType(id='t', deck='light', edges=(0, 0, 0, 0), building=11, count=1, "
            "provenance='rulebook'); print(sorted(m for m in sys.modules if 'pydantic' in m))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_a_record_made_in_code_keeps_the_rules_a_file_is_held_to() -> None:
    tile = TileType(id="t", deck="light", edges=(VILLA, MEADOW, MEADOW, MEADOW), chimneys=2,
                    count=1, provenance="rulebook")
    assert len(tile.orientations) == 4 and not tile.dark and tile.building == 0
    with pytest.raises(ValueError, match="a villa part needs at least one chimney"):
        TileType(id="t", deck="light", edges=(VILLA, MEADOW, MEADOW, MEADOW), count=1,
                 provenance="rulebook")
    with pytest.raises(ValueError, match="sits on an all-meadow tile"):
        TileType(id="t", deck="dark", edges=(VILLA, MEADOW, MEADOW, MEADOW), chimneys=1,
                 building=BAKERY, count=1, provenance="rulebook")
    with pytest.raises(ValueError, match="exactly one spade"):
        Board(id=1, rows=("..S..S", "S.....", "...S..", "..S..S", ".S..S.", "S..S.."),
              provenance="rulebook")
    card = load_components().objectives["A06"]
    assert (card.vp, card.coins, card.bread, card.steps) == tuple(card.reward)
    assert isinstance(card, ObjectiveCard)


def _written_as_read(read: object, written: object) -> bool:
    """``written`` holds every key of ``read`` as it reads, and the rest at their defaults."""
    if isinstance(read, dict) and isinstance(written, dict):
        return all(k in written and _written_as_read(v, written[k]) for k, v in read.items()
                   ) and all(written[k] in (0, None) for k in written.keys() - read.keys())
    if isinstance(read, list) and isinstance(written, list):
        return len(read) == len(written) and all(map(_written_as_read, read, written))
    return type(read) is type(written) and read == written


@pytest.mark.parametrize("name", FILES)
def test_each_file_is_written_back_as_it_reads(name: str) -> None:
    # what ``components diff`` compares: every key as the file spells it, defaults written out
    tables = tomllib.loads((DATA_DIR / f"{name}.toml").read_text())
    record = validate(SCHEMAS[name], tables)
    assert _written_as_read(tables, dump(record))
    assert not _written_as_read(tables, {**dump(record), "extra": 1})
