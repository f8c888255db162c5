"""The ``cdsim`` command line (typer). Every user error ends in one line and exit code 2."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from cdsim import __version__
from cdsim.components import HAVE_KEYS, REWARD_KEYS, Components, load_components
from cdsim.errors import CdsimError
from cdsim.kinds import FEATURE_NAMES, GOOD_NAMES

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


def _components(path: Path | None) -> Components:
    return load_components(path)


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
             "(fields of strategies/value.py Params).")] = None,
    components: ComponentsOpt = None,
) -> None:
    """Play one game and print its result."""
    from cdsim.game import GameConfig, play_game
    from strategies.registry import make_lineup, parse_params

    config = GameConfig(players, _parse_ints(start_vp, "--start-vp") if start_vp else (),
                        _components(components))
    lineup = make_lineup(strategies.split(","), players, parse_params(strategy_params))
    if seed < 0:
        raise CdsimError(f"--seed must be >= 0, got {seed}")
    lines: list[str] = []
    record = play_game(config, lineup, seed, trace=lines.append if trace else None)
    if as_json:
        print(json.dumps(_play_json(record)))
        return
    if trace:
        print("\n".join(lines))
        _print_districts(config, lineup, seed)
    _print_summary(record)


def _play_json(record: Any) -> dict[str, Any]:
    return {"seed": record.seed, "players": record.players, "seats": [
        {"seat": s.seat, "strategy": s.strategy, "start_vp": s.start_vp, "final_vp": s.final_vp,
         "breakdown": s.breakdown, "scroll": s.scroll, "rank": s.rank, "won": s.won}
        for s in record.seats]}


def _print_districts(config: Any, lineup: Any, seed: int) -> None:
    from cdsim.game import GameState, run_game

    state = GameState(config, lineup, seed)
    run_game(state)
    for p in state.players:
        print(f"\nseat {p.seat} district (board {p.district.board.id if p.district.board else '-'}, "
              f"frame parts {', '.join(map(str, state.frames[p.seat]))}):")
        print("\n".join(p.district.render()))


def _print_summary(record: Any) -> None:
    print(f"\ngame seed {record.seed}, {record.players} players"
          + ("  (winner by scroll-track tie-break)" if record.tiebreak else ""))
    head = "seat strategy      start cards villas left scroll fount frame  final rank"
    print(head)
    for s in record.seats:
        b = s.breakdown
        print(f"{s.seat:>4} {s.strategy:<12} {b['start']:>6} {b['cards']:>5} {b['villas']:>6} "
              f"{b['leftovers']:>4} {b['scroll']:>6} {b['fountains']:>5} {b['frame']:>5} "
              f"{s.final_vp:>6} {s.rank:>4}{'  winner' if s.won else ''}")


@app.command()
def score(
    position: Annotated[Path, typer.Argument(help="Position TOML file (format in README).")],
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    components: ComponentsOpt = None,
) -> None:
    """Rules console: final scoring of one position, and what each listed card pays."""
    from cdsim.position import load_position, score_position

    comps = _components(components)
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
    comps = _components(components)
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


@app.command("strategies")
def list_strategies() -> None:
    """List the built-in strategies."""
    from strategies.registry import BUILTIN, describe

    for name in BUILTIN:
        print(f"{name:<10} {describe(name)}")


def version_callback(value: bool) -> None:
    if value:
        print(f"cdsim {__version__}")
        raise typer.Exit()


@app.callback()
def _root(version: Annotated[bool, typer.Option(
        "--version", callback=version_callback, is_eager=True, help="Show the version.")]
        = False) -> None:
    pass


def main() -> None:
    """Entry point: user errors become one line on stderr and exit code 2."""
    try:
        app(standalone_mode=False)
    except CdsimError as exc:
        print(f"cdsim: error: {exc}", file=sys.stderr)
        sys.exit(2)
    except typer.Exit as exc:
        sys.exit(exc.exit_code)
    except typer.TyperException as exc:  # bad flags: typer's usage errors
        if type(exc).__name__ == "NoArgsIsHelpError":  # bare `cdsim`: show the help
            print(exc.format_message())
            sys.exit(0)
        print(f"cdsim: error: {exc.format_message()} (see --help)", file=sys.stderr)
        sys.exit(2)
    except (typer.Abort, KeyboardInterrupt):
        print("cdsim: interrupted", file=sys.stderr)
        sys.exit(130)
