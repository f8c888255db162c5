"""A study folder read once for its report (``read_results``): the study manifest as its
model, each cell with a finished stage as a ``CellResult`` (the seat win shares behind its
verdict, its fair offsets, a variant's paired difference to its base and its changed
cards), the sweeps' groups, each variant's change of seat balance and the "fair starting VP
by skill" panels. Everything here is read or computed below the report (``cdsim.analysis``
computes every figure and verdict); ``reports.study`` only words and lays out these
records."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from cdsim.analysis.candidates import CellGames, candidates
from cdsim.analysis.cards import CARD_MARGIN
from cdsim.analysis.paired import PRECISION, Comparison, SeatChange, judge
from cdsim.analysis.rare import RareWinner, note, rare_winners
from cdsim.analysis.recommend import PoolOf, Recommendation, between, recommend
from cdsim.analysis.skill import unfair_level
from cdsim.batch.balance import strategy_wins
from cdsim.batch.folder import CELLS, RunFolder
from cdsim.batch.read import Run
from cdsim.errors import CdsimError
from cdsim.games import GameSpec, game_spec
from cdsim.study.cards import swept_card, variant_cards
from cdsim.study.cell import CellResult, judged, read_cell, with_difference
from cdsim.study.cores import in_order
from cdsim.study.games import Opened, opened_run
from cdsim.study.manifest import CellState, StudyManifest
from cdsim.study.memo import MEMO, TABLE, Memo, analysis_code, flags
from cdsim.study.skill import Panel, kept_shown_fair, panels
from cdsim.study.store import run_folder, study_manifest_of
from cdsim.study.sweep_groups import SweepGroup, groups
from cdsim.study.transcribe import BoxCount, box_count


@dataclass(frozen=True)
class VariantChange:
    """What a variant cell's change does to seat balance, judged at the study's precision
    (``cdsim whatif``'s, else ``paired.PRECISION``): ``cdsim whatif``'s anytime comparison
    when it played the study (``anytime``), else the cell's paired 95% intervals."""

    comparison: Comparison  # its games: a side's (anytime), or the paired games
    anytime: bool


@dataclass(frozen=True)
class StudyResults:
    """What a study's report shows: its manifest, its cells with a finished stage (base
    cells and variants alike, in the manifest's order), the cells with none yet
    (``missing``, by key) and the skill panels by player count."""

    manifest: StudyManifest
    root: Path
    cells: tuple[CellResult, ...]
    missing: tuple[str, ...] = ()
    by_skill: dict[int, Panel] = field(default_factory=dict)
    sweeps: tuple[SweepGroup, ...] = ()
    changes: dict[str, VariantChange] = field(default_factory=dict)  # by variant cell key
    unjudged: int = 0  # games in finished chunks of stages not finished (a stopped study's)
    # the vector to print per player count (``analysis.recommend``), over its skilled bases
    recommendations: dict[int, Recommendation] = field(default_factory=dict)
    # by cell key: the strategies that won below ``rare.FLOOR`` of the seats they played
    rare: dict[str, tuple[RareWinner, ...]] = field(default_factory=dict)
    # how many entries of its base's component set are the box's (None: not known)
    box: BoxCount | None = None

    def rare_notes(self, players: int) -> list[str]:
        """The cells of ``players`` (skilled bases) with a strategy that never wins, each
        as "population: note"."""
        return [f"{c.population}: {note(self.rare[c.key])}" for c in self.cells
                if c.players == players and not c.floor and c.variant is None
                and self.rare.get(c.key)]

    @property
    def tolerance(self) -> float:
        return self.manifest.tolerance

    @property
    def game(self) -> GameSpec:
        """The game its cells play (cdsim.games; every cell plays the study's)."""
        return game_spec(self.manifest.cells[0].game if self.manifest.cells else None)

    @property
    def provisional(self) -> bool:
        """Whether play stopped before its plan's end (interrupted, or its time budget
        spent): what it shows is what the finished stages show, not the answer."""
        return (self.manifest.stopped is not None or bool(self.missing)
                or any(c.decision is None for c in self.cells))

    @property
    def resume(self) -> str:
        """The command that continues it (``resume_command``)."""
        return resume_command(self.root, self.manifest)

    def stopped_words(self) -> str:
        """Why it is provisional and how to go on, in one sentence."""
        why = self.manifest.stopped or "interrupted"
        kept = (f"the {self.unjudged:,} games of finished chunks of stages not yet finished "
                "are kept for the next look" if self.unjudged else
                "no stage was left part-played")
        return (f"play stopped ({why}) before every comparison and cell was decided: this "
                f"is what the finished stages show; {kept}. Continue with {self.resume}")


def _with_base(root: Path, manifest: StudyManifest, cell: CellResult,
               base: CellResult | None) -> CellResult:
    """A variant's paired difference to its base cell and its changed cards; a base cell as
    it is."""
    cell = with_difference(cell, base, precision_of(manifest))
    stages = min(len(cell.stages), len(base.stages)) if base is not None else 0
    cards = variant_cards(root, cell.state, base.state if base is not None else None, stages,
                          swept_card(manifest, cell.variant, game_spec(cell.state.game)))
    return replace(cell, cards=cards)


def precision_of(manifest: StudyManifest) -> float:
    """The precision its seat changes are judged at: ``cdsim whatif``'s (``--precision``),
    else ``paired.PRECISION``."""
    return manifest.whatif.precision if manifest.whatif else PRECISION


def card_margin_of(manifest: StudyManifest) -> float:
    """The margin its card lines are judged at: ``cdsim whatif``'s (``--card-margin``, as
    recorded), else ``cards.CARD_MARGIN``."""
    recorded = manifest.whatif.card_margin if manifest.whatif else None
    return CARD_MARGIN if recorded is None else recorded


def _changes(manifest: StudyManifest, cells: list[CellResult]) -> dict[str, VariantChange]:
    """Each variant cell's change of seat balance at the rulebook's vector, by key."""
    whatif = manifest.whatif
    asked = {(c.players, c.play, c.variant): c for c in (whatif.comparisons if whatif else ())}
    precision = precision_of(manifest)
    out = {}
    for c in cells:
        if c.variant is None:
            continue
        comparison = asked.get((c.players, c.population, c.variant))
        if comparison is not None:
            counts: list[int | None] = (list(comparison.changed) if comparison.changed
                                        else [None] * len(comparison.seats))
            seats = [SeatChange(s, *x, changed=n) for s, (x, n) in
                     enumerate(zip(comparison.seats, counts, strict=True), 1)]
            out[c.key] = VariantChange(judge(seats, precision, comparison.games,
                                             comparison.deals, comparison.changed_deals), True)
        elif c.difference is not None:
            out[c.key] = VariantChange(judged(c.difference, precision, c.paired_games), False)
    return out


# the figures read_results keeps (cdsim.study.memo), and those it only reads: a stage's win
# table, kept by the plan, is read once (the shown-fair flags made of it are kept)
KEPT = ("offsets", "shown-fair", "recommend-pool")
READ_ONCE = (TABLE,)


def read_results(root: Path, note: Callable[[str], None] | None = None,
                 memo: Memo | None = None) -> StudyResults:
    """The study in ``root`` as its report shows it; a study with no finished stage is one
    line saying how to go on. ``note`` hears when its manifest is read and each cell's games
    are next (a progress line: a folder that is no study stays one line, with none before).
    The costly figures are kept in ``memo`` (default: the study folder's, ``MEMO``), so a
    report written again computes only those of games it has not seen."""
    manifest = study_manifest_of(root)
    tell = note or (lambda _: None)
    memo = memo or Memo(root / MEMO, analysis_code())
    read, wins = [], {}
    for i, (state, (cell, won, used)) in enumerate(
            zip(manifest.cells, _read_cells(root, manifest, memo), strict=True), 1):
        tell(f"reading cell {i} of {len(manifest.cells)}, {state.key}: its games, seat win "
             "shares and fair offsets")
        read.append((state.key, cell))
        wins[state.key] = won
        memo.used |= used
    cells = [c for _, c in read if c is not None]
    if not cells:
        raise CdsimError(f"{root}: no cell has finished a stage yet; continue with "
                         f"{resume_command(root, manifest)}")
    bases = {(c.players, c.population): c for c in cells if c.variant is None}
    cells = [_with_base(root, manifest, c, bases.get((c.players, c.population))) for c in cells]
    tell("judging the skill panels' vectors")
    by_skill = panels(root, cells, manifest.players, manifest.tolerance, manifest.alpha,
                      memo=memo)
    tell("choosing the vector to print per player count")
    printed = recommendations(manifest, cells, memo)
    memo.used -= {n for n in memo.used if n.startswith(tuple(f"{k}-" for k in READ_ONCE))}
    memo.prune(KEPT + READ_ONCE)
    return StudyResults(manifest, root, tuple(cells), tuple(k for k, c in read if c is None),
                        by_skill, tuple(groups(manifest, cells)), _changes(manifest, cells),
                        _unjudged(root, cells), printed,
                        {c.key: rare for c in cells if (rare := rare_winners(wins[c.key]))},
                        _box(root, manifest))


Read = tuple[CellResult | None, dict[str, tuple[int, int]], set[str]]


def _read_one(root: Path, manifest: StudyManifest, memo: Memo, state: CellState) -> Read:
    """One cell as ``read_cell`` reads it, its players' wins (``_wins``: its runs opened
    once) and the names of the figures of ``memo`` it found or kept. A skilled base cell's
    vectors not shown unfair (the skill panel's, ``cdsim.study.skill``) are kept in ``memo``
    here too, where this cell's games are at hand: ``panels`` then finds them."""
    opened: Opened = {}  # each run folder opened once: its games, then its players' wins
    cell = read_cell(root, state, memo, opened)
    if cell is None:
        return None, {}, memo.used
    if not cell.floor and cell.variant is None and cell.players in manifest.players:
        kept_shown_fair(memo, cell)(cell.stages, candidates(cell.rulebook, cell.radius),
                                    manifest.tolerance, unfair_level(manifest.alpha))
    return cell, _wins(root, cell, opened), memo.used


def _read_cells(root: Path, manifest: StudyManifest, memo: Memo) -> Iterator[Read]:
    """``_read_one`` of every cell, in the manifest's order, on every core
    (``cores.in_order``: the cells are independent, and each figure is computed as it
    would be here, so the same bits)."""
    return in_order(functools.partial(_read_one, root, manifest, memo), manifest.cells)


def _box(root: Path, manifest: StudyManifest) -> BoxCount | None:
    """The box's entries of the set its base cells played (their first run's), or None
    where no run says or its set no longer loads."""
    for state in manifest.cells:
        for stage in state.stages if state.variant is None else ():
            for key in stage.runs:
                run = RunFolder(run_folder(root, key))
                if run.started():
                    try:
                        config = run.read().config
                        return box_count(config.spec, config.components)
                    except CdsimError:
                        return None
    return None


def _kept_pool(memo: Memo, cells: list[CellResult]) -> PoolOf:
    """``recommend.between`` on ``cells``' choosing games, kept in ``memo`` under the
    digests of their games (as flags over the candidates)."""
    def pool_of(choosing: Sequence[CellGames], radius: int, rulebook: tuple[int, ...]
                ) -> np.ndarray:
        digests = [c.games_digest for c in cells]
        if not all(digests):  # games the digests are not of
            return between(choosing, radius, rulebook)
        box = candidates(rulebook, radius)

        def make() -> list[bool]:
            pool = {tuple(int(x) for x in v) for v in between(choosing, radius, rulebook)}
            return [tuple(int(x) for x in v) in pool for v in box]

        kept = memo.json("recommend-pool", (digests, radius, rulebook), make, flags)
        return np.asarray(box[np.asarray(kept, dtype=np.bool_)], dtype=np.int64)
    return pool_of


def _wins(root: Path, cell: CellResult, opened: Opened | None = None
          ) -> dict[str, tuple[int, int]]:
    """Per strategy, (wins, seats played) in the cell's finished stages' runs (those
    ``opened`` holds not opened again)."""
    runs: list[Run] = []
    for stage in cell.stage_runs:
        for key in stage:
            try:
                runs.append(opened_run(run_folder(root, key), opened))
            except CdsimError:  # a run with no finished chunk: nothing of it is counted
                continue
    return strategy_wins(runs)


def recommendations(manifest: StudyManifest, cells: list[CellResult],
                    memo: Memo | None = None) -> dict[int, Recommendation]:
    """The vector to print per player count with a skilled base cell (its costly pool kept
    in ``memo``, when given); none for a whatif, whose question is its change (its base
    cells play the deals the change is paired on)."""
    out: dict[int, Recommendation] = {}
    if manifest.whatif is not None:
        return out
    for p in manifest.players:
        mine = [c for c in cells if c.players == p and not c.floor and c.variant is None]
        rec = recommend(p, mine, manifest.alpha, _kept_pool(memo or Memo(None), mine))
        if rec is not None:
            out[p] = rec
    return out


def _unjudged(root: Path, cells: list[CellResult]) -> int:
    """Games in the study's run folders beyond its cells' finished stages: the finished
    chunks of stages a stop left part-played (no look has counted them yet)."""
    folders = root / CELLS
    played = sum(RunFolder(f).games_done() for f in sorted(folders.iterdir())
                 if f.is_dir()) if folders.is_dir() else 0
    return max(0, played - sum(c.games for c in cells))


def resume_command(root: Path, manifest: StudyManifest) -> str:
    """The command that continues the study in ``root``: the one its stop printed, as the
    manifest recorded it (a whatif's is a whatif's), else a study run's."""
    return manifest.resume or (f"cdsim study run {manifest.source or 'STUDY.toml'} --out "
                               f"{root} --resume")


__all__ = ["StudyResults", "VariantChange", "card_margin_of", "read_results", "recommendations",
           "resume_command"]
