"""``baccarat rules`` and the ``--rules`` / ``--player-option`` options of the commands that play coups."""

from __future__ import annotations

from .options import Given, UsageError, add_output_options, add_shoe_options, converter, shoe_from_args, write_output

PLAYER_OPTIONS = ("draw", "stand", "best")


def add_rules_options(p) -> None:
    g = p.add_argument_group("rules")
    g.add_argument(
        "--rules",
        metavar="NAME|FILE",
        default=None,
        type=converter(rules_value),
        help="drawing rules: punto_banco (default), gold, or a TOML rules file "
        "(see 'baccarat rules' and docs/rules.md)",
    )
    g.add_argument(
        "--player-option",
        metavar="PLAY",
        default=None,
        type=converter(player_option),
        help="where the rule set lets the Player choose (gold: stand or draw on 5): "
        "draw, stand, or best (the exact best play by two-card hand for the shoe)",
    )


def rules_value(text: str) -> Given:
    """``--rules NAME|FILE``: the rule set (:func:`analyzer.bets.rules_files.load_rules`: a
    built-in name or a TOML rules file, read now), its text kept for the Reproduce lines
    (:class:`Given`)."""
    from ..bets.rules_files import load_rules

    return Given(text, load_rules(text))


def rules_of(args):
    """The rule set of ``--rules`` as given (Punto Banco without it), its Player's option
    not yet fixed (:func:`rules_from_args` fixes it)."""
    from ..core.rules import PUNTO_BANCO

    given = getattr(args, "rules", None)
    return PUNTO_BANCO if given is None else given.value


def player_option(text: str) -> str:
    """``--player-option PLAY``: ``draw``, ``stand`` or ``best`` (spaces around it ignored).

    >>> player_option(" best ")
    'best'
    """
    option = text.strip()
    if option not in PLAYER_OPTIONS:
        raise UsageError(f"unknown --player-option {option!r} (choose from {', '.join(PLAYER_OPTIONS)})")
    return option


def rules_from_args(args, shoe=None):
    """``(rules, strategy)`` of the command line: ``strategy`` is the list of
    :class:`analyzer.core.choice.HandChoice` under ``--player-option best``, else ``None``."""
    rules = rules_of(args)
    option = getattr(args, "player_option", None)  # a value of player_option()
    if option is None:
        return rules, None
    if not rules.player_option:
        raise UsageError(f"--player-option: rule set {rules.name!r} offers the Player no option")
    if option != "best":
        return rules.with_player_option(option), None
    if shoe is None:
        raise UsageError("--player-option best needs a shoe (the best play depends on it)")
    from ..core.choice import best_rules

    return best_rules(rules, shoe.value_counts)


def rules_words(args) -> str:
    """The ``--rules`` / ``--player-option`` words of a Reproduce line ('' by default)."""
    words = []
    if getattr(args, "rules", None):
        words.append(f"--rules {args.rules}")
    if getattr(args, "player_option", None):
        words.append(f"--player-option {args.player_option}")
    return (" " + " ".join(words)) if words else ""


def register(sub) -> None:
    p = sub.add_parser(
        "rules",
        help="print a rule set as the familiar drawing tables",
        description="The drawing rules of a rule set (built-in or a TOML rules file): "
        "naturals, the Player's rule and the Banker's third-card table; with "
        "--player-option best, the exact best play for the shoe.",
    )
    add_rules_options(p)
    add_shoe_options(p)
    add_output_options(
        p, "md (Markdown, default), json, or toml (a rules file restating the rule set)", ("md", "json", "toml")
    )
    p.set_defaults(func=cmd_rules)


def cmd_rules(args) -> int:
    from ..bets.rules_files import rules_toml
    from ..reports.rules_tables import rules_json, rules_markdown

    shoe = shoe_from_args(args) if getattr(args, "player_option", None) == "best" else None
    rules, strategy = rules_from_args(args, shoe)
    if args.format == "toml":
        text = rules_toml(rules)
    elif args.format == "json":
        text = rules_json(rules, strategy)
    else:
        text = rules_markdown(rules, strategy)
    write_output(text, args.output)
    return 0


__all__ = [
    "add_rules_options",
    "rules_from_args",
    "rules_of",
    "rules_value",
    "rules_words",
    "register",
    "add_output_options",
]
