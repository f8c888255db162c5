"""Commands about studies: study run, study report, study init."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from cdsim.batch.progress import StudyProgress, page_note
from cdsim.cli.app import (
    DecisionTimeoutOpt,
    app,
    dask_backend,
    out_folder,
    refuse_decision_timeout,
    resume_hint,
    use_decision_timeout,
)
from cdsim.errors import CdsimError

if TYPE_CHECKING:  # the command line imports it when it plays
    from collections.abc import Callable

    from cdsim.batch.progress import Work
    from cdsim.study.clock import Clock

study_app = typer.Typer(
    help="Studies: at each player count a game takes (`cdsim games` lists them), which "
         "starting VP make the seats fair, how sure is that, and does it hold for other "
         "players and design variants?\n\n"
         "A study file names player counts x populations (x component variants); each "
         "combination is a cell, played in stages of fresh deals (ordinary run folders) until "
         "its verdict is decided: confirmed, no whole-VP vector is fair, or undecided when its "
         "game budget is spent; a wrong verdict has a stated chance of at most 5%.\n\n"
         "Start with `cdsim study run default` (the default game at each count it takes x "
         "random, scripted and strong play; about 8 minutes on 2 cores, README), then "
         "`cdsim study report "
         "studies/default`. "
         "`cdsim study init my-study.toml` writes that study file to edit.",
    no_args_is_help=True)
app.add_typer(study_app, name="study")


@study_app.command("run")
def study_run(
    study: Annotated[str, typer.Argument(
        help="Study file (TOML), or the name of a shipped study: default.", show_default=False)],
    out: Annotated[str | None, typer.Option(
        help="Study folder to create (default: studies/NAME, NAME from the study file).")] = None,
    jobs: Annotated[int, typer.Option(help="Worker processes; -1 = every core.")] = -1,
    resume: Annotated[bool, typer.Option(
        help="Continue the study in --out: an interrupted one, or every undecided cell with "
             "a raised budget (nothing played is replayed; decided cells stay).")] = False,
    games: Annotated[int | None, typer.Option(
        help="Raise every cell's budget to at least N games (with --resume: extend the "
             "undecided cells).", show_default=False)] = None,
    force: Annotated[bool, typer.Option(help="Overwrite the study in --out.")] = False,
    minutes: Annotated[float | None, typer.Option(
        help="A time budget: stop at the first chunk boundary after N minutes, judge the "
             "finished stages and say what is decided and what more would take (the "
             "report is then provisional; --resume goes on). Default: the study file's "
             "minutes, else none.", show_default=False)] = None,
    backend: Annotated[str, typer.Option(help="loky (this machine) or dask.")] = "loky",
    scheduler: Annotated[str | None, typer.Option(
        help="Dask scheduler address (with --backend dask); default: a local cluster.")] = None,
    quiet: Annotated[bool, typer.Option(
        "--quiet", "-q", help="No progress (it goes to stderr: a live bar on a terminal, "
        "else a line every few seconds); the verdicts are still printed.")] = False,
    decision_timeout: DecisionTimeoutOpt = None,
) -> None:
    """Play every cell of a study in stages of fresh deals until its starting-VP verdict is
    decided (or its budget, `games`, is spent).

    \b
    Example study file (see also `cdsim study init FILE`):
    \b
    name = "start-vp"
    seed = 1
    games = 200000               # budget per cell (a population or [[cell]] may override)
    players = [2, 3, 4]
    [[population]]
    name = "random"
    lineup = ["random"]          # one name: every seat (random only: the floor)
    [[population]]
    name = "scripted"
    lineup = ["greedy", "villa", "landscape", "bread"]  # every N of them, all rotations
    [[variant]]                  # optional: A/B variants, paired with the base
    name = "B05-at-6"
    components = "variants/b05"  # a component folder, as --components takes
    [[sweep]]                    # optional: one value over a list, each value a variant
    name = "B05-reward"
    entry = "objective.B05"      # table.id of a component entry
    key = "reward.vp"            # a dotted key inside it, holding an integer
    values = [6, 7, 8, 9]        # the report: each seat's fair offset against the value
    \b
    Optional keys: games (default: each cell's worst case, the games that decide it whatever
    its truth), first_stage (games/64), minutes (a time budget, as --minutes), chunk_size,
    start_vp = {4 = [8, 9, 10, 11]}, radius (6), tolerance (0.02), zone (0.005: fair is
    shown below tolerance + zone, unfair above tolerance - zone, so every cell ends),
    name_within_zone (false: true plays a confirmed cell on until the vector it names is
    shown within the zone of the most equal one; dear for near-tied vectors), alpha (0.05),
    tested (3), strategy_params, components, description; per population: games,
    first_stage, lineups = [[...], ...] or pool (instead of lineup), rotate_seats, floor,
    strategy_params, chunk_size (a few games for a slow player, so that a stage spreads over
    the workers); [[cell]] players, population, games, first_stage: one cell's own budget;
    per sweep: description, base (what each value changes; default: the study's components).
    Adding a value to a sweep and --resume plays only the new value's cells.
    \b
    Example: cdsim study run my-study.toml --out studies/mine
             cdsim study report studies/mine     (then open studies/mine/study.html)

    All cells' chunks share one work queue; Ctrl-C keeps every finished chunk and --resume
    continues; --minutes N stops at the first chunk after N minutes; `cdsim study report`
    reads a stopped study (provisional); the rows are identical for any --jobs. A bad study
    file is one error line, before any game is played."""
    from cdsim.games import game_spec
    from cdsim.study import play
    from cdsim.study.budget import plan_lines
    from cdsim.study.clock import Clock, check_minutes
    from cdsim.study.file import resolve
    from cdsim.study.model import load_study
    from cdsim.study.store import STUDY, STUDY_MANIFEST

    if backend not in ("loky", "dask"):
        raise CdsimError(f"--backend must be loky or dask, got {backend!r}")
    from cdsim.batch.config import MAX_GAMES, check_jobs
    from cdsim.batch.folder import RunFolder, check_out

    check_jobs(jobs)
    check_minutes(minutes, "--minutes")
    use_decision_timeout(decision_timeout)  # every cell's runs record it
    if resume:  # its players as it played them (its profiles file: cdsim.games.carpe_diem.players.played)
        _study_players(resolve(study), out)
    spec = load_study(resolve(study))
    refuse_decision_timeout(game_spec(spec.file.game))
    play.check_players(spec)  # every cell's players, before a folder or a lock is made
    root = out_folder(out) or Path("studies") / spec.file.name
    again = f"cdsim study run {study} --out {root} --resume"
    resume_hint(root, STUDY_MANIFEST, again)
    if resume and not check_out(root).is_dir():
        raise CdsimError(f"{root}: no study to resume (no {STUDY_MANIFEST}); drop --resume "
                         "to start one")
    if games is not None and not 1 <= games <= MAX_GAMES:
        raise CdsimError(f"--games must be between 1 and {MAX_GAMES:,}, got {games}")
    if out is None and not (resume or force) and root.exists() and any(root.iterdir()):
        # the user did not name this folder: never suggest overwriting it
        raise CdsimError(f"{root} already holds a study: continue it with --resume, or name "
                         "another folder with --out")
    # 0, given or in the file: no time budget
    clock = Clock((minutes if minutes is not None else spec.file.minutes) or None, jobs)
    with dask_backend(backend, scheduler), RunFolder(root, STUDY).lock(), \
            StudyProgress(spec.file.name, quiet=quiet) as progress:
        progress.deadline = clock.deadline()  # the ETA counts to the time budget at most

        def tick(key: str, games: int) -> None:
            progress.chunk(key, games)
            clock.chunk(key, games)  # past the time budget: play stops here

        # a stop: app.main names the folder and the --resume command (resume_hint above)
        play.run(spec, root, jobs, backend, resume, force, tick,
                 _planned(spec.file.name, progress, clock), games,
                 lambda study, before: print("\n".join(plan_lines(study, before, jobs)),
                                             flush=True), clock, again)
    _said(spec.file.name, root, clock, again)


PACE_SECONDS = 2.0  # play and looks measured before a study says how long it takes here


def _planned(name: str, progress: StudyProgress,
             clock: Clock) -> Callable[[int, int, Work], None]:
    """Each round's plan to the progress bar (decided cells at their games, the others at
    their budget; the time budget cuts the ETA), and once a round has measured this
    machine's pace, one line saying how long the rest takes here at most."""
    said = [False]

    def planned(total: int, done: int, work: Work) -> None:
        progress.plan_work(total, done, work)
        if (said[0] or total <= done or not clock.measured()
                or clock.spent() < PACE_SECONDS):
            return
        said[0] = True
        print(pace_line(f"study {name}", clock, max(0, total - done),
                        max(0.0, work.total_ms - work.done_ms)), flush=True)
    return planned


def pace_line(label: str, clock: Clock, games: int, ms: float) -> str:
    """``LABEL: measured here: N games in T of play (2 cores, load average 1.3); the N games
    left at most take T here: about T' in all`` (or that the time budget ends it first)."""
    return f"{label}: " + clock.ahead(
        ms, f"the {games:,} games left at most (most cells end sooner) take at most "
        "{time} here", "at most")


def _said(name: str, root: Path, clock: Clock, again: str) -> None:
    """What a study run prints at its end: its games, wall time and play time (its
    manifest's, as its pages say them), each cell's verdict (or that it is still playing,
    with the games left), what more would take at this machine's measured pace, and the
    machine with its load when play began and ended (as its pages say it)."""
    from cdsim.batch.cost import game_ms
    from cdsim.study.machine import machine_words, run_words
    from cdsim.study.store import study_manifest_of

    manifest = study_manifest_of(root)
    cells = manifest.cells
    m = manifest
    print(f"study {name}: {len(cells)} cells in {root} ("
          f"{run_words(m.games_played, m.wall_seconds, m.play_seconds)}); next: cdsim study "
          f"report {root}")
    for cell in cells:
        verdict = cell.decision
        ms = game_ms(cell.lineups, cell.pool, cell.players, cell.game)
        if verdict is None:
            left = max(0, cell.games - sum(s.games for s in cell.stages[:-1]))
            said = (("stopped: a --resume plays" if manifest.stopped else "still playing:")
                    + f" at most {left:,} more games to its budget, "
                    f"{clock.games_time(left, ms)}")
        else:
            said = verdict.explain + (
                f" {verdict.games_needed:,} more games take "
                f"{clock.games_time(verdict.games_needed, ms)}." if verdict.games_needed else "")
        print(f"  {cell.key}{' (floor)' if cell.floor else ''}: {said}")
    if manifest.stopped:
        print(f"play stopped ({manifest.stopped}): the report is provisional; times at "
              f"{clock.basis()}; continue with {again}")
    elif any(c.decision and c.decision.games_needed for c in cells):
        print(f"(times at {clock.basis()})")
    print(f"study {name}: played on {machine_words(m.machine)}")  # as its pages say


@study_app.command("report")
def study_report(
    folder: Annotated[Path, typer.Argument(help="Study folder made by `cdsim study run`.",
                                           show_default=False)],
    out: Annotated[str | None, typer.Option(
        help="Folder for study.html, study.md, study.json and charts/ (default: the study "
             "folder).")] = None,
    quiet: Annotated[bool, typer.Option(
        "--quiet", "-q", help="No progress lines on stderr (which page or chart it is "
        "writing).")] = False,
) -> None:
    """Report a study, the answer first: per player count the rulebook's starting VP -> the
    decided vector, its largest seat gap with a 95% interval, the verdict and the games
    played; then each population's seat win shares, the stages, variants against their base
    (paired, same deals) and the method. Writes study.html (self-contained), study.md and
    study.json. The tolerance and error rate are the study file's: the verdicts were
    decided with them while playing.

    Example: cdsim study report studies/default (then open studies/default/study.html)."""
    from cdsim.study.whatif_answer import answers
    from reports.study import analyse, write
    from reports.study.sweep import card_sentence

    note = page_note("study report", quiet)
    result = analyse(folder, note)
    page = write(folder, out_folder(out), result=result, note=note)
    print(f"wrote {page} (self-contained), {page.with_suffix('.md')}, "
          f"{page.with_suffix('.json')} and {page.parent / 'charts'}/")
    data = json.loads(page.with_suffix(".json").read_text())
    if result.manifest.whatif is not None:  # a whatif's answer is its change's, as it printed
        print(f"whatif: {result.manifest.description.removeprefix('What the change does: ')}")
        said = answers(result)
        for a in said:
            several = sum((b.players, b.play) == (a.players, a.play) for b in said) > 1
            print(f"  {a.players}p {a.play}" + (f" [{a.variant}]" if several else "")
                  + f": {a.head}")
            for line in a.cards:
                print(f"      {line}")
        for group in result.sweeps:  # where a swept card is neutral, as whatif printed it
            neutral = card_sentence(group)
            if neutral is not None:
                print(f"  {neutral.replace('**', '')}")
    else:
        for line in data["headlines"].values():
            print(line)
    if "provisional" in data:
        print(f"provisional: {data['provisional']}")


@study_app.command("init")
def study_init(
    path: Annotated[Path, typer.Argument(help="Study file to write (e.g. my-study.toml).",
                                         show_default=False)],
    template: Annotated[str, typer.Option(
        help="default: the shipped default study (about 8 minutes); card: one changed card "
             "against the shipped set, scripted play at 2 and 4 players (its variant's "
             "override file, variants/b05-at-6.toml, is written beside FILE; about a minute); "
             "sweep: one card's value over a list (about a minute); castles-change: one "
             "component of The Castles of Tuscany changed (its JSON override, "
             "variants/castle-bonus-6.json, is written beside FILE; about a minute); a "
             "game's name (castles, ...): that game's shipped study.")] = "default",
) -> None:
    """Write a study file, commented, to edit into your own (the study is named after the
    file): the default study, a one-card test, a one-key sweep, a one-component test of The
    Castles of Tuscany or another game's shipped study (--template).

    Example: cdsim study init my-study.toml --template card && cdsim study run my-study.toml
             cdsim study init my-castles.toml --template castles"""
    from cdsim.study.file import write_template

    write_template(path, template)
    print(f"wrote {path}; edit it, then: cdsim study run {path}")


def _study_players(path: Path, out: str | None) -> None:
    """Before a study file is read to resume a study: read its folder's manifest, which
    plays the profiles file the study was played with when it kept its own."""
    from cdsim.errors import read_toml
    from cdsim.study.store import STUDY_MANIFEST, study_manifest_of

    root = out_folder(out)
    if root is None:
        name = read_toml(path).get("name")
        root = Path("studies") / name if isinstance(name, str) and name else None
    if root is not None and (root / STUDY_MANIFEST).is_file():
        study_manifest_of(root)
