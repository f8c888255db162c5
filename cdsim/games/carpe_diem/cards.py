"""Carpe Diem's card table (docs/guide.md): one row per card a seat took, drew or kept
(``cdsim.games.carpe_diem.rules.records.CardRow``), made from the core's card columns."""

from __future__ import annotations

from typing import Any

import numpy as np

from cdsim.games.carpe_diem.rules.records import CARD_COLUMNS, CARD_KINDS
from cdsim.games.features import CardTable


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


# a seat's objective rows add up to its vp_cards (R8.4-R8.5)
CARDS = CardTable(CARD_COLUMNS, card_frame, paid=("objective", "vp_cards"))

__all__ = ["CARDS", "card_frame"]
