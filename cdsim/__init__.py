"""cdsim — Monte Carlo seat-balance analyzer for board games (``cdsim.games`` registers the
games it plays, ``cdsim games`` lists them)."""

__version__ = "0.1.0"
