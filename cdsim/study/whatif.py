"""``cdsim whatif``: one change to the component set, answered in one command.

The change (``--set TABLE.ID.KEY=VALUE``, the entry/key vocabulary of a study's sweeps, or
an override file) becomes a study folder: a study file with the base and the change as a
variant, for each player count and each kind of play asked (scripted: the four scripted
players, every N of them in every seat rotation; strong: the learned player in every
seat), and the change's override files beside it. Base and variant play the same deals,
stage by stage (each about twice the one before), and each comparison stops at the first
look that decides whether seat balance moves (``cdsim.analysis.paired``), or at its
budget. The folder is an ordinary study folder: ``cdsim study report`` writes its pages,
whose variants section holds the changed cards' figures.

A list of values (``--set objective.B05.reward.vp=4,6,10``) makes one variant per value.
"""

from __future__ import annotations

import json
import re
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from cdsim.analysis import anytime, paired
from cdsim.analysis.candidates import CellGames, candidates, win_table
from cdsim.batch.folder import RunFolder
from cdsim.errors import CdsimError
from cdsim.rules.overrides import ENTRIES, FILE_KEYS
from cdsim.study import sweeps
from cdsim.study.file import Sweep, Variant
from cdsim.study.games import stage_games
from cdsim.study.manifest import CellState, StageRuns, WhatIf, WhatIfComparison
from cdsim.study.model import Cell, Job, Study, load_study
from cdsim.study.play import play, stamp
from cdsim.study.store import open_folder, run_folder, write_study_manifest

SCRIPTED = ("greedy", "villa", "landscape", "bread")
PLAYS = {"scripted": ("the four scripted players: every N of them, each in all seat "
                      "rotations, on the same deals", list(SCRIPTED)),
         "strong": ("the learned player in every seat", ["learned"])}
# the most games a comparison plays on each side (base, variant) by default: a one-card
# change measured 2026-11-26 at 0.5 pp took 29,000 a side at 2 and 4 players (scripted) and
# more at 3 (its true change near the precision); a learned game costs ~25 scripted ones
BUDGET = {"scripted": 40_000, "strong": 6_000}
MAX_SETS = 16
SET_FORM = re.compile(r"^\s*([A-Za-z_]+(?:\.[^.=\s]+)+)\s*=\s*(-?\d+(?:\s*,\s*-?\d+)*)\s*$")


@dataclass(frozen=True)
class Change:
    """One ``--set``: the entry (``objective.B05``, or a table without ids such as
    ``villa_table``), the key within it (``reward.vp``) and its value(s)."""

    entry: str
    key: str
    values: tuple[int, ...]

    @property
    def spelled(self) -> str:
        return f"{self.entry}.{self.key}={','.join(map(str, self.values))}"


def parse_set(text: str) -> Change:
    """``TABLE.ID.KEY=VALUE[,VALUE...]`` (``objective.B05.reward.vp=6``,
    ``villa_table.points.4=6``); anything else is one line naming the flag."""
    m = SET_FORM.match(text)
    if m is None:
        raise CdsimError(f"--set {text!r}: expected TABLE.ID.KEY=VALUE with whole numbers, "
                         "e.g. objective.B05.reward.vp=6 or objective.B05.reward.vp=4,6,10")
    parts = m.group(1).split(".")
    table = parts[0]
    if table not in FILE_KEYS:
        raise CdsimError(f"--set {text!r}: unknown table {table!r} (known: "
                         f"{', '.join(FILE_KEYS)})")
    head = 2 if table in ENTRIES else 1
    if len(parts) <= head:
        raise CdsimError(f"--set {text!r}: name a key of the entry, e.g. "
                         f"{'.'.join(parts[:head] or [table])}.reward.vp=6")
    values = tuple(int(v) for v in m.group(2).split(","))
    if len(set(values)) != len(values):
        raise CdsimError(f"--set {text!r}: a value is given twice")
    return Change(".".join(parts[:head]), ".".join(parts[head:]), values)


def variants(changes: Sequence[Change], override: Path | None, folder: Path
             ) -> list[Variant | Sweep]:
    """The question's variant as the study file declares it, its override files written
    into ``folder`` (the fixed changes chained as overrides of one another): a
    ``[[variant]]`` of the fixed changes, or a ``[[sweep]]`` of the one change given a list
    (one variant per value, on the fixed changes; its report charts the swept card), each
    described by the changes as asked. Any problem is one line naming the ``--set``."""
    for i, change in enumerate(changes):
        for earlier in changes[:i]:
            if (earlier.entry, earlier.key) == (change.entry, change.key):
                raise CdsimError(f"--set {earlier.spelled} and --set {change.spelled} change "
                                 "the same key: give it once (a list of values, "
                                 f"{change.entry}.{change.key}=6,7, tries each)")
    lists = [c for c in changes if len(c.values) > 1]
    if len(lists) > 1:
        raise CdsimError("--set: only one change may list several values (each value is a "
                         f"variant); got {lists[0].spelled} and {lists[1].spelled}")
    if not changes and override is None:
        raise CdsimError("give a change: --set TABLE.ID.KEY=VALUE (e.g. "
                         "objective.B05.reward.vp=6) or --components OVERRIDE.toml")
    if len(changes) > MAX_SETS:
        raise CdsimError(f"--set: at most {MAX_SETS} changes, got {len(changes)}")
    folder.mkdir(parents=True, exist_ok=True)
    base = str(override.resolve()) if override is not None else None
    fixed = [c for c in changes if len(c.values) == 1]
    asked = [f"--components {override}"] if override is not None else []
    for i, change in enumerate(fixed):
        sweep = _expand(change, base)
        path = folder / f"change-{i + 1}.toml"
        path.write_text(sweep.texts[0])
        base = str(path.resolve())
        asked.append(change.spelled)
    if not lists:
        name = _name(fixed, override)
        assert base is not None
        text, path = Path(base).read_text(), folder / f"{name}.toml"
        if not path.is_file() or path.read_text() != text:
            path.write_text(text)
        return [Variant(name=name, description=", ".join(asked),
                        components=str(path.resolve()))]
    listed = lists[0]
    _expand(listed, base)  # every value checked now: one line naming the --set
    name = safe_name(f"{listed.entry.split('.')[-1]}-{listed.key}")
    text = Path(base).read_text() if base is not None else ""
    under = None
    if text:  # the fixed changes under the swept one
        path = folder / f"{name}-base.toml"
        path.write_text(text)
        under = str(path.resolve())
    # checked as the study file's sweep when whatif.toml is read (a value out of its range
    # is one line naming the file then)
    return [Sweep.model_construct(name=name, description=", ".join([*asked, listed.spelled]),
                                  entry=listed.entry, key=listed.key,
                                  values=list(listed.values), base=under)]


def _expand(change: Change, base: str | None) -> Sweep:
    """The change as a sweep on ``base``, each value checked as an override (not a study
    file's sweep: its values need not fit the file's range)."""
    sweep = Sweep.model_construct(name="whatif", entry=change.entry, key=change.key,
                                  values=list(change.values))
    return sweeps.expand(f"--set {change.spelled}", sweep, base)


def _name(fixed: Sequence[Change], override: Path | None) -> str:
    """The variant's name (its box's title, its cells' keys): every part of the change,
    the override file's and each --set's (F01-vp-3_F02-vp-3), not only the last."""
    parts = [*([override.stem] if override is not None else []),
             *(f"{c.entry.split('.')[-1]}.{c.key}={c.values[0]}" for c in fixed)]
    assert parts
    return safe_name("_".join(parts))


def safe_name(text: str) -> str:
    """A name for a study, a variant and their folders (a study file's names: 1-40
    letters, digits, '-' or '_'): B05.reward.vp=6 -> B05-reward-vp-6."""
    return re.sub(r"-+", "-", re.sub(r"[^A-Za-z0-9_]", "-", text)).strip("-")[:40] or "change"


def study_text(name: str, variant_list: Sequence[Variant | Sweep],
               players: Sequence[int], plays: Sequence[str], seed: int,
               budgets: dict[str, int], chunk_size: int = 2000) -> str:
    """The study file of the question (what ``cdsim study report`` and a resume read)."""
    asked = "; ".join(v.description for v in variant_list)
    lines = [
        "# Written by cdsim whatif: the base and the change on the same deals.",
        f"name = {json.dumps(name)}",
        f"description = {json.dumps('What the change does: ' + asked)}",
        f"seed = {seed}",
        f"players = {json.dumps(list(players))}",
        "radius = 2",
        f"chunk_size = {chunk_size}",
        "",
    ]
    for play_name in plays:
        description, lineup = PLAYS[play_name]
        lines += ["[[population]]", f"name = {json.dumps(play_name)}",
                  f"description = {json.dumps(description)}",
                  f"lineup = {json.dumps(lineup)}", f"games = {budgets[play_name]}", ""]
    for v in variant_list:
        if isinstance(v, Sweep):
            lines += ["[[sweep]]", f"name = {json.dumps(v.name)}",
                      f"description = {json.dumps(v.description)}",
                      f"entry = {json.dumps(v.entry)}", f"key = {json.dumps(v.key)}",
                      f"values = {json.dumps(list(v.values))}"]
            if v.base is not None:
                lines.append(f"base = {json.dumps(v.base)}")
            lines.append("")
            continue
        lines += ["[[variant]]", f"name = {json.dumps(v.name)}",
                  f"description = {json.dumps(v.description)}",
                  f"components = {json.dumps(v.components)}", ""]
    return "\n".join(lines)


# -- playing: stage by stage until each comparison is decided ------------------------------

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


def pairs_of(study: Study) -> list[Pair]:
    """The study's comparisons: each base cell with the cells of its variants."""
    out = []
    for cell in study.cells:
        if cell.variant is None:
            mine = [c for c in study.cells if c.variant is not None
                    and (c.players, c.population.name) == (cell.players, cell.population.name)]
            out.append(Pair(cell, mine, stage_plan(cell)))
    return out


LOOKS = 12  # looks a comparison gets over its budget after the first stage


def stage_plan(cell: Cell) -> tuple[int, ...]:
    """A comparison's stages: the cell's first stage, then equal stages of about 1/12 of
    the budget (whole deals): the intervals hold at every look, so looking often only
    stops a comparison sooner (doubling stages made the last look hold half the budget)."""
    step = max(cell.first, -(-cell.games // LOOKS // cell.deal) * cell.deal)
    sizes = [cell.first]
    while sum(sizes) < cell.games:
        sizes.append(min(step, cell.games - sum(sizes)))
    return tuple(sizes)


OnLook = Callable[[Pair], None]


def run(study: Study, root: Path, jobs: int = -1, backend: str = "loky",
        force: bool = False, precision: float = paired.PRECISION, resume: bool = False,
        on_chunk: Callable[[str, int], None] | None = None,
        on_look: OnLook | None = None) -> list[Pair]:
    """Play the question into ``root``: the next stage of every comparison not yet decided,
    all in one work queue, until each is decided or has played its budget; then the study
    manifest (the cells' stages and verdicts) for ``cdsim study report``."""
    manifest, study = open_folder(root, study, resume=resume, force=force)
    start = time.perf_counter()
    pairs = pairs_of(study)
    read: Read = {}
    stage = 0
    while True:
        active = [p for p in pairs if not p.done and stage < len(p.sizes)]
        if not active:
            break
        todo: list[Job] = []
        for pair in active:
            for cell in pair.cells:
                todo += [j for j in study.stage_jobs(cell, stage, pair.sizes[stage])
                         if not RunFolder(run_folder(root, j.key)).complete()]
        if todo:
            play(root, todo, jobs, backend, on_chunk)
        for pair in active:
            pair.played = stage + 1
            pair.outcomes = _look(study, root, pair, precision, read)
            last = pair.played == len(pair.sizes)
            pair.done = last or all(c.outcome != "undecided" for c in pair.outcomes.values())
            if on_look is not None:
                on_look(pair)
        stage += 1
    manifest["cells"] = [_state(study, root, cell, pair, read).model_dump(mode="json")
                         for pair in pairs for cell in pair.cells]
    manifest["whatif"] = WhatIf(
        command=" ".join(sys.argv), precision=precision,
        comparisons=[WhatIfComparison(players=p.base.players, play=p.base.population.name,
                                      variant=name, outcome=c.outcome, games=c.games,
                                      deals=c.deals,
                                      seats=[(s.change, s.low, s.high) for s in c.seats])
                     for p in pairs for name, c in (p.outcomes or {}).items()]
    ).model_dump(mode="json")
    manifest |= stamp(manifest.get("wall_seconds", 0.0), start)  # its pages' wall time, machine
    write_study_manifest(root, manifest)
    return pairs


Read = dict[tuple[str, int], CellGames]  # a finished stage's games by (cell, stage): read once


def _stages(study: Study, root: Path, cell: Cell, played: int,
            sizes: Sequence[int], read: Read) -> list[CellGames]:
    out = []
    for k in range(played):
        if (cell.key, k) not in read:
            read[(cell.key, k)] = stage_games(
                [run_folder(root, j.key) for j in study.stage_jobs(cell, k, sizes[k])])
        out.append(read[(cell.key, k)])
    return out


def _look(study: Study, root: Path, pair: Pair, precision: float,
          read: Read) -> dict[str, paired.Comparison]:
    rulebook = pair.base.rulebook
    base = _stages(study, root, pair.base, pair.played, pair.sizes, read)
    deal = pair.base.deal
    design = paired.design_deals(pair.base.games, deal)
    out = {}
    for cell in pair.variants:
        assert cell.variant is not None
        mine = _stages(study, root, cell, pair.played, pair.sizes, read)
        per_deal = paired.deal_differences(base, mine, rulebook)
        out[cell.variant.name] = paired.compare(per_deal, design, precision,
                                                games_per_deal=deal)
    return out


def _state(study: Study, root: Path, cell: Cell, pair: Pair, read: Read) -> CellState:
    """A cell as the study manifest holds it: every stage it played, and the verdict of its
    own games on the starting VP (its fair vector), as a study cell would have it there."""
    rulebook = cell.rulebook
    sizes = pair.sizes[:pair.played]
    state = study.state_of(cell, sizes, games=max(1, sum(sizes)))
    vectors = candidates(rulebook, cell.radius)
    for k, size in enumerate(sizes):
        stage = study.stage_jobs(cell, k, size)
        state.stages.append(StageRuns(stage=k, seed=stage[0].config.seed, games=size,
                                      runs=[j.key for j in stage]))
    tables = [win_table(games, vectors) for games in
              _stages(study, root, cell, len(sizes), sizes, read)]
    if tables:
        settings = study.file
        verdict = anytime.decide(tables, rulebook, settings.tolerance, settings.alpha,
                                 settings.tested, design_games=cell.design, predict=False,
                                 zone=settings.zone, naming=settings.name_within_zone)
        state.decision = verdict
    return state


def build(name: str, changes: Sequence[Change], override: Path | None, root: Path,
          players: Sequence[int], plays: Sequence[str], seed: int,
          budgets: dict[str, int]) -> Study:
    """The question's study: its override files and study file written into ``root``
    (``changes/``), then read as any study file is (every problem one line)."""
    folder = root / "changes"
    found = variants(changes, override, folder)
    text = study_text(name, found, players, plays, seed, budgets)
    path = folder / "whatif.toml"
    path.write_text(text)
    return load_study(path)


__all__ = ["BUDGET", "PLAYS", "Change", "Pair", "build", "parse_set",
           "run", "safe_name", "study_text", "variants"]
