"""A strategy given as its file (issue 41 item 5): ``path/to/file.py:Class`` works from any
folder, in every command, in the workers and in a study file's line-ups, and is recorded
as its absolute path, so that a run resumes from anywhere; a module that cannot be
imported says how to give it instead."""

from __future__ import annotations

import json
import os
import pickle
import re
import subprocess
import sys
from pathlib import Path

import pytest

from cdsim.batch.folder import RunFolder
from cdsim.errors import CdsimError
from cdsim.games.carpe_diem.players.registry import PlayerSpec
from tests.commands import run_main
from tests.conftest import core_or_skip

# A strategy that imports a module beside it and reads the box's tile types: it stores no
# tile, and builds a bakery when one is offered (a bakery is ``TileType.building``).
HELPER = "from cdsim.games.carpe_diem.rules.kinds import BAKERY\n"
BAKER = """\
from helper_beside import BAKERY
from strategies.example import Random


class Baker(Random):
    name = "baker"

    def choose(self, view, options):
        if view.decision != "take":
            return super().choose(view, options)
        tiles = view.components.tile_types
        built = [o for o in options if not o.stores]
        bakeries = [o for o in built if tiles[o.tile_type].building == BAKERY]
        return (bakeries or built or list(options))[0]
"""


def cdsim(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``cdsim ARGS`` as the installed script runs it (``-P``: the current folder is not
    on sys.path), with no PYTHONPATH naming the strategy's folder."""
    return subprocess.run([sys.executable, "-P", "-m", "cdsim", *args], capture_output=True,
                          text=True, check=False, cwd=cwd, env=os.environ.copy())


@pytest.fixture
def baker(tmp_path: Path) -> Path:
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "helper_beside.py").write_text(HELPER)
    (folder / "baker.py").write_text(BAKER)
    (tmp_path / "elsewhere").mkdir()
    return folder / "baker.py"


def test_a_file_spec_is_recorded_as_its_absolute_path(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    relative = PlayerSpec.parse("mine/baker.py:Baker")
    absolute = PlayerSpec.parse(f"{tmp_path}/mine/../mine/baker.py:Baker")
    assert relative == absolute and relative.kind == "user"
    assert relative.spelling == str(relative) == f"{tmp_path / 'mine' / 'baker.py'}:Baker"
    assert PlayerSpec.parse(relative.spelling) == relative  # a manifest's spelling parses back
    assert pickle.loads(pickle.dumps(relative)) == relative  # what a worker receives
    for bad, says in (("mine/baker:Baker", "a strategy file is a .py file"),
                      ("mine/baker.py:", "name the class after the file"),
                      ("mine/baker.py:1x", "name the class after the file")):
        with pytest.raises(CdsimError, match=says):
            PlayerSpec.parse(bad)


def test_a_strategy_file_plays_from_another_folder_in_every_command(baker: Path) -> None:
    core_or_skip()
    here = baker.parent.parent / "elsewhere"
    spec = f"../mine/{baker.name}:Baker"
    recorded = f"{baker}:Baker"
    play = cdsim("play", "--players", "2", "--strategies", f"{spec},greedy", "--json", cwd=here)
    assert play.returncode == 0, play.stderr
    game = json.loads(play.stdout)
    assert game["seats"][0]["strategy"] == recorded
    simulate = cdsim("simulate", "--out", "run", "--players", "2", "--games", "8",
                     "--strategies", f"{spec},greedy", "--rotate-seats", "--chunk-size", "2",
                     "--jobs", "2", "-q", cwd=here)  # the workers load the file too
    assert simulate.returncode == 0, simulate.stderr
    manifest = RunFolder(here / "run").read()
    assert [spec.spelling for spec in manifest.config.strategies] == [recorded, "greedy"]
    assert len(manifest.finished) == 4
    resumed = cdsim("simulate", "--resume", "--out", str(here / "run"), "--players", "2",
                    "--games", "8", "--strategies", f"{baker}:Baker,greedy", "--rotate-seats",
                    "--chunk-size", "2", "--jobs", "1", "-q", cwd=baker.parent)
    assert resumed.returncode == 0, resumed.stderr  # the same run, from another folder
    ladder = cdsim("ladder", "--strategies", f"{spec},greedy", "--games", "4", "--jobs", "2",
                   "-q", "--resamples", "10", "--json", cwd=here)
    assert ladder.returncode == 0, ladder.stderr
    assert {r["strategy"] for r in json.loads(ladder.stdout)["ratings"]} == {recorded, "greedy"}
    (here / "study.toml").write_text(
        'name = "bakers"\nseed = 3\ngames = 120\nchunk_size = 30\nplayers = [2]\n'
        f'tolerance = 0.4\n[[population]]\nname = "bakers"\nlineup = ["{spec}", "greedy"]\n')
    study = cdsim("study", "run", "study.toml", "--jobs", "2", cwd=here)
    assert study.returncode == 0, study.stderr
    cells = json.loads((here / "studies" / "bakers" / "study-manifest.json").read_text())["cells"]
    assert [recorded, "greedy"] in [lineup for c in cells for lineup in c["lineups"]]


@pytest.mark.parametrize(("spec", "says"), [
    ("baker:Baker", "cannot import 'baker': No module named 'baker' (searched from {here}); "
                    "give its file instead, path/to/baker.py:Baker, or add its folder to "
                    "PYTHONPATH"),
    ("../mine/nope.py:Baker", "strategy '{folder}/nope.py:Baker': no such file "
                              "{folder}/nope.py"),
    ("../mine/baker.py:Nope", "strategy '{folder}/baker.py:Nope': {folder}/baker.py has "
                              "no class 'Nope'"),
])
def test_a_strategy_that_cannot_be_loaded_names_the_fix(
        spec: str, says: str, baker: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    here = baker.parent.parent / "elsewhere"
    monkeypatch.chdir(here)
    code, err = run_main(["play", "--players", "2", "--strategies", f"{spec},greedy"],
                         monkeypatch, capsys)
    assert code == 2 and err.count("\n") == 1, err
    assert says.format(here=here, folder=baker.parent) in err, err


def test_the_strategy_guide_names_every_field_a_strategy_may_read() -> None:
    """docs/strategies.md: every field of what a strategy is handed, the box's entries
    (a bakery is ``TileType.building``) and the options included."""
    from cdsim.games.carpe_diem.rules import cards, components, district, observation, options

    text = (Path(__file__).resolve().parent.parent / "docs" / "strategies.md").read_text()
    handed = (observation.Observation, observation.Holdings, observation.DistrictView,
              district.Feature, components.Components, components.TileType,
              components.ObjectiveCard, components.FountainCard, components.FramePart,
              components.FrameGoal, components.Board, options.Start, options.Move, options.Take,
              options.SealBuild, options.FountainChoice, options.CircleChoice, cards.Payment)
    named = set(re.findall(r"\w+", " ".join(re.findall(r"`[^`\n]+`", text))))
    missing = [f"{kind.__name__}.{name}" for kind in handed
               for name in getattr(kind, "__dataclass_fields__", None) or kind._fields
               if not name.startswith("_") and name not in named]
    assert "`TileType`" in text and not missing, missing
