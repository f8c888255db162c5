"""The game seam on the Python side: the batch, the study and the analysis read what differs
between games from the game's spec (``cdsim.games.GameSpec``; its optional features in
``cdsim.games.features``), never from Carpe Diem's rules."""

from __future__ import annotations

import ast
import dataclasses
import json
import re
import tomllib
from pathlib import Path

import pytest

from cdsim.games import GAMES, GameSpec, game_spec

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
    """One game's module or package of cdsim.games (the registry, its features, how
    players are shown, the JSON component sets and their sheet, the players' seam and what a
    folder records of them, the roster of core registry players, cdsim train's trainer hook,
    weights file and fit kit, its users' strategies' protocol and table, a game recorded by
    the core and the view hook are every game's)."""
    shared = ("__init__", "__pycache__", "features", "json_components", "json_sheet", "names",
              "spec", "players", "played", "core_players", "training", "weights_file",
              "fitting", "strategy", "seam_table", "recorded", "views")
    games = {p.stem for p in (CDSIM / "games").iterdir() if p.stem not in shared}
    return any(module == f"cdsim.games.{g}" or module.startswith(f"cdsim.games.{g}.")
               for g in games)


def _not_yet_hooks() -> set[tuple[str, str]]:
    """The shared imports of one game's modules not yet turned into hooks of its spec, as
    pyproject's import contract lists them (importer, imported)."""
    config = tomllib.loads((CDSIM.parent / "pyproject.toml").read_text())
    contract, = (c for c in config["tool"]["importlinter"]["contracts"]
                 if c["name"].startswith("A shared ring reads a game through cdsim.games"))
    assert set(contract["forbidden_modules"]) == {f"cdsim.games.{p.stem}" for p in
                                                  (CDSIM / "games").iterdir()
                                                  if _a_game_of_its_own(f"cdsim.games.{p.stem}")}
    pairs = (line.split(" -> ") for line in contract.get("ignore_imports", []))
    return {(a.strip(), b.strip()) for a, b in pairs}


def _module(path: Path) -> str:
    parts = path.relative_to(CDSIM.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _existing(name: str) -> str:
    """The module ``name`` is, or is in (``module.attribute``)."""
    path = CDSIM.parent / name.replace(".", "/")
    return name if path.is_dir() or path.with_suffix(".py").is_file() else name.rsplit(".", 1)[0]


def test_shared_rings_import_no_game_of_its_own() -> None:
    """The batch, the study, the analysis and every other shared ring read a game through
    its spec; an import of one game's module would have to be listed in pyproject one by one
    (issue 60 emptied the list: a line whose import is gone fails here)."""
    listed = _not_yet_hooks()
    shared = [p for p in sorted(CDSIM.rglob("*.py")) if "games" not in p.parts]
    shared += sorted((CDSIM.parent / "reports").rglob("*.py"))
    found = {(_module(path), _existing(module)) for path in shared
             for module in _imported(path) if _a_game_of_its_own(module)}
    # ``from package import module`` names the package too: the module is what it imports
    found = {(a, b) for a, b in found if not any(x == a and y.startswith(f"{b}.")
                                                 for x, y in found)}
    assert not {(a, b) for a, b in found if (a, b) not in listed}, found - listed
    assert not {(a, b) for a, b in listed if (a, b) not in found}, listed - found
    seam = {(a, b) for a, b in found if a.split(".")[1] in SEAM}
    assert all(".rules" not in b for _, b in seam), seam  # no game's rules at all


def test_the_seam_in_cdsim_games_names_no_game() -> None:
    """What every game's spec is made of (the spec, its features, the players' seam and the
    record of a folder's players, the roster of core registry players, how players are
    shown) imports no game's module: a game's players reach shared code through its
    roster, never the other way round."""
    seam = [CDSIM / "games" / f"{name}.py" for name in
            ("spec", "features", "players", "played", "core_players", "names")]
    naming = {(path.stem, module) for path in seam for module in _imported(path)
              if _a_game_of_its_own(module)}
    assert not naming, naming


def test_every_game_reads_its_players_through_its_roster() -> None:
    """A run's players are parsed by its game's roster: Castles' own words for another
    game's player, for a setting, and for a user's strategy; Carpe Diem's registry takes
    settings and users' strategies, and refuses another game's player by name."""
    from cdsim.batch.config import RunConfig
    from cdsim.errors import CdsimError

    def config(game: str, player: str) -> RunConfig:
        return RunConfig.checked(game=game, players=2, seed=0, games=2, strategies=[player] * 2)

    for player, said in (("villa", "'villa' is not a castles player"),
                         ("greedy@chimney=1", "'greedy@chimney=1': castles players take no "
                                              "settings"),
                         ("mine.py:Mine@x=1", "strategy 'mine.py:Mine@x=1': name@setting works for "
                                              "built-in players only")):
        with pytest.raises(CdsimError, match=re.escape(f"--strategies: {said}")):
            config("castles", player)
    assert config("castles", "greedy").strategies[0].base == "greedy"
    assert config("carpe-diem", "villa@chimney=1").strategies[0].settings == (("chimney", 1.0),)
    with pytest.raises(CdsimError, match="'animal-farms' is not a carpe-diem player"):
        config("carpe-diem", "animal-farms")
    # users' strategies sit at every game's tables (each game's own protocol)
    assert all(game_spec(g).roster.python for g in ("carpe-diem", "castles", "mediterranean"))
    mine = config("castles", "mine.py:Mine").strategies[0]
    assert (mine.kind, mine.base.endswith("/mine.py:Mine")) == ("user", True)
    assert game_spec("castles").roster.reads_scores(config("castles", "greedy").lineup) == \
        {"greedy": False}


def test_the_default_game_is_left_unsaid() -> None:
    """A command or record names a game other than the default: ``--game castles``, its
    ``game`` key; the default game's read as they did before there were other games."""
    carpe, castles = game_spec("carpe-diem"), game_spec("castles")
    assert (carpe.game_flag(), carpe.game_key(), carpe.said("{title}, ")) == ([], {}, "")
    assert castles.game_flag() == ["--game castles"] and castles.game_key() == {"game": "castles"}
    assert castles.said("{title}, ") == "The Castles of Tuscany, "


def test_a_castles_run_is_balanced_at_its_own_recorded_costs(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``cdsim balance`` says how long its confirmation takes at the game's own recorded
    costs (its spec's ``seat_ms`` and ``table_ms``), for every game, not Carpe Diem's
    alone."""
    from cdsim.batch import cost
    from cdsim.batch.balance import analyse
    from cdsim.batch.read import open_run, seat_arrays
    from tests.commands import run_main

    out = tmp_path / "run"
    code, err = run_main(["simulate", "--game", "castles", "-n", "2", "--games", "40",
                          "--strategies", "greedy,random", "--rotate-seats", "-q", "--jobs",
                          "1", "--out", str(out)], monkeypatch, capsys)
    assert code == 0, err
    run = open_run(out)
    result = analyse(run, seat_arrays(run))
    assert result.game_ms == pytest.approx(cost.game_ms([["greedy", "random"]], [], 2,
                                                        "castles"))
    assert result.game_ms != cost.game_ms([["greedy", "random"]], [], 2)  # not Carpe Diem's


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


# -- the typed spec and the player counts ---------------------------------------------------

# a player count spelled as a literal: (2, 3, 4), [2, 3, 4], range(2, 5), ge=2, le=4, "2, 3
# or 4", 2 <= players <= 4
COUNT_LITERALS = re.compile(r"[(\[{]2, ?3, ?4[)\]}]|range\(2, ?5\)|ge=2, ?le=4|2, 3 or 4|"
                            r"\b2 <= \w+ <= 4\b|\w*players\w* <= 4\b")


def _docstrings(path: Path) -> set[int]:
    """The lines of ``path``'s docstrings (their examples may show a study file's counts)."""
    lines: set[int] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and \
                isinstance(node.value.value, str) and node.end_lineno is not None:
            lines |= set(range(node.lineno, node.end_lineno + 1))
    return lines


def test_shared_code_reads_player_counts_from_the_specs() -> None:
    """Player counts come from ``GameSpec.player_counts`` (``cdsim.games.PLAYER_COUNTS``, every
    game's), never a literal 2-4 in shared code, so a game played by 5 needs no edit there."""
    shared = [p for p in sorted(CDSIM.rglob("*.py")) if "games" not in p.parts]
    shared += sorted((CDSIM.parent / "reports").rglob("*.py"))
    found = [f"{path.relative_to(CDSIM.parent)}:{i}: {line.strip()}"
             for path in shared for i, line in enumerate(path.read_text().splitlines(), 1)
             if COUNT_LITERALS.search(line.split("#", 1)[0]) and i not in _docstrings(path)]
    assert not found, found


def test_a_game_names_every_hook_of_its_spec() -> None:
    """No field of ``GameSpec`` has a default: a game's spec that leaves a hook out is a type
    error (and a TypeError when made), not a silent default."""
    fields = dataclasses.fields(GameSpec)
    assert not [f.name for f in fields if f.default is not dataclasses.MISSING
                or f.default_factory is not dataclasses.MISSING]
    spec = game_spec("castles")
    given = {f.name: getattr(spec, f.name) for f in fields if f.name != "player_words"}
    with pytest.raises(TypeError, match="player_words"):
        GameSpec(**given)  # type: ignore[call-arg]


def test_the_bindings_shared_module_names_no_carpe_diem_module() -> None:
    """The binding's mod.rs is what every game uses; Carpe Diem's own parts (its State, Bot,
    weights, profiles, luck, columns) are core/src/python/carpe_diem/, registered there."""
    lines = _code_lines(CORE_SRC / "python" / "mod.rs")
    assert not [line for line in lines if "crate::carpe_diem" in line]
    assert any("carpe_diem::register(m)" in line for line in lines)


# -- a game's own words and counts, read from its spec ---------------------------------------

def test_every_game_plays_its_default_player_count() -> None:
    """``default_players`` is what `simulate` and `power` play when given no --players: a
    count the game is played by."""
    for spec in GAMES.values():
        assert spec.default_players in spec.player_counts, spec.name


def test_simulate_and_power_play_the_games_own_default_count(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    """No player count sits in the commands: a game whose default is 3 plays 3 unasked."""
    from tests.commands import run_cli

    three = dataclasses.replace(GAMES["castles"], default_players=3)
    monkeypatch.setitem(GAMES, "castles", three)
    code, out, err = run_cli(["power", "--game", "castles", "--json"], monkeypatch, capsys)
    assert code == 0 and json.loads(out)["players"] == 3, err
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli(["simulate", "--game", "castles", "--games", "2", "--strategies",
                              "random", "--jobs", "1", "--quiet"], monkeypatch, capsys)
    assert code == 0, err
    assert [p.name for p in (tmp_path / "runs").iterdir()] == ["castles-3p-random-seed0"]


def test_a_reports_rules_and_set_lines_are_the_games_own_words() -> None:
    """The run and ladder pages' "rules" and "component set" lines are each spec's words
    (Carpe Diem's pinned, as its pages were before games had specs), not a branch on the
    game in reports/."""
    cd, castles = game_spec(None), game_spec("castles")
    assert cd.rules_said() == ("rule numbers such as R8.5 and R10.6 refer to docs/rules.md in "
                               "the cdsim repository")
    assert cd.rules_said(1) == "rule numbers such as R8.5 refer to docs/rules.md in the cdsim repository"
    assert castles.rules_said() == "rule numbers refer to docs/rules-castles.md in the cdsim repository"
    assert cd.builtin_set_words.startswith("the reconstructed default set (C1–C10 of docs/rules.md")
    assert (cd.builtin_set_name, castles.builtin_set_name) == ("the reconstructed default set",
                                                               "the built-in set")
    assert cd.failed_cost is not None and castles.failed_cost is None
    assert (cd.failed_cost.noun, cd.failed_cost.cost, cd.failed_cost.rule) == \
        ("objective cards", "4 VP", "R8.5")
    for spec in GAMES.values():
        assert spec.rules_doc in spec.builtin_set_words, spec.name
        assert spec.builtin_set_words.startswith(spec.builtin_set_name), spec.name
    reports = CDSIM.parent / "reports"
    for page in (reports / "report.py", reports / "ladder.py", reports / "cards.py",
                 CDSIM / "cli" / "component_sets.py"):
        text = page.read_text()
        assert "docs/rules.md" not in text and "R8.5" not in text, page
        assert "reconstructed default" not in text and "objective card" not in text, page
        assert "scroll overflow" not in text and "the -4" not in text, page  # its spec's


# a rule's number as a game's rules doc defines it: a heading ("## R8 Scoring", "### C1 ...")
# or a list item that opens with it in bold ("- **R8.5** A card ...")
RULE_DEFINED = re.compile(r"^(?:#+ |- \*\*)([A-Z]{1,2}\d+(?:\.\d+)*)\b", re.M)


def _rule_numbers() -> dict[str, str]:
    """Every rule number each game's rules doc defines, with the doc."""
    found: dict[str, str] = {}
    for spec in GAMES.values():
        doc = CDSIM.parent / spec.rules_doc
        for number in RULE_DEFINED.findall(doc.read_text()):
            found.setdefault(number, spec.rules_doc)
    return found


def _a_games_own_file(path: Path) -> bool:
    """A file of one game's package (cdsim/games/<game>/): its view too, and its pages."""
    games = [p.name for p in (CDSIM / "games").iterdir()
             if p.is_dir() and _a_game_of_its_own(f"cdsim.games.{p.name}")]
    inside = path.relative_to(CDSIM.parent).parts
    return inside[:2] == ("cdsim", "games") and len(inside) > 3 and inside[2] in games


def test_shared_code_names_no_games_rule_numbers() -> None:
    """A game's rule numbers (docs/rules.md's R8.5, docs/rules-castles.md's T1.2, ...) stand
    in its own package and in its spec's words, never in shared code (cdsim/ but the games'
    own, and reports/), its comments and docstrings included: shared code says "the game's
    tie-break", and a page reads the rule from the spec (issue 60 item 1)."""
    numbers = _rule_numbers()
    assert {"R8.5", "R10.6", "C1", "T1.2", "M3.1"} <= set(numbers)  # every game's doc read
    named = re.compile(r"\b(" + "|".join(sorted(map(re.escape, numbers), key=len, reverse=True))
                       + r")\b")
    shared = [p for p in sorted(CDSIM.rglob("*.py")) if not _a_games_own_file(p)]
    shared += sorted((CDSIM.parent / "reports").rglob("*.py"))
    assert CDSIM / "batch" / "queue.py" in shared and CDSIM / "games" / "spec.py" in shared
    assert not any(_a_games_own_file(CDSIM / "games" / name) for name in ("spec.py", "features.py"))
    found = [f"{path.relative_to(CDSIM.parent)}:{i}: {number} ({numbers[number]})"
             for path in shared for i, line in enumerate(path.read_text().splitlines(), 1)
             for number in named.findall(line)]
    assert not found, "shared code names a game's rule:\n" + "\n".join(found)


def test_shared_code_spells_no_games_name() -> None:
    """No shared module branches on a game by its name (``game in (None, "carpe-diem")``
    picked the ladder's default folder): a game's name as a string stands only where the
    default game is declared (``spec.DEFAULT_GAME``); the rest asks the spec (``spec.said``,
    ``spec.default``), a game's view too (``spec.view``: no registry of views by name)."""
    names = {spec.name for spec in GAMES.values()}
    names |= {p.name for p in (CDSIM / "games").iterdir() if _a_game_of_its_own(f"cdsim.games.{p.name}")}
    shared = [p for p in sorted(CDSIM.rglob("*.py")) if not _a_games_own_file(p)]
    shared += sorted((CDSIM.parent / "reports").rglob("*.py"))
    found = sorted(f"{path.relative_to(CDSIM.parent)}: {node.value!r}"
                   for path in shared for node in ast.walk(ast.parse(path.read_text()))
                   if isinstance(node, ast.Constant) and node.value in names)
    assert found == ["cdsim/games/spec.py: 'carpe-diem'"], found


def test_the_shared_view_names_no_game() -> None:
    """The shared view (cdsim/view/: what every page is put together with, its style, step
    controls and scripts, inlined in every game's pages, and the code that puts them
    together) names no game, in any of its files: no game's title ("Carpe Diem" headed the
    components sheet that sat there), name or package. A game's own page files are in its
    package, reached through its spec (``GameSpec.view``)."""
    words = {spec.title for spec in GAMES.values()} | {spec.name for spec in GAMES.values()}
    words |= {p.name for p in (CDSIM / "games").iterdir()
              if p.is_dir() and _a_game_of_its_own(f"cdsim.games.{p.name}")}
    assert {"Carpe Diem", "castles", "carpe_diem"} <= words
    named = re.compile(r"(?<![\w-])(" + "|".join(sorted(map(re.escape, words), key=len,
                                                        reverse=True)) + r")(?![\w-])", re.I)
    shared = [p for p in sorted((CDSIM / "view").rglob("*"))
              if p.is_file() and "__pycache__" not in p.parts]
    assert {".py", ".html", ".js", ".css"} <= {p.suffix for p in shared}
    found = [f"{path.relative_to(CDSIM.parent)}:{i}: {word}" for path in shared
             for i, line in enumerate(path.read_text().splitlines(), 1)
             for word in named.findall(line)]
    assert found == [], found
