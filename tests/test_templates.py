"""`cdsim study init FILE --template card|sweep|default` (issue 41 item 4): each template is
a valid study file that runs (here on a reduced budget), the card template brings its
variant's override file, and an unknown template is one line, exit 2, nothing written."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cdsim.errors import CdsimError
from cdsim.study import play
from cdsim.study.file import resolve, templates, write_template
from cdsim.study.model import load_study
from tests.commands import run_main
from tests.conftest import core_or_skip


@pytest.mark.parametrize(("template", "cells"), [
    ("card", ["2p.scripted", "2p.scripted.B05-at-6", "4p.scripted", "4p.scripted.B05-at-6"]),
    ("sweep", [f"{n}p.scripted{v}" for n in (2, 4)
               for v in ("", *(f".B05-reward={x}" for x in (4, 6, 10, 12)))]),
    ("castles-change", ["2p.scripted", "2p.scripted.castle-bonus-6", "4p.scripted",
                        "4p.scripted.castle-bonus-6"])])
def test_a_template_runs(template: str, cells: list[str], tmp_path: Path,
                         monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
                         ) -> None:
    """Written by `study init` in another folder, named after its file, with the measured
    run time in its comments; played on a budget cut to 720 games a cell (30 deals of 4
    players): every cell."""
    core_or_skip()
    monkeypatch.chdir(tmp_path)
    code, err = run_main(["study", "init", "mine.toml", "--template", template], monkeypatch,
                         capsys)
    assert code == 0, err
    text = (tmp_path / "mine.toml").read_text()
    said = " ".join(text.replace("\n#", " ").split())
    assert re.search(r"Run time, measured 20\d\d-\d\d-\d\d [^.]*: [\d,]+ games in \d+ s of play",
                     said), said[:1500]
    assert re.search(r"^games = \d+ ", text, flags=re.M)
    (tmp_path / "mine.toml").write_text(re.sub(r"^games = \d+", "games = 720", text, flags=re.M))
    spec = load_study(tmp_path / "mine.toml")
    assert spec.file.name == "mine"
    manifest = play.run(spec, tmp_path / "out", jobs=1)
    assert [c.key for c in manifest.cells] == cells
    assert all(c.decision for c in manifest.cells)


def test_the_card_template_writes_its_override_beside_it(tmp_path: Path) -> None:
    write_template(tmp_path / "b05.toml", "card")
    override = tmp_path / "variants" / "b05-at-6.toml"
    assert override.read_text() == (templates()["card"].parent / "variants" /
                                    "b05-at-6.toml").read_text()
    spec = load_study(tmp_path / "b05.toml")
    (variant,) = spec.variants
    assert variant.name == "B05-at-6"
    # a second study beside it shares the same file; a different file there is not overwritten
    write_template(tmp_path / "again.toml", "card")
    override.write_text('base = "default"\n')
    with pytest.raises(CdsimError, match=r"variants/b05-at-6.toml exists \(the card template"):
        write_template(tmp_path / "third.toml", "card")
    assert not (tmp_path / "third.toml").exists()
    assert override.read_text() == 'base = "default"\n'


def test_the_default_template_is_the_default_study(tmp_path: Path) -> None:
    write_template(tmp_path / "mine.toml", "default")
    assert load_study(tmp_path / "mine.toml").identity() == \
        load_study(resolve("default")).identity()


def test_every_game_with_a_shipped_study_is_a_template(tmp_path: Path) -> None:
    """Issue 60 item 2: `study init --template castles` writes The Castles of Tuscany's
    shipped study to edit (any game's ``GameSpec.study``, by the game's name)."""
    from cdsim.games import GAMES

    shipped = [name for name, spec in GAMES.items()
               if not spec.default and spec.study is not None]
    assert "castles" in shipped
    for name in shipped:
        write_template(tmp_path / f"my-{name}.toml", name)
        mine = load_study(tmp_path / f"my-{name}.toml")
        assert mine.file.name == f"my-{name}" and mine.file.game == name
        assert mine.identity() == load_study(resolve(name)).identity()


def test_the_default_games_name_is_the_default_study(tmp_path: Path) -> None:
    """Issue 60's audit: the help says a game's name is a template, and the default game's
    (carpe-diem) was refused; it is the default study, as --template default writes it."""
    from cdsim.games import game_spec

    name = game_spec(None).name
    (tmp_path / "other").mkdir()
    write_template(tmp_path / "mine.toml", name)
    write_template(tmp_path / "other" / "mine.toml", "default")
    assert (tmp_path / "mine.toml").read_text() == (tmp_path / "other" / "mine.toml").read_text()


def test_an_unknown_template_is_one_line_and_exit_2(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "mine.toml"
    code, err = run_main(["study", "init", str(path), "--template", "cards"], monkeypatch, capsys)
    assert code == 2, err
    assert err == ("cdsim: error: unknown template 'cards' (templates: card, carpe-diem, "
                   "castles, castles-change, default, mediterranean, sweep)\n")
    assert not path.exists() and list(tmp_path.iterdir()) == []
