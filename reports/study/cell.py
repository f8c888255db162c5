"""One cell of a study report: its finished stages' games, the seat win shares behind its
verdict, each seat's fair offset, and a variant's paired difference to its base, as
``cdsim.analysis`` computes them (``cell`` and ``paired``); ``reports.study`` puts the cells
together."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cdsim.analysis.candidates import CellGames
from cdsim.analysis.cell import Shares, cell_figures
from cdsim.analysis.offsets import FairOffset
from cdsim.analysis.paired import seat_difference
from cdsim.batch.folder import RunFolder
from cdsim.study.games import stage_games
from cdsim.study.store import run_folder
from reports.charts import FloatArray
from reports.fmt import number

Figure = tuple[float, float, float]  # estimate, low, high (95%)


@dataclass(frozen=True)
class CardChange:
    """One changed card under the base and the variant (``reports.study.cards.KEYS``:
    estimate, low, high)."""

    kind: str
    card: str
    keys: tuple[str, ...]  # the changed keys, as "reward.vp 8 -> 6"
    base: dict[str, Figure]
    variant: dict[str, Figure]
    change: dict[str, Figure]  # variant minus base, paired on the same games


@dataclass(frozen=True)
class VariantCards:
    """A variant's changed entries (``table.id``), the diff's lines, and its changed cards
    (``reports.study.cards`` works them out); ``missing``: the one line why there are no
    card figures."""

    changed: tuple[str, ...]
    lines: tuple[str, ...]
    cards: tuple[CardChange, ...] = ()
    missing: str = ""
    known: bool = True  # False: a component set could not be read, the changes are unknown


# -- one cell ------------------------------------------------------------------------------


@dataclass(frozen=True)
class CellResult:
    key: str
    players: int
    population: str
    variant: str | None
    floor: bool
    method: str  # re-ranking | rulebook only
    lineups: tuple[tuple[str, ...], ...]
    pool: tuple[str, ...]
    rotated: bool
    rulebook: tuple[int, ...]
    radius: int
    budget: int
    decision: dict[str, Any] | None  # the manifest's verdict; None while stages remain
    stages: tuple[CellGames, ...]  # the finished stages' games
    stage_runs: tuple[tuple[str, ...], ...]
    at_rulebook: Shares  # on all games played
    at_decided: Shares | None  # confirmed: on the confirming stage; else on all games
    difference: tuple[FloatArray, FloatArray, FloatArray] | None = None  # variant - base, pp/100
    paired_games: int = 0
    offsets: tuple[FairOffset, ...] | None = None  # seats 2..n: fair offset over seat 1
    cards: VariantCards | None = None  # a variant's changed entries and cards (reports.study.cards)

    @property
    def label(self) -> str:
        return self.population + (f" · {self.variant}" if self.variant else "")

    @property
    def games(self) -> int:
        return sum(g.games for g in self.stages)

    @property
    def deal(self) -> int:
        """Games per deal group: each line-up once, in every seat rotation if rotated."""
        return max(1, len(self.lineups)) * (self.players if self.rotated else 1)

    @property
    def verdict(self) -> str:
        return self.decision["decision"] if self.decision else "still playing"

    def who(self, full: bool = False) -> str:
        """Who sat at the table: the line-ups (each in every seat rotation) or the pool;
        every N-subset of a list said as such unless ``full``."""
        if self.pool:
            return "each seat drawn per game from " + ", ".join(self.pool)
        if len(self.lineups) == 1 and len(set(self.lineups[0])) == 1:
            return f"{self.lineups[0][0]} in every seat"
        rot = ", each in all seat rotations, on the same deals" if self.rotated else ""
        names = list(dict.fromkeys(n for x in self.lineups for n in x))
        subsets = set(itertools.combinations(names, self.players))
        if not full and len(self.lineups) > 1 and set(self.lineups) == subsets:
            return (f"every {self.players} of {', '.join(names)}: {len(self.lineups)} "
                    f"line-ups{rot}")
        ups = "; ".join(", ".join(x) for x in self.lineups)
        return (f"{len(self.lineups)} line-ups: " if len(self.lineups) > 1 else "") + ups + rot


def analyse_cell(root: Path, state: dict[str, Any]) -> CellResult | None:
    """A cell with at least one finished stage (None before), its games read from its run
    folders as ``cdsim study run`` reads them (``cdsim.study.games``)."""
    played: list[CellGames] = []
    runs: list[tuple[str, ...]] = []
    for stage in state["stages"]:
        folders = [run_folder(root, k) for k in stage["runs"]]
        if not all(RunFolder(f).complete() for f in folders):
            break
        played.append(stage_games(folders))
        runs.append(tuple(stage["runs"]))
    if not played:
        return None
    rulebook = tuple(int(x) for x in state["rulebook"])
    decision = state.get("decision")
    figures = cell_figures(played, rulebook, decision, int(state["radius"]))
    return CellResult(
        state["key"], int(state["players"]), state["population"], state["variant"],
        bool(state["floor"]), state["method"], tuple(tuple(x) for x in state["lineups"]),
        tuple(state["pool"]), bool(state["rotate_seats"]), rulebook, int(state["radius"]),
        int(state["games"]), decision, tuple(played), tuple(runs), figures.at_rulebook,
        figures.at_decided, offsets=figures.offsets)


def with_difference(cell: CellResult, base: CellResult | None) -> CellResult:
    """A variant's paired difference of each seat's win share at the rulebook vector,
    variant minus base, on the stages both played (``paired.seat_difference``: clustered by
    deal, 95% intervals simultaneous over the seats); the cell as it is without one."""
    if base is None or cell.variant is None:
        return cell
    found = seat_difference(cell.stages, base.stages, cell.rulebook)
    if found is None:
        return cell
    diff, games = found
    return CellResult(**{**cell.__dict__, "difference": diff, "paired_games": games})


def offsets_json(c: CellResult) -> dict[str, Any]:
    """Each seat's fair offset (starting VP over seat 1) with its 95% interval, seats
    counted from 1 (seat 1 is the reference: 0); None for a cell judged at the rulebook
    vector only."""
    if c.offsets is None:
        return {"fair_offset": None, "fair_offset_interval": None}
    return {"fair_offset": {"1": 0.0} | {str(s): number(o.offset, 3)
                                         for s, o in enumerate(c.offsets, 2)},
            "fair_offset_interval": {"1": [0.0, 0.0]} | {
                str(s): [number(o.low, 3), number(o.high, 3)] for s, o in enumerate(c.offsets, 2)}}

