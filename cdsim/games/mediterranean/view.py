"""The Mediterranean trading game as people read it (``cdsim play --game mediterranean``): the
final table, the decisions as lines (``--trace``), and the data of its replay page
(``replay.html`` and ``replay.js`` beside it, put together by ``cdsim.view.pages``).

A step is one decision in the state it was taken in (the core's frame,
``MedState::frame``), the last the end with the final scoring; each step keeps only what
changed. **The hidden rowing card stays hidden until it is revealed** (M5.1): the core's
frame, drawn after the game, holds every laid card; here a card laid face down is shown as
"face down" and stays in its seat's hand, and the choice is worded "lays a rowing card
face down", until every seat has laid and the cards are turned up (the seat's ``played``);
a face-down contract of the row shows only the coins on it. The map, the regions and the
rowing cards' faces (the frame's ``board``, the same in every frame) go once into the
page's data."""

from __future__ import annotations

import re

from cdsim.games.names import shown_names
from cdsim.games.recorded import Decision, RecordedGame, replay_head, replay_steps

# the breakdown's VP sources (GameSpec.breakdown) in words, with their rules
WORDS = {"start": "starting VP", "temples": "temple tiles (M6.2-M6.5)",
         "gold_temple": "gold temple tiles (M6.4)", "bonus": "bonus tiles (M6.1)"}
# and in two short lines of whole words for the text table, where "gold" is the coins left
SHORT = {"start": ("", "start"), "temples": ("temple", "tiles"),
         "gold_temple": ("gold temple", "tiles"), "bonus": ("bonus", "tiles")}
NONE = 255  # the core's "no card" (mediterranean::NONE)
HIDDEN_CHOICE = "rowing-card"  # M5.1's face-down choice (MedState::decision)
HIDDEN_WORDS = "lays a rowing card face down"
# the decisions (the core's kinds, MedState::decision) in words, for the trace and the page
DECISIONS = {"contract": "contract", "turned-contract": "the contract turned up",
             "rowing-card": "rowing card", "sail": "sailing", "extra-turn": "extra turn",
             "extra-rowing-card": "the extra turn's rowing card"}


def _seats(frame: dict[str, object]) -> list[dict[str, object]]:
    seats = frame.get("seats", [])
    assert isinstance(seats, list)  # a frame's seats are a list of objects
    return seats


def hide(frame: dict[str, object]) -> dict[str, object]:
    """``frame`` as the table shows it: each face-down rowing card back in its seat's hand
    (sorted, as hands are), its ``laid`` only ``"face down"``; a face-down contract of the
    row only the coins on it (M4.1, M4.9)."""
    seats: list[dict[str, object]] = []
    for seat in _seats(frame):
        laid, hand = seat.get("laid", NONE), seat.get("hand", [])
        assert isinstance(laid, int) and isinstance(hand, list)  # card numbers
        if laid != NONE:
            seats.append({**seat, "hand": sorted([*hand, laid]), "laid": "face down"})
        else:
            seats.append({**seat, "laid": None})
    row = frame.get("row", [])
    assert isinstance(row, list)  # the contracts on offer, objects
    offers = [o if o.get("face_up") else {"face_up": False, "coins": o.get("coins", 0)}
              for o in row]
    return {**frame, "seats": seats, "row": offers}


# the option's words (MedState::describe) the page reads: a sail's two cities and the good
# it delivers, a taken contract's good, city and register column
SAIL = re.compile(r"^sails (.+) -> (.+?) \(\d+ miles")
DELIVER = re.compile(r", delivers (.+?) to ")
TAKE = re.compile(r"^takes (.+?) to (.+?) \(.*, into column (\d+)$")


def _where(option: str) -> dict[str, object]:
    """What the page highlights for an option: a sail's ``from`` and ``to`` cities (and the
    good it ``delivers``), a taken contract's good and city (``good``, ``to``) and its
    register column (``column``, from 0)."""
    sail, take = SAIL.match(option), TAKE.match(option)
    if sail:
        delivers = DELIVER.search(option)
        return {"from": sail[1], "to": sail[2], **({"delivers": delivers[1]} if delivers else {})}
    if take:
        return {"good": take[1], "to": take[2], "column": int(take[3]) - 1}
    return {}


def shown_option(decision: str, option: str) -> str:
    """A decision's option as the table sees it: a face-down rowing card unnamed."""
    return HIDDEN_WORDS if decision == HIDDEN_CHOICE else option


def summary_lines(game: RecordedGame) -> list[str]:
    """The final table: seat, player, VP by source, final VP, rank, the winner(s)."""
    label = shown_names([s.strategy for s in game.seats])
    sources = list(game.seats[0].breakdown)
    heads = [SHORT.get(s, (" ".join(s.split("_")[:-1]), s.split("_")[-1])) for s in sources]
    widths = [max(len(top), len(bottom), 4) for top, bottom in heads]
    shared = [s for s in game.seats if s.row.get("shared_win")]
    lines = [f"\n{game.game} game seed {game.seed}"
             + (f" setup {game.setup}" if game.setup is not None else "")
             + f", {game.players} players"
             + (f"  (a shared victory, M8.2: seats {', '.join(str(s.seat + 1) for s in shared)};"
                " ranked by the final play order)" if len(shared) > 1 else "")]
    for row, tail in ((0, "              coins"), (1, "  final rank   left")):
        words = " ".join(h[row].rjust(w) for h, w in zip(heads, widths, strict=True))
        lines.append((("seat strategy" if row else "").ljust(21) + " " + words + tail).rstrip())
    for s in game.seats:
        parts = " ".join(str(s.breakdown[src]).rjust(w) for src, w in zip(sources, widths,
                                                                         strict=True))
        won = "  winner" if s.row.get("shared_win") else ""
        lines.append(f"{s.seat + 1:>4} {label[s.strategy]:<16} {parts} {s.final_vp:>6} "
                     f"{s.rank:>4} {s.row.get('gold', 0)!s:>6}{won}")
    return lines


def decision_lines(game: RecordedGame) -> list[str]:
    """Every decision in words, one line each (``--trace``); a face-down card unnamed."""
    label = shown_names([s.strategy for s in game.seats])
    names = [label[s.strategy] for s in game.seats]
    return [f"{i:>4} round {d.frame.get('round', '')} {d.frame.get('phase', '')} seat "
            f"{d.seat + 1} ({names[d.seat]}) {DECISIONS.get(d.decision, d.decision)}: "
            f"{shown_option(d.decision, d.option)}"
            for i, d in enumerate(game.decisions, 1)]


def replay_data(game: RecordedGame, title: str, digest: str, default: bool,
                breakdown: tuple[str, ...]) -> dict[str, object]:
    """The replay page's data: per step the seat (``a``; -1 at the end), the decision kind
    (``k``), the option in words as the table sees it (``t``), how many options there were
    (``n``), what the page highlights for it (``_where``) and what changed since the step
    before (``d``), every frame hidden as the table sees it (``hide``); the set's map and
    faces once (``board``)."""
    return {
        **replay_head(game, title, digest, default, breakdown, lambda k: WORDS.get(k, k)),
        "decisions": DECISIONS, "board": game.end.get("board"),
        "final": [{"seat": s.seat, "final_vp": s.final_vp, "rank": s.rank, "won": s.won,
                   "shared": bool(s.row.get("shared_win")), "gold": s.row.get("gold"),
                   "breakdown": s.breakdown} for s in game.seats],
        "steps": replay_steps(game, _step, lambda frame: hide(
            {k: v for k, v in frame.items() if k != "board"})),
    }


def _step(d: Decision) -> dict[str, object]:
    """A decision's step: its seat, kind, option as the table sees it, how many options, and
    what the page highlights for it (never for the face-down rowing card)."""
    return {"a": d.seat, "k": d.decision, "t": shown_option(d.decision, d.option),
            "n": d.options, **({} if d.decision == HIDDEN_CHOICE else _where(d.option))}


__all__ = ["DECISIONS", "WORDS", "decision_lines", "hide", "replay_data", "summary_lines"]
