"""The inputs the fuzz run of issue 62 found still breaking, each kept as a case: every one
ends in one line naming the file, key or flag and exit 2, or plays where it is valid input."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from cdsim import core
from cdsim.games import game_spec
from cdsim.games.carpe_diem.players.profiles import PROFILES_FILE
from cdsim.study import whatif as wi
from tests.commands import run_cli
from tests.test_hardening import refused

pytestmark = pytest.mark.skipif(not core.available(), reason="the compiled core plays")

ROOT = Path(__file__).resolve().parents[1]


def cdsim(args: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """``cdsim ARGS`` in its own process (the profiles file is read as cdsim starts)."""
    return subprocess.run([sys.executable, "-m", "cdsim", *args], capture_output=True,
                          text=True, env={**os.environ, "PYTHONPATH": str(ROOT), **env},
                          cwd=cwd, timeout=300)


def one_line(out: subprocess.CompletedProcess[str], *names: str) -> str:
    assert out.returncode == 2, out.stderr
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("cdsim: error: "), out.stderr
    for name in names:
        assert name in lines[0], lines[0]
    return lines[0]


# -- 1. a profiles file's weights are finite numbers --------------------------------------

@pytest.mark.parametrize("value", ["nan", "inf", "-inf"])
@pytest.mark.parametrize("where", ["defaults", "table"])
def test_a_profiles_weight_that_is_not_a_finite_number_is_refused(
        tmp_path: Path, value: str, where: str) -> None:
    text = PROFILES_FILE.read_text(encoding="utf-8")
    if where == "defaults":
        assert "\ncoin = 1.2\n" in text
        text, table, player = text.replace("\ncoin = 1.2\n", f"\ncoin = {value}\n"), \
            "[defaults]", "greedy"
    else:
        text, table, player = text + f'\n[hoarder]\ndescription = "x"\ncoin = {value}\n', \
            "[hoarder]", "hoarder"
    profiles = tmp_path / "p.toml"
    profiles.write_text(text, encoding="utf-8")
    out = cdsim(["play", "--players", "2", "--strategies", player], tmp_path,
                CDSIM_PROFILES=str(profiles))
    one_line(out, str(profiles), table, "coin", "not a finite number")


# -- 2. a deeply nested Castles component file --------------------------------------------

@pytest.mark.parametrize("depth", [5000, 990])
@pytest.mark.parametrize("command", [
    ["components", "check", "--game", "castles"],
    ["play", "--game", "castles", "--players", "2", "--components"],
])
def test_a_deeply_nested_castles_component_file_is_one_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        depth: int, command: list[str]) -> None:
    path = tmp_path / "c.json"
    path.write_text('{"cards": ' + "[" * depth + "]" * depth + "}", encoding="utf-8")
    refused([*command, str(path)], monkeypatch, capsys, str(path))


# -- 3. --out under a file ----------------------------------------------------------------

@pytest.mark.parametrize("command", [
    ["whatif", "--game", "castles", "--players", "2", "--set", "colour_bonus.castle.first=6"],
    ["simulate", "--players", "2", "--games", "10", "--strategies", "random"],
    ["ladder", "--strategies", "random,greedy", "--games", "10"],
])
def test_out_under_a_file_is_one_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        command: list[str]) -> None:
    (tmp_path / "f").write_text("a file\n")
    out = tmp_path / "f" / "w"
    refused([*command, "--out", str(out)], monkeypatch, capsys, "--out",
            f"{tmp_path / 'f'} is a file, not a folder")
    assert (tmp_path / "f").read_text() == "a file\n"


# -- 4. --play "" -------------------------------------------------------------------------

@pytest.mark.parametrize("play", ["", " ", ","])
def test_whatif_play_nothing_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        play: str) -> None:
    out = tmp_path / "w"
    refused(["whatif", "--set", "objective.B05.reward.vp=6", "--play", play, "--out",
             str(out)], monkeypatch, capsys, "--play: nothing")
    assert not out.exists()


# -- 5. --decision-timeout where no Python strategy can sit -----------------------------

STUDY = ('name = "tiny"\ngame = "castles"\ngames = 200\nplayers = [2]\n'
         '[[population]]\nname = "r"\nlineup = ["random"]\n')


@pytest.mark.parametrize("seconds", ["5", "0"])
def test_decision_timeout_is_refused_by_castles_play(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        seconds: str) -> None:
    """Castles' play seats its built-in players only: the flag is one line there."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CDSIM_DECISION_TIMEOUT", raising=False)
    err = refused(["play", "--game", "castles", "--players", "2", "--decision-timeout",
                   seconds], monkeypatch, capsys,
                  "--decision-timeout: castles is played by its built-in players")
    assert err.startswith("cdsim: error: --decision-timeout")  # the flag, not a file
    assert list(tmp_path.iterdir()) == []  # nothing written


@pytest.mark.parametrize("command", [
    ["simulate", "--game", "castles", "--players", "2", "--games", "10", "--strategies",
     "random", "--out", "r"],
    ["ladder", "--game", "castles", "--strategies", "random,greedy", "--games", "10", "--out",
     "l"],
    ["study", "run", "study.toml", "--out", "s"],
])
def test_decision_timeout_is_a_castles_run_s_as_any_game_s(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        command: list[str]) -> None:
    """A run of Castles may seat a user's Python strategy (docs/strategies.md): its time
    limit is a run's flag there as for Carpe Diem."""
    (tmp_path / "study.toml").write_text(STUDY)
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CDSIM_DECISION_TIMEOUT", raising=False)
    code, _, err = run_cli([*command, "--decision-timeout", "5", "-q"], monkeypatch, capsys)
    assert code == 0, err


def test_the_time_limit_variable_is_no_flag_given_to_a_castles_run(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("CDSIM_DECISION_TIMEOUT", "5")
    code, _, err = run_cli(["simulate", "--game", "castles", "--players", "2", "--games", "10",
                            "--strategies", "random", "--out", str(tmp_path / "r"), "-q"],
                           monkeypatch, capsys)
    assert code == 0, err


# -- 7. "default" names Castles' shipped set too --------------------------------------------

def test_components_check_default_is_the_shipped_castles_set(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(["components", "check", "default", "--game", "castles"],
                             monkeypatch, capsys)
    assert code == 0, err
    assert out.startswith("ok: ") and "(the built-in set)" in out, out
    code, out, err = run_cli(["play", "--game", "castles", "--players", "2", "--components",
                              "default", "--json"], monkeypatch, capsys)
    assert code == 0, err
    assert json.loads(out)["seats"]


# -- 6. every whatif example docs/castles.md gives plays ------------------------------------

def documented_sets() -> list[str]:
    """Each ``--set`` docs/castles.md shows: in a ``cdsim whatif`` line, and each key of its
    list under "whatif --set"."""
    text = (ROOT / "docs" / "castles.md").read_text(encoding="utf-8")
    found = re.findall(r"cdsim whatif --game castles --set (\S+?)`?$", text, flags=re.M)
    found += re.findall(r"--set (\S+?=\d[\d,]*)`", text)
    listed = text[text.index("**`whatif --set`**"):]
    found += re.findall(r"^  - (?:.*?: )?`([a-z_]+\.[^`=]+=\d[\d,]*)`", listed[:listed.index(
        "\n\n")], flags=re.M)
    return list(dict.fromkeys(found))


def test_the_documented_examples_are_found() -> None:
    sets = documented_sets()
    assert "colour_bonus.castle.first=6" in sets and "harvest.1.count=7" in sets, sets
    assert len(sets) >= 6, sets


def test_every_documented_castles_whatif_example_is_a_study_that_plays(
        tmp_path: Path) -> None:
    """Each builds its study as whatif does (every variant's set loaded by the core: where
    the refused example failed) ..."""
    spec = game_spec("castles")
    for i, change in enumerate(documented_sets()):
        study = wi.build("w", [wi.parse_set(change, spec)], None, tmp_path / str(i), [2],
                         ["scripted"], 0, {"scripted": 400}, spec)
        assert study.variants, change


def test_the_documented_farm_example_plays(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """... and the farm one plays to an answer."""
    farm = [c for c in documented_sets() if "farm-" in c]
    assert farm
    code, _, err = run_cli(["whatif", "--game", "castles", "--set", farm[0], "--players", "2",
                            "--games", "400", "--out", str(tmp_path / "w"), "--quiet"],
                           monkeypatch, capsys)
    assert code == 0, err


# -- 8. a Castles --set the set's rules refuse names the --set, not a generated file ---------

@pytest.mark.parametrize(("change", "says"), [
    ("player_tiles.farm-olive-vineyard.count=2", "22 tiles; T1.2 needs 21"),
    ("colour_bonus.castle.first=1", "second (2) above first (1)"),
    ("colour_bonus.castle.first=3,1", "second (2) above first (1)"),
    ("colour_bonus.castle.first=-1", "first is a count or VP, 0 or more, got -1"),
    ("colour_bonus.castle.first=300", "colour_bonus[0].first: expected a whole number 0 to 255, got 300"),
])
def test_a_castles_set_its_rules_refuse_names_the_set(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        change: str, says: str) -> None:
    out = tmp_path / "w"
    err = refused(["whatif", "--game", "castles", "--players", "2", "--set", change, "--out",
                   str(out)], monkeypatch, capsys, "--set 'colour_bonus.castle.first=1'"
                  if change.endswith("3,1") else f"--set {change!r}", says)
    assert "changes/" not in err and "whatif.toml" not in err and " column " not in err
    assert not out.exists()


def test_a_negative_value_keeps_its_sign_in_a_variant_name() -> None:
    assert wi.safe_name("vp=-1") == "vp-minus1" != wi.safe_name("vp=1")
    assert wi.safe_name("points.3=4,-6") == "points-3-4-minus6"


# -- 8. whatif --resume at another --precision says an answer may rest on fewer games -------

def test_a_resume_at_another_precision_says_its_answer_may_rest_on_fewer_games(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    args = ["whatif", "--game", "castles", "--set", "colour_bonus.castle.first=6", "--players",
            "2", "--games", "2000", "--out", str(tmp_path / "w"), "--quiet"]
    code, said, err = run_cli([*args, "--precision", "0.005"], monkeypatch, capsys)
    assert code == 0, err
    assert "--precision" not in said
    played = int(re.findall(r"\(([\d,]+) games a side\)", said)[0].replace(",", ""))
    code, said, err = run_cli([*args, "--precision", "0.05", "--resume"], monkeypatch, capsys)
    assert code == 0, err
    assert ("--precision 0.05, where this whatif played at 0.005: its finished games are "
            "judged again look by look" in said), said
    assert "may now rest on fewer games than were played" in said
    now = int(re.findall(r"\(([\d,]+) games a side\)", said)[0].replace(",", ""))
    assert now < played  # what the note warns of: decided at an earlier look
    code, said, err = run_cli([*args, "--precision", "0.05", "--resume"], monkeypatch, capsys)
    assert code == 0 and "judged again" not in said, err  # the same precision: no note
