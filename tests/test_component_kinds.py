"""The remaining kinds of use (#61 item 4): a Carpe Diem tile without a building (placed,
by its shape), the scroll track (the final space), a district board (played on); Castles'
player and neutral tiles (placed), colour bonuses (claimed), bonus tokens (taken), the
area VP table's rows (areas completed) and the harvest cards of the other rewards
(revealed). Their use rows add up to what the seat rows say, a tile's shape is named
alike by the core and by Python, and the page gives a new kind's verdict line (and a
sweep's neutral value) as the terminal does, read in headless chromium."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import polars as pl
import pytest

from cdsim.games import game_spec
from cdsim.study.uses import use_entries
from tests.conftest import core_or_skip
from tests.test_component_page import whatif
from tests.test_page_says import boxes, said
from tests.test_replay import browser  # noqa: F401  (the headless chromium fixture)
from tests.test_uses_rows import config

CARPE = game_spec(None).component_use
CASTLES = game_spec("castles").component_use


def test_carpe_diem_s_tiles_scroll_track_and_boards_add_up_to_the_seat_rows() -> None:
    core_or_skip()
    from cdsim.batch.queue import core_chunk_parts
    from cdsim.games.carpe_diem.rules.components import load_components
    from cdsim.games.carpe_diem.uses import tile_shape

    comps = load_components(None)
    shapes = sorted({tile_shape(tuple(t.edges), t.chimneys, t.building)
                     for t in comps.tile_types})
    boards = [f"board.{b.id}" for b in comps.boards]
    watched = (*(f"tile_shape.{s}" for s in shapes), "scroll_track", *boards)
    rows, _, uses = core_chunk_parts(config(watched=watched), 0, 12)
    per = uses.group_by("game", "seat", "kind").agg(pl.col("count").sum(),
                                                    pl.col("id").first())
    seats = rows.select("game", "seat", "scroll", "tiles_built")

    def kind(name: str) -> pl.DataFrame:
        return seats.join(per.filter(pl.col("kind") == name), on=["game", "seat"], how="left")

    # every tile a seat placed has a shape Python names alike (both decks' tiles)
    tiles = kind("tile_shape")
    assert (tiles["count"] == tiles["tiles_built"]).all() and tiles["count"].sum() > 0
    # one final space a seat, the seat row's; one board a seat, of the set's
    scroll = kind("scroll_track")
    assert (scroll["count"] == 1).all() and (scroll["id"].cast(pl.Int64) == scroll["scroll"]).all()
    board = kind("board")
    assert (board["count"] == 1).all() and set(board["id"]) <= {b.split(".")[1] for b in boards}


def test_castles_s_tiles_bonuses_tokens_areas_and_harvests_add_up() -> None:
    core_or_skip()
    from cdsim.batch.queue import core_chunk_parts

    colours = ("castle", "city", "estate", "farm", "quarry", "village", "monastery", "cart")
    watched = (*(f"colour_bonus.{c}" for c in colours), "area_vp", "bonus_tokens.storage",
               "harvest.cards", "player_tiles.farm", "neutral_tiles.castle")
    rows, _, uses = core_chunk_parts(config("castles", watched=watched), 0, 12)
    assert set(uses["kind"]) == {"colour_bonus", "area_vp", "bonus_tokens", "harvest",
                                 "player_tiles", "neutral_tiles"}
    bonus = uses.filter(pl.col("kind") == "colour_bonus")
    assert (bonus["count"] == 1).all()  # a colour's bonus once a seat, two seats at most
    assert bonus.group_by("game", "id").len()["len"].max() <= 2
    claimed = rows.join(bonus.group_by("game", "seat").len(), on=["game", "seat"], how="left")
    assert ((claimed["len"].fill_null(0) > 0) == (claimed["vp_colour_bonus"] > 0)).all()
    # a storage token's 2 green VP (T8.3) and a completed area's (T7.5) reach the red track
    # at each scoring after it (the seat rows' VP by source): a seat with one has them
    for kind, column in (("bonus_tokens", "vp_storage_token"), ("area_vp", "vp_area")):
        mine = rows.join(uses.filter(pl.col("kind") == kind).group_by("game", "seat").agg(
            pl.col("count").sum()), on=["game", "seat"], how="left")
        assert ((mine["count"].fill_null(0) > 0) == (mine[column] > 0)).all(), kind
        assert mine["count"].sum() > 0, kind
    placed = uses.filter(pl.col("kind").str.ends_with("_tiles"))
    assert placed["count"].max() <= 8 and placed.height > 0  # 4 to 8 of a colour a seat


def test_what_use_means_for_each_new_kind() -> None:
    assert CARPE is not None and CASTLES is not None
    villa = CARPE("tile.L-villa-end-2")
    assert villa.uses == "tile_shape.0001-2-0" == CARPE("tile.D-villa-end-2").uses
    assert villa.words.startswith("placed a tile of its shape") and villa.source == "vp_villas"
    assert CARPE("scroll_track").uses == "scroll_track"
    assert CARPE("board.2").uses == "board.2"
    assert use_entries(CARPE("scroll_track"), ["points.12 12 -> 16"]) == ("scroll_track.12",)
    assert CASTLES("colour_bonus.castle").uses == "colour_bonus.castle"
    assert CASTLES("player_tiles.farm-grain").uses == "player_tiles.farm"  # by colour
    assert "by colour, not by crops" in CASTLES("player_tiles.farm-grain").words
    assert CASTLES("pieces.A-1").uses == "pieces.A-1"  # dealt: counted by name
    area = CASTLES("area_vp")
    assert area.uses == "area_vp" and area.source == "vp_area"
    assert use_entries(area, ["vp [1, 3, 6] -> [1, 4, 7]"]) == ("area_vp.1", "area_vp.2")


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, str]]:
    core_or_skip()
    root = tmp_path_factory.mktemp("kinds")
    asked = {"scroll": ("scroll_track.points.12=16", None),
             "sweep": ("scroll_track.points.12=8,16", None),
             "bonus": ("colour_bonus.castle.first=8", "castles")}
    return {name: (root / name, whatif(root / name, change, game=game))
            for name, (change, game) in asked.items()}


def test_the_scroll_track_s_line_and_neutral_value_on_the_page_as_in_the_terminal(
        browser: Any, runs: dict[str, tuple[Path, str]]) -> None:  # noqa: F811
    root, out = runs["scroll"]
    _, lines = said(out, "2p scripted")
    line = next(x for x in lines if x.startswith("the scroll track: "))
    assert "ended the game on a changed space (R10.3)" in line, line
    assert "not recorded" not in line, line
    assert "card margin of ±4.0 pts" in line or "needs more games" in line, line
    figures = next(x for x in lines if x.startswith("the scroll track (points.12 12 -> 16)"))
    assert "; used by " in figures and " ends [" in figures, figures
    assert "scroll VP it scores through" in figures
    (title, box), *_ = boxes(browser, root / "study.html")
    assert title.startswith("What ") and line in box and figures in box, (line, box)
    # a sweep of it: each value's line says where it is neutral, and the sweep's box
    # gives the terminal's sentence on it
    root, out = runs["sweep"]
    for value in (8, 16):
        _, lines = said(out, f"2p scripted [scroll_track-points-12={value}]")
        line = next(x for x in lines if x.startswith("the scroll track: "))
        assert ", neutral " in line, line
    neutral = next(x for x in out.splitlines() if x.startswith("  2 players, scripted: the "
                                                                 "scroll track"))
    sweep = next(b for title, b in boxes(browser, root / "study.html")
                 if title.endswith("= 8, 16 does"))
    assert neutral.removeprefix("  2 players, scripted: ") in sweep, (neutral, sweep)
    assert (root / "charts" / "sweep_scroll_track-points-12_2p_scripted_use.png").is_file()


def test_a_castles_colour_bonus_gets_its_verdict_line_on_the_page_as_in_the_terminal(
        browser: Any, runs: dict[str, tuple[Path, str]]) -> None:  # noqa: F811
    root, out = runs["bonus"]
    _, lines = said(out, "2p scripted")
    line = next(x for x in lines if x.startswith("the castle colour bonus: "))
    assert "claimed it, first or second" in line and "not recorded" not in line, line
    assert "card margin of ±4.0 pts" in line or "needs more games" in line, line
    figures = next(x for x in lines if x.startswith("the castle colour bonus (first 4 -> 8)"))
    assert "; used by " in figures and " bonuses [" in figures, figures
    assert "colour bonus VP it scores through" in figures
    (title, box), *_ = boxes(browser, root / "study.html")
    assert title.startswith("What ") and line in box and figures in box, (line, box)


def test_a_mediterranean_table_every_seat_plays_with_alike_truly_has_no_verdict_line() -> None:
    """The rules' numbers and the map are every seat's alike: no seat uses them and another
    not, and the line says so; its cards and tiles are not recorded yet, a points tile
    beside the temple VP it scores through (a column of the game's seat rows)."""
    from cdsim.study.use_words import component_line, unrecorded_lines
    from cdsim.study.uses import ComponentChange

    spec = game_spec("mediterranean")
    use = spec.component_use
    assert use is not None
    rules = use("rules")
    assert rules.shared and rules.uses is None and rules.column is None
    line = component_line(ComponentChange("rules", ("keys start_gold",), rules, {}, {}))
    assert line == ("the rules: no verdict line: every seat plays by the same rules' numbers, "
                    "so no seat uses it and another not; its effect on each style is below")
    both = [ComponentChange(e, (), use(e), {}, {}) for e in ("cities", "routes")]
    assert unrecorded_lines(both)[0].startswith("the cities and the routes: no verdict line: "
                                                "every seat plays on the same map")
    tiles = use("points_tiles")
    assert not tiles.shared and tiles.source == "vp_temples"
    assert tiles.source in {c for c, _ in spec.columns()[0]}
    said = component_line(ComponentChange("points_tiles", (), tiles, {}, {}))
    assert "is not recorded yet" in said and "not which cards or tiles" in said
