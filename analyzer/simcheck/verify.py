"""Replay a hand log against the drawing rules and the declared shoe.

Every coup is replayed from its cards: the number of cards of each hand, every
third card (drawn only where the tableau of ``RULES.md`` says, as kept in
:mod:`analyzer.core.rules`), the reported outcome against the computed one, and the
cards themselves against the declared shoe: no card the shoe does not hold,
and no shoe (a run of rows with the same ``shoe`` id) dealing more of a card
than the shoe contains.  Cards of the ``seen`` column count as dealt.

>>> from analyzer.simcheck.logs import read_hand_log
>>> from analyzer.core.shoe import Shoe
>>> text = "shoe,player,banker,outcome\\n1,2 3 4,K 5,banker\\n1,9 9,8 K,banker\\n"
>>> rep = replay(read_hand_log("hands.csv", text), Shoe.standard(8))
>>> for v in rep.violations: print(v)
row 2: banker stood on 5 although player's third card was 4
row 2: reported outcome banker but the cards give player (player 9, banker 5)
row 3: reported outcome banker but the cards give a tie (player 8, banker 8)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

import numpy as np

from ..core.cards import RANKS, SUITS
from ..core.frames import html_table
from ..core.rules import PUNTO_BANCO, Rules, deal, format_values, winner_codes
from ..core.shoe import Shoe
from ..io.tables import csv_text, json_text
from .logs import CARD_CODES, CARD_POINT, NO_SUIT, OUTCOME_NAMES, HandLog, LogError, card_text

if TYPE_CHECKING:
    from .stream import LogStream

#: rule names used in :class:`Violation`
RULES = {
    "cards": "each hand has 2 or 3 cards",
    "natural": "nobody draws when either hand has a two-card 8 or 9",
    "player": "Player draws on 0-5 and stands on 6-7",
    "banker": "Banker follows the third-card table",
    "outcome": "the reported outcome is the one the cards give",
    "not-in-shoe": "every card is one the declared shoe holds",
    "overdealt": "a shoe deals no card more often than it holds it",
    "shoe-id": "a shoe id changes at each new shoe and does not come back",
    "total": "a reported player or banker total is the one the cards give",
}
#: the rules a coup breaks by itself (its cards against the tableau, what it reports); the others
#: ("not-in-shoe", "overdealt", "shoe-id") are broken by the log against the declared shoe
COUP_RULES = ("cards", "natural", "player", "banker", "outcome", "total")


@dataclass(frozen=True)
class Violation:
    row: int
    shoe: str
    rule: str
    message: str

    def __str__(self) -> str:
        return f"row {self.row}: {self.message}"


def ordinal(n: int) -> str:
    """``1st 2nd 3rd 4th ... 11th 12th 13th 21st``.

    >>> [ordinal(n) for n in (1, 2, 3, 4, 9, 11, 12, 13, 21, 33)]
    ['1st', '2nd', '3rd', '4th', '9th', '11th', '12th', '13th', '21st', '33rd']
    """
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th') }"


_RANK_WORD = {"A": "ace", "T": "ten", "J": "jack", "Q": "queen", "K": "king"}


def _rank_word(rank: str) -> str:
    return _RANK_WORD.get(rank, rank)


@dataclass
class Replay:
    """The replayed log.  Per-coup arrays are meaningful only for rule-abiding coups."""

    log: HandLog
    shoe: Shoe
    violations: list[Violation]
    winner: np.ndarray  # 0 player, 1 banker, 2 tie
    player_total: np.ndarray
    banker_total: np.ndarray
    cards: np.ndarray  # cards dealt in the coup, 4..6
    sequence: np.ndarray  # index of the coup's six point values (engine order)
    remaining: np.ndarray  # (n, 10) unseen cards of each point value before the coup
    counts: dict = field(default_factory=dict)
    rules: Rules = PUNTO_BANCO
    #: every violation of the log, in order, as ``(coup index, rule, message)`` (not cut by ``limit``)
    flagged: list[tuple[int, str, str]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.violations

    @property
    def unseen(self) -> np.ndarray:
        return self.remaining.sum(axis=1)

    def __repr__(self) -> str:
        """Short: the log, the shoe, the violations counted (the per-coup arrays are fields).

        >>> from analyzer.simcheck.logs import read_hand_log
        >>> text = "shoe,player,banker,outcome\\n1,2 3 4,K 5,banker\\n1,9 9,8 K,banker\\n"
        >>> replay(read_hand_log("hands.csv", text), Shoe.standard(8))
        <Replay of 'hands.csv': 2 coups in 1 shoe of 8 decks (416 cards): 3 violations on 2 rows>
        """
        return _replay_repr("Replay", self)

    def _repr_html_(self) -> str:
        """A notebook's table of the violations kept: row, shoe, rule, message."""
        return _violations_html(self)


def replay(
    log: HandLog, shoe: Shoe, limit: int | None = None, rules: Rules | None = None, carry: dict | None = None
) -> Replay:
    """Replay every coup of ``log`` from ``shoe`` (each new shoe id starts a full ``shoe``).

    ``carry``: for a log read in chunks (:mod:`.stream`), a dict kept from one chunk to the next
    (start with ``{}``): the cards left in the shoe the previous chunk ended in, which the next
    chunk's first coups go on dealing from when they are of the same shoe.

    ``limit`` stops collecting violations after that many (the count of rows is still exact).
    ``rules``: the drawing rules replayed against (default Punto Banco); where the rule
    set lets the Player choose (its ``player_option``), drawing and standing are both
    legal.  Under other rules each drawing message names the rule that was broken.
    """
    rules = rules or PUNTO_BANCO
    named = not rules.is_default
    n = log.coups
    point = np.array(CARD_POINT + (0,), dtype=np.int16)  # index -1 -> 0 (no card)
    P = point[log.player.astype(np.int16)]
    B = point[log.banker.astype(np.int16)]
    plen = log.player_len.astype(np.int16)
    blen = log.banker_len.astype(np.int16)
    p1, p2 = P[:, 0], P[:, 1]
    b1, b2 = B[:, 0], B[:, 1]
    p_drew, b_drew = plen == 3, blen == 3
    p3 = np.where(p_drew, P[:, 2], -1)
    b3 = np.where(b_drew, B[:, 2], -1)
    shape_ok = (plen >= 2) & (plen <= 3) & (blen >= 2) & (blen <= 3)

    c5 = np.where(p_drew, p3, np.where(b_drew, b3, 0))
    c6 = np.where(p_drew & b_drew, b3, 0)
    ruled = deal(rules, p1, b1, p2, b2, c5, c6)  # what the rules do with these cards
    acted = deal(rules, p1, b1, p2, b2, c5, c6, player_draws=p_drew)  # the Banker on what the Player did
    pt2, bt2, natural = ruled.player_two, ruled.banker_two, ruled.natural
    p_should = ruled.player_drew
    p_free = ~natural & np.isin(pt2, sorted(rules.player_option))  # the Player may choose
    b_should = acted.banker_drew
    pt = (pt2 + np.maximum(p3, 0)) % 10  # the totals the cards give
    bt = (bt2 + np.maximum(b3, 0)) % 10
    winner = winner_codes(pt, bt)
    cards = (plen + blen).astype(np.int8)
    sequence = ((((p1.astype(np.int64) * 10 + b1) * 10 + p2) * 10 + b2) * 10 + c5) * 10 + c6

    found: list[tuple[int, int, str, str]] = []  # (coup index, order, rule, message)
    rows = log.rows

    def flag(mask, rule, make):
        for k in np.flatnonzero(mask):
            found.append((int(k), len(found), rule, make(int(k))))

    def natural_who(k):
        if ruled.player_natural[k]:
            return f"player has a natural {pt2[k]}"
        return f"banker has a natural {bt2[k]}"

    def count_msg(side, lens):
        def make(k):
            m = int(lens[k])
            return f"{side} has {m} card{'s' if m != 1 else ''} (a hand has 2 or 3)"

        return make

    flag((plen < 2) | (plen > 3), "cards", count_msg("player", plen))
    flag((blen < 2) | (blen > 3), "cards", count_msg("banker", blen))
    ok = shape_ok
    flag(ok & natural & p_drew, "natural", lambda k: f"player drew a third card although {natural_who(k)}")
    flag(ok & natural & b_drew, "natural", lambda k: f"banker drew a third card although {natural_who(k)}")
    if named:
        draws_on = frozenset(rules.player_draws) | frozenset(rules.player_option)
        stands_on = frozenset(range(10)) - draws_on - rules.naturals
        draw_text = f" ({rules.name}: player draws on {format_values(rules.player_draws)}" + (
            f", may choose on {format_values(rules.player_option)})" if rules.player_option else ")"
        )
        stand_text = f" ({rules.name}: player stands on {format_values(stands_on)})"
    else:
        draw_text, stand_text = " (player draws on 0-5)", " (player stands on 6-7)"

    def player_rule(k, text):
        if rules.player_hands:
            return f" ({rules.name}: the player's rule for the hand {p1[k]} {p2[k]})"
        return text

    flag(ok & p_should & ~p_drew & ~p_free, "player", lambda k: f"player stood on {pt2[k]}" + player_rule(k, draw_text))
    flag(
        ok & ~natural & ~p_should & p_drew & ~p_free,
        "player",
        lambda k: f"player drew on {pt2[k]}" + player_rule(k, stand_text),
    )

    def banker_reason(k):
        return f"player's third card was {p3[k]}" if p_drew[k] else "player stood"

    def banker_rule(k):
        """Under named rules: the Banker cell that was broken."""
        if not named:
            return ""
        t = int(bt2[k])
        if p_drew[k]:
            on = [p for p in range(10) if rules.banker[t][p]]
            return (
                f" ({rules.name}: banker on {t} draws on a player's third card of {format_values(on)})"
                if 0 < len(on) < 10
                else f" ({rules.name}: banker on {t} {'always draws' if on else 'stands'} when the player drew)"
            )
        return f" ({rules.name}: when the player stood, banker draws on {format_values(rules.banker_if_player_stood)})"

    flag(
        ok & b_should & ~b_drew,
        "banker",
        lambda k: f"banker stood on {bt2[k]} although {banker_reason(k)}" + banker_rule(k),
    )
    flag(
        ok & ~natural & ~b_should & b_drew,
        "banker",
        lambda k: f"banker drew on {bt2[k]} although {banker_reason(k)}" + banker_rule(k),
    )

    def outcome_msg(k):
        got = OUTCOME_NAMES[winner[k]]
        said = OUTCOME_NAMES[log.outcome[k]]
        give = "a tie" if got == "tie" else got
        return f"reported outcome {said} but the cards give {give} (player {pt[k]}, banker {bt[k]})"

    flag(ok & (log.outcome >= 0) & (log.outcome != winner), "outcome", outcome_msg)
    if log.reported_totals is not None:
        for j, (side, got) in enumerate((("player", pt), ("banker", bt))):
            said = log.reported_totals[:, j]
            flag(
                ok & (said >= 0) & (said != got),
                "total",
                lambda k, side=side, said=said, got=got: f"reported {side} total {said[k]} but the cards give {got[k]}",
            )

    for k, shoe_id, first_row in log.reused:
        found.append(
            (
                k,
                len(found),
                "shoe-id",
                f"shoe id {shoe_id!r} comes back after other shoes (first used at row "
                f"{first_row}); ids must change at each new shoe and not repeat",
            )
        )

    carry = {} if carry is None else carry
    fast = _account_fast(log, shoe, carry)
    found.extend(fast if fast is not None else _account(log, shoe, len(found), carry))
    found.sort(key=lambda t: (t[0], t[1]))
    violations = []
    for k, _, rule, msg in found:
        violations.append(Violation(int(rows[k]), log.shoe_ids[log.shoe[k]], rule, msg))
        if limit is not None and len(violations) >= limit:
            break
    remaining = _remaining(log, shoe, P, B, plen, blen, carry)
    rep = Replay(
        log,
        shoe,
        violations,
        winner,
        pt.astype(np.int8),
        bt.astype(np.int8),
        cards,
        sequence,
        remaining,
        rules=rules,
        flagged=[(k, rule, msg) for k, _, rule, msg in found],
    )
    rep.counts = {"violations": len(found), "rows": n, "shoes": log.shoes, "violating_rows": len({t[0] for t in found})}
    return rep


def _account_fast(log: HandLog, shoe: Shoe, carry: dict) -> list | None:
    """:func:`_account` on whole arrays when no card of the chunk is foreign to the declared shoe nor
    dealt more often than it holds (the counts only grow, so checking each shoe's totals suffices):
    no violation, and the same ``carry``.  None, carry untouched, when some card may violate (then
    :func:`_account` lists the violations in order)."""
    n = log.coups
    if n == 0:
        return None
    rank_cap = np.array(shoe.rank_tuple, dtype=np.int64)
    card_cap = np.array(shoe.card_tuple, dtype=np.int64) if shoe.suited else None
    ks, cs = [], []
    for arr, lens in ((log.player, log.player_len), (log.banker, log.banker_len)):
        for j in range(3):
            has = np.flatnonzero(lens > j)
            ks.append(has)
            cs.append(arr[has, j].astype(np.int64))
    for coup, codes in list(log.seen.items()) + [(k, pe + be) for k, (pe, be) in log.extra.items()]:
        ks.append(np.full(len(codes), coup, dtype=np.int64))
        cs.append(np.array(codes, dtype=np.int64))
    k, c = np.concatenate(ks), np.concatenate(cs)
    rank, suit = c // 5, c % 5
    suited = suit != NO_SUIT
    if (
        (c < 0).any()
        or (rank_cap[rank] <= 0).any()
        or (card_cap is not None and (card_cap[(4 * rank + suit)[suited]] <= 0).any())
    ):
        return None
    current, ranks, cards = carry.get("account", (-1, None, None))
    first = log.shoe[0]
    seg = (log.shoe - first).astype(np.int64)
    S = int(seg[-1]) + 1
    out: list[list[int] | None] = []
    for width, key, cap, carried, use in (
        (13, rank, rank_cap, ranks, slice(None)),
        (52, 4 * rank + suit, card_cap, cards, suited),
    ):
        if cap is None:
            out.append(None)
            continue
        left = np.broadcast_to(cap, (S, width)).copy()
        if first == current and carried is not None:
            left[0] = carried
        dealt = np.bincount(seg[k[use]] * width + key[use], minlength=S * width).reshape(S, width)
        left -= dealt
        if ((left < 0) & (dealt > 0)).any():  # (a count carried below zero is no new violation)
            return None
        out.append(left[-1].tolist())
    carry["account"] = (int(log.shoe[-1]), out[0], out[1])
    return []


def _account(log: HandLog, shoe: Shoe, order0: int, carry: dict) -> list[tuple[int, int, str, str]]:
    """Cards against the declared shoe, shoe by shoe (a Python loop over cards)."""
    rank_cap = list(shoe.rank_tuple)
    card_cap = list(shoe.card_tuple) if shoe.card_tuple is not None else None  # suited
    rank_of = [c // 5 for c in range(CARD_CODES)]
    suit_of = [c % 5 for c in range(CARD_CODES)]
    known = [
        rank_cap[rank_of[c]] > 0
        and (card_cap is None or suit_of[c] == NO_SUIT or card_cap[4 * rank_of[c] + suit_of[c]] > 0)
        for c in range(CARD_CODES)
    ]
    where = shoe.describe()
    out: list[tuple[int, int, str, str]] = []
    order = order0
    player = log.player.tolist()
    banker = log.banker.tolist()
    plen = log.player_len.tolist()
    blen = log.banker_len.tolist()
    shoe_idx = log.shoe.tolist()
    seen = log.seen
    extra = log.extra
    current, ranks, cards = carry.get("account", (-1, None, None))
    for k in range(log.coups):
        if shoe_idx[k] != current:
            current = shoe_idx[k]
            ranks = rank_cap[:]
            cards = card_cap[:] if card_cap is not None else None
        hand: list[int] = []
        if k in seen:
            hand.extend(seen[k])
        hand.extend(player[k][: min(3, plen[k])])
        hand.extend(banker[k][: min(3, blen[k])])
        if k in extra:
            hand.extend(extra[k][0])
            hand.extend(extra[k][1])
        for c in hand:
            if not known[c]:
                out.append((k, order, "not-in-shoe", f"{card_text(c)} is not in the declared shoe ({where})"))
                order += 1
                continue
            r = rank_of[c]
            ranks[r] -= 1
            if ranks[r] < 0:
                cap = rank_cap[r]
                out.append(
                    (
                        k,
                        order,
                        "overdealt",
                        f"shoe {log.shoe_ids[current]!r} deals a {ordinal(cap - ranks[r])} "
                        f"{_rank_word(RANKS[r])} ({card_text(c)}), but the declared shoe holds "
                        f"{cap}",
                    )
                )
                order += 1
                continue
            if cards is not None and suit_of[c] != NO_SUIT:
                j = 4 * r + suit_of[c]
                cards[j] -= 1
                if cards[j] < 0:
                    assert card_cap is not None  # cards are counted in a suited shoe
                    cap = card_cap[j]
                    name = RANKS[r] + SUITS[suit_of[c]]
                    out.append(
                        (
                            k,
                            order,
                            "overdealt",
                            f"shoe {log.shoe_ids[current]!r} deals a {ordinal(cap - cards[j])} "
                            f"{name}, but the declared shoe holds {cap}",
                        )
                    )
                    order += 1
    carry["account"] = (current, ranks, cards)
    return out


def _remaining(log: HandLog, shoe: Shoe, P, B, plen, blen, carry: dict) -> np.ndarray:
    """Unseen cards of each value before each coup (after that coup's ``seen`` cards); ``carry``
    holds, from one chunk to the next, the shoe index of the last coup and its cards left after it."""
    n = log.coups
    rows = np.arange(n, dtype=np.int64)
    flat = [(rows[lens > j] + 1) * 10 + vals[lens > j, j] for j in range(3) for vals, lens in ((P, plen), (B, blen))]
    dealt = np.bincount(np.concatenate(flat), minlength=(n + 1) * 10).reshape(n + 1, 10).astype(np.int32)
    for k, (pe, be) in log.extra.items():
        for c in pe + be:
            dealt[k + 1, CARD_POINT[c]] += 1
    seen = np.zeros((n + 1, 10), dtype=np.int32)
    for k, codes in log.seen.items():
        for c in codes:
            seen[k + 1, CARD_POINT[c]] += 1
    np.cumsum(dealt, axis=0, out=dealt)
    np.cumsum(seen, axis=0, out=seen)
    idx = log.shoe
    starts = np.flatnonzero(np.r_[True, idx[1:] != idx[:-1]])
    first = starts[idx - idx[0]] if n else starts  # shoe indices count up by one at each change of id
    base = np.broadcast_to(np.array(shoe.value_counts, dtype=np.int32), (n, 10))
    last_shoe, left = carry.get("remaining", (-1, None))
    if n and left is not None and idx[0] == last_shoe:
        base = base.copy()
        base[idx == last_shoe] = left
    out = base - (dealt[:-1] - dealt[first]) - (seen[1:] - seen[first])
    if n:
        f = first[-1]
        carry["remaining"] = (int(idx[-1]), base[-1] - (dealt[n] - dealt[f]) - (seen[n] - seen[f]))
    return out


def _skipped_text(log) -> str:
    n = sum(log.skipped.values())
    return (
        f"--skip-invalid: {n} unreadable row{'s' if n != 1 else ''} skipped ("
        + "; ".join(f"{k}: {v}" for k, v in sorted(log.skipped.items(), key=lambda kv: -kv[1])[:5])
        + ")"
    )


def _coups_text(log) -> str:
    return (
        f"{log.path}: {log.coups:,} coup{'s' if log.coups != 1 else ''} in {log.shoes:,} "
        f"shoe{'s' if log.shoes != 1 else ''}"
    )


def _verdict_lines(rep, shown: int, total: int) -> list[str]:
    if not total:
        return ["OK: every coup follows the drawing rules and the declared shoe."]
    lines = []
    more = total - shown
    if more > 0:
        lines.append(f"... and {more} more violation{'s' if more != 1 else ''}")
    rows = rep.counts.get("violating_rows", total)
    lines.append(f"FAIL: {total} violation{'s' if total != 1 else ''} in {rows} row{'s' if rows != 1 else ''}.")
    return lines


class LogSummary(Protocol):
    """What the summaries read of a log: a :class:`~.logs.HandLog`, or the :class:`LogTotals` of a stream."""

    @property
    def path(self) -> str: ...
    @property
    def coups(self) -> int: ...
    @property
    def shoes(self) -> int: ...
    @property
    def shape(self) -> str: ...
    @property
    def skipped(self) -> dict[str, int]: ...


class ReplaySummary(Protocol):
    """What :func:`summary_text`, :func:`replay_json` and :func:`replay_csv` read: a :class:`Replay`,
    or the :class:`StreamReplay` of a log read as a stream."""

    @property
    def log(self) -> LogSummary: ...
    @property
    def shoe(self) -> Shoe: ...
    @property
    def rules(self) -> Rules: ...
    @property
    def counts(self) -> dict: ...


def summary_text(rep: ReplaySummary, shown: list[Violation], total: int) -> str:
    log = rep.log
    head = (
        f"{log.path}: {log.coups} coup{'s' if log.coups != 1 else ''} in {log.shoes} "
        f"shoe{'s' if log.shoes != 1 else ''}, declared shoe {rep.shoe.describe()}"
    )
    if not rep.rules.is_default:
        head += f", rules {rep.rules.name}"
    if log.shape:
        head += f"\n{log.shape}"
    if log.skipped:
        head += "\n" + _skipped_text(log)
    return "\n".join([head, *(str(v) for v in shown), *_verdict_lines(rep, len(shown), total)]) + "\n"


def stream_head(path: str, shoe: Shoe, rules: Rules | None) -> str:
    """First line of ``verify`` on a log read as it goes (its counts come at the end)."""
    named = f", rules {rules.name}" if rules is not None and not rules.is_default else ""
    return (
        f"{path}: declared shoe {shoe.describe()}"
        + named
        + " (read as it goes: violations as they are found, the counts at the end)\n"
    )


def stream_tail(rep, shown: int, total: int) -> str:
    """Last lines of ``verify`` on a log read as it goes: the counts, how it was read, the verdict."""
    log = rep.log
    verdict = _verdict_lines(rep, shown, total)
    lines = (
        verdict[:-1]
        + [_coups_text(log)]
        + ([log.shape] if log.shape else [])
        + ([_skipped_text(log)] if log.skipped else [])
    )
    return "\n".join(lines + verdict[-1:]) + "\n"


@dataclass
class LogTotals:
    """What ``verify`` reports of a log read as a stream."""

    path: str
    coups: int
    shoes: int
    shape: str
    skipped: dict[str, int]


@dataclass
class StreamReplay:
    """The replay of a log read chunk by chunk (:func:`replay_stream`): the counts, the violations kept."""

    log: LogTotals
    shoe: Shoe
    rules: Rules
    violations: list[Violation]
    counts: dict

    def __repr__(self) -> str:
        """Short: the log, the shoe, the violations counted (those kept are :attr:`violations`)."""
        return _replay_repr("StreamReplay", self)

    def _repr_html_(self) -> str:
        """A notebook's table of the violations kept: row, shoe, rule, message."""
        return _violations_html(self)


def _replay_repr(kind: str, rep) -> str:
    log, total = rep.log, rep.counts.get("violations", len(rep.violations))
    rules = "" if rep.rules.is_default else f", rules {rep.rules.name}"
    found = (
        f"{total} violation{'' if total == 1 else 's'} on {rep.counts.get('violating_rows', 0)} "
        f"row{'' if rep.counts.get('violating_rows', 0) == 1 else 's'}"
        if total
        else "no violations"
    )
    return (
        f"<{kind} of {log.path!r}: {log.coups} coup{'' if log.coups == 1 else 's'} in {log.shoes} "
        f"shoe{'' if log.shoes == 1 else 's'} of {rep.shoe.describe()}{rules}: {found}>"
    )


def _violations_html(rep) -> str:
    rows = [[v.row, v.shoe, v.rule, v.message] for v in rep.violations]
    return html_table(_replay_repr(type(rep).__name__, rep)[1:-1], ["row", "shoe", "rule", "message"], rows)


def refuse_outcome_only(stream) -> None:
    """Refuse (:class:`~.logs.LogError`) a :class:`~.stream.LogStream` of an outcome-only log:
    it has no cards to replay."""
    if getattr(stream, "outcomes", None) is not None:
        raise LogError(
            f"{stream.path}: {stream.outcomes.shape}: an outcome-only log has no cards to replay "
            f"(name the card columns with --columns, or use 'baccarat check')"
        )


def open_hand_log(path: str, columns: str | None = None, skip_invalid: bool = False, source=None) -> LogStream:
    """The hand log at ``path`` for :func:`replay_stream` (:func:`~.stream.open_log`, read as it
    goes when long; ``source``: its :class:`~.stream.LogSource`, e.g. one reporting progress).
    A tallies file and an outcome-only log are refused (:class:`~.logs.LogError`, one line): they
    have no coups to replay."""
    from .logs import sniff_kind
    from .stream import LogSource, open_log

    src = source or LogSource(path)
    if sniff_kind(path, src.head) == "tallies":
        raise LogError(
            f"{path}: this is a tallies file (category,count,total_return): verify replays "
            "hand logs coup by coup; check tallies with 'baccarat check'"
        )
    stream = open_log(path, columns, skip_invalid, source=src)
    refuse_outcome_only(stream)
    return stream


def replay_stream(
    stream, shoe: Shoe, rules: Rules | None = None, limit: int | None = None, found=None, keep: bool = True
) -> StreamReplay:
    """Replay a :class:`~.stream.LogStream` chunk by chunk.  ``found(violation)`` is called for each of
    the first ``limit`` violations (``None``: all) as soon as its chunk is replayed; ``keep``: keep them
    in the result too.  Every violation is counted.  An outcome-only log is refused
    (:func:`refuse_outcome_only`)."""
    refuse_outcome_only(stream)
    carry: dict = {}
    kept: list[Violation] = []
    shown = total = rows = 0
    for chunk in stream.chunks():
        want = None if limit is None else max(1, limit - shown)
        rep = replay(chunk, shoe, limit=want, rules=rules, carry=carry)
        total += rep.counts["violations"]
        rows += rep.counts["violating_rows"]
        for v in rep.violations:
            if limit is not None and shown >= limit:
                break
            shown += 1
            if keep:
                kept.append(v)
            if found is not None:
                found(v)
    log = LogTotals(stream.path, stream.coups, stream.shoes, stream.shape, stream.skipped)
    return StreamReplay(
        log,
        shoe,
        rules or PUNTO_BANCO,
        kept,
        {"violations": total, "rows": stream.coups, "shoes": stream.shoes, "violating_rows": rows, "shown": shown},
    )


def replay_json(rep: ReplaySummary, shown: list[Violation], total: int) -> str:
    doc = {
        "source": rep.log.path,
        "shoe": rep.shoe.spec(),
        "coups": rep.log.coups,
        "shoes": rep.log.shoes,
        "violations": total,
        "violating_rows": rep.counts.get("violating_rows", 0),
        "ok": not total,
        "read_as": rep.log.shape,
        "skipped": rep.log.skipped,
        "listed": [{"row": v.row, "shoe": v.shoe, "rule": v.rule, "message": v.message} for v in shown],
    }
    if not rep.rules.is_default:
        doc["rules"] = rep.rules.describe()
    return json_text(doc)


def replay_csv(rep: ReplaySummary, shown: list[Violation]) -> str:
    return csv_text([[v.row, v.shoe, v.rule, v.message] for v in shown], ["row", "shoe", "rule", "message"])
