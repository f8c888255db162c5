"""The reconstructed entries of the shipped component set, grouped into *families* that a
designer would transcribe together, each perturbed by one step (``cdsim components
sensitivity``; docs/components.md, "Which reconstructed entries matter").

A family is one override file of the default set (``base = "default"`` and only the entries
it changes), validated like any other set. It changes reconstructed entries only (the
``rulebook`` ones stay as printed) and each of its entries by the smallest change a
transcription could plausibly find:

- a card value (an objective card's VP, a fountain card's VP, a frame goal's VP): one VP
  more; a card that pays goods, coins or steps instead of VP: one scroll step more (a step
  is worth one VP at the end); a requirement: one more of the good or feature it asks the
  most of;
- a frame goal's line: the next line along its side; a district board: mirrored left to
  right (the same spaces, another layout);
- the villa table: one VP more for every chimney count the rulebook does not fix (3 -> 3
  and 5 -> 7 are printed, so its slope is; only the rest can be off); the scroll track: one
  VP more every fifth space (a track a fifth steeper);
- the tile mix: one more copy of each kind of a class (the villa tiles, the landscapes, the
  dwelling halves, the buildings, the two-feature tiles), with as many copies taken from
  the deck's other kinds in proportion to their counts (no kind below one copy), so the
  decks keep the 84 light and 39 dark tiles the rulebook prints (R1.1); the chimneys: one
  more on every villa tile.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from cdsim.errors import CdsimError
from cdsim.games.carpe_diem.rules.component_records import REWARD_KEYS, ObjectiveCard, TileType
from cdsim.games.carpe_diem.rules.components import Components, load_components
from cdsim.games.carpe_diem.rules.kinds import DWELLINGS, FEATURE_NAMES, LANDSCAPES, MEADOW, VILLA
from cdsim.games.carpe_diem.rules.overrides import DEFAULT, toml_text
from cdsim.games.features import Family

RECONSTRUCTED = "reconstructed"
Entry = dict[str, object]  # one entry of an override table, as TOML writes it


def _family(name: str, title: str, step: str, tables: dict[str, list[Entry] | Entry],
            entries: Sequence[str]) -> Family:
    return Family(name, title, step, tuple(entries), toml_text({"base": DEFAULT, **tables}))


def _reward(card: ObjectiveCard) -> dict[str, int]:
    return {k: v for k, v in zip(REWARD_KEYS, card.reward, strict=True) if v}


def _cards(comps: Components, pay: bool | None, with_vp: bool | None
           ) -> list[ObjectiveCard]:
    """The reconstructed objective cards: red (pay) or green (have) or both (None), with a
    VP reward or without one or either (None)."""
    return [c for c in comps.objectives.values() if c.provenance == RECONSTRUCTED
            and (pay is None or c.pay == pay) and (with_vp is None or (c.vp > 0) == with_vp)]


def _card_vp(comps: Components, pay: bool) -> Family:
    cards = _cards(comps, pay, True)
    colour = "red (pay)" if pay else "green (have)"
    return _family(f"{'pay' if pay else 'have'}-card-vp", f"the {colour} objective cards' VP",
                   "one VP more on each card that gives VP",
                   {"objective": [{"id": c.id, "reward": _reward(c) | {"vp": c.vp + 1}}
                                  for c in cards]},
                   [f"objective card {c.id}" for c in cards])


def _card_steps(comps: Components) -> Family:
    cards = _cards(comps, None, False)
    return _family("card-goods-rewards",
                   "the objective cards that give coins, bread or steps",
                   "one scroll step more on each",
                   {"objective": [{"id": c.id, "reward": _reward(c) | {"steps": c.steps + 1}}
                                  for c in cards]},
                   [f"objective card {c.id}" for c in cards])


def _card_requires(comps: Components, pay: bool) -> Family:
    cards = _cards(comps, pay, None)
    rows: list[Entry] = []
    for card in cards:
        asked = card.named_requires()
        most = max(asked, key=lambda k: asked[k])  # the first of the largest
        rows.append({"id": card.id, "requires": asked | {most: asked[most] + 1}})
    colour = "red (pay)" if pay else "green (have)"
    return _family(f"{'pay' if pay else 'have'}-card-requires",
                   f"the {colour} objective cards' requirements",
                   "one more of what each card asks the most of", {"objective": rows},
                   [f"objective card {c.id}" for c in cards])


def _fountain_vp(comps: Components) -> Family:
    cards = [c for c in comps.fountains.values() if c.provenance == RECONSTRUCTED]
    return _family("fountain-card-vp", "the fountain cards' VP", "one VP more on each",
                   {"fountain": [{"id": c.id, "vp": c.vp + 1} for c in cards]},
                   [f"fountain card {c.id}" for c in cards])


def _frame(comps: Components, lines: bool) -> Family:
    parts = [p for p in comps.frame_parts.values() if p.provenance == RECONSTRUCTED]
    rows: list[Entry] = [{"id": p.id, "goals": [
        {"kind": FEATURE_NAMES[g.kind], "vp": g.vp + (0 if lines else 1),
         "line": (g.line + 1) % 6 if lines else g.line} for g in p.goals]} for p in parts]
    return _family("frame-goal-lines" if lines else "frame-goal-vp",
                   "the frame parts' goal lines" if lines else "the frame parts' goal VP",
                   "each goal on the next line along its side" if lines else
                   "one VP more on each goal", {"part": rows},
                   [f"frame part {p.id}" for p in parts])


def _boards(comps: Components) -> Family:
    boards = [b for b in comps.boards if b.provenance == RECONSTRUCTED]
    return _family("boards", "the district boards' scroll spaces",
                   "each board mirrored left to right",
                   {"board": [{"id": b.id, "rows": [r[::-1] for r in b.rows]} for b in boards]},
                   [f"board {b.id}" for b in boards])


def _villa_table(comps: Components) -> Family:
    table = comps.villa_table
    fixed = (3, 5)  # R10.1 prints these two
    points = [p + 1 if c >= 2 and c not in fixed else p for c, p in enumerate(table.points)]
    return _family("villa-table", "the villa table's points",
                   "one VP more for each chimney count the rulebook does not fix (2, 4, 6+)",
                   {"villa_table": {"points": points}}, ["villa_table"])


def _scroll_track(comps: Components) -> Family:
    points = [p + k // 5 for k, p in enumerate(comps.scroll_track.points)]
    return _family("scroll-track", "the scroll track's points",
                   "one VP more every fifth space (a fifth steeper)",
                   {"scroll_track": {"points": points}}, ["scroll_track"])


# -- the tile mix ----------------------------------------------------------------------------

def _kinds(tile: TileType) -> set[int]:
    return {k for k in tile.edges if k != MEADOW}


TILE_CLASSES: dict[str, tuple[str, Callable[[TileType], bool]]] = {
    "villa-tiles": ("the villa tiles (one feature)",
                    lambda t: _kinds(t) == {VILLA} and not t.building),
    "landscape-tiles": ("the landscape tiles (one feature)",
                        lambda t: len(_kinds(t)) == 1 and _kinds(t) <= set(LANDSCAPES)),
    "dwelling-tiles": ("the dwelling half tiles (one feature)",
                       lambda t: len(_kinds(t)) == 1 and _kinds(t) <= set(DWELLINGS)),
    "building-tiles": ("the market, bakery and fountain tiles", lambda t: bool(t.building)),
    "two-feature-tiles": ("the two-feature tiles", lambda t: len(_kinds(t)) == 2),
}


def taken(counts: Sequence[int], n: int) -> list[int]:
    """``n`` copies taken from kinds of ``counts`` copies in proportion to their counts, one
    at a time from the kind furthest below its share (ties: the first), none below one
    copy: how a family that adds ``n`` copies keeps its deck's size.

    >>> taken([5, 5, 6, 2, 1], 4)
    [1, 1, 1, 1, 0]
    """
    total = sum(counts)
    if n > total - len(counts):
        raise CdsimError(f"cannot take {n} tiles from {total} in {len(counts)} kinds")
    out = [0] * len(counts)
    for _ in range(n):
        room = [i for i, c in enumerate(counts) if c - out[i] > 1]
        pick = max(room, key=lambda i: (n * counts[i] / total - out[i], -i))
        out[pick] += 1
    return out


def _tile_class(comps: Components, name: str) -> Family:
    title, member = TILE_CLASSES[name]
    rows: list[Entry] = []
    for deck in ("light", "dark"):
        tiles = [t for t in comps.tile_types if t.deck == deck and t.provenance == RECONSTRUCTED]
        mine = [t for t in tiles if member(t)]
        others = [t for t in tiles if not member(t)]
        if not mine:
            continue
        rows += [{"id": t.id, "count": t.count + 1} for t in mine]
        less = taken([t.count for t in others], len(mine))
        rows += [{"id": t.id, "count": t.count - k} for t, k in zip(others, less, strict=True) if k]
    order = {t.id: i for i, t in enumerate(comps.tile_types)}
    rows.sort(key=lambda r: order[str(r["id"])])
    return _family(name, title, "one more copy of each kind, as many taken from the deck's "
                   "other kinds in proportion (the decks keep 84 light and 39 dark)",
                   {"tile": rows}, [f"tile {r['id']}" for r in rows])


def _chimneys(comps: Components) -> Family:
    tiles = [t for t in comps.tile_types
             if t.provenance == RECONSTRUCTED and VILLA in _kinds(t)]
    return _family("chimneys", "the chimneys on the villa tiles", "one chimney more on each",
                   {"tile": [{"id": t.id, "chimneys": t.chimneys + 1} for t in tiles]},
                   [f"tile {t.id}" for t in tiles])


def families() -> list[Family]:
    """Every family of the shipped set, in a fixed order (the study's variants)."""
    comps = load_components(None)
    return [_card_vp(comps, True), _card_vp(comps, False), _card_steps(comps),
            _card_requires(comps, True), _card_requires(comps, False), _fountain_vp(comps),
            _frame(comps, False), _frame(comps, True), _villa_table(comps),
            _scroll_track(comps), _boards(comps),
            *(_tile_class(comps, name) for name in TILE_CLASSES), _chimneys(comps)]


__all__ = ["TILE_CLASSES", "families", "taken"]
