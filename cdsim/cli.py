"""The ``cdsim`` command line (typer). Every user error ends in one line and exit code 2."""

from __future__ import annotations

import json
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TextIO

import typer

from cdsim import __version__
from cdsim.components import HAVE_KEYS, REWARD_KEYS, load_components
from cdsim.errors import CdsimError, StrategyFailure, read_toml
from cdsim.kinds import FEATURE_NAMES, GOOD_NAMES

if TYPE_CHECKING:
    from cdsim.game import GameState

app = typer.Typer(
    name="cdsim",
    help="Monte Carlo strategy and balance analyzer for the board game Carpe Diem.\n\n"
         "Start with `cdsim play --players 3 --seed 1 --trace` to watch one game.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)
components_app = typer.Typer(help="Validate and inspect component sets.", no_args_is_help=True)
app.add_typer(components_app, name="components")

ComponentsOpt = Annotated[Path | None, typer.Option(
    "--components", help="Folder (or single TOML file) replacing parts of the default "
    "component set. Default: the reconstructed set shipped in cdsim/data.",
    envvar="CDSIM_COMPONENTS")]


def _parse_ints(text: str, what: str) -> tuple[int, ...]:
    try:
        return tuple(int(x) for x in text.split(",") if x.strip())
    except ValueError:
        raise CdsimError(f"{what} must be comma-separated integers, got {text!r}") from None


@app.command()
def play(
    players: Annotated[int, typer.Option("--players", "-n", help="2, 3 or 4 players.")] = 4,
    seed: Annotated[int, typer.Option(help="Seed: the same seed replays the same game.")] = 0,
    strategies: Annotated[str, typer.Option(
        help="Strategy per seat, comma-separated (one name fills every seat). "
             "See `cdsim strategies`; or module:Class.")] = "random",
    start_vp: Annotated[str | None, typer.Option(
        help="Starting VP by seat, e.g. 8,9,10,11 (default: the rulebook's).")] = None,
    trace: Annotated[bool, typer.Option(help="Print every turn, scoring phase and the districts.")]
        = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    strategy_params: Annotated[str | None, typer.Option(
        help="Tweak scripted profiles: villa.chimney=1.5,bread.bread_move_cost=1 "
             "(fields of strategies/params.py Params).")] = None,
    setup: Annotated[int | None, typer.Option(
        help="Play setup N of a `cdsim simulate` run whose --seed is this seed (the deal "
             "that run's games N*players... used with --rotate-seats, game N without).")] = None,
    components: ComponentsOpt = None,
    html_file: Annotated[Path | None, typer.Option(
        "--html", help="Also write the game as one self-contained HTML page to replay "
                       "step by step in a browser.")] = None,
) -> None:
    """Play one game on the core and print its result. Any line-up: built-in players
    (mcts too) and your own Python strategies (module:Class) at one table.

    Example: cdsim play --players 2 --strategies mcts,greedy --trace"""
    from cdsim.engine.render import trace as render_trace
    from cdsim.engine.table import Table
    from cdsim.game import CIRCLES
    from strategies.registry import make_lineup, parse_params

    if not 2 <= players <= 4:
        raise CdsimError(f"--players must be 2, 3 or 4, got {players}")
    if not 0 <= seed < 2**63 or (setup is not None and not 0 <= setup < 2**63):
        raise CdsimError(f"--seed and --setup must be between 0 and 2**63 - 1, got {seed} "
                         f"and {setup}")
    vp = _parse_ints(start_vp, "--start-vp") if start_vp else ()
    if vp and len(vp) != players:
        raise CdsimError(f"--start-vp needs {players} values (one per seat), got {len(vp)}")
    if any(not -(2**31) < v < 2**31 for v in vp):
        raise CdsimError(f"--start-vp values must be between -2**31 and 2**31, got {start_vp}")
    load_components(components)  # a bad component set is one line before anything plays
    lineup = make_lineup(strategies.split(","), players, parse_params(strategy_params))
    table = Table(None if components is None else str(components), lineup, seed, setup, vp,
                  events=True, mirror=trace or html_file is not None,
                  where=f"game seed {seed}" + (f" setup {setup}" if setup is not None else ""))
    recorder = None
    if html_file is not None:
        from cdsim.replay import Recorder

        recorder = Recorder(table)
    try:
        record = table.play()
    except StrategyFailure as exc:
        raise exc.located(lineup.names[exc.seat], f", {table.where} decision "
                          f"{table.core.decisions + 1}") from None
    if html_file is not None and recorder is not None:
        from cdsim.pages import replay_page, write_page

        write_page(html_file, replay_page(recorder.finish()))
    if as_json:
        print(json.dumps(_play_json(record)))
        return
    if trace:
        deal = json.loads(table.core.deal())
        print("\n".join(render_trace(table.event_list(), players, deal["grid"],
                                     CIRCLES[players], record)))
        if table.python is not None:
            _print_districts(table.python)
    _print_summary(record)
    if html_file is not None:
        print(f"\nreplay: {html_file} (open it in a browser)")


def _play_json(record: Any) -> dict[str, Any]:
    return {"seed": record.seed, "players": record.players, "seats": [
        {"seat": s.seat, "strategy": s.strategy, "start_vp": s.start_vp, "final_vp": s.final_vp,
         "breakdown": s.breakdown, "scroll": s.scroll, "rank": s.rank, "won": s.won}
        for s in record.seats]}


def _print_districts(state: GameState) -> None:
    for p in state.players:
        print(f"\nseat {p.seat + 1} district (board {p.district.board.id if p.district.board else '-'}, "
              f"frame parts {', '.join(map(str, state.frames[p.seat]))}):")
        print("\n".join(p.district.render()))


def _print_summary(record: Any) -> None:
    print(f"\ngame seed {record.seed}, {record.players} players"
          + ("  (winner by scroll-track tie-break)" if record.tiebreak else ""))
    head = "seat strategy      start cards villas left scroll fount frame  final rank"
    print(head)
    for s in record.seats:
        b = s.breakdown
        print(f"{s.seat + 1:>4} {s.strategy:<12} {b['start']:>6} {b['cards']:>5} {b['villas']:>6} "
              f"{b['leftovers']:>4} {b['scroll']:>6} {b['fountains']:>5} {b['frame']:>5} "
              f"{s.final_vp:>6} {s.rank:>4}{'  winner' if s.won else ''}")


@app.command()
def simulate(
    out: Annotated[Path | None, typer.Option(help="Run folder to create (e.g. runs/NAME).")] = None,
    players: Annotated[int | None, typer.Option("--players", "-n", help="2, 3 or 4.")] = None,
    games: Annotated[int | None, typer.Option(help="Games to play.")] = None,
    strategies: Annotated[str | None, typer.Option(
        help="One strategy per seat, comma-separated, e.g. villa,landscape,bread,greedy "
             "(one name fills every seat).")] = None,
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
) -> None:
    """Play a batch of games in parallel into a run folder (Parquet parts + manifest)."""
    from cdsim.runner import check_jobs, check_out, folder_lock, prepare, read_manifest, unstarted

    given = {k: v for k, v in {
        "out": out, "players": players, "games": games, "strategies": strategies,
        "strategy_pool": strategy_pool, "seed": seed, "start_vp": start_vp,
        "rotate_seats": rotate_seats, "chunk_size": chunk_size,
        "strategy_params": strategy_params,
        "components": str(components) if components else None}.items() if v is not None}
    settings = _run_file(config) | given
    if "out" not in settings:
        raise CdsimError("--out is required (the run folder to create)")
    run = check_out(Path(str(settings.pop("out"))))
    if resume and not (run / "manifest.json").exists():
        if not run.is_dir() or not unstarted(run):
            raise CdsimError(f"{run}: no run to resume (no manifest.json); drop --resume to "
                             "start one")
        if not given.keys() - {"out"} and config is None:  # stopped before its manifest
            raise CdsimError(f"{run}: the run was stopped before it began (no manifest.json): "
                             "give its flags (--players, --games, --strategies, ...) to start it")
    if resume and not given.keys() - {"out"} and (run / "manifest.json").exists():
        from cdsim.runner import config_from_manifest
        run_config = config_from_manifest(read_manifest(run))
    else:
        run_config = _run_config(settings)
    if backend not in ("loky", "dask"):
        raise CdsimError(f"--backend must be loky or dask, got {backend!r}")
    check_jobs(jobs)
    resume_hint(run, "manifest.json", f"cdsim simulate --out {run} --resume")
    run_config.validate()  # before the folder is made
    with _backend(backend, scheduler), folder_lock(run):
        manifest = prepare(run, run_config, resume, force)
        _run_with_progress(run, manifest, jobs, backend, run_config.games)


def _run_file(path: Path | None) -> dict[str, Any]:
    if path is None:
        return {}
    data = read_toml(path)
    known = {"out", "players", "games", "strategies", "strategy_pool", "seed", "start_vp",
             "rotate_seats", "chunk_size", "strategy_params", "components"}
    data = {k.replace("-", "_"): v for k, v in data.items()}
    for key in data:
        if key not in known:
            raise CdsimError(f"{path}: unknown run-file key {key!r} (known: {', '.join(sorted(known))})")
    for key in ("strategies", "strategy_pool", "start_vp"):
        if isinstance(data.get(key), list):
            data[key] = ",".join(str(x) for x in data[key])
    return data


def _run_config(settings: dict[str, Any]) -> Any:
    from cdsim.runner import RunConfig
    from strategies.registry import make_strategy, parse_params

    def names(key: str) -> tuple[str, ...]:
        return tuple(x.strip() for x in str(settings.get(key) or "").split(",") if x.strip())

    for key in ("strategies", "strategy_pool"):
        for name in names(key):
            checked_strategy(make_strategy, name, f"--{key.replace('_', '-')}")
    parse_params(settings.get("strategy_params"))
    def integer(key: str, default: int) -> int:
        value = settings.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int | str):
            raise CdsimError(f"{key} must be an integer, got {value!r}")
        try:
            return int(value)
        except ValueError:
            raise CdsimError(f"{key} must be an integer, got {value!r}") from None

    players = integer("players", 4)
    if players not in (2, 3, 4):
        raise CdsimError(f"--players must be 2, 3 or 4, got {str(players)[:40]}")
    lineup = names("strategies")
    if len(lineup) == 1:  # one name fills every seat, as in `cdsim play`
        lineup = lineup * players
    return RunConfig(
        players=players, games=integer("games", 1000), seed=integer("seed", 0),
        strategies=lineup, strategy_pool=names("strategy_pool"),
        start_vp=_parse_ints(str(settings["start_vp"]), "--start-vp")
        if settings.get("start_vp") else (),
        rotate_seats=bool(settings.get("rotate_seats", False)),
        components=settings.get("components"), chunk_size=integer("chunk_size", 250),
        strategy_params=settings.get("strategy_params"))


def checked_strategy(make: Any, name: str, flag: str) -> Any:
    """make(name), a strategy, or one error line naming the flag: an unknown strategy
    fails now, not in a worker."""
    try:
        return make(name)
    except CdsimError:
        raise
    except Exception as exc:
        raise CdsimError(f"{flag}: cannot load strategy {name!r} "
                         f"({type(exc).__name__}: {exc})") from None


class _backend:
    """Context: register and connect the dask backend when asked for."""

    def __init__(self, name: str, scheduler: str | None) -> None:
        self.name = name
        self.scheduler = scheduler
        self.client: Any = None

    def __enter__(self) -> None:
        if self.name != "dask":
            return
        try:
            from dask.distributed import Client
        except ImportError:
            raise CdsimError("--backend dask needs the dask extra: pip install 'cdsim[dask]'") from None
        try:
            self.client = Client(self.scheduler) if self.scheduler else Client(processes=True)
        except Exception as exc:
            where = f"--scheduler {self.scheduler!r}" if self.scheduler else "a local dask cluster"
            raise CdsimError(f"cannot connect to {where} ({type(exc).__name__}: {exc})") from None

    def __exit__(self, *exc: object) -> None:
        if self.client is not None:
            self.client.close()


def _run_with_progress(run: Path, manifest: dict[str, Any], jobs: int, backend: str,
                       games: int) -> None:
    from cdsim.runner import run_chunks

    done = sum(b - a for i, (a, b) in enumerate(manifest["chunks"]) if i in manifest["finished"])
    start = time.perf_counter()
    played = 0
    try:
        if sys.stdout.isatty():
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

            with Progress(TextColumn("simulating"), BarColumn(), MofNCompleteColumn(),
                          TextColumn("{task.fields[rate]} games/s"), TimeRemainingColumn()) as bar:
                task = bar.add_task("games", total=games, completed=done, rate="-")

                def tick(index: int, n: int) -> None:
                    nonlocal played
                    played += n
                    rate = played / max(time.perf_counter() - start, 1e-9)
                    bar.update(task, advance=n, rate=f"{rate:.0f}")

                manifest = run_chunks(run, manifest, jobs, backend, tick)
        else:
            def line(index: int, n: int) -> None:
                nonlocal played, done
                played += n
                done += n
                rate = played / max(time.perf_counter() - start, 1e-9)
                eta = (games - done) / rate if rate else 0
                print(f"chunk {index}: {done}/{games} games, {rate:.0f} games/s, "
                      f"eta {eta:.0f} s", flush=True)

            manifest = run_chunks(run, manifest, jobs, backend, line)
    except KeyboardInterrupt:
        saved = len(read_manifest_safe(run))
        print(f"cdsim: interrupted; {saved} chunks saved in {run}: continue with --resume",
              file=sys.stderr)
        sys.exit(130)
    wall = time.perf_counter() - start
    print(f"{games} games in {run} ({played} played now in {wall:.1f} s, "
          f"{played / max(wall, 1e-9):.0f} games/s)")


def read_manifest_safe(run: Path) -> list[int]:
    from cdsim.runner import read_manifest

    try:
        return list(read_manifest(run)["finished"])
    except CdsimError:
        return []


@app.command()
def score(
    position: Annotated[Path, typer.Argument(help="Position TOML file (format in README).")],
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    components: ComponentsOpt = None,
) -> None:
    """Rules console: final scoring of one position, and what each listed card pays."""
    from cdsim.position import load_position, score_position

    comps = load_components(components)
    result = score_position(load_position(position, comps), comps)
    lines: list[str] = []
    cards = []
    for o in result.cards:
        paid = dict(zip(GOOD_NAMES, o.paid_goods, strict=True)) | {
            "coins": o.paid_coins, "bread": o.paid_bread}
        cards.append({"id": o.card_id, "multiples": o.multiples, "failed": o.failed, "vp": o.vp,
                      "coins": o.coins, "bread": o.bread, "steps": o.steps, "paid": paid})
        if as_json:
            continue
        card = comps.objectives[o.card_id]
        if o.failed:
            lines.append(f"{o.card_id} ({card.describe()}): cannot be fulfilled: -4 VP")
            continue
        pays = ", ".join(f"{v} {k}" for k, v in paid.items() if v) or "nothing"
        gets = ", ".join(f"{v} {k}" for k, v in zip(("vp", "coins", "bread", "steps"),
                                                    (o.vp, o.coins, o.bread, o.steps), strict=True) if v)
        lines.append(f"{o.card_id} ({card.describe()}): x{o.multiples}, pays {pays}, gets {gets}")
    if as_json:
        print(json.dumps({"final": result.final, "cards": cards}))
        return
    print("final scoring: " + ", ".join(f"{k} {v}" for k, v in result.final.items()))
    print("\n".join(lines))


@app.command()
def cards(
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    components: ComponentsOpt = None,
) -> None:
    """List the objective and fountain cards with their stable ids."""
    comps = load_components(components)
    objectives = []
    for card in comps.objectives.values():
        names = GOOD_NAMES if card.pay else HAVE_KEYS
        objectives.append({
            "id": card.id, "deck": card.deck, "type": "pay" if card.pay else "have",
            "requires": {names[k]: n for k, n in card.requires},
            "reward": {k: v for k, v in zip(REWARD_KEYS, card.reward, strict=True) if v},
            "text": card.describe(), "provenance": card.provenance})
    fountains = [{"id": f.id, "goal": FEATURE_NAMES[f.goal], "vp": f.vp,
                  "provenance": f.provenance} for f in comps.fountains.values()]
    if as_json:
        print(json.dumps({"objective": objectives, "fountain": fountains}, indent=1))
        return
    for o in objectives:
        print(f"{o['id']}  {o['text']:<60} [{o['provenance']}]")
    for f in fountains:
        print(f"{f['id']}  {f['vp']} VP per complete {f['goal']:<40} [{f['provenance']}]")


@components_app.command("check")
def components_check(
    path: Annotated[Path, typer.Argument(help="Component folder or single TOML file.")],
) -> None:
    """Validate a component set; prints what it holds, or one line naming the problem."""
    comps = load_components(path)
    print(f"ok: {len(comps.light)} light + {len(comps.dark)} dark tiles "
          f"({len(comps.tile_types)} kinds), {len(comps.objectives)} objective and "
          f"{len(comps.fountains)} fountain cards, {len(comps.frame_parts)} frame parts, "
          f"{len(comps.boards)} boards; set {comps.digest[:12]}"
          + (" (the reconstructed default)" if comps.is_default else ""))


@components_app.command("show")
def components_show(
    html_file: Annotated[Path, typer.Option(
        "--html", help="The page to write (one self-contained HTML file).", show_default=False)],
    components: ComponentsOpt = None,
) -> None:
    """Draw a component set on one HTML page: every tile type with its count, the district
    boards, the frame parts with their goals, the objective and fountain cards, each with
    its provenance, to check a transcription piece by piece.

    Example: cdsim components show --components my-set/ --html my-set.html"""
    from cdsim.pages import components_page, write_page

    comps = load_components(components)
    source = str(components) if components else "the reconstructed default set"
    write_page(html_file, components_page(comps, source))
    print(f"wrote {html_file}: {len(comps.tile_types)} tile types, {len(comps.boards)} boards, "
          f"{len(comps.frame_parts)} frame parts, {len(comps.objectives)} objective and "
          f"{len(comps.fountains)} fountain cards")


RunArg = Annotated[Path, typer.Argument(help="Run folder made by `cdsim simulate` (e.g. runs/NAME).",
                                         show_default=False)]
ToleranceOpt = Annotated[float, typer.Option(
    help="Largest seat win-share gap that counts as fair, as a share (0.02 = 2 points).")]


@app.command()
def report(
    run: RunArg,
    out: Annotated[Path | None, typer.Option(
        help="Folder for report.html, report.md and charts/ (default: the run folder).")] = None,
    tolerance: ToleranceOpt = 0.02,
) -> None:
    """Balance report of a run: seat and strategy win shares with 95% intervals, tests,
    VP over the game, convergence, starting-VP analysis, charts (HTML + Markdown).

    Example: cdsim report runs/mix4 (then open runs/mix4/report.html)."""
    from reports.report import write

    page = write(run, out, tolerance)
    print(f"wrote {page} (self-contained), {page.with_suffix('.md')} and {page.parent / 'charts'}/")


@app.command()
def balance(
    run: RunArg,
    tolerance: ToleranceOpt = 0.02,
    radius: Annotated[int, typer.Option(
        help="Search each seat's starting VP within current ± this many points.")] = 6,
    out: Annotated[Path | None, typer.Option(
        help="Folder for the chart balance_shift.png (default: the run folder).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object instead.")]
        = False,
) -> None:
    """Re-rank the logged games under other starting-VP vectors (exact: no built-in strategy
    reads VP totals) and find the vector that makes the seats' win shares most equal.

    Example: cdsim balance runs/mix4 --tolerance 0.02. "Within tolerance" means shown by
    an equivalence test (every pair of seats), not merely "no significant difference"."""
    from reports import balance as bal
    from reports import charts
    from reports.data import open_run, seat_arrays
    from reports.report import save

    if not 0 <= radius <= 10:
        raise CdsimError(f"--radius must be between 0 and 10, got {radius}")
    opened = open_run(run)
    result = bal.analyse(opened, seat_arrays(opened), tolerance, radius)
    shifts, share, low, high = result.curves
    target = (out or run) / "balance_shift.png"
    save(target, charts.shift_chart(shifts, share, low, high, result.current.vector))
    if as_json:
        print(json.dumps(bal.as_json(result) | {"run": str(run), "chart": str(target)}))
        return
    print(f"{run}: {result.games} games, {result.players} players")
    print(bal.format_text(result))
    print(f"chart: {target}")


@app.command()
def power(
    players: Annotated[int, typer.Option("--players", "-n", help="2, 3 or 4.")] = 4,
    effect: Annotated[float, typer.Option(
        help="Seat gap to detect: best seat's win share minus the worst's (0.03 = 3 points).")]
        = 0.03,
    alpha: Annotated[float, typer.Option(help="Significance level.")] = 0.05,
    power: Annotated[float, typer.Option("--power", help="Chance of detecting the gap.")] = 0.8,
) -> None:
    """How many games a run needs to detect a seat win-share gap of a given size.

    Example: cdsim power --players 3 --effect 0.02."""
    from reports.stats import power_analysis

    if players not in (2, 3, 4):
        raise CdsimError(f"--players must be 2, 3 or 4, got {str(players)[:40]}")
    if not 0.001 <= effect < 2 / players:
        raise CdsimError(f"--effect must be between 0.001 and {2 / players:.3f} for {players} "
                         f"players, got {effect:g}")
    if not 1e-6 <= alpha <= 0.5:
        raise CdsimError(f"--alpha must be between 0.000001 and 0.5, got {alpha:g}")
    if not 0.05 <= power <= 0.9999:
        raise CdsimError(f"--power must be between 0.05 and 0.9999, got {power:g}")
    try:
        pw = power_analysis(players, effect, alpha, power)
    except ValueError as exc:
        raise CdsimError(str(exc)) from None
    print(f"{players} players, a seat gap of {effect:.1%} (one seat {effect / 2:.1%} above the fair "
          f"{1 / players:.1%}, one {effect / 2:.1%} below), {power:.0%} power at the {alpha:g} level:")
    print(f"  {pw.games_chi2:>8} games  for the all-seat chi-square test (what `cdsim report` runs)")
    print(f"  {pw.games_pair:>8} games  for a z-test of the two seats that differ")
    print(f"  {pw.games_ci:>8} games  for every seat's 95% interval to be ±{effect / 2:.1%} or narrower")
    print("With --rotate-seats, multiply by the run's design effect (the report prints it).")


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
    with _backend(backend, scheduler), folder_lock(check_out(root), "study"), \
            _StudyProgress(spec.name) as progress:
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


class _StudyProgress:
    """One progress bar for a whole study (rich on a terminal, plain lines otherwise)."""

    def __init__(self, name: str, label: str | None = None, stream: TextIO | None = None) -> None:
        self.name = name
        self.label = label or f"study {name}"
        self.stream = stream or sys.stdout  # cdsim ladder --json: stderr, stdout is the JSON's
        self.played = 0
        self.total = 0
        self.done = 0
        self.start = time.perf_counter()
        self.bar: Any = None
        self.task: Any = None

    def __enter__(self) -> _StudyProgress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()
            self.bar = None

    def plan(self, total: int, done: int) -> None:
        """The games planned so far (confirmations and re-simulation rounds add to it)."""
        self.total, self.done = total, done
        if self.bar is None and self.stream.isatty() and total > done:
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

            self.bar = Progress(TextColumn(self.label), BarColumn(), MofNCompleteColumn(),
                                TextColumn("{task.fields[rate]} games/s"), TimeRemainingColumn(),
                                console=Console(file=self.stream))
            self.bar.start()
            self.task = self.bar.add_task("games", total=total, completed=done, rate="-")
        if self.bar is not None:
            self.bar.update(self.task, total=total, completed=done)

    def chunk(self, key: str, games: int) -> None:
        self.played += games
        self.done += games
        rate = self.played / max(time.perf_counter() - self.start, 1e-9)
        if self.bar is not None:
            self.bar.update(self.task, advance=games, rate=f"{rate:.0f}")
            return
        eta = (self.total - self.done) / rate if rate else 0
        print(f"{key}: {self.done}/{self.total} games, {rate:.0f} games/s, eta {eta:.0f} s",
              file=self.stream, flush=True)


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


@app.command()
def ladder(
    strategies: Annotated[str | None, typer.Option(
        help="The players to rate, comma-separated, at least 2: built-in names (see `cdsim "
             "strategies`), module:Class, or a built-in at another setting: name@N sets its "
             "budget (mcts@100 = mcts with 100 playouts), name@param=value any parameter "
             "(villa@chimney=1.5; chain them: villa@chimney=1.5@open_edge=0.2). Each spelling "
             "is its own ladder entry and its own name in the rows.")] = None,
    players: Annotated[int | None, typer.Option(
        "--players", "-n", help="Players per game: 2, 3 or 4 (default 2).")] = None,
    games: Annotated[int | None, typer.Option(
        help="Games per pairing, a multiple of --players: each deal is played in every seat "
             "rotation (default 200).")] = None,
    seed: Annotated[int | None, typer.Option(
        help="Ladder seed; every pairing plays the same deals (default 0).")] = None,
    out: Annotated[Path | None, typer.Option(
        help="Ladder folder to create (default: ladders/<players>p).")] = None,
    strategy_params: Annotated[str | None, typer.Option(
        help="Tweak scripted profiles for every spelling of a name: villa.chimney=1.5,... "
             "(name@param=value on top).")] = None,
    chunk_size: Annotated[int | None, typer.Option(
        help="Games per Parquet part (default 100).")] = None,
    jobs: Annotated[int, typer.Option(help="Worker processes; -1 = every core.")] = -1,
    resume: Annotated[bool, typer.Option(
        help="Continue an interrupted ladder in --out (nothing finished is replayed); "
             "with no other settings it takes them from the ladder folder.")] = False,
    force: Annotated[bool, typer.Option(help="Overwrite the ladder in --out.")] = False,
    resamples: Annotated[int, typer.Option(
        help="Bootstrap resamples of whole deals for the 95% intervals.")] = 200,
    as_json: Annotated[bool, typer.Option(
        "--json", help="Print the ratings as one JSON object (progress goes to stderr).")] = False,
    components: ComponentsOpt = None,
) -> None:
    """Rate players against each other: play every pairing on the same deals, fit one rating
    scale, and write ladder.html (self-contained), ladder.md, ladder.json and charts/.

    \b
    Example: cdsim ladder --strategies random,greedy,villa,landscape,bread --games 400 --seed 1
             cdsim ladder --players 3 --strategies greedy,villa@chimney=1.5,bread --games 300
             cdsim ladder --strategies greedy,mcts@100,mcts@1000 --json
    \b
    2 players: every pair of strategies, each deal played both ways (seats rotated), rated by
    Bradley-Terry. 3-4 players: every combination of N distinct strategies (with fewer
    strategies than seats: every line-up holding each of them), each deal in all seat
    rotations, rated by Plackett-Luce on the finishing order. Ratings are on the Elo scale
    (400 log10 odds; +200 = 76% wins), random = 0 when it plays (else the mean); 95%
    intervals from a bootstrap over deals. Each pairing is an ordinary run folder,
    LADDER/cells/KEY (`cdsim report` works on it); all pairings' chunks share one work queue;
    Ctrl-C keeps every finished chunk and --resume continues; the rows are identical for
    any --jobs."""
    from cdsim import ladder as lad
    from cdsim.runner import check_jobs, check_out, folder_lock
    from reports.ladder import as_json as ladder_json
    from reports.ladder import format_text
    from reports.ladder import write as write_ladder

    check_jobs(jobs)
    if resamples < 10:
        raise CdsimError(f"--resamples must be at least 10, got {resamples}")
    root = out or Path("ladders") / f"{players or 2}p"
    given: dict[str, Any] = {k: v for k, v in {
        "players": players, "games": games, "seed": seed, "strategy_params": strategy_params,
        "chunk_size": chunk_size, "components": str(components) if components else None
    }.items() if v is not None}
    if resume and strategies is None and (root / lad.LADDER_MANIFEST).is_file():
        # the folder's own settings; any flag given must agree with them (checked on opening)
        spec = replace(lad.from_manifest(lad.read_ladder_manifest(root)), **given)
    else:
        if strategies is None and resume:
            raise CdsimError(f"{root}: no ladder to resume (no {lad.LADDER_MANIFEST}); give "
                             "its --out, or drop --resume and give --strategies")
        if strategies is None:
            raise CdsimError("--strategies is required: the players to rate, e.g. "
                             "--strategies random,greedy,villa")
        spec = lad.Ladder(
            players=2 if players is None else players,
            strategies=tuple(s.strip() for s in strategies.split(",") if s.strip()),
            games=200 if games is None else games, seed=0 if seed is None else seed,
            chunk_size=100 if chunk_size is None else chunk_size, strategy_params=strategy_params,
            components=str(components) if components else None)
    spec.validate()  # before the folder is made
    if resume and not check_out(root).is_dir():
        raise CdsimError(f"{root}: no ladder to resume (no {lad.LADDER_MANIFEST}); drop --resume "
                         "to start one")
    resume_hint(root, lad.LADDER_MANIFEST, f"cdsim ladder --out {root} --resume")
    start = time.perf_counter()
    stream = sys.stderr if as_json else sys.stdout
    with folder_lock(check_out(root), "ladder"), \
            _StudyProgress("ladder", f"ladder {spec.players}p", stream) as progress:
        try:
            lad.run(spec, root, jobs, "loky", resume, force, progress.chunk, progress.plan)
        except KeyboardInterrupt:
            progress.close()
            print(f"cdsim: interrupted; finished chunks are saved in {root}: continue with "
                  f"cdsim ladder --out {root} --resume", file=sys.stderr)
            sys.exit(130)
    wall = time.perf_counter() - start
    page, result = write_ladder(root, resamples=resamples)
    if as_json:
        print(json.dumps(ladder_json(result)))
        return
    pairings = len(result.manifest["pairings"])
    print(f"ladder: {pairings} pairing{'s' if pairings > 1 else ''} x {spec.games} games in "
          f"{root} ({progress.played} games played now in {wall:.1f} s)")
    print(format_text(result))
    print(f"wrote {page} (self-contained), {page.with_suffix('.md')}, {page.with_suffix('.json')} "
          f"and {page.parent / 'charts'}/")


@app.command("strategies")
def list_strategies() -> None:
    """List the built-in strategies."""
    from strategies.registry import BUILTIN, describe

    for name in BUILTIN:
        print(f"{name:<10} {describe(name)}")
    print("\nOr your own: --strategies package.module:ClassName (strategies/example.py is "
          "one to copy).")


def version_callback(value: bool) -> None:
    if value:
        print(f"cdsim {__version__}")
        raise typer.Exit()


DEBUG = {"on": False}  # set by `cdsim --debug ...`


@app.callback()
def _root(version: Annotated[bool, typer.Option(
        "--version", callback=version_callback, is_eager=True, help="Show the version.")]
        = False,
        debug: Annotated[bool, typer.Option(
            "--debug", help="On a failing strategy, also print its traceback.")] = False) -> None:
    DEBUG["on"] = debug


# Ctrl-C, SIGTERM and SIGHUP stop every command the same way: finished chunks are kept,
# the workers are stopped, one line on stderr (with the --resume command when a run, study
# or ladder folder was being written) and exit code 130 (STOPPED), whichever the signal.
STOPPED = 130
RESUME: dict[str, Any] = {}  # set by the commands that write a folder


def resume_hint(folder: Path, manifest: str, command: str) -> None:
    """The folder this command writes, its manifest's name and the command that continues
    it (printed on a stop once the manifest exists)."""
    RESUME.update(folder=folder, manifest=manifest, command=command)


def _stop_signal(signum: int, frame: object) -> None:
    raise KeyboardInterrupt  # SIGTERM, SIGHUP: the same path as Ctrl-C


def _stop_workers() -> None:
    """Shut the loky workers down now rather than when they next fall idle."""
    module = sys.modules.get("joblib.externals.loky.reusable_executor")
    executor = getattr(module, "_executor", None)
    if executor is not None:
        import contextlib

        with contextlib.suppress(Exception):  # already broken or shut down: nothing to stop
            executor.shutdown(wait=False, kill_workers=True)


def _stopped() -> None:
    _stop_workers()
    hint = ""
    if RESUME:
        folder = RESUME["folder"]
        hint = (f"; finished chunks are saved in {folder}: continue with {RESUME['command']}"
                if (folder / RESUME["manifest"]).is_file() else
                f"; nothing was saved in {folder}: run the command again")
    print(f"cdsim: interrupted{hint}", file=sys.stderr)
    sys.exit(STOPPED)


def main() -> None:
    """Entry point: user errors become one line on stderr and exit code 2; a stop (Ctrl-C,
    SIGTERM, SIGHUP) exits 130."""
    import signal

    for name in ("SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), _stop_signal)
    try:
        code = app(standalone_mode=False)
    except SystemExit as exc:  # a command's own stop message (simulate, study run, ladder)
        if exc.code == STOPPED:
            _stop_workers()
        raise
    except CdsimError as exc:
        print(f"cdsim: error: {exc}", file=sys.stderr)
        sys.exit(2)
    except StrategyFailure as exc:  # a bug in a strategy: not bad input, but no traceback
        if DEBUG["on"] and exc.detail:
            print(exc.detail.rstrip(), file=sys.stderr)
        print(f"cdsim: error: {exc}", file=sys.stderr)
        sys.exit(1)
    except typer.Exit as exc:
        sys.exit(exc.exit_code)
    except typer.TyperException as exc:  # bad flags: typer's usage errors
        if type(exc).__name__ == "NoArgsIsHelpError":  # bare `cdsim`: show the help
            print(exc.format_message())
            sys.exit(0)
        print(f"cdsim: error: {exc.format_message()} (see --help)", file=sys.stderr)
        sys.exit(2)
    except (typer.Abort, KeyboardInterrupt):
        _stopped()
    # typer returns what would be the exit code (Ctrl-C inside a command is its Exit(130))
    if code == STOPPED:
        _stopped()
    if isinstance(code, int) and code:
        sys.exit(code)
