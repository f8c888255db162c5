"""Pure statistics for balance verdicts (no file I/O): staged, decided starting-VP verdicts."""
