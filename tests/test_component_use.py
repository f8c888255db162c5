"""A verdict for any component (#61 item 4): a component's use read from the seat rows
(``cdsim.analysis.uses``), its line calibrated as the card line is (simulation against a
known truth at a dense use, as a building tile's), each style's paired effect covering its
truth, and the words for a component never used, used in too few deals, or whose use the
rows do not record."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import polars as pl
import pytest

from cdsim.analysis.cards import CARD_MARGIN, Takes
from cdsim.analysis.paired import card_side
from cdsim.analysis.uses import style_effects, use_figures, use_terms
from cdsim.games import game_spec
from cdsim.games.features import ComponentUse
from cdsim.study.use_words import component_figures, component_line, style_line
from cdsim.study.uses import ComponentChange

PLAYERS = 4


def seats(rng: np.random.Generator, deals: int, per_deal: int, edge: float,
          spread: float = 0.1) -> pl.DataFrame:
    """Seat rows of ``deals`` deals of ``per_deal`` 4-player games (one strategy): in each
    game k seats use the component (k drawn per deal from 1-3, so E[k] = 2) and a user wins
    with chance ``a``, a deal moving ``a`` by up to ``spread``: the users' true win
    difference is a / E[k] - (1 - a) / E[4 - k] = a - 1/2 = ``edge``."""
    g = deals * per_deal
    setup = np.repeat(np.arange(deals), per_deal)
    k = np.repeat(rng.integers(1, 4, deals), per_deal)
    a = np.clip(np.repeat(0.5 + edge + rng.uniform(-spread, spread, deals), per_deal), 0, 1)
    order = rng.permuted(np.tile(np.arange(PLAYERS), (g, 1)), axis=1)
    used = order < k[:, None]  # (games, seats): the first k of a random order
    user_wins = rng.random(g) < a
    winner = np.where(user_wins, rng.integers(0, PLAYERS * 10, g) % k,
                      k + rng.integers(0, PLAYERS * 10, g) % (PLAYERS - k))
    won = order == winner[:, None]
    count = used * rng.integers(1, 3, (g, PLAYERS))
    return pl.DataFrame({"game": np.repeat(np.arange(g), PLAYERS),
                         "setup": np.repeat(setup, PLAYERS),
                         "seat": np.tile(np.arange(PLAYERS), g), "strategy": "s",
                         "won": won.ravel(), "bakeries": count.ravel()})


def lines(edge: float, seed: int, runs: int = 120, deals: int = 1_500) -> Counter[str]:
    rng = np.random.default_rng(seed)
    return Counter(card_side(use_figures(use_terms(seats(rng, deals, 4, edge), "bakeries"))
                             ["win_difference"], CARD_MARGIN) for _ in range(runs))


def test_the_use_figures_are_the_counts_of_the_rows() -> None:
    rows = pl.DataFrame({"game": [0, 0, 1, 1], "setup": [0, 0, 1, 1], "seat": [0, 1, 0, 1],
                         "strategy": ["a", "a", "a", "a"], "won": [True, False, False, True],
                         "bakeries": [2, 0, 1, 1]})
    terms = use_terms(rows, "bakeries")
    assert terms["took"].to_list() == [1, 2]
    assert terms["took_won"].to_list() == [1, 1]
    assert terms["times"].to_list() == [2, 2]
    assert use_figures(terms)["use_share"][0] == pytest.approx(0.75)


def test_a_component_inside_the_margin_is_about_right_and_never_wrong_sided() -> None:
    said = lines(0.005, 1)
    assert said["about right"] >= 0.7 * sum(said.values()), said
    assert said["too weak"] + said["too strong"] <= 0.05 * sum(said.values()), said


def test_at_the_margin_a_verdict_is_rare() -> None:
    """A truth exactly at the margin: any verdict is wrong, at most 5%."""
    said = lines(CARD_MARGIN, 2)
    assert said["not decided"] >= 0.95 * sum(said.values()), said


def test_well_beyond_the_margin_it_is_too_strong() -> None:
    said = lines(2.5 * CARD_MARGIN, 3)
    assert said["too strong"] >= 0.8 * sum(said.values()), said
    assert said["about right"] + said["too weak"] == 0, said


def paired(rng: np.random.Generator, deals: int, changed: float, shift: float
           ) -> tuple[pl.DataFrame, pl.DataFrame, float]:
    """Base and variant seat rows of 4 strategies on the same 4-player games (each deal
    played in its 4 rotations): in a share ``changed`` of the deals the change moves
    strategy "a"'s chance to win by ``shift`` (taken from "d"); the rest play alike. The
    truth of "a"'s effect: changed * shift."""
    per_deal = 4
    g = deals * per_deal
    base_p = np.array([0.3, 0.25, 0.25, 0.2])
    var_p = base_p + np.array([shift, 0, 0, -shift])
    alter = np.repeat(rng.random(deals) < changed, per_deal)
    draw = rng.random(g)
    base_w = np.searchsorted(np.cumsum(base_p), draw)
    var_w = np.where(alter, np.searchsorted(np.cumsum(var_p), rng.random(g)), base_w)
    strategies = np.array(list("abcd"))

    def frame(w: np.ndarray) -> pl.DataFrame:
        return pl.DataFrame({"game": np.repeat(np.arange(g), 4),
                             "setup": np.repeat(np.repeat(np.arange(deals), per_deal), 4),
                             "seat": np.tile(np.arange(4), g),
                             "strategy": np.tile(strategies, g),
                             "won": (np.tile(np.arange(4), g) == np.repeat(w, 4))})
    return frame(base_w), frame(var_w), changed * shift


def test_each_style_s_effect_covers_its_truth() -> None:
    rng = np.random.default_rng(5)
    hits = []
    for _ in range(200):
        base, variant, truth = paired(rng, 400, 0.3, 0.08)
        effects = {e.strategy: e.effect for e in style_effects(base, variant)}
        low, high = effects["a"][1], effects["a"][2]
        hits.append(low <= truth <= high)
        assert -1 <= low <= high <= 1
        assert effects["b"][0] == pytest.approx(effects["b"][0])
    assert np.mean(hits) >= 0.92, np.mean(hits)


def test_an_unchanged_variant_moves_no_style_and_one_style_has_no_line() -> None:
    rng = np.random.default_rng(6)
    base, _, _ = paired(rng, 100, 0.0, 0.0)
    effects = style_effects(base, base)
    assert [e.effect[0] for e in effects] == [0.0] * 4
    assert all(np.isnan(e.effect[1]) for e in effects)  # no changed deal: no interval
    alone = base.with_columns(strategy=pl.lit("a"))
    assert style_effects(alone, alone) == ()
    assert style_line(()) is None


def change(use: ComponentUse, takes: tuple[Takes, Takes] | None,
           win: tuple[float, float, float] = (0.0, -0.01, 0.01)) -> ComponentChange:
    f = {"use_share": (0.5, 0.4, 0.6), "per_user": (1.5, 1.4, 1.6), "win_difference": win}
    return ComponentChange("tile.L-bakery", ("count 5 -> 7",), use, f, f, takes)


BAKERY = game_spec(None).component_use


def test_the_words_for_a_component_never_used_rarely_used_or_not_recorded() -> None:
    assert BAKERY is not None
    use = BAKERY("tile.L-bakery")
    assert use.column == "bakeries"
    never = change(use, (Takes(0, 0, 500), Takes(0, 0, 500)))
    assert "not used in 500 games" in component_line(never)
    few = change(use, (Takes(30, 3, 500), Takes(30, 3, 500)))
    assert "used in 3 deals only, 10 needed" in component_line(few)
    about = change(use, (Takes(300, 90, 500), Takes(300, 90, 500)))
    assert component_line(about).startswith("the L-bakery tile: about right: ")
    strong = change(use, (Takes(300, 90, 500),) * 2, (0.08, 0.05, 0.11))
    assert "too strong" in component_line(strong)
    shown = component_figures(about)
    assert shown is not None and "used by 50.0% [40.0, 60.0] of seats" in shown
    part = BAKERY("part.3")
    assert part.column is None and part.uses == "part.3"  # counted in a run's use rows
    said = component_line(change(part, None))
    assert said.startswith("frame part 3: no verdict line: its use (scored a goal of it")
    assert "not recorded yet" in said and component_figures(change(part, None)) is None
    row = BAKERY("villa_table")
    assert row.column is None and row.uses == "villa_table" and "chimney" in row.why
    assert BAKERY("tile.L-villa-end-2").uses == "tile_shape.0001-2-0"  # a villa tile: placed


def test_castles_says_what_use_means_for_each_kind() -> None:
    use = game_spec("castles").component_use
    assert use is not None
    farm = use("cards.farm")
    assert farm.words.startswith("took one into their hand") and farm.column is None
    assert farm.uses == "cards.farm" and use("pieces.A-1").uses == "pieces.A-1"
    assert use("harvest.red_vp").column == "vp_harvest_red"
    columns = {c for c, _ in game_spec("castles").columns()[0]}
    assert {"vp_harvest_red", "vp_harvest_green"} <= columns
    from cdsim.games.carpe_diem.uses import BUILT

    assert set(BUILT.values()) <= {c for c, _ in game_spec(None).columns()[0]}


def test_the_vp_source_a_component_scores_through_and_its_paired_change() -> None:
    from cdsim.analysis.uses import source_change

    rng = np.random.default_rng(7)
    base, variant, _ = paired(rng, 200, 0.0, 0.0)
    vp = rng.integers(0, 10, base.height)
    # the change adds 1 VP to every seat of half the deals: a truth of +0.5 VP a seat
    more = (base["setup"].to_numpy() % 2 == 0).astype(np.int64)
    found = source_change(base.with_columns(vp_frame=vp), variant.with_columns(
        vp_frame=vp + more), "vp_frame")
    assert found.variant - found.base == pytest.approx(0.5)
    assert found.effect[0] == pytest.approx(0.5) and found.effect[1] < 0.5 < found.effect[2]
    same = source_change(base.with_columns(vp_frame=vp), base.with_columns(vp_frame=vp),
                         "vp_frame")
    assert same.effect[0] == 0 and np.isnan(same.effect[1])  # no changed deal: no interval
    # a VP change is not a share: its interval is not cut at 1 (+2 VP a seat, every deal)
    noisy = vp + 2 + rng.integers(0, 2, base.height)
    two = source_change(base.with_columns(vp_frame=vp), variant.with_columns(vp_frame=noisy),
                        "vp_frame")
    assert two.effect[1] < 2.5 < two.effect[2] and two.effect[1] > 1.5, two.effect


def test_a_style_changed_in_fewer_than_30_deals_has_no_interval() -> None:
    """As the seat answer (issue 62): a few changed deals are too few to measure a shift."""
    from cdsim.analysis.paired import MIN_CHANGED

    rng = np.random.default_rng(8)
    base, variant, _ = paired(rng, 200, 0.05, 0.3)  # about 10 of 200 deals altered
    effects = style_effects(base, variant)
    assert all(np.isnan(e.effect[1]) and np.isnan(e.effect[2]) for e in effects)
    assert "[interval: too few changed deals]" in str(style_line(effects))
    assert MIN_CHANGED == 30
    many = style_effects(*paired(rng, 400, 0.3, 0.08)[:2])
    assert all(np.isfinite(e.effect[1]) for e in many)


def test_components_not_recorded_for_one_reason_are_said_once() -> None:
    """A family of tiles (the sensitivity study's villa tiles) is one line, not one each."""
    from cdsim.analysis.uses import SourceChange
    from cdsim.study.cards import VariantCards
    from cdsim.study.whatif_answer import change_lines

    assert BAKERY is not None
    source = SourceChange(10.0, 10.5, (0.5, 0.4, 0.6))
    tiles = [ComponentChange(f"tile.{i}", ("count 2 -> 3",), BAKERY(f"tile.{i}"), {}, {},
                             source=source)
             for i in ("L-villa-end-1", "L-villa-end-2", "L-villa-corner-1")]
    bakery = change(BAKERY("tile.L-bakery"), (Takes(300, 90, 500),) * 2)
    lines = change_lines(VariantCards((), (), components=(*tiles, bakery)))
    assert lines[0].startswith("the L-bakery tile: about right")
    assert lines[2].startswith("the L-villa-end-1 tile, the L-villa-end-2 tile and the "
                               "L-villa-corner-1 tile: no verdict line: their use (")
    assert lines[3] == ("the L-villa-end-1 tile, the L-villa-end-2 tile and the "
                        "L-villa-corner-1 tile (3 changed): the villa VP they score through: "
                        "10.50 a seat "
                        "(base 10.00), +0.50 VP [+0.40, +0.60] (same deals, 95%).")
    assert len(lines) == 4


def test_a_component_every_seat_used_has_no_win_difference() -> None:
    """Users need others to be set against: a Castles card every seat is dealt has none (a
    seat that did not use it in fewer than 10 deals), and its line says so."""
    rng = np.random.default_rng(3)
    games = 400
    seats = pl.DataFrame({"game": np.repeat(np.arange(games), 2),
                          "setup": np.repeat(np.arange(games) // 4, 2),
                          "seat": np.tile([0, 1], games),
                          "strategy": np.tile(["a", "b"], games),
                          "won": np.tile([True, False], games),
                          "uses": rng.integers(1, 4, 2 * games)})
    every = use_figures(use_terms(seats, "uses"))
    assert every["use_share"][0] == 1.0 and np.isnan(every["win_difference"][0])
    assert np.isfinite(every["per_user"][0])
    # a seat without it in 9 deals: still too few others
    few = seats.with_columns(uses=pl.when((pl.col("setup") < 9) & (pl.col("seat") == 1))
                             .then(0).otherwise(pl.col("uses")))
    assert np.isnan(use_figures(use_terms(few, "uses"))["win_difference"][0])
    some = seats.with_columns(uses=pl.when((pl.col("setup") < 40) & (pl.col("seat") == 1))
                              .then(0).otherwise(pl.col("uses")))
    assert np.isfinite(use_figures(use_terms(some, "uses"))["win_difference"][0])
    assert BAKERY is not None
    line = component_line(change(BAKERY("tile.L-bakery"), (Takes(800, 100, 400),) * 2,
                                 (math.nan, math.nan, math.nan)))
    assert "no verdict line: every seat placed a bakery" in line and "could be" not in line
