"""The Castles of Tuscany's game as people read it (``cdsim play --game castles``): the
final table, the decisions as lines (``--trace``), and the data of the replay page
(``replay.html`` and ``replay.js`` beside it, put together by ``cdsim.view.pages``).

A step of the replay is one decision, shown in the state it was taken in (the core's
frame, ``castles::replay::Frame``: every hand, each board as hexes once laid), and the
last step is the state at the end with the final scoring. Each step keeps only what
changed since the step before (per seat, its holdings that changed), so a 4-player game
is tens of kB, not the megabyte of whole frames; the page rebuilds the states once.
Seats and display slots are counted from 1 on the page, as the rulebook counts them."""

from __future__ import annotations

from cdsim.games.names import shown_names
from cdsim.games.recorded import RecordedGame, replay_head, replay_steps

# The breakdown's VP sources (``GameSpec.breakdown``, the core's code names) in words, as
# the replay page heads its final table (docs/rules-castles.md numbers each), and in two
# short lines of whole words for the text table (``heads``).
WORDS = {"start": "starting VP", "area": "completed areas (T7.5)", "crops": "new crops (T8.5)",
         "colour_bonus": "colour bonuses (T9)", "storage_token": "storage tokens (T8.3)",
         "harvest_green": "harvest cards, green (T8.9)",
         "harvest_red": "harvest cards, red (T8.9)", "spare_hex": "wood without storage (T8.10)",
         "leftovers": "leftovers (T11.2)"}
SHORT = {"area": ("", "areas"), "crops": ("new", "crops"), "colour_bonus": ("colour", "bonuses"),
         "storage_token": ("storage", "tokens"), "harvest_green": ("harvest", "green"),
         "harvest_red": ("harvest", "red"), "spare_hex": ("spare", "wood"),
         "leftovers": ("", "leftovers")}


def heads(sources: list[str]) -> list[tuple[str, str]]:
    """Each VP source's column head in two lines of whole words (``SHORT``; another
    source: its code name's words, the last below)."""
    out = []
    for source in sources:
        *top, bottom = source.split("_")
        out.append(SHORT.get(source, (" ".join(top), bottom)))
    return out


def summary_lines(game: RecordedGame) -> list[str]:
    """The final table: seat, player, VP by source, final VP, rank, the winner."""
    label = shown_names([s.strategy for s in game.seats])
    sources = list(game.seats[0].breakdown)
    head = heads(sources)
    widths = [max(len(top), len(bottom), 4) for top, bottom in head]
    lines = [f"\n{game.game} game seed {game.seed}"
             + (f" setup {game.setup}" if game.setup is not None else "")
             + f", {game.players} players"
             + ("  (winner by tie-break: empty spaces, then green VP)" if game.tiebreak else "")]
    for row, tail in ((0, ""), (1, "  final rank")):
        words = " ".join(h[row].rjust(w) for h, w in zip(head, widths, strict=True))
        lines.append((("seat strategy" if row else "").ljust(21) + " " + words + tail).rstrip())
    for s in game.seats:
        parts = " ".join(str(s.breakdown[src]).rjust(w) for src, w in zip(sources, widths,
                                                                         strict=True))
        lines.append(f"{s.seat + 1:>4} {label[s.strategy]:<16} {parts} {s.final_vp:>6} "
                     f"{s.rank:>4}{'  winner' if s.won else ''}")
    return lines


def decision_lines(game: RecordedGame) -> list[str]:
    """Every decision in words, one line each (``--trace``)."""
    label = shown_names([s.strategy for s in game.seats])
    names = [label[s.strategy] for s in game.seats]
    out = []
    for i, d in enumerate(game.decisions, 1):
        phase = d.frame.get("phase", "")
        out.append(f"{i:>4} phase {phase} seat {d.seat + 1} ({names[d.seat]}) "
                   f"{d.decision}: {d.option}")
    return out


def replay_data(game: RecordedGame, title: str, digest: str, default: bool,
                breakdown: tuple[str, ...]) -> dict[str, object]:
    """The replay page's data: per step the seat (``a``; -1 at the end), the decision kind
    (``k``; ``final`` at the end), the option chosen in words (``t``), how many options
    there were (``n``) and what changed since the step before (``d``)."""
    return {
        **replay_head(game, title, digest, default, breakdown, lambda k: WORDS.get(k, k)),
        "final": [{"seat": s.seat, "final_vp": s.final_vp, "rank": s.rank, "won": s.won,
                   "breakdown": s.breakdown, "green_vp": s.row.get("green_vp"),
                   "empty_spaces": s.row.get("empty_spaces")} for s in game.seats],
        "steps": replay_steps(game, lambda d: {"a": d.seat, "k": d.decision, "t": d.option,
                                               "n": d.options}),
    }


__all__ = ["WORDS", "decision_lines", "heads", "replay_data", "summary_lines"]
