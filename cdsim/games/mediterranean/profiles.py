"""The Mediterranean's scripted players as ``strategies/mediterranean-profiles.toml`` states
them: a table each, with a one-line description. The core compiles the file in and plays
by its weights (core/src/mediterranean/profiles.rs, whose tests fail on a broken table);
cdsim reads it only for the players' descriptions (``cdsim strategies --game
mediterranean``), so a description is written once."""

from __future__ import annotations

import tomllib

from cdsim.games.players import STRATEGIES_DIR

PROFILES_FILE = STRATEGIES_DIR / "mediterranean-profiles.toml"


def descriptions() -> dict[str, str]:
    """Each scripted player's description, in the file's order (``defaults`` is no player);
    a file that cannot be read says so in each description rather than stopping cdsim."""
    try:
        data = tomllib.loads(PROFILES_FILE.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        return {"greedy": f"({PROFILES_FILE}: not read: {exc})"}
    return {name: str(table.get("description", "")) for name, table in data.items()
            if name != "defaults" and isinstance(table, dict)}
