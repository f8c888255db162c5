"""Per-card outcomes (issue 31 item 2): the card rows each game records (core and Python
rules), the card table of a run folder, the per-card win difference and its deal-clustered
interval, and the report's Cards section (Markdown, HTML in a browser, ``--json``)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cdsim.analysis.cards import NEEDED, card_outcomes, win_difference
from cdsim.batch.config import RunConfig
from cdsim.batch.queue import core_chunk_frames, play_chunk_tables
from cdsim.batch.read import card_rows, open_run
from cdsim.games.carpe_diem.cards import CARDS
from cdsim.games.carpe_diem.engine.oracle import EngineMismatch, compare_cards
from cdsim.games.carpe_diem.rules.game import GameConfig
from cdsim.games.carpe_diem.rules.play import play_game
from cdsim.games.carpe_diem.rules.records import CardRow
from strategies.example import Random as RandomStrategy
from tests.conftest import core_or_skip
from tests.test_replay import browser  # noqa: F401  (the headless chromium fixture)

BUILTINS = ("greedy", "villa", "landscape", "bread", "random")


def cdsim(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cdsim", *args], capture_output=True,
                          text=True, check=False, cwd=cwd)


def check_against_seat_rows(rows: pl.DataFrame, cards: pl.DataFrame) -> None:
    """Each seat's card rows agree with its row: objective VP (the -4 of each failed card
    included) = vp_cards, failed rows = failed_cards, 8 objective rows (R8.3: two cards a
    phase), kept VP = vp_fountains, kept rows = fountain_cards."""
    seat = ["game", "seat"]
    per_seat = cards.group_by(seat).agg(
        objective_vp=pl.col("vp").filter(pl.col("kind") == "objective").sum(),
        objective=(pl.col("kind") == "objective").sum(),
        failed=(pl.col("outcome") == "failed").sum(),
        kept_vp=pl.col("vp").filter(pl.col("outcome") == "kept").sum(),
        kept=(pl.col("outcome") == "kept").sum())
    both = rows.join(per_seat, on=seat, how="left")
    assert both.height == rows.height and both["objective"].null_count() == 0
    assert both["objective_vp"].to_list() == both["vp_cards"].to_list()
    assert both["failed"].to_list() == both["failed_cards"].to_list()
    assert set(both["objective"]) == {8}
    assert both["kept_vp"].to_list() == both["vp_fountains"].to_list()
    assert both["kept"].to_list() == both["fountain_cards"].to_list()
    drawn = cards.filter(pl.col("outcome") == "drawn")
    assert drawn["phase"].is_between(1, 4).all() and (drawn["vp"] == 0).all()


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**31),
       lineup=st.permutations(BUILTINS))
def test_the_cores_card_rows_agree_with_the_seat_rows(players: int, seed: int,
                                                      lineup: list[str]) -> None:
    core_or_skip()
    config = RunConfig(players=players, games=6, seed=seed, strategies=tuple(lineup[:players]))
    rows, cards = core_chunk_frames(config, 0, config.games)
    check_against_seat_rows(rows, cards)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**31))
def test_the_python_rules_record_the_same_card_rows(players: int, seed: int) -> None:
    """The Python rules alone agree with their seat rows, and a game played by both engines
    (a Python strategy on the table, so the Python rules run beside the core) gives the
    same card rows through either path."""
    record = play_game(GameConfig(players, check=True),
                       [RandomStrategy() for _ in range(players)], seed)
    rows = pl.DataFrame(record.rows()).with_columns(game=pl.lit(0, pl.Int64))
    cards = pl.DataFrame(record.card_rows()).with_columns(game=pl.lit(0, pl.Int64))
    check_against_seat_rows(rows, cards)
    core_or_skip()
    config = RunConfig(players=players, games=2, seed=seed,
                       strategies=("strategies.example:Builder", *["greedy"] * (players - 1)))
    table_rows, table_cards = play_chunk_tables(config, 0, 2)
    check_against_seat_rows(pl.DataFrame(table_rows),
                            pl.DataFrame(table_cards).select(pl.exclude("multiples")))


def test_the_oracle_names_a_card_row_the_engines_disagree_on() -> None:
    row = CardRow(0, "objective", "B05", "fulfilled", 2, 1, 7)
    compare_cards([row], [row], "game 3")
    with pytest.raises(EngineMismatch, match=r"game 3: the card rows differ: core .*B05.*"
                                             r"python .*vp=3"):
        compare_cards([row], [CardRow(0, "objective", "B05", "fulfilled", 2, 1, 3)], "game 3")


def synthetic_cards(rng: np.random.Generator, deals: int, per_deal: int, taker_wins: float,
                    spread: float) -> pl.DataFrame:
    """Card rows of 4-seat games: in each game one seat takes card X (every seat takes card
    Y); X's taker wins with a probability that is ``taker_wins`` on average but moves by up
    to ±``spread`` from deal to deal (so the games of a deal are correlated); otherwise one
    of the other three wins. Truth: taker_wins - (1 - taker_wins) / 3."""
    rows: dict[str, list[Any]] = {c: [] for c in ("game", "seat", "setup", "won", "strategy",
                                                   "kind", "card", "outcome", "vp")}
    game = 0
    for deal in range(deals):
        p = taker_wins + rng.uniform(-spread, spread)
        for _ in range(per_deal):
            taker = int(rng.integers(4))
            winner = taker if rng.random() < p else int(rng.choice(
                [s for s in range(4) if s != taker]))
            for seat in range(4):
                for card in ("Y", "X") if seat == taker else ("Y",):
                    for key, value in (("game", game), ("seat", seat), ("setup", deal),
                                       ("won", seat == winner), ("strategy", "s"),
                                       ("kind", "objective"), ("card", card),
                                       ("outcome", "fulfilled"), ("vp", 1)):
                        rows[key].append(value)
            game += 1
    return pl.DataFrame(rows)


def test_the_win_difference_interval_covers_the_truth_with_deals_as_clusters() -> None:
    rng = np.random.default_rng(31)
    taker_wins = 0.4
    truth = taker_wins - (1 - taker_wins) / 3
    covered, reps = 0, 150
    for _ in range(reps):
        table = card_outcomes(synthetic_cards(rng, 30, 8, taker_wins, 0.35), CARDS.kinds)
        x = table.row(by_predicate=pl.col("card") == "X", named=True)
        assert x["taken_share"] == pytest.approx(0.25) and x["low"] <= x["difference"] <= x["high"]
        covered += x["low"] <= truth <= x["high"]
    assert 0.9 <= covered / reps <= 0.99, covered / reps
    y = table.row(by_predicate=pl.col("card") == "Y", named=True)
    assert np.isnan(y["difference"])  # every seat took it: no one to compare with


def test_the_win_difference_is_the_takers_share_minus_the_others() -> None:
    # two games of two deals: the taker wins the first, an other seat the second
    diff = win_difference(np.array([1, 2]), np.array([1, 0]), np.array([4, 4]),
                          np.array([1, 1]), np.array([0, 1]))
    assert (diff.takers, diff.others) == (pytest.approx(1 / 3), pytest.approx(1 / 5))
    assert diff.difference == pytest.approx(1 / 3 - 1 / 5) and diff.low < 0 < diff.high


def weak_and_strong_cards(rng: np.random.Generator, deals: int, per_deal: int
                          ) -> pl.DataFrame:
    """Card rows of 4-seat games, seats 0 and 2 ``weak`` (each wins 5% of games), 1 and 3
    ``strong`` (45% each, from deal to deal ±20 points). Card X goes to a weak seat 60% of
    the time and to a strong one 20%, and never changes who wins: within either strategy its
    takers win exactly as often as the others (truth 0), but pooled they win far less."""
    rows: dict[str, list[Any]] = {c: [] for c in NEEDED}
    game = 0
    for deal in range(deals):
        lean = rng.uniform(-0.2, 0.2)
        for _ in range(per_deal):
            winner = int(rng.choice(4, p=[0.05, 0.45 + lean, 0.05, 0.45 - lean]))
            for seat in range(4):
                weak = seat % 2 == 0
                took = rng.random() < (0.6 if weak else 0.2)
                for card in ("Y", "X") if took else ("Y",):
                    for key, value in (("game", game), ("seat", seat), ("setup", deal),
                                       ("won", seat == winner),
                                       ("strategy", "weak" if weak else "strong"),
                                       ("kind", "objective"), ("card", card),
                                       ("outcome", "fulfilled"), ("vp", 1)):
                        rows[key].append(value)
            game += 1
    return pl.DataFrame(rows)


def test_a_card_a_weak_strategy_takes_is_not_flagged_for_it() -> None:
    """Issue 41 item 3: the takers are compared with the seats of their own strategy, so a
    card that only a weak player seeks is not 'significant' because its takers lose: the
    interval holds the truth (0) about 95% of the time, where the pooled comparison (every
    seat one stratum, as the report did) flags it nearly always."""
    rng = np.random.default_rng(41)
    covered = pooled_flagged = 0
    reps, strata = 120, set()
    for _ in range(reps):
        cards = weak_and_strong_cards(rng, 30, 6)
        x = card_outcomes(cards, CARDS.kinds).row(by_predicate=pl.col("card") == "X", named=True)
        covered += x["low"] <= 0 <= x["high"]
        strata.add(x["strata"])
        pooled = card_outcomes(cards.with_columns(strategy=pl.lit("all")), CARDS.kinds).row(
            by_predicate=pl.col("card") == "X", named=True)
        pooled_flagged += pooled["high"] < 0
    assert 0.88 <= covered / reps <= 0.99, covered / reps
    assert pooled_flagged / reps > 0.9, pooled_flagged / reps
    assert strata == {2}  # both strategies compared


def test_the_within_strategy_difference_weights_the_strata_by_their_takers() -> None:
    """Two strategies, one game each per deal: a takes-and-wins stratum and one with no
    difference: D = sum n1_s (p1_s - p0_s) / N1, the others' share standardised alike."""
    # strategy 0: 1 taker of 2 seats per game, the taker wins game 0 only; strategy 1: 2
    # takers of 4 seats, no one of them wins (its other seats win game 1)
    took = np.array([[1, 2], [1, 2]])
    took_won = np.array([[1, 0], [0, 0]])
    seats = np.array([[2, 4], [2, 4]])
    winners = np.array([[1, 0], [0, 1]])
    diff = win_difference(took, took_won, seats, winners, np.array([0, 1]))
    p1, p0 = np.array([1 / 2, 0]), np.array([0, 1 / 4])
    weight = np.array([2, 4]) / 6
    assert diff.difference == pytest.approx(weight @ (p1 - p0))
    assert (diff.takers, diff.others) == (pytest.approx(weight @ p1), pytest.approx(weight @ p0))
    assert diff.strata == 2 and diff.low < diff.difference < diff.high
    # one stratum is the plain takers-minus-others difference
    one = win_difference(took.sum(axis=1), took_won.sum(axis=1), seats.sum(axis=1),
                         winners.sum(axis=1), np.array([0, 1]))
    assert one.difference == pytest.approx(1 / 6 - 1 / 6) and one.strata == 1


@pytest.fixture(scope="module")
def random_and_greedy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    core_or_skip()
    out = tmp_path_factory.mktemp("mixed") / "run"
    done = cdsim("simulate", "--players", "2", "--strategies", "random,greedy", "--games",
                 "1600", "--seed", "3", "--rotate-seats", "--jobs", "1", "--out", str(out))
    assert done.returncode == 0, done.stderr
    return out


def _flagged(table: pl.DataFrame) -> int:
    return table.filter((pl.col("low") > 0) | (pl.col("high") < 0)).height


def test_random_beside_greedy_flags_few_cards(random_and_greedy: Path, tmp_path: Path) -> None:
    """A random player beside greedy (greedy wins nearly every game): pooled, most of the 84
    cards look 'significant' (they measure who took them); compared within each strategy,
    few do, and the report says which figures are associations and which are effects."""
    cards = card_rows(open_run(random_and_greedy))
    pooled = card_outcomes(cards.with_columns(strategy=pl.lit("all")), CARDS.kinds)
    within = card_outcomes(cards, CARDS.kinds)
    assert within.height == pooled.height > 70
    assert _flagged(pooled) > 40, _flagged(pooled)
    assert _flagged(within) <= 4, within.filter(pl.col("low") > 0)
    out = cdsim("report", str(random_and_greedy), "--out", str(tmp_path), "--json")
    assert out.returncode == 0, out.stderr
    found = json.loads(out.stdout)["cards"]
    assert {c["strategies_compared"] for c in found["cards"]} <= {0, 1, 2}
    assert "same strategy" in found["difference"] and "paired effect" in found["difference"]
    page = " ".join((tmp_path / "report.md").read_text().split())
    assert "of the same strategy" in page and "association, not a cause" in page
    assert "The card's **effect** is a study's paired change" in page


@pytest.fixture(scope="module")
def small_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    core_or_skip()
    root = tmp_path_factory.mktemp("cards")
    out = cdsim("simulate", "--players", "3", "--strategies", "greedy,villa,bread", "--games",
                "90", "--seed", "4", "--chunk-size", "30", "--rotate-seats", "--jobs", "1",
                "--out", str(root / "run"))
    assert out.returncode == 0, out.stderr
    return root / "run"


def test_a_run_folder_holds_the_card_table_and_report_json_has_cards(small_run: Path,
                                                                     tmp_path: Path) -> None:
    assert json.loads((small_run / "manifest.json").read_text())["format"] == 2
    assert len(list((small_run / "cards").glob("part-*.parquet"))) == 3
    rows = pl.read_parquet(small_run / "games" / "*.parquet")  # still only the seat rows
    check_against_seat_rows(rows, pl.read_parquet(small_run / "cards" / "*.parquet"))
    out = cdsim("report", str(small_run), "--out", str(tmp_path / "r"), "--json")
    assert out.returncode == 0, out.stderr
    found = json.loads(out.stdout)["cards"]
    objective = [c for c in found["cards"] if c["kind"] == "objective"]
    fountain = [c for c in found["cards"] if c["kind"] == "fountain"]
    assert objective and fountain and "not a cause" in found["difference"]
    strength = [abs(c["difference"]) / ((c["high"] - c["low"]) / 2) for c in objective
                if c["low"] is not None]
    assert strength == sorted(strength, reverse=True)  # the outliers first
    for c in objective:
        assert c["low"] is None or c["low"] <= c["difference"] <= c["high"]
        assert {s["seat"] for s in c["by_seat"]} <= {1, 2, 3}  # seats counted from 1
        assert 0 <= c["fulfilled_share"] <= 1
    assert sum(c["taken"] for c in objective) >= 90 * 3  # every seat takes cards


def test_an_old_run_reports_with_one_line_for_the_cards(small_run: Path, tmp_path: Path) -> None:
    old = tmp_path / "old"
    shutil.copytree(small_run, old)
    shutil.rmtree(old / "cards")
    manifest = json.loads((old / "manifest.json").read_text())
    del manifest["format"]  # as cdsim wrote them before the card table
    (old / "manifest.json").write_text(json.dumps(manifest))
    out = cdsim("report", str(old), "--json")
    assert out.returncode == 0 and out.stderr == "", out.stderr
    missing = json.loads(out.stdout)["cards"]["missing"]
    assert "run format 1" in missing and "\n" not in missing
    section = (old / "report.md").read_text().split("## Cards\n", 1)[1].split("\n## ", 1)[0]
    assert section.strip().splitlines() == [f"Not shown: {missing}."]


def test_report_html_shows_the_card_section_and_its_chart(
        browser: Any, small_run: Path, tmp_path: Path) -> None:  # noqa: F811
    from selenium.webdriver.common.by import By

    out = cdsim("report", str(small_run), "--out", str(tmp_path))
    assert out.returncode == 0, out.stderr
    browser.set_window_size(1400, 1000)
    browser.get((tmp_path / "report.html").as_uri())
    headings = [h.text for h in browser.find_elements(By.CSS_SELECTOR, "h2, h3")]
    assert {"Cards", "Objective cards", "Fountain cards"} <= set(headings)
    for kind in ("objective", "fountain"):
        figure = browser.find_element(By.CSS_SELECTOR, f"figure#cards_{kind}")
        browser.execute_script("arguments[0].scrollIntoView()", figure)
        img = figure.find_element(By.TAG_NAME, "img")
        complete, width, shown = browser.execute_script(
            "const i = arguments[0]; return [i.complete, i.naturalWidth, "
            "i.getBoundingClientRect().height]", img)
        assert complete and width > 300 and shown > 100 and img.is_displayed()
        assert "not a cause" in figure.find_element(By.TAG_NAME, "figcaption").text
    text = browser.find_element(By.TAG_NAME, "body").text
    assert "association, not a cause" in text and "win difference [95% CI]" in text


def test_a_card_part_of_another_run_is_one_line(small_run: Path, tmp_path: Path) -> None:
    core_or_skip()
    other = tmp_path / "other"
    out = cdsim("simulate", "--players", "3", "--strategies", "greedy,villa,bread", "--games",
                "30", "--seed", "5", "--rotate-seats", "--jobs", "1", "--out", str(other))
    assert out.returncode == 0, out.stderr
    mixed = tmp_path / "mixed"
    shutil.copytree(small_run, mixed)
    shutil.copy(other / "cards" / "part-00000.parquet", mixed / "cards" / "part-00000.parquet")
    out = cdsim("report", str(mixed), "--out", str(tmp_path / "r"))
    assert out.returncode == 2 and out.stderr.count("\n") == 1, out.stderr
    assert "cards: card rows that are not this run's games" in out.stderr
