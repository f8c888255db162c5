"""The ``cdsim`` command line (typer), one module per command group: ``games`` (play,
score, cards, strategies), ``runs`` (simulate, report, balance, power),
``component_sets``, ``studies``, ``whatif``, ``ladders`` and ``training`` (train); ``app``
holds what they share and ``main``. Every user error ends in one line and exit code 2.

Importing a group registers its commands, in the order ``--help`` lists them. The groups
are imported by ``main`` (or on the first use of ``app``), not with this package: a stop
(Ctrl-C) while they load, which takes a moment, is then the one line and exit code 130 of
a stop inside a command, not a traceback."""

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


def _load() -> Any:
    """Every command group imported (registering its commands), and the typer app."""
    # isort: off
    from cdsim.cli import game_list as game_list
    from cdsim.cli import games as games
    from cdsim.cli import runs as runs
    from cdsim.cli import component_sets as component_sets
    from cdsim.cli import studies as studies
    from cdsim.cli import whatif as whatif
    from cdsim.cli import ladders as ladders
    from cdsim.cli import training as training
    from cdsim.cli.app import app
    # isort: on

    globals()["app"] = app  # the typer app, not the submodule of that name
    return app


def main() -> None:
    """Entry point (``cdsim.cli.app.main`` once the commands are loaded)."""
    try:
        _load()
        from cdsim.cli.app import main as run
    except KeyboardInterrupt:
        print("cdsim: interrupted", file=sys.stderr)
        sys.exit(130)  # cdsim.cli.app.STOPPED, not imported yet
    except CdsimError as exc:  # a file read as the commands load (the profiles file)
        print(f"cdsim: error: {exc}", file=sys.stderr)
        sys.exit(2)
    run()


def __getattr__(name: str) -> Any:
    if name == "app":
        return _load()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["app", "main"]
