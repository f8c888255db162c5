"""Each game's view is its own, in its package, and the commands reach it only through its
spec (``GameSpec.view``, ``cdsim.games.views``): no registry of views by a game's name. A
game without a view is one line and exit 2; its page's files ship with the package (pyproject's
package data), as a wheel or ``make install`` installs them."""

from __future__ import annotations

import dataclasses
import tomllib
from pathlib import Path

import pytest

from cdsim import core, games
from cdsim.games import GAMES
from cdsim.games.features import PlayedGame, PlayRequest
from cdsim.games.views import GameView, RecordedView
from tests.commands import run_cli

pytestmark = pytest.mark.skipif(not core.available(), reason="needs the compiled core")
ROOT = Path(__file__).resolve().parents[1]


def test_every_game_has_its_view_in_its_own_package() -> None:
    for name, spec in GAMES.items():
        assert spec.view is not None, name
        package = spec.view.replay.package
        assert package.split(".")[:3] == ["cdsim", "games", name.replace("-", "_")], name
        # a game with a table of its own tells its games there; the others by their view
        assert (spec.view.recorded is None) == (spec.play is not None), name
        assert (spec.view.components_page is None) == (spec.component_files is not None), name
        # a set of files with overrides is drawn by its sheet's own files, in its own package
        sheet = spec.view.sheet_page
        assert (sheet is None) == (spec.component_files is None), name
        assert sheet is None or sheet.package == package, name


def test_each_games_page_files_ship_as_package_data() -> None:
    """Each view's template, scripts and styles (its replay's, its components sheet's) are
    files of its package, and pyproject's package data for cdsim names them (a wheel without
    them writes no page)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    shipped = config["tool"]["setuptools"]["package-data"]["cdsim"]
    pages = [page for spec in GAMES.values() if spec.view is not None
             for page in (spec.view.replay, spec.view.sheet_page) if page is not None]
    # every game's replay, and the sheet of each set of files with overrides (Carpe Diem's)
    assert len(pages) == len(GAMES) + sum(s.component_files is not None for s in GAMES.values())
    for page in pages:
        folder = ROOT.joinpath(*page.package.split("."))
        for name in page.files():
            assert (folder / name).is_file() and page.text(name), (page.package, name)
            # as setuptools reads package data: globs under the package's folder
            assert any(folder / name in (ROOT / "cdsim").glob(glob) for glob in shipped), name


def _without_view(monkeypatch: pytest.MonkeyPatch, name: str, view: GameView | None) -> None:
    """Game ``name``'s spec with ``view``; a game with a table of its own must not play there
    when it has no page to write."""
    spec = GAMES[name]

    def play(request: PlayRequest) -> PlayedGame:
        raise AssertionError("played a game whose page it cannot write")

    monkeypatch.setitem(games.GAMES, name, dataclasses.replace(
        spec, view=view, play=None if spec.play is None or view is not None else play))


@pytest.mark.parametrize(("name", "args", "said"), [
    ("castles", ["play", "--game", "castles", "--players", "2"],
     "--game castles: no replay view for this game yet"),
    ("carpe-diem", ["play", "--players", "2", "--html", "PAGE"],
     "--html: cdsim draws no pages of carpe-diem yet"),
    ("mediterranean", ["components", "show", "--game", "mediterranean", "--html", "PAGE"],
     "--html: cdsim draws no pages of mediterranean yet"),
])
def test_a_game_without_a_view_is_one_line(monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                           name: str, args: list[str], said: str) -> None:
    _without_view(monkeypatch, name, None)
    page = tmp_path / "page.html"
    code, out, err = run_cli([str(page) if a == "PAGE" else a for a in args], monkeypatch,
                             capsys)
    assert code == 2 and err.strip() == f"cdsim: error: {said}", err  # one line
    assert not page.exists() and out == ""  # refused before anything played or was written


def test_a_set_of_files_without_its_sheets_files_is_one_line(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    """Carpe Diem's sheet is drawn by its own page files (``GameView.sheet_page``), not by a
    sheet the shared pages keep: without them, `components show` writes nothing."""
    view = GAMES["carpe-diem"].view
    assert view is not None
    _without_view(monkeypatch, "carpe-diem", dataclasses.replace(view, sheet_page=None))
    page = tmp_path / "c.html"
    code, out, err = run_cli(["components", "show", "--html", str(page)], monkeypatch, capsys)
    assert code == 2 and err.strip() == ("cdsim: error: --html: cdsim draws no components "
                                         "sheet of carpe-diem yet"), err
    assert not page.exists() and out == ""


def test_a_json_set_without_a_sheet_is_one_line(monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str],
                                                tmp_path: Path) -> None:
    view = GAMES["castles"].view
    assert view is not None
    _without_view(monkeypatch, "castles", dataclasses.replace(view, components_page=None))
    page = tmp_path / "c.html"
    code, _, err = run_cli(["components", "show", "--game", "castles", "--html", str(page)],
                           monkeypatch, capsys)
    assert code == 2 and err.strip() == ("cdsim: error: --game castles: no components page "
                                         "for this game yet"), err
    assert not page.exists()


def test_the_commands_draw_whatever_view_the_spec_names(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    """The Castles of Tuscany's spec given another view: play tells its games in that view's
    words and writes that view's page, components show draws that view's sheet (nothing
    looks a view up by the game's name)."""
    castles, other = GAMES["castles"].view, GAMES["mediterranean"].view
    assert castles is not None and castles.recorded is not None and other is not None
    seen: list[str] = []

    def summary(game: object) -> list[str]:
        seen.append("summary")
        return ["a fake table"]

    told = RecordedView(summary, castles.recorded.decision_lines, castles.recorded.replay_data)
    _without_view(monkeypatch, "castles", GameView(other.replay, told,
                                                   lambda *_: "<p>a fake sheet</p>", None))
    page = tmp_path / "r.html"
    code, out, err = run_cli(["play", "--game", "castles", "--players", "2", "--html",
                              str(page)], monkeypatch, capsys)
    assert code == 0 and out.startswith("a fake table\n") and seen == ["summary"], err
    text = page.read_text()
    assert all(other.replay.text(n) in text for n in other.replay.scripts)  # the named page's own
    assert not any(castles.replay.text(n) in text for n in castles.replay.scripts)
    sheet = tmp_path / "s.html"
    code, _, err = run_cli(["components", "show", "--game", "castles", "--html", str(sheet)],
                           monkeypatch, capsys)
    assert code == 0 and sheet.read_text() == "<p>a fake sheet</p>", err
