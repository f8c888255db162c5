"""``cdsim ladder``'s report: every strategy of a ladder on one rating scale.

The figures are ``cdsim.analysis.ratings``' (``fit_ladder``: Bradley-Terry with 2 players,
Plackett-Luce with 3-4, on the Elo scale, anchored at ``random`` when it plays, with 95%
percentile-bootstrap intervals over whole deals), read with the ladder's clean sweeps by
``cdsim.ladder.read_results``; this module lays them out as ladder.html, ladder.md,
ladder.json, the charts and the terminal's text.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np

from cdsim.analysis.fmt import pct
from cdsim.analysis.ratings import PRIOR_GAMES, RESAMPLES, LadderFit
from cdsim.games.features import FailedCost
from cdsim.games.names import shown_names
from cdsim.ladder import LadderResult, read_results
from reports.charts import COLOURS, FloatArray, _png
from reports.report import Doc, publish, save

# -- the ladder --------------------------------------------------------------------------



# -- output ------------------------------------------------------------------------------

def as_json(result: LadderResult) -> dict[str, object]:
    m = result.manifest
    ladder = m.ladder
    f = result.fit
    order = f.order()
    return {
        "players": result.players, "ladder": str(result.root), "seed": ladder.seed,
        "games_per_pairing": ladder.games, "strategies": list(result.names),
        "method": result.method, "scale": "Elo: 400 log10(strength)",
        "anchor": result.anchor or "mean", "prior_games": PRIOR_GAMES,
        "weights": m.weights,
        "interval": f"95% percentile bootstrap over {f.deals} deals ({f.resamples} resamples)",
        "ratings": [{"strategy": result.names[i], "rating": float(f.rating[i]),
                     "low": float(f.low[i]), "high": float(f.high[i]), "games": int(f.games[i]),
                     "appearances": int(f.appearances[i]), "wins": int(f.wins[i]),
                     "win_share": float(f.win_share[i]), "mean_vp": float(f.mean_vp[i]),
                     # a game without cards that fail has no rate: null, not NaN
                     "failed_card_rate": float(f.failed_rate[i]) if _has_cards(f) else None}
                    for i in order],
        "mean_vp": {result.names[i]: float(f.mean_vp[i]) for i in order},
        "sweeps": [{"strategy": result.names[w.winner], "over": result.names[w.loser],
                    "meetings": w.meetings, "deals": w.deals, "gap_at_least": w.gap_at_least}
                   for w in result.sweeps],
        "head_to_head": [{"strategy": result.names[i], "against": result.names[j],
                          "share": float(f.share[i, j]), "meetings": int(f.meetings[i, j])}
                         for i in order for j in order if f.meetings[i, j] > 0],
        "pairings": [{"key": p.key, "lineup": p.lineup, "run": p.run,
                      "games": int(f.pairing_games[n])} for n, p in enumerate(m.pairings)],
    }


def _signed(x: float) -> str:
    return f"{x:+.0f}" if round(x) else "0"


def rating_text(result: LadderResult, i: int) -> str:
    f = result.fit
    return f"{_signed(f.rating[i])} [{_signed(f.low[i])}, {_signed(f.high[i])}]"


def explain(result: LadderResult) -> str:
    model = ("Bradley-Terry (who wins each game)" if result.players == 2 else
             "Plackett-Luce (the whole finishing order, not only who won: a player often "
             "second can rate above one that wins a little more often)")
    anchor = ("`random` = 0" if result.anchor else "the mean rating = 0")
    return (f"Model: {model}, fitted by maximum likelihood (scipy), on the Elo scale "
            f"(400·log10 of the fitted strength: +200 points ≈ 76% wins between two players, "
            f"+400 ≈ 91%), anchored so that {anchor}. "
            f"95% intervals: percentile bootstrap over the {result.fit.deals} deals (each resample "
            f"draws whole deals, with all their games in every pairing; {result.fit.resamples} "
            "resamples); they are relative to the anchor"
            + (f" and rough: {result.fit.deals} deals are few" if result.fit.deals < 30 else "")
            + ". Each player also counts one virtual "
            "win and one virtual loss against a player of strength 1, so that a clean sweep "
            "still has a finite rating.")


def _shown(result: LadderResult) -> LadderResult:
    """The ladder as its page and terminal table show it: a strategy file by its class's
    name (``names.shown_names``; its JSON keeps the spelling)."""
    label = shown_names(result.names)
    return replace(result, names=tuple(label[n] for n in result.names))


def build(result: LadderResult) -> Doc:
    result = _shown(result)
    m = result.manifest
    ladder = m.ladder
    f = result.fit
    order = f.order()
    doc = Doc()
    doc.h(f"cdsim ladder: {result.root.name}", 1)
    comps = (ladder.spec.builtin_set_name if m.components_default else
             f"a user set from `{ladder.components}`")
    versions = ", ".join(f"{k} {v}" for k, v in sorted(m.versions.items()))
    doc.table(["setting", "value"], [
        ["players", result.players], ["strategies", ", ".join(result.names)],
        ["pairings", f"{len(m.pairings)} × {ladder.games} games (each deal in all "
                     f"{result.players} seat rotations), {int(f.pairing_games.sum())} games"],
        ["seed", f"{ladder.seed} (every pairing plays the same {f.deals} deals)"],
        ["strategy params", ladder.strategy_params or "defaults"],
        *([["learned weights", "; ".join(f"{spec}: `{w['path']}`, digest `{w['digest'][:12]}`"
                                         for spec, w in m.weights.items())]]
          if m.weights else []),
        ["component set", f"{comps}, digest `{m.components_digest[:12]}`"],
        ["versions", versions], ["simulation wall time", f"{m.wall_seconds:.1f} s"],
        ["command", f"`{m.command}`"],
        ["rules", ladder.spec.rules_said(1)]])

    doc.h("Ratings", 2)
    doc.p(explain(result))
    cards = _has_cards(f)
    doc.table(["", "strategy", "rating [95% CI]", "games", "win share", "mean final VP",
               *(["cards failed"] if cards else [])],
              [[rank + 1, result.names[i], rating_text(result, i), f.games[i],
                pct(f.win_share[i]), f"{f.mean_vp[i]:.1f}",
                *([pct(f.failed_rate[i])] if cards else [])]
               for rank, i in enumerate(order)])
    labels = [result.names[i] for i in order]
    doc.chart("ladder_ratings", rating_chart(labels, f.rating[order], f.low[order],
                                             f.high[order], result.anchor, result.method),
              f"{result.method} rating with its 95% bootstrap interval, strongest on top.")

    swept = sweep_text(result)
    if swept:
        doc.p(swept)

    _head_to_head_section(doc, result)

    if cards:
        _vp_and_failed_section(doc, labels, f, order,
                               ladder.spec.failed_cost or FailedCost("", "", "", ""))

    doc.h("Pairings", 2)
    doc.p("Each pairing is an ordinary run folder: `cdsim report LADDER/cells/KEY` reports it "
          "in full (seat balance, VP sources, convergence).")
    label = shown_names([x for p in m.pairings for x in p.lineup])
    rows = [[f"`{p.run}`", " · ".join(label[x] for x in p.lineup),
             int(f.pairing_games[n])] for n, p in enumerate(m.pairings)]
    doc.table(["run folder", "line-up (seat 1 first; rotated)", "games"], rows)
    return doc


def _head_to_head_section(doc: Doc, result: LadderResult) -> None:
    f = result.fit
    order = f.order()
    labels = [result.names[i] for i in order]
    doc.h("Head to head", 2)
    doc.p("Row player's share of its meetings with the column player: "
          + ("games between the two, won by the row player." if result.players == 2 else
             "two seats of one game held by the two, in which the row player finished ahead "
             "(a game with both seats of a pair counts once per pair of seats)."))
    grid = [[result.names[i], *("-" if f.meetings[i, j] == 0 else
                                f"{pct(f.share[i, j])} (n={int(f.meetings[i, j])})"
                                for j in order)] for i in order]
    doc.table(["", *labels], grid)
    doc.chart("ladder_head_to_head", heatmap(labels, f.share[np.ix_(order, order)],
                                             f.meetings[np.ix_(order, order)]),
              "Head-to-head win share of the row player against the column player (n: meetings).")


def sweep_text(result: LadderResult) -> str:
    """The pairs one of which finished ahead in every meeting: the games bound their gap
    below only; the fitted size comes from the virtual games."""
    found = result.sweeps
    if not found:
        return ""
    listed = "; ".join(f"{result.names[s.winner]} over {result.names[s.loser]} "
                       f"({s.meetings} of {s.meetings} in {s.deals} deals): at least "
                       f"{_signed(s.gap_at_least)}" for s in found)
    return (f"**Clean sweeps**: {listed} (one-sided 95% bounds, each deal counted once). The "
            "games cannot measure such a gap: its fitted size and its interval come from the "
            "virtual games. More games, or players of strength in between, measure it.")


def rating_chart(labels: list[str], rating: FloatArray, low: FloatArray, high: FloatArray,
                 anchor: str | None, method: str) -> bytes:
    """Dot and whisker: each player's rating with its interval, the strongest on top."""
    fig, ax = plt.subplots(figsize=(6.8, 1.2 + 0.45 * len(labels)))
    y = np.arange(len(labels))[::-1]
    xerr = [np.clip(rating - low, 0, None), np.clip(high - rating, 0, None)]
    ax.errorbar(rating, y, xerr=xerr, fmt="o", color=COLOURS[0], ecolor="black", capsize=5,
                label="rating, 95% bootstrap interval")
    for yi, r in zip(y, rating, strict=True):
        ax.annotate(f"{r:+.0f}", (r, yi), textcoords="offset points", xytext=(0, 7), ha="center",
                    fontsize=8)
    ax.axvline(0, color="grey", lw=1, ls="--", label=f"{anchor or 'mean'} = 0")
    ax.set_yticks(y, labels)
    ax.set_ylim(-0.7, len(labels) - 0.3)
    ax.set_xlabel(f"{method} rating (Elo scale: +200 ≈ 76% wins)")
    ax.set_title("Ratings")
    ax.legend(fontsize=8, loc="best")
    return _png(fig)


def heatmap(labels: list[str], share: FloatArray, meetings: FloatArray) -> bytes:
    """The row player's win share against the column player, with the meetings' count."""
    k = len(labels)
    fig, ax = plt.subplots(figsize=(1.6 + 1.1 * k, 1.2 + 0.9 * k))
    shown = np.where(meetings > 0, share, np.nan)
    image = ax.imshow(shown, cmap="RdBu", vmin=0, vmax=1)
    for i in range(k):
        for j in range(k):
            if meetings[i, j] > 0:
                dark = abs(share[i, j] - 0.5) > 0.3
                ax.text(j, i, f"{100 * share[i, j]:.0f}%\nn={int(meetings[i, j])}", ha="center",
                        va="center", fontsize=8, color="white" if dark else "black")
            else:
                ax.text(j, i, "–", ha="center", va="center", color="grey")
    ax.set_xticks(range(k), labels, rotation=30, ha="right")
    ax.set_yticks(range(k), labels)
    ax.set_xlabel("against")
    ax.set_title("Head to head: row player's win share")
    fig.colorbar(image, ax=ax, fraction=0.046, pad=0.04, format=lambda v, _: f"{100 * v:.0f}%")
    return _png(fig)


def vp_and_failed(labels: list[str], mean_vp: FloatArray, failed: FloatArray, noun: str
                  ) -> bytes:
    """Each strategy's mean final VP and its share of the game's failing cards (``noun``, as
    its ``GameSpec.failed_cost`` names them) failed, side by side."""
    fig, (left, right) = plt.subplots(1, 2, figsize=(7.6, 1.4 + 0.4 * len(labels)))
    y = np.arange(len(labels))[::-1]
    colours = [COLOURS[i % len(COLOURS)] for i in range(len(labels))]
    for ax, values, title, text in ((left, mean_vp, "mean final VP", "{:.1f}"),
                                    (right, 100 * failed, f"{noun} failed (%)", "{:.1f}%")):
        ax.barh(y, values, color=colours, alpha=0.8)
        for yi, v in zip(y, values, strict=True):
            # beyond the bar's end on its own side, so a negative value keeps its minus sign
            # clear of the bar and of the zero line (a typographic minus, as on the axis)
            ax.annotate(text.format(v).replace("-", "\u2212"), (v, yi),
                        textcoords="offset points", xytext=(3 if v >= 0 else -3, 0),
                        ha="left" if v >= 0 else "right", va="center", fontsize=8)
        ax.set_yticks(y, labels if ax is left else [""] * len(labels))
        ax.set_title(title, fontsize=10)
        ax.axvline(0, color="black", lw=0.8)
        low, high = float(np.min(values)), float(np.max(values))
        span = max(high, 1.0) - min(low, 0.0)
        ax.set_xlim(min(low - 0.25 * span, 0.0) if low < 0 else 0.0, max(high * 1.25, 1.0))
    return _png(fig)


def _has_cards(f: LadderFit) -> bool:
    """Whether its game has cards to fail (its spec's ``failed_cards``; a game without them
    has no rate in its rows: nan)."""
    return not bool(np.isnan(f.failed_rate).all())


def _vp_and_failed_section(doc: Doc, labels: list[str], f: LadderFit, order: list[int],
                           cost: FailedCost) -> None:
    """The chart of final VP and failed cards, the cards, a failed one's cost and its rule
    the game's (``GameSpec.failed_cost``)."""
    noun, vp, rule = cost.noun, cost.cost, cost.rule
    doc.h("Final VP and failed cards", 2)
    doc.chart("ladder_vp_failed", vp_and_failed(labels, f.mean_vp[order], f.failed_rate[order],
                                                noun),
              f"Mean final VP per game, and the share of its {noun} a player failed "
              f"(each costs {vp}, {rule}), per strategy.")


def format_text(result: LadderResult) -> str:
    result = _shown(result)
    lines = [f"{result.method} ratings, Elo scale, {result.anchor or 'mean'} = 0, "
             f"95% bootstrap over {result.fit.deals} deals:"]
    width = max(len(n) for n in result.names)
    f = result.fit
    for rank, i in enumerate(f.order()):
        lines.append(f"  {rank + 1:>2}. {result.names[i]:<{width}}  {rating_text(result, i):<18} "
                     f"{f.games[i]:>6} games  win share {pct(f.win_share[i]):>6}"
                     f"  mean VP {f.mean_vp[i]:5.1f}"
                     + (f"  cards failed {pct(f.failed_rate[i])}" if _has_cards(f) else ""))
    swept = sweep_text(result)
    if swept:
        lines.append("note: " + swept.replace("**", ""))
    for spec, w in result.manifest.weights.items():
        lines.append(f"weights of {spec}: {w['path']} (digest {w['digest'][:12]})")
    return "\n".join(lines)


def write(root: Path, out: Path | None = None, resamples: int = RESAMPLES
          ) -> tuple[Path, LadderResult]:
    """Analyse the ladder in ``root``; write ladder.html, ladder.md, ladder.json and charts/
    into ``out`` (default: the ladder folder). Returns the HTML's path and the result."""
    result = read_results(root, resamples)
    target = out or root
    page = publish(build(result), target, "ladder", f"cdsim ladder: {root.name}")
    save(target / "ladder.json", json.dumps(as_json(result), indent=1).encode())
    return page, result


__all__ = ["as_json", "build", "format_text", "write"]
