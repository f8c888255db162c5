"""The engine layer: games on the core (``cdsim._core``, the one engine of record) for any
line-up, the Python rules as a decision-by-decision oracle, and the renderers of the
core's typed events."""
