"""A study's "fair starting VP by skill" panels: per player count, its skilled base cells
at their ladder ratings (the ratings file, ``strategies/ratings.json``) with the verdicts and
figures of ``cdsim.analysis.skill`` (see there, and docs/statistics.md, for what they claim),
and a note where a learned player played other weights than the ladder rated. The report's
section is ``reports.study.skill``'s."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from cdsim.analysis.candidates import CellGames
from cdsim.analysis.skill import (
    Point,
    ShownFair,
    cross_unfair,
    not_shown_unfair,
    order,
    point,
    population_rating,
    unfair_level,
    verdict,
)
from cdsim.games import DEFAULT_GAME
from cdsim.games.players import STRATEGIES_DIR
from cdsim.study.cell import CellResult
from cdsim.study.memo import Memo, flags, kept_table
from cdsim.study.store import run_folder

RATINGS = STRATEGIES_DIR / "ratings.json"


# Any: the ratings file's JSON (make ratings), read tolerant of its versions
def load_ratings(path: Path = RATINGS, game: str = DEFAULT_GAME) -> dict[str, Any]:
    """The ratings file's ``players`` table for ``game`` ({} when there is none, or when the
    file rates another game: its ``game``, the default game's where it names none, as a run
    manifest does; another game's players of the same name are other players)."""
    if not path.is_file():
        return {}
    data = json.loads(path.read_text())  # the ratings file's JSON
    if data.get("game", DEFAULT_GAME) != game:
        return {}
    table: dict[str, Any] = data.get("players", {})  # the ratings file's JSON
    return table


@dataclass(frozen=True)
class Panel:
    players: int
    points: tuple[Point, ...]  # weakest first
    kind: str
    sentence: str
    unfair: dict[tuple[str, str], bool]
    level: float
    ladder: dict[str, Any] | None  # the ratings file's entry for this player count
    notes: tuple[str, ...]


def members(cell: CellResult) -> tuple[str, ...]:
    return tuple(dict.fromkeys([n for x in cell.lineups for n in x] + list(cell.state.pool)))


def played_weights(root: Path, cell: CellResult) -> dict[str, str]:
    """The learned weights digest each learned spelling played (the run manifests)."""
    out: dict[str, str] = {}
    for runs in cell.stage_runs:
        for key in runs:
            path = run_folder(root, key) / "manifest.json"
            if path.is_file():
                for spec, w in json.loads(path.read_text()).get("weights", {}).items():
                    out[spec] = str(w.get("digest", ""))
    return out


def kept_shown_fair(memo: Memo, cell: CellResult) -> ShownFair:
    """``not_shown_unfair`` on ``cell``'s stages, kept in ``memo`` under the digest of its
    games (``CellResult.games_digest``), the candidates and the settings."""
    def shown_fair(stages: Sequence[CellGames], vectors: np.ndarray[Any, Any],
                   tolerance: float, level: float) -> np.ndarray[Any, np.dtype[np.bool_]]:
        mine = len(stages) == len(cell.stages) and all(
            a is b for a, b in zip(stages, cell.stages, strict=False))
        if not cell.games_digest or not mine:  # games the digest is not of
            return not_shown_unfair(stages, vectors, tolerance, level)

        def make() -> list[bool]:
            return [bool(x) for x in not_shown_unfair(
                stages, vectors, tolerance, level,
                tables=lambda games: kept_table(memo, games, vectors))]

        kept = memo.json("shown-fair", (cell.games_digest, np.asarray(vectors), tolerance,
                                        level), make, flags)
        return np.asarray(kept, dtype=np.bool_)
    return shown_fair


def panels(root: Path, cells: Sequence[CellResult], players: Sequence[int], tolerance: float,
           alpha: float, ratings: Mapping[str, Any] | None = None,
           memo: Memo | None = None) -> dict[int, Panel]:
    """One panel per player count with a skilled base cell (its costly figures kept in
    ``memo``, when given). The ladder is the ratings file's for the cells' game unless
    ``ratings`` is given."""
    game = next((c.state.game for c in cells), DEFAULT_GAME)
    table = load_ratings(game=game) if ratings is None else ratings
    level = unfair_level(alpha)
    out: dict[int, Panel] = {}
    for p in players:
        skilled = [c for c in cells if c.players == p and not c.floor and c.variant is None]
        if not skilled:
            continue
        ladder = table.get(str(p))
        pts, notes = [], []
        for c in skilled:
            names = members(c)
            rating = population_rating(ladder, names)
            note = ""
            measured = (ladder or {}).get("weights", {})
            for spec, digest in played_weights(root, c).items():
                if spec in measured and measured[spec].get("digest") != digest:
                    note = (f"{c.population} played {spec} with weights {digest[:12]}, the ladder "
                            f"rated weights {str(measured[spec].get('digest'))[:12]}: its rating "
                            "may not describe the player that played (make ratings)")
                    notes.append(note)
            if rating is None:
                missing = (f"no {p}-player ladder in strategies/ratings.json"
                           if game == DEFAULT_GAME
                           else f"strategies/ratings.json rates no {game} players")
                notes.append(f"{c.population} has no rating (" + (
                    f"the {p}-player ladder did not rate "
                    + ", ".join(n for n in names if n not in (ladder or {}).get("ratings", {}))
                    if ladder else missing) + "): drawn apart, at no rating position")
            pts.append(point(c, rating, tolerance, level, note,
                             kept_shown_fair(memo or Memo(None), c)))
        unfair = cross_unfair(skilled, tolerance, level)
        kind, sentence = verdict(p, pts, unfair, tolerance, level)
        out[p] = Panel(p, tuple(order(pts)), kind, sentence, unfair, level, ladder, tuple(notes))
    return out


__all__ = ["RATINGS", "Panel", "load_ratings", "members", "panels", "played_weights"]
