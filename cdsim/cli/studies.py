"""Commands about studies: study run, study report, study init."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from cdsim.cli.app import (
    app,
    dask_backend,
    resume_hint,
)
from cdsim.cli.progress import StudyProgress
from cdsim.errors import CdsimError

if TYPE_CHECKING:
    pass


study_app = typer.Typer(
    help="Studies: is the starting-VP verdict robust across player counts, player populations "
         "(weak, scripted, strong) and design variants?\n\n"
         "A study file names player counts x populations (x component variants); each "
         "combination is a cell, played as an ordinary run folder, fitted (the most equal "
         "starting VP), its recommendation confirmed on fresh seeds, and reported together.\n\n"
         "Start with `cdsim study run default` (2, 3 and 4 players x random and scripted "
         "players; a few minutes on 2 cores), then `cdsim study report studies/default`. "
         "`cdsim study init my-study.toml` writes that study file to edit.",
    no_args_is_help=True)
app.add_typer(study_app, name="study")


@study_app.command("run")
def study_run(
    study: Annotated[str, typer.Argument(
        help="Study file (TOML), or the name of a shipped study: default.", show_default=False)],
    out: Annotated[Path | None, typer.Option(
        help="Study folder to create (default: studies/NAME, NAME from the study file).")] = None,
    jobs: Annotated[int, typer.Option(help="Worker processes; -1 = every core.")] = -1,
    resume: Annotated[bool, typer.Option(
        help="Continue an interrupted study in --out (nothing finished is replayed).")] = False,
    force: Annotated[bool, typer.Option(help="Overwrite the study in --out.")] = False,
    backend: Annotated[str, typer.Option(help="loky (this machine) or dask.")] = "loky",
    scheduler: Annotated[str | None, typer.Option(
        help="Dask scheduler address (with --backend dask); default: a local cluster.")] = None,
) -> None:
    """Play every cell of a study: fitting games, then each recommended vector on fresh seeds.

    \b
    Example study file (see also `cdsim study init FILE`):
    \b
    name = "start-vp"
    seed = 1
    games = 4000                 # per cell (a population or [[cell]] may override)
    players = [2, 3, 4]
    [[population]]
    name = "random"
    lineup = ["random"]          # one name: every seat
    [[population]]
    name = "scripted"
    lineup = ["greedy", "villa", "landscape", "bread"]  # seats take the first N
    rotate_seats = true          # each deal in all seat rotations
    [[variant]]                  # optional: A/B variants, paired with the base
    name = "B05-at-6"
    components = "variants/b05"  # a component folder, as --components takes
    \b
    Optional keys: confirm_games, confirm_seed, chunk_size, start_vp = {4 = [8, 9, 10, 11]},
    radius (6), tolerance (0.02), resamples (200), strategy_params, components, description;
    per population: games, confirm_games, pool (instead of lineup), strategy_params;
    [[cell]] players, population, games: one cell's own count.
    \b
    Example: cdsim study run my-study.toml --out studies/mine
             cdsim study report studies/mine     (then open studies/mine/study.html)

    All cells' chunks share one work queue; Ctrl-C keeps every finished chunk and --resume
    continues; the rows are identical for any --jobs. A bad study file is one error line,
    before any game is played."""
    from cdsim import study as st
    from reports.study import Fitter

    if backend not in ("loky", "dask"):
        raise CdsimError(f"--backend must be loky or dask, got {backend!r}")
    from cdsim.runner import check_jobs, check_out, folder_lock

    check_jobs(jobs)
    spec = st.load_study(st.resolve(study))
    root = out or Path("studies") / spec.name
    resume_hint(root, st.STUDY_MANIFEST, f"cdsim study run {study} --out {root} --resume")
    if resume and not check_out(root).is_dir():
        raise CdsimError(f"{root}: no study to resume (no {st.STUDY_MANIFEST}); drop --resume "
                         "to start one")
    start = time.perf_counter()
    with dask_backend(backend, scheduler), folder_lock(check_out(root), "study"), \
            StudyProgress(spec.name) as progress:
        try:
            manifest = st.run(spec, root, Fitter(), jobs, backend, resume, force,
                              progress.chunk, progress.plan)
        except KeyboardInterrupt:
            progress.close()
            print(f"cdsim: interrupted; finished chunks are saved in {root}: continue with "
                  f"cdsim study run {study} --out {root} --resume", file=sys.stderr)
            sys.exit(130)
    wall = time.perf_counter() - start
    cells = manifest["cells"]
    print(f"study {spec.name}: {len(cells)} cells in {root} ({progress.played} games played now "
          f"in {wall:.1f} s); next: cdsim study report {root}")


@study_app.command("report")
def study_report(
    folder: Annotated[Path, typer.Argument(help="Study folder made by `cdsim study run`.",
                                           show_default=False)],
    out: Annotated[Path | None, typer.Option(
        help="Folder for study.html, study.md, study.json and charts/ (default: the study "
             "folder).")] = None,
    tolerance: Annotated[float | None, typer.Option(
        help="Largest seat win-share gap that counts as fair (default: the study file's, "
             "0.02 = 2 points).")] = None,
    resamples: Annotated[int | None, typer.Option(
        help="Bootstrap resamples of whole deals (default: the study file's, 200).")] = None,
) -> None:
    """Report a study: per player count each population's seat win shares with 95% intervals,
    its recommended starting VP and how stable that is (bootstrap over deals), the
    confirmation on fresh seeds, variants against the base (paired), one headline per player
    count, charts. Writes study.html (self-contained), study.md and study.json.

    Example: cdsim study report studies/default (then open studies/default/study.html)."""
    from reports.study import write

    page = write(folder, out, tolerance, resamples)
    print(f"wrote {page} (self-contained), {page.with_suffix('.md')}, "
          f"{page.with_suffix('.json')} and {page.parent / 'charts'}/")
    data = json.loads(page.with_suffix(".json").read_text())
    for line in data["headlines"].values():
        print(line)


@study_app.command("init")
def study_init(
    path: Annotated[Path, typer.Argument(help="Study file to write (e.g. my-study.toml).",
                                         show_default=False)],
) -> None:
    """Write the shipped default study file, commented, to edit into your own.

    Example: cdsim study init my-study.toml && cdsim study run my-study.toml"""
    from cdsim.study import write_template

    write_template(path)
    print(f"wrote {path}; edit it, then: cdsim study run {path}")
