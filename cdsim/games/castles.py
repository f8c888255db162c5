"""The Castles of Tuscany as cdsim.games registers it: its rules and players are the core's
(core/src/castles/, docs/rules-castles.md); here are its component files (the core's
built-in set as JSON, an override file's top-level keys merged over it), their digest, its
tie-break for the re-ranking and its players' names."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from functools import cache
from typing import Any

import numpy as np

from cdsim import core
from cdsim.errors import CdsimError
from cdsim.games.core_players import CoreRoster
from cdsim.games.features import DEFAULT_SET, ComponentUse, Entry, KeySets
from cdsim.games.spec import GameSpec

NAME = "castles"
TITLE = "The Castles of Tuscany"
DEFAULT = DEFAULT_SET  # the component set that names the built-in one (as an override's base)
SCRIPTED = ("greedy", "castle-monastery", "trade-workers", "animal-farms")
# whatif's strong play: the learned player (the seam's, core/src/castles/learned.rs, weights
# strategies/weights/castles-learned.json from `make train-castles`) in every seat
STRONG = ("learned",)
RULES_DOC = "docs/rules-castles.md"  # where its rules are numbered
TIE_RULE = "T13.2"  # the rule that breaks a tie on VP
# what its run report reads beyond the VP sources (cdsim.games.GameSpec)
PHASES: tuple[str, ...] = ()
FAILED_CARDS: tuple[str, int] | None = None  # no objective cards
TIEBREAK_WORDS = ("the T13.2 tie-break (the most empty board spaces, then the "
                  "most green VP, then the later seat)")
TIEBREAK_COLUMNS = ("empty_spaces", "green_vp")
# its built-in players in a line each (`cdsim strategies --game castles`; docs/castles.md)
PLAYER_WORDS = {
    "random": "uniform over legal options (the floor)",
    "greedy": "one ply: the VP and goods an option gains, every colour alike",
    "castle-monastery": "scripted: castles and monasteries (free placements, cards)",
    "trade-workers": "scripted: villages, carts and cities (workers, harvest cards)",
    "animal-farms": "scripted: farms and estates (wooden hexes, VP)",
    "mcts": "determinized UCT over the game's decisions, greedy rollouts (200 simulations)",
    "learned": "its turn played on copies of castle-monastery's 4 best options, valued by "
               "weights fitted to mcts's labels (make train-castles)",
}
# whatif's scripted games a side by default: a scripted game costs about a tenth of Carpe
# Diem's, and a farm-card change at the 1 pp margin wanted about 150,000 a side (2026-11-28)
# where Carpe Diem's 40,000 stopped it after 11 s of a 3-minute quick look
WHATIF_GAMES = {"scripted": 200_000}
# its players' recorded CPU ms a seat per game by kind (random, scripted, mcts), and its
# core's own work per game, for the time a run or study says it takes
# (cdsim.batch.cost). simulate --jobs 1 of 20,000 games, 2026-11-28 (load 0.6, half a
# second of start taken off): greedy 0.03 ms a seat at 2 players and 0.024 at 4, random
# 0.008 ms a game; its mcts (200 simulations a decision, greedy rollouts) beside greedy
# seats, 20 games each in the core's castles_play example, 2026-11-28 (load 0.8)
SEAT_MS = {
    "random": {2: 0.001, 3: 0.001, 4: 0.001},
    "scripted": {2: 0.03, 3: 0.027, 4: 0.024},
    "mcts": {2: 370.0, 3: 540.0, 4: 720.0},
    # learned (shortlist 4): make bench's cost a seat (a learned seat among greedy, less
    # greedy's share; 2026-11-29, load 1.6 at its start): 0.33 ms at 2 players, 0.54 at 4
    # (3: between them); a 4-player strong whatif played at 0.49 ms a seat here
    "learned": {2: 0.33, 3: 0.43, 4: 0.54},
}
TABLE_MS = 0.005


def start_vp(n: int) -> tuple[int, ...]:
    """The rulebook gives no VP compensation (seat order only picks the bonus tokens)."""
    return (0,) * n


def builtin_text() -> str:
    """The built-in component set as the core hands it over (JSON)."""
    module = core.module()
    if module is None:
        raise CdsimError("castles needs the compiled core (make install)")
    text: str = module.builtin_components(NAME)
    return text


def builtin(path: str | None) -> bool:
    """Whether ``path`` names the built-in set: none, or "default" (as for Carpe Diem)."""
    return path is None or path == DEFAULT


@cache
def components_text(path: str | None) -> str:
    """The component set as the core reads it: the built-in set's JSON, or a JSON file of
    overrides (``castles::Components``' serde JSON, its top-level keys merged over the
    built-in set)."""
    text = builtin_text()
    if path is None or builtin(path):
        return text
    base = json.loads(text)
    try:
        with open(path, encoding="utf-8") as f:
            override = json.load(f)
    except (OSError, json.JSONDecodeError, UnicodeDecodeError) as e:
        raise CdsimError(f"{path}: not a castles component file ({e})") from None
    except RecursionError:  # lists or objects nested thousands deep
        raise CdsimError(f"{path}: not a castles component file (lists or objects nested "
                         "too deep)") from None
    if not isinstance(override, dict):
        raise CdsimError(f"{path}: a castles component file is a JSON object")
    unknown = sorted(set(override) - set(base))
    if unknown:
        raise CdsimError(f"{path}: unknown key {unknown[0]!r} (known: "
                         f"{', '.join(sorted(base))})")
    merged = {**base, **override}
    # a file that changes nothing (one `components export` wrote) is the built-in set
    return text if merged == base else json.dumps(merged)


@cache
def load_components(path: str | None) -> Any:
    """The core's copy of the set at ``path`` (``components_text``), or one line naming the
    file."""
    text = components_text(path)
    try:
        return core.module().Components(text, game=NAME)  # type: ignore[union-attr]
    except ValueError as e:
        raise CdsimError(f"{path or 'castles built-in components'}: {e}") from None


def set_problem(text: str) -> str | None:
    """What the core finds wrong with the set whose JSON is ``text`` (every table), in its
    words without a place in that generated text; None: it loads."""
    try:
        core.module().Components(text, game=NAME)  # type: ignore[union-attr]
    except ValueError as e:
        return re.sub(r" at line \d+ column \d+", "", str(e))
    return None


def components_digest(path: str | None) -> tuple[str, bool]:
    """sha256 over the set's JSON (the built-in one's, or the override merged over it)."""
    load_components(path)  # a set the core refuses is one line here
    return hashlib.sha256(components_text(path).encode()).hexdigest(), builtin(path)


def tiebreak(n: int, empty: Any, green: Any) -> Any:
    """T13.2 (T11.4 made unique): the most empty spaces, then the most green VP, then the
    later seat (lowest key wins)."""
    seat = np.arange(n)[None, :]
    return -((empty * 4096 + green) * 8 + seat)


def players() -> tuple[str, ...]:
    module = core.module()
    if module is None:
        return ()
    return tuple(module.game_players(NAME))


# -- a change to the component set (``cdsim whatif --game castles --set ...``) ---------------

def entry_id(entry: Mapping[str, object]) -> str:
    """How ``--set`` names an entry of a list table: its name, else its colour, kind or
    reward, with its crops (``farm-olive-vineyard``) that tell farms apart."""
    for key in ("name", "colour", "kind", "reward"):
        name = entry.get(key)
        if isinstance(name, str):
            crops = entry.get("crops")
            return "-".join([name, *map(str, crops if isinstance(crops, list) else [])])
    return ""


def set_value(base: Mapping[str, object], table: str, address: list[str], value: int,
              spelled: str) -> dict[str, object]:
    """The table ``table`` of the set ``base`` (its JSON, every table) with one whole-number
    key set, as an override: ``colour_bonus.castle.first``, ``cards.farm.count``,
    ``area_vp.vp.3`` (the 3rd value); anything else is one line naming the ``--set``."""
    if table not in base:
        raise CdsimError(f"--set {spelled!r}: unknown table {table!r} (known: "
                         f"{', '.join(sorted(base))})")
    data = json.loads(json.dumps(base[table]))  # a copy to change
    where: Any = data
    if isinstance(data, list):
        if not address:
            raise CdsimError(f"--set {spelled!r}: name an entry of {table}, e.g. "
                             f"{table}.{entry_id(data[0])}.count=5")
        ids = [entry_id(e) for e in data]
        wanted = address.pop(0)
        found = [i for i, x in enumerate(ids) if x == wanted]
        if not found and wanted.isdigit() and 1 <= int(wanted) <= len(data):
            found = [int(wanted) - 1]
        if len(found) != 1:
            raise CdsimError(f"--set {spelled!r}: {table} has no entry {wanted!r} (its "
                             f"entries: {', '.join(ids)}; or its number, 1-{len(data)})")
        where = data[found[0]]
    for i, step in enumerate(address):
        last = i == len(address) - 1
        if isinstance(where, list) and step.isdigit() and 1 <= int(step) <= len(where):
            key: Any = int(step) - 1
        elif isinstance(where, dict) and step in where and step != "source":
            key = step
        else:
            known = (f"1-{len(where)}" if isinstance(where, list) else
                     ", ".join(k for k in where if k != "source") if isinstance(where, dict)
                     else "none")
            raise CdsimError(f"--set {spelled!r}: no key {step!r} there (known: {known})")
        if last:
            if not isinstance(where[key], int) or isinstance(where[key], bool):
                raise CdsimError(f"--set {spelled!r}: {step} is not a whole number to set")
            if value < 0:  # counts and VP: the core reads them unsigned
                raise CdsimError(f"--set {spelled!r}: {step} is a count or VP, 0 or more, "
                                 f"got {value}")
            where[key] = value
        else:
            where = where[key]
    if not address:
        raise CdsimError(f"--set {spelled!r}: name a key of the entry, e.g. ...count=5")
    return {table: data}


def diff(old: str | None, new: str | None) -> list[tuple[str, str]]:
    """What the set at ``new`` changes from the one at ``old`` (None: the built-in set), as
    (entry, line): ``("colour_bonus.castle", "colour_bonus castle: first 4 -> 8")``; a
    table whose entries were added or removed is one line for the whole table."""
    a, b = json.loads(components_text(old)), json.loads(components_text(new))
    out: list[tuple[str, str]] = []
    for table in b:
        before, after = a.get(table), b[table]
        if before == after:
            continue
        if isinstance(before, list) and isinstance(after, list) and len(before) == len(after):
            for x, y in zip(before, after, strict=True):
                keys = [k for k in dict.fromkeys([*x, *y]) if k != "source" and x.get(k) != y.get(k)]
                if keys:
                    said = ", ".join(f"{k} {x.get(k)} -> {y.get(k)}" for k in keys)
                    out.append((f"{table}.{entry_id(y)}", f"{table} {entry_id(y)}: {said}"))
        elif isinstance(before, dict) and isinstance(after, dict):
            keys = [k for k in after if k != "source" and before.get(k) != after.get(k)]
            out.append((table, f"{table}: " + ", ".join(f"{k} {before.get(k)} -> {after.get(k)}"
                                                      for k in keys)))
        else:
            out.append((table, f"{table}: {len(before or [])} entries -> {len(after)}"))
    return out


# -- its entries as a transcription from the box reads them (``components transcribe``) ------

# what to read off the box for an entry of each table
READ = {
    "player_tiles": "how many of this tile a player's set holds (count)",
    "neutral_tiles": "how many of this tile the neutral supply holds (count)",
    "cards": "how many cards of this colour the deck holds (count)",
    "harvest": "this harvest tile's reward, its amount and how many there are",
    "bonus_tokens": "how many bonus tokens of this kind there are (count)",
    "colour_bonus": "the VP for the first and the second to fill this colour",
    "pieces": "this territory piece's two rows of five hexes",
    "area_vp": "the VP for each area completed",
}


def entries(path: str | None) -> list[Entry]:
    """Every entry of the set at ``path`` (None: the built-in set), table by table: a JSON
    override replaces a table whole, so an entry goes in its whole table, ``"source":
    "rulebook"`` on it when its values are the box's."""
    out: list[Entry] = []
    for table, rows in json.loads(components_text(path)).items():
        for row in rows if isinstance(rows, list) else [rows]:
            if not isinstance(row, dict):
                continue
            values = ", ".join(f"{k} = {json.dumps(v)}" for k, v in row.items()
                               if k != "source")
            name = f"{table} {entry_id(row)}" if isinstance(rows, list) else table
            out.append(Entry(name, table, name.replace(" ", ".", 1),
                             READ.get(table, "its values"), values,
                             f'the "{table}" table of a JSON override (a table is '
                             'replaced whole: write all its entries), with "source": '
                             '"rulebook" on this one',
                             row.get("source") == "rulebook"))
    return out


# whatif's --set on its JSON tables (it has no sweeps: a list of values is one variant each)
# a harvest tile's reward: the seat row's VP from the harvest tiles of that reward (T10)
HARVESTED = {"red_vp": "vp_harvest_red", "green_vp": "vp_harvest_green"}
NOT_TAKEN = ("its runs hold no use rows (only cdsim whatif's runs record them): their seat "
             "rows hold a seat's VP by source, not which cards it took")
NOT_BY_ENTRY = ("the rows hold a seat's VP by source (vp_area, vp_crops, vp_colour_bonus, "
                "...), not which cards it took or which tiles it placed")


def component_use(entry: str) -> ComponentUse:
    """What use of a changed entry (``cards.farm``, ``harvest.red_vp``) means in the rows
    (``cdsim whatif``'s verdict line; docs/guide.md): a harvest tile whose reward is VP is
    *scored from* (its VP source above 0); a game card is *taken* into the hand, which a
    run that judges its change records (its use rows, ``cdsim.batch.uses``); a tile or a
    bonus is placed or taken, which the rows do not record yet (the effect on each style
    is its verdict)."""
    table, _, ident = entry.partition(".")
    if table == "harvest" and ident in HARVESTED:
        return ComponentUse(f"the {ident} harvest tiles", f"scored {ident.split('_')[0]} VP "
                            "from a harvest tile", HARVESTED[ident], unit="VP")
    source = {"colour_bonus": ("vp_colour_bonus", "colour bonus VP"),
              "area_vp": ("vp_area", "area VP")}.get(table)
    if table == "bonus_tokens" and ident == "storage":
        source = ("vp_storage_token", "storage token VP")
    taken = {"cards": "took one", "player_tiles": "placed one in their estate",
             "neutral_tiles": "placed one in their estate",
             "bonus_tokens": "took one"}.get(table, "scored from it")
    noun = f"the {ident} {table.replace('_', ' ')}" if ident else f"the {table} table"
    if table == "cards" and ident:  # taken into the hand: a watching run's use rows
        return ComponentUse(noun, "took one into their hand (dealt or drawn, T2.5, T4.1)",
                            why=NOT_TAKEN, unit="cards", uses=entry)
    return ComponentUse(noun, taken, why=NOT_BY_ENTRY, source=source and source[0],
                        source_words=source[1] if source else "")


SET_KEYS = KeySets(components_text, set_value, set_problem,
                   example="colour_bonus.castle.first")


SPEC = GameSpec(NAME, TITLE, player_counts=(2, 3, 4), start_vp=start_vp, player_names=players,
                scripted=SCRIPTED, load_components=load_components, radius=4,
                components_digest=components_digest, tiebreak=(TIEBREAK_COLUMNS, tiebreak),
                rules_doc=RULES_DOC, tie_rule=TIE_RULE, roster=CoreRoster(NAME, players), phases=PHASES,
                failed_cards=FAILED_CARDS, tiebreak_rule=TIEBREAK_WORDS, row_order=None,
                diff=diff, cards=None, families=None, sweeps=None, card_changes=None,
                set_keys=SET_KEYS, strong=STRONG, whatif_games=WHATIF_GAMES, seat_ms=SEAT_MS,
                table_ms=TABLE_MS, player_words=PLAYER_WORDS,
                component_use=component_use, entries=entries)
