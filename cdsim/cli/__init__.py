"""The ``cdsim`` command line (typer), one module per command group: ``games`` (play,
score, cards, strategies), ``runs`` (simulate, report, balance, power),
``component_sets``, ``studies``, ``whatif``, ``ladders`` and ``training`` (train); ``app``
holds what they share and ``main``. Every user error ends in one line and exit code 2.

Importing a group registers its commands, in the order ``--help`` lists them (``GROUPS``).
The groups are imported by ``main`` (or on the first use of ``app``), not with this package:
a stop (Ctrl-C) while they load, which takes a moment, is then the one line and exit code 130
of a stop inside a command, not a traceback. ``main`` imports only the group of the command
its line names (``COMMANDS``: `cdsim study report` loads no game's training code), and every
group where it names none it knows (``cdsim --help``, a misspelt command's suggestions,
shell completion), so each help text is the one all groups give."""

from __future__ import annotations

import os
import sys
from typing import Any

from cdsim.errors import CdsimError

# Before numpy loads: OpenBLAS's own threads busy-wait between the many small matrix
# products of the win tables (cdsim.analysis.candidates), which on 2 cores took
# `cdsim study report` of the default study from 10 s of CPU to 25 s, and its wall time
# from 11 s to 33 s. A user's own setting wins.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


# the command groups in the order they register (the order ``cdsim --help`` lists them)
GROUPS = ("game_list", "games", "runs", "component_sets", "studies", "whatif", "ladders",
          "training")
# each command (or sub-app) of the command line, by the group that registers it (a test
# holds this to what the groups register)
COMMANDS = {"games": "game_list", "play": "games", "score": "games", "cards": "games",
            "strategies": "games", "simulate": "runs", "report": "runs", "balance": "runs",
            "power": "runs", "components": "component_sets", "study": "studies",
            "whatif": "whatif", "ladder": "ladders", "train": "training"}


def _needed(argv: list[str]) -> tuple[str, ...]:
    """The groups a command line needs: the one of the command it names (its first word
    that is no option: the root's options take no value), else all of them."""
    if any(k.endswith("_COMPLETE") and k.startswith("_") for k in os.environ):
        return GROUPS  # shell completion: any command may be asked for
    name = next((a for a in argv if not a.startswith("-")), None)
    return (COMMANDS[name],) if name in COMMANDS else GROUPS


def _load(groups: tuple[str, ...] = GROUPS) -> Any:
    """The command ``groups`` imported (registering their commands), and the typer app,
    its commands in ``GROUPS``' order whichever groups an earlier call imported."""
    import importlib

    for group in GROUPS:
        if group in groups:
            importlib.import_module(f"cdsim.cli.{group}")
    from cdsim.cli.app import app

    def place(module: str) -> int:
        name = module.rpartition(".")[2]
        return GROUPS.index(name) if name in GROUPS else len(GROUPS)

    app.registered_commands.sort(key=lambda c: place(getattr(c.callback, "__module__", "")))
    app.registered_groups.sort(key=lambda g: place(
        g.typer_instance.registered_commands[0].callback.__module__
        if g.typer_instance and g.typer_instance.registered_commands else ""))
    if set(groups) == set(GROUPS):
        globals()["app"] = app  # the typer app, not the submodule of that name
    else:  # not the submodule either: ``cdsim.cli.app`` is the whole app (``__getattr__``)
        globals().pop("app", None)
    return app


def main() -> None:
    """Entry point (``cdsim.cli.app.main`` once the commands are loaded)."""
    from cdsim.cli.stops import STOPPED, catch_stops

    catch_stops()  # first: a stop while the commands load is a stop too
    try:
        _load(_needed(sys.argv[1:]))
        from cdsim.cli.app import main as run
    except KeyboardInterrupt:
        print("cdsim: interrupted", file=sys.stderr)
        sys.exit(STOPPED)
    except CdsimError as exc:  # a file read as the commands load (the profiles file)
        print(f"cdsim: error: {exc}", file=sys.stderr)
        sys.exit(2)
    run()


def __getattr__(name: str) -> Any:
    if name == "app":
        return _load()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["app", "main"]
