"""Balance reports over run folders: ``cdsim report``, ``cdsim balance``, ``cdsim power``.

data (open a run, lazy scans) -> tables and balance (aggregates, re-ranking) with
stats (intervals, tests, power) -> charts -> report (Markdown + self-contained HTML).
"""
