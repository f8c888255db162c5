"""Text on the report pages as a reader sees it (issue 41): the inline Markdown the reports
write is rendered on the HTML pages by one helper (``reports.report.inline_html``), never
shown as marks, and the sweep table reads in rows, not one word per line."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from reports import report
from tests.test_replay import browser  # noqa: F401  (the headless chromium fixture)
from tests.test_sweep import swept  # noqa: F401  (the tiny sweep study, played and reported)


@pytest.mark.parametrize(("text", "page", "plain"), [
    ("The seats *come out fair* at a value", "The seats <em>come out fair</em> at a value",
     "The seats come out fair at a value"),
    ("**8/9/13**: most *equal*", "<b>8/9/13</b>: most <em>equal</em>", "8/9/13: most equal"),
    ("run `cdsim x *a*` <now>", "run <code>cdsim x *a*</code> &lt;now&gt;",
     "run cdsim x *a* <now>"),
    ("**`x`** done", "<b><code>x</code></b> done", "x done"),
    ("3 * 4 * 5, a **lone mark", "3 * 4 * 5, a **lone mark", "3 * 4 * 5, a **lone mark"),
])
def test_inline_markdown_is_rendered_by_one_helper(text: str, page: str, plain: str) -> None:
    assert report.inline_html(text) == page
    assert report.plain_text(text) == plain


# Markdown marks a reader would see: **, a backquote, or * against a word.
MARKS = re.compile(r"\*\*|`|(?<![\w*])\*\w|\w\*(?![\w*])")


def test_the_study_page_shows_no_markdown_marks(
        browser: Any, swept: tuple[Path, dict[str, Any]]) -> None:  # noqa: F811
    """Issue 41: the sweep section said "The seats *come out fair* at a value" with its
    asterisks on study.html."""
    from selenium.webdriver.common.by import By

    root, _ = swept
    browser.set_window_size(1400, 1000)
    browser.get((root / "study.html").as_uri())
    text = browser.find_element(By.TAG_NAME, "body").text
    assert "The seats come out fair at a value" in text
    assert not MARKS.findall(text), [text[max(0, m.start() - 40):m.end() + 40]
                                     for m in MARKS.finditer(text)]
    emphasis = [e.text for e in browser.find_elements(By.TAG_NAME, "em")]
    assert "come out fair" in emphasis


# Each cell of the sweep tables as drawn: its text, and the lines it takes (a Range gives
# one rectangle per line box of its text).
CELL_LINES = """
const lines = (e) => {
  const range = document.createRange();
  range.selectNodeContents(e);
  return new Set(Array.from(range.getClientRects()).filter((r) => r.width > 0)
    .map((r) => Math.round(r.top))).size;
};
const tables = Array.from(document.querySelectorAll("table")).filter(
  (t) => t.querySelector("th") && t.querySelector("th").textContent === "reward.vp");
const all = (css) => tables.flatMap((t) => Array.from(t.querySelectorAll(css)));
return {
  tables: tables.length,
  heads: all("th").map((e) => [e.textContent, lines(e)]),
  cells: all("td").map((e) => [e.textContent, lines(e)]),
  overflow: Math.max(...tables.map((t) => t.parentElement.scrollWidth
                                          - t.parentElement.clientWidth)),
};
"""


def test_the_sweep_table_reads_in_rows(browser: Any,  # noqa: F811
                                       swept: tuple[Path, dict[str, Any]]) -> None:  # noqa: F811
    """Issue 41: the sweep table's headers wrapped one word per line on study.html (ten
    columns squeezed into the text's width). Its headers take at most two lines, each
    figure at most two (the estimate, then its interval), and at 1400 pixels it fits."""
    root, _ = swept
    browser.set_window_size(1400, 1000)
    browser.get((root / "study.html").as_uri())
    drawn = browser.execute_script(CELL_LINES)
    # 2 players: the value, games, 1 seat's offset, covered; the value, 2 seats, 4 card
    assert drawn["tables"] == 2 and len(drawn["heads"]) == 4 + 7
    assert all(n <= 2 for _, n in drawn["heads"]), drawn["heads"]
    assert all(n <= 2 for _, n in drawn["cells"]), drawn["cells"]
    assert drawn["overflow"] <= 0


def test_a_box_names_one_answer_beside_its_fair_offsets() -> None:
    """A 4-player whatif box said "most equal so far 8/8/8/12" beside fair offsets that
    point to 8/6/6/10: those lie outside the ±2 VP it searched, and the box now says so;
    where they point to the vector it names, it adds nothing."""
    from cdsim.analysis.offsets import FairOffset
    from reports.study.cell import pointed_words

    rule = (8, 9, 10, 11)
    offsets = [FairOffset(-1.6, -2.9, -0.1), FairOffset(-1.9, -3.5, -0.4),
               FairOffset(2.4, 1.4, 3.6)]
    said = pointed_words(rule, (8, 8, 8, 12), offsets, 2)
    assert "point to about 8/6/6/10, outside the ±2 VP searched" in said
    assert "8/8/8/12 is named from within them" in said
    assert pointed_words(rule, (8, 6, 6, 10), offsets, 4) == ""  # the same answer
    near = [FairOffset(0.6, 0.0, 1.2), FairOffset(1.4, 0.8, 2.0), FairOffset(2.6, 2.0, 3.2)]
    assert "rounded seat by seat they point to 8/9/9/11" in pointed_words(
        rule, (8, 9, 10, 11), near, 2)
    assert pointed_words(rule, None, offsets, 2) == ""  # nothing named yet
    beyond = [*offsets[:2], FairOffset(float("nan"), float("nan"), float("nan"))]
    assert pointed_words(rule, (8, 8, 8, 12), beyond, 2) == ""  # not located: nothing to round
