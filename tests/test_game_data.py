"""Each game's data is its own (issue 60: every game a tenant): Carpe Diem's built-in
component set, every game's shipped studies and its study templates are files of the game's
package (cdsim/games/<game>/), reached through its spec (``GameSpec.studies``, ``.study``,
``.templates``), and ship as package data; the shared folders of cdsim hold no game's data,
and the names a user types (`cdsim study run mediterranean`, `study init --template
castles-change`) are what they were before the files moved."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from cdsim.batch import cost
from cdsim.errors import CdsimError
from cdsim.games import GAMES, game_spec
from cdsim.games.carpe_diem.rules.components import DATA_DIR
from cdsim.study.file import resolve, shipped, templates

ROOT = Path(__file__).resolve().parents[1]
CDSIM = ROOT / "cdsim"
# the files a shared folder of cdsim may hold beside its Python: every game's page parts
SHARED_PAGE_FILES = {".html", ".js", ".css"}


def _package(name: str) -> Path:
    return CDSIM / "games" / name.replace("-", "_")


def _study_files(path: Path) -> list[Path]:
    """A study file and the override files its variants name (relative to it)."""
    variants = tomllib.loads(path.read_text()).get("variant", [])
    return [path, *(path.parent / str(v["components"]) for v in variants)]


def _data_files() -> dict[str, list[Path]]:
    """Every game's data files, by game: its studies, its templates (with their variants'
    override files), and Carpe Diem's built-in component set."""
    found: dict[str, list[Path]] = {}
    for name, spec in GAMES.items():
        studies = [*spec.studies.values(), *spec.templates.values(),
                   *([spec.study] if spec.study is not None else [])]
        found[name] = [f for study in studies for f in _study_files(study)]
    found[game_spec(None).name] += sorted(DATA_DIR.glob("*.toml"))
    return found


def test_each_games_data_lies_in_its_own_package_and_ships() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    globs = config["tool"]["setuptools"]["package-data"]["cdsim"]
    for name, files in _data_files().items():
        assert files, name
        for file in files:
            assert file.is_file(), file
            assert file.resolve().is_relative_to(_package(name)), (name, file)
            # as setuptools reads package data: globs under the package's folder
            assert any(file.resolve() in CDSIM.glob(glob) for glob in globs), file
    assert DATA_DIR.resolve() == _package(game_spec(None).name) / "data"


def test_no_shared_folder_holds_a_games_data() -> None:
    """Outside cdsim/games/<game>/, cdsim holds code and the pages' shared parts only: a
    data file (a study, a component set) in a shared folder is some game's."""
    games = {_package(name) for name in GAMES}
    found = [p.relative_to(ROOT) for p in sorted(CDSIM.rglob("*"))
             if p.is_file() and p.suffix not in {".py", ".pyc", ".so", *SHARED_PAGE_FILES}
             and not any(p.is_relative_to(g) for g in games)]
    assert not found, found


def test_the_names_a_user_types_are_kept() -> None:
    """`cdsim study run NAME` and `study init --template NAME` take the names they took when
    the files lay in cdsim/studies/: every game's studies, templates and game names."""
    assert set(shipped()) == {"default", "skill", "castles", "mediterranean"}
    assert set(templates()) == {"default", "card", "sweep", "carpe-diem", "castles",
                                "castles-change", "mediterranean"}
    for name, path in shipped().items():
        assert resolve(name) == path
        assert tomllib.loads(path.read_text())["name"] == name
    assert templates()["carpe-diem"] == resolve("default")  # the default game's study
    with pytest.raises(CdsimError, match=r"^nosuch: no such study file \(shipped studies: "
                                         r"castles, default, mediterranean, skill\)$"):
        resolve("nosuch")


def test_a_search_players_cost_scales_by_its_own_games_default_playouts() -> None:
    """``mcts@N`` costs N over the playouts its game's mcts plays unless told (its spec's
    ``mcts_playouts``), at which its seat cost was recorded: Castles' search plays 200, not
    Carpe Diem's 120."""
    for name, spec in GAMES.items():
        if spec.mcts_playouts is None:
            continue
        recorded = spec.seat_ms["mcts"][spec.default_players]
        assert cost.seat_ms("mcts", spec.default_players, name) == recorded
        doubled = cost.seat_ms(f"mcts@{2 * spec.mcts_playouts}", spec.default_players, name)
        assert doubled == pytest.approx(2 * recorded), name
    assert {s.mcts_playouts for s in GAMES.values()} >= {120, 200}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_whatifs_refusal_takes_its_example_from_the_game(name: str) -> None:
    """`cdsim whatif` given no change names a key of the game's own as its example."""
    from cdsim.study import whatif

    spec = GAMES[name]
    example = spec.sweeps.example if spec.sweeps is not None else spec.set_keys.example \
        if spec.set_keys is not None else None
    assert example is not None
    with pytest.raises(CdsimError, match=rf"\(e\.g\. {example.replace('.', '[.]')}=6\)"):
        if spec.sweeps is not None:
            whatif.variants([], None, Path("unused"), spec)
        else:
            assert spec.set_keys is not None
            whatif.game_variants([], None, Path("unused"), spec.set_keys)
