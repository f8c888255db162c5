"""`cdsim study run --resume` with a raised budget extends a study: the undecided cells go on
from the games they have, decided cells stay, nothing played is played again, and the end is
the verdict one pass over all the stages gives.

Not tested, and not true: equality with a fresh study given the doubled budget from the
start. ``anytime.stage_sizes`` lets the last stage take what is left of the budget (2 to 6
times the one before), so a fresh 1,260-game cell plays 90, 180, 990 where the extended one
plays 90, 180, 360, 630: other deals, hence other (equally valid) verdicts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cdsim.analysis import anytime
from cdsim.analysis.candidates import candidates, win_table
from cdsim.batch.folder import RunFolder
from cdsim.errors import CdsimError
from cdsim.study import play
from cdsim.study.games import stage_games
from cdsim.study.manifest import StageRuns
from cdsim.study.model import load_study
from cdsim.study.store import STUDY_MANIFEST, run_folder, study_manifest_of

# A 2 pp tolerance: these stages are far too small to decide random play, so the random
# cell stops undecided. A first stage of 90 games and a budget of 7 x 90 make the stages
# 90, 180, 360; doubled, the extension appends one stage of 630.
SMALL = """\
name = "small"
seed = 11
games = 630
first_stage = 90
chunk_size = 90
players = [3]
tolerance = 0.02
[[population]]
name = "random"
lineup = ["random"]
[[population]]
name = "mix"
lineup = ["greedy", "landscape", "bread"]
"""


def manifest(root: Path) -> dict[str, dict]:
    return {c["key"]: c for c in json.loads((root / STUDY_MANIFEST).read_text())["cells"]}


def folders(root: Path) -> dict[str, str]:
    return {p.name: RunFolder(p).digest() for p in sorted((root / "cells").iterdir())}


def test_a_cell_reads_its_budget_through_its_manifest_state(tmp_path: Path) -> None:
    """A cell's players, budget and design are its manifest state's (declared once): a
    raised budget is the state's, and the state a plan records is a copy of it."""
    path = tmp_path / "small.toml"
    path.write_text(SMALL)
    study = load_study(path)
    cell = study.cells[0]
    assert (cell.key, cell.players, cell.games, cell.design, cell.first) == (
        "3p.random", 3, 630, 630, 90)
    fresh = study.raised(1260, {}).cells[0]  # a new cell: designed for the budget it starts at
    assert (fresh.state.games, fresh.state.design_games) == (1260, 1260)
    recorded = study.state_of(cell, study.schedule(cell))  # 630 games, designed for 630
    # a cell that started: its design stays
    extended = study.raised(1260, {cell.key: recorded}, {cell.key: 90}).cells[0]
    assert (extended.state.games, extended.state.design_games, extended.first) == (1260, 630, 90)
    state = study.state_of(cell, study.schedule(cell))
    assert (state.games, state.design_games, state.schedule) == (630, 630, [90, 180, 360])
    state.stages.append(StageRuns(stage=0, seed=11, games=90, runs=["3p.random+s0"]))
    assert cell.state.stages == [] and cell.state.schedule == []  # the cell's own is untouched


def test_a_raised_budget_plays_only_the_new_games_and_ends_as_one_run(tmp_path: Path) -> None:
    path = tmp_path / "small.toml"
    path.write_text(SMALL)
    spec = load_study(path)
    root = tmp_path / "extended"
    play.run(spec, root, jobs=1)
    before, kept = manifest(root), folders(root)
    undecided = [k for k, c in before.items() if c["decision"]["decision"] == "undecided"]
    assert "3p.random" in undecided and before["3p.random"]["schedule"] == [90, 180, 360]
    # a lowered budget is no way to shrink a study: budgets only grow
    states = {c.key: c for c in study_manifest_of(root).cells}
    assert load_study(path).raised(300, states).cells[0].games == 630

    play.run(spec, root, jobs=1, resume=True, games=1260)  # --resume --games 1260
    after, now = manifest(root), folders(root)
    for name, digest in kept.items():  # nothing played before was touched or played again
        assert now[name] == digest, name
    new = sorted(set(now) - set(kept))
    assert new == [f"{k}+s3" for k in sorted(undecided)]  # one stage per undecided cell
    played = sum(RunFolder(root / "cells" / n).games_done() for n in new)
    assert played == (1260 - 630) * len(undecided)  # only the new games
    for key, cell in after.items():
        if key not in undecided:  # a decided cell is left as it was
            assert cell["decision"] == before[key]["decision"]
        else:
            assert cell["design_games"] == 630 and cell["games"] == 1260
            assert cell["decision"]["games"] == 1260

    # the verdict is what one pass over all the stages gives under the cell's test as it
    # started (design 630): extending loses nothing and adds no look of its own
    sizes = after["3p.random"]["schedule"]
    assert sizes[:3] == [90, 180, 360] and sum(sizes) == 1260
    tables = [win_table(stage_games([run_folder(root, r) for r in s["runs"]]),
                        candidates((8, 9, 13), spec.file.radius))
              for s in after["3p.random"]["stages"]]
    whole = anytime.decide(tables, (8, 9, 13), 0.02, spec.file.alpha, spec.file.tested,
                           design_games=630, zone=spec.file.zone)
    assert whole.model_dump(mode="json") == after["3p.random"]["decision"]


def test_only_the_budget_may_change_when_a_study_resumes(tmp_path: Path) -> None:
    path = tmp_path / "small.toml"
    path.write_text(SMALL.replace("players = [3]", "players = [3]\nradius = 2"))
    root = tmp_path / "out"
    play.run(load_study(path), root, jobs=1)
    path.write_text(path.read_text().replace("games = 630", "games = 900"))
    play.run(load_study(path), root, jobs=1, resume=True)  # a raised budget: resumes
    assert manifest(root)["3p.random"]["games"] == 900
    path.write_text(path.read_text().replace("tolerance = 0.02", "tolerance = 0.03"))
    with pytest.raises(CdsimError, match="another study file") as refused:
        play.run(load_study(path), root, jobs=1, resume=True)
    assert "--force" not in str(refused.value)  # never offered for a folder it may not name
    assert "(tolerance=0.02; now tolerance=0.03; only the budgets" in str(refused.value)
    path.write_text(path.read_text().replace("tolerance = 0.03", "tolerance = 0.02")
                    .replace('"greedy", "landscape"', '"greedy", "villa"'))
    with pytest.raises(CdsimError, match="another study file") as refused:
        play.run(load_study(path), root, jobs=1, resume=True)
    assert ("3p.mix.lineups=[greedy,landscape,bread]; now 3p.mix.lineups=[greedy,villa,bread]"
            in str(refused.value))
    # a 2-player deal of the mix is 6 games: its first stage holds 30 deals (180 games)
    path.write_text(path.read_text().replace('"villa"', '"landscape"')
                    .replace("players = [3]", "players = [2, 3]")
                    + '[[cell]]\nplayers = 2\npopulation = "mix"\nfirst_stage = 180\n')
    with pytest.raises(CdsimError, match="another study file") as refused:
        play.run(load_study(path), root, jobs=1, resume=True)
    said = str(refused.value)
    assert "start_vp=3:8,9,13, cells=3p.mix,3p.random; now start_vp=2:8,9 3:8,9,13, " \
        "cells=2p.mix,2p.random,3p.mix,3p.random; only" in said


def test_the_manifest_says_when_and_where_and_takes_any_prediction(tmp_path: Path) -> None:
    from reports.study import write

    path = tmp_path / "small.toml"
    path.write_text(SMALL.replace("players = [3]", "players = [3]\nradius = 1"))
    root = tmp_path / "out"
    play.run(load_study(path), root, jobs=1)
    data = json.loads((root / STUDY_MANIFEST).read_text())
    assert data["finished"][:4].isdigit() and "T" in data["finished"]
    assert data["machine"]["cpus"] >= 1 and data["machine"]["architecture"]
    # a prediction far beyond what one run may play is still a manifest the report reads
    cell = next(c for c in data["cells"] if c["decision"]["decision"] == "undecided")
    cell["decision"]["games_needed"] = 250_000_000
    (root / STUDY_MANIFEST).write_text(json.dumps(data))
    write(root)
    report = json.loads((root / "study.json").read_text())
    assert report["finished"] == data["finished"] and report["machine"] == data["machine"]
    assert report["wall_seconds"] == data["wall_seconds"]
    assert 250_000_000 in [c["verdict"]["games_needed"] for c in report["cells"]]
    assert "±0.5 pp: shown fair below 2.5 pp, 'no fair vector' above 1.5 pp" in (
        root / "study.md").read_text()
    # a folder recorded before the zone: no zone in its manifest or its verdicts
    del data["zone"]
    for cell in data["cells"]:
        for key in ("zone", "best_gap_low", "games_to_decide"):
            del cell["decision"][key]
    (root / STUDY_MANIFEST).write_text(json.dumps(data))
    write(root)
    assert "none: fair and unfair both against the tolerance" in (root / "study.md").read_text()


def test_the_command_line_extends_and_never_offers_to_overwrite_an_unnamed_folder(
        tmp_path: Path) -> None:
    import subprocess
    import sys

    def cdsim(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "cdsim", "study", "run", *args, "--jobs",
                               "1", "--quiet"], capture_output=True, text=True, check=False,
                              cwd=tmp_path)

    (tmp_path / "small.toml").write_text(SMALL.replace("players = [3]", "players = [3]\nradius = 1"))
    assert cdsim("small.toml").returncode == 0
    again = cdsim("small.toml")  # studies/small: a folder the user did not name
    assert again.returncode == 2 and again.stderr.count("\n") == 1
    assert "--force" not in again.stderr and "--resume" in again.stderr
    bad = cdsim("small.toml", "--resume", "--games", "0")
    assert bad.returncode == 2 and "--games" in bad.stderr and bad.stderr.count("\n") == 1
    more = cdsim("small.toml", "--resume", "--games", "1260")
    assert more.returncode == 0, more.stderr
    cells = manifest(tmp_path / "studies" / "small")
    assert cells["3p.random"]["games"] == 1260 and cells["3p.random"]["design_games"] == 630


# Cells whose first stage takes the whole budget: 2p.random has 60 games, under three first
# stages of 30 deals (MIN_GROUPS), and 2p.long asks for a first stage above games / 3.
WHOLE = """\
name = "whole"
seed = 3
games = 60
chunk_size = 20
players = [2]
tolerance = 0.02
[[population]]
name = "random"
lineup = ["random"]
[[population]]
name = "long"
lineup = ["random"]
games = 200
first_stage = 100
"""


def test_a_study_whose_first_stage_took_the_whole_budget_resumes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """--resume refused such a study as "made with another study file" (the first stage
    played, the whole budget, was compared with the one asked for), also with the command
    printed after a stop: its games could only be thrown away with --force."""
    import shlex

    from cdsim.batch.progress import StudyProgress
    from tests.commands import run_main

    path = tmp_path / "whole.toml"
    path.write_text(WHOLE)
    root = tmp_path / "out"

    def stop(self: StudyProgress, key: str, games: int) -> None:
        raise KeyboardInterrupt

    with monkeypatch.context() as patched:
        patched.setattr(StudyProgress, "chunk", stop)
        code, err = run_main(["study", "run", str(path), "--out", str(root), "--jobs", "1"],
                             monkeypatch, capsys)
    assert code == 130 and "continue with " in err, err
    command = err.strip().rpartition("continue with ")[2]
    assert shlex.split(command)[0] == "cdsim"
    code, err = run_main(shlex.split(command)[1:], monkeypatch, capsys)  # as printed
    assert code == 0, err
    cells = manifest(root)
    assert [cells[k]["schedule"] for k in ("2p.random", "2p.long")] == [[60], [200]]
    assert all(c["decision"]["games"] == c["games"] for c in cells.values())
    kept = folders(root)

    code, err = run_main(["study", "run", str(path), "--out", str(root), "--resume", "--jobs",
                          "1", "-q"], monkeypatch, capsys)  # finished and unchanged
    assert code == 0, err
    assert folders(root) == kept
    code, err = run_main(["study", "run", str(path), "--out", str(root), "--resume", "--games",
                          "400", "--jobs", "1", "-q"], monkeypatch, capsys)  # extended
    assert code == 0, err
    cells = manifest(root)
    assert [cells[k]["schedule"] for k in ("2p.random", "2p.long")] == [[60, 340], [200, 200]]
    assert all(folders(root)[name] == digest for name, digest in kept.items())


def test_a_folder_made_before_the_zone_resumes_only_under_its_own_rule(tmp_path: Path) -> None:
    """A study folder made before the indifference zone recorded none (its identity is that
    of ``zone = 0``): resumed under the default zone it is refused naming the zone, and
    ``zone = 0`` in its file resumes it."""
    path = tmp_path / "small.toml"
    path.write_text(SMALL.replace("players = [3]", "players = [3]\nradius = 1\nzone = 0"))
    root = tmp_path / "out"
    play.run(load_study(path), root, jobs=1)
    assert "zone" not in json.loads((root / STUDY_MANIFEST).read_text())["identity"]
    path.write_text(path.read_text().replace("zone = 0\n", ""))
    with pytest.raises(CdsimError, match="another study file") as refused:
        play.run(load_study(path), root, jobs=1, resume=True)
    assert "(zone=(not set); now zone=0.005; only the budgets" in str(refused.value)
    path.write_text(path.read_text().replace("radius = 1", "radius = 1\nzone = 0"))
    play.run(load_study(path), root, jobs=1, resume=True)
    assert all(c["decision"]["zone"] == 0 for c in manifest(root).values())
