"""``cdsim whatif``'s comparisons, played look by look (``run``): each base cell and its
variants' cells (a ``Pair``: one player count, one kind of play) play the same deals,
stage by stage, and stop at the first look that decides whether seat balance moves
(``cdsim.analysis.paired``), at their cap (``--games``, when given), or when the time
budget is spent (a chunk boundary: the stages finished are the looks, anytime-valid at
any of them).

Every comparison asked plays in one work queue, round by round: each round gives the next
stage to the comparisons still undecided, **nearest to deciding first**. Nearest is judged
on the last look: the games a side that would decide it if the seats' differences stay as
they look and the intervals narrow as one over the root of the games
(``paired.Comparison.games_to_decide``: every seat's interval against the margin), priced
at this machine's measured pace (``Clock.seconds``) for every side of the comparison; one
not yet looked at comes first (its first stage is small). With a time budget, a round
holds only the stages that fit in the time left, taken in that order (a stage may be
shortened to fit, never below a quarter of a usual stage); when none fits, play ends, so
the minutes go to the comparisons that can use them and no stage is begun that cannot
finish. The sizes and order of the stages depend on the data, which the intervals allow:
each comparison's confidence sequence holds at every look at once (time-uniform), so it
holds at whatever look it stops, however that look was chosen (docs/statistics.md).

After every look the study manifest holds the cells' states and the comparisons so far,
marked stopped until the end, so a stop at any moment leaves a folder ``cdsim study
report`` reads (provisional), and ``--resume`` continues: the stages begun keep their sizes
and each comparison keeps the design it started with."""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from cdsim.analysis import anytime_memo, paired
from cdsim.analysis.candidates import CellGames, WinTable, candidates, win_table
from cdsim.batch.folder import RunFolder
from cdsim.study.budget import cell_game_ms
from cdsim.study.clock import Clock, TimeUp
from cdsim.study.games import stage_games
from cdsim.study.manifest import CellState, StageRuns, WhatIf, WhatIfComparison
from cdsim.study.model import Cell, Job, Study
from cdsim.study.play import play
from cdsim.study.store import open_folder, run_folder, write_study_manifest

LOOKS = 12  # a usual stage after the first: 1/12 of the games the sequences are designed for
SHORTEST = 4  # a stage is never shortened (to fit the time, or a near decision) below 1/4 of one
FIT = 0.95  # the share of the time left a round may plan to fill (the looks take the rest)


@dataclass
class Pair:
    """One comparison: a base cell and its variants' cells (one player count, one play),
    its stages so far (games a side; a stage begun is finished at its size) and its cap."""

    base: Cell
    variants: list[Cell]
    sizes: list[int]  # the stages begun, games a side each (the first ``played`` looked at)
    step: int  # games a side of a usual stage after the first (whole deals)
    cap: int | None = None  # games a side at most (--games); None: until decided or out of time
    played: int = 0  # stages finished and looked at
    outcomes: dict[str, paired.Comparison] | None = None
    done: bool = False

    @property
    def cells(self) -> list[Cell]:
        return [self.base, *self.variants]

    @property
    def play(self) -> str:
        return self.base.population.name

    @property
    def deal(self) -> int:
        return self.base.deal

    def games(self) -> int:
        """Games a side looked at."""
        return sum(self.sizes[:self.played])

    def ms(self) -> float:
        """The recorded cost (ms) of one game a side, every side together."""
        return sum(cell_game_ms(c) for c in self.cells)

    def games_left(self) -> int | None:
        """Games a side to its cap (None: no cap; 0 once done)."""
        if self.done:
            return 0
        return None if self.cap is None else max(0, self.cap - self.games())

    def to_decide(self) -> int | None:
        """Games a side the last look says would decide it (the most over its variants
        still undecided: ``games_to_decide``); None before a look that can say."""
        if self.done:
            return 0
        if not self.outcomes:
            return None
        more = [c.games_to_decide() for c in self.outcomes.values() if c.outcome == "undecided"]
        if not more or any(m is None for m in more):
            return None
        return max(m for m in more if m is not None)

    def expected(self) -> int:
        """Games a side it is expected to play still: those to decide it (before a look that
        can say, the rest of the games its sequences are designed for), never past its cap."""
        need = self.to_decide()
        if need is None:
            need = max(self.base.design - self.games(), self.step)
        left = self.games_left()
        return need if left is None else min(need, left)

    def next_size(self) -> int:
        """The next stage's games a side: a stage begun (a resumed folder's) as it is; else
        the first stage, then a usual one, shorter when the last look says fewer games decide
        it (never below a quarter of a usual stage), never past the cap."""
        if self.played < len(self.sizes):
            return self.sizes[self.played]
        if not self.sizes:
            size = self.base.first
        else:
            size = self.step
            need = self.to_decide()
            if need is not None:
                size = min(size, max(_deals(need, self.deal), self.shortest()))
        left = self.games_left()
        return size if left is None else min(size, left)

    def shortest(self) -> int:
        return _deals(self.step // SHORTEST, self.deal)

    def nearness(self, clock: Clock) -> float:
        """Seconds of play (every side) the last look says would decide it, at the measured
        pace; 0 before a look that can say: its first stages are small and tell."""
        need = self.to_decide()
        return 0.0 if need is None else clock.seconds(need, self.ms())


def _deals(games: int, deal: int) -> int:
    """``games`` rounded up to whole deals (at least one)."""
    return max(deal, -(-games // deal) * deal)


def step_of(cell: Cell, cap: int | None) -> int:
    """A usual stage after the first: about 1/12 of the cap (``--games``) when given, else
    of the games its sequences are designed for (whole deals, at least the first stage):
    the intervals hold at every look, so looking often only stops a comparison sooner."""
    basis = cap or cell.design
    return max(cell.first, -(-basis // LOOKS // cell.deal) * cell.deal)


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


def pairs_of(study: Study, root: Path | None = None, cap: int | None = None) -> list[Pair]:
    """The study's comparisons: each base cell with the cells of its variants, the stages
    ``root`` has begun kept as they are, at most ``cap`` games a side (None: none)."""
    out = []
    for cell in study.cells:
        if cell.variant is None:
            mine = [c for c in study.cells if c.variant is not None
                    and (c.players, c.population.name) == (cell.players, cell.population.name)]
            kept = begun(study, [cell, *mine], root) if root is not None else []
            # the cap as the study holds it: in whole deals (the cell's budget)
            out.append(Pair(cell, mine, kept, step_of(cell, cap),
                            None if cap is None else cell.games))
    return out


def games_done(study: Study, root: Path, pairs: Sequence[Pair]) -> tuple[int, float]:
    """Games the folder holds in finished chunks (every side), and their recorded cost (ms):
    progress starts there."""
    games, ms = 0, 0.0
    for pair in pairs:
        for cell in pair.cells:
            done = sum(RunFolder(run_folder(root, j.key)).games_done()
                       for k, size in enumerate(pair.sizes)
                       for j in study.stage_jobs(cell, k, size))
            games += done
            ms += done * cell_game_ms(cell)
    return games, ms


def likely(pairs: Sequence[Pair], clock: Clock) -> tuple[int, float]:
    """What is likely still to play, every side: (games, recorded ms) of the comparisons
    not decided, each to where its last look says it decides (``Pair.expected``); the time
    budget cuts it (``Clock.deadline``, where the progress ETA ends)."""
    games, ms = 0, 0.0
    for pair in pairs:
        if not pair.done:
            more = pair.expected() * len(pair.cells)
            games += more
            ms += pair.expected() * pair.ms()
    return games, ms


OnLook = Callable[[Pair], None]
OnChunk = Callable[[str, int], None]
# before the first round and after each round's looks: the comparisons, and the games the
# folder holds in finished chunks with their recorded cost (``games_done``)
OnRound = Callable[[Sequence[Pair], int, float], None]


@dataclass
class Played:
    """What ``run`` played: the comparisons, the plays begun, those the time left no room
    for (``skipped``: not one of their comparisons began), why it stopped early (None: it
    did not) and its clock (this machine's measured pace)."""

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
    card_margin: float | None = None  # recorded for the card lines (WhatIf.card_margin)
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
        # judged once per stages: a comparison done (or not in this round) is found as it was
        state.decision = anytime_memo.decide(tables, cell.rulebook, settings.tolerance,
                                             settings.alpha, settings.tested, cell.design,
                                             False, settings.zone, settings.name_within_zone)
        return state

    def record(self, pairs: Sequence[Pair], stopped: str | None) -> None:
        """The study manifest as it stands: every cell's state, the comparisons so far and,
        until the end, why it stopped (a stop at any moment leaves "interrupted")."""
        self.write([self.state(cell, pair) for pair in pairs for cell in pair.cells], WhatIf(
            command=" ".join(sys.argv), precision=self.precision, card_margin=self.card_margin,
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
        clock: Clock | None = None, again: str = "", cap: int | None = None,
        on_round: OnRound | None = None, card_margin: float | None = None) -> Played:
    """Play the question into ``root``: round by round, the next stage of every comparison
    not yet decided, nearest to deciding first, in one work queue (``_round``), until each
    is decided, has played ``cap`` games a side (None: no cap) or the ``clock``'s time is
    spent. The study manifest is written after every look (``again``: the command that
    continues it); ``on_round`` is told the comparisons after each round."""
    manifest, study = open_folder(root, study, resume=resume, force=force)
    if again:
        manifest.resume = again
    clock = clock or Clock(None, jobs)
    clock.per_game_ms = {cell.key: cell_game_ms(cell) for cell in study.cells}
    pairs = pairs_of(study, root, cap)
    before = manifest.wall_seconds

    def write(cells: list[CellState], whatif: WhatIf, stopped: str | None) -> None:
        manifest.cells, manifest.whatif = cells, whatif
        manifest.stopped = stopped  # written only while it is set (StudyManifest.record)
        write_study_manifest(root, manifest)

    looks = _Looks(study, root, write, precision, card_margin)
    if resume:  # its cells as recorded until the looks are taken again (their design kept)
        manifest.stopped = "interrupted"
        write_study_manifest(root, manifest)
    else:
        looks.record(pairs, "interrupted")

    def tick(key: str, games: int) -> None:
        if on_chunk is not None:
            on_chunk(key, games)
        clock.chunk(key, games)

    timed_out = False
    if on_round is not None:
        on_round(pairs, *games_done(study, root, pairs))
    try:
        while not timed_out and any(not p.done for p in pairs):
            chosen = _fit(pairs, clock, lambda p: _owed(study, root, p))
            if not chosen:  # no stage fits in the time left
                timed_out = True
                break
            timed_out = _round(looks, chosen, pairs, jobs, backend, tick, clock, on_look)
            if on_round is not None:
                on_round(pairs, *games_done(study, root, pairs))
    except BaseException:  # a stop: its wall time and every finished chunk counted, as the
        manifest.wall_seconds = round(before + clock.elapsed(), 3)  # folder holds them
        manifest.played(*clock.unrecorded())
        write_study_manifest(root, manifest)
        raise
    skipped = [name for name in dict.fromkeys(p.play for p in pairs)
               if not any(p.sizes for p in pairs if p.play == name)]
    stopped = None
    if any(not p.done for p in pairs):
        stopped = f"its time budget of {clock.budget_words()}" + (
            f"; {' and '.join(skipped)} play not begun" if skipped else "")
    clock.finish()  # the pace the answer says is the run's, not its pages'
    manifest.stamp(clock.start, before, clock.load)  # its pages' wall time, machine
    manifest.played(*clock.unrecorded())
    if clock.rate() is not None:
        manifest.rate = clock.rate()
    looks.record(pairs, stopped)
    return Played(pairs, [n for n in dict.fromkeys(p.play for p in pairs) if n not in skipped],
                  skipped, stopped, clock)


def _owed(study: Study, root: Path, pair: Pair) -> float:
    """The share of its next stage's games still to play (a stage a resumed folder began
    may be partly or wholly played)."""
    if pair.played >= len(pair.sizes):
        return 1.0
    size = pair.sizes[pair.played]
    done = sum(RunFolder(run_folder(root, j.key)).games_done() for cell in pair.cells
               for j in study.stage_jobs(cell, pair.played, size))
    return max(0.0, 1 - done / (size * len(pair.cells)))


def _fit(pairs: Sequence[Pair], clock: Clock,
         owed: Callable[[Pair], float] = lambda _: 1.0) -> list[tuple[Pair, int]]:
    """The next round: each comparison not done, nearest to deciding first (the order asked
    among those not yet looked at), with its next stage's games a side; with a time
    budget, only the stages that fit in the time left (at the measured pace; before a
    chunk has finished, at the recorded costs; ``owed``: the share of a stage still to
    play), one shortened to fit when it can be; the
    first stage of the first comparison is played whatever the time, so that there is an
    answer."""
    order = sorted((p for p in pairs if not p.done), key=lambda p: p.nearness(clock))
    left = clock.left()
    room = math.inf if left is None else FIT * left
    chosen: list[tuple[Pair, int]] = []
    if order and clock.games == 0 and not any(p.played for p in pairs):
        # nothing played yet: the nearest's first stage whatever the prior says, so that the
        # pace is measured and there is an answer to give
        first = order.pop(0)
        chosen.append((first, first.next_size()))
        room -= clock.seconds(chosen[0][1], first.ms()) * owed(first)
    for pair in order:
        size = pair.next_size()
        if size <= 0:
            continue
        took = clock.seconds(size, pair.ms()) * owed(pair)
        if took > room:
            if pair.played < len(pair.sizes):  # a stage begun is finished at its size
                continue
            fits = int(room / took * size) // pair.deal * pair.deal
            if fits < min(size, pair.shortest()) or (not pair.sizes and fits < size):
                continue  # a first stage is played whole: it needs its few dozen deals
            size, took = fits, clock.seconds(fits, pair.ms())
        chosen.append((pair, size))
        room -= took
    return chosen


def _round(looks: _Looks, chosen: Sequence[tuple[Pair, int]], pairs: Sequence[Pair],
           jobs: int, backend: str, tick: OnChunk, clock: Clock,
           on_look: OnLook | None) -> bool:
    """One round: the chosen comparisons' next stages in one work queue (in the order
    chosen: nearest first), then a look at each whose stage finished; True when the time
    ran out first (the others keep their last look, their stage's chunks kept). The first
    round of a whatif is finished whatever the time."""
    study, root = looks.study, looks.root
    for pair, size in chosen:
        if pair.played == len(pair.sizes):
            pair.sizes.append(size)
    jobs_of = {id(p): [j for cell in p.cells
                       for j in study.stage_jobs(cell, p.played, p.sizes[p.played])]
               for p, _ in chosen}
    todo: list[Job] = [j for p, _ in chosen for j in jobs_of[id(p)]
                       if not RunFolder(run_folder(root, j.key)).complete()]
    timed_out = False
    # the very first round is played whatever the time (its first stages are small), so that
    # there is an answer and a pace
    first = clock.games == 0 and not any(p.played for p in pairs)
    if todo:
        if clock.expired() and not first:
            return True
        clock.hold = first
        try:
            with clock.playing():
                play(root, todo, jobs, backend, tick)
        except TimeUp:
            timed_out = True
        finally:
            clock.hold = False
    for pair, _ in chosen:
        if timed_out and not all(RunFolder(run_folder(root, j.key)).complete()
                                 for j in jobs_of[id(pair)]):
            continue
        pair.played += 1
        pair.outcomes = looks.look(pair)
        capped = pair.cap is not None and pair.games() >= pair.cap
        pair.done = capped or all(c.outcome != "undecided" for c in pair.outcomes.values())
        if on_look is not None:
            on_look(pair)
    looks.record(pairs, "interrupted")
    return timed_out


__all__ = ["LOOKS", "OnLook", "OnRound", "Pair", "Played", "begun", "games_done", "likely",
           "pairs_of", "run", "step_of"]
