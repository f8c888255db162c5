"""The path to the real box (issue 61 item 8): ``cdsim components check`` says how many
entries of a set are the box's, and ``cdsim components transcribe`` writes the checklist of
the reconstructed ones, most influential first (the sensitivity ranking's order when one
has been run, else the families', said so), for every game whose entries are tagged."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from cdsim import core
from cdsim.games import GAMES, game_spec
from tests.commands import run_cli

pytestmark = pytest.mark.skipif(not core.available(), reason="the compiled core plays")

A01_PRINTED = 'base = "default"\n[[objective]]\nid = "A01"\nprovenance = "rulebook"\n'


def boxes(text: str) -> list[str]:
    """The entries a checklist asks to tick, in order."""
    return re.findall(r"^- \[ \] \*\*(.+?)\*\*", text, flags=re.M)


def headings(text: str) -> list[str]:
    return re.findall(r"^## \d+\. ([\w-]+):", text, flags=re.M)


def test_check_counts_the_box_entries_of_every_game(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    for name, spec in GAMES.items():
        if spec.entries is None:
            continue
        found = spec.entries(None)
        printed = sum(e.printed for e in found)
        assert 0 < printed < len(found), name  # both kinds in every shipped set
        code, out, err = run_cli(["components", "check", "default", "--game", name],
                                 monkeypatch, capsys)
        assert code == 0, err
        assert f"{printed} of {len(found)} entries are the box's; the rest reconstructed" \
            in out, (name, out)
        assert ("cdsim components transcribe lists" if spec.default else
                f"cdsim components transcribe --game {name} lists") in out, out
    assert (sum(e.printed for e in game_spec("carpe-diem").entries(None)),
            len(game_spec("carpe-diem").entries(None))) == (13, 168)  # docs/components.md
    # an override that tags an entry as the box's counts it
    override = tmp_path / "a01.toml"
    override.write_text(A01_PRINTED)
    code, out, err = run_cli(["components", "check", str(override)], monkeypatch, capsys)
    assert code == 0, err
    assert "14 of 168 entries are the box's" in out, out
    castles = json.loads(game_spec("castles").set_keys.text(None))  # type: ignore[union-attr]
    cards = [{**e, "source": "rulebook"} for e in castles["cards"]]
    mine = tmp_path / "castles.json"
    mine.write_text(json.dumps({"cards": cards}))
    code, out, err = run_cli(["components", "check", "--game", "castles", str(mine)],
                             monkeypatch, capsys)
    assert code == 0, err
    before = sum(e.printed for e in game_spec("castles").entries(None))
    now = before + sum(e.get("source") != "rulebook" for e in castles["cards"])
    assert f"{now} of 62 entries are the box's" in out, out


def test_without_a_ranking_the_checklist_says_so_and_follows_the_families(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli(["components", "transcribe"], monkeypatch, capsys)
    assert code == 0, err
    assert "no sensitivity ranking has been run" in out
    spec = game_spec(None)
    rebuilt = [e.name for e in spec.entries(None) if not e.printed]  # type: ignore[misc]
    ticked = boxes(out)
    assert sorted(ticked) == sorted(rebuilt) and len(ticked) == 155  # each once
    order = [f.name for f in spec.families()]  # type: ignore[misc]
    assert headings(out)[:3] == order[:3]
    assert '[[objective]] with id = "A01" and provenance = "rulebook"' in out
    # an entry tagged as the box's leaves the list; --out writes the file
    (tmp_path / "a01.toml").write_text(A01_PRINTED)
    code, out, err = run_cli(["components", "transcribe", "--components", "a01.toml",
                              "--out", "todo.md"], monkeypatch, capsys)
    assert code == 0, err
    written = (tmp_path / "todo.md").read_text()
    assert "objective card A01" not in boxes(written) and len(boxes(written)) == 154
    assert "14 of 168 entries are the box's" in written


def _ranking(folder: Path, order: list[str]) -> None:
    def effect(name: str, rank: int) -> dict[str, object]:
        seats = [{"seat": s, "base": 0.0, "variant": 0.0, "shift": 2.0 - rank if s == 3 else 0.1,
                  "low": 1.0 - rank, "high": 3.0 - rank, "sd": 0.3} for s in (2, 3)]
        return {"family": name, "largest": 2.0 - rank, "players": 3, "seat": 3,
                "clear": rank == 0, "moved": [],
                "shifts": [{"players": 3, "games": 100, "deals": 10, "seats": seats}]}
    folder.mkdir(parents=True)
    (folder / "sensitivity.json").write_text(json.dumps(
        {"players": [3], "games": {"3": 18288},
         "ranking": [effect(n, i) for i, n in enumerate(order)]}))


def test_a_ranking_puts_the_most_influential_families_first(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    _ranking(tmp_path / "studies" / "sensitivity", ["chimneys", "fountain-card-vp"])
    code, out, err = run_cli(["components", "transcribe"], monkeypatch, capsys)
    assert code == 0, err
    assert headings(out)[:2] == ["chimneys", "fountain-card-vp"], headings(out)
    assert "sensitivity ranking in studies/sensitivity/sensitivity.json" in out
    assert "18,288 games a side" in out
    assert "moves seat 3's fair offset by +2.00 VP at 3 players" in out
    assert len(boxes(out)) == 155 and len(set(boxes(out))) == 155
    first = boxes(out)[0]
    assert first.startswith("tile "), first  # a villa tile's chimneys
    # another folder, and a broken one: one line naming the file
    _ranking(tmp_path / "other", ["scroll-track"])
    code, out, err = run_cli(["components", "transcribe", "--ranking", "other"],
                             monkeypatch, capsys)
    assert code == 0 and headings(out)[0] == "scroll-track", err
    (tmp_path / "other" / "sensitivity.json").write_text("{")
    code, out, err = run_cli(["components", "transcribe", "--ranking", "other"],
                             monkeypatch, capsys)
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1 and "sensitivity.json: not a sensitivity ranking" \
        in lines[0], err


def test_the_castles_checklist_is_by_table(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    _ranking(tmp_path / "studies" / "sensitivity", ["chimneys"])  # Carpe Diem's: not used
    code, out, err = run_cli(["components", "transcribe", "--game", "castles"],
                             monkeypatch, capsys)
    assert code == 0, err
    spec = game_spec("castles")
    rebuilt = [e.name for e in spec.entries(None) if not e.printed]  # type: ignore[misc]
    assert boxes(out) == rebuilt and len(rebuilt) == 49
    assert "no sensitivity ranking has been run for this game" in out
    tables = [e.table for e in spec.entries(None) if not e.printed]  # type: ignore[misc]
    assert headings(out) == list(dict.fromkeys(tables))  # by table, in the set's order
    assert '"source": "rulebook" on this one' in out
    assert "13 of 62 entries are the box's; the 49 below are reconstructed." in out


def test_export_takes_the_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                               capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 60 item 2: another game's set is exported as one JSON file of every table,
    which loads as the same set (the same digest)."""
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli(["components", "export", "--game", "castles", "mine"],
                             monkeypatch, capsys)
    assert code == 0, err
    written = tmp_path / "mine" / "castles.json"
    assert "--game castles --components mine/castles.json" in out
    spec = game_spec("castles")
    assert spec.components_digest(str(written))[0] == spec.components_digest(None)[0]
    assert set(json.loads(written.read_text())) == set(json.loads(
        spec.set_keys.text(None)))  # type: ignore[union-attr]
    code, out, err = run_cli(["components", "check", "--game", "castles", str(written)],
                             monkeypatch, capsys)
    assert code == 0 and "13 of 62 entries are the box's" in out, err


def _complete(command: str, option: str, line: list[str], incomplete: str) -> list[str]:
    """What the shell completes for ``option`` of ``cdsim COMMAND`` after ``line``."""
    import typer.main

    from cdsim.cli import app

    cmd = typer.main.get_command(app).commands[command]  # type: ignore[attr-defined]
    ctx = cmd.make_context(command, list(line), resilient_parsing=True)
    param = next(p for p in cmd.params if option in p.opts)
    return [c.value for c in param.shell_complete(ctx, incomplete)]


def test_completion_offers_the_values(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 61 item 9: completion of the values typer lets it complete: the game's players
    (the last of a comma-separated list), whatif's --play and its --set entries."""
    assert _complete("play", "--strategies", [], "vi") == ["villa"]
    assert _complete("simulate", "--strategies", [], "greedy,la") == ["greedy,landscape"]
    castles = _complete("simulate", "--strategies", ["--game", "castles"], "castle-")
    assert castles == ["castle-monastery"]
    assert "villa" not in _complete("ladder", "--strategies", ["--game", "castles"], "")
    assert _complete("whatif", "--play", [], "s") == ["scripted", "strong", "scripted,strong"]
    assert _complete("whatif", "--set", [], "objective.B0") == [
        f"objective.B0{i}." for i in range(1, 10)]
    assert "colour_bonus.castle." in _complete("whatif", "--set", ["--game", "castles"],
                                               "colour_bonus.")


def test_another_games_set_names_its_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a01.toml").write_text(A01_PRINTED)
    code, _, err = run_cli(["components", "transcribe", "--game", "castles", "--components",
                            "a01.toml"], monkeypatch, capsys)
    assert code == 2 and "a component set of Carpe Diem" in err and "--game carpe-diem" in err, err
