"""Rule sets by name or from a TOML rules file, and a rule set written back as TOML.

A rules file is data (never code), shaped like the printed tables::

    name = "my tableau"
    naturals = "8, 9"
    player_draws = "0-5"             # Player two-card totals on which the Player draws
    player_option = "5"              # optional: totals on which the Player may choose
    banker_if_player_stood = "0-5"   # Banker totals that draw when the Player stood

    [banker]                         # Banker total(s) -> Player's third cards
    "0, 1, 2" = { draws = "any", stands = "-" }
    "3" = { draws = "0-7, 9", stands = "8" }
    ...

Every Banker total that is not a natural has exactly one row; ``draws`` and
``stands`` (optional) split 0-9.  Errors are one line naming the file and the key
(:class:`analyzer.core.rules.RulesError`).
"""

from __future__ import annotations

from pathlib import Path

from ..core.errors import BaccaratError
from ..core.rules import BUILTIN_RULES, PUNTO_BANCO, Rules, RulesError, format_values, rules_from_mapping
from ..io.files import parse_toml, read_text

MAX_RULES_FILE_BYTES = 64 * 1024


def parse_rules(text: str, source: str = "<rules>") -> Rules:
    """A :class:`Rules` from the TOML text of a rules file."""
    doc = parse_toml(text, source, RulesError)
    rules = rules_from_mapping(doc, source)
    builtin = BUILTIN_RULES.get(rules.name)
    if builtin is not None and rules != builtin:
        # outputs name a rule set by its name: a changed tableau under a built-in's name would pass for it
        raise RulesError(
            f"{source}: name {rules.name!r} is a built-in rule set's, and this file's tableau "
            "is not that one; give the rule set another name"
        )
    return rules


def load_rules(spec: str | None) -> Rules:
    """A built-in rule set by name (``punto_banco``, ``gold``) or a TOML rules file."""
    if spec is None:
        return PUNTO_BANCO
    spec = str(spec)
    if spec.strip() in BUILTIN_RULES:
        return BUILTIN_RULES[spec.strip()]
    p = Path(spec)
    if not (p.suffix.lower() == ".toml" or p.exists()):
        raise RulesError(
            f"unknown rule set {spec!r} (built-in: {', '.join(BUILTIN_RULES)}; or the path of a TOML rules file)"
        )
    try:
        text = read_text(p, "rules file", MAX_RULES_FILE_BYTES)
    except BaccaratError as e:
        raise RulesError(str(e)) from None
    return parse_rules(text, str(p))


def rules_toml(rules: Rules) -> str:
    """``rules`` as a rules file (loading it gives back an equal :class:`Rules`)."""
    if rules.player_hands:
        raise RulesError("a Player strategy by hand cannot be written as a rules file")
    out = [
        f"name = {_q(rules.name)}",
        f"naturals = {_q(format_values(rules.naturals))}",
        f"player_draws = {_q(format_values(rules.player_draws))}",
    ]
    if rules.player_option:
        out.append(f"player_option = {_q(format_values(rules.player_option))}")
    out.append(f"banker_if_player_stood = {_q(format_values(rules.banker_if_player_stood))}")
    out += ["", "[banker]   # Banker total(s) = { draws / stands: Player's third card values }"]
    for totals, draws, stands in rules.banker_rows():
        out.append(f"{_q(', '.join(map(str, totals)))} = {{ draws = {_q(draws)}, stands = {_q(stands)} }}")
    return "\n".join(out) + "\n"


def _q(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
