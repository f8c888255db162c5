"""What a study's variant changes, and what that does to the changed cards themselves
(``VariantCards``; the study report's words are ``reports.study.cards``).

Per variant cell: the entries its component set changes against its base cell's (the lines
``cdsim components diff`` prints) and, for each changed card its card table follows (e.g.
Carpe Diem's objective and fountain cards), its figures under the base and under the variant
on the same deals (the stages both played), as ``cdsim.analysis.cards.card_change`` computes
them from the runs' card rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import polars as pl

from cdsim.analysis.cards import Takes, card_change
from cdsim.analysis.uses import StyleEffect
from cdsim.batch.read import NoCardTable, card_rows, open_run
from cdsim.errors import CdsimError
from cdsim.games import GameSpec, game_spec
from cdsim.games.features import CardKind, CardTable, EntryChange
from cdsim.study.manifest import CellState, StudyManifest
from cdsim.study.store import run_folder
from cdsim.study.uses import ComponentChange, VariantUses, variant_uses

OLD_RUNS = ("card figures need runs made with this version of cdsim (this study's runs were "
            "made before the card table, run format 1)")
Figure = tuple[float, float, float]  # estimate, low, high (95%)


@dataclass(frozen=True)
class CardChange:
    """One changed card under the base and the variant (``cdsim.analysis.cards.FIGURES``'
    keys and the win difference: estimate, low, high); ``kind``: its kind of card, whose
    words say its figures."""

    kind: CardKind
    card: str
    keys: tuple[str, ...]  # the changed keys, as "reward.vp 8 -> 6"
    base: dict[str, Figure]
    variant: dict[str, Figure]
    change: dict[str, Figure]  # variant minus base, paired on the same games
    takes: tuple[Takes, Takes] | None = None  # what base and variant rest on (None: unknown)


@dataclass(frozen=True)
class VariantCards:
    """A variant's changed entries (``table.id``), the diff's lines, and its changed cards;
    ``missing``: the one line why there are no card figures."""

    changed: tuple[str, ...]
    lines: tuple[str, ...]
    cards: tuple[CardChange, ...] = ()
    missing: str = ""
    known: bool = True  # False: a component set could not be read, the changes are unknown
    # the changed components that are not cards, with their use (cdsim.study.uses), and the
    # variant's effect on each strategy's win share
    components: tuple[ComponentChange, ...] = ()
    styles: tuple[StyleEffect, ...] = ()


def _components(root: Path, cell: CellState) -> str | None:
    """The component set a cell's runs played with (None: the shipped set)."""
    return open_run(run_folder(root, cell.stages[0].runs[0])).config.components


def _frame(root: Path, cell: CellState, stages: int) -> pl.DataFrame:
    """The card rows of the cell's first ``stages`` stages, each game and deal numbered
    across its runs and stages (in the same order for a variant as for its base)."""
    parts = []
    for stage, runs in enumerate(s.runs for s in cell.stages[:stages]):
        for place, key in enumerate(runs):
            parts.append(card_rows(open_run(run_folder(root, key))).with_columns(
                stage=pl.lit(stage), place=pl.lit(place)))
    frame = pl.concat(parts)
    return frame.with_columns(
        game=pl.struct("stage", "place", "game").rank("dense").cast(pl.Int64),
        setup=pl.struct("stage", "setup").rank("dense").cast(pl.Int64))


def _change(cards: tuple[str, str], changes: Sequence[EntryChange],
            frames: tuple[pl.DataFrame, ...], table: CardTable) -> CardChange:
    kind, card = table.kind(cards[0]), cards[1]
    found = card_change(frames[0], frames[1], kind, card)
    mine = [c for c in changes if c.card == cards]
    keys = (mine[0].alone,) if len(mine) == 1 else tuple(c.said for c in mine)
    return CardChange(kind, card, keys, found.base, found.variant, found.change, found.takes)


def variant_cards(root: Path, cell: CellState, base: CellState | None, stages: int,
                  show: Sequence[tuple[str, str]] | None = None) -> VariantCards | None:
    """A variant cell's changed entries and its changed cards' figures against ``base`` on
    the first ``stages`` stages (both finished them; None for a base cell); ``show``: other
    cards to show (kind, id) instead."""
    if cell.variant is None:
        return None
    if base is None:
        return VariantCards((), (), missing="card figures need the base cell's games",
                            known=False)
    spec = game_spec(cell.game)
    listed, diff = spec.card_changes, spec.diff
    if listed is None and diff is not None:  # the game's own diff; no cards to follow
        try:
            found = diff(_components(root, base), _components(root, cell))
        except CdsimError as exc:
            return VariantCards((), (), missing=f"the changes need both component sets: {exc}",
                                known=False)
        entries = tuple(dict.fromkeys(e for e, _ in found))
        said = [(e, tuple(line.split(": ", 1)[-1] for x, line in found if x == e))
                for e in entries]
        return _with_uses(VariantCards(entries, tuple(line for _, line in found)),
                          _uses(root, cell, base, stages, spec, said, bool(entries)))
    if listed is None:
        return VariantCards((), (), missing=f"{spec.title} lists no changes between "
                            "component sets", known=False)
    try:
        changes = listed(_components(root, base), _components(root, cell))
    except CdsimError as exc:  # a component set moved or deleted since the study ran
        return VariantCards((), (), missing=f"card figures need both component sets: {exc}",
                            known=False)
    changed = tuple(dict.fromkeys(c.entry for c in changes))
    lines = tuple(c.line for c in changes)
    others = [(e, tuple(c.said for c in changes if c.entry == e)) for e in changed
              if all(c.card is None for c in changes if c.entry == e)]
    uses = _uses(root, cell, base, stages, spec, others, bool(changed))
    cards = list(show if show is not None else dict.fromkeys(
        c.card for c in changes if c.card is not None))
    if not cards or not stages or spec.cards is None:
        return _with_uses(VariantCards(changed, lines), uses)
    try:
        frames = (_frame(root, base, stages), _frame(root, cell, stages))
    except NoCardTable:
        return _with_uses(VariantCards(changed, lines, missing=OLD_RUNS), uses)
    if frames[0]["game"].n_unique() != frames[1]["game"].n_unique():
        return VariantCards(changed, lines, missing="card figures need the base's deals")
    return _with_uses(VariantCards(changed, lines, tuple(
        _change(c, changes, frames, spec.cards) for c in cards)), uses)


def _uses(root: Path, cell: CellState, base: CellState, stages: int, spec: GameSpec,
          changed: Sequence[tuple[str, tuple[str, ...]]], changed_any: bool) -> VariantUses:
    """The changed components that are not cards and each style's effect, or nothing where
    the seat rows cannot be read (the card figures' own line says why) or nothing changed
    (a sweep's value that is the base's: its games are the base's)."""
    if not changed_any:
        return VariantUses()
    try:
        return variant_uses(root, cell, base, stages, spec, changed)
    except CdsimError:
        return VariantUses()


def _with_uses(cards: VariantCards, uses: VariantUses) -> VariantCards:
    return replace(cards, components=uses.components, styles=uses.styles)


def swept_card(manifest: StudyManifest, variant: str | None, game: GameSpec
               ) -> list[tuple[str, str]] | None:
    """A sweep's value shows the swept card even where it changes nothing (the value the
    base has), so that every value has its row: that card (kind, id) for a sweep's value
    that sweeps a card (an entry of one of ``game``'s card tables), else None (the changed
    cards)."""
    tables = game.sweeps.card_tables if game.sweeps is not None else ()
    swept = {name: s.entry.split(".", 1) for s in manifest.sweeps for name in s.variants}
    entry = swept.get(str(variant))
    return [(entry[0], entry[1])] if entry and entry[0] in tables and len(entry) == 2 else None


__all__ = ["OLD_RUNS", "CardChange", "Figure", "VariantCards", "swept_card",
           "variant_cards"]
