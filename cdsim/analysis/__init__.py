"""Pure statistics for balance verdicts (no file I/O): the candidates, re-ranking and
fixed-level intervals (candidates), the anytime verdicts (anytime, with boundary and predict),
the fair offsets (offsets), the same verdict on one run or one study cell's games (balance),
the reports' intervals and tests (stats), and synthetic cells with exact truth for testing them
(synthetic)."""
