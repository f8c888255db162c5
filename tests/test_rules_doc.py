"""Every rule, example and component number the project cites is defined in docs/rules.md.

Code, docs and generated reports cite rules (``R8`` or ``R8.5``), the rulebook's worked
examples (``E3``) and sections of the component set (``C7``). docs/rules.md defines each
number at the start of a heading (``### C7 ...``) or a list item (``- **R8.5** ...``).
Card ids are not citations: they have two digits (``C02``, ``B07``), and where one
could pass for a section number (``C10`` to ``C15``) it is quoted (``id = "C12"``) or
written in code style.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

import pytest

ROOT = Path(__file__).resolve().parent.parent
RULES_DOC = ROOT / "docs" / "rules.md"

# Where citations live: (folder, glob). The compiled and generated files are not text.
CITING = (
    ("cdsim", "**/*.py"), ("cdsim", "**/*.toml"), ("cdsim", "**/*.js"), ("cdsim", "**/*.html"),
    ("strategies", "**/*.py"), ("reports", "**/*.py"),
    ("core/src", "**/*.rs"), ("core/tests", "**/*.rs"),
    ("docs", "*.md"), (".", "README.md"),
)

CITATION = re.compile(r"(?<!\w)(R[1-9]\d*(?:\.[1-9]\d*)?|E[1-9]\d*|C[1-9]\d*)(?!\w)")
QUOTES = "\"'`"
NOQA = re.compile(r"noqa:\s*[A-Z]+\d+(?:\s*,\s*[A-Z]+\d+)*")  # lint codes such as E501, C901
DEFINITION = re.compile(
    r"^(?:#{1,6}\s+|\s*[-*]\s+\*\*)(R[1-9]\d*(?:\.[1-9]\d*)?|E[1-9]\d*|C[1-9]\d*)(?:\*\*)?(?!\w|\.\d)")
# The spec files outside the repository, named as documents (and "COMPONENTS C10").
SPEC_FILE = re.compile(r"(?<!\w)(?:RULES|COMPONENTS|DESIGN)(?:\.md(?!\w)|\s+[RCE][1-9]\d*)")


class Citation(NamedTuple):
    path: str
    line: int
    number: str


def citations_in(text: str) -> Iterator[tuple[int, str]]:
    """(line, number) of each citation; a quoted or code-style token is an id, not a citation."""
    for lineno, line in enumerate(text.splitlines(), 1):
        line = NOQA.sub("", line)
        for m in CITATION.finditer(line):
            before = line[m.start() - 1] if m.start() else ""
            after = line[m.end()] if m.end() < len(line) else ""
            if before and before in QUOTES and after == before:
                continue
            yield lineno, m.group(1)


def defined_numbers(text: str) -> list[str]:
    """Every number docs/rules.md defines, in order (duplicates kept)."""
    return [m.group(1) for line in text.splitlines() if (m := DEFINITION.match(line))]


def citing_files() -> list[Path]:
    found = {p for folder, pattern in CITING for p in (ROOT / folder).glob(pattern) if p.is_file()}
    return sorted(p for p in found if "__pycache__" not in p.parts)


def all_citations() -> list[Citation]:
    return [Citation(str(path.relative_to(ROOT)), lineno, number)
            for path in citing_files()
            for lineno, number in citations_in(path.read_text(encoding="utf-8"))]


@pytest.mark.parametrize(("text", "expected"), [
    ("# R8.5 [decision]: at least one multiple", ["R8.5"]),
    ('"""R5.2, R5.3: sides match."""', ["R5.2", "R5.3"]),
    ("(R2-R6, R8.4-R8.6, E1-E9)", ["R2", "R6", "R8.4", "R8.6", "E1", "E9"]),
    ("COMPONENTS C10: empty slots; see C9.", ["C10", "C9"]),
    ("A06 is the example; copies B06 B07 C02 C04 C06 C08 D08", []),
    ('id = "C12"  # and `C11`, \'C15\'', []),
    ("R10.6. The end; R8", ["R10.6", "R8"]),
    ("import x  # noqa: E501, C901", []),
    ("CDSIM_COMPONENTS, PR2, R2D2, 1E5, r4.4, HR1.1", []),
])
def test_citations_are_found_and_card_ids_are_not(text: str, expected: list[str]) -> None:
    assert [number for _, number in citations_in(text)] == expected


def test_the_scan_sees_the_project() -> None:
    # guards against a pattern or a path that silently matches nothing
    cited = all_citations()
    assert len(cited) > 200
    assert {"R8.5", "R2.5", "E9", "C10"} <= {c.number for c in cited}
    assert any(c.path == "cdsim/games/carpe_diem/rules/cards.py" and c.number == "R8.5" for c in cited)


def test_rules_doc_defines_every_part_example_and_component_section_once() -> None:
    numbers = defined_numbers(RULES_DOC.read_text(encoding="utf-8"))
    twice = sorted({n for n in numbers if numbers.count(n) > 1})
    assert not twice, f"docs/rules.md defines these more than once: {', '.join(twice)}"
    expected = ({f"R{n}" for n in range(1, 11)} | {f"E{n}" for n in range(1, 10)}
                | {f"C{n}" for n in range(1, 11)})
    missing = sorted(expected - set(numbers))
    assert not missing, f"docs/rules.md does not define {', '.join(missing)}"
    orphans = sorted({n.split(".")[0] for n in numbers if "." in n} - set(numbers))
    assert not orphans, f"docs/rules.md has sub-rules of undefined parts: {', '.join(orphans)}"


def test_every_cited_number_is_defined_in_the_rules_doc() -> None:
    defined = set(defined_numbers(RULES_DOC.read_text(encoding="utf-8")))
    undefined = [c for c in all_citations() if c.number not in defined]
    assert not undefined, "cited but not defined in docs/rules.md:\n" + "\n".join(
        f"  {c.path}:{c.line}: {c.number}" for c in undefined)


def test_no_file_names_the_spec_files_outside_the_repository() -> None:
    named = [f"  {path.relative_to(ROOT)}:{lineno}: {m.group(0)}"
             for path in citing_files()
             for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             for m in SPEC_FILE.finditer(line)]
    assert not named, ("these name RULES.md, COMPONENTS.md or DESIGN.md, which are not in the "
                       "repository; cite docs/rules.md instead:\n" + "\n".join(named))
