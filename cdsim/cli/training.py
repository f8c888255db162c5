"""The train command: rebuild a game's learned player's weights from a seed, by the one
training pipeline (cdsim.train) and the game's trainer; or convert an older weights file."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Annotated

import typer

from cdsim.batch.config import check_jobs
from cdsim.batch.folder import atomic_write
from cdsim.batch.progress import Progress
from cdsim.cli.app import STOPPED, ComponentsOpt, GameOpt, _parse_ints, app, out_folder
from cdsim.errors import CdsimError
from cdsim.games import GameSpec, game_spec
from cdsim.games.training import Fitted, TrainRequest
from cdsim.train import train as run_training
from cdsim.train import trainer_for


@app.command()
def train(
    out: Annotated[str | None, typer.Option(
        help="Weights file to write (default: the game's built-in weights, "
             "strategies/weights/<game>-learned.json).")] = None,
    seed: Annotated[int, typer.Option(
        help="Training seed: the same seed and settings rebuild the same weights.")] = 1,
    games: Annotated[str | None, typer.Option(
        help="Games a round per player count (Carpe Diem: a stage at 2, 3 and 4 players, "
             "default 300,150,150; castles: 60,40,30).")] = None,
    rounds: Annotated[int | None, typer.Option(
        help="Carpe Diem: self-play rounds after the stage of greedy games (default 2); "
             "castles: rounds of labels, the first by VP gained alone (default 3).")] = None,
    sample: Annotated[float, typer.Option(
        help="Carpe Diem: chance that a move decision is valued (scoring and fountain "
             "decisions: 3x).")] = 0.3,
    playouts: Annotated[int, typer.Option(
        help="Carpe Diem: greedy playouts per option valued.")] = 4,
    explore: Annotated[float, typer.Option(
        help="Self-play: the learned player's chance of a random shortlisted option.")] = 0.05,
    ridge: Annotated[float, typer.Option(help="Ridge penalty per standardized input.")] = 1.0,
    label_games: Annotated[str | None, typer.Option(
        help="Carpe Diem: then the search-label stage, games per player count (2 to 4, one "
             "number each, default 300,300,450) of the last stage's player whose move "
             "decisions mcts labels; the weights are refitted to the labels with the "
             "placement inputs (docs/strength.md). 0,0,0 = no labels (fitted to greedy "
             "playouts only).")] = None,
    label_playouts: Annotated[int | None, typer.Option(
        help="mcts simulations per option of a label (Carpe Diem default 60; castles "
             "24).")] = None,
    every: Annotated[int, typer.Option(
        help="Castles: a decision is labelled with chance 1 / EVERY.")] = 6,
    snapshots: Annotated[Path | None, typer.Option(
        help="Also write each round's weights there, as stage-N.json (the learning curve: "
             "scripts/learning_curve.py).")] = None,
    convert: Annotated[Path | None, typer.Option(
        help="Train nothing: rewrite an older weights file of the game (Carpe Diem's "
             "\"cdsim-learned-weights\") in the one format, the same numbers, to --out.")
    ] = None,
    jobs: Annotated[int, typer.Option(help="Worker processes; -1 = every core.")] = 2,
    quiet: Annotated[bool, typer.Option(help="No progress on stderr.")] = False,
    components: ComponentsOpt = None,
    game: GameOpt = None,
) -> None:
    """Rebuild a game's learned player's weights, by one pipeline for every game: rounds of
    the game's labels (played on workers with the weights of the round before), each
    fitted (a ridge regression per player count and phase) and written as a weights file
    (format "cdsim-weights", the game's name, the component set's digest, the inputs'
    names, the weights, this command and its seed).

    \b
    Carpe Diem: a stage of greedy games, then self-play rounds, their decisions' options
    valued by greedy playouts; then mcts labels the player's own move decisions and the
    weights are refitted to them. Castles: rounds of mcts labels of its learned player's
    own decisions.

    \b
    Example: cdsim train                (the built-in weights,
                                         strategies/weights/carpe_diem-learned.json;
                                         about 100 minutes on 2 cores)
             cdsim train --games 60,30,30 --rounds 1 --label-games 0,0,0 --out /tmp/quick.json
             cdsim ladder --strategies greedy,mcts,learned@weights=/tmp/quick.json
             cdsim train --game castles   (strategies/weights/castles-learned.json)
             cdsim train --convert old.json --out new.json"""
    check_jobs(jobs)
    spec = game_spec(game)
    if convert is not None:
        _convert(spec, convert, out)
        return
    request = TrainRequest(
        seed=seed, games=None if games is None else _parse_ints(games, "--games"),
        rounds=rounds, sample=sample, playouts=playouts, explore=explore, ridge=ridge,
        label_games=None if label_games is None else _parse_ints(label_games, "--label-games"),
        label_playouts=label_playouts, every=every,
        components=str(components) if components else None)
    trainer = trainer_for(spec, request)  # a bad flag: one line before the file is checked
    target = _target(out, spec)
    if snapshots is not None:
        try:
            snapshots.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise CdsimError(f"--snapshots {snapshots}: {exc.strerror or exc}") from None
    progress = Progress("training", quiet=quiet)
    planned = trainer.planned()
    progress.plan(planned, 0)

    def round_done(index: int, fitted: Fitted, text: str) -> None:
        if progress.bar is not None:
            progress.bar.console.print(fitted.line)
        elif not quiet:
            print(fitted.line, file=sys.stderr, flush=True)
        if snapshots is not None:
            atomic_write(snapshots / f"stage-{index}.json", lambda p: p.write_text(text))

    start = time.perf_counter()
    try:
        text = run_training(trainer, jobs, progress.advance, round_done)
    except KeyboardInterrupt:
        progress.close()
        print(f"cdsim: interrupted; nothing was written to {target}", file=sys.stderr)
        sys.exit(STOPPED)
    finally:
        progress.close(finished=True)
    try:
        atomic_write(target, lambda p: p.write_text(text))
    except OSError as exc:
        raise CdsimError(f"--out {target}: {exc.strerror or exc}") from None
    print(f"wrote {target} ({planned} training games, {time.perf_counter() - start:.0f} s)")


def _target(out: str | None, spec: GameSpec) -> Path:
    """The weights file to write: --out, or the game's built-in one."""
    target = out_folder(out, "--out", "a file") or spec.weights_file
    if target.is_dir():
        raise CdsimError(f"--out {target} is a folder: give a file name")
    if not target.parent.is_dir():
        raise CdsimError(f"--out {target}: no such folder {target.parent}")
    return target


def _convert(spec: GameSpec, path: Path, out: str | None) -> None:
    """``--convert FILE --out NEW``: an older weights file rewritten in the one format."""
    if spec.training is None or spec.training.convert is None:
        raise CdsimError(f"--convert: {spec.name}'s weights have had one format only")
    if out is None:
        raise CdsimError("--convert: give --out NEW.json (the converted file is not written "
                         "over the built-in weights)")
    target = _target(out, spec)
    text = spec.training.convert(path)
    try:
        atomic_write(target, lambda p: p.write_text(text))
    except OSError as exc:
        raise CdsimError(f"--out {target}: {exc.strerror or exc}") from None
    print(f"wrote {target} (converted from {path}; the same weights)")
