"""What one Carpe Diem component set changes from another, as a variant's card figures
read it: each changed key (``cdsim.games.carpe_diem.rules.components.compare``, the lines ``cdsim components
diff`` prints), and the objective or fountain card it changes, whose figures the study's
report follows (``cdsim.study.cards``)."""

from __future__ import annotations

from cdsim.games.carpe_diem.rules.components import compare
from cdsim.games.carpe_diem.rules.overrides import shown
from cdsim.games.features import EntryChange

CARD_TABLES = ("objective", "fountain")  # the component tables whose entries are cards


def card_changes(old: str | None, new: str | None) -> list[EntryChange]:
    """Each key the set at ``new`` changes from the one at ``old`` (None: the shipped set),
    or a CdsimError naming a set that cannot be read."""
    out = []
    for c in compare(old, new):
        said = f"{c.key} {shown(c.old)} -> {shown(c.new)}" if c.key else c.line().split(": ")[-1]
        out.append(EntryChange(
            entry=c.table if c.entry is None else f"{c.table}.{c.entry}", line=c.line(),
            card=(c.table, str(c.entry)) if c.table in CARD_TABLES else None, said=said,
            alone=f"at {shown(c.new)} VP" if c.key == "reward.vp" else said))
    return out


__all__ = ["CARD_TABLES", "card_changes"]
