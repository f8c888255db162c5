"""What a game may have beyond what every game gives (``cdsim.games.GameSpec``): each a
record its module fills in, and None on the spec of a game without it, which the batch,
the study and the analysis then refuse or skip. Carpe Diem fills them all in
(``cdsim.games.carpe_diem``); The Castles of Tuscany none of them."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, NamedTuple

from cdsim.errors import CdsimError

# the copy of its profiles file a folder keeps beside its manifest (cdsim.games.played)
PROFILES_COPY = "profiles.toml"


# a game's built-in component set in a few words (``GameSpec.builtin_set_name``)
BUILT_IN_SET = "the built-in set"


def built_in_set_said(rules_doc: str) -> str:
    """A game's built-in component set as its run pages name it (``GameSpec.builtin_set_words``)
    where its rules doc says which entries are reconstructed."""
    return (f"{BUILT_IN_SET} ({rules_doc} in the cdsim repository says which of its entries "
            "are reconstructed, not the printed game's)")

# the name that means a game's shipped component set (an override's base, a --components value)
DEFAULT_SET = "default"


class FailedCost(NamedTuple):
    """A game's scored cards that may fail, as its pages say them (``GameSpec.failed_cost``;
    the rows' count of them is ``GameSpec.failed_cards``)."""

    noun: str  # the cards, in the plural
    cost: str  # what a failed one costs, with its unit
    rule: str  # the number of the rule that says so
    # why the cards' VP source may stack below zero on the VP sources chart, in a few words
    below_zero: str


class CardVerbs(NamedTuple):
    """What a seat does with one kind of card, in the game's words, as ``cdsim whatif``'s card
    lines and a study's pages say it (e.g. Carpe Diem's objective cards: "taken",
    "fulfilled", "takers'"; its fountain cards: "drawn", "kept", "drawers'")."""

    took: str  # a seat took the card: "not taken in 600 games", "taken by 31.0% of seats"
    done: str  # a take that counts as done: "fulfilled 46.5%"
    done_of: str  # what its done share is a share of: "the takes"
    takers: str  # the seats that took it, possessive: "its takers' win difference"
    # a study report's names of its four figures (taken share, done share, mean VP, win
    # difference): its table's rows and a sweep's columns
    figures: tuple[str, str, str, str]


# what a kind's done share and mean VP count (``cdsim.analysis.cards``): "take": every take,
# the done share of the takes and the VP per take (a failed take's cost included); "kept
# card": the done share of the seats that took it and the VP per card kept (done)
CardsCounted = Literal["take", "kept card"]


@dataclass(frozen=True)
class CardKind:
    """One kind of card a card table follows (its rows' ``kind``), as a run report words its
    table, its chart and its ``cdsim report --json`` figures, in the game's own words and
    rule numbers, and what its rows' outcomes mean to the card figures
    (``cdsim.analysis.cards``): e.g. Carpe Diem's objective and fountain cards,
    ``cdsim.games.carpe_diem.cards``."""

    kind: str  # the card rows' ``kind``
    title: str  # its section's heading
    intro: str  # what its table's figures mean
    header: tuple[str, ...]  # its table's columns
    chart_title: str
    caption: str  # its chart's
    done: str  # the key of its done share (a taken card paid, a drawn one kept) in the JSON
    taken: tuple[str, ...]  # the rows' outcomes that count as taking the card
    done_outcome: str  # the outcome that counts as done (its done share's)
    counted: CardsCounted  # per take or per kept card
    verbs: CardVerbs
    # the lowest VP one take can bring whatever the sample (a failed card's cost, the game's
    # ``GameSpec.failed_cost``): the floor of its mean VP's interval; None: no such floor
    worst_vp: int | None


@dataclass(frozen=True)
class CardTable:
    """A table of card rows a run writes beside its seat rows (a ``cards/`` part per
    chunk; Carpe Diem's: one row per card a seat took, drew or kept)."""

    # (name, Python type) of each column after the runner's ``game``, in the order of the
    # parts: int is Int64, str String
    columns: tuple[tuple[str, str], ...]
    # the core's card columns (``play_chunk``'s "cards": indices and the words they index;
    # Any as the core hands them) as the table: a polars DataFrame of ``fields``
    frame: Callable[[Any], Any]
    # (kind, seat column): a seat's rows of that kind add up to that column of its seat row,
    # which tells a card part of another run
    paid: tuple[str, str]
    # its kinds of card, in the order a run report and the card figures show them
    kinds: tuple[CardKind, ...]

    def kind(self, name: str) -> CardKind:
        """Its kind of card whose rows' ``kind`` is ``name``; a ValueError names an unknown
        one."""
        for k in self.kinds:
            if k.kind == name:
                return k
        raise ValueError(f"card rows of kind {name!r}: the game's card table has "
                         f"{', '.join(k.kind for k in self.kinds)}")

    @property
    def fields(self) -> tuple[str, ...]:
        """The table's columns, in order: the game, then a card row's."""
        return ("game", *(name for name, _ in self.columns))

    @property
    def text(self) -> tuple[str, ...]:
        """Its columns of words (String); the others are Int64."""
        return tuple(name for name, kind in self.columns if kind == "str")


@dataclass(frozen=True)
class Family:
    """One family of entries of a game's component set that a designer would transcribe
    together, perturbed by one step (``cdsim components sensitivity``; Carpe Diem's:
    ``cdsim.games.carpe_diem.families``): its name (a file and a variant name), what a
    designer would transcribe (``title``), the step it takes (``step``), the entries it
    changes and its override."""

    name: str
    title: str
    step: str
    entries: tuple[str, ...]  # "fountain card F01", "tile L-market", "villa_table", ...
    text: str  # the override file: the base set and the changed entries

    def write(self, folder: Path) -> Path:
        """The override written into ``folder`` as ``NAME.toml`` (its path)."""
        path = folder / f"{self.name}.toml"
        try:
            folder.mkdir(parents=True, exist_ok=True)
            if not path.is_file() or path.read_text() != self.text:
                path.write_text(self.text)
        except OSError as exc:
            raise CdsimError(f"{path}: cannot write it ({exc.strerror or exc})") from None
        return path


@dataclass(frozen=True)
class Expanded:
    """A sweep's values resolved on its base: each value an override file of the base."""

    base: str  # the base as the override files name it (``Sweeps.default``, or its path)
    base_value: int  # the swept key's value in the base
    base_digest: str  # the base set's digest
    texts: tuple[str, ...]  # each value's override file
    digests: tuple[str, ...]  # each value's merged set's digest


# one --set of several made together: (as spelled, entry, key, value)
SetChange = tuple[str, str, str, int]


@dataclass(frozen=True)
class Sweeps:
    """One key of a component set's entry tried over a list of values, each value an
    override file of a base set (a study's ``[[sweep]]``; ``cdsim whatif --set``, a list of
    values or not); Carpe Diem's: ``cdsim.games.carpe_diem.sweeps``. A game without them
    takes variants (component files) only."""

    default: str  # the base that names the game's shipped set ("default")
    # (where, entry, key, values, base path or None: the shipped set) -> the values
    # resolved; any problem one CdsimError line starting with ``where``
    expand: Callable[[str, str, str, Sequence[int], str | None], Expanded]
    # (the --set as spelled, its dotted name split at the dots) -> (entry, key), or one line
    split_set: Callable[[str, list[str]], tuple[str, str]]
    example: str  # an entry's key as --set names it, for the help and its errors
    # a commented ``[[sweep]]`` in its words, which `cdsim study init` adds to its shipped
    # study (that has none) beside the variant example
    study_example: str
    # the tables whose entries are cards the card table follows (a swept card's figures)
    card_tables: tuple[str, ...] = ()
    # (where, the changes as (the --set as spelled, entry, key, value), an override file,
    # folder or None) -> one override text with every change applied, the set validated
    # once as a whole (``cdsim whatif``'s several --sets); problems one line, as ``expand``
    combine: Callable[[str, Sequence[SetChange], str | None], str] | None = None


@dataclass(frozen=True)
class EntryChange:
    """One change between two component sets as a variant's card figures read it (Carpe
    Diem's: ``cdsim.games.carpe_diem.changes``)."""

    entry: str  # the changed entry, "table.id", or a table without ids
    line: str  # the line ``cdsim components diff`` prints
    card: tuple[str, str] | None  # (kind, id) of a card the card table follows, else None
    said: str  # the change in a few words: "reward.vp 8 -> 6"
    alone: str  # the words when it is its card's only change: "at 6 VP"


@dataclass(frozen=True)
class KeySets:
    """``cdsim whatif --set`` on a game whose component set is JSON tables (Castles'):
    each change an override of the tables it changes, a list of values one variant each."""

    text: Callable[[str | None], str]  # the set's JSON (None: the built-in set), every table
    # (the set's tables, the table, the address inside it, the value, the --set as spelled)
    # -> that table changed, as an override; anything else one line naming the --set
    set_value: Callable[[Mapping[str, object], str, list[str], int, str], dict[str, object]]
    # a whole set's JSON as the game checks it: None, or the problem in words (no file name:
    # the caller names the --set that made it)
    problem: Callable[[str], str | None]
    example: str  # a key as --set names it, for the help and its errors


@dataclass(frozen=True)
class ComponentUse:
    """What "use" of one changed component (not a card: the card table follows those) means
    in a game's rows (``cdsim whatif``'s verdict line for any component): a seat *uses* it
    when its seat row's ``column`` is above 0 (Carpe Diem's bakery tile: ``bakeries``, the
    bakeries it placed in its district), or the run's use rows of ``uses`` count them (a
    frame part: the goals of it a seat scored). Both None: the rows do not record its use
    yet, ``why`` says what they hold instead; the verdict then gives the effect on each
    style only."""

    noun: str  # "the L-bakery tile", "frame part 3"
    words: str  # what use means: "placed a bakery in their district"
    column: str | None = None  # the seat row's count of uses (None: not recorded)
    why: str = ""  # why its use is not recorded (column None)
    # the numbers that count as a use of it, as the figures say them: "bakeries"
    unit: str = "uses"
    # the seat row's VP source it scores through, where it has one (a frame part: vp_frame),
    # and that source in words ("frame VP"): its paired change is shown beside the line
    source: str | None = None
    source_words: str = ""
    # the use rows that count a seat's uses where the seat rows do not (a run that watches
    # it records them: cdsim.batch.uses), as the entry they are of ("part.3", "cards.farm",
    # "villa_table": every row of a table without ids); column None then
    uses: str | None = None
    # every seat plays with it alike (a rule's number, the map): no seat uses it and another
    # not, so it has no verdict line, truly, and ``words`` say how every seat meets it
    shared: bool = False


@dataclass(frozen=True)
class Entry:
    """One entry of a game's component set as a transcription from the box reads it
    (``cdsim components transcribe``; ``components check`` counts them): its name as the
    sensitivity families list it, what to read off the box, its values now, where it goes
    in an override file, and whether it is the box's (tagged as printed) or reconstructed.
    Carpe Diem's: ``cdsim.games.carpe_diem.entries``."""

    name: str  # "objective card B05", "tile L-market", "villa_table"; Castles': "cards castle"
    table: str  # its table: "objective", "villa_table"; Castles': "cards"
    address: str  # as whatif's --set names it: "objective.B05", "villa_table", "cards.castle"
    read: str  # what to read off the box: "its requirement and its reward"
    values: str  # its values now: "requires = { grapes = 2 }, reward = { vp = 4 }"
    goes: str  # where it goes in an override file: '[[objective]] with id = "A01"'
    printed: bool  # tagged as printed (the rulebook's, or transcribed from the box)



# -- a game's own command code (cliseam, issue 60): what the shared commands hand a game ----
# A hook of this block is None on a game that has no such feature; the command then takes
# the path every game has (its JSON tables, its recorded replay, the seam's training).


@dataclass(frozen=True)
class ComponentFiles:
    """A component set of files with overrides (Carpe Diem's TOML): ``cdsim components``'
    own parts for it, each given the set's path (None: the shipped set)."""

    # `components check`: what the set holds and what it changes from its base, in lines
    check: Callable[[str | None], list[str]]
    # `components show`: the sheet's data (its view's ``sheet_page`` draws it) for a set named
    # ``source``, and what the page draws in words
    sheet: Callable[[str | None, str], tuple[dict[str, object], str]]
    # `components export`: the set's files (name -> text) and its digest
    export: Callable[[str | None], tuple[dict[str, bytes], str]]
    # `components diff OLD NEW`: each changed entry in a line (or the line saying none is)
    diff: Callable[[str, str], list[str]]


@dataclass(frozen=True)
class PlayRequest:
    """``cdsim play``'s flags as the command checked them, for a game with a table of its own
    (``GameSpec.play``): its seats' strategies are the game's to parse."""

    players: int
    seed: int
    setup: int | None
    start_vp: tuple[int, ...]  # one a seat; (): the rulebook's
    strategies: tuple[str, ...]  # as spelled, one a seat (one name fills every seat)
    strategy_params: str | None  # --strategy-params as given
    components: str | None  # the set's path (None: the shipped set)
    trace: bool  # --trace: every turn in words
    replay: bool  # --html: the replay page's data


@dataclass(frozen=True)
class PlayedGame:
    """One game a game's own table played, as ``cdsim play`` shows it."""

    json: dict[str, object]  # --json's object
    lines: tuple[str, ...]  # printed one by one: the trace (with --trace), then the table
    replay: dict[str, object] | None  # the replay page's data (its game's replay page draws it)


# where a game's learned weights are kept (strategies/ is for people: the package reads its
# files, never imports it)
WEIGHTS_DIR = Path(__file__).resolve().parents[2] / "strategies" / "weights"


__all__ = [
    "BUILT_IN_SET",
    "PROFILES_COPY",
    "WEIGHTS_DIR",
    "CardKind",
    "CardTable",
    "CardVerbs",
    "CardsCounted",
    "ComponentFiles",
    "ComponentUse",
    "Entry",
    "EntryChange",
    "Expanded",
    "FailedCost",
    "Family",
    "KeySets",
    "PlayRequest",
    "PlayedGame",
    "SetChange",
    "Sweeps",
    "built_in_set_said",
]
