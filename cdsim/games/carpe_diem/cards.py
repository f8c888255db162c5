"""Carpe Diem's card table (docs/guide.md): one row per card a seat took, drew or kept
(``cdsim.games.carpe_diem.rules.records.CardRow``), made from the core's card columns, and
its two kinds of card as a run report words them (``reports.cards``), with their rules."""

from __future__ import annotations

from typing import Any

import numpy as np

from cdsim.games.carpe_diem.rules.cards import FAILED_CARD_VP
from cdsim.games.carpe_diem.rules.records import CARD_COLUMNS, CARD_KINDS
from cdsim.games.features import CardKind, CardTable, CardVerbs, FailedCost


# the core's card columns (Any: index arrays, and the lists of ids and outcomes they index,
# as the core hands them)
def card_frame(columns: dict[str, Any]) -> Any:
    """The core's card columns (indices) as the card table (ids and words)."""
    import polars as pl

    kinds = np.asarray(columns["kind"], dtype=np.int64)
    ids = pl.Series([*columns["objective_ids"], *columns["fountain_ids"]], dtype=pl.String)
    card = ids.gather(np.asarray(columns["card"], dtype=np.int64)
                      + kinds * len(columns["objective_ids"]))  # fountain ids follow
    frame = {"game": columns["game"], "seat": columns["seat"],
             "kind": pl.Series(list(CARD_KINDS)).gather(kinds), "card": card,
             "outcome": pl.Series(list(columns["outcomes"])).gather(columns["outcome"]),
             "phase": columns["phase"], "multiples": columns["multiples"], "vp": columns["vp"]}
    return pl.DataFrame({k: pl.Series(k, frame[k], dtype=pl.String if k in CARDS.text
                                      else pl.Int64) for k in CARDS.fields})


OBJECTIVE = CardKind(
    "objective",
    "Objective cards",
    "Taken: share of all seats that resolved the card in a scoring phase (R8.3); times: "
    "how often (a seat may take a card in more than one phase); fulfilled: share of those "
    f"times it paid at least once (else {FAILED_CARD_VP} VP, R8.5); mean VP per time taken, "
    f"the {FAILED_CARD_VP} included; most by: the strategy that took it most often per "
    "appearance.",
    ("card", "taken", "times", "fulfilled", "mean VP",
     "win share: took it / others of their strategies",
     "win difference [95% CI]", "games", "most by"),
    "Objective cards: win difference of the seats that took them",
    "Per objective card, the win share of the seats that took it minus that of the seats "
    "of the same strategy that did not, in the same games, with its 95% interval (deals as "
    "clusters); red: the interval excludes 0. An association, not a cause. Outliers first.",
    done="fulfilled_share",
    # a seat takes the cards it resolves in a scoring phase, fulfilled or failed (R8.3, R8.5)
    taken=("fulfilled", "failed"), done_outcome="fulfilled", counted="take",
    verbs=CardVerbs("taken", "fulfilled", "the takes", "takers'",
                    ("taken", "fulfilled", "mean VP per take", "win difference (pts)")),
    worst_vp=FAILED_CARD_VP)
FOUNTAIN = CardKind(
    "fountain",
    "Fountain cards",
    "Drawn: share of all seats that drew the card at a fountain (R6.5); kept: share of "
    "those seats that held it at the end; mean VP per kept card (R10.4).",
    ("card", "drawn", "times", "kept", "mean VP",
     "win share: drew it / others of their strategies",
     "win difference [95% CI]", "games", "most by"),
    "Fountain cards: win difference of the seats that drew them",
    "Per fountain card, the win share of the seats that drew it minus that of the seats of "
    "the same strategy that did not, in the same games, with its 95% interval (deals as "
    "clusters); red: the interval excludes 0. An association, not a cause. Outliers first.",
    done="kept_share",
    # a seat draws it at a fountain (R6.5); it pays if the seat keeps it to the end (R10.4)
    taken=("drawn",), done_outcome="kept", counted="kept card",
    verbs=CardVerbs("drawn", "kept", "drawing seats", "drawers'",
                    ("drawn", "kept", "mean VP per kept card", "win difference (pts)")),
    worst_vp=None)

# a seat's objective rows add up to its vp_cards (R8.4-R8.5)
CARDS = CardTable(CARD_COLUMNS, card_frame, paid=(OBJECTIVE.kind, "vp_cards"),
                  kinds=(OBJECTIVE, FOUNTAIN))

# the objective cards that may fail, as its pages say them (GameSpec.failed_cost)
FAILED_COST = FailedCost("objective cards", f"{-FAILED_CARD_VP} VP", "R8.5",
                         f"cards do when the {FAILED_CARD_VP} of failed cards outweighs what "
                         "fulfilled ones pay")

__all__ = ["CARDS", "FAILED_COST", "FOUNTAIN", "OBJECTIVE", "card_frame"]
