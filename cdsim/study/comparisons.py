"""``cdsim whatif``'s comparisons, played look by look (``run``): each base cell and its
variants' cells (a ``Pair``: one player count, one kind of play) play the same deals,
stage by stage, and stop at the first look that decides whether seat balance moves
(``cdsim.analysis.paired``), at their budget, or when the time budget is spent (a chunk
boundary: the stages finished are the looks, anytime-valid at any of them).

The plays go one after another in the order asked (scripted first): a play the quick look
only adds if time allows (``optional``) starts only if its comparisons' games fit in the
time left at this run's measured rate. After every look the study manifest holds the
cells' states and the comparisons so far, marked stopped until the end, so a stop at any
moment leaves a folder ``cdsim study report`` reads (provisional), and ``--resume``
continues: the stages begun keep their sizes (a raised budget adds stages after them) and
each comparison keeps the design it started with."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from cdsim.analysis import anytime, paired
from cdsim.analysis.candidates import CellGames, WinTable, candidates, win_table
from cdsim.batch.folder import RunFolder
from cdsim.study.budget import cell_game_ms
from cdsim.study.clock import Clock, TimeUp
from cdsim.study.games import stage_games
from cdsim.study.manifest import CellState, StageRuns, WhatIf, WhatIfComparison
from cdsim.study.model import Cell, Job, Study
from cdsim.study.play import play
from cdsim.study.store import open_folder, run_folder, write_study_manifest

LOOKS = 12  # looks a comparison gets over its budget after the first stage


@dataclass
class Pair:
    """One comparison: a base cell and its variants' cells (one player count, one play)."""

    base: Cell
    variants: list[Cell]
    sizes: tuple[int, ...]
    played: int = 0  # stages finished
    outcomes: dict[str, paired.Comparison] | None = None
    done: bool = False

    @property
    def cells(self) -> list[Cell]:
        return [self.base, *self.variants]

    @property
    def play(self) -> str:
        return self.base.population.name

    def games_left(self) -> int:
        """Games a side still to play, at most (its stages not finished)."""
        return 0 if self.done else sum(self.sizes[self.played:])

    def ms_left(self) -> float:
        """Their recorded cost (ms), every side together."""
        return self.games_left() * sum(cell_game_ms(c) for c in self.cells)


def stage_plan(cell: Cell, begun: Sequence[int] = ()) -> tuple[int, ...]:
    """A comparison's stages: the stages already ``begun`` as they are (a resumed folder's,
    whatever the budget is now), else the cell's first stage; then equal stages of about
    1/12 of the budget (whole deals) up to it: the intervals hold at every look, so looking
    often only stops a comparison sooner (doubling stages made the last look hold half the
    budget)."""
    step = max(cell.first, -(-cell.games // LOOKS // cell.deal) * cell.deal)
    sizes = list(begun) or [cell.first]
    while sum(sizes) < cell.games:
        sizes.append(min(step, cell.games - sum(sizes)))
    return tuple(sizes)


def begun(study: Study, cells: Sequence[Cell], root: Path) -> list[int]:
    """The sizes of the stages a folder has begun (a run folder of any of ``cells`` started),
    read from their run folders: the games each line-up's run plays, times the line-ups."""
    sizes: list[int] = []
    while True:
        k = len(sizes)
        for cell in cells:
            jobs = study.stage_jobs(cell, k, cell.first)
            started = [f for f in (RunFolder(run_folder(root, j.key)) for j in jobs)
                       if f.started()]
            if started:
                sizes.append(started[0].read().config.games * len(jobs))
                break
        else:
            return sizes


def pairs_of(study: Study, root: Path | None = None) -> list[Pair]:
    """The study's comparisons: each base cell with the cells of its variants, their stages
    planned (those ``root`` has begun kept as they are)."""
    out = []
    for cell in study.cells:
        if cell.variant is None:
            mine = [c for c in study.cells if c.variant is not None
                    and (c.players, c.population.name) == (cell.players, cell.population.name)]
            kept = begun(study, [cell, *mine], root) if root is not None else []
            out.append(Pair(cell, mine, stage_plan(cell, kept)))
    return out


def games_done(study: Study, root: Path, pairs: Sequence[Pair]) -> int:
    """Games the folder holds in finished chunks (every side): progress starts there."""
    return sum(RunFolder(run_folder(root, j.key)).games_done()
               for pair in pairs for cell in pair.cells for k, size in enumerate(pair.sizes)
               for j in study.stage_jobs(cell, k, size))


OnLook = Callable[[Pair], None]
OnChunk = Callable[[str, int], None]
OnPlan = Callable[[int, int], None]  # (games planned so far, games finished), every side


@dataclass
class Played:
    """What ``run`` played: the comparisons, the plays begun, those the quick look left
    out for time (``skipped``), why it stopped early (None: it did not) and its clock (this
    run's rate)."""

    pairs: list[Pair]
    begun: list[str]
    skipped: list[str]
    stopped: str | None
    clock: Clock


Write = Callable[[list[CellState], WhatIf, str | None], None]  # cells, comparisons, stopped


@dataclass
class _Looks:
    """A whatif as it plays: its study and folder, how its manifest is written (``write``),
    and the stages' games and win tables read so far (each once)."""

    study: Study
    root: Path
    write: Write
    precision: float
    games: dict[tuple[str, int], CellGames] = field(default_factory=dict)
    tables: dict[tuple[str, int], WinTable] = field(default_factory=dict)

    def stages(self, cell: Cell, played: int, sizes: Sequence[int]) -> list[CellGames]:
        out = []
        for k in range(played):
            if (cell.key, k) not in self.games:
                self.games[(cell.key, k)] = stage_games(
                    [run_folder(self.root, j.key) for j in self.study.stage_jobs(cell, k, sizes[k])])
            out.append(self.games[(cell.key, k)])
        return out

    def look(self, pair: Pair) -> dict[str, paired.Comparison]:
        """Each variant against the base on the stages finished: the anytime comparison
        designed for the budget the cell started with (a raised budget keeps it)."""
        base = self.stages(pair.base, pair.played, pair.sizes)
        deal = pair.base.deal
        design = paired.design_deals(pair.base.design, deal)
        out = {}
        for cell in pair.variants:
            assert cell.variant is not None
            mine = self.stages(cell, pair.played, pair.sizes)
            per_deal = paired.deal_differences(base, mine, pair.base.rulebook)
            out[cell.variant.name] = paired.compare(per_deal, design, self.precision,
                                                    games_per_deal=deal)
        return out

    def state(self, cell: Cell, pair: Pair) -> CellState:
        """A cell as the study manifest holds it: every stage it finished, and the verdict
        of its own games on the starting VP (its fair vector), as a study cell would have
        it there."""
        sizes = pair.sizes[:pair.played]
        state = self.study.state_of(cell, sizes, games=max(1, sum(sizes)))
        for k, size in enumerate(sizes):
            stage = self.study.stage_jobs(cell, k, size)
            state.stages.append(StageRuns(stage=k, seed=stage[0].config.seed, games=size,
                                          runs=[j.key for j in stage]))
        if not sizes:
            return state
        vectors = candidates(cell.rulebook, cell.radius)
        for k, games in enumerate(self.stages(cell, len(sizes), sizes)):
            if (cell.key, k) not in self.tables:
                self.tables[(cell.key, k)] = win_table(games, vectors)
        tables = [self.tables[(cell.key, k)] for k in range(len(sizes))]
        settings = self.study.file
        state.decision = anytime.decide(tables, cell.rulebook, settings.tolerance,
                                        settings.alpha, settings.tested,
                                        design_games=cell.design, predict=False,
                                        zone=settings.zone, naming=settings.name_within_zone)
        return state

    def record(self, pairs: Sequence[Pair], stopped: str | None) -> None:
        """The study manifest as it stands: every cell's state, the comparisons so far and,
        until the end, why it stopped (a stop at any moment leaves "interrupted")."""
        self.write([self.state(cell, pair) for pair in pairs for cell in pair.cells], WhatIf(
            command=" ".join(sys.argv), precision=self.precision,
            comparisons=[WhatIfComparison(players=p.base.players, play=p.play, variant=name,
                                          outcome=c.outcome, games=c.games, deals=c.deals,
                                          seats=[(s.change, s.low, s.high) for s in c.seats],
                                          changed=_changed(c), changed_deals=c.changed)
                         for p in pairs for name, c in (p.outcomes or {}).items()]),
            stopped)


def _changed(comparison: paired.Comparison) -> list[int] | None:
    """Each seat's count of deals the change altered, as the record keeps it (None: not
    kept)."""
    counts = [s.changed for s in comparison.seats]
    return None if any(c is None for c in counts) else [int(c) for c in counts if c is not None]


def run(study: Study, root: Path, jobs: int = -1, backend: str = "loky",
        force: bool = False, precision: float = paired.MARGIN, resume: bool = False,
        on_chunk: OnChunk | None = None, on_look: OnLook | None = None,
        clock: Clock | None = None, again: str = "", optional: Collection[str] = (),
        on_plan: OnPlan | None = None) -> Played:
    """Play the question into ``root``, one play after another (the study's populations in
    order): the next stage of every comparison of that play not yet decided, in one work
    queue, until each is decided, has played its budget or the ``clock``'s time is spent. A
    play in ``optional`` starts only if its games fit in the time left. The study manifest
    is written after every look (``again``: the command that continues it)."""
    manifest, study = open_folder(root, study, resume=resume, force=force)
    if again:
        manifest.resume = again
    clock = clock or Clock(None, jobs)
    clock.per_game_ms = {cell.key: cell_game_ms(cell) for cell in study.cells}
    start = time.perf_counter()
    pairs = pairs_of(study, root)
    def write(cells: list[CellState], whatif: WhatIf, stopped: str | None) -> None:
        manifest.cells, manifest.whatif = cells, whatif
        manifest.stopped = stopped  # written only while it is set (StudyManifest.record)
        write_study_manifest(root, manifest)

    looks = _Looks(study, root, write, precision)
    if resume:  # its cells as recorded until the looks are taken again (their design kept)
        manifest.stopped = "interrupted"
        write_study_manifest(root, manifest)
    else:
        looks.record(pairs, "interrupted")

    def tick(key: str, games: int) -> None:
        if on_chunk is not None:
            on_chunk(key, games)
        clock.chunk(key, games)

    skipped: list[str] = []
    timed_out = False
    begun_plays: list[Pair] = []
    for name in dict.fromkeys(p.play for p in pairs):
        group = [p for p in pairs if p.play == name]
        left = clock.left()
        if name in optional and left is not None and clock.seconds(
                1, sum(p.ms_left() for p in group)) > left:
            skipped.append(name)
            continue
        begun_plays += group
        if on_plan is not None:
            on_plan(sum(sum(p.sizes) * len(p.cells) for p in begun_plays),
                    games_done(study, root, begun_plays))
        if timed_out or _play(looks, group, pairs, jobs, backend, tick, clock, on_look):
            timed_out = True
            break
    stopped = None
    if timed_out or skipped:
        stopped = f"its time budget of {clock.budget_words()}" + (
            f"; {' and '.join(skipped)} play not begun" if skipped else "")
    manifest.stamp(start)  # its pages' wall time, machine
    if clock.rate() is not None:
        manifest.rate = clock.rate()
    looks.record(pairs, stopped)
    return Played(pairs, list(dict.fromkeys(p.play for p in begun_plays)), skipped, stopped,
                  clock)


def _play(looks: _Looks, group: Sequence[Pair], pairs: Sequence[Pair], jobs: int,
          backend: str, tick: OnChunk, clock: Clock, on_look: OnLook | None) -> bool:
    """One play's comparisons, stage by stage, a look after each; True when the time ran
    out first (the pairs whose stage finished are looked at, the others keep their last
    look)."""
    study, root = looks.study, looks.root
    stage = 0
    while True:
        active = [p for p in group if not p.done and stage < len(p.sizes)]
        if not active:
            return False
        jobs_of = {id(p): [j for cell in p.cells
                           for j in study.stage_jobs(cell, stage, p.sizes[stage])]
                   for p in active}
        todo: list[Job] = [j for p in active for j in jobs_of[id(p)]
                           if not RunFolder(run_folder(root, j.key)).complete()]
        timed_out = False
        if todo:
            if clock.expired():
                return True
            try:
                with clock.playing():
                    play(root, todo, jobs, backend, tick)
            except TimeUp:
                timed_out = True
        for pair in active:
            if timed_out and not all(RunFolder(run_folder(root, j.key)).complete()
                                     for j in jobs_of[id(pair)]):
                continue
            pair.played = stage + 1
            pair.outcomes = looks.look(pair)
            last = pair.played == len(pair.sizes)
            pair.done = last or all(c.outcome != "undecided" for c in pair.outcomes.values())
            if on_look is not None:
                on_look(pair)
        looks.record(pairs, "interrupted")
        if timed_out:
            return True
        stage += 1


__all__ = ["LOOKS", "OnLook", "Pair", "Played", "begun", "games_done", "pairs_of", "run",
           "stage_plan"]
