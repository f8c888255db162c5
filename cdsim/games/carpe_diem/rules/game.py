"""Game state and a turn: setup, movement, building, rewards (R2, R4-R6, R9). Scoring
(R8, R10, ``cdsim/games/carpe_diem/rules/scoring.py``) and the phases that call turns and scoring (R3,
``cdsim/games/carpe_diem/rules/play.py``) work on this state from above; the observation, the options and
the Strategy protocol are below it.

The rules are pull-style, like the core's state (core/src/carpe_diem/game/mod.rs): a rule that needs a
decision yields it (a ``Pending``: the seat, the decision kind, its options) and goes on
with the option sent back, so every rule that reaches a decision is a generator and its
callers ``yield from`` it. The state runs the rules it is given (``begin``: the whole
game, ``cdsim.games.carpe_diem.rules.play.phases``, or one rule in a test) to the next decision; there it
exposes ``pending`` and ``options()``, and ``apply`` makes one choice and runs on to the
next decision or the end. The rules never ask a player: a driver does
(``cdsim.games.carpe_diem.rules.play.run``, as the core's ``play_on``).

A game is a pure function of (config, seed) and the choices made: every shuffle is drawn
at setup from the game's own numpy Generator, and each seat's observations carry its own
stream, so a strategy's randomness never changes the deal. The state holds no players:
the driver holds the line-up.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np

from cdsim.errors import CdsimError
from cdsim.games.carpe_diem.rules.components import Components, ObjectiveCard, load_components
from cdsim.games.carpe_diem.rules.district import District, Feature
from cdsim.games.carpe_diem.rules.kinds import (
    ADMINISTRATOR,
    ARTISAN,
    BAKER,
    BAKERY,
    EDGE_NAMES,
    FEATURE_NAMES,
    FOUNTAIN,
    LANDSCAPE_GOOD,
    LANDSCAPES,
    MARKET,
    MERCHANT,
    VILLA,
)
from cdsim.games.carpe_diem.rules.observation import Observation, Observer, seat_stream
from cdsim.games.carpe_diem.rules.options import Decision, FountainChoice, Move, SealBuild, Start, Take
from cdsim.games.carpe_diem.rules.records import CardRow
from cdsim.games.carpe_diem.rules.snapshot import Deal
from cdsim.games.carpe_diem.rules.strategy import find

PHASES = 4  # R3.1
ROUNDS = 7  # R3.1
SPACES = 7  # R4.1: patrician spaces on the cycle, one depot each
TILES_PER_DEPOT = 4  # R2.4
SEAL_SPACES = 11  # R2.4
# R4.6: tiles taken from a depot before the rest is discarded.
TAKES_PER_DEPOT = {2: 2, 3: 3, 4: 4}
DEFAULT_START_VP = {2: (8, 9), 3: (8, 9, 13), 4: (8, 9, 10, 11)}  # R2.7
# R2.2: cards drawn from decks A, B, C, D.
CARDS_DRAWN = {2: (2, 2, 2, 2), 3: (2, 3, 2, 3), 4: (3, 3, 2, 4)}
# R8.1 / docs/rules.md C10: card-grid slots (row * 3 + col) left empty.
EMPTY_SLOTS = {2: (0, 2, 9, 11), 3: (0, 11), 4: ()}


def _circles(players: int) -> tuple[tuple[int, int], ...]:
    """R8.1: a circle between every two orthogonally adjacent card spaces both in use."""
    used = [s for s in range(12) if s not in EMPTY_SLOTS[players]]
    out = []
    for s in used:
        r, c = divmod(s, 3)
        if c < 2 and s + 1 in used:
            out.append((s, s + 1))
        if r < 3 and s + 3 in used:
            out.append((s, s + 3))
    return tuple(out)


CIRCLES = {n: _circles(n) for n in (2, 3, 4)}

# R5.5 [decision]: completions of one tile resolve in this order, which is never
# worse for the player than any other: goods first, the artisan's chain next,
# the merchant last (so it exchanges every good the tile brought).
_REWARD_ORDER = {k: 0 for k in LANDSCAPES} | {
    MARKET: 1, BAKERY: 1, FOUNTAIN: 1, BAKER: 2, ADMINISTRATOR: 2, ARTISAN: 4, MERCHANT: 5}

def edge_text(edges: tuple[int, int, int, int]) -> str:
    """N E S W as codes of docs/rules.md C1, e.g. 'V G G G'."""
    return " ".join(EDGE_NAMES[e] for e in edges)


@dataclass(frozen=True)
class GameConfig:
    """The static facts of a game (OpenSpiel's Game): player count, starting VP, components."""

    players: int
    start_vp: tuple[int, ...] = ()
    components: Components = field(default_factory=load_components)
    check: bool = False  # verify every invariant after every action (tests)

    def __post_init__(self) -> None:
        if self.players not in (2, 3, 4):
            raise CdsimError(f"players must be 2, 3 or 4, got {self.players}")
        if not self.start_vp:
            object.__setattr__(self, "start_vp", DEFAULT_START_VP[self.players])
        if len(self.start_vp) != self.players:
            raise CdsimError(f"start VP needs {self.players} values (one per seat), "
                             f"got {len(self.start_vp)}")


class PlayerState:
    """Everything one player has. VP fields are private to the engine: a strategy sees
    ``cdsim.games.carpe_diem.rules.observation.Holdings`` instead."""

    __slots__ = (
        "_card_vp", "_overflow_vp", "_start_vp", "artisan_lost", "bread", "bread_moves",
        "cards_taken", "coins", "district", "failed_cards", "fountain_cards", "fountain_draws",
        "goods", "pawn", "scroll", "seat", "stamp", "stored", "taken", "tiles_built",
        "vp_after_phase",
    )

    def __init__(self, seat: int, district: District, start_vp: int) -> None:
        self.seat = seat
        self.district = district
        self.goods = [0, 0, 0, 0]
        self.coins = 0
        self.bread = 0
        self.stored = 0
        self.fountain_cards: list[str] = []
        self.pawn = -1
        self.scroll = 0
        self.stamp = 0  # higher = higher in the stack on the same scroll space
        self.tiles_built = 0
        self.bread_moves = 0
        self.failed_cards = 0
        self.artisan_lost = 0
        self.taken = [0] * PHASES
        self.vp_after_phase: list[int] = []
        self._start_vp = start_vp
        self._card_vp = 0
        self._overflow_vp = 0
        # the card table's rows of this seat: objective cards resolved, fountain cards drawn
        self.cards_taken: list[CardRow] = []
        self.fountain_draws: list[CardRow] = []

    def card_rows(self, components: Components) -> list[CardRow]:
        """This seat's card rows at the end, in the core's order: objective cards as
        resolved, fountain cards drawn (by phase, then card), then those kept (R10.4)."""
        cards = components.fountains
        kept = [CardRow(self.seat, "fountain", f, "kept", 0, 0,
                        cards[f].vp * self.district.complete_count[cards[f].goal])
                for f in self.fountain_cards]
        return [*self.cards_taken, *sorted(self.fountain_draws, key=lambda r: (r.phase, r.card)),
                *kept]

    @property
    def current_vp(self) -> int:
        """VP held during play: start + objective cards + scroll overflow (R6.6)."""
        return self._start_vp + self._card_vp + self._overflow_vp

    @property
    def leftover_items(self) -> int:
        """R10.2: goods, coins, bread and stored tiles."""
        return sum(self.goods) + self.coins + self.bread + self.stored


def draw_deal(c: Components, n: int, rng: np.random.Generator) -> Deal:
    """R2: every chance outcome of a game, drawn in this fixed order (the core's
    ``GameState::new`` draws the same from the same seed)."""
    boards = rng.permutation(len(c.boards))[:n]
    part_ids = sorted(c.frame_parts)
    parts = [part_ids[i] for i in rng.permutation(len(part_ids))]
    drawn: list[str] = []
    for deck, k in zip("ABCD", CARDS_DRAWN[n], strict=True):  # R2.2
        ids = c.decks[deck]
        drawn += [ids[i] for i in rng.permutation(len(ids))[:k]]
    drawn = [drawn[i] for i in rng.permutation(len(drawn))]
    grid: list[str | None] = [None] * 12
    for slot in (s for s in range(12) if s not in EMPTY_SLOTS[n]):
        grid[slot] = drawn.pop()
    fids = sorted(c.fountains)
    fountain_deck = [fids[i] for i in rng.permutation(len(fids))]  # R2.3
    light = [c.light[i] for i in rng.permutation(len(c.light))]  # R2.4
    dark = [c.dark[i] for i in rng.permutation(len(c.dark))]
    seal: list[int | None] = [dark.pop() for _ in range(SEAL_SPACES)]
    return Deal(boards=[c.boards[int(b)].id for b in boards],
                frames=[parts[4 * i: 4 * i + 4] for i in range(n)],  # R2.1
                grid=grid, fountain_deck=fountain_deck, light_deck=light, dark_deck=dark,
                seal=seal)


class Pending(NamedTuple):
    """The decision the rules wait for (the core's ``Pending`` with its options): who
    decides (``seat``), what (``decision``), among which ``options`` (the ``Action`` records
    of ``cdsim.games.carpe_diem.rules.options``, in the order the core lists them too) and, for a payment, the
    objective ``card`` it is for (R8.4)."""

    seat: int
    decision: Decision
    options: Sequence[Any]
    card: ObjectiveCard | None = None


# A rule that may wait for decisions: it yields each one and is sent the option chosen.
Steps = Generator[Pending, Any, None]


class GameState:
    """What changes during one game (OpenSpiel's State)."""

    def __init__(self, config: GameConfig, seed: Any,
                 trace: Callable[[str], None] | None = None,
                 deal: Deal | None = None, reads_scores: Sequence[bool] = ()) -> None:
        """``deal``: every chance outcome of the game as the core drew it (its
        ``State.deal()``: boards, frame parts, card grid, decks, seal row); without it
        the deal is drawn from ``seed``. Either way ``seed`` gives the seats' streams.
        ``reads_scores``: which seats' observations show VP totals (their players'
        declaration, read once when the game starts; none if empty). The state holds no
        players: a driver asks them (``cdsim.games.carpe_diem.rules.play.run``). Nothing runs yet:
        ``begin`` gives the state the rules to run."""
        n = config.players
        if reads_scores and len(reads_scores) != n:
            raise CdsimError(f"{n} players need {n} reads_scores, got {len(reads_scores)}")
        self.config = config
        self.components = c = config.components
        self.trace = trace
        root = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
        engine_seq, *seat_seqs = root.spawn(1 + n)
        rng = np.random.default_rng(engine_seq)
        self.phase = 0
        self.round = 0
        self.start_player = 0
        self.stamp_counter = n
        if deal is None:
            deal = draw_deal(c, n, rng)
        self.frames = [tuple(f) for f in deal["frames"]]  # R2.1
        board_index = {b.id: i for i, b in enumerate(c.boards)}
        self.players = []
        for seat in range(n):
            frame = tuple(c.frame_parts[p] for p in self.frames[seat])
            district = District(c.boards[board_index[deal["boards"][seat]]], frame)
            self.players.append(PlayerState(seat, district, config.start_vp[seat]))
            self.players[seat].stamp = seat  # R2.6: the last seat's disc is on top
        self.grid: list[str | None] = list(deal["grid"])  # R2.2
        self.circles = CIRCLES[n]
        self.circle_owner = [-1] * len(self.circles)
        self.fountain_deck: list[str] = list(deal["fountain_deck"])  # R2.3
        self.light_deck: list[int] = list(deal["light_deck"])  # R2.4
        self.dark_deck: list[int] = list(deal["dark_deck"])
        self.seal: list[int | None] = list(deal["seal"])
        self.depots: list[list[int]] = [[] for _ in range(SPACES)]
        self.depot_taken = [0] * SPACES
        self.discarded = 0
        # read once: a strategy that later sets reads_scores = True still sees no scores
        self.observer = Observer(c, [seat_stream(s) for s in seat_seqs],
                                 [bool(r) for r in reads_scores] or [False] * n)
        self.pending: Pending | None = None  # the decision waited for; None: none (yet)
        self._steps: Steps | None = None

    # -- pull-style: the pending decision, its options, apply ------------------------
    def begin(self, steps: Steps) -> None:
        """Run ``steps`` (the rules from here on, e.g. ``cdsim.games.carpe_diem.rules.play.phases(state)``)
        up to their first decision, or to their end if they need none."""
        self._steps = steps
        self.pending = next(steps, None)

    def options(self) -> Sequence[Any]:
        """The pending decision's options (none when no decision is pending)."""
        return () if self.pending is None else self.pending.options

    def apply(self, action: Any) -> None:
        """Take ``action``, one of the pending decision's options (the rules go on with
        their own record, the same object or an equal one), and run the rules on to the
        next decision or their end (``pending`` is then None). Refuses an option not
        offered (ValueError): the driver checks a player's choice before it applies it.
        These are the engine's own errors, never a user's (a player's failures are
        ``StrategyFailure``, raised by the driver)."""
        pending, steps = self.pending, self._steps
        if pending is None or steps is None:
            raise RuntimeError(f"no decision is pending, {action!r} cannot be applied")
        found = find(action, pending.options)
        if found is None:
            raise ValueError(f"{action!r} is not an option of the pending {pending.decision} "
                             f"decision of seat {pending.seat + 1}")
        self.pending = None  # until the rules yield the next one
        try:
            self.pending = steps.send(pending.options[found])
        except StopIteration:
            self._steps = None

    # -- helpers -----------------------------------------------------------------
    def log(self, message: str) -> None:
        if self.trace is not None:
            self.trace(message)

    def observe(self, seat: int, decision: Decision | str = "",
                card: ObjectiveCard | None = None) -> Observation:
        """What ``seat`` may know now, deciding ``decision`` (cdsim.games.carpe_diem.rules.observation)."""
        observer = self.observer
        return observer.observe(self.facts(), [observer.district(p.seat, p.district)
                                               for p in self.players],
                                self.circles, seat, decision, card)

    def facts(self) -> tuple[Any, ...]:
        """What observations are made of, in the shape of the core's ``State.observe()``
        (the board; per seat its public holdings, its fountain cards and counts, its VP
        total, starting VP, tiles built and frontier), so that one ``Observer.observe``
        decides what a seat may know for both engines. The board's lists are the state's
        own (the observer copies what it keeps); each seat's are copies, as the observer
        keeps a seat's facts to tell whether it changed."""
        return (self.phase, self.round, self.start_player, self.depots, self.depot_taken,
                self.seal, self.grid, self.circle_owner,
                (len(self.light_deck), len(self.dark_deck), len(self.fountain_deck),
                 self.discarded),
                [((p.pawn, p.scroll, p.stamp, tuple(p.goods), p.coins, p.bread, p.stored),
                  (tuple(p.fountain_cards), p.tiles_built, p.bread_moves, p.failed_cards,
                   p.artisan_lost, tuple(p.taken)),
                  (p.current_vp, p._start_vp, p.district.built, p.district.frontier))
                 for p in self.players])

    def seat_order(self) -> list[int]:
        n = self.config.players
        return [(self.start_player + i) % n for i in range(n)]

    def deal(self) -> None:
        """R2.4 / R3.2: 4 tiles on each depot — light for phases 1-3, dark for phase 4."""
        deck = self.light_deck if self.phase < PHASES - 1 else self.dark_deck
        for space in range(SPACES):
            self.depots[space] = [deck.pop() for _ in range(TILES_PER_DEPOT)]
        self.depot_taken = [0] * SPACES

    def advance_scroll(self, seat: int, steps: int) -> None:
        """R5.4, R6.3: move the disc; it lands on top. R6.6: steps past the end score 1 VP."""
        if steps <= 0:
            return
        p = self.players[seat]
        last = self.components.last_scroll_space
        target = p.scroll + steps
        if target > last:
            p._overflow_vp += target - last
            target = last
        p.scroll = target
        self.stamp_counter += 1
        p.stamp = self.stamp_counter

    # -- R2.5: pawns -------------------------------------------------------------
    def place_pawns(self) -> Steps:
        """R2.5: each player puts its pawn on a free patrician space while receiving its
        components, before any tile is dealt: the choice is blind (every depot is empty).
        [decision] In seat order from seat 0, the first starting player."""
        self.log("setup: pawns are placed before any tile is dealt (R2.5)")
        for seat in self.seat_order():
            taken = {p.pawn for p in self.players}
            free = [Start(s) for s in range(SPACES) if s not in taken]
            start = yield Pending(seat, "start", free)
            self.players[seat].pawn = start.space
            self.log(f"  seat {seat + 1} starts on space {self.players[seat].pawn}")

    # -- R4: a turn ----------------------------------------------------------------
    def move_options(self, seat: int) -> list[Move]:
        p = self.players[seat]
        dests: list[int] = []
        for step in (1, -1):  # R4.2, R4.3: skip empty depots in the same direction
            pos = (p.pawn + step) % SPACES
            while not self.depots[pos]:
                pos = (pos + step) % SPACES
            if pos not in dests:
                dests.append(pos)
        options = [Move(d, False) for d in dests]
        if p.bread >= 1:  # R4.4 [decision]: only spaces whose depot has a tile
            options += [Move(s, True) for s in range(SPACES) if self.depots[s]]
        return options

    def take_options(self, seat: int, space: int) -> list[Take]:
        """R4.5: one option per distinct tile (identical tiles are one option) per placement."""
        district = self.players[seat].district
        types = self.components.tile_types
        options: list[Take] = []
        seen: set[int] = set()
        for slot, t in enumerate(self.depots[space]):
            if t in seen:
                continue
            seen.add(t)
            options += [Take(slot, t, cell, edges)
                        for cell, edges in district.placements(types[t].orientations)]
            options.append(Take(slot, t, -1, None))  # R4.5, R9.3: storing is always allowed
        return options

    def turn(self, seat: int) -> Steps:
        p = self.players[seat]
        move: Move = yield Pending(seat, "move", self.move_options(seat))
        if move.bread:
            p.bread -= 1
            p.bread_moves += 1
        p.pawn = move.dest
        take: Take = yield Pending(seat, "take", self.take_options(seat, move.dest))
        depot = self.depots[move.dest]
        tile = depot.pop(take.slot)
        p.taken[self.phase] += 1
        self.depot_taken[move.dest] += 1
        if self.depot_taken[move.dest] >= TAKES_PER_DEPOT[self.config.players]:  # R4.6
            self.discarded += len(depot)
            depot.clear()
        name = self.components.tile_types[tile].id
        how = "bread move" if move.bread else "moves"
        if take.edges is None:
            p.stored += 1
            self.log(f"  seat {seat + 1} {how} to {move.dest}, takes {name}, stores it")
            return
        self.log(f"  seat {seat + 1} {how} to {move.dest}, takes {name}, builds at "
                 f"{divmod(take.cell, 6)} as {edge_text(take.edges)}")
        yield from self.build(seat, tile, take.cell, take.edges)

    # -- R5, R6: building and rewards ----------------------------------------------
    def build(self, seat: int, tile: int, cell: int, edges: tuple[int, int, int, int]) -> Steps:
        p = self.players[seat]
        ttype = self.components.tile_types[tile]
        scroll = cell in p.district.scrolls
        completed = p.district.place(cell, edges, ttype.chimneys, ttype.building)
        p.tiles_built += 1
        if scroll:  # R5.4
            self.advance_scroll(seat, 1)
            self.log(f"    scroll space: disc to {p.scroll}")
        for feature in sorted(completed, key=lambda f: _REWARD_ORDER.get(f.kind, 3)):
            yield from self.reward(seat, feature)

    def reward(self, seat: int, feature: Feature) -> Steps:
        """R6.2-R6.5: the reward of a completed feature, at once."""
        p = self.players[seat]
        kind = feature.kind
        note = ""
        if kind in LANDSCAPES:
            p.goods[LANDSCAPE_GOOD[kind]] += feature.tiles - 1
            note = f"+{feature.tiles - 1} goods"
        elif kind == MERCHANT:
            goods = sum(p.goods)
            p.goods = [0, 0, 0, 0]
            p.coins += goods + 1
            note = f"{goods} goods -> {goods + 1} coins"
        elif kind == BAKER:
            p.bread += 2
            note = "+2 bread"
        elif kind == ADMINISTRATOR:
            self.advance_scroll(seat, 2)
            note = f"+2 scroll steps (now {p.scroll})"
        elif kind == MARKET:
            p.coins += 1
            note = "+1 coin"
        elif kind == BAKERY:
            p.bread += 1
            note = "+1 bread"
        elif kind == VILLA:
            note = f"{feature.chimneys} chimneys"
        size = f"{feature.tiles} tile{'s' if feature.tiles > 1 else ''}"
        self.log(f"    completes {FEATURE_NAMES[kind]} ({size}) {note}".rstrip())
        if kind == ARTISAN:
            yield from self.artisan(seat)
        elif kind == FOUNTAIN:
            yield from self.fountain(seat)

    def artisan(self, seat: int) -> Steps:
        """R6.3: build one seal-row tile at once; no buildable seal tile = reward lost."""
        p = self.players[seat]
        types = self.components.tile_types
        options = []
        seen: set[int] = set()
        for slot, t in enumerate(self.seal):
            if t is None or t in seen:
                continue
            seen.add(t)
            for cell, edges in p.district.placements(types[t].orientations):
                options.append(SealBuild(slot, t, cell, edges))
        if not options:
            p.artisan_lost += 1
            self.log("    artisan: no seal tile can be built, reward lost")
            return
        choice: SealBuild = yield Pending(seat, "seal", options)
        tile = self.seal[choice.slot]
        assert tile is not None
        self.seal[choice.slot] = None  # R6.3: never replaced
        self.log(f"    artisan: builds seal tile {types[tile].id} at {divmod(choice.cell, 6)} "
                 f"as {edge_text(choice.edges)}")
        yield from self.build(seat, tile, choice.cell, choice.edges)

    def fountain(self, seat: int) -> Steps:
        """R6.5: draw 2, keep 1 and put the other under the deck; at a later fountain the
        player may instead keep both and put one of its earlier cards under the deck."""
        p = self.players[seat]
        drawn = self.fountain_deck[:2]
        del self.fountain_deck[:2]
        if not drawn:
            return
        p.fountain_draws += [CardRow(seat, "fountain", c, "drawn", self.phase + 1, 0, 0)
                             for c in drawn]
        options = [FountainChoice((c,), next((o for o in drawn if o != c), None)) for c in drawn]
        if len(drawn) == 2:  # R6.5 "may": keeping both is an option, never a duty
            options += [FountainChoice(tuple(drawn), c) for c in dict.fromkeys(p.fountain_cards)]
        choice: FountainChoice = yield Pending(seat, "fountain", options)
        if choice.give_back is not None:
            if choice.give_back in p.fountain_cards:  # a previously kept card
                p.fountain_cards.remove(choice.give_back)
            self.fountain_deck.append(choice.give_back)  # under the deck
        p.fountain_cards.extend(choice.keep)
        self.log(f"    fountain: keeps {', '.join(choice.keep)}; gives back {choice.give_back}")

