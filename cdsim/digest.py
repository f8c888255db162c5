"""A stable hash of rows (a game's seat rows, a run's rows sorted by game and seat): equal
rows give an equal digest, whatever the game. The recorded digests of fixed seeds guard
against unintended rule changes. Ground ring beside ``cdsim.errors``: the rules re-export
it, the batch folders digest runs with it; it imports neither pydantic nor the core."""

from __future__ import annotations

import hashlib
import json


def digest_rows(rows: list[dict[str, object]]) -> str:
    text = json.dumps(rows, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


__all__ = ["digest_rows"]
