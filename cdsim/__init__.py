"""cdsim — Monte Carlo strategy and balance analyzer for the board game Carpe Diem."""

from cdsim import native as _native

__version__ = "0.1.0"

_native.guard()  # compiled hot modules only while they match their sources
