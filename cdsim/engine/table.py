"""One game on the core, for any line-up: built-in players (random, the scripted
profiles, mcts) choose natively on the core's state; a user's Python strategy chooses
through the Strategy protocol on a Python view of the same game.

The Python view is the Python rules (``cdsim.game``) played in lock step with the core:
they are built from the core's deal (``State.deal()``), every decision of every seat is
applied to both, and the rows come from the core. In checking mode (tests, or any game
with ``check=True``) the two states are compared after every decision
(``cdsim.engine.oracle``), so the Python rules are the core's oracle, decision by
decision. A line-up of built-in players only never touches the Python rules unless
checking: the core plays it alone.
"""

from __future__ import annotations

import json
import os
import signal
import threading
import traceback
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, NoReturn, TypeVar

import numpy as np

from cdsim import core
from cdsim.components import Components, load_components
from cdsim.engine.oracle import EngineMismatch, compare
from cdsim.errors import CdsimError, IllegalChoice, StrategyFailure, user_text
from cdsim.game import DEFAULT_START_VP, GameConfig, GameState, run_game
from cdsim.players import PlayerView, Strategy
from cdsim.records import SEAT_FIELDS, GameRecord, SeatRecord
from cdsim.scoring import final_scoring

T = TypeVar("T")


# A user strategy's time limit per decision (also its import and construction), in
# seconds; 0: none. A command's --decision-timeout sets it for the process (each run
# records it in its manifest: RunConfig.decision_timeout); CDSIM_DECISION_TIMEOUT too.
DEFAULT_DECISION_TIMEOUT = 10.0
MAX_DECISION_TIMEOUT = 86_400.0
_TIMEOUT: dict[str, float] = {}


def decision_timeout() -> float:
    """This process's time limit for a user strategy's decision (see set_decision_timeout)."""
    if "seconds" in _TIMEOUT:
        return _TIMEOUT["seconds"]
    text = os.environ.get("CDSIM_DECISION_TIMEOUT", "").strip()
    if not text:
        return DEFAULT_DECISION_TIMEOUT
    try:
        return float(text)
    except ValueError:
        return float("nan")  # refused, with the variable named, by check_decision_timeout


def check_decision_timeout(seconds: float, flag: str = "--decision-timeout") -> float:
    """A time limit a run can hold: 0 (none) up to a day, or one error line."""
    if not 0 <= seconds <= MAX_DECISION_TIMEOUT:  # nan fails too
        raise CdsimError(f"{flag} (or CDSIM_DECISION_TIMEOUT) must be a number of seconds "
                         f"between 0 (no limit) and {MAX_DECISION_TIMEOUT:,.0f}, got "
                         f"{str(seconds)[:40]}")
    return seconds


def set_decision_timeout(seconds: float | None) -> None:
    """Set this process's time limit (None: back to CDSIM_DECISION_TIMEOUT or the default)."""
    if seconds is None:
        _TIMEOUT.pop("seconds", None)
    else:
        _TIMEOUT["seconds"] = check_decision_timeout(seconds)


def _index(choice: object, options: Sequence[object]) -> int | None:
    """Where ``choice`` is among ``options``: the same object first, then an equal one of
    the same type (as the Python rules accept it); None if it was not offered."""
    for i, o in enumerate(options):
        if o is choice:
            return i
    for i, o in enumerate(options):
        if o == choice and type(o) is type(choice):
            return i
    return None


class DecisionTimeout(BaseException):
    """Raised inside a strategy's code when its decision outlasts the time limit (a
    BaseException, so the strategy's own ``except Exception`` does not swallow it)."""


class ExitCalled(BaseException):
    """A strategy called ``os._exit`` (it is replaced while a strategy's code runs, so a
    worker or ``cdsim play`` does not vanish with exit code 0)."""

    def __init__(self, code: object) -> None:
        super().__init__(code)
        self.code = code


_REAL_EXIT = os._exit
# A strategy that swallows DecisionTimeout gets it again every second; after this many it is
# stopped the hard way (``user_code``'s ``stuck``).
GRACE_ALARMS = 3
_ALARM: dict[str, Any] = {}


def _refuse_exit(status: int = 0) -> NoReturn:
    raise ExitCalled(status)


def _on_alarm(signum: int, frame: object) -> None:
    _ALARM["fired"] = _ALARM.get("fired", 0) + 1
    if _ALARM["fired"] > GRACE_ALARMS:
        _ALARM["stuck"]()
    raise DecisionTimeout


def _stop_stuck(text: str) -> NoReturn:
    """The last resort for a strategy that ignores its time limit: one line, exit code 1
    (what finished is already on disk), or in a worker with a note for the driver
    (``note``), a kill the driver reports."""
    import sys

    sys.stderr.write(f"cdsim: error: {text}\n")
    sys.stderr.flush()
    _REAL_EXIT(1)


@contextmanager
def user_code(limit: float | None = None,
              stuck: Callable[[], None] | None = None) -> Iterator[None]:
    """Run a user's strategy code (import, construction, a decision): ``os._exit`` raises
    ``ExitCalled`` instead of ending the process, and after ``limit`` seconds (None or 0:
    no limit) ``DecisionTimeout`` is raised in it, again every second should it catch it,
    and at the fourth time ``stuck()`` ends the process (by default with one line). The
    alarm is SIGALRM: on the main thread only, where cdsim plays; elsewhere no limit."""
    alarm = bool(limit) and hasattr(signal, "setitimer") and \
        threading.current_thread() is threading.main_thread()
    old_handler: Any = None
    if alarm:
        _ALARM.update(fired=0, stuck=stuck or (lambda: _stop_stuck(
            f"a Python strategy ignored its time limit of {limit:g} s (--decision-timeout) "
            "and was stopped")))
        old_handler = signal.signal(signal.SIGALRM, _on_alarm)
        signal.setitimer(signal.ITIMER_REAL, float(limit or 0), 1.0)
    os._exit = _refuse_exit
    try:
        yield
    finally:
        if alarm:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, old_handler)
        os._exit = _REAL_EXIT


def user_failure(exc: BaseException, limit: float | None = None) -> tuple[str, str]:
    """(what a strategy's code did, its traceback) for an exception out of ``user_code``."""
    if isinstance(exc, DecisionTimeout):
        return (f"took longer than the decision time limit of {limit or 0:g} s "
                "(--decision-timeout or CDSIM_DECISION_TIMEOUT sets it)", "")
    if isinstance(exc, ExitCalled):
        return f"called os._exit({user_text(exc.code)})", ""
    if isinstance(exc, SystemExit):
        return f"called sys.exit({user_text(exc.code)})", traceback.format_exc()
    return (f"raised {type(exc).__name__}: {user_text(exc, str)}".rstrip(": "),
            traceback.format_exc())


class _Seat:
    """The strategy the Python rules ask for one seat. It takes the decision on the core
    (a built-in player there, or the user's strategy on the Python view), applies it to
    the core, and hands the Python rules the same option. A user strategy's decision runs
    in ``user_code`` (a time limit, no os._exit); whatever goes wrong in it (any
    exception, sys.exit, the time limit, a return that was not offered or cannot even be
    printed) is a ``StrategyFailure`` naming the seat and the decision."""

    def __init__(self, table: Table, seat: int, name: str, bot: Any,
                 strategy: Strategy | None) -> None:
        self.name, self.seat = name, seat
        self.reads_scores = bool(strategy.reads_scores) if strategy is not None else False
        self._table, self._bot, self._strategy = table, bot, strategy

    def _decide(self, what: str, view: PlayerView, options: Sequence[T],
                ask: Callable[[Strategy], T]) -> T:
        table = self._table
        table.before_decision(what, len(options))
        if self._strategy is None:
            i = int(self._bot.choose(table.core))
        else:
            i = self._ask(what, options, ask, self._strategy)
        table.core.apply(i)
        return options[i]

    def _ask(self, what: str, options: Sequence[T], ask: Callable[[Strategy], T],
             strategy: Strategy) -> int:
        table, method = self._table, f"choose_{what}"
        limit, watch = table.decision_timeout, table.watch
        who = f"strategy {self.name!r} (seat {self.seat + 1})"
        at = f"{method}, {table.where or 'game'} decision {table.core.decisions + 1}"
        if watch is not None:  # e.g. a worker's note of where it is, should it die
            watch(f"{who} was deciding in {at}")

        def stuck() -> None:  # it swallowed DecisionTimeout, again and again
            text = (f"{who} ignored the decision time limit of {limit or 0:g} s in {at} and "
                    "was stopped")
            if watch is None:
                _stop_stuck(text)
            watch("!" + text)  # its last word: the driver reports the worker's death with it
            os.kill(os.getpid(), signal.SIGKILL)

        try:
            with user_code(limit, stuck):
                choice = ask(strategy)
                found = _index(choice, options)  # an __eq__ of the strategy's own may run
                shown = None if found is not None else user_text(choice)
        except KeyboardInterrupt:
            raise
        except BaseException as exc:
            problem, detail = user_failure(exc, limit)
            raise StrategyFailure(self.name, self.seat, method, problem,
                                  detail=detail) from None
        finally:
            if watch is not None:
                watch(None)
        if found is None:
            raise IllegalChoice(self.name, self.seat, method,
                                f"chose {shown}, not one of the options offered")
        return found

    def choose_start(self, view: PlayerView, options: Sequence[int]) -> int:
        return self._decide("start", view, options, lambda s: s.choose_start(view, options))

    def choose_move(self, view: PlayerView, options: Sequence[Any]) -> Any:
        return self._decide("move", view, options, lambda s: s.choose_move(view, options))

    def choose_take(self, view: PlayerView, options: Sequence[Any]) -> Any:
        return self._decide("take", view, options, lambda s: s.choose_take(view, options))

    def choose_seal(self, view: PlayerView, options: Sequence[Any]) -> Any:
        return self._decide("seal", view, options, lambda s: s.choose_seal(view, options))

    def choose_fountain(self, view: PlayerView, options: Sequence[Any]) -> Any:
        return self._decide("fountain", view, options,
                            lambda s: s.choose_fountain(view, options))

    def choose_circle(self, view: PlayerView, options: Sequence[Any]) -> Any:
        return self._decide("circle", view, options, lambda s: s.choose_circle(view, options))

    def choose_payment(self, view: PlayerView, card: Any, options: Sequence[Any]) -> Any:
        return self._decide("payment", view, options,
                            lambda s: s.choose_payment(view, card, options))


@dataclass
class Lineup:
    """The players of one game by seat: a core ``Bot`` for a built-in name, or a user's
    Python strategy, and each one's name as spelled (``villa@chimney=1.5``, ``mod:Class``;
    ``strategies.registry.make_lineup`` makes one from names)."""

    names: list[str]
    players: list[Any]  # cdsim._core.Bot | Strategy

    @property
    def all_builtin(self) -> bool:
        return all(not isinstance(p, Strategy) for p in self.players)


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
    # called before each decision the Python rules ask for (so only with them beside the
    # core), e.g. cdsim.replay.Recorder.mark
    on_decision: Callable[[], None] | None = None
    # a user strategy's time limit per decision, in seconds (None or 0: none)
    decision_timeout: float | None = None
    # told where a user strategy is deciding before its code runs, and None after
    # (cdsim.batch.queue: a worker's note, read by the driver should the worker die)
    watch: Callable[[str | None], None] | None = None
    python: GameState | None = field(init=False, default=None)

    def __post_init__(self) -> None:
        module = core.module()
        if module is None:
            raise CdsimError("the compiled core is not installed: run `make install`")
        n = len(self.lineup.players)
        start_vp = tuple(self.start_vp) or DEFAULT_START_VP[n]
        self.core = module.State(core.core_components(self.components), n, list(start_vp),
                                 self.seed, self.setup, self.check, self.events)
        if self.check or self.mirror or not self.lineup.all_builtin:
            comps: Components = load_components(self.components)
            seats = [_Seat(self, seat, name, None if isinstance(p, Strategy) else p,
                           p if isinstance(p, Strategy) else None)
                     for seat, (name, p) in enumerate(zip(self.lineup.names,
                                                          self.lineup.players, strict=True))]
            seq = (np.random.SeedSequence(self.seed) if self.setup is None else
                   np.random.SeedSequence(self.seed, spawn_key=(self.setup,)))
            config, deal = GameConfig(n, start_vp, comps), json.loads(self.core.deal())
            self.python = GameState(config, seats, seq, deal=deal)

    def before_decision(self, what: str, options: int) -> None:
        """The Python rules ask for a decision: the core must be waiting for the same
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
        if self.python is None:
            self.core.play(self.lineup.players)
        else:
            try:
                run_game(self.python)
            except StrategyFailure as exc:  # the rules wrap what a seat raised
                if isinstance(exc.__cause__, EngineMismatch | StrategyFailure):
                    raise exc.__cause__ from None  # a seat's own (_Seat names it exactly)
                raise
            if not self.core.is_over():
                raise EngineMismatch(f"{self.where or 'game'}: the Python rules ended the game, "
                                     f"the core waits for {self.core.decision()}")
        record = self.record()
        if self.check and self.python is not None:
            compare(self.core.snapshot(), self.python, f"{self.where or 'game'} at the end")
            mine = final_scoring(self.python, self.seed)
            if mine.rows() != record.rows():
                raise EngineMismatch(f"{self.where or 'game'}: final scoring differs: core "
                                     f"{record.rows()}, python {mine.rows()}")
        return record

    def record(self) -> GameRecord:
        data = json.loads(self.core.record())
        seats = tuple(SeatRecord(**{k: (self.lineup.names[s["seat"]] if k == "strategy"
                                        else s[k]) for k in SEAT_FIELDS})
                      for s in data["seats"])
        return GameRecord(self.seed, int(data["players"]), seats, bool(data["tiebreak"]))

    def event_list(self) -> list[dict[str, Any]]:
        return list(json.loads(self.core.events()))
