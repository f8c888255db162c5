"""`cdsim study`: a tiny study end to end, resume, the bootstrap, paired variants, bad files."""

from __future__ import annotations

import base64
import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from cdsim import study as st
from cdsim.cli import main
from cdsim.components import DATA_DIR
from cdsim.runner import read_manifest, run_digest
from reports import balance
from reports.data import SeatArrays
from reports.study import Fitter, deal_weights, rerank_stability, write

TINY = """\
name = "tiny"
seed = 5
games = 12
chunk_size = 4
players = [2, 3]
[[population]]
name = "random"
lineup = ["random"]
[[population]]
name = "mix"
lineup = ["greedy", "landscape", "bread"]
rotate_seats = true
"""


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
    assert "3p.mix+confirm: " in out.stdout and "games/s" in out.stdout  # plain progress lines
    out = cdsim("study", "report", str(root))
    assert out.returncode == 0, out.stderr
    data = json.loads((root / "study.json").read_text())
    assert (data["name"], data["seed"]) == ("tiny", 5)
    assert set(data["headlines"]) == {"2", "3"}
    assert all(isinstance(h, str) and h.startswith(f"{k} players: ")
               for k, h in data["headlines"].items())
    cells = {(c["players"], c["population"]): c for c in data["cells"]}
    assert set(cells) == {(p, pop) for p in (2, 3) for pop in ("random", "mix")}
    for (players, _), c in cells.items():
        assert c["variant"] is None and c["method"] == "re-ranking"
        assert c["games"] == 12
        assert c["current"] == {2: [8, 9], 3: [8, 9, 13]}[players]  # R2.7
        assert len(c["shares"]) == len(c["recommended"]) == players
        assert sum(c["shares"]) == pytest.approx(1.0)
        assert c["recommended"][0] == c["current"][0]  # only differences matter: seat 1 kept
        assert 0 < c["stability"] <= 1
        confirm = c["confirm"]
        assert confirm["seed"] != data["seed"] and confirm["games"] == 12
        assert confirm["start_vp"] == c["recommended"]
        assert sum(confirm["shares"]) == pytest.approx(1.0)
        assert isinstance(confirm["within_tolerance"], bool)
        # each cell is an ordinary run folder; the confirmation plays other deals
        fit_rows = read_manifest(root / c["run"])
        assert fit_rows["config"]["seed"] == 5
        conf = read_manifest(root / confirm["run"])["config"]
        assert conf["seed"] == confirm["seed"] and conf["start_vp"] == c["recommended"]
    assert cells[(3, "mix")]["design_effect"] >= 1
    page = (root / "study.html").read_text()
    assert page.count("data:image/png;base64,") == 4 and "src=\"charts/" not in page
    png = base64.b64decode(page.split("data:image/png;base64,", 1)[1].split('"', 1)[0])
    assert png.startswith(b"\x89PNG")
    md = (root / "study.md").read_text()
    assert "## Headlines" in md and "| seat 1 | seat 2 | seat 3 |" in md and "seat 3 over seat 1" in md
    assert "seat 0" not in md  # people count seats from 1
    assert (root / "charts" / "compensation_3p.png").is_file()
    balanced = cdsim("balance", str(root / "cells" / "3p.mix"), "--json")
    assert balanced.returncode == 0, balanced.stderr
    assert json.loads(balanced.stdout)["recommended"]["start_vp"] == cells[(3, "mix")]["recommended"]


class Stop(Exception):
    pass


def test_resume_after_a_kill_equals_an_uninterrupted_study(tmp_path: Path) -> None:
    spec = st.load_study(study_file(tmp_path))
    whole, broken = tmp_path / "whole", tmp_path / "broken"
    st.run(spec, whole, Fitter(), jobs=1)
    seen: list[str] = []

    def stop_after_5(key: str, games: int) -> None:
        seen.append(key)
        if len(seen) == 5:
            raise Stop

    with pytest.raises(Stop):
        st.run(spec, broken, Fitter(), jobs=2, on_chunk=stop_after_5)
    parts = {p: p.stat().st_mtime_ns for p in (broken / "cells").glob("*/games/part-*.parquet")}
    assert len(parts) >= 5
    with pytest.raises(Exception, match="already holds a study"):
        st.run(spec, broken, Fitter(), jobs=1)
    st.run(spec, broken, Fitter(), jobs=1, resume=True)
    for part, mtime in parts.items():  # nothing finished before the kill was played again
        assert part.stat().st_mtime_ns == mtime, part
    runs = sorted(p.name for p in (whole / "cells").iterdir())
    assert runs == sorted(p.name for p in (broken / "cells").iterdir())
    assert len(runs) == 8  # 2 player counts x 2 populations, each fitted and confirmed
    for name in runs:
        assert run_digest(whole / "cells" / name) == run_digest(broken / "cells" / name), name
    same = [json.loads((r / st.STUDY_MANIFEST).read_text())["cells"] for r in (whole, broken)]
    assert same[0] == same[1]


def _arrays(base: list[list[int]], setup: list[int], scroll: list[list[int]]) -> SeatArrays:
    b = np.array(base, dtype=np.int64)
    order = np.argsort(np.argsort(np.array(scroll), axis=1, kind="stable"), axis=1)
    return SeatArrays(setup=np.array(setup, dtype=np.int64), start_vp=np.zeros_like(b), base=b,
                      tiebreak_order=order, won=np.zeros(b.shape, dtype=bool))


def test_bootstrap_stability_known_answers() -> None:
    # Two-player deals, each played in both seat rotations: seat 1 ahead by 3 VP in one game,
    # seat 2 ahead by 3 in the other, and seat 1 wins ties (further behind on the scroll).
    # Every deal splits 1:1 exactly when seat 2 gets -2..+3 VP over seat 1, so every resample
    # of whole deals chooses the one nearest the current 8/14: 8/11, stability 1.0, and
    # seat 2's compensation interval is [+3, +3]. (That whole deals are resampled is pinned
    # by test_deal_weights_resample_whole_deals.)
    deals = 30
    base = [[20, 17], [17, 20]] * deals
    arrays = _arrays(base, [g // 2 for g in range(2 * deals)], [[0, 1]] * (2 * deals))
    assert balance.search(arrays, (8, 14)) == (8, 11)
    stab = rerank_stability(arrays, (8, 14), (8, 11), 6, 200, np.random.default_rng(0))
    assert stab.share == 1.0
    comp, low, high = stab.compensation()
    assert comp.tolist() == [0, 3] and (low[1], high[1]) == (3, 3)
    # A run the seats split at random: deal k's seat 1 leads by k % 7 - 3; the recommendation
    # moves from resample to resample, and its interval holds it.
    rng = np.random.default_rng(2)
    lead = rng.integers(-3, 4, size=200)
    noisy = _arrays([[20 + d, 20] for d in lead], list(range(200)), [[0, 1]] * 200)
    rec = balance.search(noisy, (8, 9))
    stab = rerank_stability(noisy, (8, 9), rec, 6, 200, np.random.default_rng(0))
    assert 0 < stab.share < 1
    comp, low, high = stab.compensation()
    assert low[1] <= comp[1] <= high[1]


def test_deal_weights_resample_whole_deals() -> None:
    setup = np.repeat(np.arange(50), 4)
    w = deal_weights(setup, 300, np.random.default_rng(1))
    assert w.shape == (200, 300)
    assert (w.sum(axis=0) == 200).all()  # 50 deals drawn, 4 games each
    assert (w.reshape(50, 4, 300) == w[::4][:, None, :]).all()  # a deal's games go together


def test_paired_variant_equal_to_the_base_differs_by_exactly_zero(tmp_path: Path) -> None:
    copy = tmp_path / "variants" / "same"
    copy.mkdir(parents=True)
    for toml in DATA_DIR.glob("*.toml"):
        shutil.copy(toml, copy)
    text = TINY.replace("players = [2, 3]", "players = [3]") + (
        '[[variant]]\nname = "same"\ncomponents = "variants/same"\n')
    spec = st.load_study(study_file(tmp_path, text))
    root = tmp_path / "out"
    st.run(spec, root, Fitter(), jobs=2)
    write(root)
    data = json.loads((root / "study.json").read_text())
    variants = [c for c in data["cells"] if c["variant"] == "same"]
    assert len(variants) == 2
    for c in variants:
        base = next(b for b in data["cells"] if b["variant"] is None
                    and b["population"] == c["population"])
        assert c["difference"] == {"shares": [0.0] * 3, "low": [0.0] * 3, "high": [0.0] * 3}
        assert c["shares"] == base["shares"] and c["recommended"] == base["recommended"]
        assert run_digest(root / c["run"]) == run_digest(root / base["run"])
        assert read_manifest(root / c["run"])["config"]["components"] == str(copy.resolve())
    assert "Variants" in (root / "study.md").read_text()


def test_a_population_that_reads_scores_is_fitted_by_resimulation(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "peeking.py").write_text(
        "from strategies.example import Random as RandomStrategy\n"
        "class Peeker(RandomStrategy):\n    name = 'peeker'\n    reads_scores = True\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    text = ('name = "peek"\nseed = 3\ngames = 16\nchunk_size = 8\nplayers = [2]\n'
            '[[population]]\nname = "peekers"\nlineup = ["peeking:Peeker"]\n')
    spec = st.load_study(study_file(tmp_path, text))
    root = tmp_path / "out"
    manifest = st.run(spec, root, Fitter(), jobs=1)  # in-process: the module is importable
    (cell,) = manifest["cells"]
    assert cell["method"] == "re-simulation" and cell["resim"]
    played = [read_manifest(root / "cells" / k)["config"] for k in [cell["fit"], *cell["resim"]]]
    assert {(c["seed"], c["games"]) for c in played} == {(3, 16)}  # the same games each round
    assert tuple(cell["recommended"]) in {tuple(c["start_vp"]) for c in played}
    write(root)
    (c,) = json.loads((root / "study.json").read_text())["cells"]
    assert c["method"] == "re-simulation" and c["confirm"]["start_vp"] == cell["recommended"]
    assert len(c["simulated_vectors"]) == len(played) and 0 < c["stability"] <= 1
    assert "re-simulation" in (root / "study.md").read_text()


def _run_main(args: list[str], monkeypatch: pytest.MonkeyPatch,
              capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    monkeypatch.setattr(sys, "argv", ["cdsim", *args])
    with pytest.raises(SystemExit) as exc:
        main()
    return int(exc.value.code or 0), capsys.readouterr().err


BAD = [
    ("populaton = []\n", "unknown key 'populaton' (did you mean 'population'?"),
    ('[[population]]\nname = "x"\nlinup = ["random"]\n', "unknown key 'linup'"),
    ('[[population]]\nname = "x"\nlineup = ["nope"]\n', "unknown strategy 'nope'"),
    ('[[population]]\nname = "x"\nlineup = []\n', "population 'x': empty"),
    ("", "at least one [[population]]"),
    ('players = [2, 5]\n[[population]]\nname = "x"\nlineup = ["random"]\n', "5 is not a player count"),
    ('players = [4]\n[[population]]\nname = "x"\nlineup = ["greedy", "villa"]\n',
     "lineup names 2 players"),
    ('[[population]]\nname = "x"\nlineup = ["random"]\n[[variant]]\nname = "v"\n'
     'components = "no/such/folder"\n', "unreadable component set"),
    ('[[population]]\nname = "x"\nlineup = ["random"]\n[[variant]]\nname = "v"\n'
     'components = "broken"\n', "broken"),
    ('[[population]]\nname = "x"\nlineup = ["random"]\nrotate_seats = true\n', "replay each deal"),
    ('games = 0\n[[population]]\nname = "x"\nlineup = ["random"]\n', "games must be between 1 and 100000000"),
    ('[[population]]\nname = "a b"\nlineup = ["random"]\n', "names folders"),
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
    code, err = _run_main(["study", "run", str(path), "--out", str(tmp_path / "out")],
                          monkeypatch, capsys)
    assert code == 2, err
    assert err.startswith("cdsim: error: ") and err.count("\n") == 1, err
    assert expect in err and str(path) in err, err
    assert not (tmp_path / "out").exists()  # nothing ran


def test_study_folder_errors_are_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    path = study_file(tmp_path, TINY.replace("players = [2, 3]", "players = [2]")
                      .replace("games = 12", "games = 4"))
    out = str(tmp_path / "out")
    code, err = _run_main(["study", "run", str(path), "--out", out, "--resume"], monkeypatch, capsys)
    assert code == 2 and "no study to resume" in err
    monkeypatch.setattr(sys, "argv", ["cdsim", "study", "run", str(path), "--out", out, "--jobs", "1"])
    main()
    capsys.readouterr()
    code, err = _run_main(["study", "run", str(path), "--out", out], monkeypatch, capsys)
    assert code == 2 and "already holds a study" in err and err.count("\n") == 1
    path.write_text(path.read_text().replace("seed = 5", "seed = 6"))
    code, err = _run_main(["study", "run", str(path), "--out", out, "--resume"], monkeypatch, capsys)
    assert code == 2 and "another study file" in err
    code, err = _run_main(["study", "report", str(tmp_path)], monkeypatch, capsys)
    assert code == 2 and "not a study folder" in err
    code, err = _run_main(["study", "run", "nonesuch"], monkeypatch, capsys)
    assert code == 2 and "shipped studies: default" in err


def test_the_shipped_default_study_is_valid(tmp_path: Path) -> None:
    st.write_template(tmp_path / "mine.toml")  # `cdsim study init`
    with pytest.raises(Exception, match="exists"):
        st.write_template(tmp_path / "mine.toml")
    spec = st.load_study(st.resolve(tmp_path / "mine.toml"))
    assert spec.identity() == st.load_study(st.resolve("default")).identity()
    assert spec.players == (2, 3, 4)
    assert [p.name for p in spec.populations] == ["random", "scripted"]
    assert len(spec.cells) == 6 and not spec.variants
    assert {c.games for c in spec.cells} == {4000, 4002}  # 3 players: whole rotations
