"""Errors a user can cause. The CLI turns each into one line and exit code 2."""


class CdsimError(ValueError):
    """A problem with user input: flags, a component file, a position file, a run folder."""


class ComponentError(CdsimError):
    """A component set that does not validate (names the file, the entry and the problem)."""


class PositionError(CdsimError):
    """A position file for `cdsim score` that is not a legal position."""


class IllegalChoice(RuntimeError):
    """A strategy returned something that was not among the legal options (a bug in it)."""
