"""cdsim — Monte Carlo strategy and balance analyzer for the board game Carpe Diem."""

__version__ = "0.1.0"
