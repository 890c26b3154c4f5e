"""Rule systems: what a match-equity table belongs to (a preset and every
rule parameter that differs from it, the target left out). Light: reading
a table (``ronda-solve met``) does not load the search core."""

from __future__ import annotations

from ..rules import Rules


#: rule fields that do not change how a hand is played and scored: the
#: target (one table serves every target up to its limit), the preset's
#: name and the player counts it lists
NOT_SYSTEM = ("name", "players", "target")


def system_of(rules: Rules) -> str:
    """The rule system of ``rules`` as text: the preset's name, then each
    parameter that differs from the preset (``+decl_cumulative=yes``), the
    target left out (``lmodire`` for lmodire to 21).

    >>> from solver.rules import PRESETS
    >>> system_of(PRESETS["lmodire"].with_overrides({"target": "21"}))
    'lmodire'
    >>> system_of(PRESETS["french"].with_overrides({"voleur": "yes", "target": "61"}))
    'french+voleur=yes'
    """
    from ..rules import PRESETS
    base = PRESETS[rules.name]
    over = rules.overrides_from(base)
    return rules.name + "".join(f"+{k}={v}" for k, v in sorted(over.items())
                                if k not in NOT_SYSTEM)


def rules_of(system: str) -> Rules:
    """The :class:`~solver.rules.Rules` of a rule system text
    (:func:`system_of`), the preset's target. Raises RulesError
    (ValueError) naming a bad preset or parameter."""
    from ..rules import RulesError, preset
    name, *parts = system.split("+")
    over = {}
    for p in parts:
        k, eq, v = p.partition("=")
        if not eq or not k:
            raise RulesError(f"rule system {system!r}: {p!r} is not name=value")
        if k in NOT_SYSTEM:
            raise RulesError(f"rule system {system!r}: {k} is not part of a rule system")
        over[k] = v
    return preset(name).with_overrides(over)
