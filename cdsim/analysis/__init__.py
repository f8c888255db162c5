"""Pure statistics for balance verdicts (no file I/O): the candidates and re-ranking
(candidates), the anytime verdicts (anytime, with boundary and predict), the fair offsets
(offsets), the staged procedure they supersede (sequential), and synthetic cells with exact
truth for testing them (synthetic)."""
