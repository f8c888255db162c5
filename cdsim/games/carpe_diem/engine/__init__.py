"""Carpe Diem at a table: a game on the core (``cdsim._core``, the one engine of record)
for any line-up, Python strategies included, and the Python rules as a decision-by-decision
oracle beside it."""
