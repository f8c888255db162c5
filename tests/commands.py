"""Running the command line inside the test process (not a test file)."""

from __future__ import annotations

import sys

import pytest

from cdsim.cli import main


def run_cli(args: list[str], monkeypatch: pytest.MonkeyPatch,
            capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """``cdsim ARGS`` in this process: its exit code, stdout and stderr."""
    monkeypatch.setattr(sys, "argv", ["cdsim", *args])
    try:
        main()
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def run_main(args: list[str], monkeypatch: pytest.MonkeyPatch,
             capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    """``cdsim ARGS`` in this process: its exit code and what it wrote to stderr."""
    code, _, err = run_cli(args, monkeypatch, capsys)
    return code, err
