"""The game seam on the Python side: the batch, the study and the analysis read what differs
between games from the game's spec (``cdsim.games.GameSpec``; its optional features in
``cdsim.games.features``), never from Carpe Diem's rules."""

from __future__ import annotations

import ast
from pathlib import Path

from cdsim.games import GAMES, game_spec

CDSIM = Path(__file__).resolve().parents[1] / "cdsim"
SEAM = ("batch", "study", "analysis")  # written over the spec: they name no game's rules


def _imported(path: Path) -> set[str]:
    """Every module ``path`` imports, at module level or in a function."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found |= {node.module, *(f"{node.module}.{alias.name}" for alias in node.names)}
    return found


def _a_game_of_its_own(module: str) -> bool:
    """A game's rules or one game's module of cdsim.games (the spec and its features are
    every game's)."""
    games = {p.stem for p in (CDSIM / "games").iterdir() if p.stem not in ("__init__",
                                                                           "__pycache__",
                                                                           "features")}
    return (module == "cdsim.rules" or module.startswith("cdsim.rules.")
            or any(module == f"cdsim.games.{g}" or module.startswith(f"cdsim.games.{g}.")
                   for g in games))


def test_batch_study_and_analysis_import_no_game_rules() -> None:
    offending = sorted(f"{path.relative_to(CDSIM.parent)}: {module}"
                       for folder in SEAM for path in sorted((CDSIM / folder).rglob("*.py"))
                       for module in _imported(path) if _a_game_of_its_own(module))
    assert not offending, offending


def test_a_feature_a_game_lacks_is_none_on_its_spec() -> None:
    """Carpe Diem has every optional feature; Castles, with no card table, families or sweeps
    of its own, has none of them but its JSON --set and its strong play (its learned)."""
    carpe, castles = game_spec("carpe-diem"), game_spec("castles")
    features = ("cards", "families", "sweeps", "card_changes")
    assert all(getattr(carpe, name) is not None for name in (*features, "strong"))
    assert all(getattr(castles, name) is None for name in features)
    assert castles.strong == ("learned",)
    assert carpe.set_keys is None and castles.set_keys is not None
    assert set(GAMES) == {"carpe-diem", "castles"}
