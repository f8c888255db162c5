"""The ladder command: every pairing on the same deals, ratings with intervals."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Annotated

import typer

from cdsim.batch.progress import StudyProgress
from cdsim.cli.app import (
    ComponentsOpt,
    DecisionTimeoutOpt,
    GameOpt,
    app,
    complete_strategies,
    out_folder,
    refuse_decision_timeout,
    resume_hint,
    use_decision_timeout,
)
from cdsim.errors import CdsimError


@app.command()
def ladder(
    strategies: Annotated[str | None, typer.Option(
        help="The players to rate, comma-separated, at least 2: built-in names (see `cdsim "
             "strategies`), module:Class, path/to/file.py:Class, or a built-in at another "
             "setting: name@N sets its budget (mcts@100 = mcts with 100 playouts), "
             "name@param=value any parameter (villa@chimney=1.5; chain them: "
             "villa@chimney=1.5@open_edge=0.2). Each spelling is its own ladder entry and its "
             "own name in the rows.", autocompletion=complete_strategies)] = None,
    game: GameOpt = None,
    players: Annotated[int | None, typer.Option(
        "--players", "-n", help="Players per game: one of the game's counts (default: its "
        "fewest, 2 for Carpe Diem).")] = None,
    games: Annotated[int | None, typer.Option(
        help="Games per pairing, a multiple of --players: each deal is played in every seat "
             "rotation (default 200).")] = None,
    seed: Annotated[int | None, typer.Option(
        help="Ladder seed; every pairing plays the same deals (default 0).")] = None,
    out: Annotated[str | None, typer.Option(
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
        help="Bootstrap resamples of whole deals for the 95% intervals (10 to 10,000).")]
        = 200,
    as_json: Annotated[bool, typer.Option(
        "--json", help="Print the ratings as one JSON object (progress goes to stderr).")] = False,
    quiet: Annotated[bool, typer.Option(
        "--quiet", "-q", help="No progress (it goes to stderr: a live bar on a terminal, "
        "else a line every few seconds).")] = False,
    components: ComponentsOpt = None,
    decision_timeout: DecisionTimeoutOpt = None,
) -> None:
    """Rate players against each other: play every pairing on the same deals, fit one rating
    scale, and write ladder.html (self-contained), ladder.md, ladder.json and charts/.

    \b
    Example: cdsim ladder --strategies random,greedy,villa,landscape,bread --games 400 --seed 1
             cdsim ladder --players 3 --strategies greedy,villa@chimney=1.5,bread --games 300
             cdsim ladder --strategies greedy,mcts@100,mcts@1000 --json
             cdsim ladder --game castles --strategies random,greedy,castle-monastery
    \b
    2 players: every pair of strategies, each deal played both ways (seats rotated), rated by
    Bradley-Terry. More players: every combination of N distinct strategies (with fewer
    strategies than seats: every line-up holding each of them), each deal in all seat
    rotations, rated by Plackett-Luce on the finishing order. Ratings are on the Elo scale
    (400 log10 odds; +200 = 76% wins), random = 0 when it plays (else the mean); 95%
    intervals from a bootstrap over deals. Each pairing is an ordinary run folder,
    LADDER/cells/KEY (`cdsim report` works on it); all pairings' chunks share one work queue;
    Ctrl-C keeps every finished chunk and --resume continues; the rows are identical for
    any --jobs."""
    from cdsim import ladder as lad
    from cdsim.analysis.ratings import check_resamples
    from cdsim.batch.config import check_jobs
    from cdsim.batch.folder import RunFolder, check_out
    from cdsim.games import game_spec
    from reports.ladder import as_json as ladder_json
    from reports.ladder import format_text
    from reports.ladder import write as write_ladder

    check_jobs(jobs)
    use_decision_timeout(decision_timeout)  # every pairing's run records it
    check_resamples(resamples)  # before any game is played
    chosen = game_spec(game)
    fewest = min(chosen.player_counts)  # the default count, the game's fewest
    prefix = chosen.said("{name}-")  # none for the default game, whose folders came first
    root = out_folder(out) or Path("ladders") / f"{prefix}{players or fewest}p"
    given: dict[str, object] = {k: v for k, v in {
        "game": game, "players": players, "games": games, "seed": seed, "strategy_params": strategy_params,
        "chunk_size": chunk_size, "components": str(components) if components else None
    }.items() if v is not None}
    if resume and strategies is None and (root / lad.LADDER_MANIFEST).is_file():
        # the folder's own settings; any flag given must agree with them (checked on opening)
        spec = lad.Ladder.from_flags(
            lad.read_ladder_manifest(root).ladder.record() | given)
    else:
        if strategies is None and resume:
            raise CdsimError(f"{root}: no ladder to resume (no {lad.LADDER_MANIFEST}); give "
                             "its --out, or drop --resume and give --strategies")
        if strategies is None:
            raise CdsimError("--strategies is required: the players to rate, e.g. "
                             "--strategies random,greedy,villa")
        spec = lad.Ladder.from_flags({"players": fewest, "games": 200, "seed": 0, "chunk_size": 100}
                                     | given | {"strategies": strategies})
    refuse_decision_timeout(spec.spec)
    if resume and not check_out(root).is_dir():
        raise CdsimError(f"{root}: no ladder to resume (no {lad.LADDER_MANIFEST}); drop --resume "
                         "to start one")
    resume_hint(root, lad.LADDER_MANIFEST, f"cdsim ladder --out {root} --resume")
    start = time.perf_counter()
    with RunFolder(root, lad.LADDER).lock(), \
            StudyProgress("ladder", f"ladder {spec.players}p", quiet=quiet) as progress:
        # a stop: app.main names the folder and the --resume command (resume_hint above)
        lad.run(spec, root, jobs, "loky", resume, force, progress.chunk, progress.plan)
    wall = time.perf_counter() - start
    page, result = write_ladder(root, resamples=resamples)
    if as_json:
        print(json.dumps(ladder_json(result)))
        return
    pairings = len(result.manifest.pairings)
    print(f"ladder: {pairings} pairing{'s' if pairings > 1 else ''} x {spec.games} games in "
          f"{root} ({progress.played} games played now in {wall:.1f} s)")
    print(format_text(result))
    print(f"wrote {page} (self-contained), {page.with_suffix('.md')}, {page.with_suffix('.json')} "
          f"and {page.parent / 'charts'}/")
