"""The learned players' weights file, one format for every game: what ``cdsim train``
writes (``weights_text``) and the core reads (core/src/players/fitted/model.rs, ``read``).

    {"format": "cdsim-weights", "version": 1, "game": "castles", "components_digest": ...,
     "inputs": [names], "phases": 3, "value": "...",
     "weights": {"2": [[one number an input] a phase], "3": ..., "4": ...},
     "training": {how it was made}}

Carpe Diem's weights name each input, then each input times takes left
(``NAME*takes_left``): one weight a named input, for every game."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

FORMAT = "cdsim-weights"
VERSION = 1
# Carpe Diem's weights before there was one format (cdsim train --convert reads it)
OLD_FORMAT = "cdsim-learned-weights"
VALUE = ("VP gained if the game ended now + weights . inputs (per player count and phase); a "
         "decision takes the option of the best value less the other seats' mean value")

Table = dict[str, list[list[float]]]  # per player count ("2"), per phase: one weight an input


def weights_text(game: str, components_digest: str, inputs: Sequence[str], phases: int,
                 table: Table, training: Mapping[str, object] | None) -> str:
    """The weights file's text (``training``: how it was made, None: not said)."""
    data: dict[str, object] = {
        "format": FORMAT, "version": VERSION, "game": game,
        "components_digest": components_digest, "inputs": list(inputs), "phases": phases,
        "value": VALUE, "weights": table}
    if training is not None:
        data["training"] = dict(training)
    return json.dumps(data, indent=1) + "\n"


__all__ = ["FORMAT", "OLD_FORMAT", "VALUE", "VERSION", "Table", "weights_text"]
