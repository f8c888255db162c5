"""One game on the core, for any line-up: built-in players (random, the scripted
profiles, mcts, learned) choose natively on the core's state; a user's Python strategy
chooses through the Strategy protocol on its observation of the same game (what its seat
may know, ``cdsim.games.carpe_diem.rules.observation``).

The core drives every game (OpenSpiel's loop: the state says whose decision is pending and
its options, a player picks one): it lets the built-in seats play until a Python seat is
to decide, and that seat's observation and options are made from the core's state
(``_Driver``). The Python rules (``cdsim.games.carpe_diem.rules.game``) play only beside the core: in
checking mode (tests, or any game with ``check=True``) the table drives them: it holds
the line-up and asks each seat (``_Seat``) for the decision the Python rules wait for; the
seat takes it on the core, and the choice is applied to both, the two states compared
after every decision
(``cdsim.games.carpe_diem.engine.oracle``), so the Python rules are the core's oracle, decision by
decision; ``mirror=True`` keeps them beside the core for what reads them (the replay page,
``play --trace``).
"""

from __future__ import annotations

import json
import os
import signal
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from cdsim import core
from cdsim.errors import CdsimError, IllegalChoice, StrategyFailure, user_text
from cdsim.games.carpe_diem.engine.oracle import EngineMismatch, compare, compare_cards
from cdsim.games.carpe_diem.handover import core_components
from cdsim.games.carpe_diem.players.registry import Lineup
from cdsim.games.carpe_diem.rules.components import Components, ObjectiveCard, load_components
from cdsim.games.carpe_diem.rules.game import CIRCLES, DEFAULT_START_VP, GameConfig, GameState
from cdsim.games.carpe_diem.rules.observation import DistrictView, Observation, Observer, seat_stream
from cdsim.games.carpe_diem.rules.options import (
    Action,
    CircleChoice,
    Decision,
    FountainChoice,
    Move,
    Payment,
    SealBuild,
    Start,
    Take,
)
from cdsim.games.carpe_diem.rules.play import phases
from cdsim.games.carpe_diem.rules.records import SEAT_FIELDS, CardRow, GameRecord, SeatRecord
from cdsim.games.carpe_diem.rules.scoring import final_scoring
from cdsim.games.carpe_diem.rules.snapshot import Deal, Event, Snapshot
from cdsim.games.carpe_diem.rules.strategy import CHOOSE, Strategy, ask, find
from cdsim.players.sandbox import stop_stuck, user_code, user_failure, user_session


class _Seat:
    """One seat of the line-up the table holds. In lock step (``Table.play``) it takes the
    pending decision on the core (a built-in player there, or the user's strategy on its
    observation), applies it to the core, and hands the table the same option's index,
    which the table applies to the Python rules. A user strategy's decision runs in
    ``user_code`` (a time limit, no os._exit); whatever goes wrong in it (any exception,
    sys.exit, the time limit, a return that was not offered or cannot even be printed) is
    a ``StrategyFailure`` naming the seat and the decision."""

    def __init__(self, table: Table, seat: int, name: str, bot: Any,
                 strategy: Strategy | None) -> None:
        self.name, self.seat = name, seat
        self.reads_scores = bool(strategy.reads_scores) if strategy is not None else False
        self._table, self._bot, self.strategy = table, bot, strategy

    def decide(self, state: GameState, seat: int, decision: Decision, options: Sequence[Any],
               card: ObjectiveCard | None) -> int:
        table = self._table
        table.before_decision(decision, len(options))
        if self.strategy is None:
            i = int(self._bot.choose(table.core))
        else:
            i = self.ask(self.strategy, decision, state.observe(seat, decision, card), options)
        table.core.apply(i)
        return i

    def ask(self, strategy: Strategy, decision: Decision, view: Observation,
            options: Sequence[Action]) -> int:
        table = self._table
        limit, watch = table.decision_timeout, table.watch
        move = table.core.decisions + 1

        def where() -> tuple[str, str, str]:  # (who, the method, where): only when said
            method = CHOOSE.format(decision)
            return (f"strategy {self.name!r} (seat {self.seat + 1})", method,
                    f"{method}, {table.where or 'game'} decision {move}")

        if watch is not None:  # e.g. a worker's note of where it is, should it die
            who, _, at = where()
            watch(f"{who} was deciding in {at}")

        def stuck() -> None:  # it swallowed DecisionTimeout, again and again
            who, _, at = where()
            text = (f"{who} ignored the decision time limit of {limit or 0:g} s in {at} and "
                    "was stopped")
            if watch is None:
                stop_stuck(text)
            watch("!" + text)  # its last word: the driver reports the worker's death with it
            os.kill(os.getpid(), signal.SIGKILL)

        try:
            with user_code(limit, stuck):
                choice = ask(strategy, decision, view, options)
                found = find(choice, options)  # an __eq__ of the strategy's own may run
                shown = None if found is not None else user_text(choice)
        except KeyboardInterrupt:  # a stop (Ctrl-C, SIGTERM, SIGHUP); a strategy's own
            raise  # KeyboardInterrupt left user_code as RaisedInterrupt, a failure
        except BaseException as exc:
            problem, detail = user_failure(exc, limit)
            raise StrategyFailure(self.name, self.seat, where()[1], problem,
                                  detail=detail) from None
        finally:
            if watch is not None:
                watch(None)
        if found is None:
            raise IllegalChoice(self.name, self.seat, where()[1],
                                f"chose {shown}, not one of the options offered")
        return found


def _seat_seeds(seed: int, setup: int | None) -> np.random.SeedSequence:
    """The game's seed sequence (the deal's, whose children are the seats' own streams)."""
    return (np.random.SeedSequence(seed) if setup is None else
            np.random.SeedSequence(seed, spawn_key=(setup,)))


# The core's option tuples (``State.option_tuples``) as the Python option records.
_OPTION: dict[str, Callable[[Any], Action]] = {
    "start": Start,
    "move": lambda t: Move(*t),
    "take": lambda t: Take(*t),
    "seal": lambda t: SealBuild(*t),
    "fountain": lambda t: FountainChoice(tuple(t[0]), t[1]),
    "circle": lambda t: CircleChoice(*t),
    "payment": lambda t: Payment(*t),
}


class _Driver:
    """The core plays; a Python seat decides on its observation made from the core's state
    (the facts the Python rules would give it, hidden information hidden the same way),
    and its options are the core's, as the Python option records, in the core's order. Its
    stream is the one the Python rules would give it: the same strategy and seed make the
    same choices, so the rows are those of the lock-step table (tests/test_table.py)."""

    def __init__(self, table: Table, seats: Sequence[_Seat | None]) -> None:
        self.table, self.seats = table, seats
        comps = self.comps = load_components(table.components)
        n = len(seats)
        _, *seat_seqs = _seat_seeds(table.seed, table.setup).spawn(1 + n)
        self.observer = Observer(comps, [seat_stream(s) for s in seat_seqs],
                                 [s is not None and s.reads_scores for s in seats])
        deal = table.deal()
        boards = {b.id: b for b in comps.boards}
        self.places = [(boards[deal["boards"][s]],
                        tuple(comps.frame_parts[p] for p in deal["frames"][s])) for s in range(n)]
        # each seat's district view and what it was made at: (tiles built, frontier)
        self.districts: list[tuple[tuple[int, int], DistrictView]] = [
            ((0, -1), DistrictView.later(*self.places[s], ())) for s in range(n)]
        self.circles = CIRCLES[n]
        self.bots = [None if s is not None else p
                     for s, p in zip(seats, table.lineup.players, strict=True)]

    def observe(self, seat: int, decision: Decision, card: ObjectiveCard | None) -> Observation:
        core = self.table.core
        fields = core.observe()
        views = []
        for s, (_, _, (_, _, built, frontier)) in enumerate(fields[-1]):
            made, view = self.districts[s]
            if made != (built, frontier):  # a tile was built: a new view, worked out if read
                view = DistrictView.later(*self.places[s], tuple(core.built(s, 0)))
                self.districts[s] = ((built, frontier), view)
            views.append(view)
        return self.observer.observe(fields, views, self.circles, seat, decision, card)

    def play(self) -> None:
        core, comps = self.table.core, self.comps
        with user_session(self.table.decision_timeout):
            self._play(core, comps)

    def _play(self, core: Any, comps: Components) -> None:
        while True:
            core.play(self.bots)
            seat = core.current_seat()
            if seat is None:
                return
            decision: Decision = core.decision()
            make = _OPTION[decision]
            options = [make(t) for t in core.option_tuples()]
            card = comps.objectives[core.payment_card()] if decision == "payment" else None
            player = self.seats[seat]
            assert player is not None and player.strategy is not None
            core.apply(player.ask(player.strategy, decision, self.observe(seat, decision, card),
                                  options))


@dataclass
class Table:
    """One game on the core (``State``), with the Python rules beside it when a seat is a
    Python strategy or when checking. ``where`` names the game in errors."""

    components: str | None
    lineup: Lineup
    seed: int
    setup: int | None = None
    start_vp: tuple[int, ...] = ()
    events: bool = False
    check: bool = False
    where: str = ""
    mirror: bool = False  # keep the Python rules beside the core even for built-ins only
    # called before each decision the Python rules wait for (so only with them beside the
    # core), e.g. cdsim.games.carpe_diem.view.replay.Recorder.mark
    on_decision: Callable[[], None] | None = None
    # a user strategy's time limit per decision, in seconds (None or 0: none)
    decision_timeout: float | None = None
    # told where a user strategy is deciding before its code runs, and None after
    # (cdsim.batch.queue: a worker's note, read by the driver should the worker die)
    watch: Callable[[str | None], None] | None = None
    python: GameState | None = field(init=False, default=None)
    driver: _Driver | None = field(init=False, default=None)
    seats: list[_Seat] = field(init=False, default_factory=list)  # the line-up, in lock step

    def __post_init__(self) -> None:
        module = core.module()
        if module is None:
            raise CdsimError("the compiled core is not installed: run `make install`")
        n = len(self.lineup.players)
        start_vp = tuple(self.start_vp) or DEFAULT_START_VP[n]
        self.core = module.State(core_components(self.components), n, list(start_vp),
                                 self.seed, self.setup, self.check, self.events)
        if not (self.check or self.mirror or any(s is not None for s in self.lineup.strategies)):
            return
        seats = [_Seat(self, seat, name, p if s is None else None, s)
                 for seat, (name, p, s) in enumerate(zip(self.lineup.names, self.lineup.players,
                                                         self.lineup.strategies, strict=True))]
        if self.check or self.mirror:
            comps: Components = load_components(self.components)
            config, deal = GameConfig(n, start_vp, comps), self.deal()
            self.seats = seats
            self.python = GameState(config, _seat_seeds(self.seed, self.setup), deal=deal,
                                    reads_scores=[s.reads_scores for s in seats])
        else:
            self.driver = _Driver(self, [s if s.strategy is not None else None for s in seats])

    def before_decision(self, what: Decision, options: int) -> None:
        """The Python rules wait for a decision: the core must be waiting for the same
        one, with as many options (and, checking, in the same state)."""
        if self.on_decision is not None:
            self.on_decision()
        move = int(self.core.decisions) + 1
        where = f"{self.where or 'game'} decision {move}"
        if self.check and self.python is not None:
            compare(self.core.snapshot(), self.python, where)
        pending, n = self.core.decision(), int(self.core.num_options())
        if pending != what or n != options:
            raise EngineMismatch(f"{where}: the core waits for {pending} ({n} options), the "
                                 f"Python rules ask for {what} ({options} options)")

    def play(self) -> GameRecord:
        """Play to the end; the record is the core's (R10)."""
        if self.driver is not None:
            self.driver.play()
        elif self.python is None:
            self.core.play(self.lineup.players)
        else:
            self._lock_step(self.python)
            if not self.core.is_over():
                raise EngineMismatch(f"{self.where or 'game'}: the Python rules ended the game, "
                                     f"the core waits for {self.core.decision()}")
        record = self.record()
        if self.check and self.python is not None:
            compare(self.core.snapshot(), self.python, f"{self.where or 'game'} at the end")
            mine = final_scoring(self.python, self.seed, self.lineup.names)
            if mine.rows() != record.rows():
                raise EngineMismatch(f"{self.where or 'game'}: final scoring differs: core "
                                     f"{record.rows()}, python {mine.rows()}")
            compare_cards(record.cards, mine.cards, self.where or "game")
        return record

    def _lock_step(self, state: GameState) -> None:
        """The driver of the Python rules beside the core (``cdsim.games.carpe_diem.rules.play.run`` with the
        table's seats): each seat takes the pending decision on the core, and the same
        option is applied to the Python rules; a seat's failures reach us as raised."""
        state.begin(phases(state))
        while (pending := state.pending) is not None:
            seat, decision, options, card = pending
            state.apply(options[self.seats[seat].decide(state, seat, decision, options, card)])

    def record(self) -> GameRecord:
        data = json.loads(self.core.record())
        seats = tuple(SeatRecord(**{k: (self.lineup.names[s["seat"]] if k == "strategy"
                                        else s[k]) for k in SEAT_FIELDS})
                      for s in data["seats"])
        return GameRecord(self.seed, int(data["players"]), seats, bool(data["tiebreak"]),
                          tuple(CardRow(**c) for c in data["cards"]))

    def event_list(self) -> list[Event]:
        """The game's events so far (``State.events()``)."""
        events: list[Event] = json.loads(self.core.events())
        return events

    def deal(self) -> Deal:
        """Every chance outcome of the game, as the core drew it (``State.deal()``)."""
        deal: Deal = json.loads(self.core.deal())
        return deal

    def snapshot(self) -> Snapshot:
        """The core's state now (``State.snapshot()``)."""
        snap: Snapshot = json.loads(self.core.snapshot())
        return snap
