"""Bad input to the JSON component sets (Castles', the Mediterranean's) and of one game's set
given to another, after issue 60's audit: every fault is one line naming the file and the
dotted key with what it should hold (no serde position in a document cdsim merged), exit 2;
an unknown key inside an entry is refused, not dropped; what ``components export`` writes
(its file or its folder) loads back and plays; ``components transcribe``, ``diff``,
``sensitivity`` and ``score`` take --game; a JSON set given to a game whose sets are not JSON
names the games whose sets are."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from cdsim import core
from cdsim.games import GAMES, game_spec
from tests.commands import run_cli

pytestmark = pytest.mark.skipif(not core.available(), reason="needs the compiled core")


def builtin(game: str) -> dict[str, object]:
    text: str = core.module().builtin_components(game)  # type: ignore[union-attr]
    data: dict[str, object] = json.loads(text)
    return data


def written(tmp_path: Path, name: str, data: object) -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return path


def one_line(code: int, err: str, placed: bool = False) -> str:
    """The one error line of a refused command (exit 2, no traceback; no place in JSON
    unless ``placed``: a place in the file the designer wrote)."""
    assert code == 2 and err.count("\n") == 1 and err.startswith("cdsim: error: "), (code, err)
    assert placed or (" at line " not in err and "column" not in err), err
    return err[len("cdsim: error: "):-1]


def colour_bonus(**extra: object) -> dict[str, object]:
    table = builtin("castles")["colour_bonus"]
    assert isinstance(table, list)
    table[0].update(extra)
    return {"colour_bonus": table}


def test_a_misspelled_key_in_a_castles_entry_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Audit item 1: "frist" for "first" was accepted (exit 0), the entry left as it was,
    and whatif reported a verdict on it."""
    path = written(tmp_path, "typo.json", colour_bonus(frist=6))
    said = (f'{path}: colour_bonus[0].frist: unknown key "frist" (known: colour, first, '
            "second, source)")
    for args in (["components", "check", "--game", "castles", str(path)],
                 ["play", "--game", "castles", "--players", "3", "--components", str(path)],
                 ["components", "diff", "--game", "castles", "default", str(path)]):
        assert one_line(*run_cli(args, monkeypatch, capsys)[::2]) == said, args


def med_rules(**changed: object) -> dict[str, object]:
    rules = builtin("mediterranean")["rules"]
    assert isinstance(rules, dict)
    return {"rules": {**rules, **changed}}


@pytest.mark.parametrize(("game", "data", "said"), [
    ("castles", lambda: colour_bonus(first=-4),
     "colour_bonus[0].first: expected a whole number 0 to 255, got -4"),
    ("castles", lambda: colour_bonus(first=1e30),
     "colour_bonus[0].first: expected a whole number 0 to 255, got 1e+30"),
    ("castles", lambda: {"colour_bonus": "x"}, 'colour_bonus: expected a list, got "x"'),
    ("mediterranean", lambda: med_rules(start_gold={"value": "five", "source": "rulebook"}),
     'rules.start_gold.value: expected a whole number, got "five"'),
    ("mediterranean", lambda: med_rules(rounds={"value": 3, "nosuch": 1, "source": "rulebook"}),
     'rules.rounds.nosuch: unknown key "nosuch" (known: value, source)'),
    ("mediterranean", lambda: med_rules(coastal_miles={"value": [9, 2], "source": "rulebook"}),
     "rules.coastal_miles: [9, 2] is not a range of miles >= 1"),
], ids=["negative", "huge", "not-a-list", "text", "unknown-key", "reversed-range"])
def test_a_bad_value_names_the_file_and_its_key(
        game: str, data: Callable[[], object], said: str, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Audit item 7: serde's text "at line 1 column 13727" of the merged JSON, no key; a
    reversed range of miles was a cascade of lines, one a distance tile."""
    path = written(tmp_path, "bad.json", data())
    code, _, err = run_cli(["components", "check", "--game", game, str(path)], monkeypatch,
                           capsys)
    assert one_line(code, err) == f"{path}: {said}"


@pytest.mark.parametrize("game", ["castles", "mediterranean"])
def test_an_export_loads_back_as_a_file_or_a_folder_and_plays(
        game: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Audit items 3 and 9: the Mediterranean's export was refused ("unknown key 'game'"),
    and the folder an export wrote was "[Errno 21] Is a directory"."""
    folder = tmp_path / "exp"
    code, out, err = run_cli(["components", "export", "--game", game, str(folder)],
                             monkeypatch, capsys)
    assert code == 0, err
    digest = game_spec(game).components_digest(None)[0][:12]
    for given in (folder / f"{game}.json", folder):
        code, out, err = run_cli(["components", "check", "--game", game, str(given)],
                                 monkeypatch, capsys)
        assert code == 0 and out.startswith("ok: ") and f"set {digest}" in out, (given, err)
        assert "changes from the built-in set" not in out
        assert "entries are the box's" in out  # both games' entries are tagged
    code, out, err = run_cli(["play", "--game", game, "--players", "3", "--components",
                              str(folder / f"{game}.json")], monkeypatch, capsys)
    assert code == 0, err
    code, out, err = run_cli(["components", "diff", "--game", game, "default", str(folder)],
                             monkeypatch, capsys)
    assert (code, out) == (0, "no differences\n"), err


def test_a_set_of_another_identity_or_a_folder_without_it_is_one_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    path = written(tmp_path, "other.json", {"game": "castles"})
    code, _, err = run_cli(["components", "check", "--game", "mediterranean", str(path)],
                           monkeypatch, capsys)
    assert one_line(code, err) == f'{path}: game must be "mediterranean" (a mediterranean set)'
    (tmp_path / "empty").mkdir()
    code, _, err = run_cli(["components", "check", "--game", "castles", str(tmp_path / "empty")],
                           monkeypatch, capsys)
    assert one_line(code, err) == (f"{tmp_path / 'empty'}: a folder without castles.json; give "
                                   "the castles component file (JSON), as components export "
                                   "writes it")


def test_transcribe_lists_the_mediterraneans_reconstructed_entries(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Audit item 9: every entry carries its ``source``, yet transcribe refused ("not
    tagged"); each reconstructed entry is listed once, as --set names it."""
    code, out, err = run_cli(["components", "transcribe", "--game", "mediterranean"],
                             monkeypatch, capsys)
    assert code == 0, err
    entries = game_spec("mediterranean").entries
    assert entries is not None
    found = entries(None)
    todo = [e for e in found if not e.printed]
    assert todo and len(todo) < len(found)
    assert len({e.name for e in found}) == len(found)  # the checklist keys them by name
    assert f"{len(found) - len(todo)} of {len(found)} entries are the box's" in out
    assert all(out.count(f"**{e.name}**") == 1 for e in todo)
    names = {e.address for e in found}
    assert {"rules.start_gold", "distance_tiles.coastal.1", "routes.Carthago Nova-Saguntum",
            "goods.grapes"} <= names, sorted(names)


@pytest.mark.parametrize(("args", "said"), [
    (["components", "sensitivity", "--game", "castles"],
     "--game castles: The Castles of Tuscany has no families of component entries to perturb"),
    (["score", "--game", "mediterranean", "pos.toml"],
     "--game mediterranean: Mediterranean (Dirk Henn) has no rules console"),
])
def test_a_command_a_game_lacks_refuses_its_game(
        args: list[str], said: str, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Audit item 9: diff, sensitivity and score had no --game at all."""
    code, _, err = run_cli(args, monkeypatch, capsys)
    assert one_line(code, err).startswith(said)


def test_a_json_set_given_to_a_game_whose_sets_are_not_json_names_the_games(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Audit item 10: Carpe Diem said "not valid TOML: Invalid statement" of a bad JSON set
    with no word of --game; the games whose sets are JSON come from the registry."""
    path = written(tmp_path, "bad.json", colour_bonus(first=-4))
    json_games = [n for n, spec in GAMES.items() if spec.component_files is None]
    assert json_games
    hint = f"(a JSON set? give {' or '.join(f'--game {n}' for n in json_games)})"
    for args in (["components", "check", str(path)],
                 ["play", "--players", "3", "--components", str(path)],
                 ["components", "diff", "default", str(path)]):
        line = one_line(*run_cli(args, monkeypatch, capsys)[::2], placed=True)
        assert line.startswith(f"{path}: not valid TOML") and line.endswith(hint), line
    toml = tmp_path / "bad.toml"
    toml.write_text("a = [\n")  # bad TOML is not a JSON set: no hint
    line = one_line(*run_cli(["components", "check", str(toml)], monkeypatch, capsys)[::2],
                    placed=True)
    assert "not valid TOML" in line and "JSON" not in line
