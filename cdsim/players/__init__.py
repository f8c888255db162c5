"""What every game's players share: the sandbox user code runs in (time limits, failures
named)."""
