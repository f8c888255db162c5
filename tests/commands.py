"""Running the command line inside the test process (not a test file)."""

from __future__ import annotations

import sys

import pytest

from cdsim.cli import main


def run_main(args: list[str], monkeypatch: pytest.MonkeyPatch,
             capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    """``cdsim ARGS`` in this process: its exit code and what it wrote to stderr."""
    monkeypatch.setattr(sys, "argv", ["cdsim", *args])
    try:
        main()
    except SystemExit as exc:
        return int(exc.code or 0), capsys.readouterr().err
    return 0, capsys.readouterr().err
