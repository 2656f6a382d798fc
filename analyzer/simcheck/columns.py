"""Which column of a log holds what: the roles a shoe log's columns can have, the header names
recognised for each (any case, spaces, ``_`` and ``-`` ignored), ``--columns ROLE=HEADER,...``,
and the layout the roles make (cards per hand, per-card columns, outcome-only or bead strings),
with an error that shows the ``--columns`` line to write (:mod:`.shapes` reads the rows)."""

from __future__ import annotations

from .logs import TOTAL_NAMES, LogError, header_key

ROLES = (
    "shoe",
    "player",
    "banker",
    "p1",
    "p2",
    "p3",
    "b1",
    "b2",
    "b3",
    "outcome",
    "player_total",
    "banker_total",
    "seen",
    "results",
)
_CARD_ROLES = ("p1", "p2", "p3", "b1", "b2", "b3")


def _aliases() -> dict[str, str]:
    table = {
        "shoe": "shoe shoeid shoeno shoenumber shoenum shoeindex",
        "player": "player playercards playerhand pcards",
        "banker": "banker bankercards bankerhand bcards",
        "outcome": "outcome result winner win",
        **{role: " ".join(names) for role, names in TOTAL_NAMES.items()},
        "seen": "seen",
        "results": "results beads bead beadplate road outcomes",
    }
    for side, letter in (("player", "p"), ("banker", "b")):
        for i in (1, 2, 3):
            table[f"{letter}{i}"] = f"{letter}{i} {letter}card{i} {side}card{i} {side}{i} {letter}c{i}"
    return {alias: role for role, names in table.items() for alias in names.split()}


ALIASES = _aliases()


def parse_columns(spec: str | None) -> dict[str, str]:
    """``--columns ROLE=HEADER,...`` -> ``{role: header}``."""
    if spec is None:
        return {}
    out: dict[str, str] = {}
    for item in spec.split(","):
        role, eq, header = item.partition("=")
        role = role.strip().lower().replace("-", "_")
        if not eq or not header.strip() or role not in ROLES:
            raise LogError(f"--columns: {item.strip()!r} is not ROLE=HEADER (roles: {', '.join(ROLES)})")
        if role in out:
            raise LogError(f"--columns: role {role!r} is given twice")
        out[role] = header.strip()
    return out


def shown_header(text) -> str:
    """A header name for a message: one line, at most 40 characters."""
    t = " ".join(str(text).split())
    return t if len(t) <= 40 else t[:40] + "..."


def assign(names: list[str], columns: dict[str, str], where: str) -> dict[str, int]:
    """Role -> index of the field holding it (``columns`` first, then the aliases)."""
    got: dict[str, int] = {}
    low = [n.strip().lower() for n in names]
    normed = [header_key(n) for n in names]
    for role, header in columns.items():
        h = header.lower()
        i = low.index(h) if h in low else normed.index(header_key(h)) if header_key(h) in normed else None
        if i is None:
            have = ", ".join(shown_header(n) for n in names if n.strip()) or "nothing"
            raise LogError(f"{where}: --columns {role}={shown_header(header)}: no such column (the header has: {have})")
        got[role] = i
    taken = set(got.values())
    by_alias: dict[str, int] = {}
    for i, n in enumerate(normed):
        alias_role = ALIASES.get(n)
        if alias_role and alias_role not in columns and i not in taken:
            if alias_role in by_alias:
                first = names[by_alias[alias_role]]
                raise LogError(
                    f"{where}: columns {shown_header(first)!r} and {shown_header(names[i])!r} both read "
                    f"as the {alias_role.replace('_', ' ')}; name the one to read with --columns "
                    f"{alias_role}={shown_header(first)}"
                )
            got[alias_role] = by_alias[alias_role] = i
            taken.add(i)
    return got


def layout_of(roles, names: list[str], where: str) -> str:
    """``"cards"``, ``"per-card"`` or ``"outcomes"`` / ``"beads"`` (for :mod:`.outcomes`); else an error
    that says what was seen and the ``--columns`` line to write."""
    if "shoe" in roles:
        if "player" in roles and "banker" in roles:
            return "cards"
        if all(r in roles for r in ("p1", "p2", "b1", "b2")):
            return "per-card"
        if "results" in roles:
            return "beads"
        if "outcome" in roles and not any(r in roles for r in ("player", "banker") + _CARD_ROLES):
            return "outcomes"
    have = [shown_header(n) for n in names if n.strip()]
    free = [shown_header(n) for i, n in enumerate(names) if n.strip() and i not in set(roles.values())]
    want = [r for r in ("shoe", "player", "banker") if r not in roles]
    if "outcome" not in roles and len(free) > len(want):
        want.append("outcome")
    pairs = [f"{r}={shown_header(names[i])}" for r, i in roles.items()]
    pairs += [f"{r}={h}" for r, h in zip(want, free)]
    pairs += [f"{r}=HEADER" for r in want[len(free) :]]
    line = ",".join(pairs)
    if any(ch in line for ch in " '\"♠♥♦♣"):
        line = "'" + line.replace("'", "'\\''") + "'"
    raise LogError(
        f"{where}: cannot tell which columns hold the shoe, the cards and the outcome "
        f"(seen: {', '.join(have) or 'no names'}; recognised: "
        f"{', '.join(f'{r}={shown_header(names[i])}' for r, i in roles.items()) or 'none'}); "
        f"name them, e.g. --columns {line}"
    )
