"""Fair starting VP by skill (cdsim/analysis/skill.py; the report's section reports/study/skill.py):
population ratings from the ladder's resamples, the compensation bars (vectors not shown
unfair), the one-sentence verdict on synthetic cells (moves / does not move / not decided),
the floor left out, the shipped ratings file, and the study report's section."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cdsim.analysis import skill
from cdsim.analysis.anytime import Decision
from cdsim.analysis.candidates import CellGames, candidates, win_table
from cdsim.analysis.cell import shares_of
from cdsim.analysis.offsets import FairOffset
from cdsim.analysis.skill import Point, Rating
from cdsim.study import skill as panels
from cdsim.study.cell import CellResult
from reports.study import skill as section
from tests.study_cells import cell_result, verdict

TOL = 0.02


def games(shift: int, n: int = 40_000, seed: int = 0) -> CellGames:
    """2-player games in which seat 2 gains ``shift`` VP more than seat 1 on average (so the
    fair vector is about 8/8-shift), one game per deal, ties by a random R10.6 order."""
    rng = np.random.default_rng(seed)
    gained = rng.integers(0, 7, size=(n, 2)) + 40
    gained[:, 1] += shift
    tiebreak = np.array([[0, 1], [1, 0]])[rng.integers(0, 2, size=n)]
    return CellGames(gained, tiebreak, np.arange(n))


def cell(population: str, stages: CellGames, decision: Decision, vector: tuple[int, ...],
         fair_set: tuple[tuple[int, ...], ...] = (), floor: bool = False,
         lineup: tuple[str, ...] = ("greedy",), needed: int | None = None,
         runs: tuple[tuple[str, ...], ...] = ()) -> CellResult:
    rule = (8, 9)
    return cell_result(population, rule, [lineup], verdict(decision, vector, fair_set, needed),
                       shares_of(win_table(stages, [rule])), stages=(stages,), runs=runs,
                       floor=floor, budget=stages.games, rotate_seats=False)


def pt(name: str, rating: float | None, decision: str, vector: tuple[int, ...],
       fair_set: tuple[tuple[int, ...], ...] = (), needed: int | None = None) -> Point:
    r = Rating(rating, rating - 20, rating + 20, (name,)) if rating is not None else None
    return Point(name, r, decision, vector, fair_set, 10_000, needed, 4)


# -- ratings ---------------------------------------------------------------------------------

LADDER: dict[str, Any] = {
    "ratings": {"a": {"rating": 100.0}, "b": {"rating": 0.0}, "c": {"rating": -100.0}},
    "resamples": {"a": list(np.linspace(80, 120, 201)), "b": list(np.linspace(-20, 20, 201)),
                  "c": list(np.linspace(-140, -60, 201))},
}


def test_population_rating_is_the_mean_with_the_resampled_mean_s_percentiles() -> None:
    r = skill.population_rating(LADDER, ("a", "b"))
    assert r is not None
    assert r.value == pytest.approx(50.0) and r.members == ("a", "b")
    mean = (np.linspace(80, 120, 201) + np.linspace(-20, 20, 201)) / 2  # the same resamples
    assert (r.low, r.high) == pytest.approx(tuple(np.percentile(mean, [2.5, 97.5])))
    assert skill.population_rating(LADDER, ("a", "learned@weights=x.json")) is None
    assert skill.population_rating(None, ("a",)) is None


def test_the_shipped_ratings_file_rates_the_default_study_s_populations() -> None:
    table = panels.load_ratings()
    for players in ("2", "3", "4"):
        ladder = table[players]
        assert ladder["command"].startswith(f"cdsim ladder --players {players} ")
        assert ladder["components_digest"] and ladder["weights"]["learned"]["digest"]
        scripted = skill.population_rating(ladder, ("greedy", "villa", "landscape", "bread"))
        strong = skill.population_rating(ladder, ("learned",))
        assert scripted is not None and strong is not None
        assert scripted.low <= scripted.value <= scripted.high
        assert strong.low <= strong.value <= strong.high


# -- the compensation bars -------------------------------------------------------------------

def test_vectors_not_shown_unfair_surround_the_fair_one() -> None:
    g = games(shift=-2)  # seat 2 gains 2 VP less: 8/10 is fair, 8/8 and 8/12 are not
    vectors = candidates((8, 9), 4)
    keep = vectors[skill.not_shown_unfair(g, vectors, TOL, 0.025)]
    assert [8, 10] in keep.tolist() and [8, 8] not in keep.tolist()
    assert [8, 12] not in keep.tolist()
    p = skill.point(cell("strong", g, "confirmed", (8, 10), ((8, 10),)), None, TOL, 0.025)
    assert p.comp.tolist() == [2.0] and p.low[0] <= 2 <= p.high[0] and p.high[0] < 4


# -- the verdict -----------------------------------------------------------------------------

def test_moves_when_one_population_s_confirmed_vector_is_shown_unfair_for_another() -> None:
    weak = cell("scripted", games(0, seed=1), "confirmed", (8, 8), ((8, 8),))
    strong = cell("strong", games(-2, seed=2), "undecided", (8, 10), needed=50_000)
    unfair = skill.cross_unfair([weak, strong], TOL, 0.025)
    assert unfair == {("scripted", "strong"): True}
    kind, text = skill.verdict(2, [pt("scripted", 0, "confirmed", (8, 8), ((8, 8),)),
                                   pt("strong", 400, "undecided", (8, 10), needed=50_000)],
                               unfair, TOL)
    assert kind == "moves"
    assert "**move with skill**" in text and "scripted's confirmed 8/8 is shown unfair for strong" in text


def test_the_same_games_do_not_show_the_vector_unfair() -> None:
    weak = cell("scripted", games(0, seed=1), "confirmed", (8, 8), ((8, 8),))
    same = cell("strong", games(0, seed=2), "undecided", (8, 8), needed=50_000)
    assert skill.cross_unfair([weak, same], TOL, 0.025) == {("scripted", "strong"): False}


def test_moves_when_the_other_population_has_no_fair_vector() -> None:
    kind, text = skill.verdict(3, [pt("scripted", 0, "confirmed", (8, 10, 12), ((8, 10, 12),)),
                                   pt("strong", 400, "no fair vector", (8, 9, 9))], {}, TOL)
    assert kind == "moves" and "no whole-VP vector within ±4 VP is fair for strong" in text
    reads = Point("strong", None, "no fair vector", (8, 9, 13), (), 10_000, None, 0)
    kind, text = skill.verdict(3, [pt("scripted", 0, "confirmed", (8, 10, 12), ((8, 10, 12),)),
                                   reads], {}, TOL)  # only 8/9/13 was judged for strong
    assert kind == "not decided" and "strong judged at more vectors than its ±0 VP" in text


def test_does_not_move_only_when_one_vector_is_shown_fair_for_every_population() -> None:
    a = pt("scripted", 0, "confirmed", (8, 8), ((8, 8), (8, 9)))
    b = pt("strong", 400, "confirmed", (8, 9), ((8, 9), (8, 8)))
    kind, text = skill.verdict(2, [b, a], {}, TOL)
    assert kind == "does not move" and "**do not move with skill**" in text
    assert "8/8 and 8/9 are shown fair within ±2.0 pp for every population" in text
    assert text.index("scripted 8/8") < text.index("strong 8/9")  # weakest first
    # strong names 8/9 alone, scripted shows it fair too: the same VP serve both
    c = pt("strong", 400, "confirmed", (8, 9), ((8, 9),))
    kind, text = skill.verdict(2, [a, c], {}, TOL)
    assert kind == "does not move" and "8/9 is shown fair within ±2.0 pp for every" in text
    # no vector shown fair for both (and no offsets): open
    d = pt("scripted", 0, "confirmed", (8, 8), ((8, 8),))
    kind, text = skill.verdict(2, [d, c], {}, TOL)
    assert kind == "not decided" and "move with skill" in text and "do not" not in text
    assert "more strong games, to show scripted's 8/8 fair or unfair for strong" in text


def with_offsets(p: Point, *offsets: tuple[float, float, float]) -> Point:
    return replace(p, offsets=tuple(FairOffset(*o) for o in offsets))


def test_fair_offsets_apart_beyond_chance_move_with_skill() -> None:
    """The default study's 2-player figures (2026-11-26): seat 2's fair offset -0.1 VP
    (-0.57 to +0.35) for scripted and -0.98 (-1.34 to -0.63) for strong, no vector shown
    fair for both: the offsets decide "moves"; the same offsets twice as uncertain do not."""
    scripted = with_offsets(pt("scripted", 0, "confirmed", (8, 8), ((8, 8),)), (-0.098, -0.568, 0.351))
    strong = with_offsets(pt("strong", 400, "confirmed", (8, 7), ((8, 7),)), (-0.975, -1.34, -0.63))
    kind, text = skill.verdict(2, [strong, scripted], {}, TOL)
    assert kind == "moves" and "**move with skill**" in text
    assert "seat 2's fair offset is -0.1 VP (-0.6 to +0.4) for scripted and -1.0 VP" in text
    wide = with_offsets(strong, (-0.975, -1.7, -0.25))
    kind, _ = skill.verdict(2, [wide, scripted], {}, TOL)
    assert kind == "not decided"
    # one more test to split the level over: the same gap is no longer beyond chance
    kind, _ = skill.verdict(2, [strong, scripted], {}, TOL, level=0.0005)
    assert kind == "not decided"


def test_a_common_fair_vector_does_not_move_even_when_the_offsets_differ() -> None:
    """The default study's 4-player figures: 8/6/6/9 shown fair for both populations while
    every seat's fair offset differs (scripted -1.35, -1.35, +1.28; strong -2.08, -1.83,
    +0.76)."""
    scripted = with_offsets(pt("scripted", 0, "confirmed", (8, 7, 7, 9), ((8, 6, 6, 9), (8, 7, 7, 9))),
                            (-1.353, -1.593, -1.121), (-1.353, -1.578, -1.112), (1.282, 1.06, 1.508))
    strong = with_offsets(pt("strong", 400, "confirmed", (8, 6, 6, 9), ((8, 6, 6, 9),)),
                          (-2.076, -2.294, -1.866), (-1.834, -2.033, -1.63), (0.764, 0.547, 0.973))
    kind, text = skill.verdict(4, [strong, scripted], {}, TOL)
    assert kind == "does not move" and "8/6/6/9 is shown fair within ±2.0 pp for every" in text
    assert "Their fractional fair offsets do differ, though: seat 2's fair offset is -1.4 VP" in text
    assert "seat 4's fair offset is +1.3 VP (+1.1 to +1.5) for scripted and +0.8 VP" in text
    assert "seat 3's fair offset is -1.4 VP (-1.6 to -1.1) for scripted and -1.8" in text


def test_not_decided_says_what_would_decide_it() -> None:
    kind, text = skill.verdict(4, [pt("scripted", 0, "confirmed", (8, 7, 7, 10), ((8, 7, 7, 10),)),
                                   pt("strong", 400, "undecided", (8, 7, 7, 9), needed=120_000)],
                               {("scripted", "strong"): False}, TOL)
    assert kind == "not decided" and "**not decided at these budgets**" in text
    assert "strong to confirm a vector (undecided after 10,000 games; about 120,000 more games would" in text
    assert "or more strong games to show scripted's 8/7/7/10 unfair for it" in text
    kind, text = skill.verdict(4, [pt("scripted", 0, "undecided", (8, 7, 7, 10), needed=None),
                                   pt("strong", None, "no verdict yet", (8, 7, 7, 9))], {}, TOL)
    assert kind == "not decided" and "strong to finish its stages" in text
    assert "might instead show that no vector is fair for it" in text
    kind, text = skill.verdict(2, [pt("scripted", 0, "confirmed", (8, 8), ((8, 8),))], {}, TOL)
    assert kind == "one population" and "only scripted plays here" in text


def test_the_floor_is_neither_drawn_nor_in_the_verdict(tmp_path: Path) -> None:
    ladder = {"2": {**LADDER, "ratings": {**LADDER["ratings"], "random": {"rating": -900.0}},
                    "resamples": {**LADDER["resamples"], "random": [-900.0] * 201}}}
    cells = [cell("random", games(0, seed=3), "confirmed", (8, 8), ((8, 8),), floor=True,
                  lineup=("random",)),
             cell("scripted", games(0, seed=1), "confirmed", (8, 8), ((8, 8),), lineup=("a", "b")),
             cell("strong", games(-2, seed=2), "undecided", (8, 10), lineup=("c",), needed=9)]
    panel = panels.panels(tmp_path, cells, [2], TOL, 0.05, ladder)[2]
    assert [p.population for p in panel.points] == ["strong", "scripted"]  # -100 < +50
    assert "random" not in panel.sentence and panel.kind == "moves"
    assert panel.points[1].rating is not None and panel.points[1].rating.value == 50.0
    data = section.as_json(panel)
    assert [p["population"] for p in data["populations"]] == ["strong", "scripted"]
    assert json.loads(json.dumps(data)) == data
    # a population the ladder did not rate: drawn apart, and the report says so
    unrated = panels.panels(tmp_path, cells[1:], [2], TOL, 0.05, {})[2]
    assert all(p.rating is None for p in unrated.points)
    assert any("scripted has no rating" in n for n in unrated.notes)


# -- in the study report ---------------------------------------------------------------------

TWO = """\
name = "two"
seed = 3
games = 600
chunk_size = 150
players = [2]
tolerance = 0.3
[[population]]
name = "random"
lineup = ["random"]
[[population]]
name = "scripted"
lineup = ["greedy", "bread"]
[[population]]
name = "strong"
lineup = ["learned"]
"""


def two_population_study(folder: Path) -> Path:
    """A tiny 2-player study with the floor, a scripted and a strong population, reported."""
    from cdsim.study import play
    from cdsim.study.model import load_study
    from reports.study import write

    folder.mkdir(parents=True, exist_ok=True)
    (folder / "two.toml").write_text(TWO)
    root = folder / "two"
    play.run(load_study(folder / "two.toml"), root, jobs=1)
    write(root)
    return root


def test_the_study_report_sets_the_populations_side_by_side(tmp_path: Path) -> None:
    root = two_population_study(tmp_path)
    data = json.loads((root / "study.json").read_text())["skill"]["2"]
    assert data["verdict"] in ("moves", "does not move", "not decided")
    pops = {p["population"]: p for p in data["populations"]}
    assert set(pops) == {"scripted", "strong"}  # never the floor
    ladder = panels.load_ratings()["2"]
    assert data["ratings_source"]["command"] == ladder["command"]
    want = skill.population_rating(ladder, ("greedy", "bread"))
    assert want is not None and pops["scripted"]["rating"] == pytest.approx(want.value)
    assert pops["strong"]["rating"] > pops["scripted"]["rating"]  # learned is far stronger
    for p in pops.values():
        low, high = p["compensation_low"][0], p["compensation_high"][0]
        assert low <= p["compensation"][0] <= high or p["vectors_not_shown_unfair"] == 0
        assert p["vector"][1] - p["vector"][0] == p["compensation"][0]
    md = (root / "study.md").read_text()
    body = md.split("## Fair starting VP by skill")[1].split("## Settings")[0]
    assert data["sentence"] in body and "charts/skill.png" in body
    assert (root / "charts" / "skill.png").stat().st_size > 1000
    assert md.index("## Fair starting VP by skill") < md.index("## Settings")


def test_the_shipped_skill_study_orders_populations_by_strength() -> None:
    from cdsim.study.file import resolve
    from cdsim.study.model import load_study

    spec = load_study(resolve("skill"))  # `cdsim study run skill`
    assert [p.name for p in spec.file.population] == ["random", "scripted", "strong", "search"]
    assert spec.file.population[0].floor and not any(p.floor for p in spec.file.population[1:])
    table = panels.load_ratings()
    for players in spec.file.players:  # every skilled population has a rating on its ladder
        for pop in spec.file.population[1:]:
            names = tuple(dict.fromkeys(n.spelling for x in pop.lineups_for(players) for n in x))
            assert skill.population_rating(table[str(players)], names) is not None, pop.name


def test_the_report_says_when_the_learned_weights_differ_from_the_rated_ones(tmp_path: Path
                                                                             ) -> None:
    from cdsim.study.store import run_folder

    strong = cell("strong", games(0, seed=2), "undecided", (8, 8), lineup=("learned",), needed=9,
                  runs=(("2p.strong+s0",),))
    scripted = cell("scripted", games(0, seed=1), "confirmed", (8, 8), ((8, 8),), lineup=("a",))
    folder = run_folder(tmp_path, "2p.strong+s0")
    folder.mkdir(parents=True)
    played = {"weights": {"learned": {"path": "w.json", "digest": "b" * 64}}}
    (folder / "manifest.json").write_text(json.dumps(played))
    resamples = {**LADDER["resamples"], "learned": list(np.linspace(200, 300, 201))}
    ladder = {**LADDER, "ratings": {**LADDER["ratings"], "learned": {"rating": 250.0}},
              "resamples": resamples, "weights": {"learned": {"digest": "a" * 64}}}
    notes = panels.panels(tmp_path, [scripted, strong], [2], TOL, 0.05, {"2": ladder})[2].notes
    assert len(notes) == 1 and "strong played learned with weights bbbbbbbbbbbb" in notes[0]
    assert "rated weights aaaaaaaaaaaa" in notes[0]
    ladder["weights"] = {"learned": {"digest": "b" * 64}}  # the same weights: nothing to say
    assert not panels.panels(tmp_path, [scripted, strong], [2], TOL, 0.05, {"2": ladder})[2].notes
