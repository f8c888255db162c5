"""``cdsim play`` at Carpe Diem's table (the hook ``GameSpec.play``): any line-up, built-in
players with their settings and users' Python strategies, on the core; ``--trace`` as its
events in words and its players' districts, ``--html`` as its replay's data."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cdsim.errors import CdsimError, StrategyFailure
from cdsim.games.features import PlayedGame, PlayRequest

if TYPE_CHECKING:
    from cdsim.games.carpe_diem.players.registry import PlayerSpec
    from cdsim.games.carpe_diem.rules.game import GameState


def play(request: PlayRequest) -> PlayedGame:
    """Play one game on the core and say it: the final table (after its trace, with
    ``trace``), --json's object, and the replay's data (with ``replay``)."""
    from cdsim.games.carpe_diem.engine.table import Table
    from cdsim.games.carpe_diem.players.registry import make_lineup, parse_params, weights_record
    from cdsim.games.carpe_diem.rules.game import CIRCLES
    from cdsim.games.carpe_diem.view.trace import trace as render_trace
    from cdsim.players.sandbox import decision_timeout as time_limit

    players, seed, setup, components = (request.players, request.seed, request.setup,
                                         request.components)
    specs = [_player(name) for name in request.strategies]
    weights_record(specs, components)  # weights that cannot play this component set: one line
    lineup = make_lineup(specs, players, parse_params(request.strategy_params))
    table = Table(components, lineup, seed, setup, request.start_vp,
                  events=True, mirror=request.trace or request.replay,
                  decision_timeout=time_limit() or None,
                  where=f"game seed {seed}" + (f" setup {setup}" if setup is not None else ""))
    recorder = None
    if request.replay:
        from cdsim.games.carpe_diem.view.replay import Recorder

        recorder = Recorder(table)
    try:
        record = table.play()
    except StrategyFailure as exc:
        raise exc.located(lineup.names[exc.seat], f", {table.where} decision "
                          f"{table.core.decisions + 1}") from None
    lines: list[str] = []
    if request.trace:
        lines.append("\n".join(render_trace(table.event_list(), players, table.deal()["grid"],
                                            CIRCLES[players], record)))
        if table.python is not None:
            lines += _districts(table.python)
    lines += _summary(record)
    return PlayedGame(json=_play_json(record), lines=tuple(lines),
                      replay=recorder.finish() if recorder is not None else None)


def _player(name: str) -> PlayerSpec:
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


def _districts(state: GameState) -> list[str]:
    """Each seat's district at the end, as --trace closes with it."""
    lines = []
    for p in state.players:
        lines.append(f"\nseat {p.seat + 1} district (board "
                     f"{p.district.board.id if p.district.board else '-'}, "
                     f"frame parts {', '.join(map(str, state.frames[p.seat]))}):")
        lines.append("\n".join(p.district.render()))
    return lines


def _summary(record: Any) -> list[str]:
    """The final table: each seat's VP by source, its rank and the winner."""
    from cdsim.games.names import shown_names

    lines = [f"\ngame seed {record.seed}, {record.players} players"
             + ("  (winner by scroll-track tie-break)" if record.tiebreak else ""),
             "seat strategy      start cards villas left scroll fount frame  final rank"]
    label = shown_names([s.strategy for s in record.seats])  # a strategy file: its name
    for s in record.seats:
        b = s.breakdown
        lines.append(f"{s.seat + 1:>4} {label[s.strategy]:<12} {b['start']:>6} {b['cards']:>5} "
                     f"{b['villas']:>6} {b['leftovers']:>4} {b['scroll']:>6} "
                     f"{b['fountains']:>5} {b['frame']:>5} {s.final_vp:>6} {s.rank:>4}"
                     f"{'  winner' if s.won else ''}")
    return lines


__all__ = ["play"]
