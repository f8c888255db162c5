"""`cdsim study`: tiny staged studies end to end, resume, balanced populations, the answer
first, study.json's verdicts, headlines that name only confirmed vectors, paired variants,
bad files."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from cdsim.analysis import anytime
from cdsim.analysis.anytime import Decision
from cdsim.analysis.candidates import candidates, win_table
from cdsim.analysis.cell import Shares
from cdsim.batch import cost
from cdsim.batch.folder import RunFolder
from cdsim.cli import main
from cdsim.games.carpe_diem.rules.components import DATA_DIR
from cdsim.study import play
from cdsim.study.cell import CellResult
from cdsim.study.file import resolve, write_template
from cdsim.study.games import stage_games
from cdsim.study.model import load_study, spelled
from cdsim.study.store import STUDY_MANIFEST, run_folder, study_manifest_of
from reports import study as rs
from reports.study import write
from tests.commands import run_main
from tests.study_cells import cell_result
from tests.study_cells import verdict as made_verdict

# A wide tolerance, so that tiny stages decide: 2 and 3 players, random (the floor) and a
# balanced population of three scripted players.
TINY = """\
name = "tiny"
seed = 5
games = 720
chunk_size = 60
players = [2, 3]
tolerance = 0.3
[[population]]
name = "random"
lineup = ["random"]
[[population]]
name = "mix"
lineup = ["greedy", "landscape", "bread"]
"""
FIELDS = ("decision", "vector", "verdict", "games", "fair_offset", "fair_offset_interval")


def cdsim(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cdsim", *args], capture_output=True, text=True,
                          check=False, cwd=cwd)


def study_file(folder: Path, text: str = TINY, name: str = "study.toml") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(text)
    return path


def test_tiny_study_end_to_end(tmp_path: Path) -> None:
    path = study_file(tmp_path)
    out = cdsim("study", "run", str(path), "--jobs", "2", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    root = tmp_path / "studies" / "tiny"  # --out defaults to studies/NAME
    assert "next: cdsim study report" in out.stdout
    assert "games/s" not in out.stdout and "study tiny: " in out.stderr  # progress: stderr
    assert "3p.mix: Fair within ±30.0 pp" in out.stdout  # each cell's verdict, once decided
    write(root)  # `cdsim study report` (its command line: test_study_folder_errors_are_one_line)
    data = json.loads((root / "study.json").read_text())
    assert (data["name"], data["seed"], data["tolerance"]) == ("tiny", 5, 0.3)
    assert set(data["headlines"]) == {"2", "3"}
    # study.json: per player count and population, the verdict's fields beside the prose
    assert set(data["verdicts"]) == {"2", "3"}
    for players, pops in data["verdicts"].items():
        assert set(pops) == {"random", "mix"}
        assert pops["random"]["floor"] and not pops["mix"]["floor"]
        for verdict in pops.values():
            assert set(FIELDS) | {"floor"} == set(verdict)
            record = verdict["verdict"]  # the one shape: cdsim balance --json's verdict
            assert anytime.Verdict.model_validate_json(json.dumps(record)).model_dump(
                mode="json") == record
            assert verdict["decision"] == record["decision"] == "confirmed"  # 30 pp: easy
            assert verdict["vector"] == record["vector"]
            assert record["games_needed"] is None  # only when undecided
            assert len(verdict["vector"]) == int(players)
            low, high = record["gap_interval"]
            assert 0 <= low <= record["largest_gap"] <= high <= 1
            # shown fair: each pair's test inside ±(tolerance + zone) on the games it was tested
            # on, so the gap seen there is below that; the 95% interval (simultaneous over
            # the pairs, the mixture alone) promises no more and may reach past it
            assert record["largest_gap"] < data["tolerance"] + data["zone"]
            assert 0 < record["games_tested"] <= verdict["games"]
            # the fair offset per seat (seats from 1; seat 1 the reference)
            offset, interval = verdict["fair_offset"], verdict["fair_offset_interval"]
            assert list(offset) == [str(s) for s in range(1, int(players) + 1)]
            assert offset["1"] == 0.0 and interval["1"] == [0.0, 0.0]
            for seat in map(str, range(2, int(players) + 1)):
                low, high = interval[seat]
                assert low is None or low <= offset[seat] <= high
    cells = {(c["players"], c["population"]): c for c in data["cells"]}
    for (players, _), c in cells.items():
        assert c["rulebook"] == {2: [8, 9], 3: [8, 9, 13]}[players]  # R2.7
        assert c["vector"][0] == 8  # only differences matter: seat 1 kept
        # every stage is an ordinary run folder on fresh deals: a seed of its own
        seeds = [RunFolder(root / r).read().config.seed for s in c["stages"] for r in s["runs"][:1]]
        assert seeds[0] == 5 and len(set(seeds)) == len(seeds)
        assert c["games"] == sum(s["games"] for s in c["stages"])
        assert c["verdict"]["games_tested"] <= c["games"]
        assert sum(c["at_vector"]["shares"]) == pytest.approx(1.0)
    # the balanced population: every pair of the three at 2 players, in both seat orders
    mix2 = cells[(2, "mix")]
    assert sorted(map(tuple, mix2["lineups"])) == [("greedy", "bread"), ("greedy", "landscape"),
                                                   ("landscape", "bread")]
    first = [RunFolder(root / r).read().config.record() for r in mix2["stages"][0]["runs"]]
    assert {(c["seed"], c["games"], c["rotate_seats"]) for c in first} == {(5, 60, True)}
    assert {tuple(c["strategies"]) for c in first} == set(map(tuple, mix2["lineups"]))
    # the answer first: the page opens with one box per player count
    md = (root / "study.md").read_text()
    top = md.split("## Headlines")[0]
    assert top.count("> ### ") == 2 and "> ### 2 players" in top and "> ### 3 players" in top
    assert "**confirmed**" in top
    three = top.split("> ### 3 players")[1]
    fair_set = next(c for c in data["cells"] if c["key"] == "3p.mix")["verdict"]["fair_set"]
    if len(fair_set) > 1:  # the set first, then the one the stated rule names
        assert f"rulebook **8/9/13** → **{len(fair_set)} vectors shown fair**" in three
        assert three.index("vectors shown fair") < three.index("named by the stated rule")
    else:
        assert "rulebook **8/9/13** → decided **" in three
    assert "floor: **random**" in top and "every 2 of greedy, landscape, bread: 3 line-ups" in top
    assert "3 line-ups: greedy, landscape; greedy, bread; landscape, bread" in md  # who sat
    assert "seat 0" not in md and "points" not in md  # seats from 1; pp and VP, not "points"
    assert "pp" in md and "VP" in md
    page = (root / "study.html").read_text()
    body = page.split("<body>", 1)[1]
    assert body.index('class="answers"') < body.index("<h2>Headlines</h2>")
    assert page.count("data:image/png;base64,") == 6 and 'src="charts/' not in page
    assert re.search(r"seat 2 needs [+-]\d+\.\d VP \([+-]\d+\.\d to [+-]\d+\.\d\)", top)  # fair offsets
    assert "fair offset per seat" in page  # the chart, with its caption
    assert "rulebook 8/9/13" in md.split("## 3 players")[1]  # the compensation chart marks it


class Stop(Exception):
    pass


def test_resume_after_a_kill_equals_an_uninterrupted_study(tmp_path: Path) -> None:
    spec = load_study(study_file(tmp_path))
    whole, broken = tmp_path / "whole", tmp_path / "broken"
    play.run(spec, whole, jobs=1)
    seen: list[str] = []

    def stop_after_9(key: str, games: int) -> None:
        seen.append(key)
        if len(seen) == 9:
            raise Stop

    with pytest.raises(Stop):
        play.run(spec, broken, jobs=2, on_chunk=stop_after_9)
    parts = {p: p.stat().st_mtime_ns for p in (broken / "cells").glob("*/games/part-*.parquet")}
    assert len(parts) >= 9
    with pytest.raises(Exception, match="already holds a study"):
        play.run(spec, broken, jobs=1)
    play.run(spec, broken, jobs=2, resume=True)
    for part, mtime in parts.items():  # nothing finished before the kill was played again
        assert part.stat().st_mtime_ns == mtime, part
    runs = sorted(p.name for p in (whole / "cells").iterdir())
    assert runs == sorted(p.name for p in (broken / "cells").iterdir())
    assert any("+s2" in r for r in runs)  # stages were played
    for name in runs:  # the same rows with --jobs 1 and 2, killed and resumed or not
        assert RunFolder(whole / "cells" / name).digest() == RunFolder(broken / "cells" / name).digest(), name
    same = [json.loads((r / STUDY_MANIFEST).read_text())["cells"] for r in (whole, broken)]
    assert same[0] == same[1]
    assert all(c["decision"] is not None for c in same[0])


def test_a_population_chunk_size_splits_its_runs_and_keeps_their_rows(tmp_path: Path) -> None:
    text = TINY.replace("players = [2, 3]", "players = [2]").replace("games = 720", "games = 180")
    plain, small = load_study(study_file(tmp_path / "a", text)), load_study(
        study_file(tmp_path / "b", text + "chunk_size = 7\n"))  # the last table: mix
    assert plain.identity() != small.identity()  # --resume refuses the other chunking
    assert "chunk_size" not in json.dumps(plain.identity()["cells"])  # unset: as before
    play.run(plain, tmp_path / "plain", jobs=2)
    play.run(small, tmp_path / "small", jobs=2)
    runs = sorted(p.name for p in (tmp_path / "plain" / "cells").iterdir())
    assert runs == sorted(p.name for p in (tmp_path / "small" / "cells").iterdir())
    for name in runs:
        a, b = (RunFolder(tmp_path / x / "cells" / name) for x in ("plain", "small"))
        assert a.digest() == b.digest(), name  # the same games, cut otherwise
        parts = len(list(b.path.glob("games/part-*.parquet")))
        games = json.loads((b.path / "manifest.json").read_text())["config"]["games"]
        expect = -(-games // 7) if name.startswith("2p.mix") else -(-games // 60)
        assert parts == expect, name


def test_stages_deal_fresh_games_and_follow_the_schedule(tmp_path: Path) -> None:
    spec = load_study(study_file(tmp_path, TINY.replace("players = [2, 3]", "players = [3]")))
    mix = next(c for c in spec.cells if c.population.name == "mix")
    rand = next(c for c in spec.cells if c.population.name == "random")
    assert (mix.deal, rand.deal) == (3, 1)  # one line-up in 3 rotations; one game per deal
    sizes = spec.schedule(mix)
    assert sum(sizes) == 720 and sizes[0] == 90  # 30 deals at least
    assert all(s % 3 == 0 for s in sizes)
    seeds = [spec.stage_seed(k) for k in range(len(sizes))]
    assert seeds[0] == 5 and len(set(seeds)) == len(seeds)
    # every cell deals from the same seed at the same stage: common random numbers
    for k in range(len(sizes)):
        assert {j.config.seed for c in spec.cells
                for j in spec.stage_jobs(c, k, spec.schedule(c)[k])} == {seeds[k]}
    # a played stage's verdict is what the pure module says of the same games
    root = tmp_path / "out"
    play.run(spec, root, jobs=1)
    (state,) = [c for c in study_manifest_of(root).cells if c.population == "mix"]
    tables = [win_table(stage_games([run_folder(root, r) for r in s.runs]),
                        candidates((8, 9, 13), spec.file.radius))
              for s in state.stages]
    verdict = anytime.decide(tables, (8, 9, 13), 0.3, spec.file.alpha, 3, design_games=mix.games,
                             predict=len(tables) == len(sizes), zone=spec.file.zone)
    # the manifest holds the one verdict record: it reads back as the value decide returned
    assert state.decision == verdict
    recorded = json.loads((root / STUDY_MANIFEST).read_text())
    (written,) = [c["decision"] for c in recorded["cells"] if c["population"] == "mix"]
    assert written == verdict.model_dump(mode="json")


def test_balanced_populations_play_every_subset_in_every_rotation(tmp_path: Path) -> None:
    text = TINY.replace("players = [2, 3]", "players = [2, 3, 4]").replace(
        'lineup = ["greedy", "landscape", "bread"]',
        'lineup = ["greedy", "villa", "landscape", "bread"]') + (
        '[[population]]\nname = "pairs"\nlineups = [["greedy", "villa"], ["bread", "greedy"], '
        '["villa", "villa", "bread"], ["greedy", "villa", "landscape", "bread"]]\n')
    spec = load_study(study_file(tmp_path, text))
    cells = {(c.players, c.population.name): c for c in spec.cells}
    assert len(cells[(2, "mix")].lineups) == 6 and len(cells[(3, "mix")].lineups) == 4
    assert spelled(cells[(4, "mix")].lineups) == [["greedy", "villa", "landscape", "bread"]]
    assert cells[(2, "mix")].deal == 12  # 6 line-ups x 2 rotations of each deal
    assert spelled(cells[(2, "pairs")].lineups) == [["greedy", "villa"], ["bread", "greedy"]]
    assert spelled(cells[(3, "pairs")].lineups) == [["villa", "villa", "bread"]]
    assert spelled(cells[(2, "random")].lineups) == [["random", "random"]]
    assert not cells[(2, "mix")].population.floor and cells[(2, "random")].population.floor
    jobs = spec.stage_jobs(cells[(2, "mix")], 0, spec.schedule(cells[(2, "mix")])[0])
    assert len({j.key for j in jobs}) == 6 and all(j.config.rotate_seats for j in jobs)
    assert {j.config.seed for j in jobs} == {spec.stage_seed(0)} == {5}
    assert sum(j.config.games for j in jobs) == spec.schedule(cells[(2, "mix")])[0]
    # each strategy sits equally often in each seat over a deal (subsets x rotations)
    seat_count: dict[tuple[str, int], int] = {}
    for lineup in cells[(3, "mix")].lineups:
        for r in range(3):
            for seat, name in enumerate(lineup[r:] + lineup[:r]):
                seat_count[(name, seat)] = seat_count.get((name, seat), 0) + 1
    assert set(seat_count.values()) == {3}


SHARES = Shares((8, 9, 10, 11), (250,) * 4, np.full(4, 0.25), np.full(4, 0.2), np.full(4, 0.3),
                0.06, (0.04, 0.08))


def _cell(population: str, decision: Decision | None, vector: tuple[int, ...] = (8, 7, 7, 10),
          fair_set: tuple[tuple[int, ...], ...] = (), floor: bool = False,
          variant: str | None = None, shares: Shares = SHARES) -> CellResult:
    found = None if decision is None else made_verdict(
        decision, vector, fair_set,
        games_needed=150_000 if decision == "undecided" else None,
        watch=vector if decision == "undecided" else None)
    return cell_result(population, (8, 9, 10, 11), [("a", "b", "c", "d")], found, shares,
                       variant=variant, floor=floor)


def test_headlines_name_only_confirmed_vectors_and_say_whether_populations_agree() -> None:
    text = rs.headline(4, [_cell("scripted", "undecided"), _cell("random", "confirmed",
                                                                    (8, 8, 8, 8), floor=True)], 0.02)
    assert "no vector was confirmed" in text
    # how long that is here: line-up a/b/c/d costs as four Python seats (cdsim.batch.cost)
    took = cost.games_time(150_000, cost.game_ms([("a", "b", "c", "d")], (), 4))
    assert f"about 150,000 more games (about {took} here at recorded costs) would likely confirm" in text
    assert not re.search(r"\d+/\d+/\d+/\d+", text.split("The rulebook's")[0])  # names none
    assert "random" not in text and "8/8/8/8" not in text  # the floor takes no part
    text = rs.headline(4, [_cell("scripted", "no fair vector")], 0.02)
    assert "no whole-VP vector within ±4 VP" in text and "8/7/7/10" not in text
    text = rs.headline(4, [_cell("scripted", "confirmed")], 0.02)
    assert text.startswith("4 players: 8/7/7/10 is confirmed fair within ±2.0 pp for scripted")
    both = rs.headline(4, [_cell("scripted", "confirmed"), _cell("strong", "confirmed")], 0.02)
    assert "agree: 8/7/7/10 is confirmed fair" in both
    split = rs.headline(4, [_cell("scripted", "confirmed"),
                            _cell("strong", "confirmed", (8, 8, 8, 9))], 0.02)
    assert "disagree" in split and "strong 8/8/8/9" in split
    partly = rs.headline(4, [_cell("scripted", "confirmed"), _cell("strong", "undecided")], 0.02)
    assert "no vector confirmed for strong: undecided" in partly
    assert "no skilled population" in rs.headline(4, [_cell("random", "confirmed", floor=True)],
                                                  0.02)


def test_paired_variant_equal_to_the_base_differs_by_exactly_zero(tmp_path: Path) -> None:
    copy = tmp_path / "variants" / "same"
    copy.mkdir(parents=True)
    for toml in DATA_DIR.glob("*.toml"):
        shutil.copy(toml, copy)
    text = TINY.replace("players = [2, 3]", "players = [3]") + (
        '[[variant]]\nname = "same"\ncomponents = "variants/same"\n')
    spec = load_study(study_file(tmp_path, text))
    root = tmp_path / "out"
    play.run(spec, root, jobs=2)
    write(root)
    data = json.loads((root / "study.json").read_text())
    variants = [c for c in data["cells"] if c["variant"] == "same"]
    assert len(variants) == 2
    for c in variants:
        base = next(b for b in data["cells"] if b["variant"] is None
                    and b["population"] == c["population"])
        assert c["difference"]["shares"] == [0.0] * 3
        # no deal changed: its interval is the share of deals changed can reach, never [0, 0]
        # (issue 62: an all-unchanged look claimed "at most 0.0 pp")
        high = c["difference"]["high"]
        assert all(0 < h < 0.05 for h in high) and c["difference"]["low"] == [-h for h in high]
        assert c["difference"]["games"] == base["games"]
        assert c["decision"] == base["decision"] and c["vector"] == base["vector"]  # its own
        for mine, theirs in zip(c["stages"], base["stages"], strict=True):
            assert [RunFolder(root / r).digest() for r in mine["runs"]] == \
                [RunFolder(root / r).digest() for r in theirs["runs"]]
        assert RunFolder(root / c["stages"][0]["runs"][0]).read().config.components == \
            str(copy.resolve())
    md = (root / "study.md").read_text()
    assert "## Variants" in md and "base verdict" in md and "+0.0 [-" in md
    assert "+0.0 [+0.0, +0.0]" not in md


def test_a_population_that_reads_scores_is_judged_at_the_rulebook_only(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "peeking.py").write_text(
        "from strategies.example import Random as RandomStrategy\n"
        "class Peeker(RandomStrategy):\n    name = 'peeker'\n    reads_scores = True\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    text = ('name = "peek"\nseed = 3\ngames = 120\nchunk_size = 30\nplayers = [2]\n'
            'tolerance = 0.4\n[[population]]\nname = "peekers"\nlineup = ["peeking:Peeker"]\n')
    spec = load_study(study_file(tmp_path, text))
    root = tmp_path / "out"
    manifest = play.run(spec, root, jobs=1)  # in-process: the module is importable
    (cell,) = manifest.cells
    assert (cell.method, cell.radius) == ("rulebook only", 0)
    assert cell.decision is not None and cell.decision.vector == (8, 9)  # the only one judged
    write(root)
    assert "rulebook only" in (root / "study.json").read_text()


BAD = [
    ("populaton = []\n", "unknown key 'populaton' (did you mean 'population'?"),
    ('[[population]]\nname = "x"\nlinup = ["random"]\n', "unknown key 'linup'"),
    ('[[population]]\nname = "x"\nlineup = ["nope"]\n', "unknown strategy 'nope'"),
    ('[[population]]\nname = "x"\nlineup = []\n', "population 'x': give one of lineup"),
    ("", "at least one [[population]]"),
    ('players = [2, 5]\n[[population]]\nname = "x"\nlineup = ["random"]\n',
     "players: carpe-diem is played by 2, 3, 4 players, not 5"),
    ('players = [4]\n[[population]]\nname = "x"\nlineup = ["greedy", "villa"]\n',
     "lineup names 2 strategies, fewer than the 4 seats"),
    ('players = [3]\n[[population]]\nname = "x"\nlineups = [["greedy", "villa"]]\n',
     "lineups has no line-up of 3 players"),
    ('[[population]]\nname = "x"\nlineup = ["random"]\n[[variant]]\nname = "v"\n'
     'components = "no/such/folder"\n', "unreadable component set"),
    ('[[population]]\nname = "x"\nlineup = ["random"]\n[[variant]]\nname = "v"\n'
     'components = "broken"\n', "broken"),
    ('[[population]]\nname = "x"\nlineup = ["random"]\nrotate_seats = true\n', "replay each deal"),
    ('games = 0\n[[population]]\nname = "x"\nlineup = ["random"]\n', "games must be between 1 and 100000000"),
    ('games = 40\n[[population]]\nname = "x"\nlineup = ["greedy", "villa", "bread", "landscape"]\n',
     "must hold the first stage"),
    ('confirm_games = 10\n[[population]]\nname = "x"\nlineup = ["random"]\n',
     "confirm_games is no longer a study key"),
    ('alpha = 0.9\n[[population]]\nname = "x"\nlineup = ["random"]\n',
     "alpha must be above 0 and below 0.5, got 0.9"),
    ('games = "9"\n[[population]]\nname = "x"\nlineup = ["random"]\n',
     "games must be an integer, got '9'"),
    ('seed = true\n[[population]]\nname = "x"\nlineup = ["random"]\n',
     "seed must be an integer, got True"),
    ('players = [2, "3"]\n[[population]]\nname = "x"\nlineup = ["random"]\n',
     "players.1 must be an integer, got '3'"),
    ('start_vp = { 2 = [8] }\n[[population]]\nname = "x"\nlineup = ["random"]\n',
     "start_vp: 2 players need 2 integers, got [8]"),
    ('[start_vp]\n"a\\nb" = "x"\n[[population]]\nname = "x"\nlineup = ["random"]\n',
     "start_vp.'a\\nb' must be a list, got 'x'"),  # a key's newline stays on one line
    ('[[population]]\nname = ["x"]\nlineup = ["random"]\n',
     "population 1: name must be a string, got ['x']"),
    ('[[population]]\nname = "x"\nlineup = ["random"]\ngames = 0\n',
     "population 'x': games must be between 1 and 100000000, got 0"),
    ('[[population]]\nname = "x"\nlineup = ["random"]\n[[variant]]\nname = "v"\n',
     "variant 'v': components is required"),
    ('[[population]]\nname = "x"\nlineup = ["random"]\n[[variant]]\nname = "v"\ncomponent = "x"\n',
     "variant 'v': unknown key 'component' (did you mean 'components'?"),
    # what the loader sets on a variant or a sweep is no key of the file
    ('[[population]]\nname = "x"\nlineup = ["random"]\n[[variant]]\nname = "v"\n'
     'components = "broken"\ndigest = "x"\n',
     "variant 'v': unknown key 'digest' (known: name, description, components)"),
    ('[[population]]\nname = "x"\nlineup = ["random"]\n[[sweep]]\nname = "s"\n'
     'entry = "objective.B05"\nkey = "reward.vp"\nvalues = [6]\nbase_value = 5\n',
     "sweep 's': unknown key 'base_value' (did you mean 'values'? known: name, description, "
     "entry, key, values, base)"),
    ('[[population]]\nname = "x"\nlineup = ["random"]\n[[cell]]\nplayers = 3\npopulation = "y"\n',
     "cell 1: population 'y' is not one of the study's (x)"),
    ('[[population]]\nname = "x"\nlineup = ["random"]\n[[cell]]\nplayers = 5\npopulation = "x"\n',
     "cell 1: players = 5 is not one of the studied player counts [2, 3, 4]"),
    ('[[population]]\nname = "a b"\nlineup = ["random"]\n', "names folders"),
    ('[[population]]\nname = "x"\nlineup = ["random"]\nchunk_size = 0\n',
     "population 'x': chunk_size must be between 1 and"),
    ('[[population]]\nname = "x"\nlineup = ["random"]\n[[population]]\nname = "x"\n'
     'lineup = ["greedy"]\n', "comes twice"),
    ('[[population]]\nname = "x"\nlineup = ["random"]\nstrategy_params = "villa.nope=1"\n',
     "no parameter 'nope'"),
    ("name = [", "not valid TOML"),
]


@pytest.mark.parametrize(("body", "expect"), BAD)
def test_bad_study_files_are_one_line_and_exit_2(
        body: str, expect: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "cards.toml").write_text("[[objective]]\nid = 3\n")
    text = body if body.startswith("name") else 'name = "bad"\n' + body
    path = study_file(tmp_path, text)
    code, err = run_main(["study", "run", str(path), "--out", str(tmp_path / "out")],
                          monkeypatch, capsys)
    assert code == 2, err
    assert err.startswith("cdsim: error: ") and err.count("\n") == 1, err
    assert expect in err and str(path) in err, err
    assert not (tmp_path / "out").exists()  # nothing ran


def test_study_folder_errors_are_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    path = study_file(tmp_path, TINY.replace("players = [2, 3]", "players = [2]")
                      .replace("games = 720", "games = 180"))
    out = str(tmp_path / "out")
    code, err = run_main(["study", "run", str(path), "--out", out, "--resume"], monkeypatch, capsys)
    assert code == 2 and "no study to resume" in err
    monkeypatch.setattr(sys, "argv", ["cdsim", "study", "run", str(path), "--out", out, "--jobs",
                                      "1", "--quiet"])
    main()
    said = capsys.readouterr()
    assert said.err == "" and "next: cdsim study report" in said.out  # --quiet: no progress
    code, err = run_main(["study", "run", str(path), "--out", out], monkeypatch, capsys)
    assert code == 2 and "already holds a study" in err and err.count("\n") == 1
    path.write_text(path.read_text().replace("seed = 5", "seed = 6"))
    code, err = run_main(["study", "run", str(path), "--out", out, "--resume"], monkeypatch, capsys)
    assert code == 2 and "another study file" in err
    code, err = run_main(["study", "report", str(tmp_path)], monkeypatch, capsys)
    assert code == 2 and "not a study folder" in err
    monkeypatch.setattr(sys, "argv", ["cdsim", "study", "report", out])
    main()
    told = capsys.readouterr()
    said = told.out
    assert "study.html (self-contained)" in said and "2 players: " in said
    # a progress line on stderr for each page and chart as it is written; --quiet: none
    steps = told.err.splitlines()
    assert re.fullmatch(r"study report: reading cell 1 of \d+, \S+: its games, seat win shares "
                        "and fair offsets", steps[0]), told.err
    assert "study report: writing study.html" in steps, told.err
    assert any(re.fullmatch(r"study report: writing charts/\w+\.png", s) for s in steps)
    monkeypatch.setattr(sys, "argv", ["cdsim", "study", "report", out, "--quiet"])
    main()
    told = capsys.readouterr()
    assert told.err == "" and "study.html (self-contained)" in told.out
    code, err = run_main(["study", "run", "nonesuch"], monkeypatch, capsys)
    assert code == 2 and "shipped studies: castles, default" in err


def test_the_shipped_default_study_is_valid(tmp_path: Path) -> None:
    write_template(tmp_path / "mine.toml")  # `cdsim study init`
    with pytest.raises(Exception, match="exists"):
        write_template(tmp_path / "mine.toml")
    spec = load_study(resolve(tmp_path / "mine.toml"))
    assert spec.file.name == "mine"  # its folder: studies/mine, not the shipped study's
    assert spec.identity() == load_study(resolve("default")).identity()
    assert spec.file.players == (2, 3, 4)
    assert [p.name for p in spec.file.population][:2] == ["random", "scripted"]
    assert spec.file.population[0].floor and not spec.file.population[1].floor
    assert len(spec.cells) == 2 * 3 + 3 * ("strong" in [p.name for p in spec.file.population])
    assert not spec.variants
    scripted = {c.players: c for c in spec.cells if c.population.name == "scripted"}
    assert [len(scripted[n].lineups) for n in (2, 3, 4)] == [6, 4, 1]  # balanced
    for cell in spec.cells:  # a schedule of a few stages, each at least 30 deals
        sizes = spec.schedule(cell)
        assert 3 <= len(sizes) <= 8 and sizes[0] >= anytime.MIN_GROUPS * cell.deal


def test_each_headline_number_comes_from_the_population_it_names() -> None:
    weak = _cell("scripted", "confirmed")
    strong = _cell("strong", "undecided", shares=Shares(
        (8, 9, 10, 11), (600,) * 4, np.full(4, 0.25), np.full(4, 0.2), np.full(4, 0.3), 0.09,
        (0.05, 0.13)))
    text = rs.headline(4, [weak, strong], 0.02)
    assert "6.0 pp for scripted (95% interval 4.0–8.0 pp, 1,000 games)" in text
    assert "9.0 pp for strong (95% interval 5.0–13.0 pp, 2,400 games)" in text
    assert "112,500 scripted games played since it was chosen" in text
    several = ((8, 7, 7, 10), (8, 8, 7, 10), (8, 7, 8, 10))
    text = rs.headline(4, [_cell("scripted", "confirmed", fair_set=several)], 0.02)
    assert text.startswith("4 players: 3 vectors are shown fair within ±2.0 pp for scripted: "
                           "8/7/7/10, 8/8/7/10, 8/7/8/10")
    assert text.index("8/7/8/10") < text.index("the stated rule")
