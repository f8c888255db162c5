"""Kinds of card at the seam (issue 60): the card figures (``cdsim.analysis.cards``), whatif's
card lines and a study's card pages read what a kind of card counts and how it is said from
the game's ``CardKind`` (``cdsim.games.features``), in its ``CardTable.kinds``' order; shared
code spells no game's kind of card."""

from __future__ import annotations

import ast
import dataclasses
import math
from pathlib import Path

import polars as pl
import pytest

from cdsim.analysis.cards import UnknownKind, by_seat, card_outcomes
from cdsim.games import GAMES
from cdsim.games.carpe_diem.cards import CARDS, FOUNTAIN, OBJECTIVE
from cdsim.games.features import CardVerbs
from cdsim.study.cards import CardChange, Figure

ROOT = Path(__file__).resolve().parents[1]
# the shared rings that compute and word the card figures
SHARED = (ROOT / "cdsim" / "analysis", ROOT / "cdsim" / "study", ROOT / "cdsim" / "batch",
          ROOT / "reports")


def _kind_names() -> set[str]:
    """Every kind of card of every game's card table."""
    return {k.kind for spec in GAMES.values() if spec.cards is not None
            for k in spec.cards.kinds}


def test_shared_code_spells_no_games_kind_of_card() -> None:
    """The analysis, the study, the batch and the reports branch on no kind of card by name
    (``kind == "objective"`` picked the figures' denominators, a failed card's -4 and the
    words "taken"/"drawn"): a kind's name as a string literal stands only in its game's
    package, and the rest asks the kind (``CardKind.counted``, ``.verbs``, ``.worst_vp``)."""
    names = _kind_names()
    assert {OBJECTIVE.kind, FOUNTAIN.kind} <= names  # every game's card table read
    paths = [p for root in SHARED for p in sorted(root.rglob("*.py"))]
    assert ROOT / "cdsim" / "analysis" / "cards.py" in paths
    found = [f"{path.relative_to(ROOT)}:{node.lineno}: {node.value!r}"
             for path in paths for node in ast.walk(ast.parse(path.read_text()))
             if isinstance(node, ast.Constant) and node.value in names]
    assert not found, "shared code spells a kind of card:\n" + "\n".join(found)


def test_a_games_swept_cards_are_its_kinds() -> None:
    """A swept card's table (``Sweeps.card_tables``) is a kind of the game's card table: a
    study reads that kind's words for it (``CardTable.kind``)."""
    for spec in GAMES.values():
        if spec.sweeps is not None and spec.sweeps.card_tables:
            assert spec.cards is not None, spec.name
            for table in spec.sweeps.card_tables:
                assert spec.cards.kind(table).kind == table
    with pytest.raises(ValueError, match="'nothing'"):
        CARDS.kind("nothing")


def _rows() -> pl.DataFrame:
    """Card rows of 20 deals of one 2-player game each: seat 0 takes objective card A
    (fulfilled in odd games, failed in even ones) and draws fountain card F, kept in odd
    games; seat 1 takes objective card B, fulfilled; seat 0 wins the odd games."""
    rows: dict[str, list[object]] = {c: [] for c in ("game", "seat", "setup", "won",
                                                       "strategy", "kind", "card", "outcome",
                                                       "vp")}
    for game in range(20):
        odd = game % 2 == 1
        for seat, kind, card, outcome, vp in (
                (0, OBJECTIVE, "A", "fulfilled" if odd else "failed", 5 if odd else -4),
                (0, FOUNTAIN, "F", "drawn", 0), *([(0, FOUNTAIN, "F", "kept", 3)] * odd),
                (1, OBJECTIVE, "B", "fulfilled", 2)):
            for key, value in (("game", game), ("seat", seat), ("setup", game),
                               ("won", seat == (0 if odd else 1)), ("strategy", "s"),
                               ("kind", kind.kind), ("card", card), ("outcome", outcome),
                               ("vp", vp)):
                rows[key].append(value)
    return pl.DataFrame(rows)


def test_the_card_figures_count_as_each_kind_says_in_its_tables_order() -> None:
    """Per take (the objective cards): the done share of the takes and the VP per take, a
    failed take's -4 included; per kept card (the fountain cards): the share of the drawing
    seats that kept it and the VP per kept card; the kinds in the card table's order."""
    table = card_outcomes(_rows(), CARDS.kinds)
    assert table["kind"].to_list() == [OBJECTIVE.kind] * 2 + [FOUNTAIN.kind]
    a = table.row(by_predicate=pl.col("card") == "A", named=True)
    assert (a["times"], a["done_share"], a["mean_vp"]) == (20, 0.5, (10 * 5 - 10 * 4) / 20)
    f = table.row(by_predicate=pl.col("card") == "F", named=True)
    assert (f["taken"], f["times"], f["done_share"], f["mean_vp"]) == (20, 20, 0.5, 3.0)
    # the order is the card table's: the kinds the other way round, the fountain card first
    turned = card_outcomes(_rows(), CARDS.kinds[::-1])
    assert turned["kind"].to_list() == [FOUNTAIN.kind] + [OBJECTIVE.kind] * 2
    # a kind's own outcomes count as taking it: a "kept" row is no second draw
    seats = by_seat(_rows(), CARDS.kinds)
    assert seats.filter(pl.col("card") == "F")["share"].to_list() == [1.0]


def test_rows_of_a_kind_the_card_table_does_not_follow_are_named() -> None:
    with pytest.raises(UnknownKind, match=repr(OBJECTIVE.kind)):
        card_outcomes(_rows(), (FOUNTAIN,))
    with pytest.raises(UnknownKind, match=repr(OBJECTIVE.kind)):
        by_seat(_rows(), (FOUNTAIN,))


def test_a_changed_cards_words_are_its_kinds() -> None:
    """Whatif's card lines and the study page's sentence and table say what its kind's
    ``CardVerbs`` say (a kind of another game: "zapped", "zipped", "zappers'")."""
    from cdsim.study.whatif_words import card_figures, card_line
    from reports.study.cards import sentence, table_rows, words

    names = ("zapped", "zipped", "mean VP per zap", "win difference (pts)")
    kind = dataclasses.replace(FOUNTAIN, verbs=CardVerbs("zapped", "zipped", "the zaps",
                                                         "zappers'", names))
    nan: Figure = (math.nan, math.nan, math.nan)
    figures = {"taken_share": (0.38, 0.36, 0.40), "done_share": (0.6, 0.55, 0.65),
               "mean_vp": (7.9, 7.6, 8.2), "win_difference": (0.1, 0.05, 0.15)}
    change = CardChange(kind, "Z9", (), figures, figures, dict.fromkeys(figures, nan))
    said = " ".join((card_line(change), card_figures(change), sentence(change)))
    assert "zapped by 38.0% [" in said and "zipped 60.0% [" in said
    assert said.count("its zappers' win") == 3
    assert not any(w in said for w in ("taken", "drawn", "fulfilled", "kept", "takers",
                                       "drawers"))
    assert [row[2] for row in table_rows("v", change)] == list(names)
    # the table's words: each kind's, the first's outside the brackets
    assert words((kind,)).startswith("zapped as a share of all seats, zipped as a share of "
                                     "the zaps, mean VP")
    assert words((kind, *CARDS.kinds)).startswith(
        "zapped (taken, drawn) as a share of all seats, zipped (fulfilled, kept) as a share "
        "of the zaps (the takes, drawing seats)")
    # a card no seat took: its table cells say so in the kind's verb
    from cdsim.analysis.cards import Takes
    unseen = dataclasses.replace(change, base=dict.fromkeys(figures, nan),
                                 takes=(Takes(0, 0, 600), Takes(31, 20, 600)))
    assert table_rows("v", unseen)[0][3] == "not zapped"


def test_a_takes_worst_vp_is_its_kinds() -> None:
    """The mean VP's interval reaches down to the worst a take can bring (a failed objective
    card's -4, ``CardKind.worst_vp``) though no take in the sample failed; a kind without one
    stays within the VP seen. One take in 20 deals paid 6, the others 0."""
    from cdsim.analysis.cards import card_figures, card_terms

    rows = _rows().filter(pl.col("card") == "B").with_columns(
        vp=pl.when(pl.col("game") == 0).then(6).otherwise(0))
    terms = card_terms(rows, OBJECTIVE, "B")
    assert OBJECTIVE.worst_vp == -4
    _, low, high = card_figures(terms, OBJECTIVE)["mean_vp"]
    assert -4 <= low < 0 and high <= 6
    never = dataclasses.replace(OBJECTIVE, worst_vp=None)
    assert card_figures(terms, never)["mean_vp"][1] == 0


def test_a_run_with_rows_of_another_kind_says_so_in_one_line(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The run report's card section: one line naming the run's card rows and the kind."""
    from types import SimpleNamespace
    from typing import cast

    from cdsim.batch import results
    from cdsim.batch.read import Run

    rows = _rows().with_columns(kind=pl.lit("nothing"))
    monkeypatch.setattr(results, "card_rows", lambda run: rows)
    run = SimpleNamespace(path=Path("runs/x"), spec=SimpleNamespace(cards=CARDS))
    found = results.card_section(cast(Run, run))
    assert found is not None and found.table is None
    assert found.missing == ("runs/x/cards: card rows of kind 'nothing', which the game's "
                             "card table does not follow")


def test_a_swept_cards_words_are_its_kinds(monkeypatch: pytest.MonkeyPatch) -> None:
    """A sweep of a card says who took it and what its chart shows in its kind's words (a
    swept fountain card's drawers, not an objective card's takers)."""
    from types import SimpleNamespace

    import reports.study.sweep as sweep_page
    from cdsim.study.sweep_groups import SweepGroup

    nan: Figure = (math.nan, math.nan, math.nan)
    figures = dict.fromkeys(("taken_share", "done_share", "mean_vp", "win_difference"), nan)
    said: list[str] = []
    monkeypatch.setattr(sweep_page, "_figures_chart", lambda *args: said.append(args[-1]))
    for kind, who, caption in ((FOUNTAIN, "drawers", "kept share, VP per kept card, and its "
                                "drawers' win share"),
                               (OBJECTIVE, "takers", "fulfilled share, VP per take, and its "
                                "takers' win share")):
        card = CardChange(kind, "Z9", (), figures, figures, figures)
        cell = SimpleNamespace(cards=SimpleNamespace(cards=[card]))
        group = SweepGroup(sweep=None, players=2, population="p",  # type: ignore[arg-type]
                           base=None, values=((4, cell),), covered={})  # type: ignore[arg-type]
        assert group.swept == ("Z9", who, True)
        said.clear()
        sweep_page._card_chart(None, group)  # type: ignore[arg-type]
        assert said[0].startswith(caption), said
