"""The ``cdsim`` command line (typer), one module per command group: ``games`` (play,
score, cards, strategies), ``runs`` (simulate, report, balance, power),
``component_sets``, ``studies``, ``whatif``, ``ladders`` and ``training`` (train); ``app``
holds what they share and ``main``. Every user error ends in one line and exit code 2.

Importing a group registers its commands, in the order ``--help`` lists them."""

# isort: off
from cdsim.cli import games as games
from cdsim.cli import runs as runs
from cdsim.cli import component_sets as component_sets
from cdsim.cli import studies as studies
from cdsim.cli import whatif as whatif
from cdsim.cli import ladders as ladders
from cdsim.cli import training as training
from cdsim.cli.app import app, main

# isort: on

__all__ = ["app", "main"]
