"""Commands about run folders: simulate, report, balance, power."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from cdsim.batch.progress import run_with_progress
from cdsim.cli.app import (
    ComponentsOpt,
    DecisionTimeoutOpt,
    GameOpt,
    RunArg,
    ToleranceOpt,
    ZoneOpt,
    app,
    complete_strategies,
    dask_backend,
    named_path,
    out_folder,
    refuse_decision_timeout,
    resume_hint,
    use_decision_timeout,
)
from cdsim.errors import CdsimError, StrategyFailure, read_toml, user_text
from cdsim.games import players_said

if TYPE_CHECKING:  # the commands import what they run when they run it (a fast --help)
    from cdsim.batch.config import RunConfig


@app.command()
def simulate(
    out: Annotated[str | None, typer.Option(
        help="Run folder to create (default: runs/<players>p-<strategies>-seed<seed>, e.g. "
             "runs/4p-villa-landscape-bread-greedy-seed0).")] = None,
    game: GameOpt = None,
    players: Annotated[int | None, typer.Option("--players", "-n", help=players_said())] = None,
    games: Annotated[int | None, typer.Option(help="Games to play.")] = None,
    strategies: Annotated[str | None, typer.Option(
        help="One strategy per seat, comma-separated, e.g. villa,landscape,bread,greedy "
             "(one name fills every seat): built-in names (`cdsim strategies`), "
             "module:Class or path/to/file.py:Class.",
        autocompletion=complete_strategies)] = None,
    strategy_pool: Annotated[str | None, typer.Option(
        help="Instead of --strategies: a pool each seat is drawn from per game.")] = None,
    seed: Annotated[int | None, typer.Option(help="Run seed (default 0).")] = None,
    jobs: Annotated[int, typer.Option(help="Worker processes; -1 = every core.")] = -1,
    start_vp: Annotated[str | None, typer.Option(help="Starting VP by seat, e.g. 8,9,10,11.")]
        = None,
    rotate_seats: Annotated[bool | None, typer.Option(
        "--rotate-seats/--no-rotate-seats",
        help="Play each dealt setup in all N cyclic seat rotations (paired design).")] = None,
    chunk_size: Annotated[int | None, typer.Option(help="Games per Parquet part (default 250).")]
        = None,
    resume: Annotated[bool, typer.Option(help="Continue an interrupted run in --out.")] = False,
    force: Annotated[bool, typer.Option(help="Overwrite an existing run in --out.")] = False,
    backend: Annotated[str, typer.Option(help="loky (this machine) or dask.")] = "loky",
    scheduler: Annotated[str | None, typer.Option(
        help="Dask scheduler address (with --backend dask); default: a local cluster.")] = None,
    config: Annotated[Path | None, typer.Option(
        help="Run file (TOML) holding any of these flags; flags given here override it.")] = None,
    strategy_params: Annotated[str | None, typer.Option(
        help="Tweak scripted profiles: villa.chimney=1.5,...")] = None,
    components: ComponentsOpt = None,
    decision_timeout: DecisionTimeoutOpt = None,
    quiet: Annotated[bool, typer.Option(
        "--quiet", "-q", help="No progress (it goes to stderr: a live bar on a terminal, "
        "else a line every few seconds).")] = False,
) -> None:
    """Play a batch of games in parallel into a run folder (Parquet parts + manifest).

    \b
    Example: cdsim simulate -n 4 --strategies villa,landscape,bread,greedy --games 2000
             (writes runs/4p-villa-landscape-bread-greedy-seed0; --out names another folder)
             cdsim report runs/4p-villa-landscape-bread-greedy-seed0"""
    from cdsim.batch.config import check_jobs
    from cdsim.batch.folder import RunFolder, check_out

    use_decision_timeout(decision_timeout)
    given = {k: v for k, v in {
        "out": out, "game": game, "players": players, "games": games, "strategies": strategies,
        "strategy_pool": strategy_pool, "seed": seed, "start_vp": start_vp,
        "rotate_seats": rotate_seats, "chunk_size": chunk_size,
        "strategy_params": strategy_params,
        "components": str(components) if components else None}.items() if v is not None}
    in_file = _run_file(config)
    settings = in_file | given
    from_file: dict[str, Path | None] = {k: config for k in in_file.keys() - given.keys()}
    run_config = None
    if "out" in settings:
        where = "--out" if "out" in given else f"{config}: out"
        run = RunFolder(check_out(named_path(settings.pop("out"), where), where))
    else:  # named after what it plays, as a study or a ladder is
        if resume and not given and config is None:
            raise CdsimError("--resume: name the run folder to continue with --out (or give "
                             "the flags it was started with)")
        run_config = _run_config(settings, from_file)
        run = RunFolder(default_run_folder(run_config))
        if not (resume or force) and run.path.is_dir() and any(run.path.iterdir()):
            # the user did not name this folder: never suggest overwriting it
            raise CdsimError(f"{run.path} already holds a run: continue it with --resume, or "
                             "name another folder with --out")
    if resume and not run.started():
        if not run.path.is_dir() or not run.unstarted():
            raise CdsimError(f"{run.path}: no run to resume (no manifest.json); drop --resume to "
                             "start one")
        if run_config is None and not given.keys() - {"out"} and config is None:
            raise CdsimError(f"{run.path}: the run was stopped before it began (no manifest.json): "
                             "give its flags (--players, --games, --strategies, ...) to start it")
    if resume and not given.keys() - {"out"} and run.started():
        from cdsim.players.sandbox import decision_timeout as time_limit

        # its own settings; the time limit is this command's
        run_config = run.read().config.model_copy(
            update={"decision_timeout": time_limit()})
    elif run_config is None:
        if resume and run.started():  # its players as it played them (its profiles file)
            run.read()
        run_config = _run_config(settings, from_file)
    refuse_decision_timeout(run_config.spec)
    if backend not in ("loky", "dask"):
        raise CdsimError(f"--backend must be loky or dask, got {backend!r}")
    check_jobs(jobs)
    resume_hint(run.path, run.kind.manifest, f"cdsim simulate --out {run.path} --resume")
    with dask_backend(backend, scheduler), run.lock():
        manifest = run.begin(run_config, resume, force)
        run_with_progress(run, manifest, jobs, backend, run_config.games, quiet)


def default_run_folder(run_config: RunConfig) -> Path:
    """``runs/4p-villa-landscape-bread-greedy-seed0``: the player count, the line-up (one
    name when every seat plays it; ``pool-...`` for a pool) and the seed, as a folder name."""
    import re

    names = [spec.spelling for spec in run_config.lineup]
    lineup = "-".join(dict.fromkeys(names) if len(set(names)) == 1 else names)
    if run_config.strategy_pool:
        lineup = f"pool-{lineup}"
    lineup = re.sub(r"[^A-Za-z0-9_@=+.,-]", "_", lineup)[:120]
    game = run_config.spec.said("{name}-")
    return Path("runs") / f"{game}{run_config.players}p-{lineup}-seed{run_config.seed}"


def _run_file(path: Path | None) -> dict[str, Any]:  # a TOML table, checked by RunConfig
    """A run file's settings: the keys of ``RunConfig`` a user sets (and ``out``), checked
    with it once merged under the flags (``_run_config``)."""
    from cdsim.batch.config import RUN_FILE_KEYS

    if path is None:
        return {}
    data = {k.replace("-", "_"): v for k, v in read_toml(path).items()}
    for key in data:
        if key not in RUN_FILE_KEYS:
            raise CdsimError(f"{path}: unknown run-file key {user_text(key, repr, 60)} (known: "
                             f"{', '.join(sorted(RUN_FILE_KEYS))})")
    if "out" in data and not isinstance(data["out"], str):
        raise CdsimError(f"{path}: out must be a folder name (a string), got "
                         f"{user_text(data['out'], repr, 60)}")
    return data


def _run_config(settings: dict[str, object], from_file: dict[str, Path | None]) -> RunConfig:
    """The run's configuration from the merged settings (the defaults under them); a
    problem names the flag, or the run file and its key for a value taken from it. A
    user's strategy is made once now, so that one that cannot load fails here, not in a
    worker."""
    from pydantic import ValidationError

    from cdsim.batch.config import RunConfig, flag, problem_line
    from cdsim.games import DEFAULT_GAME, GAMES

    # the game's own default count (a game it does not know: the default's, refused below)
    played = GAMES.get(str(settings.get("game", DEFAULT_GAME)), GAMES[DEFAULT_GAME])
    values = {"players": played.default_players, "games": 1000, "seed": 0} | settings

    def name(key: str) -> str:
        top = key.partition(".")[0]
        return f"{from_file[top]}: {key}" if top in from_file else flag(key)

    try:
        run_config = RunConfig.model_validate(values, context={"fill_seats": True})
    except ValidationError as exc:
        raise CdsimError(problem_line(exc, RunConfig, values, name)) from None
    for key in ("strategies", "strategy_pool"):
        for spec in dict.fromkeys(getattr(run_config, key)):
            checked_strategy(run_config.spec.roster.load, spec, name(key))
    return run_config


def checked_strategy(make: Any, name: Any, flag: str) -> Any:
    """make(name), a strategy, or one error line naming the flag: an unknown strategy
    fails now, not in a worker."""
    try:
        return make(name)
    except CdsimError as exc:
        raise CdsimError(f"{flag}: {exc}") from None
    except StrategyFailure:  # its import or construction failed: a bug in it (exit 1)
        raise
    except Exception as exc:
        raise CdsimError(f"{flag}: cannot load strategy {str(name)!r} "
                         f"({type(exc).__name__}: {exc})") from None


@app.command()
def report(
    run: RunArg,
    out: Annotated[str | None, typer.Option(
        help="Folder for report.html, report.md and charts/ (default: the run folder).")] = None,
    tolerance: ToleranceOpt = 0.02,
    as_json: Annotated[bool, typer.Option(
        "--json", help="Also print the seat and strategy figures as one JSON object (the "
        "files are written all the same).")] = False,
) -> None:
    """Balance report of a run: seat and strategy win shares with 95% intervals, tests,
    VP over the game, convergence, starting-VP analysis, charts (HTML + Markdown).

    Example: cdsim report runs/mix4 (then open runs/mix4/report.html)."""
    from cdsim.analysis.anytime import check_tolerance
    from reports.report import write, write_judged

    check_tolerance(tolerance, "--tolerance")
    if as_json:
        page, judged = write_judged(run, out_folder(out), tolerance)
        print(json.dumps(_report_json(run, page, judged)))
        return
    page = write(run, out_folder(out), tolerance)
    print(f"wrote {page} (self-contained), {page.with_suffix('.md')} and {page.parent / 'charts'}/")


def _report_json(run: Path, page: Path, judged: Any) -> dict[str, object]:
    """``cdsim report --json``: the run, each seat's and each strategy's win share with its
    95% interval, the test of equal seat shares, the starting-VP balance (``cdsim balance
    --json``'s object, or why there is none) and the files written. Seats are numbered from 1,
    as in the report. A run of another game than Carpe Diem names it (``game``) and has no
    failed-card rate or cards when the game has none."""
    from cdsim.analysis import rows
    from cdsim.batch.read import open_run, seat_arrays
    from cdsim.batch.results import card_section
    from reports import balance as bal
    from reports import cards

    opened = open_run(run)
    sb = rows.seat_balance(opened, seat_arrays(opened))
    st = rows.strategies(opened)
    seats = [{"seat": int(r["seat"]) + 1, "start_vp": int(r["start_vp"]), "games": int(r["games"]),
              "wins": int(r["wins"]), "share": float(r["share"]), "low": float(r["low"]),
              "high": float(r["high"]), "mean_vp": float(r["mean_vp"])}
             for r in sb.table.iter_rows(named=True)]
    strategies = [{"strategy": r["strategy"], "appearances": int(r["appearances"]),
                   "wins": int(r["wins"]), "share": float(r["share"]), "low": float(r["low"]),
                   "high": float(r["high"]), "mean_vp": float(r["mean_vp"])}
                  | ({"failed_card_rate": float(r["failed_rate"])} if st.has_failed else {})
                  for r in st.table.iter_rows(named=True)]
    found = card_section(opened)
    game = opened.spec.game_key()
    return game | {"run": str(run), "players": opened.players, "games": opened.games,
            "planned": opened.planned, "complete": bool(opened.complete),
            "rotated": bool(opened.rotated), "design_effect": float(sb.deff),
            "seats": seats, "equal_shares_test": {"chi2": float(sb.test.chi2),
                                                  "df": int(sb.test.df),
                                                  "p_value": float(sb.test.p_value)},
            "tied_games": int(sb.tied_games), "tiebreak_games": int(sb.tiebreak_games),
            "strategies": strategies,
            **({} if found is None or opened.spec.cards is None else
               {"cards": cards.as_json(found, opened.spec.cards.kinds)}),
            "balance": ({"not_analysed": judged} if isinstance(judged, str) else
                        bal.as_json(judged)),
            "files": {"html": str(page), "markdown": str(page.with_suffix(".md")),
                      "charts": str(page.parent / "charts")}}


@app.command()
def balance(
    runs: Annotated[list[Path] | None, typer.Argument(
        help="Run folder(s) made by `cdsim simulate`; several of the same setup (different "
             "seeds) are pooled.", show_default=False)] = None,
    cell: Annotated[Path | None, typer.Option(
        help="A study cell instead of runs: STUDY/KEY, e.g. studies/x/2p.scripted (every "
             "line-up of every stage, judged as the study judges the cell).",
        show_default=False)] = None,
    tolerance: ToleranceOpt = 0.02,
    zone: ZoneOpt = 0.005,
    radius: Annotated[int, typer.Option(
        help="Search each seat's starting VP within current ± this many VP.")] = 6,
    out: Annotated[str | None, typer.Option(
        help="Folder for the chart balance_shift.png (default: the first run folder, or the "
             "study folder for --cell).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object instead.")]
        = False,
) -> None:
    """Which starting VP make the seats fair, from games already played: the study's
    procedure on one run (one stage). Re-ranks the logged games under every vector within
    --radius (exact: no built-in player reads VP totals), names the most equal one and says
    whether it is confirmed fair within --tolerance (to --zone: shown below tolerance +
    zone; "no fair vector" above tolerance - zone) (2 players can be; with more the
    vector is chosen on these games, so only fresh games confirm it: the commands printed
    play them), with each seat's fair offset.

    Several run folders of the same setup (players, line-up, starting VP, seat rotation,
    components; different seeds) are pooled, each run's deals kept apart; a small or
    partial run is warned about.

    Example: cdsim balance runs/mix4 runs/mix4-seed2 --tolerance 0.02, or
    cdsim balance --cell studies/start-vp/2p.scripted."""
    import sys

    from cdsim.analysis.anytime import check_tolerance, check_zone
    from cdsim.batch import balance as judging
    from cdsim.batch.read import open_run, seat_arrays
    from cdsim.games import PLAYER_COUNTS
    from cdsim.study.file import zone_reach_problem
    from reports import balance as bal
    from reports import charts
    from reports.report import save

    check_tolerance(tolerance, "--tolerance")
    check_zone(zone, tolerance, "--zone")
    reach = zone_reach_problem(zone, 0.05, PLAYER_COUNTS)  # the verdict's alpha
    if reach:
        raise CdsimError(f"--zone {zone:g} {reach}")
    folder = out_folder(out)
    if not 0 <= radius <= 10:
        raise CdsimError(f"--radius must be between 0 and 10, got {radius}")
    if (cell is None) == (not runs):
        raise CdsimError("name run folders or --cell STUDY/KEY, not both and not neither")
    if cell is not None:
        result = judging.analyse_cell(cell, tolerance, radius, zone)
        target = (folder or cell.parent) / f"balance_shift-{cell.name}.png"
        where = f"cell {cell.name} of {cell.parent} ({len(result.runs)} run folders)"
    else:
        assert runs is not None
        if len(set(runs)) != len(runs):
            raise CdsimError("a run folder is given twice: its games would count twice")
        opened = [open_run(run) for run in runs]
        result = judging.analyse(opened, [seat_arrays(o) for o in opened], tolerance, radius, zone)
        target = (folder or runs[0]) / "balance_shift.png"
        where = (str(runs[0]) if len(runs) == 1 else
                 f"{len(runs)} runs pooled ({', '.join(map(str, runs))})")
    shifts, share, low, high = result.balance.curves
    save(target, charts.shift_chart(shifts, share, low, high, result.balance.current.vector))
    for warning in result.warnings:
        print(f"cdsim: warning: {warning}", file=sys.stderr)
    if as_json:
        print(json.dumps(bal.as_json(result) | {"run": result.runs[0], "chart": str(target)}))
        return
    print(f"{where}: {result.games} games, {result.players} players")
    print(bal.format_text(result))
    print(f"chart: {target}")


@app.command()
def power(
    game: GameOpt = None,
    players: Annotated[int | None, typer.Option("--players", "-n", help=players_said())]
        = None,
    effect: Annotated[float, typer.Option(
        help="Seat gap to detect: best seat's win share minus the worst's (0.03 = 3 pp).")]
        = 0.03,
    alpha: Annotated[float, typer.Option(help="Significance level.")] = 0.05,
    power: Annotated[float, typer.Option("--power", help="Chance of detecting the gap.")] = 0.8,
    tolerance: Annotated[float, typer.Option(
        help="Equivalence: the largest seat gap that counts as fair (0.02 = 2 pp).")] = 0.02,
    gap: Annotated[float, typer.Option(
        help="Equivalence: the vector's expected true largest seat gap (0 = exactly fair); "
             "below --tolerance.")] = 0.0,
    design_effect: Annotated[float, typer.Option(
        help="Variance inflation of the run's games (1 without seat rotation; `cdsim report` "
             "prints a rotated run's).")] = 1.0,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object instead.")]
        = False,
) -> None:
    """How many games a run needs to detect a seat gap of a given size, and how many fresh
    games show a starting-VP vector fair within ±tolerance when its true gap is --gap.

    The figures depend on the player count only, not on the game (--game checks the count
    against its own).

    Example: cdsim power --players 3 --effect 0.02 --tolerance 0.02 --gap 0.005."""
    from cdsim.analysis.anytime import CONFIRM_SHARE, FIRST_CHOICE, check_tolerance, design_groups
    from cdsim.analysis.predict import confirmation_games
    from cdsim.analysis.stats import power_analysis
    from cdsim.games import game_spec

    spec = game_spec(game)
    players = spec.default_players if players is None else players
    if players not in spec.player_counts:
        *most, last = map(str, spec.player_counts)
        counts = f"{', '.join(most)} or {last}" if most else last
        raise CdsimError(f"--players must be {counts}{spec.said(' for {name}')}, "
                         f"got {str(players)[:40]}")
    if not 0.001 <= effect < 2 / players:
        raise CdsimError(f"--effect must be between 0.001 and {2 / players:.3f} for {players} "
                         f"players, got {effect:g}")
    if not 1e-6 <= alpha <= 0.5:
        raise CdsimError(f"--alpha must be between 0.000001 and 0.5, got {alpha:g}")
    if not 0.05 <= power <= 0.9999:
        raise CdsimError(f"--power must be between 0.05 and 0.9999, got {power:g}")
    check_tolerance(tolerance, "--tolerance")
    if not 0 <= gap < tolerance:
        raise CdsimError(f"--gap must be at least 0 and below --tolerance ({tolerance:g}): a "
                         f"vector whose true gap is {gap:g} is never shown within it")
    if not 1 <= design_effect <= 100:
        raise CdsimError(f"--design-effect must be between 1 and 100, got {design_effect:g}")
    try:
        pw = power_analysis(players, effect, alpha, power)
    except ValueError as exc:
        raise CdsimError(str(exc)) from None
    # the anytime test (docs/statistics.md): a run of one vector (`cdsim balance --radius 0`)
    # at alpha's confirmation share; a study cell's test at its first choice's share (3 or more
    # players, on the games after stage 0) or at half of it for the two ends (2 players)
    design = design_groups(players, tolerance, alpha, 1.0)
    alpha_c = alpha * CONFIRM_SHARE
    one = confirmation_games(players, gap, tolerance, alpha_c, design, power, design_effect)
    level = alpha_c / 2 if players == 2 else FIRST_CHOICE * alpha_c
    study = confirmation_games(players, gap, tolerance, level, design, power, design_effect)
    if as_json:
        print(json.dumps(spec.game_key() | {
            "players": players, "effect": effect, "alpha": alpha, "power": power,
            "games_chi2": pw.games_chi2, "games_pair": pw.games_pair, "games_ci": pw.games_ci,
            "tolerance": tolerance, "gap": gap, "design_effect": design_effect,
            "games_equivalence": one, "games_study": study}))
        return
    game = spec.said("{title}, ")
    print(f"{game}{players} players, a seat gap of {100 * effect:.1f} pp (one seat {100 * effect / 2:.1f} pp "
          f"above the fair {1 / players:.1%}, one {100 * effect / 2:.1f} pp below), {power:.0%} power "
          f"at the {alpha:g} level:")
    print(f"  {pw.games_chi2:>8} games  for the all-seat chi-square test (what `cdsim report` runs)")
    print(f"  {pw.games_pair:>8} games  for a z-test of the two seats that differ")
    print(f"  {pw.games_ci:>8} games  for every seat's 95% interval to be ±{100 * effect / 2:.1f} pp "
          "or narrower")
    print("With --rotate-seats, multiply by the run's design effect (the report prints it).")
    print(f"Equivalence: a vector whose seats truly lie {100 * gap:.1f} pp apart, confirmed "
          f"within ±{100 * tolerance:.1f} pp by the anytime test ({power:.0%} chance"
          + (f", design effect {design_effect:g}" if design_effect > 1 else "") + "):")
    print(f"  {one:>8} fresh games  for one run of that vector, read by `cdsim balance RUN "
          "--radius 0` (what `cdsim balance` prints)")
    print(f"  {study:>8} games  tested in a study cell (with more than 2 players: after its "
          "first stage, which chooses the vector)")
