"""The card section of a report: per card of each kind the game's card table follows, how
often the seats took it, how often it paid, the VP it brought and whether the seats that took
it won more often than the seats of the same strategies that did not.

The figures are ``cdsim.analysis.cards``' (``card_outcomes``), read with the run's other
figures (``cdsim.batch.results.CardSection``); this module only words and formats them, each
kind of card in the game's own words and rule numbers (its ``CardTable.kinds``). The win
difference is an association, not a cause, and the page says so; a study's
variant gives the card's paired effect (``reports.study.cards``).
"""

from __future__ import annotations

import math

import polars as pl

from cdsim.analysis.fmt import number, pct_or_dash, pts
from cdsim.batch.results import CardSection
from cdsim.games.features import CardKind
from cdsim.games.names import shown_name

EXPLAIN = (
    "Which card is too strong? For each card: how often the seats took it, how often it "
    "paid, the VP it brought, and the **win difference**: the win share of the seats that "
    "took it minus the win share of the seats **of the same strategy** that did not, in the "
    "games where some seat took it (compared within each strategy, then weighted by the "
    "card's takers; a table with a weak strategy would otherwise make every card it seeks "
    "look bad and every card a strong player seeks look good). +5 pts means the seats that "
    "took it won 5 percentage points more often than others of their strategies. Every "
    "figure on this page is an **association, not a cause**: a seat that takes a card may be "
    "one that was winning anyway. The card's **effect** is a study's paired change: the same "
    "deals played with a variant of the card (`cdsim study`, its Variants section). "
    "Intervals are 95%, the games of one deal counted as one cluster; the cards whose "
    "difference is largest against its interval come first. With many cards, about 1 in 20 "
    "intervals excludes 0 by chance alone.")


def rows(table: pl.DataFrame) -> list[list[object]]:
    """The report table's rows of ``card_outcomes``' rows (one kind)."""
    out: list[list[object]] = []
    for r in table.iter_rows(named=True):
        diff = ("-" if math.isnan(r["low"]) else
                f"{pts(r['difference'])} pts [{pts(r['low'])}, {pts(r['high'])}]")
        out.append([r["card"], pct_or_dash(r["taken_share"]), r["times"], pct_or_dash(r["done_share"]),
                    "-" if r["mean_vp"] is None else f"{r['mean_vp']:.1f}",
                    f"{pct_or_dash(r['win_takers'])} / {pct_or_dash(r['win_others'])}", diff, r["games"],
                    shown_name(r["top_strategy"])])
    return out


def as_json(found: CardSection, kinds: tuple[CardKind, ...]) -> dict[str, object]:
    """``cdsim report --json``'s ``cards``: per card the table's figures, its interval and
    its taken share by seat (seats from 1); or ``missing``, the one line why there is none.
    ``kinds``: the game's kinds of card (its ``CardTable``'s), which name each done share."""
    if found.table is None or found.seats is None:
        return {"missing": found.missing}
    shares: dict[tuple[str, str], list[dict[str, object]]] = {}
    for r in found.seats.iter_rows(named=True):
        shares.setdefault((r["kind"], r["card"]), []).append(
            {"seat": int(r["seat"]), "taken_share": float(r["share"])})
    done = {k.kind: k.done for k in kinds}
    out = []
    for r in found.table.iter_rows(named=True):
        out.append({"card": r["card"], "kind": r["kind"], "taken": int(r["taken"]),
                    "taken_share": float(r["taken_share"]), "times": int(r["times"]),
                    done[r["kind"]]: number(r["done_share"]),
                    "mean_vp": number(r["mean_vp"]), "games": int(r["games"]),
                    "win_share_takers": number(r["win_takers"]),
                    "win_share_others": number(r["win_others"]),
                    "difference": number(r["difference"]), "low": number(r["low"]),
                    "high": number(r["high"]), "strategies_compared": int(r["strata"]),
                    "top_strategy": r["top_strategy"],
                    "by_seat": shares.get((r["kind"], r["card"]), [])})
    return {"cards": out, "interval": "95%, games of one deal as one cluster",
            "difference": "win share of the seats that took (drew) the card minus that of "
                          "the seats of the same strategy that did not, in the same games "
                          "(within each strategy, weighted by its takers): an association, "
                          "not a cause; a study's variant gives the card's paired effect"}



__all__ = ["EXPLAIN", "as_json", "rows"]
