"""The train command: rebuild the learned player's weights from a seed (cdsim.train)."""

from __future__ import annotations

import json
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
from cdsim.train import LABEL_GAMES, LABEL_PLAYOUTS, Stage, TrainConfig
from cdsim.train import train as run_training
from cdsim.train.seam import SeamTrainConfig, train_game


@app.command()
def train(
    out: Annotated[str | None, typer.Option(
        help="Weights file to write (default: strategies/weights/learned.json, the "
             "learned player's built-in weights).")] = None,
    seed: Annotated[int, typer.Option(
        help="Training seed: the same seed and settings rebuild the same weights.")] = 1,
    games: Annotated[str | None, typer.Option(
        help="Games per stage at 2, 3 and 4 players (default 300,150,150; another game: "
             "games a round, 60,40,30).")] = None,
    rounds: Annotated[int | None, typer.Option(
        help="Self-play rounds after the stage of greedy games (default 2; another game: "
             "rounds of labels, the first by VP gained alone, default 3).")] = None,
    sample: Annotated[float, typer.Option(
        help="Chance that a move decision is valued (scoring and fountain decisions: "
             "3x).")] = 0.3,
    playouts: Annotated[int, typer.Option(help="Greedy playouts per option valued.")] = 4,
    explore: Annotated[float, typer.Option(
        help="Self-play: the learned player's chance of a random shortlisted option.")] = 0.05,
    ridge: Annotated[float, typer.Option(help="Ridge penalty per standardized input.")] = 1.0,
    label_games: Annotated[str, typer.Option(
        help="Then the search-label stage: games per player count (2 to 4, one number "
             "each) of the last "
             "stage's player whose move decisions mcts labels; the weights are refitted to "
             "the labels and written as version 2 (docs/strength.md). 0,0,0 = no labels "
             "(a version-1 file, fitted to greedy playouts only).")
    ] = ",".join(map(str, LABEL_GAMES)),
    label_playouts: Annotated[int | None, typer.Option(
        help=f"mcts simulations per option of a label (default {LABEL_PLAYOUTS}; another "
             "game: 24).")] = None,
    every: Annotated[int, typer.Option(
        help="Another game: a decision is labelled with chance 1 / EVERY.")] = 6,
    snapshots: Annotated[Path | None, typer.Option(
        help="Also write each stage's weights there, as stage-N.json (the learning curve: "
             "scripts/learning_curve.py).")] = None,
    jobs: Annotated[int, typer.Option(help="Worker processes; -1 = every core.")] = 2,
    quiet: Annotated[bool, typer.Option(help="No progress on stderr.")] = False,
    components: ComponentsOpt = None,
    game: GameOpt = None,
) -> None:
    """Rebuild the learned player's weights: value the options of sampled decisions by greedy
    playouts (stage 0: greedy games; each self-play round: the learned player's games with
    the weights so far) and fit its value function to them (a ridge regression per player
    count and phase); then label the player's own move decisions with mcts and refit to
    those labels. Writes a versioned weights file holding the component set's digest,
    the inputs' names, the weights, this command and its seed.

    \b
    Example: cdsim train                (the built-in weights; about 20-25 minutes on 2 cores)
             cdsim train --games 60,30,30 --rounds 1 --label-games 0,0,0 --out /tmp/quick.json
             cdsim ladder --strategies greedy,mcts,learned@weights=/tmp/quick.json
             cdsim train --game castles   (strategies/weights/castles-learned.json: the
                                           seam's learned player, labels from its mcts)"""
    check_jobs(jobs)
    spec = game_spec(game)
    if spec.playout_weights is None:  # its learned player is the seam's
        _train_seam(spec, out, seed, games,
                    SeamTrainConfig.rounds if rounds is None else rounds, every, label_playouts,
                    explore, ridge,
                    jobs, quiet, components)
        return
    config = TrainConfig(seed=seed, games=_per_count(games or "300,150,150", "--games"),
                         rounds=2 if rounds is None else rounds,
                         sample=sample, playouts=playouts, explore=explore, ridge=ridge,
                         components=str(components) if components else None,
                         label_games=_per_count(label_games, "--label-games"),
                         label_playouts=LABEL_PLAYOUTS if label_playouts is None
                         else label_playouts)
    config.validate()
    target = out_folder(out, "--out", "a file") or spec.weights_file
    if target.is_dir():
        raise CdsimError(f"--out {target} is a folder: give a file name")
    if not target.parent.is_dir():
        raise CdsimError(f"--out {target}: no such folder {target.parent}")
    if snapshots is not None:
        try:
            snapshots.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise CdsimError(f"--snapshots {snapshots}: {exc.strerror or exc}") from None
    # a bad component set is one line before anything plays (another game's names that game)
    spec.components_digest(str(components) if components else None)
    progress = Progress("training", quiet=quiet)
    progress.plan((config.rounds + 1) * sum(config.games) + sum(config.label_games), 0)

    def stage_done(stage: Stage) -> None:
        line = f"stage {stage.stage} ({stage.label}): {stage.games} games, {stage.seconds:.0f} s; "
        if stage.agreement:
            line += "correlation with the playouts' margins: " + ", ".join(
                f"{n}p {r:.2f}" for n, r in stage.agreement.items())
        else:  # the label stage
            done = json.loads(stage.text)["training"]["labels"]["decisions"]
            line += "decisions labelled: " + ", ".join(f"{n}p {k:,}" for n, k in done.items())
        if progress.bar is not None:
            progress.bar.console.print(line)
        elif not quiet:
            print(line, file=sys.stderr, flush=True)
        if snapshots is not None:
            atomic_write(snapshots / f"stage-{stage.stage}.json",
                         lambda p: p.write_text(stage.text))

    start = time.perf_counter()
    try:
        stages = run_training(config, jobs, lambda n: progress.advance(n), stage_done)
    except KeyboardInterrupt:
        progress.close()
        print(f"cdsim: interrupted; nothing was written to {target}", file=sys.stderr)
        sys.exit(STOPPED)
    finally:
        progress.close(finished=True)
    try:
        atomic_write(target, lambda p: p.write_text(stages[-1].text))
    except OSError as exc:
        raise CdsimError(f"--out {target}: {exc.strerror or exc}") from None
    print(f"wrote {target} ({stages[-1].games} training games, "
          f"{time.perf_counter() - start:.0f} s)")


def _train_seam(spec: GameSpec, out: str | None, seed: int, games: str | None, rounds: int,
                every: int, playouts: int | None, explore: float, ridge: float, jobs: int,
                quiet: bool, components: object) -> None:
    """``cdsim train --game NAME`` for a game whose learned player is the seam's
    (cdsim.train.seam): its weights file is strategies/weights/<game>-learned.json
    (strategies/weights/castles-learned.json for castles): ``GameSpec.weights_file``."""
    name = spec.name
    if components is not None:
        raise CdsimError(f"--components: {name} trains on its built-in component set")
    base = SeamTrainConfig(game=name)
    counts = _parse_ints(games, "--games") if games is not None else base.games
    config = SeamTrainConfig(game=name, seed=seed, games=tuple(counts), rounds=rounds,
                             every=every, playouts=base.playouts if playouts is None
                             else playouts, explore=explore, ridge=ridge)
    config.validate(tuple(spec.player_counts))
    target = out_folder(out, "--out", "a file") or spec.weights_file
    if target.is_dir():
        raise CdsimError(f"--out {target} is a folder: give a file name")
    if not target.parent.is_dir():
        raise CdsimError(f"--out {target}: no such folder {target.parent}")
    progress = Progress("training", quiet=quiet)
    progress.plan(config.rounds * sum(config.games), 0)

    def said(line: str) -> None:
        if progress.bar is not None:
            progress.bar.console.print(line)
        elif not quiet:
            print(line, file=sys.stderr, flush=True)

    start = time.perf_counter()
    try:
        text = train_game(spec, config, jobs if jobs > 0 else 2, progress.advance, said)
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
    print(f"wrote {target} ({config.rounds * sum(config.games)} training games, "
          f"{time.perf_counter() - start:.0f} s)")


def _per_count(text: str, flag: str) -> tuple[int, int, int]:
    """A flag's three counts, for 2, 3 and 4 players (TrainConfig.validate checks them)."""
    counts = _parse_ints(text, flag)
    if len(counts) != 3:
        raise CdsimError(f"{flag} takes three counts (2, 3 and 4 players), got {text!r}")
    return counts[0], counts[1], counts[2]
