"""Coups per shoe: does the log deal as many coups per shoe as the declared procedure does?

A shoe dealt to a cut card (:class:`analyzer.core.procedure.Procedure`: the burn, the cut
card, the coups after it) holds a random number of coups, since a coup uses 4, 5 or 6
cards.  Its law depends on the whole order of the shoe, so it is computed two ways:

* **exact**, for small shoes: ``g(c)[k]``, the number of value sequences of the cards
  ``c`` still in the shoe that lead to ``k`` more coups, satisfies
  ``g(c) = sum_(L, m) cnt(L, m) g(c - m)`` shifted by one coup, over the ``L``-card
  value prefixes ``m`` that make a coup of ``L`` cards (``cnt`` of them per multiset);
  the burn removes cards the same way.  Exact integers, one state per composition
  reached: feasible while the compositions number at most :data:`EXACT_STATES`
  (a shoe of some twenty cards; 8 decks have about ``33**9 * 129`` and are out of reach);
* **simulated**, for any shoe: :data:`SIM_SHOES` shoes (at least) shuffled with a fixed
  seed and dealt by the same procedure.  The log is then compared with that sample by a
  two-sample chi-square test of homogeneity, which is valid although the reference is an
  estimate (the report says so; nothing simulated is called exact).

>>> from analyzer.core.procedure import Procedure
>>> law = exact_law((1, 1, 1, 1, 0, 0, 0, 0, 1, 3), Procedure.create(8, cut_card=6))
>>> law
{1: Fraction(1, 1)}
"""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction
from functools import cache, lru_cache

import numpy as np

from ..core.procedure import Procedure

#: the most compositions the exact law is computed over
EXACT_STATES = 4_000
#: the fewest shoes simulated for the reference (at least 10 times the log's shoes, at most SIM_MAX)
SIM_SHOES = 20_000
SIM_MAX = 200_000
SIM_SEED = 20_261_202


@lru_cache(maxsize=4)
def _tables(rules):
    """(length of the coup of each 5-value prefix, {(L, multiset): value prefixes})."""
    from ..core.engine import POSITIONS, coup_table

    table = coup_table(rules)
    cards = np.asarray(table.cards_dealt)
    length = cards.reshape(-1, 10)[:, 0].astype(np.int8)  # the 6th value never decides the length
    seq = np.indices((10,) * POSITIONS, dtype=np.int8).reshape(POSITIONS, -1)
    prefixes: Counter = Counter()
    pow7 = np.int64(7) ** np.arange(10, dtype=np.int64)
    for L in (4, 5, 6):
        step = 10 ** (POSITIONS - L)
        first = np.flatnonzero((cards == L) & (np.arange(cards.size) % step == 0))
        code = pow7[seq[:L, first].astype(np.int64)].sum(axis=0)  # the multiset, base 7
        uniq, n = np.unique(code, return_counts=True)
        for u, k in zip(uniq.tolist(), n.tolist()):
            prefixes[(L, tuple(int(u // 7**v % 7) for v in range(10)))] += k
    keys = list(prefixes)
    M = np.array([m for _, m in keys], dtype=np.int64)
    return length, M, np.array([L for L, _ in keys]), [prefixes[k] for k in keys]


def exact_law(values, procedure: Procedure, rules=None) -> dict[int, Fraction] | None:
    """The exact law of the coups per shoe of a shoe with these value counts (index 0: ten-valued), or
    ``None`` when the shoe has more than :data:`EXACT_STATES` compositions."""
    values = tuple(int(v) for v in values)
    if math.prod(v + 1 for v in values) > EXACT_STATES:
        return None
    _, M, _, cnt = _tables(rules)
    fits = np.flatnonzero((M <= np.array(values)).all(axis=1))
    M, cnt = M[fits], [cnt[i] for i in fits.tolist()]
    rows = M.tolist()
    cut, total = procedure.cut_card, sum(values)

    @cache
    def g(c: tuple[int, ...]) -> tuple[int, ...]:
        if sum(c) < cut:
            return (_multinomial(c),)
        out: list[int] = []
        ok = np.flatnonzero((M <= np.array(c)).all(axis=1))
        for i in ok.tolist():
            sub = g(tuple(a - b for a, b in zip(c, rows[i])))
            if len(out) < len(sub) + 1:
                out.extend([0] * (len(sub) + 1 - len(out)))
            w = cnt[i]
            for k, x in enumerate(sub):
                out[k + 1] += w * x
        return tuple(out)

    @cache
    def burned(c: tuple[int, ...], b: int) -> tuple[int, ...]:
        if b == 0:
            return g(c)
        acc: list[int] = []
        for v in range(10):
            if c[v]:
                sub = burned(c[:v] + (c[v] - 1,) + c[v + 1 :], b - 1)
                acc.extend([0] * (len(sub) - len(acc)))
                for k, x in enumerate(sub):
                    acc[k] += x
        return tuple(acc)

    if procedure.burn == "standard" and total - 1 >= cut:
        ways: list[int] = []
        for v in range(10):
            if not values[v]:
                continue
            b = v or 10  # the shown card's value, 10 for a ten-valued card
            sub = burned(values[:v] + (values[v] - 1,) + values[v + 1 :], b if total - 1 - b >= cut else 0)
            ways.extend([0] * (len(sub) - len(ways)))
            for k, x in enumerate(sub):
                ways[k] += x
    elif procedure.burn in ("none", "standard"):
        ways = list(g(values))
    else:
        ways = list(burned(values, int(procedure.burn)))
    whole = sum(ways)
    return {k + procedure.after_cut: Fraction(x, whole) for k, x in enumerate(ways) if x}


def _multinomial(c) -> int:
    out, n = 1, 0
    for k in c:
        n += k
        out *= math.comb(n, k)
    return out


def simulated_counts(values, procedure: Procedure, shoes: int, seed: int = SIM_SEED, rules=None) -> Counter:
    """Coups per shoe of ``shoes`` shoes shuffled (PCG64, ``seed``) and dealt by ``procedure``."""
    length, _, _, _ = _tables(rules)
    base = np.repeat(np.arange(10, dtype=np.int8), values)
    n = base.size
    stop = n - procedure.cut_card
    rng = np.random.Generator(np.random.PCG64(seed))
    out: Counter = Counter()
    for lo in range(0, shoes, 10_000):
        S = min(10_000, shoes - lo)
        V = rng.permuted(np.broadcast_to(base, (S, n)), axis=1)
        pos = (
            np.array([procedure.start(row)[0] for row in V.tolist()])
            if procedure.burn != "none"
            else np.zeros(S, dtype=np.int64)
        )
        V = np.concatenate([V, np.zeros((S, 6), dtype=np.int8)], axis=1).astype(np.int64)
        coups = np.zeros(S, dtype=np.int64)
        rows = np.arange(S)
        live = pos <= stop
        while live.any():
            r, p = rows[live], pos[live]
            key = (((V[r, p] * 10 + V[r, p + 1]) * 10 + V[r, p + 2]) * 10 + V[r, p + 3]) * 10 + V[r, p + 4]
            pos[live] = p + length[key]
            coups[live] += 1
            live = pos <= stop
        out.update((coups + procedure.after_cut).tolist())
    return out


def pooled(cells: list[int], weight) -> list[list[int]]:
    """Adjacent cells merged from both ends until each group weighs at least 5."""
    groups = [[k] for k in cells]
    while len(groups) > 1 and weight(groups[0]) < 5:
        groups[1] = groups[0] + groups[1]
        groups.pop(0)
    while len(groups) > 1 and weight(groups[-1]) < 5:
        groups[-2] = groups[-2] + groups[-1]
        groups.pop()
    i = 1
    while i < len(groups) - 1:
        if weight(groups[i]) < 5:
            groups[i + 1] = groups[i] + groups[i + 1]
            groups.pop(i)
        else:
            i += 1
    return groups


def two_sample(observed: Counter, reference: Counter) -> tuple[float, int, list[list[int]]]:
    """Chi-square of homogeneity of two samples of coups per shoe (statistic, df, pooled cells)."""
    n, m = sum(observed.values()), sum(reference.values())
    cells = sorted(set(observed) | set(reference))
    small = min(n, m) / (n + m)
    groups = pooled(cells, lambda g: small * sum(observed[k] + reference[k] for k in g))
    x = 0.0
    for g in groups:
        o, r = sum(observed[k] for k in g), sum(reference[k] for k in g)
        for count, size in ((o, n), (r, m)):
            e = size * (o + r) / (n + m)
            if e > 0:
                x += (count - e) ** 2 / e
    return x, len(groups) - 1, groups


def shoe_count_test(report, counts: Counter, values, procedure: Procedure, rules=None):
    """Add the coups-per-shoe test of ``counts`` (coups -> shoes of the log) to ``report``: the exact
    law when the shoe is small enough, else a two-sample test against simulated shoes.  Returns the
    report section of the simulated case (``None`` for the exact law, whose cells go in the report)."""
    from .families import Family
    from .reference import FamilyReference
    from .stats import Finding, cell_stats, chi2_p, chi_square, exact_p

    n = sum(counts.values())
    cards = sum(values)
    report.procedure = procedure.describe()
    law = exact_law(values, procedure, rules)
    if law is not None:
        ks = list(range(min(set(law) | set(counts)), max(set(law) | set(counts)) + 1))
        p = [law.get(k, Fraction(0)) for k in ks]
        pf = np.array([float(x) for x in p])
        title = f"Coups per shoe (exact law: {cards}-card shoe, {procedure.describe()})"
        fam = Family("shoe_coups", title, tuple(str(k) for k in ks), np.zeros(1, dtype=np.int16))
        ref = FamilyReference(
            fam, [n * x for x in p], [n * x * (1 - x) for x in p], n * (np.diag(pf) - np.outer(pf, pf))
        )
        obs = np.array([counts.get(k, 0) for k in ks])
        report.cells["shoe_coups"] = cell_stats(ref, obs)
        report.titles["shoe_coups"] = title
        c = chi_square(ref, obs)
        if c is not None:
            report.chisq.append(c)
        bad = sorted(k for k in counts if not law.get(k))
        if bad:
            report.exact.append(
                Finding(
                    "every shoe holds a number of coups the procedure can deal",
                    "exact",
                    f"{sum(counts[k] for k in bad)} shoe(s) of {', '.join(map(str, bad))} coups",
                    exact_p(False),
                    rejected=True,
                )
            )
        report.notes.append(
            f"Coups per shoe: the {n:,} shoes of the log (the last one taken as complete) "
            f"against their exact law for the declared shoe dealt with {procedure.describe()}."
        )
        return None
    m = min(SIM_MAX, max(SIM_SHOES, 10 * n))
    sim = simulated_counts(values, procedure, m, SIM_SEED, rules)
    x, df, groups = two_sample(counts, sim)
    if df >= 1:
        report.tests.append(
            Finding(f"chi-square coups per shoe, two-sample ({df} df)", "chi-square", f"{x:.3f}", chi2_p(x, df))
        )
    rows = []
    for g in groups:
        o, r = sum(counts[k] for k in g), sum(sim[k] for k in g)
        label = str(g[0]) if len(g) == 1 else f"{g[0]}-{g[-1]}"
        rows.append([label, f"{o:,}", f"{n * r / m:,.2f}", f"{r:,}"])
    states = math.prod(v + 1 for v in values)
    text = (
        f"Shoes of the log by their number of coups, against {m:,} shoes simulated with the declared "
        f"procedure ({procedure.describe()}; PCG64 seed {SIM_SEED}).  This reference is an estimate, not "
        f"exact: the exact law runs over the shoe's compositions ({states:.3g} of them here; it is "
        f"computed for at most {EXACT_STATES:,}), so the test is a two-sample chi-square of homogeneity, "
        f"valid with an estimated reference.  The last shoe of the log is taken as complete."
    )
    report.notes.append(f"Coups per shoe tested against {m:,} simulated shoes (an estimate; two-sample test).")
    return (
        "Coups per shoe (simulated reference)",
        text,
        ["coups", "shoes", "expected (simulated share)", "simulated shoes"],
        rows,
    )


__all__ = ["EXACT_STATES", "SIM_SHOES", "exact_law", "shoe_count_test", "simulated_counts", "two_sample"]
