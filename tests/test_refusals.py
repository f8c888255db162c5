"""Bad input in the designer's quick look (issue 52, item 7): each refused before any game
is played, in one line naming the file, key or flag, exit code 2, nothing left behind."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from cdsim.study.file import MIN_ALPHA, zone_reach_problem
from tests.commands import run_main
from tests.test_hardening import finished_run, refused

REPO = Path(__file__).resolve().parent.parent
assert finished_run  # a fixture of test_hardening, used here too


def _study(tmp_path: Path, settings: str, players: str = "[2]") -> Path:
    path = tmp_path / "tiny.toml"
    path.write_text(f'name = "tiny"\ngames = 120\nplayers = {players}\n{settings}\n'
                    '[[population]]\nname = "r"\nlineup = ["random"]\n')
    return path


@pytest.mark.parametrize("settings, names", [
    # each played every game, then died (OverflowError, ValueError, ZeroDivisionError)
    ("zone = 1e-300", ["zone = 1e-300 is too small to end a 2-player cell"]),
    ("alpha = 1e-300", ["alpha", "must be at least 1e-10", "underflow"]),
    ("alpha = 5e-324", ["alpha", "must be at least 1e-10"]),
    # played its first stage, then was refused for the default zone without the file
    ("tolerance = 0.001", ["tolerance = 0.001 leaves no room for the zone (0.005, the "
                           "default)"]),
    # played a 1-game stage
    ("first_stage = 1", ["cell 2p.r", "first_stage = 1 games is fewer than 30 deals"]),
])
@pytest.mark.parametrize("resume", [False, True])
def test_study_settings_that_cannot_work_together_are_refused_at_load(
        settings: str, names: list[str], resume: bool, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    path = _study(tmp_path, settings)
    out = tmp_path / "s"
    refused(["study", "run", str(path), "--out", str(out), "--jobs", "1",
             *(["--resume"] if resume else [])], monkeypatch, capsys, str(path), *names)
    assert not out.exists()


def test_the_least_zone_named_is_enough_and_a_smaller_one_is_not() -> None:
    for players in (2, 3, 4):
        said = zone_reach_problem(1e-9, 0.05, [players])
        assert said is not None
        found = re.search(r"use a zone of at least ([0-9.e-]+)", said)
        assert found, said
        least = float(found.group(1))
        assert zone_reach_problem(least, 0.05, [players]) is None
        assert zone_reach_problem(least / 2, 0.05, [players]) is not None
    assert zone_reach_problem(0.0, 0.05, [2, 3, 4]) is None  # no zone: allowed
    assert zone_reach_problem(0.005, MIN_ALPHA, [2, 3, 4]) is None  # the default at the floor


def test_the_alpha_floor_sizes_every_test(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    """At alpha's floor a 4-player study with the most tested choices, the widest radius
    and naming is accepted and decides (its levels, split over 9,261 vectors, are sized)."""
    path = _study(tmp_path, f"alpha = {MIN_ALPHA:g}\ntested = 20\nradius = 10\n"
                  "name_within_zone = true", players="[4]")
    code, err = run_main(["study", "run", str(path), "--out", str(tmp_path / "s"), "--jobs",
                          "1", "--quiet"], monkeypatch, capsys)
    assert code == 0, err


def test_a_zone_no_cell_can_reach_is_refused_by_balance(
        finished_run: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "b"
    refused(["balance", str(finished_run), "--zone", "1e-300", "--out", str(out)],
            monkeypatch, capsys, "--zone 1e-300 is too small to end a")
    assert not out.exists()


# -- whatif and study init -----------------------------------------------------------------

WHATIF = ["whatif", "--players", "2", "--play", "scripted", "--games", "100", "--jobs", "1"]


def test_whatif_refuses_two_values_of_one_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    """It exited 0 with both values in its headline and played only the second."""
    out = tmp_path / "w"
    refused([*WHATIF, "--set", "objective.B05.reward.vp=6", "--set", "objective.B05.reward.vp=7",
             "--out", str(out)], monkeypatch, capsys,
            "--set objective.B05.reward.vp=6 and --set objective.B05.reward.vp=7 change the "
            "same key")
    assert not out.exists()


def test_whatif_refuses_a_file_in_place_of_its_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """--out naming a file was a NotADirectoryError traceback."""
    file = tmp_path / "afile"
    file.write_text("mine\n")
    refused([*WHATIF, "--set", "objective.B05.reward.vp=6", "--out", str(file)], monkeypatch,
            capsys, f"--out {file}: a file is in the way")
    assert file.read_text() == "mine\n"


def test_whatif_refuses_an_override_that_is_not_utf8(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """It was a UnicodeDecodeError traceback, and changes/ was left behind."""
    bad = tmp_path / "bad.toml"
    bad.write_bytes(b'x = "\xff"\n')
    out = tmp_path / "w"
    refused([*WHATIF, "--components", str(bad), "--out", str(out)], monkeypatch, capsys,
            "--components", str(bad), "not a UTF-8 text file")
    assert not out.exists()


@pytest.mark.parametrize("kind", ["folder", "bytes"])
def test_study_init_refuses_a_variant_file_it_cannot_read(
        kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """variants/b05-at-6.toml as a folder or not UTF-8 was a traceback."""
    variant = tmp_path / "variants" / "b05-at-6.toml"
    if kind == "folder":
        variant.mkdir(parents=True)
    else:
        variant.parent.mkdir()
        variant.write_bytes(b"\xff\xfe")
    study = tmp_path / "x.toml"
    refused(["study", "init", str(study), "--template", "card"], monkeypatch, capsys,
            str(variant), "exists")
    assert not study.exists()


# -- a stop while the commands load ----------------------------------------------------------

SLOW_IMPORT = """
import sys, time
class Slow:
    def find_spec(self, name, path=None, target=None):
        if name == "cdsim.cli.games":
            print("ready", flush=True)
            time.sleep(30)
        return None
sys.meta_path.insert(0, Slow())
sys.argv = ["cdsim", "--version"]
import cdsim.cli
cdsim.cli.main()
"""


def test_a_stop_while_the_commands_load_is_one_line_and_130() -> None:
    """It was a traceback and exit code -2."""
    proc = subprocess.Popen([sys.executable, "-c", SLOW_IMPORT], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=REPO)
    assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err
    assert err == "cdsim: interrupted\n", err


# -- every documented --set example is a change whatif takes ----------------------------------

def _set_examples(text: str) -> set[str]:
    from cdsim.games.carpe_diem.rules.overrides import FILE_KEYS

    tables = "|".join(map(re.escape, FILE_KEYS))
    return set(re.findall(rf"\b(?:{tables})\.[\w.-]*\w=-?\d+(?:,-?\d+)*", text))


def _helps() -> str:
    import typer

    from cdsim.cli import app

    def helps(command: object, path: list[str]) -> list[str]:
        ctx = command.make_context(" ".join(path), [], resilient_parsing=True)  # type: ignore[attr-defined]
        found = [command.get_help(ctx)]  # type: ignore[attr-defined]
        for name in getattr(command, "list_commands", lambda _: [])(ctx):
            found += helps(command.get_command(ctx, name), [*path, name])  # type: ignore[attr-defined]
        return found

    return "\n".join(helps(typer.main.get_command(app), ["cdsim"]))


def test_every_documented_set_example_is_taken(tmp_path: Path) -> None:
    """`tile.T01.count=4` and `villa_table.points.3=5` (whatif --help) and
    `villa_table.points.3=4` and `tile.L-market.count=8` (the guide) were refused: every
    example in a --help text and in docs/guide.md is parsed and merged on the shipped set
    as whatif does, before its first game."""
    from cdsim.study.whatif import parse_set, variants

    helps = _set_examples(" ".join(_helps().split()))  # help text wraps anywhere
    text = (REPO / "docs" / "guide.md").read_text()
    guide = _set_examples(text)
    assert {"fountain.F01.vp=3", "villa_table.points.4=6"} <= helps  # it finds them
    assert "objective.B05.reward.vp=6" in guide
    # changes made together (one `--set A --set B` span: a swap) are taken together
    together = [sorted(found) for span in re.findall(r"`([^`]*)`", text)
                if len(found := _set_examples(span)) > 1]
    assert ["tile.L-bakery.count=7", "tile.L-market.count=3"] in together
    alone = (helps | guide) - {x for group in together for x in group}
    for i, group in enumerate([*([x] for x in sorted(alone)), *together]):
        variants([parse_set(x) for x in group], None, tmp_path / str(i))


# -- names: did you mean ----------------------------------------------------------------------

def test_a_misspelt_strategy_or_class_gets_adid_you_mean(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "path", list(sys.path))  # loading the file appends its folder
    bot = tmp_path / "pastry.py"
    bot.write_text("class Baker:\n    name = 'baker'\n    reads_scores = False\n\n"
                   "    def choose(self, view, options):\n        return options[0]\n")
    out = tmp_path / "run"
    refused(["simulate", "--players", "2", "--games", "4", "--strategies", "greedy,vila",
             "--out", str(out), "--jobs", "1"], monkeypatch, capsys,
            "unknown strategy 'vila' (did you mean 'villa'?)")
    refused(["simulate", "--players", "2", "--games", "4", "--strategies",
             f"greedy,{bot}:Bakr", "--out", str(out), "--jobs", "1"], monkeypatch, capsys,
            "has no class 'Bakr' (did you mean 'Baker'?)")
    refused(["play", "--players", "2", "--strategies", "greedy,zzz"], monkeypatch, capsys,
            "unknown strategy 'zzz' (built-in:")  # nothing close: no guess
    assert not out.exists()


@pytest.mark.parametrize("manifest, command, kind, reads", [
    ("study-manifest.json", ["report"], "study", "cdsim study report"),
    ("study-manifest.json", ["balance"], "study", "cdsim study report"),
    ("ladder-manifest.json", ["report"], "ladder", "ladder.html"),
    ("manifest.json", ["study", "report"], "run", "cdsim report"),
])
def test_a_folder_given_to_another_kinds_command_is_named_as_what_it_is(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        manifest: str, command: list[str], kind: str, reads: str) -> None:
    # `report` on a study folder said "make one with cdsim simulate"
    folder = tmp_path / "f"
    folder.mkdir()
    (folder / manifest).write_text("{}")
    err = refused([*command, str(folder)], monkeypatch, capsys,
                  f"{folder} is a {kind} folder", f"{reads}")
    assert "simulate" not in err


def test_a_component_override_given_as_a_study_file_says_what_it_is(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    # it said "unknown key 'base' (known: seed, radius, ...)"
    override = tmp_path / "b05.toml"
    override.write_text('base = "default"\n[[objective]]\nid = "B05"\nreward = { vp = 6 }\n')
    err = refused(["study", "run", str(override)], monkeypatch, capsys,
                  "a component override", "not a study file", "--components", "[[variant]]")
    assert "unknown key" not in err
    assert not (tmp_path / "studies").exists()


@pytest.mark.parametrize("command", [["play"], ["components", "check"],
                                     ["play", "--game", "castles", "--players", "2"]])
def test_another_games_component_set_names_that_game(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        command: list[str]) -> None:
    # Carpe Diem said "not valid TOML" of a Castles set
    castles = command[-2:] != ["--players", "2"]
    path = tmp_path / ("set.json" if castles else "b05.toml")
    path.write_text("{}" if castles else
                    'base = "default"\n[[objective]]\nid = "B05"\nreward = { vp = 6 }\n')
    flag = [] if command[0] == "components" else ["--components"]
    owner = "castles" if castles else "carpe-diem"
    refused([*command, *flag, str(path)], monkeypatch, capsys,
            "a component set of", f"add --game {owner}")


def test_a_set_no_game_reads_keeps_its_own_problem(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{"cards": [1]')
    err = refused(["play", "--components", str(path)], monkeypatch, capsys, "not valid TOML")
    assert "--game" not in err
