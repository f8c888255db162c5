"""Commands about one game: play, score, cards, strategies."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from cdsim.cli.app import (
    ComponentsOpt,
    DecisionTimeoutOpt,
    GameOpt,
    _parse_ints,
    app,
    complete_strategies,
    decision_timeout_given,
    refuse_decision_timeout,
    use_decision_timeout,
)
from cdsim.errors import CdsimError
from cdsim.games import counts_said

if TYPE_CHECKING:
    from cdsim.games import GameSpec


@app.command()
def play(
    players: Annotated[int, typer.Option("--players", "-n", help=f"{counts_said()} players.")] = 4,
    seed: Annotated[int, typer.Option(help="Seed: the same seed replays the same game.")] = 0,
    strategies: Annotated[str, typer.Option(
        help="Strategy per seat, comma-separated (one name fills every seat). "
             "See `cdsim strategies`; in the default game also module:Class, or "
             "path/to/file.py:Class.",
        autocompletion=complete_strategies)] = "random",
    start_vp: Annotated[str | None, typer.Option(
        help="Starting VP by seat, e.g. 8,9,10,11 (default: the rulebook's).")] = None,
    trace: Annotated[bool, typer.Option(help="Print every turn, scoring phase and the districts.")]
        = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    strategy_params: Annotated[str | None, typer.Option(
        help="Tweak built-in players' parameters: villa.chimney=1.5,bread.bread_move_cost=1 "
             "(the scripted value model's weights are listed in strategies/profiles.toml; "
             "`cdsim strategies` names the players).")] = None,
    setup: Annotated[int | None, typer.Option(
        help="Play setup N of a `cdsim simulate` run whose --seed is this seed (the deal "
             "that run's games N*players... used with --rotate-seats, game N without).")] = None,
    components: ComponentsOpt = None,
    html_file: Annotated[Path | None, typer.Option(
        "--html", help="Also write the game as one self-contained HTML page to replay "
                       "step by step in a browser.")] = None,
    decision_timeout: DecisionTimeoutOpt = None,
    game: GameOpt = None,
) -> None:
    """Play one game on the core and print its result. Any line-up of built-in players
    (mcts too), and in the default game your own Python strategies (module:Class) at the
    same table; another game seats a Python strategy in simulate, ladder and study run.

    Example: cdsim play --players 2 --strategies mcts,greedy --trace"""
    from cdsim.games import game_spec

    spec = game_spec(game)
    use_decision_timeout(decision_timeout)
    refuse_decision_timeout(spec)
    if html_file is not None:
        spec.drawn("--html")  # a game with no page: one line before anything plays
    if spec.play is None:  # the core's recorded game, drawn by the game's view
        other = OtherGame(players, seed, strategies, start_vp, trace, as_json, setup)
        _play_other(spec, other, components, html_file,
                    refused={"--strategy-params": strategy_params is not None,
                             # its play seats built-in players only (a run seats yours)
                             "--decision-timeout": decision_timeout_given()})
        return
    from cdsim.games.features import PlayRequest

    if players not in spec.player_counts:
        raise CdsimError(f"--players must be {counts_said(spec.player_counts)}, got {players}")
    if not 0 <= seed < 2**63 or (setup is not None and not 0 <= setup < 2**63):
        raise CdsimError(f"--seed and --setup must be between 0 and 2**63 - 1, got {seed} "
                         f"and {setup}")
    vp = _parse_ints(start_vp, "--start-vp") if start_vp is not None else ()
    if vp and len(vp) != players:
        raise CdsimError(f"--start-vp needs {players} values (one per seat), got {len(vp)}")
    if any(not -(2**31) < v < 2**31 for v in vp):
        raise CdsimError(f"--start-vp values must be between -2**31 and 2**31, got {start_vp}")
    path = None if components is None else str(components)
    # a bad component set is one line before anything plays (another game's names that game)
    spec.load_components(path)
    played = spec.play(PlayRequest(players, seed, setup, tuple(vp), tuple(strategies.split(",")),
                                   strategy_params, path, trace, html_file is not None))
    if html_file is not None and played.replay is not None:
        from cdsim.view.pages import replay_page, write_page

        write_page(html_file, replay_page(spec.drawn("--html").replay, played.replay, spec.title))
    if as_json:
        print(json.dumps(played.json))
        return
    for line in played.lines:
        print(line)
    if html_file is not None:
        print(f"\nreplay: {html_file} (open it in a browser)")


@dataclass(frozen=True)
class OtherGame:
    """``cdsim play``'s flags that any game honours."""

    players: int
    seed: int
    strategies: str
    start_vp: str | None
    trace: bool
    as_json: bool
    setup: int | None


def _play_other(spec: GameSpec, flags: OtherGame, components: Path | None,
                html_file: Path | None, refused: dict[str, bool]) -> None:
    """``cdsim play --game NAME`` for a game without a table of its own (``GameSpec.play``
    None): its built-in players on the core (``cdsim.games.recorded``), the final table,
    ``--trace`` as the decisions in words, ``--json``, and ``--html`` as its own replay
    page, each in its view's words (``GameSpec.view``)."""
    from cdsim.games.recorded import play_recorded

    view = spec.told()

    for flag, given in refused.items():
        if given:
            raise CdsimError(f"{flag}: {spec.name} is played by its built-in players, which "
                             "take no settings and no time limit in cdsim play; drop the flag")
    spec.check_players(flags.players)
    n = flags.players
    if not 0 <= flags.seed < 2**63 or (flags.setup is not None and not 0 <= flags.setup < 2**63):
        raise CdsimError(f"--seed and --setup must be between 0 and 2**63 - 1, got {flags.seed} "
                         f"and {flags.setup}")
    vp = (_parse_ints(flags.start_vp, "--start-vp") if flags.start_vp is not None
          else tuple(spec.start_vp(n)))  # the rulebook's
    if len(vp) != n:
        raise CdsimError(f"--start-vp needs {n} values (one per seat), got {len(vp)}")
    if any(not -(2**31) < v < 2**31 for v in vp):
        raise CdsimError(f"--start-vp values must be between -2**31 and 2**31, got {flags.start_vp}")
    names = flags.strategies.split(",")
    if len(names) not in (1, n):
        raise CdsimError(f"--strategies names {len(names)} players for {n} seats (one name "
                         "fills every seat)")
    if any(not name.strip() for name in names):
        raise CdsimError("--strategies names an empty strategy")
    players = [spec.parse_player(name, "--strategies") for name in names] * (n // len(names))
    mine = next((p for p in players if not p.builtin), None)
    if mine is not None:  # its replay records every decision's state, told here by the core
        raise CdsimError(f"--strategies: {mine.spelling!r}: cdsim play --game {spec.name} "
                         "seats built-in players only; a Python strategy plays its games in "
                         f"cdsim simulate --game {spec.name} (and ladder, study run)")
    path = None if components is None else str(components)
    played = play_recorded(spec, path, flags.seed, flags.setup,
                           [(p.base, tuple(p.settings)) for p in players], vp)
    if html_file is not None:
        from cdsim.view.pages import replay_page, write_page

        digest, default = spec.components_digest(path)
        data = view.replay_data(played, spec.title, digest, default, spec.breakdown())
        write_page(html_file, replay_page(spec.drawn("--html").replay, data, spec.title))
    if flags.as_json:
        print(json.dumps({"game": spec.name, "seed": played.seed, "setup": played.setup,
                          "players": n, "tiebreak": played.tiebreak,
                          "seats": [{"seat": s.seat + 1, "strategy": s.strategy,
                                     "start_vp": s.breakdown.get("start", 0),
                                     "final_vp": s.final_vp, "breakdown": s.breakdown,
                                     "rank": s.rank, "won": s.won} for s in played.seats]}))
        return
    if flags.trace:
        print("\n".join(view.decision_lines(played)))
    print("\n".join(view.summary_lines(played)))
    if html_file is not None:
        print(f"\nreplay: {html_file} (open it in a browser)")


@app.command()
def score(
    position: Annotated[Path, typer.Argument(help="Position TOML file (format in README).")],
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    components: ComponentsOpt = None,
    game: GameOpt = None,
) -> None:
    """Rules console: final scoring of one position, and what each listed card pays."""
    from cdsim.games import game_spec

    spec = game_spec(game)
    if spec.score is None:
        raise CdsimError(f"--game {spec.name}: {spec.title} has no rules console")
    for line in spec.score(position, None if components is None else str(components), as_json):
        print(line)


@app.command()
def cards(
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    components: ComponentsOpt = None,
    game: GameOpt = None,
) -> None:
    """List the objective and fountain cards with their stable ids (a game with such cards:
    Carpe Diem).

    Example: cdsim cards --components b05.toml"""
    from cdsim.games import game_spec

    spec = game_spec(game)
    if spec.card_list is None:
        raise CdsimError(f"--game {spec.name}: {spec.title} has no objective or fountain cards; "
                         f"cdsim components show --game {spec.name} --html FILE draws its set")
    for line in spec.card_list(None if components is None else str(components), as_json):
        print(line)


@app.command("strategies")
def list_strategies(game: GameOpt = None) -> None:
    """List the built-in strategies of a game (--game; Carpe Diem's by default).

    Example: cdsim strategies --game castles"""
    from cdsim.games import game_spec

    spec = game_spec(game)
    if spec.strategy_lines is not None:
        for line in spec.strategy_lines():
            print(line)
        return
    words = spec.player_words or {}
    for name in spec.player_names():
        print(f"{name:<17} {words.get(name, '')}".rstrip())
    print(f"\n{spec.title}'s built-in players take no @settings and no --strategy-params. "
          "A Python strategy of your own plays beside them (module:Class or "
          f"path/to/file.py:Class, its class with game = {spec.name!r} and choose(view): "
          "docs/strategies.md).")
