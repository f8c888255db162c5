"""Errors a user can cause. The CLI turns each into one line and exit code 2."""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any


class CdsimError(ValueError):
    """A problem with user input: flags, a component file, a position file, a run folder."""


class ComponentError(CdsimError):
    """A component set that does not validate (names the file, the entry and the problem)."""


class PositionError(CdsimError):
    """A position file for `cdsim score` that is not a legal position."""


class StrategyFailure(RuntimeError):
    """A strategy raised, or chose something not offered: a bug in that strategy, not in
    the input. The CLI prints one line naming the strategy, the decision and the game,
    and exits 1; ``cdsim --debug`` adds ``detail`` (the strategy's traceback)."""

    def __init__(self, strategy: str, seat: int, method: str, problem: str, where: str = "",
                 detail: str = "") -> None:
        # seats are named 1..N to people, as the rulebook counts them; seat -1: before any
        # game (at import or construction: ``method`` says which, e.g. "while importing x")
        super().__init__(f"strategy {strategy!r} (seat {seat + 1}) {problem} in {method}{where}"
                         if seat >= 0 else f"strategy {strategy!r} {problem} {method}{where}")
        self.strategy, self.seat, self.method = strategy, seat, method
        self.problem, self.where, self.detail = problem, where, detail

    def located(self, strategy: str, where: str) -> StrategyFailure:
        """The same failure, named as the user gave it and placed (game, run)."""
        return type(self)(strategy, self.seat, self.method, self.problem, self.where + where,
                          self.detail)

    def __reduce__(self) -> tuple[type[StrategyFailure], tuple[str, int, str, str, str, str]]:
        # crosses process boundaries (loky, dask) with its fields
        return (type(self), (self.strategy, self.seat, self.method, self.problem, self.where,
                             self.detail))


class IllegalChoice(StrategyFailure):
    """A strategy returned something that was not among the legal options (a bug in it)."""


def user_text(value: object, show: Callable[[object], str] = repr, limit: int = 200) -> str:
    """``show(value)`` (repr or str) of something a user's code made, on one line and at
    most ``limit`` characters; never raises, even if its __repr__ or __str__ does."""
    try:
        text = show(value)
        if not isinstance(text, str):
            raise TypeError(f"{show.__name__} returned {type(text).__name__}")
    except KeyboardInterrupt:
        raise
    except BaseException as exc:
        try:
            kind = type(value).__name__
        except BaseException:
            kind = "object"
        return f"<a {kind} whose {show.__name__}() raised {type(exc).__name__}>"
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 3] + "..."


# Any: a TOML document: any tables, checked by the caller's model
def read_toml(path: Path, error: type[CdsimError] = CdsimError) -> dict[str, Any]:
    """A TOML file's tables, or one error line naming the file and the problem."""
    try:
        with path.open("rb") as fh:
            return tomllib.load(fh)
    except OSError as exc:
        raise error(f"{path}: cannot read: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise error(f"{path}: not a UTF-8 text file (byte {exc.start}: "
                    f"{exc.object[exc.start:exc.start + 1]!r}); TOML files are UTF-8") from None
    except tomllib.TOMLDecodeError as exc:
        raise error(f"{path}: not valid TOML: {exc}") from None
    except RecursionError:
        raise error(f"{path}: not valid TOML: arrays or tables nested too deep") from None
