"""Players for cdsim: the Strategy protocol (base), the registry of built-in players
(which play on the compiled core; their profiles are profiles.toml), and example
strategies to copy (example)."""
