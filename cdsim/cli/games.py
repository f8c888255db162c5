"""Commands about one game: play, score, cards, strategies."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from cdsim.cli.app import (
    ComponentsOpt,
    DecisionTimeoutOpt,
    GameOpt,
    _parse_ints,
    app,
    complete_strategies,
    refuse_decision_timeout,
    use_decision_timeout,
)
from cdsim.errors import CdsimError, StrategyFailure
from cdsim.games import counts_said
from cdsim.games.carpe_diem.rules.components import HAVE_KEYS, REWARD_KEYS, load_components
from cdsim.games.carpe_diem.rules.kinds import FEATURE_NAMES, GOOD_NAMES

if TYPE_CHECKING:
    from cdsim.games import GameSpec
    from cdsim.games.carpe_diem.rules.game import GameState


@app.command()
def play(
    players: Annotated[int, typer.Option("--players", "-n", help=f"{counts_said()} players.")] = 4,
    seed: Annotated[int, typer.Option(help="Seed: the same seed replays the same game.")] = 0,
    strategies: Annotated[str, typer.Option(
        help="Strategy per seat, comma-separated (one name fills every seat). "
             "See `cdsim strategies`; or module:Class, or path/to/file.py:Class.",
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
    """Play one game on the core and print its result. Any line-up: built-in players
    (mcts too) and your own Python strategies (module:Class) at one table.

    Example: cdsim play --players 2 --strategies mcts,greedy --trace"""
    from cdsim.games import game_spec

    spec = game_spec(game)
    use_decision_timeout(decision_timeout)
    refuse_decision_timeout(spec)
    if not spec.default:
        other = OtherGame(players, seed, strategies, start_vp, trace, as_json, setup)
        _play_other(spec, other, components, html_file,
                    refused={"--strategy-params": strategy_params is not None})
        return
    from cdsim.games.carpe_diem.engine.table import Table
    from cdsim.games.carpe_diem.players.registry import make_lineup, parse_params, weights_record
    from cdsim.games.carpe_diem.rules.game import CIRCLES
    from cdsim.games.carpe_diem.view.trace import trace as render_trace
    from cdsim.players.sandbox import decision_timeout as time_limit

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
    # a bad component set is one line before anything plays (another game's names that game)
    spec.load_components(None if components is None else str(components))
    specs = [_player(name) for name in strategies.split(",")]
    weights_record(specs, components)  # weights that cannot play this component set: one line
    lineup = make_lineup(specs, players, parse_params(strategy_params))
    table = Table(None if components is None else str(components), lineup, seed, setup, vp,
                  events=True, mirror=trace or html_file is not None,
                  decision_timeout=time_limit() or None,
                  where=f"game seed {seed}" + (f" setup {setup}" if setup is not None else ""))
    recorder = None
    if html_file is not None:
        from cdsim.games.carpe_diem.view.replay import Recorder

        recorder = Recorder(table)
    try:
        record = table.play()
    except StrategyFailure as exc:
        raise exc.located(lineup.names[exc.seat], f", {table.where} decision "
                          f"{table.core.decisions + 1}") from None
    if html_file is not None and recorder is not None:
        from cdsim.view.pages import replay_page, write_page

        write_page(html_file, replay_page(recorder.finish()))
    if as_json:
        print(json.dumps(_play_json(record)))
        return
    if trace:
        print("\n".join(render_trace(table.event_list(), players, table.deal()["grid"],
                                     CIRCLES[players], record)))
        if table.python is not None:
            _print_districts(table.python)
    _print_summary(record)
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
    """``cdsim play --game NAME`` for a game other than Carpe Diem: its built-in players on
    the core (``cdsim.engine.recorded``), the final table, ``--trace`` as the decisions in
    words, ``--json``, and ``--html`` as its own replay page."""
    from cdsim.engine.recorded import play_recorded
    from cdsim.view.games import view_of

    view = view_of(spec.name)

    for flag, given in refused.items():
        if given:
            raise CdsimError(f"{flag}: {spec.name} is played by its built-in players, which "
                             "take no settings; drop the flag")
    spec.check_players(flags.players)
    n = flags.players
    if not 0 <= flags.seed < 2**63 or (flags.setup is not None and not 0 <= flags.setup < 2**63):
        raise CdsimError(f"--seed and --setup must be between 0 and 2**63 - 1, got {flags.seed} "
                         f"and {flags.setup}")
    vp = _parse_ints(flags.start_vp, "--start-vp") if flags.start_vp is not None else (0,) * n
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
    path = None if components is None else str(components)
    played = play_recorded(spec, path, flags.seed, flags.setup,
                           [(p.base, tuple(p.settings)) for p in players], vp)
    if html_file is not None:
        from cdsim.view.pages import write_page

        digest, default = spec.components_digest(path)
        write_page(html_file, view.page(view.replay_data(played, spec.title, digest, default,
                                                         spec.breakdown())))
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


def _player(name: str) -> Any:
    """A --strategies name, parsed once (``PlayerSpec``), or one line naming the flag."""
    from cdsim.games.carpe_diem.players.registry import PlayerSpec

    if not name.strip():
        raise CdsimError("--strategies names an empty strategy")
    try:
        return PlayerSpec.parse(name)
    except CdsimError as exc:
        raise CdsimError(f"--strategies: {exc}") from None


def _play_json(record: Any) -> dict[str, object]:
    """``play --json``: seats counted from 1, as everywhere people read them; ``tiebreak``
    says whether R10.6 decided the winner, ``stack`` (0 = bottom) is the seat's height on
    its scroll space, the tie-break's second key."""
    return {"seed": record.seed, "players": record.players, "tiebreak": bool(record.tiebreak),
            "seats": [{"seat": s.seat + 1, "strategy": s.strategy, "start_vp": s.start_vp,
                       "final_vp": s.final_vp, "breakdown": s.breakdown, "scroll": s.scroll,
                       "stack": s.stack, "rank": s.rank, "won": s.won}
                      for s in record.seats]}


def _print_districts(state: GameState) -> None:
    for p in state.players:
        print(f"\nseat {p.seat + 1} district (board {p.district.board.id if p.district.board else '-'}, "
              f"frame parts {', '.join(map(str, state.frames[p.seat]))}):")
        print("\n".join(p.district.render()))


def _print_summary(record: Any) -> None:
    from cdsim.games.names import shown_names

    print(f"\ngame seed {record.seed}, {record.players} players"
          + ("  (winner by scroll-track tie-break)" if record.tiebreak else ""))
    head = "seat strategy      start cards villas left scroll fount frame  final rank"
    print(head)
    label = shown_names([s.strategy for s in record.seats])  # a strategy file: its name
    for s in record.seats:
        b = s.breakdown
        print(f"{s.seat + 1:>4} {label[s.strategy]:<12} {b['start']:>6} {b['cards']:>5} {b['villas']:>6} "
              f"{b['leftovers']:>4} {b['scroll']:>6} {b['fountains']:>5} {b['frame']:>5} "
              f"{s.final_vp:>6} {s.rank:>4}{'  winner' if s.won else ''}")



@app.command()
def score(
    position: Annotated[Path, typer.Argument(help="Position TOML file (format in README).")],
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    components: ComponentsOpt = None,
) -> None:
    """Rules console: final scoring of one position, and what each listed card pays."""
    from cdsim.games.carpe_diem.rules.position import load_position, score_position

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
    game: GameOpt = None,
) -> None:
    """List the objective and fountain cards with their stable ids (a game with such cards:
    Carpe Diem).

    Example: cdsim cards --components b05.toml"""
    from cdsim.games import game_spec

    spec = game_spec(game)
    if spec.cards is None:
        raise CdsimError(f"--game {spec.name}: {spec.title} has no objective or fountain cards; "
                         f"cdsim components show --game {spec.name} --html FILE draws its set")
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



@app.command("strategies")
def list_strategies(game: GameOpt = None) -> None:
    """List the built-in strategies of a game (--game; Carpe Diem's by default).

    Example: cdsim strategies --game castles"""
    from cdsim.games import game_spec

    spec = game_spec(game)
    if spec.player_words is not None:
        for name in spec.player_names():
            print(f"{name:<17} {spec.player_words.get(name, '')}".rstrip())
        print(f"\n{spec.title} is played by its built-in players only: they take no "
              "@settings and no --strategy-params.")
        return
    from cdsim.games.carpe_diem.players.profiles import core_profiles
    from cdsim.games.carpe_diem.players.registry import BUILTIN, CORE_ONLY, describe

    core_profiles()  # the profiles file as the core would play it: a faulty table is refused
    for name in BUILTIN:
        player = CORE_ONLY.get(name)
        if player is None:
            print(f"{name:<10} {describe(name)}")
            continue
        print(f"{name:<10} {player.summary}")  # then its settings, as the core declares them
        for setting, text in player.helps.items():
            print(f"{'':<12}{name}.{setting} ({player.params[setting]}): {text}")
    print("\nOr your own: --strategies path/to/file.py:ClassName from any folder, or "
          "package.module:ClassName from its folder (strategies/example.py is one to copy).")
