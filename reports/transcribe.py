"""``cdsim components transcribe``'s checklist in words (Markdown): the count of the box's
entries, where the order comes from, how to write what is read, then each group of
reconstructed entries, most influential first, one box to tick per entry. Every figure is
the record's (``cdsim.study.transcribe``); this module lays them out."""

from __future__ import annotations

import math

from cdsim.study.transcribe import RANKING_FOLDER, Checklist, Group


def _vp(x: float) -> str:
    return "n/a" if not math.isfinite(x) else f"{x:+.2f}".replace("-", "−")


def heading(rank: int, group: Group) -> str:
    """"1. fountain-card-vp: the fountain cards' VP (moves seat 3's fair offset by +1.98 VP
    at 3 players, +1.08 to +2.79; beyond noise)"."""
    head = f"{rank}. {group.name}: {group.title}"
    s = group.shift
    if s is None:
        return head
    noise = "beyond noise" if s.clear else "within noise"
    return (f"{head} (ranked {group.rank}: moves seat {s.seat}'s fair offset by {_vp(s.shift)} "
            f"VP at {s.players} players, {_vp(s.low)} to {_vp(s.high)}; {noise})")


def order_words(c: Checklist) -> str:
    """Where the order comes from, in one sentence."""
    if c.ranking is not None:
        games = f", {c.games:,} games a side per player count" if c.games else ""
        return (f"Order: the sensitivity ranking in {c.ranking}{games}: the families that move "
                "the starting-VP answer most come first (docs/components.md, \"Which "
                "reconstructed entries matter\"); then the families it did not rank, then "
                "the entries in no family.")
    if any(g.name != g.entries[0].table for g in c.groups):
        return (f"Order: no sensitivity ranking has been run (cdsim components sensitivity "
                f"writes one in {RANKING_FOLDER}; --ranking names another folder), so the "
                "entries are in the order of the game's families, then by table.")
    return ("Order: no sensitivity ranking has been run for this game (it has no families "
            "of entries to perturb yet), so the entries are by table.")


def _count(c: Checklist) -> str:
    """"13 of 168 entries are the box's; the 155 below are reconstructed."."""
    n = c.count
    if n.printed == n.total:
        return f"All {n.total} entries are the box's."
    return (f"{n.printed} of {n.total} entries are the box's; the {n.total - n.printed} below "
            "are reconstructed.")


def checklist_text(c: Checklist) -> str:
    """The checklist as Markdown."""
    todo = sum(len(g.entries) for g in c.groups)
    lines = [f"# Transcribing {c.title}'s components from the box", "",
             f"{_count(c)} Set: {c.source}.", "",
             order_words(c), "",
             "How: read each entry off the box and tick it. Where the box says otherwise, "
             "write what you read in an override file of the set (docs/components.md "
             "says how for each game's files), where each entry below says, "
             "tagged as the box's; an entry you read as it is needs only the tag. "
             "`cdsim components check FILE` then counts it among the box's, and every "
             "command takes the file as --components.", ""]
    if not todo:
        lines.append("Nothing to transcribe: every entry is the box's.")
    for rank, group in enumerate(c.groups, 1):
        lines += [f"## {heading(rank, group)}", ""]
        for e in group.entries:
            lines.append(f"- [ ] **{e.name}** (now: {e.values}): read {e.read}; goes in "
                         f"{e.goes}")
        lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"


__all__ = ["checklist_text", "heading", "order_words"]
