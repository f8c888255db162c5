"""Errors a user can cause. The CLI turns each into one line and exit code 2."""

import tomllib
from pathlib import Path
from typing import Any


class CdsimError(ValueError):
    """A problem with user input: flags, a component file, a position file, a run folder."""


class ComponentError(CdsimError):
    """A component set that does not validate (names the file, the entry and the problem)."""


class PositionError(CdsimError):
    """A position file for `cdsim score` that is not a legal position."""


class IllegalChoice(RuntimeError):
    """A strategy returned something that was not among the legal options (a bug in it)."""


def read_toml(path: Path, error: type[CdsimError] = CdsimError) -> dict[str, Any]:
    """A TOML file's tables, or one error line naming the file and the problem."""
    try:
        with path.open("rb") as fh:
            return tomllib.load(fh)
    except OSError as exc:
        raise error(f"{path}: cannot read: {exc.strerror}") from None
    except tomllib.TOMLDecodeError as exc:
        raise error(f"{path}: not valid TOML: {exc}") from None
