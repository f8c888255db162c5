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
    med = game_spec("mediterranean")  # the third game: no card table, sweeps or strong play
    assert all(getattr(med, name) is None for name in (*features, "strong"))
    assert med.set_keys is not None
    assert set(GAMES) == {"carpe-diem", "castles", "mediterranean"}


# -- the crate: every game a tenant of its own folder --------------------------------------

CORE_SRC = CDSIM.parent / "core" / "src"
# What every game uses: the seam, the players of any game, the driver, the batch runner,
# the random stream. Only the registry names a game, once for its types and once for its
# entry (its tests aside).
SHARED = (CORE_SRC / "games", CORE_SRC / "players", CORE_SRC / "batch.rs", CORE_SRC / "play.rs",
          CORE_SRC / "rng.rs")
REGISTRY = CORE_SRC / "games" / "registry.rs"


def _game_folders() -> list[str]:
    return sorted(p.name for p in CORE_SRC.iterdir()
                  if p.is_dir() and (p / "mod.rs").is_file()
                  and p.name not in ("games", "players", "python"))


def _code_lines(path: Path) -> list[str]:
    """A Rust file's lines outside comments and its test module."""
    text = path.read_text()
    text = text.split("#[cfg(test)]", 1)[0]
    return [line.split("//", 1)[0] for line in text.splitlines()]


def test_the_crates_shared_code_names_no_game_but_the_registry_lines() -> None:
    games = _game_folders()
    assert {"carpe_diem", "castles", "mediterranean"} <= set(games)
    files = [f for s in SHARED for f in ([s] if s.is_file() else sorted(s.rglob("*.rs")))]
    naming = sorted(f"{f.relative_to(CORE_SRC)}: {line.strip()}" for f in files if f != REGISTRY
                    for line in _code_lines(f) for g in games if f"{g}::" in line)
    assert not naming, "shared crate code names a game:\n" + "\n".join(naming)
    for game in games:
        lines = [line for line in _code_lines(REGISTRY) if f"{game}::" in line]
        assert len(lines) <= 2, f"the registry names {game} beyond its use and entry: {lines}"
    # and no game file sits at the crate's root: lib.rs declares only shared modules and games
    root = sorted(p.stem for p in CORE_SRC.glob("*.rs"))
    assert root == ["batch", "lib", "play", "rng"], root
