"""Record one game step by step for the HTML replay (``cdsim play --html``).

The engine is not touched: the recorder hears the game through two channels it
already has. The trace callback gives the text of every step; each seat's
strategy is wrapped so that the recorder hears, just before a decision that
starts a step (a pawn placement, a turn, a scoring circle), that the previous
step is over, and reads the state then. A step is one pawn placement, a phase's
deal, one turn (with every completion and reward it caused), the start of a
scoring phase, or one circle taken with its two cards; the last step is final
scoring. Each step keeps only what changed, so a 4-player game is ~40 kB of JSON.

The page counts seats from 1 (the rulebook's first player is seat 1), and so
patrician spaces and district rows and columns. The lines shown are the trace's,
renumbered where the trace counts from 0 (``Numbering`` learns which, per game).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from cdsim import __version__
from cdsim.cards import Payment
from cdsim.components import ObjectiveCard
from cdsim.players import (
    CircleChoice,
    FountainChoice,
    Move,
    PlayerView,
    SealBuild,
    Strategy,
    Take,
)
from cdsim.records import BREAKDOWN, GameRecord

if TYPE_CHECKING:
    from cdsim.game import GameConfig, GameState

Snapshot = dict[str, Any]

_SEAT = re.compile(r"\bseat (\d+)")
_SPACE = re.compile(r"\b(moves to|move to|starts on space) (\d+)")
_CELL = re.compile(r"\((\d), (\d)\)")
_CIRCLE = re.compile(r"takes circle (\d+)")


class _Watched:
    """A seat's strategy as the recorder sees it: the same decisions, unchanged, and
    a word to the recorder before each decision that starts a step."""

    def __init__(self, inner: Strategy, recorder: Recorder) -> None:
        self.inner = inner
        self.name = inner.name
        self.reads_scores = inner.reads_scores
        self._recorder = recorder

    def __getattr__(self, attr: str) -> Any:  # anything else a strategy offers
        return getattr(self.inner, attr)

    def choose_start(self, view: PlayerView, options: Sequence[int]) -> int:
        self._recorder.begin("pawn", view.seat)
        return self.inner.choose_start(view, options)

    def choose_move(self, view: PlayerView, options: Sequence[Move]) -> Move:
        self._recorder.begin("turn", view.seat)
        return self.inner.choose_move(view, options)

    def choose_take(self, view: PlayerView, options: Sequence[Take]) -> Take:
        choice = self.inner.choose_take(view, options)
        self._recorder.note_tile(view.seat, choice)
        return choice

    def choose_seal(self, view: PlayerView, options: Sequence[SealBuild]) -> SealBuild:
        choice = self.inner.choose_seal(view, options)
        self._recorder.note_tile(view.seat, choice)
        return choice

    def choose_fountain(self, view: PlayerView,
                        options: Sequence[FountainChoice]) -> FountainChoice:
        return self.inner.choose_fountain(view, options)

    def choose_circle(self, view: PlayerView,
                      options: Sequence[CircleChoice]) -> CircleChoice:
        self._recorder.begin("circle", view.seat)
        return self.inner.choose_circle(view, options)

    def choose_payment(self, view: PlayerView, card: ObjectiveCard,
                       options: Sequence[Payment]) -> Payment:
        return self.inner.choose_payment(view, card, options)


def snapshot(state: GameState) -> Snapshot:
    """What the replay draws, as small lists: one key per thing that changes."""
    snap: Snapshot = {
        "sp": state.start_player,
        "dp": [list(d) for d in state.depots],
        "sl": list(state.seal),
        "co": list(state.circle_owner),
        "dk": [len(state.light_deck), len(state.dark_deck), len(state.fountain_deck)],
    }
    for p in state.players:
        snap[f"p{p.seat}"] = [p.pawn, p.scroll, p.stamp, *p.goods, p.coins, p.bread, p.stored,
                              p.district.built, len(p.district.features), p.current_vp]
        snap[f"f{p.seat}"] = list(p.fountain_cards)
    return snap


class Numbering:
    """From what each trace number counts (0 or 1): seats, patrician spaces, district
    rows and columns, scoring circles. Learnt from the game itself (the recorder knows
    the seat acting, its pawn, the cell it built and the circle it took), so the page
    counts from 1 whichever way the trace counts."""

    def __init__(self) -> None:
        self.seat = self.space = self.cell = self.circle = 0

    def learn(self, line: str, actor: int, pawn: int, cell: int, circle: int) -> None:
        if (m := _SEAT.search(line)) and actor >= 0:
            self.seat = int(m[1]) - actor
        if (m := _SPACE.search(line)) and pawn >= 0:
            self.space = int(m[2]) - pawn
        if (m := _CELL.search(line)) and cell >= 0:
            self.cell = int(m[1]) - cell // 6
        if (m := _CIRCLE.search(line)) and circle >= 0:
            self.circle = int(m[1]) - circle

    def show(self, line: str, circles: Sequence[Sequence[int]],
             grid: Sequence[str | None]) -> str:
        """A trace line as the page shows it: seats, spaces, rows and columns from 1,
        and a scoring circle named by its two cards."""
        line = _SEAT.sub(lambda m: f"seat {int(m[1]) - self.seat + 1}", line)
        line = _SPACE.sub(lambda m: f"{m[1]} {'' if 'space' in m[1] else 'space '}"
                                    f"{int(m[2]) - self.space + 1}", line)
        line = _CELL.sub(lambda m: f"row {int(m[1]) - self.cell + 1}, "
                                   f"column {int(m[2]) - self.cell + 1}", line)

        def circle(m: re.Match[str]) -> str:
            index = int(m[1]) - self.circle
            if not 0 <= index < len(circles):
                return m[0]
            a, b = circles[index]
            return f"takes the circle between {grid[a]} and {grid[b]}"

        return _CIRCLE.sub(circle, line)


class Recorder:
    """Builds the replay of one game: ``new_game``, run it, then ``finish``."""

    def __init__(self, echo: Callable[[str], None] | None = None) -> None:
        self.echo = echo  # also hand every trace line on (``--trace``)
        self.state: GameState | None = None
        self.steps: list[dict[str, Any]] = []
        self._open: dict[str, Any] | None = None
        self._shown: Snapshot = {}  # the state the last closed step shows
        self._at_line: Snapshot = {}  # the state when the last trace line was logged
        self._tiles: list[dict[int, int]] = []  # per seat: cell -> tile type built there
        self._cell = -1  # the cell of the last tile taken or sealed to be built
        self.numbering = Numbering()

    def new_game(self, config: GameConfig, strategies: Sequence[Strategy], seed: Any,
                 deal: dict[str, Any] | None = None) -> GameState:
        """A GameState whose trace and strategies report to this recorder (``deal``: the
        core's, cdsim.engine.table)."""
        from cdsim.game import GameState

        watched = [_Watched(s, self) for s in strategies]
        self.state = GameState(config, watched, seed, trace=self.on_line, deal=deal)
        self._tiles = [{} for _ in strategies]
        return self.state

    # -- what the game tells the recorder ------------------------------------------
    def begin(self, kind: str, seat: int) -> None:
        """A decision that starts a step is about to be made: the open step is over."""
        self._close(self._now())
        self._start(kind, seat)

    def note_tile(self, seat: int, choice: Take | SealBuild) -> None:
        cell = getattr(choice, "cell", -1)
        if cell >= 0:
            self._tiles[seat][cell] = choice.tile_type
        self._cell = cell

    def on_line(self, line: str) -> None:
        if self.echo is not None:
            self.echo(line)
        if line.startswith("== phase"):
            # The deal came before this line: the open step (the last circle, or the
            # last pawn) ends as it was at its own last line.
            self._close(self._at_line)
            self._start("phase", -1)
        elif line.startswith(("==", "setup")):
            self._close(self._now())
            self._start("scoring" if line.startswith("==") else "setup", -1)
        if self._open is not None:
            self._learn(line)
            self._open["t"].append(line.strip())
        self._at_line = self._now()

    def _learn(self, line: str) -> None:
        """Tell ``numbering`` what this line is about: the seat acting, where its pawn
        now is, the cell it builds and the circle it has just taken."""
        assert self._open is not None
        actor = self._open["a"]
        if actor < 0:
            return
        state = self._game()
        owners = state.circle_owner
        shown = self._shown.get("co", [-1] * len(owners))
        taken = [i for i, o in enumerate(owners) if o == actor and shown[i] != actor]
        self.numbering.learn(line, actor, state.players[actor].pawn, self._cell,
                             taken[-1] if taken else -1)

    # -- the steps -----------------------------------------------------------------
    def _game(self) -> GameState:
        if self.state is None:
            raise RuntimeError("Recorder.new_game() first")
        return self.state

    def _start(self, kind: str, seat: int) -> None:
        """Open a step: its kind, the seat acting (-1: none), phase and round (from 0)."""
        state = self._game()
        self._open = {"k": kind, "a": seat, "p": state.phase,
                      "r": state.round if kind == "turn" else -1, "t": []}

    def _now(self) -> Snapshot:
        return snapshot(self._game())

    def _close(self, snap: Snapshot) -> None:
        if self._open is None:
            return
        self._open["d"] = {k: v for k, v in snap.items() if self._shown.get(k) != v}
        self._shown = snap
        self.steps.append(self._open)
        self._open = None

    def finish(self, record: GameRecord, setup: int | None = None) -> dict[str, Any]:
        """The replay as one JSON-able dict (after ``run_game`` and ``final_scoring``)."""
        self._close(self._now())
        state = self._game()
        for step in self.steps:
            step["t"] = [self.numbering.show(t, state.circles, state.grid) for t in step["t"]]
        self.steps.append({"k": "final", "a": record.winner, "p": state.phase, "r": -1, "d": {}, "t": [
            f"final scoring: seat {record.winner + 1} wins with "
            f"{record.seats[record.winner].final_vp} VP"
            + (" (scroll-track tie-break)" if record.tiebreak else "")]})
        return replay_data(state, record, self.steps, self._tiles, setup)


def replay_data(state: GameState, record: GameRecord, steps: list[dict[str, Any]],
                tiles: list[dict[int, int]], setup: int | None) -> dict[str, Any]:
    """Everything the page needs: the static game (components in use, boards, frames,
    cards), each seat's built tiles and completed features in order, and the steps."""
    c = state.components
    players = []
    for p in state.players:
        d = p.district
        board = d.board
        players.append({
            "strategy": state.strategies[p.seat].name,
            "board": [board.id, board.spade, sorted(board.scrolls)] if board else None,
            "frame": [[part.id, [[g.kind, g.vp, g.line] for g in part.goals]] for part in d.frame],
            "built": [[cell, *edges, chimneys, building, tiles[p.seat].get(cell, -1)]
                      for cell, edges, chimneys, building in d.history],
            "features": [[f.kind, f.tiles, f.chimneys, list(f.cells)] for f in d.features],
        })
    grid_ids = [cid for cid in state.grid if cid is not None]
    return {
        "version": __version__,
        "seed": record.seed,
        "setup": setup,
        "players": players,
        "components": {"digest": c.digest[:12], "default": c.is_default},
        "tiles": [[t.id, list(t.edges), t.chimneys, t.building, int(t.dark)]
                  for t in c.tile_types],
        "grid": state.grid,
        "cards": {cid: _card(c.objectives[cid]) for cid in grid_ids},
        "circles": [list(pair) for pair in state.circles],
        "fountains": {f.id: [f.goal, f.vp] for f in c.fountains.values()},
        "scroll": list(c.scroll_points),
        "steps": steps,
        "final": {"tiebreak": record.tiebreak, "seats": [
            {"breakdown": s.breakdown, "final": s.final_vp, "rank": s.rank, "won": s.won,
             "scroll": s.scroll, "failed": s.failed_cards} for s in record.seats]},
        "breakdown": list(BREAKDOWN),
    }


def _card(card: ObjectiveCard) -> dict[str, Any]:
    return {"deck": card.deck, "pay": card.pay, "text": card.describe(),
            "provenance": card.provenance}
