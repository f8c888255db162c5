"""`cdsim COMMAND` imports only the command group that registers COMMAND
(``cdsim.cli.COMMANDS``): `cdsim study report` spent some 0.4 s of its start importing
every group (the training code alone most of it). The help texts stay those of the whole
application, in its order."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def _python(code: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                          cwd=REPO, timeout=120, check=False)


REGISTERED = """
import importlib, json
import typer
import cdsim.cli as cli
from cdsim.cli.app import app
found = {}
for group in cli.GROUPS:
    before = set(typer.main.get_command(app).commands)
    importlib.import_module(f"cdsim.cli.{group}")
    after = set(typer.main.get_command(app).commands)
    found.update({name: group for name in after - before})
print(json.dumps({"found": found, "said": cli.COMMANDS}))
"""


def test_each_command_is_loaded_from_the_group_that_registers_it() -> None:
    """A command missing from ``COMMANDS`` would still work (every group loads), but one
    mapped to the wrong group would be "No such command"."""
    proc = _python(REGISTERED)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["found"] == data["said"]


RUN = """
import sys
import cdsim.cli as cli
if sys.argv[1] == "all":
    cli._load()
sys.argv = ["cdsim", *sys.argv[2:]]
try:
    cli.main()
finally:
    loaded = sorted(m for m in sys.modules if m.startswith("cdsim.cli."))
    print("LOADED", " ".join(loaded), file=sys.stderr)
"""


def _help(how: str, *command: str) -> tuple[str, str]:
    proc = _python(RUN, how, *command, "--help")
    assert proc.returncode == 0, proc.stderr
    return proc.stdout, proc.stderr.rpartition("LOADED ")[2]


def test_a_command_loads_its_group_alone_with_the_same_help() -> None:
    out, loaded = _help("lazy", "study", "report")
    assert "cdsim.cli.studies" in loaded.split()
    assert "cdsim.cli.training" not in loaded.split()
    assert "cdsim.train" not in loaded
    assert out == _help("all", "study", "report")[0]
    for command in (("simulate",), ("components", "diff"), ("train",), ("games",)):
        assert _help("lazy", *command)[0] == _help("all", *command)[0], command


ORDER = """
import sys
import typer
import cdsim.cli as cli
if sys.argv[1] == "piecemeal":
    cli._load(("training",))
    cli._load(("studies", "games"))
from cdsim.cli import app  # every group now (after three of them, when piecemeal)
command = typer.main.get_command(app)
ctx = command.make_context("cdsim", [], resilient_parsing=True)
print(" ".join(command.list_commands(ctx)))
print(command.get_help(ctx))
"""


def test_the_root_help_lists_the_commands_in_their_order_whatever_loaded_first() -> None:
    """Tests run commands in one process: a group loaded before the others still lists in
    its place."""
    piecemeal, whole = _python(ORDER, "piecemeal"), _python(ORDER, "whole")
    assert piecemeal.returncode == 0, piecemeal.stderr
    assert whole.returncode == 0, whole.stderr
    names = piecemeal.stdout.splitlines()[0].split()
    assert names == ["games", "play", "score", "cards", "strategies", "simulate", "report",
                     "balance", "power", "whatif", "ladder", "train", "components", "study"]
    assert piecemeal.stdout == whole.stdout
