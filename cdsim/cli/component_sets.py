"""Commands about component sets: components check, show, export, diff."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from cdsim.cli.app import (
    ComponentsOpt,
    GameOpt,
    app,
)
from cdsim.errors import CdsimError

if TYPE_CHECKING:
    from cdsim.games import GameSpec

components_app = typer.Typer(help="Validate, inspect, export and compare component sets.",
                             no_args_is_help=True)
app.add_typer(components_app, name="components")

SET_HELP = ('"default" (the shipped set), a component folder, a single component file or an '
            "override file (base = ... and only what changes).")


@components_app.command("check")
def components_check(
    path: Annotated[Path, typer.Argument(help=f"The set to check: {SET_HELP}")],
    game: GameOpt = None,
) -> None:
    """Validate a component set; prints what it holds and what it changes from its base
    (the default set, or an override's base), or one line naming the problem.

    Example: cdsim components check my-set/
             cdsim components check --game castles my-castles.json"""
    from cdsim.games import game_spec

    spec = game_spec(game)
    if spec.component_files is None:
        _other_game(spec, path, "check")
        return
    _game_of(spec, path)
    for line in spec.component_files.check(str(path)):
        print(line)
    _box_line(game, path)


@components_app.command("show")
def components_show(
    html_file: Annotated[Path, typer.Option(
        "--html", help="The page to write (one self-contained HTML file).", show_default=False)],
    components: ComponentsOpt = None,
    game: GameOpt = None,
) -> None:
    """Draw a component set on one HTML page: every tile type with its count, the district
    boards, the frame parts with their goals, the objective and fountain cards, each with
    its provenance, to check a transcription piece by piece. The entries the set changes
    from its base (an override's base, else the default set) are marked, with their old
    values. With --game castles: The Castles of Tuscany's set (its tables, the territory
    pieces drawn, each entry as printed in the rulebook or reconstructed).

    Example: cdsim components show --components my-set/ --html my-set.html
             cdsim components show --game castles --html castles.html"""
    from cdsim.games import game_spec
    from cdsim.view.pages import components_page, write_page

    spec = game_spec(game)
    if spec.component_files is None:
        _other_game(spec, components, "show", html_file)
        return
    sheet = spec.drawn("--html").sheet_page  # its sheet's own files, in its package
    if sheet is None:
        raise CdsimError(f"--html: cdsim draws no components sheet of {spec.name} yet")
    _game_of(spec, components)
    source = str(components) if components else spec.builtin_set_name
    data, held = spec.component_files.sheet(None if components is None else str(components),
                                            source)
    write_page(html_file, components_page(sheet, data, f"{spec.title} components: {source}"))
    print(f"wrote {html_file}: {held}")


def _box_line(game: str | None, path: Path | None) -> None:
    """How many of the set's entries are the box's, in one line (a game whose entries are
    tagged)."""
    from cdsim.games import game_spec
    from cdsim.study.transcribe import box_count

    count = box_count(game_spec(game), None if path is None else str(path))
    if count is not None:
        print(count.line())


@components_app.command("transcribe")
def components_transcribe(
    components: ComponentsOpt = None,
    game: GameOpt = None,
    ranking: Annotated[Path | None, typer.Option(
        help="The folder of a `cdsim components sensitivity` run whose ranking orders the "
             "list [default: studies/sensitivity, when it holds one].",
        show_default=False)] = None,
    out: Annotated[Path | None, typer.Option(
        help="Write the checklist to this Markdown file instead of printing it.",
        show_default=False)] = None,
) -> None:
    """The path to the real box: a checklist of the set's reconstructed entries, the most
    influential first (the families `cdsim components sensitivity` ranked highest; where no
    ranking has been run, it says so and follows the game's families, then its tables),
    each with what to read off the box, its values now and where it goes in an override
    file. `cdsim components check` then counts the entries tagged as the box's.

    Example: cdsim components transcribe --out to-transcribe.md
             cdsim components transcribe --game castles"""
    from cdsim.batch.folder import atomic_write
    from cdsim.games import game_spec
    from cdsim.study.transcribe import RANKING_FOLDER, checklist
    from reports.transcribe import checklist_text

    spec = game_spec(game)
    if ranking is not None and not ranking.is_dir():
        raise CdsimError(f"--ranking {ranking}: no such folder (a `cdsim components "
                         "sensitivity` run's)")
    found = checklist(spec, None if components is None else str(components),
                      ranking if ranking is not None else RANKING_FOLDER)
    text = checklist_text(found)
    if out is None:
        print(text, end="")
        return
    try:
        atomic_write(out, lambda tmp: tmp.write_text(text, encoding="utf-8"))
    except OSError as exc:
        raise CdsimError(f"--out {out}: cannot write it ({exc.strerror or exc})") from None
    todo = sum(len(g.entries) for g in found.groups)
    print(f"wrote {out}: {todo} reconstructed entries to transcribe, "
          + ("most influential first" if found.ranking else "in the families' order "
             "(no sensitivity ranking has been run)") + f"; {found.count.line()}")


def _game_of(spec: GameSpec, path: Path | None) -> None:
    """The game's set at ``path`` loads, or one line (another game's set names that game's
    --game)."""
    spec.load_components(None if path is None else str(path))


def _entries(value: object) -> list[dict[str, object]]:
    """The tagged entries of a set's top-level value: a list's, a table of named lists' or
    named entries' (each entry a JSON object), a lone entry; none for a plain value."""
    if isinstance(value, list):
        return [e for e in value if isinstance(e, dict)]
    if isinstance(value, dict):
        if "source" in value:
            return [value]
        return [e for v in value.values() for e in _entries(v)]
    return []


def _other_game(spec: GameSpec, path: Path | None, command: str, page: Path | None = None
                ) -> None:
    """``components check`` / ``show`` of a game whose set is JSON tables (no
    ``component_files``: its ``set_keys``' text)."""
    import json

    if spec.set_keys is None:  # the JSON-table games' set as text: their --set hook's
        raise CdsimError(f"--game {spec.name}: its component set is not JSON tables to check")
    source = str(path) if path else f"the built-in {spec.name} set"
    digest, default = spec.components_digest(str(path) if path else None)
    data = json.loads(spec.set_keys.text(str(path) if path else None))
    builtin = json.loads(spec.set_keys.text(None))
    changed = [k for k in data if builtin.get(k) != data[k]]
    tagged = [e for v in data.values() for e in _entries(v)]
    rebuilt = sum(1 for e in tagged if e.get("source") == "reconstructed")
    held = (f"{len(data)} tables, {len(tagged)} entries ({rebuilt} reconstructed); set "
            f"{digest[:12]}" + (" (the built-in set)" if default else ""))
    if command == "check":
        print(f"ok: {held}")
        if changed:
            print(f"changes from the built-in set: {', '.join(changed)}")
        _box_line(spec.name, path)
        return
    from cdsim.view.pages import write_page

    assert page is not None
    sheet = spec.drawn("--html").components_page
    if sheet is None:
        raise CdsimError(f"--game {spec.name}: no components page for this game yet")
    write_page(page, sheet(data, builtin, source, digest))
    print(f"wrote {page}: {held}" + (f"; {len(changed)} changed tables marked"
                                     if changed else ""))


@components_app.command("export")
def components_export(
    folder: Annotated[Path, typer.Argument(help="The folder to write the five files into "
                                           "(another game's: its one JSON file).")],
    components: ComponentsOpt = None,
    force: Annotated[bool, typer.Option(
        "--force", help="Write into a folder that is not empty (the five files are replaced, "
        "nothing else is touched).")] = False,
    game: GameOpt = None,
) -> None:
    """Write a component set as a folder of its five TOML files, to edit: the shipped set
    (with its comments), or with --components an override merged onto its base. The
    folder loads as the same set (the same digest). With --game castles: The Castles of
    Tuscany's set as one JSON file of every table (FOLDER/castles.json), which loads as
    the same set.

    Example: cdsim components export my-set/ && cdsim components check my-set/
             cdsim components export --game castles my-castles/"""
    from cdsim.games import game_spec

    spec = game_spec(game)
    if spec.component_files is not None:
        texts, digest = spec.component_files.export(None if components is None
                                                    else str(components))
    else:
        digest = _whole_set(spec, components, texts := {})
    if folder.exists() and not folder.is_dir():
        raise CdsimError(f"{folder}: not a folder")
    if folder.is_dir() and any(folder.iterdir()) and not force:
        raise CdsimError(f"{folder}: not empty; give --force to write the component files "
                         "into it")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for name, text in texts.items():
            (folder / name).write_bytes(text)
    except OSError as exc:
        raise CdsimError(f"{folder}: cannot write: {exc.strerror or exc}") from None
    # a set of files loads from its folder, a JSON set from its file; --game as it was given
    where = folder if spec.component_files is not None else folder / next(iter(texts))
    given = ("" if game is None else f"--game {spec.name} ") + f"--components {where}"
    print(f"wrote {', '.join(texts)} to {folder} (set {digest[:12]}); edit "
          f"{'them' if len(texts) > 1 else 'it'} and pass {given}")


def _whole_set(spec: GameSpec, components: Path | None, texts: dict[str, bytes]) -> str:
    """Another game's set at ``components`` (None: its built-in set) as one JSON file of
    every table, put in ``texts`` by its file name; its digest."""
    import json

    if spec.set_keys is None:
        raise CdsimError(f"--game {spec.name}: its component set cannot be exported")
    path = None if components is None else str(components)
    digest, _ = spec.components_digest(path)
    texts[f"{spec.name}.json"] = (json.dumps(json.loads(spec.set_keys.text(path)), indent=1)
                                  + "\n").encode()
    return digest


@components_app.command("diff")
def components_diff(
    old: Annotated[str, typer.Argument(help=f"The set to compare from: {SET_HELP}")],
    new: Annotated[str, typer.Argument(help="The set to compare to (the same kinds).")],
    game: GameOpt = None,
) -> None:
    """List what changes from one component set to another: each entry's changed keys,
    old -> new (or an entry added or removed); "no differences" when the sets are the same.
    With --game castles or mediterranean: their JSON sets ("default": the built-in one).

    Example: cdsim components diff default variants/b05.toml
             cdsim components diff --game castles default my-castles.json"""
    from cdsim.games import game_spec

    spec = game_spec(game)
    if spec.component_files is not None:
        try:
            lines = spec.component_files.diff(old, new)
        except CdsimError:  # another game's set, or a JSON one: its loader's line says so
            for path in (old, new):
                spec.load_components(path)
            raise
    elif spec.diff is not None:  # a JSON set: each path loads first (one line naming it)
        spec.load_components(old)
        spec.load_components(new)
        lines = [line for _, line in spec.diff(old, new)] or ["no differences"]
    else:
        raise CdsimError(f"--game {spec.name}: {spec.title}'s component sets have no diff")
    for line in lines:
        print(line)


@components_app.command("sensitivity")
def components_sensitivity(
    minutes: Annotated[float, typer.Option(
        help="The time to take: the budget is sized from the recorded cost per game to fit "
             "it, and no stage begins that this run's own pace says would end after it.")] = 10,
    players: Annotated[str | None, typer.Option(
        help="Player counts, comma-separated [default: 2,3,4].", show_default=False)] = None,
    games: Annotated[int | None, typer.Option(
        help="Games of each side per player count instead of the minutes' budget.",
        show_default=False)] = None,
    families: Annotated[str | None, typer.Option(
        help="Only these families, comma-separated (names as in docs/components.md) "
             "[default: all].", show_default=False)] = None,
    seed: Annotated[int | None, typer.Option(
        help="The deals' seed [default: 1].", show_default=False)] = None,
    out: Annotated[str, typer.Option(help="The study folder it writes.")] = "studies/sensitivity",
    force: Annotated[bool, typer.Option("--force", help="Overwrite that study.")] = False,
    resume: Annotated[bool, typer.Option(
        "--resume", help="Go on with a stopped run in that folder: its plan as recorded, its "
        "finished games kept.")] = False,
    jobs: Annotated[int, typer.Option(help="Worker processes; -1 = every core.")] = -1,
    quiet: Annotated[bool, typer.Option("--quiet", help="No progress on stderr.")] = False,
    game: GameOpt = None,
) -> None:
    """Which reconstructed entries matter for the starting-VP answer (the default game's
    families of entries; another game's --game is refused until it has some)? Each family of
    reconstructed entries (the fountain cards' VP, the frame goals' VP, the tile mix, ...)
    changed by one step is played beside the shipped set on the same deals by the scripted
    players, and the families are ranked by how far they move each seat's fair offset and
    whether they move the most equal vector: the ones to transcribe first
    (docs/components.md). Writes sensitivity.md and sensitivity.json into the folder, which
    is a study folder (cdsim study report writes its pages).

    Example: cdsim components sensitivity --minutes 10 --jobs 2
             cdsim components sensitivity --families fountain-card-vp,chimneys --players 4"""
    import shlex
    import sys
    import time

    from cdsim.batch import cost
    from cdsim.batch.config import check_jobs
    from cdsim.batch.folder import RunFolder, check_out
    from cdsim.batch.progress import StudyProgress
    from cdsim.cli.app import dask_backend, named_path, resume_hint
    from cdsim.cli.whatif import _ints
    from cdsim.games import game_spec
    from cdsim.study import sensitivity as sens
    from cdsim.study.model import load_study
    from cdsim.study.play import check_players
    from cdsim.study.store import STUDY, STUDY_MANIFEST
    from reports import sensitivity as words

    if not (asked := game_spec(game)).default:  # the study plays the default game's families
        raise CdsimError(f"--game {asked.name}: {asked.title} has no families of component "
                         f"entries to perturb (components sensitivity ranks "
                         f"{game_spec(None).title}'s)")
    check_jobs(jobs)
    if not 0.5 <= minutes <= 24 * 60:
        raise CdsimError(f"--minutes must be between 0.5 and 1440, got {minutes:g}")
    least = sens.UNIT * sens.DEALS * sens.MIN_DEALS
    if games is not None and not least <= games <= 10_000_000:
        raise CdsimError(f"--games must be between {least} (the fewest deals its "
                         f"{sens.STAGES} stages may hold) and 10,000,000, got {games}")
    if seed is not None and not 0 <= seed < 2**62:
        raise CdsimError(f"--seed must be between 0 and 2**62 - 1, got {seed}")
    spec = game_spec(None)  # the families are the default game's (GameSpec.families)
    counts = (_ints(players, "--players", spec.player_counts) if players is not None
              else list(spec.player_counts))
    chosen = ([sens.family_named(n.strip()) for n in families.split(",") if n.strip()]
              if families is not None else None)
    if chosen is not None and not chosen:
        raise CdsimError("--families: name at least one family")
    root = check_out(named_path(out))
    if root.exists() and not root.is_dir():
        raise CdsimError(f"--out {root}: a file is in the way: name another folder")
    made = (root / STUDY_MANIFEST).is_file() and sens.study_path(root).is_file()
    if resume and force:
        raise CdsimError("--resume keeps the folder's games and --force throws them away: "
                         "give one of them")
    if resume:
        given = [f for f, v in (("--players", players), ("--games", games),
                                ("--families", families), ("--seed", seed)) if v is not None]
        if given:
            raise CdsimError(f"--resume plays the plan the folder recorded: drop {given[0]}")
        if not made:
            raise CdsimError(f"{root}: no sensitivity study to resume (no {STUDY_MANIFEST} "
                             "and families/); drop --resume")
    elif root.is_dir() and any(root.iterdir()):
        if not made:
            raise CdsimError(f"--out {root}: the folder holds something that is not a "
                             "sensitivity study: name another folder")
        if not force:
            raise CdsimError(f"{root} already holds a sensitivity study: --resume to go on with "
                             "it, --force to start it again, or name another folder with --out")
    sides = 1 + (len(chosen) if chosen is not None else len(sens.families()))
    budget = games or sens.planned_games(counts, sides, minutes, jobs)
    # the plan is the folder's: a resume names only the folder, the workers and the time
    again = shlex.join(["cdsim", "components", "sensitivity", "--out", str(root), "--resume",
                        *(["--jobs", str(jobs)] if jobs != -1 else []),
                        *(["--minutes", f"{minutes:g}"] if minutes != 10 else [])])
    resume_hint(root, STUDY_MANIFEST, again)
    if resume:
        study = load_study(sens.study_path(root))
    else:
        study = sens.build(root, counts, 1 if seed is None else seed, budget, chosen)
    check_players(study)
    counts = sorted({c.players for c in study.cells})
    per = {c.players: c.games for c in study.cells if c.variant is None}
    total = sum(c.games for c in study.cells)
    plan = sens.plan_seconds(counts, len(study.variants) + 1, max(per.values()), jobs)
    done = sum(sens.stage_size(c, k) for c in study.cells for k in range(sens.STAGES)
               if sens.stage_finished(study, root, c, k))
    left = (f"{total:,} games in all ({done:,} played before), about "
            f"{cost.duration(plan * (total - done) / total)} more" if done else
            f"{total:,} games in all, about {cost.duration(plan)}")
    cores = cost.workers(jobs)
    print(f"sensitivity: {len(study.variants)} famil{'y' if len(study.variants) == 1 else 'ies'}"
          " and the shipped set at "
          f"{', '.join(map(str, counts))} players, scripted play: "
          f"{', '.join(f'{per[p]:,}' for p in counts)} games a side in {sens.STAGES} stages "
          f"(eighths: {'/'.join(map(str, sens.SHARES))}), {left} at the recorded costs on "
          f"{cores} core{'s' if cores > 1 else ''}; no stage begins that this run's own pace says would "
          f"end after {minutes:g} min", file=sys.stderr)
    start = time.perf_counter()

    def on_stage(stage: int, seconds: float) -> None:
        if not quiet:
            print(f"sensitivity: stage {stage + 1} of {sens.STAGES} played in "
                  f"{cost.duration(seconds)}", file=sys.stderr, flush=True)

    with dask_backend("loky", None), RunFolder(root, STUDY).lock(), \
            StudyProgress(sens.NAME, label="sensitivity", quiet=quiet) as progress:
        progress.plan(total, done)
        played = sens.run(study, root, jobs, resume=resume, force=not resume,
                          minutes=minutes - (time.perf_counter() - start) / 60,
                          on_chunk=progress.chunk, on_stage=on_stage)

    if played.stopped:
        print(f"sensitivity: the time ran out after {played.stages} of {sens.STAGES} stages: "
              f"the ranking is on those; {again} plays "
              "the rest", file=sys.stderr)

    def on_family(name: str) -> None:
        if not quiet:
            print(f"sensitivity: measured {name}'s shifts", file=sys.stderr, flush=True)

    result = sens.answer(study, root, played, jobs, on_family=on_family)
    for line in words.terminal(result):
        print(line)
    paths = words.write(root, result, shlex.join(["cdsim", *sys.argv[1:]]))
    print(f"wrote {', '.join(map(str, paths))} ({cost.duration(time.perf_counter() - start)}); "
          f"pages: cdsim study report {root}")
