"""Label the learned player's own decisions with search, and measure what the labels say
(issue 30, step 1; docs/strength.md, "Labels from search").

Plays the learned player's own games (explore 0.05, as ``cdsim train``'s self-play; deals
no training or ``make evaluator`` game uses) and at sampled decisions:

- asks ``State.search_labels`` twice, with two seeds: every option the learned player
  shortlists (one ply), its position valued by an mcts tree of ``--playouts`` simulations,
  the same deck orders for every option (common random numbers). Two seeds measure the
  labels' noise; their mean is the label at twice the budget;
- asks mcts itself (``--budgets``, default 120 and 480) for its choice, on a copy of the
  game: is it among the learned player's shortlist?

It writes every label, learned value and input to ``--out`` (npz: the dataset a better fit
reads) and prints, per decision kind: how often mcts's choice lies outside the shortlist,
the agreement of the learned ranking with the labels (Spearman per decision, top-1), the
labels' own agreement between seeds, and the regret of the learned pick under the labels
(for moves split into the destination and the placement).

    .venv/bin/python scripts/search_labels.py --players 4 --decisions 200 --out runs/labels4.npz
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import numpy as np

from cdsim import core
from cdsim.errors import CdsimError
from cdsim.games.carpe_diem.handover import core_components
from cdsim.games.carpe_diem.players import weights as W

KEY = 9_500_000  # deal keys beyond the training's (stage * 1,000,000 + game) and the evaluator's
CHANCE = {"move": 0.12, "seal": 0.5, "circle": 0.5, "fountain": 0.25, "payment": 0.25}


def mcts_choice(state: Any, module: Any, playouts: int) -> list[int]:
    """mcts's choice on a copy of the game (a move, then the take it searched for)."""
    copy = state.clone()
    seat = copy.current_seat()
    bot = module.Bot("mcts", [("playouts", float(playouts))])
    first = bot.choose(copy)
    if copy.decision() != "move":
        return [first]
    copy.apply(first)
    if copy.decision() != "take" or copy.current_seat() != seat:
        return [first]
    return [first, bot.choose(copy)]


def label_games(players: int, decisions: int, playouts: int, budgets: list[int], seed: int,
                out_path: Path, kinds: tuple[str, ...] = tuple(CHANCE),
                learner: Path = W.PLAYOUT_WEIGHTS) -> list[dict[str, Any]]:
    """Sampled decisions of fresh games of the learned player with ``learner``'s weights,
    with their labels, until ``decisions`` (written to ``out_path`` every 10 decisions, so
    a stopped run keeps them)."""
    module = core.module()
    assert module is not None
    comps = core_components(None)
    weights = float(module.learned_weights(learner.read_text()))
    search = [("playouts", float(playouts))]
    out: list[dict[str, Any]] = []
    game = 0
    while len(out) < decisions:
        key = KEY + game
        bots = [module.Bot("learned", [("explore", 0.05), ("weights", weights)])
                for _ in range(players)]
        state = module.State(comps, players, [0] * players, seed, key)
        chance = np.random.default_rng([seed, key, 0x5EA])
        index = 0
        while not state.is_over() and len(out) < decisions:
            kind = state.decision()
            if chance.random() < CHANCE.get(kind, 0.0) and kind in kinds:
                seed_of = (key << 12) + index
                a = state.search_labels(seed_of, search, int(weights))
                if len(a) > 1:
                    b = state.search_labels(seed_of ^ (1 << 40), search, int(weights))
                    out.append({
                        "kind": kind, "game": game, "choice": [c for c, *_ in a],
                        "a": np.array([v for _, v, *_ in a]),
                        "b": np.array([v for _, v, *_ in b]),
                        "learned": np.array([v for _, _, v, *_ in a]),
                        "inputs": np.array([row[3] for row in a]),
                        "placement": np.array([row[4] for row in a]),
                        "district": np.array([np.frombuffer(row[5], np.uint8) for row in a]),
                        "mcts": {p: mcts_choice(state, module, p) for p in budgets},
                    })
                    print(f"\r{len(out)} decisions ({game + 1} games)", end="", file=sys.stderr)
                    if len(out) % 10 == 0:
                        save(out, out_path, players, playouts, budgets)
            index += 1
            state.apply(bots[state.current_seat()].choose(state))
        game += 1
    print(file=sys.stderr)
    return out


def spearman(x: np.ndarray, y: np.ndarray) -> float:
    """Rank correlation (ties by their mean rank); NaN when either is constant."""
    def ranks(v: np.ndarray) -> np.ndarray:
        order = np.argsort(v, kind="stable")
        r = np.empty(len(v))
        r[order] = np.arange(len(v))
        for value in np.unique(v):
            tied = v == value
            r[tied] = r[tied].mean()
        return r
    rx, ry = ranks(x), ranks(y)
    if rx.std() == 0 or ry.std() == 0:
        return float("nan")
    return float(np.corrcoef(rx, ry)[0, 1])


def summary(records: list[dict[str, Any]], budgets: list[int], playouts: int) -> None:
    """The figures of step 1, per decision kind and for all."""
    kinds = [*sorted({r["kind"] for r in records}), "all"]
    print(f"labels: mcts tree, {playouts} simulations per option and seed; 'pooled' = both "
          f"seeds ({2 * playouts})")
    for kind in kinds:
        rs = [r for r in records if kind in ("all", r["kind"])]
        row: dict[str, list[float]] = {k: [] for k in (
            "options", "rho_learned", "top1_learned", "rho_seeds", "top1_seeds", "regret",
            "random", "regret_move", "regret_place", *[f"out{p}" for p in budgets],
            *[f"mcts{p}_regret" for p in budgets])}
        for r in rs:
            pooled = (r["a"] + r["b"]) / 2
            best = int(np.argmax(pooled))
            pick = int(np.argmax(r["learned"]))
            row["options"].append(len(pooled))
            row["rho_learned"].append(spearman(r["learned"], pooled))
            row["top1_learned"].append(float(pick == best))
            row["rho_seeds"].append(spearman(r["a"], r["b"]))
            row["top1_seeds"].append(float(np.argmax(r["a"]) == np.argmax(r["b"])))
            row["regret"].append(pooled[best] - pooled[pick])
            row["random"].append(pooled[best] - pooled.mean())
            if r["kind"] == "move":
                same = [i for i, c in enumerate(r["choice"]) if c[0] == r["choice"][pick][0]]
                within = max(pooled[i] for i in same)
                row["regret_move"].append(pooled[best] - within)
                row["regret_place"].append(within - pooled[pick])
            for p in budgets:
                chosen = r["mcts"][p]
                inside = [i for i, c in enumerate(r["choice"]) if c == chosen]
                row[f"out{p}"].append(float(not inside))
                if inside:
                    row[f"mcts{p}_regret"].append(pooled[best] - pooled[inside[0]])
        mean = {k: float(np.nanmean(v)) if v else float("nan") for k, v in row.items()}
        budget_text = ", ".join(
            f"mcts@{p} outside {mean[f'out{p}']:.1%} (regret of its pick {mean[f'mcts{p}_regret']:.2f})"
            for p in budgets)
        print(f"{kind:8s} {len(rs):4d} decisions x {mean['options']:4.1f} options | learned vs "
              f"labels: spearman {mean['rho_learned']:.2f}, top-1 {mean['top1_learned']:.0%}, "
              f"regret {mean['regret']:.2f} VP (random {mean['random']:.2f}; move "
              f"{mean['regret_move']:.2f} + placement {mean['regret_place']:.2f}) | seed A vs "
              f"B: spearman {mean['rho_seeds']:.2f}, top-1 {mean['top1_seeds']:.0%} | "
              f"{budget_text}")


def moves(records: list[dict[str, Any]]) -> None:
    """Move decisions split: how well the learned value ranks the placements after one
    destination (Spearman among the options of one move, averaged), and the destinations
    (Spearman over the destinations of each one's best option); seed A against B beside."""
    place: dict[str, list[float]] = {"learned": [], "seeds": []}
    dest: dict[str, list[float]] = {"learned": [], "seeds": []}
    for r in (r for r in records if r["kind"] == "move"):
        pooled = (r["a"] + r["b"]) / 2
        first = np.array([c[0] for c in r["choice"]])
        tops = {"learned": [], "pooled": [], "a": [], "b": []}
        for d in np.unique(first):
            m = first == d
            for key, values in (("learned", r["learned"]), ("pooled", pooled), ("a", r["a"]),
                                ("b", r["b"])):
                tops[key].append(values[m].max())
            if m.sum() > 2:
                place["learned"].append(spearman(r["learned"][m], pooled[m]))
                place["seeds"].append(spearman(r["a"][m], r["b"][m]))
        if len(tops["pooled"]) > 2:
            dest["learned"].append(spearman(np.array(tops["learned"]), np.array(tops["pooled"])))
            dest["seeds"].append(spearman(np.array(tops["a"]), np.array(tops["b"])))
    by_phase = []
    for phase in range(4):  # the phase of the position after the turn (inputs' column 0)
        rs = [r for r in records if r["kind"] == "move" and int(r["inputs"][0, 0]) == phase]
        if rs:
            gain = np.mean([(r["b"][np.argmax(r["a"])] + r["a"][np.argmax(r["b"])]) / 2
                            - (r["a"] + r["b"])[np.argmax(r["learned"])] / 2 for r in rs])
            by_phase.append(f"phase {phase + 1} {gain:.2f} ({len(rs)})")
    if by_phase:
        print("moves: teacher's gain by phase (decisions): " + ", ".join(by_phase))
    if place["learned"]:
        print(f"moves: placements after one destination, spearman learned {np.nanmean(place['learned']):.2f} "
              f"(seeds {np.nanmean(place['seeds']):.2f}); destinations, learned "
              f"{np.nanmean(dest['learned']):.2f} (seeds {np.nanmean(dest['seeds']):.2f})")


def reliability(records: list[dict[str, Any]]) -> None:
    """What the labels can teach, per decision kind: the two seeds' correlation (options
    less their decision's mean), the pooled label's reliability from it (Spearman-Brown),
    the learned value's correlation with the pooled label and that over the square root
    of the reliability (against the exact label); and the teacher's gain: the label B
    gives the option label A ranks best, less the one it gives the learned player's pick
    (and A and B swapped): what following the labels wins, measured on labels that did
    not choose."""
    def centred(r: dict[str, Any], key: str) -> np.ndarray:
        return np.asarray(r[key] - r[key].mean())
    for kind in [*sorted({r["kind"] for r in records}), "all"]:
        rs = [r for r in records if kind in ("all", r["kind"])]
        a = np.concatenate([centred(r, "a") for r in rs])
        b = np.concatenate([centred(r, "b") for r in rs])
        learned = np.concatenate([centred(r, "learned") for r in rs])
        r_ab = float(np.corrcoef(a, b)[0, 1])
        pooled_rel = 2 * r_ab / (1 + r_ab)
        r_learned = float(np.corrcoef(learned, a + b)[0, 1])
        gain = np.mean([(r["b"][np.argmax(r["a"])] + r["a"][np.argmax(r["b"])]) / 2
                        - (r["a"] + r["b"])[np.argmax(r["learned"])] / 2 for r in rs])
        print(f"{kind:8s} seeds' correlation {r_ab:.2f}, pooled label's reliability "
              f"{pooled_rel:.2f}; learned vs pooled {r_learned:.2f} (vs the exact label about "
              f"{r_learned / np.sqrt(pooled_rel):.2f}); teacher's gain {gain:.2f} VP a decision")


def compare(small: list[dict[str, Any]], big: list[dict[str, Any]]) -> None:
    """Labels of the same decisions at two budgets (the same games and seed, ``big`` the
    first decisions again): does the smaller budget only add noise, or rank otherwise?
    The observed correlation of the two pooled labels against the one noise alone would
    give (the square root of the product of their reliabilities)."""
    pairs = list(zip(small, big, strict=False))
    if any(len(a["a"]) != len(b["a"]) or not np.allclose(a["learned"], b["learned"])
           for a, b in pairs):
        raise SystemExit("the two files do not hold the same decisions (same --seed and "
                         "--players, and the larger budget's run no longer than the other)")
    def centred(rs: list[dict[str, Any]], key: str) -> np.ndarray:
        return np.concatenate([r[key] - r[key].mean() for r in rs])
    def rel(rs: list[dict[str, Any]]) -> float:
        r = float(np.corrcoef(centred(rs, "a"), centred(rs, "b"))[0, 1])
        return 2 * r / (1 + r)
    s_, b_ = [a for a, _ in pairs], [b for _, b in pairs]
    def pooled(rs: list[dict[str, Any]]) -> list[np.ndarray]:
        return [(r["a"] + r["b"]) - (r["a"] + r["b"]).mean() for r in rs]
    small_pooled, big_pooled = pooled(s_), pooled(b_)
    observed = float(np.corrcoef(np.concatenate(small_pooled), np.concatenate(big_pooled))[0, 1])
    top = np.mean([np.argmax(x) == np.argmax(y)
                   for x, y in zip(small_pooled, big_pooled, strict=True)])
    print(f"{len(pairs)} decisions: pooled labels' reliability {rel(s_):.2f} (small budget) and "
          f"{rel(b_):.2f} (large); their correlation {observed:.2f} against "
          f"{np.sqrt(rel(s_) * rel(b_)):.2f} from noise alone; same best option {top:.0%}")


def save(records: list[dict[str, Any]], path: Path, players: int, playouts: int,
         budgets: list[int]) -> None:
    """Every option as a row: decision, game, kind, its choice (the option, the take or
    -1), labels A and B, learned value, inputs, greedy's placement value of its build, the
    seat's district after it (4 side kinds a cell, 255 empty), and whether mcts@p chose it."""
    def column(f: Any) -> np.ndarray:
        return np.concatenate([f(r) for r in records])
    path.parent.mkdir(parents=True, exist_ok=True)
    picks = {f"mcts{p}": column(lambda r, p=p: np.array([c == r["mcts"][p] for c in r["choice"]]))
             for p in budgets}
    part = path.with_name(path.name + ".part")  # a reader never sees half a file
    with part.open("wb") as f:
        np.savez_compressed(
            f, players=players, playouts=playouts, budgets=np.array(budgets),
            group=np.concatenate([np.full(len(r["a"]), i) for i, r in enumerate(records)]),
            game=column(lambda r: np.full(len(r["a"]), r["game"])),
            kind=column(lambda r: np.array([r["kind"]] * len(r["a"]))),
            choice=column(lambda r: np.array([[*c, -1][:2] for c in r["choice"]])),
            a=column(lambda r: r["a"]), b=column(lambda r: r["b"]),
            learned=column(lambda r: r["learned"]), inputs=np.vstack([r["inputs"] for r in records]),
            placement=column(lambda r: r["placement"]),
            district=np.vstack([r["district"] for r in records]), **picks)
    part.replace(path)


def load(path: Path) -> tuple[list[dict[str, Any]], list[int], int]:
    """The records ``save`` wrote, with the budgets and the playouts."""
    data = np.load(path)
    # a file of the first version has no choices nor mcts picks
    budgets = [int(p) for p in data["budgets"]] if "budgets" in data else []
    records = []
    for g in np.unique(data["group"]):
        m = data["group"] == g
        choice = ([[int(x) for x in c if x >= 0] for c in data["choice"][m]] if "choice" in data
                  else [[i] for i in range(int(m.sum()))])
        picked = {p: [choice[i] for i in np.flatnonzero(data[f"mcts{p}"][m])] for p in budgets}
        records.append({"kind": str(data["kind"][m][0]), "game": int(data["game"][m][0]),
                        "choice": choice, "a": data["a"][m], "b": data["b"][m],
                        "learned": data["learned"][m], "inputs": data["inputs"][m],
                        # files before the placement column: NaN
                        "placement": (data["placement"][m] if "placement" in data
                                      else np.full(int(m.sum()), np.nan)),
                        "district": (data["district"][m] if "district" in data
                                     else np.full((int(m.sum()), 144), 255, dtype=np.uint8)),
                        "mcts": {p: (c[0] if c else [-1]) for p, c in picked.items()}})
    return records, budgets, int(data["playouts"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
    parser.add_argument("--decisions", type=int, default=200)
    parser.add_argument("--playouts", type=int, default=60)
    parser.add_argument("--budgets", default="120,480")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--kinds", default=",".join(CHANCE),
                        help="the decision kinds labelled (each at its usual chance)")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--weights", type=Path, default=W.PLAYOUT_WEIGHTS,
                        help="the learner whose games are labelled (default learned-v1.json, "
                             "the learner of docs/strength.md's label files)")
    parser.add_argument("--summary", action="store_true",
                        help="only print the figures of the labels already in --out")
    parser.add_argument("--compare", type=Path, metavar="BIG",
                        help="with --summary: the same decisions labelled at a larger budget")
    args = parser.parse_args()
    if args.summary:
        if not args.out.is_file():
            parser.error(f"--out {args.out}: no such labels file")
        records, budgets, playouts = load(args.out)
        if args.compare is not None:
            if not args.compare.is_file():
                parser.error(f"--compare {args.compare}: no such labels file")
            compare(records, load(args.compare)[0])
            return
        summary(records, budgets, playouts)
        reliability(records)
        moves(records)
        return
    try:
        budgets = [int(b) for b in args.budgets.split(",")]
    except ValueError:
        parser.error(f"--budgets must be whole numbers separated by commas, got {args.budgets!r}")
    if not 1 <= args.decisions <= 100_000 or args.playouts < 1 or min(budgets) < 1:
        parser.error("--decisions must be 1-100000, --playouts and --budgets at least 1")
    kinds = tuple(args.kinds.split(","))
    if not set(kinds) <= set(CHANCE):
        parser.error(f"--kinds must be among {','.join(CHANCE)}, got {args.kinds!r}")
    try:
        W.read_weights(args.weights)
    except CdsimError as exc:
        parser.error(f"--weights: {exc}")
    records = label_games(args.players, args.decisions, args.playouts, budgets, args.seed,
                          args.out, kinds, args.weights)
    save(records, args.out, args.players, args.playouts, budgets)
    summary(records, budgets, args.playouts)
    reliability(records)
    moves(records)


if __name__ == "__main__":
    main()
