"""The readable Python rules (the core's oracle) and the strategy API."""
