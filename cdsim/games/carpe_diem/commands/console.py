"""Carpe Diem's rules console and listings behind its spec's hooks: ``cdsim score``
(``GameSpec.score``), ``cdsim cards`` (``card_list``) and ``cdsim strategies``
(``strategy_lines``)."""

from __future__ import annotations

import json
from pathlib import Path


def score(position: Path, components: str | None, as_json: bool) -> list[str]:
    """A position file's final scoring, and what each listed card pays (R10, R8)."""
    from cdsim.games.carpe_diem.rules.components import load_components
    from cdsim.games.carpe_diem.rules.kinds import GOOD_NAMES
    from cdsim.games.carpe_diem.rules.position import load_position, score_position

    comps = load_components(components)
    result = score_position(load_position(position, comps), comps)
    lines: list[str] = []
    cards = []
    for o in result.cards:
        paid = dict(zip(GOOD_NAMES, o.paid_goods, strict=True)) | {
            "coins": o.paid_coins, "bread": o.paid_bread}
        cards.append({"id": o.card_id, "multiples": o.multiples, "failed": o.failed, "vp": o.vp,
                      "coins": o.coins, "bread": o.bread, "steps": o.steps, "paid": paid})
        if as_json:
            continue
        card = comps.objectives[o.card_id]
        if o.failed:
            lines.append(f"{o.card_id} ({card.describe()}): cannot be fulfilled: -4 VP")
            continue
        pays = ", ".join(f"{v} {k}" for k, v in paid.items() if v) or "nothing"
        gets = ", ".join(f"{v} {k}" for k, v in zip(("vp", "coins", "bread", "steps"),
                                                    (o.vp, o.coins, o.bread, o.steps), strict=True) if v)
        lines.append(f"{o.card_id} ({card.describe()}): x{o.multiples}, pays {pays}, gets {gets}")
    if as_json:
        return [json.dumps({"final": result.final, "cards": cards})]
    return ["final scoring: " + ", ".join(f"{k} {v}" for k, v in result.final.items()),
            "\n".join(lines)]


def card_list(components: str | None, as_json: bool) -> list[str]:
    """The objective and fountain cards with their stable ids, texts and provenance."""
    from cdsim.games.carpe_diem.rules.components import HAVE_KEYS, REWARD_KEYS, load_components
    from cdsim.games.carpe_diem.rules.kinds import FEATURE_NAMES, GOOD_NAMES

    comps = load_components(components)
    objectives = []
    for card in comps.objectives.values():
        names = GOOD_NAMES if card.pay else HAVE_KEYS
        objectives.append({
            "id": card.id, "deck": card.deck, "type": "pay" if card.pay else "have",
            "requires": {names[k]: n for k, n in card.requires},
            "reward": {k: v for k, v in zip(REWARD_KEYS, card.reward, strict=True) if v},
            "text": card.describe(), "provenance": card.provenance})
    fountains = [{"id": f.id, "goal": FEATURE_NAMES[f.goal], "vp": f.vp,
                  "provenance": f.provenance} for f in comps.fountains.values()]
    if as_json:
        return [json.dumps({"objective": objectives, "fountain": fountains}, indent=1)]
    return ([f"{o['id']}  {o['text']:<60} [{o['provenance']}]" for o in objectives]
            + [f"{f['id']}  {f['vp']} VP per complete {f['goal']:<40} [{f['provenance']}]"
               for f in fountains])


def strategy_lines() -> list[str]:
    """Its built-in players, each core player's settings as the core declares them, and how
    to play one's own."""
    from cdsim.games.carpe_diem.players.profiles import core_profiles
    from cdsim.games.carpe_diem.players.registry import BUILTIN, CORE_ONLY, describe

    core_profiles()  # the profiles file as the core would play it: a faulty table is refused
    lines = []
    for name in BUILTIN:
        player = CORE_ONLY.get(name)
        if player is None:
            lines.append(f"{name:<10} {describe(name)}")
            continue
        lines.append(f"{name:<10} {player.summary}")  # then its settings, as the core declares
        lines += [f"{'':<12}{name}.{setting} ({player.params[setting]}): {text}"
                  for setting, text in player.helps.items()]
    lines.append("\nOr your own: --strategies path/to/file.py:ClassName from any folder, or "
                 "package.module:ClassName from its folder (strategies/example.py is one to "
                 "copy).")
    return lines


__all__ = ["card_list", "score", "strategy_lines"]
