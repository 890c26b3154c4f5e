"""The rule sets the cross-checks run on: the four presets, the ``online``
preset and the house rules of issue 11 on top of a preset, each by a name
(``lmodire+cumulative``) with the notation keys that give it."""

from __future__ import annotations

from solver.rules import PRESETS, Rules

#: name -> (preset, overrides as notation text)
HOUSE_RULES: dict[str, tuple[str, dict[str, str]]] = {
    "lmodire+cumulative": ("lmodire", {"decl_cumulative": "yes"}),
    "pagat+cumulative": ("pagat", {"decl_cumulative": "yes"}),
    "french+cumulative": ("french", {"decl_cumulative": "yes"}),
    "lmodire+no-missa-last-round": ("lmodire", {"missa_last_round": "no"}),
    "french+no-missa-last-round": ("french", {"missa_last_round": "no"}),
    "online+all": ("online", {"decl_cumulative": "yes", "missa_last_round": "no"}),
}

RULESETS: dict[str, Rules] = dict(PRESETS)
for _name, (_base, _over) in HOUSE_RULES.items():
    RULESETS[_name] = PRESETS[_base].with_overrides(_over)

#: the rule sets of issue 11 (cross-checked on fewer positions)
HOUSE = [*HOUSE_RULES, "online"]


def rules_keys(name: str) -> list[str]:
    """The notation keys of a rule set (none for the default preset)."""
    base, over = HOUSE_RULES.get(name, (name, {}))
    keys = [] if base == "lmodire" else [f"rules={base}"]
    return keys + [f"{k}={v}" for k, v in over.items()]
