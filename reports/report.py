"""`cdsim report`: one run folder -> report.md + charts/*.png + a self-contained report.html.

The report is built once as a list of blocks (headings, paragraphs, tables,
charts) and rendered twice, so the Markdown and the HTML always say the same.
"""

from __future__ import annotations

import base64
import html
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import polars as pl

from cdsim.analysis.fmt import interval, pct, seat_label, vec
from cdsim.analysis.rare import note
from cdsim.batch.balance import BalanceResult
from cdsim.batch.folder import atomic_write
from cdsim.batch.results import CardSection, RunResults, read_results
from cdsim.errors import CdsimError
from cdsim.games.features import CardKind, FailedCost
from cdsim.games.names import shown_names
from cdsim.study.cores import in_order
from cdsim.study.memo import Memo
from reports import balance, cards, charts


def _draw_one(todo: tuple[Callable[..., bytes], Sequence[object]]) -> bytes:
    draw, args = todo
    return draw(*args)


@dataclass
class Doc:
    blocks: list[tuple[str, Any]] = field(default_factory=list)
    charts: dict[str, bytes] = field(default_factory=dict)
    memo: Memo = field(default_factory=lambda: Memo(None))  # charts drawn before (``draw``)
    # the charts ``draw`` was asked for and ``drawn`` has not drawn yet: name, draw, args
    pending: list[tuple[str, Callable[..., bytes], Sequence[object]]] = field(
        default_factory=list)

    def h(self, text: str, level: int = 2) -> None:
        self.blocks.append(("h", (level, text)))

    def p(self, text: str) -> None:
        self.blocks.append(("p", text))

    def table(self, header: Sequence[str], rows: Sequence[Sequence[object]],
              wide: bool = False) -> None:
        """A table; ``wide``: many columns of figures, drawn across the window's width (or
        scrolled) with each figure on one line, so that its headers are not squeezed to
        one word a line."""
        self.blocks.append(("table", (list(header), [list(r) for r in rows], wide)))

    def boxes(self, boxes: Sequence[tuple[str, Sequence[tuple[str, Sequence[str], bool]], str]]
              ) -> None:
        """The answer first: boxes side by side, each (title, groups, kind); a group is
        (heading, lines, muted), e.g. one per population, the floor muted; kind
        ``confirmed``, ``unfair`` or ``open`` colours the frame."""
        self.blocks.append(("boxes", [(t, [(h, list(lines), m) for h, lines, m in groups], k)
                                      for t, groups, k in boxes]))

    def chart(self, name: str, png: bytes, caption: str) -> None:
        self.charts[name] = png
        self.blocks.append(("img", (name, caption)))

    def draw(self, name: str, draw: Callable[..., bytes], args: Sequence[object],
             caption: str) -> None:
        """The chart ``draw(*args)`` (a ``reports.charts`` function), or the one ``memo``
        kept for the same code and arguments: the same bytes, without drawing it again.
        Drawn by ``drawn``, with the page's other charts (its place among the charts kept)."""
        self.pending.append((name, draw, args))
        self.chart(name, b"", caption)

    def drawn(self) -> None:
        """The charts ``draw`` was asked for: those ``memo`` kept read, the others drawn on
        every core (``cores.in_order``; each chart is drawn alone, from its arguments, so the
        same bytes in any process) and kept."""
        todo = []
        for name, draw, args in self.pending:
            inputs = (charts.code(), draw.__name__, *args)
            found = self.memo.find(f"chart-{name}", inputs, charts.whole_png)
            if found is None:
                todo.append((name, draw, args, inputs))
            else:
                self.charts[name] = found
        self.pending.clear()
        drawn = in_order(_draw_one, [(d, a) for _, d, a, _ in todo])
        for (name, _, _, inputs), png in zip(todo, drawn, strict=True):
            self.memo.keep(f"chart-{name}", inputs, png)
            self.charts[name] = png

    def markdown(self) -> str:
        return "\n".join(getattr(self, f"_md_{kind}")(value) for kind, value in self.blocks)

    def html(self, title: str) -> str:
        body = "\n".join(getattr(self, f"_html_{kind}")(value) for kind, value in self.blocks)
        return (f"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                f"<title>{html.escape(plain_text(title))}</title><style>{_CSS}</style></head>\n<body>\n"
                f"{body}\n</body></html>\n")

    # one renderer per block kind and format
    def _md_h(self, value: tuple[int, str]) -> str:
        return f"{'#' * value[0]} {value[1]}\n"

    def _md_p(self, value: str) -> str:
        return f"{value}\n"

    def _md_table(self, value: tuple[list[str], list[list[object]], bool]) -> str:
        header, rows, _ = value
        lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
        lines += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
        return "\n".join(lines) + "\n"

    def _md_boxes(self, value: list[tuple[str, list[tuple[str, list[str], bool]], str]]) -> str:
        out = []
        for title, groups, _ in value:
            text = f"> ### {title}\n"
            for head, lines, _muted in groups:
                text += f">\n> {head}\n>\n" + "".join(f"> - {line}\n" for line in lines)
            out.append(text)
        return "\n".join(out)

    def _html_boxes(self, value: list[tuple[str, list[tuple[str, list[str], bool]], str]]) -> str:
        return ('<div class="answers">' + "".join(
            f'<section class="answer {html.escape(kind)}"><h2>{html.escape(title)}</h2>'
            + "".join(f'<div class="{"muted" if muted else "group"}"><p>{inline_html(head)}</p><ul>'
                      + "".join(f"<li>{inline_html(line)}</li>" for line in lines) + "</ul></div>"
                      for head, lines, muted in groups) + "</section>"
            for title, groups, kind in value) + "</div>")

    def _md_img(self, value: tuple[str, str]) -> str:
        name, caption = value
        return f"![{caption}](charts/{name}.png)\n\n*{caption}*\n"

    def _html_h(self, value: tuple[int, str]) -> str:
        return f"<h{value[0]}>{inline_html(value[1])}</h{value[0]}>"

    def _html_p(self, value: str) -> str:
        return f"<p>{inline_html(value)}</p>"

    def _html_table(self, value: tuple[list[str], list[list[object]], bool]) -> str:
        header, rows, wide = value
        head = "".join(f"<th>{inline_html(h)}</th>" for h in header)
        cell = _figure if wide else inline_html
        trs = "".join("<tr>" + "".join(f"<td>{cell(str(c))}</td>" for c in r) + "</tr>"
                      for r in rows)
        table = f"<table><thead><tr>{head}</tr></thead><tbody>{trs}</tbody></table>"
        return f'<div class="wide">{table}</div>' if wide else table

    def _html_img(self, value: tuple[str, str]) -> str:
        name, caption = value
        data = base64.b64encode(self.charts[name]).decode()
        return (f'<figure id="{name}"><img alt="{html.escape(plain_text(caption))}" '
                f'src="data:image/png;base64,{data}"><figcaption>{inline_html(caption)}'
                "</figcaption></figure>")


_CSS = ("body{font-family:sans-serif;max-width:60em;margin:2em auto;padding:0 1em;color:#222}"
        "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:.25em .6em;"
        "text-align:right}th{background:#f4f4f4}figure{margin:1.5em 0}img{max-width:100%}"
        "code{background:#f4f4f4;padding:0 .2em}"
        ".wide{width:calc(100vw - 3em);margin:1em 0 1em calc(50% - 50vw + 1.5em);overflow-x:auto}"
        ".wide table{margin:0 auto;font-size:.9em}.wide .nw{white-space:nowrap}"
        ".wide th{min-width:12ch;vertical-align:bottom;text-wrap:balance}"
        ".answers{display:flex;flex-wrap:wrap;gap:.8em;margin:1em 0}"
        ".answer{flex:1 1 17em;border:3px solid #999;border-radius:8px;padding:.2em .9em;"
        "background:#fafafa}.answer h2{margin:.3em 0;font-size:1.2em}.answer ul{padding-left:1.1em;"
        "margin:.3em 0}.answer li{margin:.2em 0;font-size:.92em}.answer p{margin:.4em 0 .1em}"
        ".answer .muted{color:#666;font-size:.9em;border-top:1px solid #ccc;margin-top:.5em}"
        ".answer.confirmed{border-color:#2a8a3a}.answer.unfair{border-color:#c77a12}.answer.open{border-color:#888}")


_CODE = re.compile(r"`([^`]+)`")
_STRONG = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*")
_EM = re.compile(r"(?<![*\w])\*(?=[^\s*])(.+?)(?<=[^\s*])\*(?![*\w])")
_KEPT = re.compile("\x00(\\d+)\x00")


def _figure(text: str) -> str:
    """A figure of a wide table: its estimate and its interval (``[..]`` or ``(..)``) each
    kept on one line, so that a narrow column breaks it between them only."""
    return " ".join(f'<span class="nw">{inline_html(part)}</span>'
                    for part in re.split(r" (?=[\[(])", text))


def _marked(text: str, code: str, strong: str, em: str) -> str:
    """``text`` with its `code` spans formatted by ``code`` (kept as written inside), then
    its **strong** and *emphasis* replaced by ``strong`` and ``em``."""
    codes: list[str] = []

    def keep(found: re.Match[str]) -> str:
        codes.append(code.format(found[1]))
        return f"\x00{len(codes) - 1}\x00"

    out = _EM.sub(em, _STRONG.sub(strong, _CODE.sub(keep, text)))
    return _KEPT.sub(lambda found: codes[int(found[1])], out)


def inline_html(text: str) -> str:
    """Page text as HTML: escaped, with the inline Markdown the reports write rendered, the
    one place that does it: `code` (as written), **strong** and *emphasis*. A lone ``*``
    (``3 * 4``) and an unclosed mark stay as written."""
    return _marked(html.escape(text), "<code>{}</code>", r"<b>\1</b>", r"<em>\1</em>")


def plain_text(text: str) -> str:
    """``text`` with its inline Markdown marks dropped (an image's alt text, a title)."""
    return _marked(text, "{}", r"\1", r"\1")


def _answer(doc: Doc, found: RunResults) -> None:
    """The answer first: one box with the run's starting VP and its largest seat gap, and the
    verdict of the study's procedure on this run (confirmed only where it confirms)."""
    run, current, judged = found.run, found.start_vp, found.judged
    c = run.config
    label = shown(found)
    who = (", ".join(label[x.spelling] for x in c.strategies)
           or "pool: " + ", ".join(label[x.spelling] for x in c.strategy_pool))
    on = f"on {run.games:,} games" + ("" if run.complete else " (**partial run**)")
    lines = [f"starting VP **{vec(current)}** {on}"]
    kind = "open"
    if isinstance(judged, str):
        lines.append(f"other starting VP not analysed: {judged}")
    else:
        b = judged.balance
        lines[0] = f"starting VP **{vec(current)}**: {balance.gap_text(b.current)} {on}"
        best = vec(b.verdict.vector)
        kind = {"confirmed": "confirmed", "no fair vector": "unfair"}.get(b.verdict.decision, "open")
        lines.append(f"**{best}**: {balance.words(b)} ({balance.gap_text(b.best)})")
        if judged.rare:  # the proposed vector carries the warning
            lines.append(note(judged.rare))
        if judged.confirm:
            lines.append(f"confirm it on fresh games: `{judged.confirm[0]}`, then "
                         f"`{judged.confirm[1]}`; or let `cdsim study run` decide")
    players = f"{run.players} players"
    doc.boxes([(run.spec.said("{title}, ") + players,
                [(f"**{who}**", lines, False)], kind)])


def title(found: RunResults) -> str:
    """The page's title: the run folder's name, and the game's title when it is not Carpe
    Diem (whose pages are what they were before there were other games)."""
    run = found.run
    name = f"cdsim report: {run.path.name}"
    return name + run.spec.said(" ({title})")


def _summary(doc: Doc, found: RunResults) -> None:
    run = found.run
    m, c, spec = run.manifest, run.config, run.spec
    doc.h(title(found), 1)
    _answer(doc, found)
    status = "complete" if run.complete else f"**partial**: {run.games} of {run.planned} games finished"
    label = shown(found)
    lineup = (", ".join(label[x.spelling] for x in c.strategies)
              or "pool: " + ", ".join(label[x.spelling] for x in c.strategy_pool))
    start = ", ".join(str(v) for v in found.start_vp)
    comps = (f"a user set from `{c.components}`" if not m.components_default else
             spec.builtin_set_words)
    versions = ", ".join(f"{k} {v}" for k, v in sorted(m.versions.items()))
    doc.h("Run", 2)
    doc.table(["setting", "value"], [
        *([] if spec.default else [["game", spec.title]]),
        ["players", run.players], ["games", f"{run.games} ({status})"],
        ["seed", m.seed], ["line-up by seat", lineup], ["starting VP by seat", start],
        ["seats rotated", "yes (each deal in all seat rotations)" if run.rotated else "no"],
        ["strategy params", c.strategy_params or "defaults"],
        ["component set", f"{comps}, digest `{m.components_digest[:12]}`"],
        ["engine", m.engine or "python"], ["versions", versions],
        ["simulation wall time", f"{m.wall_seconds:.1f} s"],
        ["command", f"`{m.command}`"],
        ["rules", spec.rules_said()],
    ])


def build(found: RunResults) -> Doc:
    """The report of a run's figures (``cdsim.batch.results``), section by section."""
    doc = Doc()
    _summary(doc, found)
    _seat_section(doc, found)
    _strategy_section(doc, found)
    _shape_section(doc, found)
    if found.cards is not None and found.run.spec.cards is not None:  # None: no cards
        _card_section(doc, found.cards, found.run.spec.cards.kinds)
    _balance_section(doc, found.judged, found.run.spec.player_counts)
    _power_section(doc, found)
    return doc


def _seat_section(doc: Doc, found: RunResults) -> None:
    run, sb = found.run, found.seats
    n = run.players
    t = sb.table
    doc.h("Seat balance", 2)
    doc.p(f"Fair share is 1/{n} = {pct(1 / n)}. Intervals are 95% Wilson intervals"
          + (f"; seats were rotated, so games of one deal are correlated and the intervals use "
             f"the effective sample size (design effect {sb.deff:.2f})." if run.rotated else "."))
    table = []
    for r in t.iter_rows(named=True):
        table.append([r["seat"] + 1, r["start_vp"], r["games"], r["wins"],
                     interval(r["share"], r["low"], r["high"]), f"{r['mean_vp']:.1f}",
                     f"{r['mean_margin_losing']:.1f}" if r["mean_margin_losing"] is not None else "-",
                     r["tiebreak_wins"]])
    doc.table(["seat", "start VP", "games", "wins", "win share [95% CI]", "mean final VP",
               "mean margin to winner (when not winning)", "wins by tie-break"], table)
    verdict = ("the seats do **not** win equally often" if sb.test.p_value < 0.05 else
               "no evidence that the seats win unequally (this does not show they are equal: "
               "see the balance section)")
    doc.p(f"Chi-square test of equal seat win shares: chi2 = {sb.test.chi2:.2f}, df = {sb.test.df}, "
          f"p = {sb.test.p_value:.3g}" + (f" (Rao-Scott corrected by {sb.deff:.2f})"
                                          if sb.deff > 1 else "") + f": {verdict}.")
    doc.p(f"Ties: {sb.tied_games} games ({pct(sb.tied_share)}) had two seats on equal "
          f"final VP; in {sb.tiebreak_games} ({pct(sb.tiebreak_share)}) "
          f"{run.spec.tiebreak_rule} chose the winner.")
    doc.chart("seat_win_share", charts.share_points(
        [f"{seat_label(s)}\n({v} VP)" for s, v in zip(t["seat"], t["start_vp"], strict=True)],
        t["share"].to_numpy(), t["low"].to_numpy(), t["high"].to_numpy(), n,
        "Win share by seat"), "Win share per seat with 95% Wilson intervals; dashed: fair 1/N. "
        "The axis spans the intervals, not 0-100%, so that the seats' differences show.")
    doc.chart("placements", charts.placements(sb.placements, n),
              "Share of games each seat finished 1st, 2nd, ... Nth.")


def shown(found: RunResults) -> dict[str, str]:
    """Each player of the run as the page shows it: a strategy file by its class's name
    (``registry.shown_names``); its path stays in the manifest."""
    c = found.run.config
    return shown_names([spec.spelling for spec in (*c.strategies, *c.strategy_pool)])


def _strategy_section(doc: Doc, found: RunResults) -> None:
    run, label = found.run, shown(found)
    st = found.strategies
    st = replace(st, **{k: getattr(st, k).with_columns(pl.col("strategy").replace(label))
                        for k in ("table", "by_seat", "sources")})
    n = run.players
    doc.h("Strategies", 2)
    deffs = ", ".join(f"{k} {v:.2f}" for k, v in zip(st.table["strategy"], st.table["deff"],
                                                       strict=True))
    failed = st.has_failed  # the game has cards that fail (its spec's failed_cost)
    per_game = (run.spec.failed_cards or ("", 0))[1]  # the game's count and words of them
    noun, cost, rule, below_zero = run.spec.failed_cost or FailedCost("", "", "", "")
    doc.p("Win share per appearance of the strategy (a strategy seated twice in a game counts "
          "twice)" + (f"; intervals use each strategy's design effect over deals ({deffs})"
                      if run.rotated else "")
          + (f"; cards failed = share of the {per_game} {noun} a player scores per game "
             f"that cost {cost} instead ({rule})." if failed else "."))
    doc.table(["strategy", "appearances", "wins", "win share [95% CI]", "mean final VP",
               *(["cards failed"] if failed else [])],
              [[r["strategy"], r["appearances"], r["wins"], interval(r["share"], r["low"], r["high"]),
                f"{r['mean_vp']:.1f}", *([pct(r["failed_rate"])] if failed else [])]
               for r in st.table.iter_rows(named=True)])
    seats = list(range(n))
    grid = []
    for name in st.table["strategy"]:
        cells = {r["seat"]: r for r in st.by_seat.filter(st.by_seat["strategy"] == name)
                 .iter_rows(named=True)}
        grid.append([name, *(f"{pct(cells[s]['share'])} ±{pct(cells[s]['half'])}"
                             f" (n={cells[s]['appearances']})" if s in cells else "-"
                             for s in seats)])
    doc.p("Win share by strategy and seat:")
    doc.table(["strategy", *(seat_label(s) for s in seats)], grid)
    doc.chart("strategy_win_share", charts.share_points(
        st.table["strategy"].to_list(), st.table["share"].to_numpy(), st.table["low"].to_numpy(),
        st.table["high"].to_numpy(), n, "Win share by strategy"),
        "Win share per strategy with 95% Wilson intervals; dashed: fair 1/N. The axis spans "
        "the intervals, not 0-100%.")
    doc.chart("vp_sources", charts.vp_sources(st.sources, st.net),
              "Mean VP per game by source and strategy, stacked; a source whose mean is negative "
              "stacks below zero" + (f" ({below_zero})" if failed and below_zero else "")
              + "; diamond: the net mean.")


def _shape_section(doc: Doc, found: RunResults) -> None:
    n, shape = found.run.players, found.shape
    if shape is None:  # the game logs no VP after its scoring phases: its final VP only
        doc.h("Final VP", 2)
    else:
        doc.h("Game shape", 2)
        doc.chart("vp_by_phase", charts.vp_by_phase(shape.table, shape.moments, n),
                  f"VP ({found.run.spec.phase_vp}) after each scoring phase, and final VP, "
                  "by seat: the median, its bar spanning the middle 50% of games.")
    final = found.final
    doc.chart("final_vp", charts.final_distributions(final.values, final.means),
              "Distribution of final VP by seat.")

    doc.h("Convergence", 2)
    played, share, low, high = found.convergence
    doc.chart("convergence", charts.convergence(played, share, low, high, n),
              "Each seat's running win share as games accumulate, with its 95% band.")
    doc.p(f"After {found.seats.games} games the widest seat interval is "
          f"±{pct(found.seats.widest)}.")


def _card_section(doc: Doc, found: CardSection, kinds: tuple[CardKind, ...]) -> None:
    """Which card is too strong: per card, how often it was taken and paid, what it
    brought, and how the seats that took it fared (``reports.cards``), each of the game's
    ``kinds`` of card in its words."""
    doc.h("Cards", 2)
    if found.table is None:
        doc.p(f"Not shown: {found.missing}.")
        return
    doc.p(cards.EXPLAIN)
    for words in kinds:
        kind = words.kind
        table = found.table.filter(found.table["kind"] == kind)
        if not table.height:
            continue
        doc.h(words.title, 3)
        doc.p(words.intro)
        doc.table(words.header, cards.rows(table))
        shown = table.filter(table["low"].is_not_nan())
        if shown.height:
            doc.chart(f"cards_{kind}", charts.card_differences(
                shown["card"].to_list(), shown["difference"].to_numpy(), shown["low"].to_numpy(),
                shown["high"].to_numpy(), words.chart_title), words.caption)


def _balance_section(doc: Doc, judged: BalanceResult | str,
                     counts: tuple[int, ...]) -> None:
    doc.h("Starting VP", 2)
    if isinstance(judged, str):
        doc.p(f"Not analysed: {judged}.")
        return
    doc.p(balance.explain(judged, counts))
    doc.table(*balance.comparison_table(judged))
    shifts, share, low, high = judged.balance.curves
    doc.chart("start_vp_shift", charts.shift_chart(shifts, share, low, high,
                                                   judged.balance.current.vector),
              "Each seat's win share (re-ranked from the logged games) as its own starting VP "
              "moves by -4..+4 with the other seats' fixed, 95% intervals; dashed: fair 1/N.")


def _power_section(doc: Doc, found: RunResults) -> None:
    run, effective = found.run, found.seats.effective_games
    doc.h("How many games are enough", 2)
    table = [[pct(pw.effect), pw.games_chi2, pw.games_pair, pw.games_ci,
              "yes" if effective >= pw.games_chi2 else "no"]
             for pw in found.power]
    command = "cdsim power" + run.spec.said(" --game {name}")
    doc.p("Games needed to detect a gap of this size between the best and the worst seat "
          f"(80% power, 5% level); `{command}` computes any other. This run has "
          f"{run.games} games" + (f", worth {effective:.0f} independent ones (design effect)"
                                  if effective < run.games else "") + ".")
    doc.table(["seat gap", "games (all-seat chi-square)", "games (two-seat z-test)",
               "games for a ±gap/2 interval", "this run has them"], table)


def write(run_path: Path, out: Path | None = None, tolerance: float = 0.02) -> Path:
    """Build the report of ``run_path`` into ``out`` (default: the run folder); returns the HTML."""
    return write_judged(run_path, out, tolerance)[0]


def write_judged(run_path: Path, out: Path | None = None, tolerance: float = 0.02
                 ) -> tuple[Path, BalanceResult | str]:
    """``write``, also returning the balance the report shows (``cdsim report --json``)."""
    balance.check_tolerance(tolerance)
    found = read_results(run_path, tolerance)
    return publish(build(found), out or run_path, "report", title(found)), found.judged


def publish(doc: Doc, out: Path, stem: str, title: str,
            note: Callable[[str], None] | None = None) -> Path:
    """Write ``doc`` into ``out``: charts/NAME.png, STEM.md and the self-contained
    STEM.html (charts embedded), each atomically; returns the HTML's path. ``note`` hears
    each file's name before it is written (a progress line)."""
    tell = note or (lambda _: None)
    for name, png in doc.charts.items():
        tell(f"writing charts/{name}.png")
        save(out / "charts" / f"{name}.png", png)
    tell(f"writing {stem}.md")
    save(out / f"{stem}.md", doc.markdown().encode())
    page = out / f"{stem}.html"
    tell(f"writing {stem}.html")
    save(page, doc.html(title).encode())
    return page


def save(path: Path, data: bytes) -> None:
    """Write one output file atomically (its folder made); a failure is one error line."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, lambda tmp: tmp.write_bytes(data))
    except OSError as exc:
        raise CdsimError(f"{path}: cannot write it ({exc.strerror or type(exc).__name__})") from None
