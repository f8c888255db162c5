"""Overrides: a component set as a base and only what changes (docs/components.md), and
`cdsim components export` / `diff` / `show` around them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

from cdsim.errors import ComponentError
from cdsim.games.carpe_diem.handover import components_dict
from cdsim.games.carpe_diem.rules.components import DATA_DIR, FILES, compare, component_texts, load_components
from cdsim.games.carpe_diem.rules.overrides import toml_text
from tests import test_replay
from tests.conftest import core_or_skip

ROOT = Path(__file__).resolve().parents[1]
B05 = 'base = "default"\n[[objective]]\nid = "B05"\nreward = { vp = 6 }\n'
browser = test_replay.browser  # the headless chromium fixture (skips where there is none)


def cdsim(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "CDSIM_COMPONENTS"}
    return subprocess.run([sys.executable, "-m", "cdsim", *args], capture_output=True, text=True,
                          check=False, cwd=cwd, env={**env, "PYTHONPATH": str(ROOT)})


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def default_card(card_id: str) -> dict[str, Any]:
    cards = tomllib.loads((DATA_DIR / "cards.toml").read_text())["objective"]
    card: dict[str, Any] = next(c for c in cards if c["id"] == card_id)
    return card


def test_three_lines_change_b05_and_nothing_else(tmp_path: Path) -> None:
    base, mine = load_components(), load_components(write(tmp_path / "b05.toml", B05))
    assert mine.objectives["B05"].vp == 6 != base.objectives["B05"].vp
    assert {k: v for k, v in mine.objectives.items() if k != "B05"} == {
        k: v for k, v in base.objectives.items() if k != "B05"}
    assert list(mine.objectives) == list(base.objectives)  # the decks are drawn in file order
    assert mine.decks == base.decks and mine.tile_types == base.tile_types
    assert mine.digest != base.digest and not mine.is_default
    core = components_dict(mine)  # what the compiled core is handed
    assert next(o for o in core["objectives"] if o["id"] == "B05")["vp"] == 6
    assert core["digest"] == mine.digest
    assert [c.line() for c in mine.changes] == [
        f"objective card 'B05': reward.vp: {base.objectives['B05'].vp} -> 6"]
    assert mine.base == "default"


@pytest.mark.parametrize("text", [
    'base = "default"\n',
    'base = "default"\n[[objective]]\nid = "B05"\nreward = {{ vp = {vp} }}\n',
    'base = "default"\n[villa_table]\nper_extra_chimney = {extra}\n',
])
def test_an_override_equal_to_its_base_is_the_base(tmp_path: Path, text: str) -> None:
    base = load_components()
    text = text.format(vp=base.objectives["B05"].vp, extra=base.villa_points_per_extra)
    same = load_components(write(tmp_path / "same.toml", text))
    assert same.digest == base.digest and same.is_default and not same.changes


def test_a_table_given_replaces_the_whole_key(tmp_path: Path) -> None:
    """reward = { coins = 1 } is the card's whole reward, as printed: its bread goes."""
    card = default_card("C13")
    assert card["reward"] == {"coins": 1, "bread": 1}  # the card this test is about
    mine = load_components(write(tmp_path / "c13.toml", 'base = "default"\n[[objective]]\n'
                                 'id = "C13"\nreward = { coins = 1 }\n'))
    assert (mine.objectives["C13"].coins, mine.objectives["C13"].bread) == (1, 0)
    assert [c.line() for c in mine.changes] == ["objective card 'C13': reward.bread: 1 -> 0"]


def test_an_entry_is_removed_and_another_added(tmp_path: Path) -> None:
    text = ('base = "default"\n[[objective]]\nid = "B05"\nremove = true\n'
            '[[objective]]\nid = "B99"\ndeck = "B"\ntype = "pay"\nrequires = { grapes = 4 }\n'
            'reward = { vp = 9 }\nprovenance = "reconstructed"\n')
    mine = load_components(write(tmp_path / "swap.toml", text))
    assert "B05" not in mine.objectives and mine.objectives["B99"].requires == ((0, 4),)
    assert mine.decks["B"][-1] == "B99" and len(mine.objectives) == 60
    assert [c.line() for c in mine.changes] == ["objective card 'B99': added",
                                                "objective card 'B05': removed"]


def test_a_base_may_be_an_override_folder_or_file_relative_to_the_override(tmp_path: Path) -> None:
    write(tmp_path / "b05.toml", B05)
    chain = write(tmp_path / "sub" / "f01.toml",
                  'base = "../b05.toml"\n[[fountain]]\nid = "F01"\nvp = 5\n')
    mine, default = load_components(chain), load_components()
    assert mine.objectives["B05"].vp == 6 and mine.fountains["F01"].vp == 5
    f01 = f"fountain card 'F01': vp: {default.fountains['F01'].vp} -> 5"
    assert [c.line() for c in mine.changes] == [f01]  # from its own base
    assert [c.line() for c in compare("default", chain)] == [  # both, from the default set
        f"objective card 'B05': reward.vp: {default.objectives['B05'].vp} -> 6", f01]
    folder = tmp_path / "set"
    folder.mkdir()
    (folder / "scoring.toml").write_bytes((DATA_DIR / "scoring.toml").read_bytes())
    on_folder = load_components(write(tmp_path / "on-folder.toml", 'base = "set"\n'))
    assert on_folder.digest == load_components(folder).digest


@pytest.mark.parametrize(("text", "where"), [
    ('[[objective]]\nid = "B5"\nreward = { vp = 6 }\n',
     "objective card 'B5': the base has no such objective card"),
    ('[[objective]]\nid = "B05"\nrewrd = { vp = 6 }\n',
     "objective card 'B05': unknown key 'rewrd' (did you mean 'reward'?"),
    ('[[objective]]\nid = "B05"\nreward = { vp = "6" }\n',
     "objective card 'B05': reward.vp must be an integer, got '6'"),
    ('[[objective]]\nid = "B05"\nreward = { vp = 1001 }\n',
     "objective card 'B05': reward.vp must be between 0 and 1000, got 1001"),
    ('[[objective]]\nid = "B05"\nremove = true\n', "59 objective cards, the game has 60"),
    ('[[objective]]\nid = "B55"\nremove = true\n', "objective card 'B55': cannot remove it"),
    ('[[objective]]\nid = "B05"\nremove = true\nreward = { vp = 6 }\n',
     "objective card 'B05': remove takes only remove = true"),
    ('[[objective]]\nreward = { vp = 6 }\n', "objective card 1: id is required"),
    ('[[objective]]\nid = "B05"\n[[objective]]\nid = "B05"\n', "objective card 'B05': given twice"),
    ('[[objectives]]\nid = "B05"\n', "unknown table 'objectives' (did you mean 'objective'?"),
    ("[objective]\nid = 'B05'\n", "objective must be an array of tables"),
    ("[scroll_track]\npoints = 3\n", "scroll_track.points must be a list, got 3"),
])
def test_a_bad_override_is_one_line_naming_file_entry_and_key(
        tmp_path: Path, text: str, where: str) -> None:
    path = write(tmp_path / "bad.toml", 'base = "default"\n' + text)
    with pytest.raises(ComponentError) as err:
        load_components(path)
    assert str(err.value).startswith(f"{path}: {where}") and "\n" not in str(err.value)


@pytest.mark.parametrize(("ident", "meant"), [
    ("B5", "B05"), ("b05", "B05"), ("b5", "B05"), ("B015", "B15"), ("B15x", "B15"),
])
def testdid_you_mean_knows_case_and_leading_zeros(tmp_path: Path, ident: str,
                                                   meant: str) -> None:
    """Issue 41: "did you mean 'B15'?" for B5 and "'D05'?" for b05: an id that differs
    from a card's only in case or leading zeros means that card."""
    path = write(tmp_path / "bad.toml",
                 f'base = "default"\n[[objective]]\nid = "{ident}"\nreward = {{ vp = 6 }}\n')
    with pytest.raises(ComponentError, match=f"no such objective card \\(did you mean '{meant}'"):
        load_components(path)
    removed = write(tmp_path / "gone.toml", 'base = "default"\n[[fountain]]\nid = "f1"\n'
                                           'remove = true\n')
    with pytest.raises(ComponentError, match=r"cannot remove it.*did you mean 'F01'"):
        load_components(removed)


@pytest.mark.parametrize(("files", "message"), [
    ({"bad.toml": 'base = "nowhere"\n'}, "bad.toml: base 'nowhere': no such component file"),
    ({"bad.toml": "base = 3\n"}, "bad.toml: base must be \"default\" or a component folder"),
    ({"bad.toml": 'base = "two.toml"\n', "two.toml": 'base = "bad.toml"\n'},
     "bad.toml: base: the bases go round in a cycle ("),
    ({"bad.toml": 'base = "bad.toml"\n'}, "bad.toml: base: the bases go round in a cycle"),
    ({"bad.toml": '[[objective]]\nid = "B05"\nreward = { vp = 6 }\n'},
     "bad.toml: objective card 'B05': deck is required (to change only some entries, start "
     'the file with base = "default"'),
])
def test_bad_bases_are_one_line(tmp_path: Path, files: dict[str, str], message: str) -> None:
    for name, text in files.items():
        write(tmp_path / name, text)
    with pytest.raises(ComponentError) as err:
        load_components(tmp_path / "bad.toml")
    assert message in str(err.value) and "\n" not in str(err.value)


def test_an_override_inside_a_folder_is_refused(tmp_path: Path) -> None:
    write(tmp_path / "set" / "cards.toml", B05)
    with pytest.raises(ComponentError, match=r"cards\.toml: base: an override is a file of its own"):
        load_components(tmp_path / "set")


def test_the_default_set_can_be_named(tmp_path: Path) -> None:
    assert load_components("default") is load_components()


def test_toml_text_reads_back_as_the_same_tables() -> None:
    for name in FILES:
        tables = tomllib.loads((DATA_DIR / f"{name}.toml").read_text())
        assert tomllib.loads(toml_text(tables)) == tables


# -- on the command line -------------------------------------------------------------------------

def test_the_override_simulates_with_its_digest(tmp_path: Path) -> None:
    core_or_skip()
    import polars as pl

    write(tmp_path / "b05.toml", B05)
    write(tmp_path / "same.toml", 'base = "default"\n')
    games = {}
    for name, extra in (("default", ()), ("b05", ("--components", "b05.toml")),
                        ("same", ("--components", "same.toml"))):
        out = cdsim("simulate", "--out", name, "--players", "3", "--games", "60", "--strategies",
                    "greedy", "--jobs", "2", "--quiet", *extra, cwd=tmp_path)
        assert out.returncode == 0, out.stderr
        manifest = json.loads((tmp_path / name / "manifest.json").read_text())
        components = extra[1] if extra else None
        assert manifest["components_digest"] == load_components(
            tmp_path / components if components else None).digest
        games[name] = pl.read_parquet(tmp_path / name / "games" / "*.parquet").sort("game", "seat")
    assert games["same"].equals(games["default"])  # no change: the same games
    assert not games["b05"]["vp_cards"].equals(games["default"]["vp_cards"])
    assert games["b05"]["setup"].equals(games["default"]["setup"])  # on the same deals


def test_check_lists_what_an_override_changes(tmp_path: Path) -> None:
    write(tmp_path / "b05.toml", B05)
    out = cdsim("components", "check", "b05.toml", cwd=tmp_path)
    vp = load_components().objectives["B05"].vp
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[1:3] == ["changes from default: 1 key",
                                            f"  objective card 'B05': reward.vp: {vp} -> 6"]


def test_diff_lists_changed_entries_either_way(tmp_path: Path) -> None:
    write(tmp_path / "b05.toml", B05)
    vp = load_components().objectives["B05"].vp
    out = cdsim("components", "diff", "default", "b05.toml", cwd=tmp_path)
    assert (out.returncode, out.stdout) == (0, f"objective card 'B05': reward.vp: {vp} -> 6\n")
    out = cdsim("components", "diff", "b05.toml", "default", cwd=tmp_path)
    assert out.stdout == f"objective card 'B05': reward.vp: 6 -> {vp}\n"
    out = cdsim("components", "diff", "default", str(DATA_DIR), cwd=tmp_path)
    assert (out.returncode, out.stdout) == (0, "no differences\n")
    out = cdsim("components", "diff", "default", "missing.toml", cwd=tmp_path)
    assert out.returncode == 2 and out.stderr.count("\n") == 1
    assert "missing.toml: no such component file or folder" in out.stderr


def test_export_writes_the_shipped_set_which_loads_as_the_default(tmp_path: Path) -> None:
    out = cdsim("components", "export", "mine", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    for name in FILES:
        assert (tmp_path / "mine" / f"{name}.toml").read_bytes() == (
            DATA_DIR / f"{name}.toml").read_bytes()
    assert load_components(tmp_path / "mine").digest == load_components().digest
    out = cdsim("components", "export", "mine", cwd=tmp_path)
    assert out.returncode == 2 and out.stderr.count("\n") == 1 and "mine: not empty" in out.stderr
    assert "--force" in out.stderr
    assert cdsim("components", "export", "mine", "--force", cwd=tmp_path).returncode == 0


def test_an_exported_override_is_the_same_set(tmp_path: Path) -> None:
    write(tmp_path / "b05.toml", B05)
    out = cdsim("components", "export", "merged", "--components", "b05.toml", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    merged = load_components(tmp_path / "merged")
    assert merged.digest == load_components(tmp_path / "b05.toml").digest
    assert merged.objectives["B05"].vp == 6
    assert component_texts(tmp_path / "b05.toml")["tiles"] == (DATA_DIR / "tiles.toml").read_bytes()


def test_a_study_variant_may_be_an_override(tmp_path: Path) -> None:
    from cdsim.study.model import load_study

    write(tmp_path / "variants" / "b05.toml", B05)
    study = write(tmp_path / "study.toml", 'name = "b05"\nseed = 1\ngames = 720\nplayers = [3]\n'
                  '[[population]]\nname = "random"\nlineup = ["random"]\n'
                  '[[variant]]\nname = "B05-at-6"\ncomponents = "variants/b05.toml"\n')
    variant = load_study(study).variants[0]
    assert variant.digest == load_components(tmp_path / "variants" / "b05.toml").digest
    assert variant.digest != load_components().digest


# -- the component sheet ---------------------------------------------------------------------------

def test_the_sheet_marks_what_an_override_changed(browser: Any, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    write(tmp_path / "b05.toml", B05)
    page = tmp_path / "sheet.html"
    out = cdsim("components", "show", "--components", "b05.toml", "--html", str(page), cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    test_replay.open_page(browser, page)
    marked = browser.find_elements(By.CSS_SELECTOR, ".changed")
    assert [m.get_attribute("data-card") for m in marked] == ["B05"]
    card = marked[0]
    vp = load_components().objectives["B05"].vp
    note = card.find_element(By.CSS_SELECTOR, ".changed-note")
    assert note.is_displayed() and note.text == f"reward.vp: {vp} \u2192 6"
    assert f"{vp} \u2192 6" in card.get_attribute("title")
    outline = browser.execute_script("return getComputedStyle(arguments[0]).outlineStyle", card)
    assert outline == "solid"
    listed = browser.find_element(By.CSS_SELECTOR, "#changes-section")
    assert listed.is_displayed() and "objective B05" in listed.text
    plain = tmp_path / "default.html"
    assert cdsim("components", "show", "--html", str(plain), cwd=tmp_path).returncode == 0
    test_replay.open_page(browser, plain)
    assert not browser.find_elements(By.CSS_SELECTOR, ".changed")
    assert not browser.find_element(By.CSS_SELECTOR, "#changes-section").is_displayed()
