"""The user-code sandbox: a user's strategy code (its import, construction and every
decision) runs under a time limit, with ``os._exit`` refused and what it prints sent to
stderr, and whatever goes wrong in it is turned into one sentence (``user_failure``) that
names what the strategy did."""

from __future__ import annotations

import os
import signal
import sys
import threading
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, NoReturn

from cdsim.errors import CdsimError, user_text

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



class DecisionTimeout(BaseException):
    """Raised inside a strategy's code when its decision outlasts the time limit (a
    BaseException, so the strategy's own ``except Exception`` does not swallow it)."""


class RaisedInterrupt(BaseException):
    """A strategy's code raised KeyboardInterrupt itself: ``user_code`` raises this instead,
    so that only a real stop (Ctrl-C, SIGTERM, SIGHUP) stops a run as the user's."""


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
_ALARM: dict[str, Any] = {}  # the alarm's state: its count, the stuck callback
# The signals a user stops cdsim with; their Python handler raises KeyboardInterrupt
# (cdsim.cli.stops' Stop, for all three). ``user_code`` notes that one came.
STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP")
                     if hasattr(signal, name))
_STOP: dict[str, bool] = {}


def _refuse_exit(status: int = 0) -> NoReturn:
    raise ExitCalled(status)


def _on_alarm(signum: int, frame: object) -> None:
    _ALARM["fired"] = _ALARM.get("fired", 0) + 1
    if _ALARM["fired"] > GRACE_ALARMS:
        _ALARM["stuck"]()
    raise DecisionTimeout


def _noting_stops() -> dict[int, Any]:
    """Wrap each stop signal's Python handler so that it notes the stop before raising;
    returns the handlers to put back. Main thread only: no signal is handled elsewhere, so
    there a KeyboardInterrupt is always the strategy's own."""
    _STOP["seen"] = False
    old: dict[int, Any] = {}
    if threading.current_thread() is not threading.main_thread():
        return old
    for signum in STOP_SIGNALS:
        handler = signal.getsignal(signum)
        if callable(handler):
            def noted(num: int, frame: Any, handler: Any = handler) -> Any:
                _STOP["seen"] = True
                return handler(num, frame)

            old[signum] = handler
            signal.signal(signum, noted)
    return old


def stop_stuck(text: str) -> NoReturn:
    """The last resort for a strategy that ignores its time limit: one line, exit code 1
    (what finished is already on disk), or in a worker with a note for the driver
    (``note``), a kill the driver reports."""
    sys.stderr.write(f"cdsim: error: {text}\n")
    sys.stderr.flush()
    _REAL_EXIT(1)


def _alarm_here(limit: float | None) -> bool:
    """A time limit can be kept here: one is set, and this is the main thread (SIGALRM)."""
    return bool(limit) and hasattr(signal, "setitimer") and \
        threading.current_thread() is threading.main_thread()


# Set while ``user_session`` holds the handlers: {"alarm": SIGALRM's is ours}.
_SESSION: dict[str, bool] = {}


@contextmanager
def user_session(limit: float | None = None) -> Iterator[None]:
    """Many decisions of user code in a row (a game the core drives): the signal handlers
    ``user_code`` needs are put in once for all of them, not once per decision (the
    handlers cost more than a simple strategy's decision). A stop between two decisions
    stops the run as before; ``user_code`` still arms the time limit per decision."""
    if _SESSION:
        yield
        return
    alarm = _alarm_here(limit)
    old_handler: Any = signal.signal(signal.SIGALRM, _on_alarm) if alarm else None
    stops = _noting_stops()
    _SESSION["alarm"] = alarm
    try:
        yield
    finally:
        _SESSION.clear()
        if alarm:
            signal.signal(signal.SIGALRM, old_handler)
        for signum, handler in stops.items():
            signal.signal(signum, handler)


@contextmanager
def user_code(limit: float | None = None,
              stuck: Callable[[], None] | None = None) -> Iterator[None]:
    """Run a user's strategy code (import, construction, a decision): what it prints goes
    to stderr (stdout holds a command's result: ``play --json``), ``os._exit`` raises
    ``ExitCalled`` instead of ending the process, and after ``limit`` seconds (None or 0:
    no limit) ``DecisionTimeout`` is raised in it, again every second should it catch it,
    and at the fourth time ``stuck()`` ends the process (by default with one line). The
    alarm is SIGALRM: on the main thread only, where cdsim plays; elsewhere no limit.
    A KeyboardInterrupt that no stop signal caused is the code's own: it leaves as
    ``RaisedInterrupt``, a failure of that code, not the user's stop. Inside
    ``user_session`` the handlers are already in place."""
    alarm = _alarm_here(limit)
    own_handler = alarm and not _SESSION.get("alarm")
    old_handler: Any = None
    if alarm:
        _ALARM.update(fired=0, stuck=stuck or (lambda: stop_stuck(
            f"a Python strategy ignored its time limit of {limit:g} s (--decision-timeout) "
            "and was stopped")))
        if own_handler:
            old_handler = signal.signal(signal.SIGALRM, _on_alarm)
        signal.setitimer(signal.ITIMER_REAL, float(limit or 0), 1.0)
    stops = {} if _SESSION else _noting_stops()
    os._exit = _refuse_exit
    stdout, sys.stdout = sys.stdout, sys.stderr  # what it prints is not a command's result
    try:
        yield
    except KeyboardInterrupt as exc:
        if _STOP.get("seen"):
            raise
        raise RaisedInterrupt from exc
    finally:
        if alarm:
            signal.setitimer(signal.ITIMER_REAL, 0)
            if own_handler:
                signal.signal(signal.SIGALRM, old_handler)
        for signum, handler in stops.items():
            signal.signal(signum, handler)
        os._exit = _REAL_EXIT
        sys.stdout = stdout


def user_failure(exc: BaseException, limit: float | None = None) -> tuple[str, str]:
    """(what a strategy's code did, its traceback) for an exception out of ``user_code``."""
    if isinstance(exc, DecisionTimeout):
        return (f"took longer than the decision time limit of {limit or 0:g} s "
                "(--decision-timeout or CDSIM_DECISION_TIMEOUT sets it)", "")
    if isinstance(exc, ExitCalled):
        return f"called os._exit({user_text(exc.code)})", ""
    if isinstance(exc, RaisedInterrupt):  # the traceback is of its own KeyboardInterrupt
        return "raised KeyboardInterrupt", "".join(traceback.format_exception(exc.__cause__ or exc))
    if isinstance(exc, SystemExit):
        return f"called sys.exit({user_text(exc.code)})", traceback.format_exc()
    return (f"raised {type(exc).__name__}: {user_text(exc, str)}".rstrip(": "),
            traceback.format_exc())


def names_a_file(module_part: str) -> bool:
    """Whether ``X`` of ``X:Class`` is a file (``baker.py``, ``../mine/baker.py``), not a
    module name."""
    return module_part.endswith(".py") or "/" in module_part or os.sep in module_part
