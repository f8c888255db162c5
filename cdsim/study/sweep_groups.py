"""A study's sweeps as its report shows them (``SweepGroup``): per sweep, player count and
population, the base cell and each value's, with what ``cdsim.analysis`` decides of them --
whether the seats come out fair at each value (``sweep.covers``), each value's paired change
of seat balance against the base (``paired.judge``, on ``CellResult.change``) and where the
swept card or component is neutral (``sweep.neutral``). ``reports.study.sweep`` words them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from cdsim.analysis.paired import Comparison
from cdsim.analysis.sweep import Neutral, covers, neutral
from cdsim.study.cards import Figure
from cdsim.study.cell import CellResult
from cdsim.study.file import Sweep
from cdsim.study.manifest import StudyManifest
from cdsim.study.uses import ComponentChange

CardPoint = tuple[int, dict[str, Figure]]  # a value, the swept card's figures there


@dataclass(frozen=True)
class SweepGroup:
    """One sweep at one player count for one population: the base cell and each value's,
    whether the seats come out fair in each (by cell key: ``fair``), the swept card's
    figures by value (``card_points``) and where it is neutral (``neutral``)."""

    sweep: Sweep  # the manifest's record
    players: int
    population: str
    base: CellResult | None
    values: tuple[tuple[int, CellResult], ...]
    covered: dict[str, bool | None]  # by cell key, the base's too: ``covers`` at played
    card_points: tuple[CardPoint, ...] = ()
    neutral: Neutral | None = None  # None: fewer than two values with the card's figures

    @property
    def base_value(self) -> int:
        """The swept key's value in the base (``load_study`` sets it on every sweep)."""
        return _base_value(self.sweep)

    @property
    def rulebook(self) -> tuple[int, ...]:
        return self.values[0][1].rulebook

    @property
    def played(self) -> list[int]:
        """Each seat's offset over seat 1 at the starting VP played."""
        return [v - self.rulebook[0] for v in self.rulebook]

    @property
    def fair_values(self) -> list[int]:
        return [value for value, cell in self.values if self.fair(cell)]

    def fair(self, cell: CellResult) -> bool | None:
        """Whether the seats come out fair in ``cell`` at the starting VP played
        (``cdsim.analysis.sweep.covers``); None without fair offsets."""
        return self.covered[cell.key]

    @property
    def swept(self) -> tuple[str, str, bool] | None:
        """What ``neutral`` is about: the swept card's id or component's noun, who use it
        (its kind's takers, e.g. "takers" or "drawers"; "users") and whether it is a card;
        None: neither has figures."""
        for _, cell in self.values:
            if cell.cards is not None and cell.cards.cards:
                card = cell.cards.cards[0]
                return card.card, card.kind.verbs.takers.rstrip("'"), True
            used = swept_component(self.sweep, cell)
            if used is not None:
                return used.use.noun, "users", False
        return None

    @property
    def changes(self) -> list[tuple[int, Comparison]]:
        """Each value's paired change against the base, where it has paired games."""
        return [(value, cell.change) for value, cell in self.values if cell.change is not None]


def _base_value(sweep: Sweep) -> int:
    assert sweep.base_value is not None, sweep.name
    return sweep.base_value


def swept_component(sweep: Sweep, cell: CellResult) -> ComponentChange | None:
    """The swept entry's figures in a value's cell where it is a component that is not a
    card and its use is recorded (a study that watches it: ``cdsim whatif``'s do)."""
    if cell.cards is None:
        return None
    return next((c for c in cell.cards.components if c.entry == sweep.entry and c.recorded
                 and "win_difference" in c.variant), None)


def _card_points(sweep: Sweep, values: Sequence[tuple[int, CellResult]]
                 ) -> tuple[CardPoint, ...]:
    """(value, the swept card's figures) for the base's value and every value tried,
    sorted by value; for a sweep of a component that is not a card, its use figures
    (``swept_component``); empty when the sweep changes neither."""
    points: dict[int, dict[str, Figure]] = {}
    for value, cell in values:
        card = cell.cards.cards[0] if cell.cards is not None and cell.cards.cards else None
        if card is None:
            used = swept_component(sweep, cell)
            if used is None:
                continue
            points[value] = used.variant
            points.setdefault(_base_value(sweep), used.base)
            continue
        points[value] = card.variant
        points.setdefault(_base_value(sweep), card.base)
    return tuple(sorted(points.items()))


def _group(sweep: Sweep, players: int, population: str, base: CellResult | None,
           values: tuple[tuple[int, CellResult], ...]) -> SweepGroup:
    rulebook = values[0][1].rulebook
    played = [v - rulebook[0] for v in rulebook][1:]
    cells = [c for _, c in values] + ([base] if base is not None else [])
    points = _card_points(sweep, values)
    found = None
    if len(points) >= 2:
        found = neutral([float(v) for v, _ in points],
                        *([f["win_difference"][j] for _, f in points] for j in range(3)))
    return SweepGroup(sweep, players, population, base, values,
                      {c.key: covers(c.figures.offsets, played) for c in cells}, points, found)


def groups(manifest: StudyManifest, cells: Sequence[CellResult]) -> list[SweepGroup]:
    """Every sweep's groups, in the study's order of player counts and populations."""
    bases = {(c.players, c.population): c for c in cells if c.variant is None}
    found = {(c.players, c.population, c.variant): c for c in cells}
    populations = list(dict.fromkeys(c.population for c in cells))
    out = []
    for sweep in manifest.sweeps:
        for players in manifest.players:
            for population in populations:
                values = tuple((int(v), found[(players, population, name)])
                               for v, name in zip(sweep.values, sweep.variants, strict=True)
                               if (players, population, name) in found)
                if values:
                    out.append(_group(sweep, int(players), population,
                                      bases.get((players, population)), values))
    return out


__all__ = ["CardPoint", "SweepGroup", "groups", "swept_component"]
