"""Record one game step by step for the HTML replay (``cdsim play --html``).

The replay is the second renderer of the core's typed events (``State.events()``,
core/src/carpe_diem/game/events.rs), beside the text trace (``cdsim.games.carpe_diem.view.trace``); nothing is
parsed from text. A step opens at a pawn placement, a phase's deal, a move (the turn:
the take and every scroll step, completion, seal tile and fountain it caused), the start
of a scoring phase or a circle taken (with its cards); the last step is final scoring.
Its lines are ``trace.line`` of its events, the words of ``--trace``.

What each step shows is the core's state when its last event is over: the recorder
keeps the core's snapshot at every decision (``Table.on_decision``) and at the end, with
the number of events recorded by then. A step that ends where event j begins shows the
first snapshot taken with j events recorded or more. Most steps end at a decision (the
next pawn, move or circle), so that snapshot is exactly theirs; the last turn of a phase
ends at the scoring phase's start, which changes nothing drawn. Only a deal happens
inside the decision that ends another step (the last pawn, or the last circle of a
scoring phase): that step shows the snapshot after the deal with what the deal changes
(phase, start player, depots, tile decks) as they were at the decision before. Each step
keeps only what changed, so a 4-player game is ~50 kB of JSON.

The page counts seats, patrician spaces, district rows and columns from 1, as the
rulebook counts seats; the data counts from 0, as the core does.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Literal, NotRequired, TypedDict, get_args

from cdsim import __version__
from cdsim.games.carpe_diem.rules.components import Components, ObjectiveCard, load_components
from cdsim.games.carpe_diem.rules.game import CIRCLES
from cdsim.games.carpe_diem.rules.kinds import CELLS, NEIGHBOUR
from cdsim.games.carpe_diem.rules.records import BREAKDOWN, GameRecord
from cdsim.games.carpe_diem.rules.snapshot import Deal, Event, Snapshot
from cdsim.games.carpe_diem.view import trace
from cdsim.games.names import shown_name

if TYPE_CHECKING:
    from cdsim.games.carpe_diem.engine.table import Table

# What the page draws of a state (``view``): one short key per thing that changes, its
# value a number or a small list of numbers or card ids.
Shown = dict[str, int | list[int] | list[int | None] | list[str] | list[list[int]]]


class Step(TypedDict):
    """One step of the replay as the page reads it: its kind (``k``), seat (``a``), phase
    (``p``), round (``r``), where it opens in the events (``e``), its trace lines (``t``)
    and what its state changes (``d``)."""

    k: str
    a: int
    p: int
    r: int
    e: int
    t: list[str]
    d: NotRequired[Shown]

# The events that open a step, and the step's kind on the page.
OPENS = {"pawn": "pawn", "deal": "phase", "move": "turn", "scoring_phase": "scoring",
         "circle": "circle"}
# What a deal changes (R3.2, R3.3): the state before it keeps these from the decision
# before.
DealField = Literal["phase", "round", "start_player", "depots", "depot_taken", "light_deck",
                   "dark_deck"]
DEAL_FIELDS: tuple[DealField, ...] = get_args(DealField)


def view(snap: Snapshot) -> Shown:
    """The core's snapshot as the page draws it, as small lists: one key per thing that
    changes (start player, depots, seal row, circle owners, deck sizes; per seat ``p``:
    pawn, scroll, stamp, 4 goods, coins, bread, stored, tiles built, features complete,
    VP held; ``f``: fountain cards)."""
    out: Shown = {
        "sp": snap["start_player"],
        "dp": [list(d) for d in snap["depots"]],
        "sl": list(snap["seal"]),
        "co": list(snap["circle_owner"]),
        "dk": [len(snap["light_deck"]), len(snap["dark_deck"]), len(snap["fountain_deck"])],
    }
    for seat, p in enumerate(snap["players"]):
        d = p["district"]
        out[f"p{seat}"] = [p["pawn"], p["scroll"], p["stamp"], *p["goods"], p["coins"],
                           p["bread"], p["stored"], sum(e is not None for e in d["edges"]),
                           sum(d["complete_count"]), p["vp"]]
        out[f"f{seat}"] = list(p["fountain_cards"])
    return out


class Recorder:
    """The replay of one game on a ``Table`` built with ``events=True`` and the Python
    rules beside the core (``mirror=True``: the table's driver applies each decision
    to them too and calls ``on_decision``). Make it before ``table.play()``; ``finish()``
    after."""

    def __init__(self, table: Table) -> None:
        if not table.events or table.python is None:
            raise ValueError("the replay needs a Table with events=True and mirror=True")
        self.table = table
        self.marks: list[tuple[int, Snapshot]] = []  # (events recorded, the core's state)
        table.on_decision = self.mark

    def mark(self) -> None:
        """A decision is about to be taken: keep the core's state and its event count."""
        core = self.table.core
        self.marks.append((int(core.event_count()), self.table.snapshot()))

    def state(self, j: int, events: Sequence[Event]) -> Snapshot:
        """The core's state once ``events[:j]`` have happened (and nothing after)."""
        k = bisect_left([count for count, _ in self.marks], j)
        count, snap = self.marks[k]
        if k > 0 and any(e["type"] == "deal" for e in events[j:count]):
            before = self.marks[k - 1][1]
            snap = snap.copy()
            for key in DEAL_FIELDS:
                snap[key] = before[key]
        return snap

    def finish(self) -> dict[str, object]:
        """The replay as one JSON-able dict (after ``table.play()``)."""
        table = self.table
        if not table.core.is_over():
            raise RuntimeError("the game is not over: Recorder.finish() after table.play()")
        record = table.record()
        events = table.event_list()
        if not self.marks or self.marks[-1][0] < len(events):
            self.mark()  # the end
        n = record.players
        deal = table.deal()
        grid, circles = deal["grid"], CIRCLES[n]

        # the steps: where each opens in the event list, its kind, seat, phase and round
        steps: list[Step] = [Step(k="setup", a=-1, p=0, r=-1, e=0,
                                  t=[trace.trace([], n, grid, circles)[0]])]
        for i, e in enumerate(events):
            kind = OPENS.get(e["type"])
            if kind is not None:
                at = self.state(i, events)
                phase = e["phase"] if "phase" in e else at["phase"]
                steps.append(Step(k=kind, a=e.get("seat", -1), p=phase,
                                  r=at["round"] if kind == "turn" else -1, e=i, t=[]))
            steps[-1]["t"].append(trace.line(e, n, grid, circles).strip())
        end = self.state(len(events), events)
        steps.append(Step(k="final", a=record.winner, p=end["phase"], r=-1, e=len(events),
                          t=[trace.trace([], n, grid, circles, record)[-1]]))

        # each step's state: the state when the next step opens (the last two: the end)
        shown: Shown = {}
        before: Snapshot | None = None
        built: list[list[list[int]]] = [[] for _ in range(n)]
        features: list[list[list[Any]]] = [[] for _ in range(n)]
        comps = load_components(table.components)
        tile_index = {t.id: i for i, t in enumerate(comps.tile_types)}
        for step, upto in zip(steps, [s["e"] for s in steps[1:]] + [len(events)], strict=True):
            after = self.state(upto, events)
            mine = events[step["e"]:upto]
            for e in mine:
                if e["type"] in ("take", "seal") and e["cell"] is not None:
                    t = tile_index[e["tile"]]
                    tile = comps.tile_types[t]
                    built[e["seat"]].append([e["cell"], *(e["edges"] or ()), tile.chimneys,
                                             tile.building, t])
            for seat, found in completions(mine, before, after):
                features[seat].append(found)
            now = view(after)
            step["d"] = {k: v for k, v in now.items() if shown.get(k) != v}
            shown, before = now, after
        return replay_data(table, comps, record, deal, steps, built, features)


def completions(events: Sequence[Event], before: Snapshot | None,
              after: Snapshot) -> list[tuple[int, list[Any]]]:
    """The features the ``complete`` events describe, in their order, each as (seat,
    [kind, tiles, chimneys, cells]). The cells are those the core's ``complete_mask``
    gained between the two states; when one step completes two features of one kind,
    they are told apart by the sides that join them (and then by size)."""
    out: list[tuple[int, list[Any]]] = []
    parts: dict[tuple[int, int], list[list[int]]] = {}
    for e in events:
        if e["type"] != "complete":
            continue
        seat, kind = e["seat"], e["kind"]
        if (seat, kind) not in parts:
            district = after["players"][seat]["district"]
            gained = district["complete_mask"][kind]
            if before is not None:
                gained &= ~before["players"][seat]["district"]["complete_mask"][kind]
            parts[seat, kind] = split(gained, district["edges"], kind)
        left = parts[seat, kind]
        match = next((p for p in left if len(p) == e["tiles"]), left[0] if left else [])
        if match:
            left.remove(match)
        out.append((seat, [kind, e["tiles"], e["chimneys"], match]))
    return out


def split(mask: int, edges: Sequence[Sequence[int] | None], kind: int) -> list[list[int]]:
    """The cells of ``mask`` as features of ``kind``: two cells are one feature when the
    sides they share are of that kind (a building is one cell: its sides are meadow)."""
    left = {c for c in range(CELLS) if mask >> c & 1}
    out = []
    while left:
        todo = [min(left)]
        left.discard(todo[0])
        part = []
        while todo:
            cell = todo.pop()
            part.append(cell)
            sides = edges[cell] or ()
            for d, n in enumerate(NEIGHBOUR[cell]):
                if n in left and d < len(sides) and sides[d] == kind:
                    left.discard(n)
                    todo.append(n)
        out.append(sorted(part))
    return out


# the page's JSON (replay.js reads it)
def replay_data(table: Table, c: Components, record: GameRecord, deal: Deal,
                steps: list[Step], built: list[list[list[int]]],
                features: list[list[list[Any]]]) -> dict[str, object]:
    """Everything the page needs: the static game (components in use, boards, frames,
    cards; the deal is ``State.deal()``), each seat's built tiles and completed features
    in order, and the steps."""
    boards = {b.id: b for b in c.boards}
    players = []
    for seat, (board_id, frame) in enumerate(zip(deal["boards"], deal["frames"], strict=True)):
        board = boards[board_id]
        players.append({
            "strategy": shown_name(table.lineup.names[seat]),  # a file: its class's name
            "board": [board.id, board.spade, sorted(board.scrolls)],
            "frame": [[part, [[g.kind, g.vp, g.line] for g in c.frame_parts[part].goals]]
                      for part in frame],
            "built": built[seat],
            "features": features[seat],
        })
    grid: list[str | None] = deal["grid"]
    return {
        "version": __version__,
        "seed": record.seed,
        "setup": table.setup,
        "players": players,
        "components": {"digest": c.digest[:12], "default": c.is_default},
        "tiles": [[t.id, list(t.edges), t.chimneys, t.building, int(t.dark)]
                  for t in c.tile_types],
        "grid": grid,
        "cards": {cid: _card(c.objectives[cid]) for cid in grid if cid is not None},
        "circles": [list(pair) for pair in CIRCLES[record.players]],
        "fountains": {f.id: [f.goal, f.vp] for f in c.fountains.values()},
        "scroll": list(c.scroll_points),
        "steps": steps,
        "final": {"tiebreak": record.tiebreak, "seats": [
            {"breakdown": s.breakdown, "final": s.final_vp, "rank": s.rank, "won": s.won,
             "scroll": s.scroll, "failed": s.failed_cards} for s in record.seats]},
        "breakdown": list(BREAKDOWN),
    }


def _card(card: ObjectiveCard) -> dict[str, str | int]:
    return {"deck": card.deck, "pay": card.pay, "text": card.describe(),
            "provenance": card.provenance}
