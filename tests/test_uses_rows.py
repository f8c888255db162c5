"""A run's use rows (cdsim.batch.uses): written only for a run that watches components (a
whatif's), the same seat rows either way; each game's frame parts scored, villa-table rows
scored at and Castles cards taken add up to what the seat rows say; a use part that is not
its chunk's is refused with one line; and the verdict reads the rows a change names."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest

from cdsim.batch.config import RunConfig
from cdsim.batch.folder import RunFolder
from cdsim.batch.uses import kinds, use_rows, watched_only
from cdsim.errors import CdsimError
from cdsim.games import game_spec
from cdsim.study.uses import use_entries
from tests.conftest import core_or_skip


def config(game: str = "carpe-diem", **more: object) -> RunConfig:
    players = ("villa", "greedy", "bread") if game == "carpe-diem" else ("greedy",) * 3
    return RunConfig.checked(game=game, players=3, games=24, seed=5, chunk_size=12,
                             strategies=players, **more)


def test_only_a_watching_run_records_uses_and_its_seat_rows_are_the_same() -> None:
    core_or_skip()
    from cdsim.batch.queue import core_chunk_parts

    plain = config()
    assert "watched" not in plain.record() and "watched" not in plain.identity()
    rows, cards, uses = core_chunk_parts(plain, 0, 12)
    assert uses is None
    watching = config(watched=("part.3", "villa_table"))
    assert watching.record()["watched"] == ["part.3", "villa_table"]
    rows_w, cards_w, uses_w = core_chunk_parts(watching, 0, 12)
    assert rows_w.equals(rows) and cards_w.equals(cards)
    assert set(uses_w["kind"]) <= {"part", "villa_table"}
    assert set(uses_w.filter(pl.col("kind") == "part")["id"]) <= {"3"}


def test_carpe_diem_s_villa_rows_and_frame_parts_add_up_to_the_seat_rows() -> None:
    core_or_skip()
    from cdsim.batch.queue import core_chunk_parts
    from cdsim.games.carpe_diem.rules.components import load_components

    comps = load_components(None)
    parts = [f"part.{p.id}" for p in comps.frame_parts.values()]
    rows, _, uses = core_chunk_parts(config(watched=(*parts, "villa_table")), 0, 12)
    villas = uses.filter(pl.col("kind") == "villa_table").with_columns(
        vp=pl.col("count") * pl.col("id").cast(pl.Int64).map_elements(
            comps.villa_points, return_dtype=pl.Int64))
    per_seat = villas.group_by("game", "seat").agg(pl.col("count").sum(), pl.col("vp").sum())
    seats = rows.join(per_seat, on=["game", "seat"], how="left").fill_null(0)
    assert (seats["count"] == seats["villas"]).all() and seats["villas"].sum() > 0
    assert (seats["vp"] == seats["vp_villas"]).all()
    # each part's goals scored, at their VP, make the seat's frame VP: between the goals
    # at their part's least and most VP (a part's two goals may differ)
    vp = {str(p.id): [g.vp for g in p.goals] for p in comps.frame_parts.values()}
    scored = uses.filter(pl.col("kind") == "part").with_columns(
        low=pl.col("count") * pl.col("id").map_elements(lambda i: min(vp[i]),
                                                         return_dtype=pl.Int64),
        high=pl.col("count") * pl.col("id").map_elements(lambda i: max(vp[i]),
                                                          return_dtype=pl.Int64))
    frame = rows.join(scored.group_by("game", "seat").agg(pl.col("low", "high").sum()),
                      on=["game", "seat"], how="left").fill_null(0)
    assert ((frame["low"] <= frame["vp_frame"]) & (frame["vp_frame"] <= frame["high"])).all()
    assert ((frame["vp_frame"] > 0) == (frame["high"] > 0)).all()
    assert frame["vp_frame"].sum() > 0


def test_a_castles_seat_took_its_dealt_hand_at_least() -> None:
    core_or_skip()
    from cdsim.batch.queue import core_chunk_parts

    _, _, uses = core_chunk_parts(config("castles", watched=("cards.farm", "cards.castle")),
                                  0, 12)
    assert set(uses["kind"]) == {"cards"} and set(uses["id"]) <= {"farm", "castle"}
    took = uses.group_by("game", "seat").agg(pl.col("count").sum())
    assert took.height > 0 and (took["count"] >= 1).all()


def test_a_watching_run_s_folder_holds_its_use_parts_and_refuses_another_chunk_s(
        tmp_path: Path) -> None:
    core_or_skip()
    from cdsim.batch.queue import run_chunks

    run = tmp_path / "run"
    cfg = config(watched=("villa_table",))
    manifest = run_chunks(RunFolder(run), RunFolder(run).begin(cfg, False, False), 1, "loky")
    assert json.loads((run / "manifest.json").read_text())["config"]["watched"] == [
        "villa_table"]
    found = use_rows(run, manifest.finished)
    assert found is not None and found["game"].max() == 23
    RunFolder(run).check_parts(manifest)
    # chunk 1's rows put in chunk 0's place: refused, naming the part
    first, second = (run / "uses" / f"part-0000{i}.parquet" for i in (0, 1))
    first.write_bytes(second.read_bytes())
    with pytest.raises(CdsimError, match=r"part-00000\.parquet: chunk 0's use rows"):
        RunFolder(run).check_parts(manifest)
    # a run that watches nothing writes no uses/
    plain = tmp_path / "plain"
    run_chunks(RunFolder(plain), RunFolder(plain).begin(config(), False, False), 1, "loky")
    assert not (plain / "uses").exists()
    assert use_rows(plain, [0, 1]) is None


def test_the_rows_a_change_names() -> None:
    assert kinds(["part.3", "part.5", "villa_table", "cards.farm"]) == {
        "part": {"3", "5"}, "villa_table": None, "cards": {"farm"}}
    frame = pl.DataFrame({"kind": ["part", "part", "villa_table", "cards"],
                          "id": ["3", "4", "2", "farm"]})
    assert watched_only(frame, ["part.3", "villa_table"])["id"].to_list() == ["3", "2"]
    use = game_spec(None).component_use
    assert use is not None
    assert use_entries(use("villa_table"), ["points.4 5 -> 7", "points.6 9 -> 8"]) == (
        "villa_table.4", "villa_table.6")
    assert use_entries(use("villa_table"), ["per_extra_chimney 2 -> 3"]) == ("villa_table",)
    assert use_entries(use("part.3"), ["goals.0.vp 3 -> 6"]) == ("part.3",)


def test_a_whatif_watches_what_its_sets_and_override_files_change(tmp_path: Path) -> None:
    from cdsim.study.file import Variant
    from cdsim.study.whatif import Change, watched

    override = tmp_path / "o.toml"
    override.write_text('base = "default"\n\n[[part]]\nid = 3\ngoals = [{ kind = "villa", '
                        'vp = 6, line = 0 }, { kind = "vineyard", vp = 3, line = 3 }]\n')
    spec = game_spec(None)
    variant = Variant.model_validate({"name": "o", "components": str(override)})
    assert watched([variant], spec) == ("part.3",)
    sets = [Change("villa_table", "points.4", (7,)), Change("tile.L-bakery", "count", (7,))]
    assert watched([variant], spec, sets) == ("villa_table", "part.3")
    castles = game_spec("castles")
    assert watched([], castles, [Change("cards.farm", "count", (18,)),
                                 Change("harvest.red_vp", "amount", (3,))]) == ("cards.farm",)
