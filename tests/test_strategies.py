"""The built-in players: legal, deterministic, score-blind, and recognisably themselves."""

import ast
import inspect
from pathlib import Path

import pytest

from cdsim.errors import CdsimError
from cdsim.game import GameConfig, play_game
from cdsim.testing import check_strategy
from strategies.registry import BUILTIN, make_lineup, make_strategy, parse_params

SCRIPTED = ["greedy", "villa", "landscape", "bread"]


@pytest.mark.parametrize("name", list(BUILTIN))
def test_every_builtin_is_score_blind(name: str) -> None:  # DESIGN.md: exact re-balancing
    assert make_strategy(name).reads_scores is False


def test_no_builtin_touches_victory_points() -> None:
    folder = Path(__file__).parent.parent / "strategies"
    for path in folder.glob("*.py"):
        tree = ast.parse(path.read_text())
        names = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
        assert not names & {"scores", "current_vp", "_card_vp", "_start_vp", "_overflow_vp"}, path


@pytest.mark.parametrize("name", SCRIPTED)
def test_only_legal_choices_and_deterministic(name: str) -> None:
    # checking mode after every action; an illegal choice raises IllegalChoice
    check_strategy(BUILTIN[name], games=2)


def _mean(lineup: list[str], field: str, seats: list[int], games: int) -> float:
    total = 0.0
    for seed in range(games):
        record = play_game(GameConfig(len(lineup)), make_lineup(lineup, len(lineup)), seed)
        total += sum(getattr(record.seats[s], field) for s in seats)
    return total / games / len(seats)


def test_villa_player_builds_more_chimneys_than_random() -> None:
    villa = _mean(["villa", "random"], "villa_chimneys", [0], 30)
    rand = _mean(["random", "random"], "villa_chimneys", [0], 30)
    assert villa > rand + 3


def test_bread_player_makes_more_bread_moves() -> None:
    bread = _mean(["bread", "greedy"], "bread_moves", [0], 30)
    greedy = _mean(["bread", "greedy"], "bread_moves", [1], 30)
    assert bread > greedy


def test_landscape_player_completes_more_landscapes() -> None:
    land = _mean(["landscape", "villa"], "landscapes", [0], 30)
    villa = _mean(["landscape", "villa"], "landscapes", [1], 30)
    assert land > villa


def test_scripted_players_beat_random() -> None:
    for name in SCRIPTED:
        wins = sum(play_game(GameConfig(2), make_lineup([name, "random"], 2), s).seats[0].won
                   for s in range(10))
        assert wins >= 9, name


def test_strategy_params_override_the_profile() -> None:
    overrides = parse_params("villa.chimney=2.5,greedy.store=0")
    villa = make_strategy("villa", overrides)
    assert villa.params.chimney == 2.5  # type: ignore[attr-defined]
    assert make_strategy("greedy", overrides).params.store == 0  # type: ignore[attr-defined]
    assert make_strategy("bread", overrides).params == make_strategy("bread").params  # type: ignore[attr-defined]


@pytest.mark.parametrize("text", ["villa.nope=1", "villa.chimney=x", "chimney=1", "zzz.store=1"])
def test_bad_strategy_params_are_one_line(text: str) -> None:
    with pytest.raises(CdsimError):
        parse_params(text)  # rejected before any strategy is made


def test_user_strategy_loads_from_module_path() -> None:
    s = make_strategy("strategies.random_player:RandomStrategy")
    assert s.name == "random"
    with pytest.raises(CdsimError, match="no class"):
        make_strategy("strategies.random_player:Nope")


def test_descriptions_are_one_line() -> None:
    for name, factory in BUILTIN.items():
        doc = getattr(factory, "description", "")
        assert doc and "\n" not in doc, name
        assert inspect.isclass(factory)


# Recorded digest of 12 fixed-seed games of the scripted players. Speed work must not
# change it; a deliberate change of a player or a rule re-records it (say why).
SCRIPTED_GAMES_DIGEST = "8ca04f8b70adebc6e2fc2098f85279ed102fc267bf8dffc016483703f0007209"


def test_fixed_seed_digest_guards_the_players() -> None:
    from cdsim.records import digest_rows

    rows = []
    for n, lineup in ((2, ["greedy", "bread"]), (3, ["villa", "landscape", "greedy"]),
                      (4, ["greedy", "villa", "landscape", "bread"])):
        for seed in range(4):
            rows += play_game(GameConfig(n), make_lineup(lineup, n), seed).rows()
    assert digest_rows(rows) == SCRIPTED_GAMES_DIGEST


def test_a_placement_is_worth_the_same_in_every_orientation_that_fits() -> None:
    """The bots value a tile once per cell (value.Evaluator.by_cell); each offered
    orientation, valued on its own, must give exactly that value (R5.2: the sides
    that face built tiles match them, so the parts join the same features)."""
    from strategies.scripted import GreedyPlayer

    checked = {"options": 0, "shared": 0}

    class Checking(GreedyPlayer):
        def choose_take(self, view, options):  # type: ignore[no-untyped-def]
            ev, cache = self._evaluator(view)
            types = view.state.components.tile_types
            cells: dict[tuple[int, int], int] = {}
            for o in options:
                if o.edges is None:
                    continue
                alone = ev.placement(types[o.tile_type], o.cell, o.edges)
                self._tile_value(view, ev, o.tile_type, cache)
                assert cache[o.tile_type][1][o.cell] == alone
                cells[(o.tile_type, o.cell)] = cells.get((o.tile_type, o.cell), 0) + 1
                checked["options"] += 1
            checked["shared"] += sum(n - 1 for n in cells.values())
            return super().choose_take(view, options)

    for seed in range(2):
        play_game(GameConfig(4), [Checking(), *make_lineup(["villa", "bread", "landscape"], 3)],
                  seed)
    assert checked["options"] > 500 and checked["shared"] > 100
