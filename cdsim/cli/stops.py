"""The stop signals (Ctrl-C, SIGTERM, SIGHUP): from ``catch_stops`` on, each raises
``Stop`` (a KeyboardInterrupt) where the command is and notes that it came (``SIGNALLED``);
``cdsim.cli.app.main`` turns any of them into one line on stderr and exit code 130
(``STOPPED``), whichever the signal. Light: the entry point imports it before the
commands load."""

from __future__ import annotations

import signal

STOPPED = 130  # the exit code of a stop, whichever the signal

SIGNALLED = {"on": False}  # a stop signal arrived (whatever a library made of it)


class Stop(KeyboardInterrupt):
    """What a stop signal raises: a KeyboardInterrupt to every ``except KeyboardInterrupt``,
    but not of exactly that class, on purpose. CPython takes a KeyboardInterrupt of exactly
    that class leaving code it runs from a text (``eval`` or ``exec`` of a string, as
    ``collections.namedtuple`` and ``dataclasses`` do while a module loads) for one nobody
    handled, even when the program catches it afterwards, and after the program's own exit
    ends the process by SIGINT (exit code -2) instead (Python/pythonrun.c's
    run_eval_code_obj sets the flag, Modules/main.c's Py_RunMain reads it). A Ctrl-C
    landing in such a text (psutil's namedtuples as loky first loads) ended a stopped
    whatif so after its stop line; cdsim handles every stop itself."""


def stop_signal(signum: int, frame: object) -> None:
    SIGNALLED["on"] = True
    raise Stop


def catch_stops() -> None:
    """A new command: no stop yet, and Ctrl-C, SIGTERM and SIGHUP raise ``Stop`` from now
    on. A Ctrl-C ignored when cdsim started (a shell starts a background job so) stays
    ignored, as Python itself leaves it."""
    SIGNALLED["on"] = False
    for name in ("SIGINT", "SIGTERM", "SIGHUP"):
        signum = getattr(signal, name, None)
        if signum is None or (name == "SIGINT" and signal.getsignal(signum) == signal.SIG_IGN):
            continue
        signal.signal(signum, stop_signal)


__all__ = ["SIGNALLED", "STOPPED", "Stop", "catch_stops", "stop_signal"]
