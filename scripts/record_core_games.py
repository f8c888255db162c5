"""Record the games the Rust tests replay (core/tests/data/python_*.json).

The Rust crate's tests check, without Python, that the core plays the Python engine's
games: `python_games.json` (whole rows of a few line-ups) and `python_scripted.json`
(150 scripted games, a projection of each row). A deliberate change of a rule or a
built-in player in both engines re-records them: `make core-games`, and say why.
"""

from __future__ import annotations

import json
from pathlib import Path

from cdsim.game import GameConfig, play_game
from strategies.registry import make_lineup

DATA = Path(__file__).resolve().parent.parent / "core" / "tests" / "data"
SCRIPTED = ["greedy", "villa", "landscape", "bread"]
FIELDS = ["final_vp", "vp_cards", "vp_villas", "vp_frame", "vp_fountains", "tiles_stored",
          "scroll", "chimneys", "landscapes", "bread_moves", "fountain_cards",
          "leftover_items", "stack"]


def whole_games(existing: list[dict[str, object]]) -> list[dict[str, object]]:
    """The same line-ups and seeds as before, played again."""
    out = []
    for game in existing:
        names = list(game["names"])  # type: ignore[call-overload]
        seed = int(game["seed"])  # type: ignore[call-overload]
        rows = play_game(GameConfig(len(names)), make_lineup(names, len(names)), seed).rows()
        out.append({"names": names, "seed": seed, "rows": rows})
    return out


def scripted_games() -> dict[str, object]:
    games = []
    for n in (2, 3, 4):
        for seed in range(100, 150):
            names = [SCRIPTED[(seed + i) % 4] for i in range(n)]
            rows = play_game(GameConfig(n), make_lineup(names, n), seed).rows()
            games.append([names, seed, [[row[f] for f in FIELDS] for row in rows]])
    return {"fields": FIELDS, "games": games}


def main() -> None:
    path = DATA / "python_games.json"
    path.write_text(json.dumps(whole_games(json.loads(path.read_text())), indent=0) + "\n")
    path = DATA / "python_scripted.json"
    path.write_text(json.dumps(scripted_games(), separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
