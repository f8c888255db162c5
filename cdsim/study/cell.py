"""A study cell as its report shows it (``CellResult``): the cell's state as the study
manifest holds it (``CellState``: its line-ups, stages and verdict), its finished stages'
games, the figures behind its verdict (``cdsim.analysis.cell``), a variant's paired
difference to its base (``paired.seat_difference``) and what it decides (``paired.judge``),
and the cards its variant changes (``cdsim.study.cards``). ``read_cell`` reads one from a
study folder; ``cdsim.study.results`` reads them all."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from cdsim.analysis.anytime import Verdict
from cdsim.analysis.candidates import CellGames, FloatArray
from cdsim.analysis.cell import CellFigures, OffsetsOf, cell_figures, cell_offsets
from cdsim.analysis.offsets import FairOffset
from cdsim.analysis.paired import PRECISION, Comparison, SeatChange, judge, seat_difference
from cdsim.batch.folder import RunFolder
from cdsim.study.cards import VariantCards
from cdsim.study.games import Opened, stage_games
from cdsim.study.manifest import CellState, ReadsCellState
from cdsim.study.memo import Memo, float_rows, games_digest
from cdsim.study.store import run_folder

Difference = tuple[FloatArray, FloatArray, FloatArray]  # mean, low, high: variant - base


@dataclass(frozen=True)
class CellResult(ReadsCellState):
    """One cell with at least one finished stage: its manifest ``state``, the finished
    ``stages``' games and what its report shows of them. The state's facts that its readers
    ask for are read through it (``players``, ``rulebook``, ``decision``, ...), never
    copied."""

    state: CellState
    stages: tuple[CellGames, ...]  # the finished stages' games
    figures: CellFigures
    difference: Difference | None = None  # a variant's, against its base, pp/100
    paired_games: int = 0
    change: Comparison | None = None  # the difference judged at the run's precision
    cards: VariantCards | None = None  # a variant's changed entries and cards
    games_digest: str = ""  # of the finished stages' games: what a kept figure was made of

    @property
    def population(self) -> str:
        return self.state.population

    @property
    def variant(self) -> str | None:
        return self.state.variant

    @property
    def floor(self) -> bool:
        return self.state.floor

    @property
    def decision(self) -> Verdict | None:
        """The manifest's verdict; None while stages remain."""
        return self.state.decision

    @property
    def lineups(self) -> tuple[tuple[str, ...], ...]:
        return tuple(tuple(x) for x in self.state.lineups)

    @property
    def budget(self) -> int:
        """At most this many games over all stages (the manifest's ``games``)."""
        return self.state.games

    @property
    def stage_runs(self) -> tuple[tuple[str, ...], ...]:
        """The finished stages' run folders (keys under cells/)."""
        return tuple(tuple(s.runs) for s in self.state.stages[:len(self.stages)])

    @property
    def label(self) -> str:
        return self.population + (f" · {self.variant}" if self.variant else "")

    @property
    def games(self) -> int:
        """Games played (the finished stages')."""
        return sum(g.games for g in self.stages)

    @property
    def deal(self) -> int:
        """Games per deal group: each line-up once, in every seat rotation if rotated."""
        return max(1, len(self.lineups)) * (self.players if self.state.rotate_seats else 1)

    @property
    def verdict(self) -> str:
        return self.decision.decision if self.decision else "still playing"


def read_cell(root: Path, state: CellState, memo: Memo | None = None,
              opened: Opened | None = None) -> CellResult | None:
    """A cell with at least one finished stage (None before), its games read from its run
    folders as ``cdsim study run`` reads them (``cdsim.study.games``; the runs opened kept
    in ``opened``, when given); its fair offsets from ``memo`` when it kept them for these
    games."""
    played: list[CellGames] = []
    for stage in state.stages:
        folders = [run_folder(root, k) for k in stage.runs]
        if not all(RunFolder(f).complete() for f in folders):
            break
        played.append(stage_games(folders, opened))
    if not played:
        return None
    digest = games_digest(played)
    return CellResult(state, tuple(played),
                      cell_figures(played, state.rulebook, state.decision, state.radius,
                                   _kept_offsets(memo or Memo(None), digest)),
                      games_digest=digest)


def _kept_offsets(memo: Memo, digest: str) -> OffsetsOf:
    """``cell_offsets``, kept in ``memo`` under the digest of the games it is given (the
    concatenation of the stages whose digest is ``digest``) and its settings."""
    def offsets(games: CellGames, rulebook: Sequence[int], around: Sequence[int] | None,
                radius: int) -> tuple[FairOffset, ...] | None:
        def make() -> list[list[float]] | None:
            found = cell_offsets(games, rulebook, around, radius)
            return None if found is None else [[float(x) for x in o] for o in found]

        rows = memo.json("offsets", (digest, tuple(rulebook),
                                     None if around is None else tuple(around), radius),
                         make, float_rows)
        return None if rows is None else tuple(FairOffset(*r) for r in rows)
    return offsets


def with_difference(cell: CellResult, base: CellResult | None,
                    precision: float = PRECISION) -> CellResult:
    """A variant's paired difference of each seat's win share at the rulebook vector,
    variant minus base, on the stages both played (``paired.seat_difference``: clustered by
    deal, 95% intervals simultaneous over the seats), judged at the run's ``precision``;
    the cell as it is without one."""
    if base is None or cell.variant is None:
        return cell
    found = seat_difference(cell.stages, base.stages, cell.rulebook)
    if found is None:
        return cell
    diff, games = found
    return replace(cell, difference=diff, paired_games=games,
                   change=judged(diff, precision, games))


def judged(diff: Difference, precision: float = PRECISION, games: int = 0) -> Comparison:
    """What a paired difference's 95% intervals decide at ``precision``
    (``paired.judge``)."""
    mean, low, high = diff
    return judge([SeatChange(s + 1, float(mean[s]), float(low[s]), float(high[s]))
                  for s in range(len(mean))], precision, games)


__all__ = ["CellResult", "Difference", "judged", "read_cell", "with_difference"]
