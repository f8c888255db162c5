"""A card's figures in a whatif or a study (issue 62 item 2): every interval inside its
range, a figure on too few deals said so (not a number), a card never taken never a crash,
and the intervals covering the truth in at least 95% at the sparsity of real games
(``tests.card_sim``: B05's, measured on 40,000 scripted games a side)."""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest

from cdsim.analysis import card_intervals
from cdsim.analysis.card_intervals import NAN3
from cdsim.analysis.cards import card_change, card_figures, card_terms, takes
from cdsim.games.carpe_diem.cards import FOUNTAIN, OBJECTIVE
from cdsim.games.features import CardKind
from cdsim.study.cards import CardChange
from tests.card_sim import FOUR, TWO, Sparsity, terms

# (sparsity, deals a look, looks): a 2-player whatif's first look (53 deals of 12 games),
# four times that, and 4-player looks of 60 and 250 deals
LOOKS = ((TWO, 53, 300), (TWO, 212, 150), (FOUR, 60, 150), (FOUR, 250, 150))


def test_card_figures_cover_the_truth_at_the_sparsity_of_real_games() -> None:
    """Today's intervals (normal, on the deals' sandwich) covered 94.2% on real games and
    went below 0 and above 100%; these cover at least 95% and never leave their range."""
    shown = covered = 0
    for s, deals, looks in LOOKS:
        rng = np.random.default_rng(62)
        truth = s.truth()
        for _ in range(looks):
            figures = card_figures(terms(rng, s, deals), OBJECTIVE)
            for name, (value, low, high) in figures.items():
                if not math.isfinite(low):  # too few deals: said so, not counted
                    assert math.isnan(value) or name == "taken_share", (name, value)
                    continue
                assert low <= value <= high, (name, value, low, high)
                if name in ("taken_share", "done_share"):
                    assert low >= 0 and high <= 1, (name, low, high)
                if name == "win_difference":
                    assert low >= -1 and high <= 1, (low, high)
                shown += 1
                covered += low <= truth[name] <= high
    assert shown > 1500
    assert covered / shown >= 0.95, (covered, shown)


def test_a_figure_on_too_few_deals_is_not_a_number() -> None:
    """20 takes in 2 deals at 2 players gave "-72.1 pts [-97.5, -46.6]" against a truth of
    -6.7: two deals are two observations. Under ``MIN_DEALS`` deals with a take, the
    figures on the takers are nan; the taken share keeps its (wide) interval."""
    rng = np.random.default_rng(3)
    s = Sparsity(2, 12, 1.0, 0.5)
    few = terms(rng, s, card_intervals.MIN_DEALS - 1)
    figures = card_figures(few, OBJECTIVE)
    for name in ("done_share", "mean_vp", "win_difference"):
        assert all(math.isnan(x) for x in figures[name]), (name, figures[name])
    value, low, high = figures["taken_share"]
    assert 0 <= low < value < high <= 1
    assert takes(few) == (12 * (card_intervals.MIN_DEALS - 1), card_intervals.MIN_DEALS - 1,
                          12 * (card_intervals.MIN_DEALS - 1))
    enough = card_figures(terms(rng, s, card_intervals.MIN_DEALS), OBJECTIVE)
    assert all(math.isfinite(x) for f in enough.values() for x in f)


def _rows(taken: bool) -> pl.DataFrame:
    """Card rows of 30 deals of two 2-player games: card Y resolved by every seat, and card X
    taken by seat 0 of every game when ``taken``."""
    rows: dict[str, list[object]] = {c: [] for c in ("game", "seat", "setup", "won",
                                                       "strategy", "kind", "card", "outcome",
                                                       "vp")}
    for game in range(60):
        for seat in range(2):
            for card in ("Y", "X") if taken and seat == 0 else ("Y",):
                for key, value in (("game", game), ("seat", seat), ("setup", game // 2),
                                   ("won", seat == game % 2), ("strategy", "s"),
                                   ("kind", "objective"), ("card", card),
                                   ("outcome", "fulfilled"), ("vp", 6)):
                    rows[key].append(value)
    return pl.DataFrame(rows)


def test_a_card_never_taken_is_not_taken_in_n_games_never_a_crash() -> None:
    """A card never taken in a look raised "cannot reshape array of size 0"; now its figures
    are nan (its taken share 0) and the words say "not taken in N games"."""
    from cdsim.study.whatif_words import card_figures as words
    from cdsim.study.whatif_words import card_line

    never = card_terms(_rows(False), OBJECTIVE, "X")
    figures = card_figures(never, OBJECTIVE)
    assert figures["taken_share"][0] == 0 and figures["taken_share"][1] == 0
    assert all(math.isnan(x) for n in ("done_share", "mean_vp", "win_difference")
               for x in figures[n])
    found = card_change(_rows(True), _rows(False), OBJECTIVE, "X")
    assert found.takes[1] == (0, 0, 60) and found.takes[0] == (60, 30, 60)
    change = CardChange(OBJECTIVE, "X", ("reward.vp 8 -> 6",), found.base, found.variant,
                        found.change, found.takes)
    said = words(change)
    assert said.startswith("X (reward.vp 8 -> 6): not taken in 60 games; base: taken by 50.0% [")
    line = card_line(change, 0.04)
    assert line.startswith("X: not decided (not taken in 60 games)")
    few = CardChange(OBJECTIVE, "X", (), found.base, found.base, found.change,
                     (found.takes[0], found.takes[0]._replace(deals=4)))
    assert "60 times in 4 deals: too few deals to say more (10 needed)" in words(few)
    assert "(taken in 4 deals only, 10 needed)" in card_line(few, 0.04)
    # the study page's sentence and table say the same
    from reports.study.cards import sentence, table_rows

    assert sentence(change) == ("X (reward.vp 8 -> 6): not taken in 60 games (base: taken by "
                                "50.0% of seats, 60 times in 30 deals).")
    fulfilled = table_rows("v", change)[1]
    assert fulfilled[3].startswith("100.0% [") and fulfilled[4] == "not taken"
    masked = CardChange(OBJECTIVE, "X", (), found.base, dict.fromkeys(found.base, NAN3),
                        found.change, (found.takes[0], found.takes[0]._replace(deals=4)))
    assert table_rows("v", masked)[3][4] == "too few deals (4)"


@pytest.mark.parametrize("kind", [OBJECTIVE, FOUNTAIN])
def test_an_empty_look_gives_nan_not_an_error(kind: CardKind) -> None:
    rows = _rows(False).filter(pl.col("card") == "Y")
    figures = card_figures(card_terms(rows, kind, "Z"), kind)
    assert set(figures) == {"taken_share", "done_share", "mean_vp", "win_difference"}
