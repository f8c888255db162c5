"""Reports and balance: known answers on hand-made run folders, and exactness on real runs."""

from __future__ import annotations

import base64
import json
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats

from cdsim.analysis.candidates import rerank_winners
from cdsim.analysis.rows import seat_balance
from cdsim.analysis.stats import (
    chi2_power,
    design_effect,
    equal_shares_test,
    power_analysis,
    shares_for_gap,
    wilson,
)
from cdsim.batch import balance as judging
from cdsim.batch.config import RunConfig
from cdsim.batch.folder import RunFolder
from cdsim.batch.manifest import RunManifest
from cdsim.batch.queue import run_chunks
from cdsim.batch.read import SeatArrays, open_run, seat_arrays
from cdsim.errors import CdsimError
from cdsim.games.carpe_diem.rules.records import SEAT_FIELDS
from reports.report import write

CHARTS = {"seat_win_share", "placements", "strategy_win_share", "vp_sources", "vp_by_phase",
          "final_vp", "convergence", "start_vp_shift"}


def cdsim(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cdsim", *args], capture_output=True,
                          text=True, check=False)


def one_line_exit_2(out: subprocess.CompletedProcess[str]) -> str:
    assert out.returncode == 2, out.stdout + out.stderr
    assert out.stderr.startswith("cdsim: error:") and out.stderr.count("\n") == 1, out.stderr
    return out.stderr


def write_run(path: Path, games: list[list[tuple[int, int, int]]], start_vp: tuple[int, ...],
              strategies: tuple[str, ...] | None = None, chunk: int = 4) -> Path:
    """A run folder by hand. Each game: (final_vp, scroll, stack) per seat; ranks by R10.6."""
    n = len(start_vp)
    strategies = strategies or ("random",) * n
    rows = []
    for g, seats in enumerate(games):
        order = sorted(range(n), key=lambda s: (-seats[s][0], seats[s][1], seats[s][2]))
        tiebreak = seats[order[0]][0] == seats[order[1]][0]
        for s, (vp, scroll, stack) in enumerate(seats):
            row: dict[str, object] = dict.fromkeys(SEAT_FIELDS, 0)
            rank = order.index(s) + 1
            row.update(seat=s, strategy=strategies[s], start_vp=start_vp[s], vp_start=start_vp[s],
                       vp_cards=vp - start_vp[s], final_vp=vp, scroll=scroll, stack=stack,
                       rank=rank, won=rank == 1, vp_phase1=start_vp[s], vp_phase2=start_vp[s],
                       vp_phase3=start_vp[s], vp_phase4=start_vp[s], failed_cards=g % 3)
            row.update(seed=1, players=n, tiebreak=tiebreak, game=g, setup=g)
            rows.append(row)
    (path / "games").mkdir(parents=True)
    chunks = [(i, min(i + chunk, len(games))) for i in range(0, len(games), chunk)]
    for i, (a, b) in enumerate(chunks):
        pl.DataFrame([r for r in rows if a <= int(r["game"]) < b]).write_parquet(RunFolder(path).part(i))  # type: ignore[call-overload]
    config = {"players": n, "games": len(games), "seed": 1, "strategies": list(strategies),
              "strategy_pool": [], "start_vp": list(start_vp), "rotate_seats": False,
              "components": None, "chunk_size": chunk, "strategy_params": None,
              "components_digest": "x" * 64}
    RunFolder(path).write(RunManifest.load(path, {
        "config": config, "config_identity": config, "seed": 1, "versions": {"cdsim": "test"},
        "components_digest": "x" * 64, "components_default": True, "chunks": chunks,
        "finished": list(range(len(chunks))), "wall_seconds": 1.5, "command": "hand-made",
        "reads_scores": dict.fromkeys(strategies, False)}))
    return path


# Ten 3-player games; seat wins 5/3/2. Game 7 ties seats 0 and 1 on 30 VP: seat 1 is further
# behind on the scroll track and wins it (R10.6). Game 8 ties seats 1 and 2 on the same scroll
# space: seat 2 is lower in the stack and wins.
HAND = [
    [(40, 3, 0), (30, 2, 0), (20, 1, 0)],
    [(40, 3, 0), (30, 2, 0), (20, 1, 0)],
    [(40, 3, 0), (30, 2, 0), (20, 1, 0)],
    [(40, 3, 0), (30, 2, 0), (20, 1, 0)],
    [(40, 3, 0), (30, 2, 0), (20, 1, 0)],
    [(20, 3, 0), (40, 2, 0), (30, 1, 0)],
    [(20, 3, 0), (40, 2, 0), (30, 1, 0)],
    [(30, 3, 0), (30, 2, 0), (10, 1, 0)],
    [(10, 3, 0), (35, 4, 1), (35, 4, 0)],
    [(10, 3, 0), (20, 2, 0), (36, 1, 0)],
]


@pytest.fixture
def hand(tmp_path: Path) -> Path:
    return write_run(tmp_path / "hand", HAND, (8, 9, 13))


def test_seat_win_shares_and_wilson_bounds_match_scipy(hand: Path) -> None:
    run = open_run(hand)
    sb = seat_balance(run, seat_arrays(run))
    assert sb.table["wins"].to_list() == [5, 3, 2]
    assert sb.table["share"].to_list() == pytest.approx([0.5, 0.3, 0.2])
    for k, low, high in zip(sb.table["wins"], sb.table["low"], sb.table["high"], strict=True):
        ci = stats.binomtest(int(k), 10).proportion_ci(0.95, method="wilson")
        assert (low, high) == pytest.approx((ci.low, ci.high), abs=1e-9)
    ref = stats.chisquare([5, 3, 2])
    assert (sb.test.chi2, sb.test.p_value) == pytest.approx((ref.statistic, ref.pvalue))
    # margins: seat 0 loses games 5..9 by 20, 20, 0, 25, 26
    assert sb.table["mean_margin_losing"][0] == pytest.approx((20 + 20 + 0 + 25 + 26) / 5)


def test_ties_and_tiebreak_games_are_counted(hand: Path) -> None:
    run = open_run(hand)
    arrays = seat_arrays(run)
    sb = seat_balance(run, arrays)
    assert (sb.tied_games, sb.tiebreak_games) == (2, 2)
    assert sb.table["tiebreak_wins"].to_list() == [0, 1, 1]
    placements = sb.placements.filter(pl.col("seat") == 2).sort("rank")
    assert placements["count"].to_list() == [2, 2, 6]


def winners(arrays: SeatArrays, vector: object) -> np.ndarray:
    return rerank_winners(arrays.base, arrays.tiebreak_order, vector)


def win_counts(arrays: SeatArrays, vector: object) -> list[int]:
    return np.bincount(winners(arrays, vector), minlength=arrays.players).tolist()


def test_rerank_with_the_logged_vector_reproduces_the_winners(hand: Path) -> None:
    arrays = seat_arrays(open_run(hand))
    logged = np.argmax(arrays.won, axis=1)
    assert (winners(arrays, (8, 9, 13)) == logged).all()
    assert (winners(arrays, (18, 19, 23)) == logged).all()  # only differences matter
    # +1 VP for seat 0 breaks game 7's tie its way
    assert winners(arrays, (9, 9, 13))[7] == 0
    # +1 VP for seat 1 wins game 8, which it lost on the stack
    assert winners(arrays, (8, 10, 13))[8] == 1


def test_search_finds_the_most_equal_vector(tmp_path: Path) -> None:
    # Before the start VP, seat 0 scores 10 or 11 (alternating), seat 1 always 13; seat 0 is
    # behind on the scroll track, so it wins ties. Start 10/8: seat 0 wins exactly the odd
    # games (21 vs 21, on the tie-break) and loses the even ones (20 vs 21): 4 / 4.
    games = [[(20 + (g % 2), 1, 0), (23, 2, 0)] for g in range(8)]
    run = write_run(tmp_path / "two", games, (10, 10))
    arrays = seat_arrays(open_run(run))
    assert win_counts(arrays, (10, 10)) == [0, 8]
    best = judging.analyse(open_run(run), arrays, 0.02).vector
    assert best == (10, 8)
    assert win_counts(arrays, best) == [4, 4]
    assert win_counts(arrays, (10, 7)) == [8, 0]


def test_design_effect_and_wilson() -> None:
    rng = np.random.default_rng(0)
    y = rng.random(4000) < 0.3
    assert design_effect(y, np.arange(4000)) == pytest.approx(1.0, abs=0.1)
    clustered = np.repeat(rng.random(1000) < 0.3, 4)  # four identical copies of each draw
    assert design_effect(clustered, np.repeat(np.arange(1000), 4)) == pytest.approx(4.0, rel=0.1)
    low, high = wilson(np.array([0.0, 1.0]), np.array([6, 6]))
    assert low[0] == 0.0 and high[1] == 1.0  # a share of 0 or 1 is inside its own interval
    low, high = wilson(np.array([0.5]), np.array([100 / 4]))
    ci = stats.binomtest(12, 25).proportion_ci(0.95, method="wilson")  # n_eff = 25
    assert high[0] - low[0] == pytest.approx(ci.high - ci.low, rel=0.05)


def test_power_is_what_a_monte_carlo_of_the_test_finds() -> None:
    pw = power_analysis(4, 0.05)
    p = shares_for_gap(4, 0.05)
    assert chi2_power(pw.games_chi2, p) >= 0.8 > chi2_power(pw.games_chi2 - 1, p)
    rng = np.random.default_rng(1)
    wins = rng.multinomial(pw.games_chi2, p, size=3000)
    rejected = np.mean([equal_shares_test(w).p_value < 0.05 for w in wins])
    assert rejected == pytest.approx(0.8, abs=0.03)
    assert power_analysis(4, 0.03).games_chi2 > pw.games_chi2  # smaller gaps need more games
    with pytest.raises(ValueError):
        power_analysis(6, 0.03)  # no game cdsim plays takes 6 players (5: the Mediterranean)


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.images: dict[str, bytes] = {}
        self.figure = ""
        self.tables = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "figure":
            self.figure = a["id"] or ""
        elif tag == "img":
            src = a["src"] or ""
            assert src.startswith("data:image/png;base64,"), src[:40]
            self.images[self.figure] = base64.b64decode(src.split(",", 1)[1])
        elif tag == "table":
            self.tables += 1


def test_report_html_is_self_contained_with_every_chart(hand: Path, tmp_path: Path) -> None:
    out = cdsim("report", str(hand), "--out", str(tmp_path / "rep"))
    assert out.returncode == 0, out.stderr
    page = _Page()
    page.feed((tmp_path / "rep" / "report.html").read_text())
    assert set(page.images) == CHARTS
    assert all(png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) > 2000 for png in page.images.values())
    assert page.tables >= 6
    md = (tmp_path / "rep" / "report.md").read_text()
    for name in CHARTS:
        assert f"](charts/{name}.png)" in md
        assert (tmp_path / "rep" / "charts" / f"{name}.png").read_bytes() == page.images[name]
    assert "50.0% [" in md and "reconstructed default" in md and "p = " in md
    assert "| strategy | seat 1 | seat 2 | seat 3 |" in md and "seat 0" not in md  # from 1
    assert "\n| 1 | 8 | 10 | 5 |" in md  # the seat table's first row: seat 1, 8 VP, 5 wins


def _simulate(run: Path, start_vp: tuple[int, ...], games: int = 45) -> Path:
    n = len(start_vp)
    config = RunConfig(players=n, games=games, seed=11, strategies=("random",) * n,
                       start_vp=start_vp, chunk_size=15)
    run_chunks(RunFolder(run), RunFolder(run).begin(config, False, False), 1, "loky")
    return run


def test_rerank_matches_a_real_resimulation(tmp_path: Path) -> None:
    base = _simulate(tmp_path / "base", (8, 9, 13))
    arrays = seat_arrays(open_run(base))
    assert (winners(arrays, (8, 9, 13)) == np.argmax(arrays.won, axis=1)).all()
    recommended = judging.analyse(open_run(base), arrays, 0.02).vector
    for vector in {recommended, (13, 9, 8), (8, 8, 8)}:
        again = _simulate(tmp_path / "v{}_{}_{}".format(*vector), vector)
        rows = RunFolder(again).rows()
        real = np.array([r["won"] for r in rows]).reshape(-1, 3)
        assert (winners(arrays, vector) == np.argmax(real, axis=1)).all(), vector
        final = np.array([r["final_vp"] for r in rows]).reshape(-1, 3)
        assert (arrays.base + np.array(vector) == final).all()


@pytest.mark.parametrize("start_vp", [(8, 9), (8, 9, 10, 11)])
def test_rerank_is_exact_for_two_and_four_players(tmp_path: Path, start_vp: tuple[int, ...]) -> None:
    arrays = seat_arrays(open_run(_simulate(tmp_path / "base", start_vp, games=30)))
    assert (winners(arrays, start_vp) == np.argmax(arrays.won, axis=1)).all()
    other = tuple(reversed(start_vp))
    real = seat_arrays(open_run(_simulate(tmp_path / "other", other, games=30)))
    assert (winners(arrays, other) == np.argmax(real.won, axis=1)).all()
    assert (np.argmax(real.won, axis=1) != np.argmax(arrays.won, axis=1)).any()  # a real change


def test_balance_command_prints_both_vectors_and_writes_the_chart(hand: Path) -> None:
    out = cdsim("balance", str(hand), "--tolerance", "0.05")
    assert out.returncode == 0, out.stderr
    assert "now: start VP 8/9/13" in out.stdout
    # three players, one run: the vector is chosen on these games, so never "confirmed"
    assert "most equal so far (not confirmed)" in out.stdout and "confirmed fair" not in out.stdout
    assert "tolerance ±5.0 pp" in out.stdout
    table = out.stdout.splitlines()[2:5]  # the seats, counted from 1
    assert [line.split()[:2] for line in table] == [["1", "8"], ["2", "9"], ["3", "13"]]
    assert (hand / "balance_shift.png").read_bytes().startswith(b"\x89PNG")
    data = json.loads(cdsim("balance", str(hand), "--json").stdout)
    assert data["current"]["start_vp"] == [8, 9, 13]
    assert [(x["seat"], x["wins"]) for x in data["current"]["seats"]] == [(1, 5), (2, 3), (3, 2)]
    assert [c["seat"] for c in data["shift_curves"]] == [1, 2, 3]
    assert data["games"] == 10 and data["decision"] == "undecided" and not data["confirmed"]
    assert "--tolerance" in one_line_exit_2(cdsim("balance", str(hand), "--tolerance", "3"))
    assert "--radius" in one_line_exit_2(cdsim("balance", str(hand), "--radius", "40"))


def test_power_command() -> None:
    out = cdsim("power", "--players", "3", "--effect", "0.03")
    assert out.returncode == 0, out.stderr
    pw = power_analysis(3, 0.03)
    assert str(pw.games_chi2) in out.stdout and str(pw.games_ci) in out.stdout
    one_line_exit_2(cdsim("power", "--players", "4", "--effect", "0.9"))


def test_score_reading_strategy_is_refused_from_the_manifest(hand: Path, tmp_path: Path) -> None:
    # the manifest's record decides: "peeker:Peeker" is no module anywhere, so a check that
    # imported the strategy would fail differently
    manifest = json.loads((hand / "manifest.json").read_text())
    manifest["config"]["strategies"] = ["random", "peeker:Peeker", "random"]
    manifest["reads_scores"] = {"random": False, "peeker:Peeker": True}
    (hand / "manifest.json").write_text(json.dumps(manifest))
    run = open_run(hand)
    with pytest.raises(CdsimError, match="'peeker:Peeker' reads VP totals"):
        judging.analyse(run, seat_arrays(run))
    page = write(hand, tmp_path / "rep")
    assert "Not analysed" in page.with_suffix(".md").read_text()
    manifest["reads_scores"]["peeker:Peeker"] = False  # recorded blind: analysed, not imported
    (hand / "manifest.json").write_text(json.dumps(manifest))
    assert judging.analyse(open_run(hand), seat_arrays(open_run(hand))).games == 10


def test_bad_run_folders_give_one_line(hand: Path, tmp_path: Path) -> None:
    for command in ("report", "balance"):
        assert "no such run folder" in one_line_exit_2(cdsim(command, str(tmp_path / "missing")))
        (tmp_path / "empty").mkdir(exist_ok=True)
        assert "not a run folder" in one_line_exit_2(cdsim(command, str(tmp_path / "empty")))
    manifest = json.loads((hand / "manifest.json").read_text())
    manifest["finished"] = []
    (hand / "manifest.json").write_text(json.dumps(manifest))
    assert "no finished games" in one_line_exit_2(cdsim("report", str(hand)))
    manifest["finished"] = [0, 1, 2]
    (hand / "manifest.json").write_text(json.dumps(manifest))
    RunFolder(hand).part(1).write_bytes(b"not parquet")
    assert "corrupt" in one_line_exit_2(cdsim("report", str(hand)))
    assert RunFolder(hand).part(1).exists()  # nothing is deleted
    (tmp_path / "file").write_text("")
    RunFolder(hand).part(1).unlink()
    manifest["finished"] = [0, 2]
    (hand / "manifest.json").write_text(json.dumps(manifest))
    assert "cannot write" in one_line_exit_2(cdsim("report", str(hand), "--out",
                                                   str(tmp_path / "file" / "sub")))


@st.composite
def _games(draw: st.DrawFn) -> tuple[SeatArrays, list[list[tuple[int, int, int]]]]:
    n = draw(st.integers(2, 4))
    g = draw(st.integers(1, 12))
    games = []
    for _ in range(g):
        scrolls = draw(st.lists(st.integers(0, 3), min_size=n, max_size=n))
        stacks = [sum(1 for t in range(s) if scrolls[t] == scrolls[s]) for s in range(n)]
        games.append([(draw(st.integers(-5, 5)), scrolls[s], stacks[s]) for s in range(n)])
    base = np.array([[vp for vp, _, _ in game] for game in games], dtype=np.int64)
    key = np.array([[sc * (n + 1) + sk for _, sc, sk in game] for game in games])
    order = np.argsort(np.argsort(key, axis=1, kind="stable"), axis=1)
    zeros = np.zeros_like(base)
    arrays = SeatArrays(setup=np.arange(g), start_vp=zeros, base=base, tiebreak_order=order,
                        won=zeros.astype(bool))
    return arrays, games


@given(_games(), st.lists(st.integers(-4, 4), min_size=4, max_size=4), st.integers(-3, 3))
def test_rerank_properties(data: tuple[SeatArrays, list[list[tuple[int, int, int]]]],
                           shift: list[int], c: int) -> None:
    arrays, games = data
    n = arrays.players
    v = np.array(shift[:n], dtype=np.int64)
    got = winners(arrays, v)
    for g, game in enumerate(games):  # R10.6 by brute force
        want = min(range(n), key=lambda s: (-(game[s][0] + v[s]), game[s][1], game[s][2]))
        assert got[g] == want
    assert (winners(arrays, v + c) == got).all()  # only differences matter
    before = win_counts(arrays, v)
    for s in range(n):  # one more VP for seat s: it wins no fewer, nobody else wins more
        up = v.copy()
        up[s] += 1
        after = win_counts(arrays, up)
        assert after[s] >= before[s]
        assert all(after[t] <= before[t] for t in range(n) if t != s)
